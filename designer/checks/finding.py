"""What a check reports: one `Finding` per problem, never an exception."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Finding:
    code: str                 # stable, e.g. "RD004"
    severity: Severity
    message: str              # one sentence naming the objects and the numbers
    ids: tuple[str, ...]      # model ids involved (device, NIC, endpoint, link or address key)
    hint: str                 # how to fix it

    def as_dict(self) -> dict:
        return {"code": self.code, "severity": self.severity.value, "message": self.message,
                "ids": list(self.ids), "hint": self.hint}
