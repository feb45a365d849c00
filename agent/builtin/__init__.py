"""The built-in offline model: a deterministic planner that speaks the Chat Completions protocol.

It reads the conversation (system context, history, question, and this turn's tool results) and
answers with the next tool calls or a composed answer. Nothing is random and nothing is remembered
between requests: every decision is recomputed from the messages, so it works the same in-process
(``agent.llm.BuiltinLLM``, or ``builtin_transport`` behind the openai client) and over HTTP (``cardwise model serve``).

By role (imports only go down this list; nothing imports ``planner`` but ``protocol``):
- ``conversation.py``: the request's messages read as question, history, tools offered, results.
- ``linking.py``: question -> catalog entities (local reading + the ``catalog_link`` tool's result).
- ``classifier.py`` / ``intents.py``: question -> family (embeddings over ``prompts/intents.yaml``)
  and THE table from family to tool calls.
- ``state.py``: what is known about one request.
- ``answers/``: tool results -> text, one function per family.
- ``rewrites.py``: the ordered rules that rewrite the family a question was classified as.
- ``planner.py``: walks a family's steps; ``protocol.py``: the Chat Completions wrapping.
"""
