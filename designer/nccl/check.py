"""The whole question in one call: logs in, judgements out (the CLI and scripts use this).

Across several runs one more cause can be named: when some runs fall short and others do not, the
servers present in every short run and absent from every healthy one are the suspects
(``NCCL-SLOW-HOST``): that is how pairwise or subset runs find one slow host.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..analysis.routing import Forwarding
from ..checks.finding import Finding, Severity
from ..model.fabric import Fabric
from .diagnose import Judgement, judge
from .parse import parse_file, parse_text
from .predict import place, predict
from .runs import Run

MAX_SUSPECTS = 2


@dataclass
class CheckResult:
    judgements: list[Judgement]
    findings: list[Finding]          # conclusions drawn across runs

    @property
    def verdicts(self) -> list[Finding]:
        return self.findings + [j.verdict for j in self.judgements if j.verdict is not None]

    @property
    def ok(self) -> bool:
        return all(v.severity is Severity.INFO for v in self.verdicts)


def judge_runs(fabric: Fabric, runs: list[Run], routing: str = "ppd", trials: int = 100, seed: int = 0,
               fw: Forwarding | None = None, qps: int = 1) -> CheckResult:
    fw = fw or Forwarding(fabric)
    judgements = []
    for run in runs:
        p = place(fabric, run)
        judgements.append(judge(fabric, run, p, predict(fw, run, p, routing, trials, seed, qps), fw.owner_of_address))
    return CheckResult(judgements, slow_host_findings(judgements))


def check_logs(fabric: Fabric, logs: list[Path], routing: str = "ppd", trials: int = 100, seed: int = 0,
               collective: str | None = None, qps: int = 1) -> CheckResult:
    """Parse every log (LogError names the file and line of an unusable one) and judge every run."""
    runs = [run for path in logs for run in parse_file(Path(path), collective)]
    return judge_runs(fabric, runs, routing, trials, seed, qps=qps)


def check_text(fabric: Fabric, text: str, name: str = "<log>", **options) -> CheckResult:
    collective = options.pop("collective", None)
    return judge_runs(fabric, parse_text(text, name, collective), **options)


def slow_host_findings(judgements: list[Judgement]) -> list[Finding]:
    judged = [j for j in judgements if j.ratio is not None and not j.prediction.single_host and not j.beyond_model]
    short = [j for j in judged if not j.healthy]
    fine = [j for j in judged if j.healthy]
    if not short or len(judged) < 2:
        return []
    suspects = set.intersection(*(set(j.placement.servers) for j in short))
    for j in fine:
        suspects -= set(j.placement.servers)
    smallest = min(len(j.placement.servers) for j in short)
    if not suspects or len(suspects) > MAX_SUSPECTS or len(suspects) >= smallest:
        return []
    names = ", ".join(sorted(suspects))
    worst = min(j.ratio for j in short)
    return [Finding("NCCL-SLOW-HOST", Severity.ERROR,
                    f"{names} {'is' if len(suspects) == 1 else 'are'} in every one of the {len(short)} run(s) that "
                    f"fall short (down to {worst:.0%} of the design's ceiling) and in none of the {len(fine)} "
                    "healthy one(s): the slow host", tuple(sorted(suspects)),
                    "check that host's rail NICs (speed, PCIe width, firmware, GPU clocks) and its cables")]
