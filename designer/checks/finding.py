"""What a check reports: one `Finding` per problem, never an exception."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    """How bad a finding is: an ERROR makes an export refuse (unless forced); WARNING and INFO do not."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or note) a check reports: a stable code, the objects involved, and how to fix it."""

    code: str                 # stable, e.g. "RD004"
    severity: Severity
    message: str              # one sentence naming the objects and the numbers
    ids: tuple[str, ...]      # model ids involved (device, NIC, endpoint, link or address key)
    hint: str                 # how to fix it

    def as_dict(self) -> dict:
        return {"code": self.code, "severity": self.severity.value, "message": self.message,
                "ids": list(self.ids), "hint": self.hint}
