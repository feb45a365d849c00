"""Query functions: each takes a keyword-only ``session`` and never commits."""
