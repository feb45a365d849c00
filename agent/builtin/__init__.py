"""The built-in offline model: a deterministic planner that speaks the Chat Completions protocol.

It reads the conversation (system context, history, question, and this turn's tool results) and
answers with the next tool calls or a composed answer. Nothing is random and nothing is remembered
between requests: every decision is recomputed from the messages, so it works the same in-process
(``agent.llm.builtin_transport``) and over HTTP (``cardwise model serve``).

- ``parse.py``: entities in a question (names, numbers, years, grades, release words...).
- ``intents.py``: THE table from question family to tool calls and arguments (edit it there).
- ``planner.py``: walks an intent's steps against the tools offered and the results so far.
- ``compose.py``: answers written from tool results.
- ``protocol.py``: the Chat Completions request/response wrapping.
"""
