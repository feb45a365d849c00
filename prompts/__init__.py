"""The agent's prompts as text files (``system.md`` ...), versioned with the code; read by ``agent/prompts.py``."""
