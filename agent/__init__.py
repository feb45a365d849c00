"""The agent loop behind ``POST /v1/ai/query``: model <-> tool calls, bounded by ``maxIterations``."""
