"""The one domain error: bad input raises it; "does not fit" never does."""

from __future__ import annotations

__all__ = ["CalcError"]


class CalcError(ValueError):
    """Bad input, with a stable ``code`` and the offending ``field``.

    ``params`` carries the values the message quotes, so a report can
    re-render the message in the reader's language (``report.error_message``).
    """

    def __init__(
        self, code: str, message: str, *, field: str | None = None, **params: object
    ) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.params = params

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "field": self.field, "message": str(self)}
