"""Conversation eval suites and their runner (live, or replayed from vcrpy cassettes)."""
