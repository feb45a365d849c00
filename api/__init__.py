"""HTTP layer: the aiohttp app (routes table, auth and error middleware, request parsing) and the CLI.

Nothing imports ``api``; ``api`` calls tools directly and hands ``/v1/ai/query`` to the agent.
"""
