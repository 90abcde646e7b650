"""The audit layer's one error type: what was wrong, as a stable code, and where."""

from __future__ import annotations


class AuditError(ValueError):
    """A bundle, receipt or proof that does not hold, or input an audit command cannot use.

    `code` is stable (docs/audit.md lists them all); `seq` names the first bad entry and `line`
    the bundle line, when the failure has them.
    """

    def __init__(self, code: str, detail: str, seq: int | None = None,
                 line: int | None = None) -> None:
        self.code = code
        self.detail = detail
        self.seq = seq
        self.line = line
        super().__init__(f"{code}: {self.message}")

    @property
    def message(self) -> str:
        where = ", ".join(part for part in (
            f"seq {self.seq}" if self.seq is not None else "",
            f"line {self.line}" if self.line is not None else "") if part)
        return f"{where}: {self.detail}" if where else self.detail
