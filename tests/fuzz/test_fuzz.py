"""The fuzzer in the test suite (issue 13): a bounded slice of fresh inputs over all seven kinds, and
the saved regression inputs, each through the same sandbox as ``python -m fuzz`` (a forked child
with a time and a memory limit). Run in a subprocess: forking a process that runs Qt tests is unsafe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAVED = ROOT / "tests" / "data" / "fuzz"


def _fuzz(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fuzz", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_a_bounded_slice_has_no_traceback_hang_or_bad_message():
    run = _fuzz("--count", "70", "--seed", "20261201", "--jobs", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "tracebacks 0, hangs 0" in run.stdout
    table = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.split()}
    assert table["all"][0] == "70" and all(k in table for k in ("design", "aid", "topo", "nicnames", "lldp", "bundle",
                                                                 "ibnd"))


def test_saved_regression_inputs_keep_their_exit_status_and_message():
    expected = {}
    for line in (SAVED / "EXPECTED").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, status, words = line.split(None, 2)
            expected[name] = (int(status), words)
    saved = sorted(str(p.relative_to(SAVED)) for p in SAVED.glob("*/*"))
    assert sorted(expected) == saved                     # every saved input has its expectation
    run = _fuzz("--replay", str(SAVED))
    assert run.returncode == 0, run.stdout + run.stderr
    seen = {}
    for line in run.stdout.splitlines():
        parts = line.split(None, 4)
        if len(parts) >= 4 and parts[1] == "exit":
            seen[parts[3]] = (int(parts[2]), parts[4] if len(parts) > 4 else "")
    for name, (status, words) in expected.items():
        got_status, message = seen[name]
        assert got_status == status and words in message, (name, message)
