"""The planner's refusal: parameters that cannot work, with every shortfall listed."""

from __future__ import annotations

from ..errors import DesignerError


class PlanningError(DesignerError, ValueError):
    """Parameters that cannot be built or addresses that do not fit; ``problems`` lists every shortfall."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems) if len(self.problems) < 2
                         else "\n".join(f"- {p}" for p in self.problems))
