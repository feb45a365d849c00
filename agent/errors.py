"""Agent errors.

    AgentError                 base
    └── ModelUnavailable       the model server could not be reached after the retries (503)

Tool failures are never raised out of the loop: they become tool messages ``{error, code}``
the model can read and correct. Hitting the iteration bound is not an error either.
"""

from __future__ import annotations


class AgentError(Exception):
    code = "INTERNAL_ERROR"


class ModelUnavailable(AgentError):
    """The model server failed (connection, timeout, 429 or 5xx) on every attempt."""

    code = "SERVICE_UNAVAILABLE"
