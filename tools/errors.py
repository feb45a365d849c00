"""The one domain error type.

``ServiceError(code, message)`` carries a stable, machine-readable code. The API maps the code to
an HTTP status and the body ``{"error": message, "code": code}``; the agent turns it into a tool
message the model can read and correct. Codes and their statuses:

    VALIDATION_ERROR 400   UNAUTHORIZED 401   FORBIDDEN 403   NOT_FOUND 404   TIMEOUT 408
    CONFLICT 409           PAYLOAD_TOO_LARGE 413              UNSUPPORTED_MEDIA_TYPE 415
    NO_CARD_FOUND 422      RATE_LIMITED 429   FEEDBACK_LIMIT_EXCEEDED 429
    INTERNAL_ERROR 500     SERVICE_UNAVAILABLE 503
"""

from __future__ import annotations

STATUS_BY_CODE: dict[str, int] = {
    "VALIDATION_ERROR": 400,
    "UNAUTHORIZED": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "TIMEOUT": 408,
    "CONFLICT": 409,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "NO_CARD_FOUND": 422,
    "RATE_LIMITED": 429,
    "FEEDBACK_LIMIT_EXCEEDED": 429,
    "INTERNAL_ERROR": 500,
    "SERVICE_UNAVAILABLE": 503,
}


class ServiceError(Exception):
    """A failure a caller can understand and act on. ``code`` is one of ``STATUS_BY_CODE``."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        if code not in STATUS_BY_CODE:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        return STATUS_BY_CODE[self.code]

    def as_body(self) -> dict[str, str]:
        return {"error": self.message, "code": self.code}


def not_found(what: str, ident: object | None = None) -> ServiceError:
    suffix = f" {ident}" if ident is not None else ""
    return ServiceError("NOT_FOUND", f"{what}{suffix} not found")


def invalid(message: str) -> ServiceError:
    return ServiceError("VALIDATION_ERROR", message)


def conflict(message: str) -> ServiceError:
    return ServiceError("CONFLICT", message)
