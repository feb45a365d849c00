"""Persistence: SQLAlchemy 2 async models, query functions, migrations and importers.

Knows nothing of HTTP or of the agent. Query functions take a session and never commit.
"""
