"""Errors raised by the image code; the tools map them to HTTP statuses (400 / 415)."""

from __future__ import annotations


class VisionError(Exception):
    """An image the pipeline cannot use. ``kind``: ``corrupt``, ``too_large`` (over the decode
    budget), ``bad_shape`` (a side or the aspect ratio out of bounds) or ``unsupported``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
