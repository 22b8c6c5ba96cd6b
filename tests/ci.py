"""What the suite needs from the machine it runs on, and CI's promise that the machine has it.

Inputs that are not in the repository are in the project's shared folder beside it (the repository's
parent holds ``shared/``; CI's fresh clone has a copy there too); an environment variable names
another copy. Under CI (env ``CI`` set, and not 0/false/no) a skipped test is a failure unless
``ALLOWED_IN_CI`` names it with the reason: ``.ci/run`` installs every tool a test drives, so a skip
there is a test that did not run. The two hooks below do that; ``tests/conftest.py`` installs them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# Tests CI may skip, by node id (or by test file), each with why that skip is right under CI.
# CI runs as root with every tool of .ci/run installed, so only an input that cannot reach CI may be missing.
ALLOWED_IN_CI: dict[str, str] = {
    "tests/sonic/test_headroom_lua.py": (
        "SONiC's own headroom plugin (sonic-swss cfgmgr/buffer_headroom_mellanox.lua) is SONiC's code, so it is "
        "not in the repository, and CI reaches only PyPI and Debian; run it with RAIL_DESIGNER_SONIC_SWSS "
        "naming a sonic-swss checkout (docs/lossless.md)"),
}


def shared_input(variable: str, relative: str) -> Path:
    """The path in ``variable`` if set, else ``relative`` inside the shared folder beside the repository."""
    return Path(os.environ.get(variable) or SHARED / relative)


def yang_dir() -> Path:
    """SONiC's YANG models (sonic-buildimage src/sonic-yang-models/yang-models)."""
    return shared_input("RAIL_DESIGNER_YANG_DIR", "sonic-yang")


def clab_schema() -> Path:
    """containerlab's own topology schema (srl-labs/containerlab schemas/clab.schema.json)."""
    return shared_input("RAIL_DESIGNER_CLAB_SCHEMA", "containerlab/clab.schema.json")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def need(condition: bool, reason: str) -> None:
    """Skip with ``reason`` unless ``condition`` (what the test drives is on this machine); under CI the
    skip is a failure."""
    if not condition:
        pytest.skip(reason)


def allowed_in_ci(nodeid: str) -> bool:
    return nodeid in ALLOWED_IN_CI or nodeid.split("::")[0] in ALLOWED_IN_CI


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:       # (path, line, "Skipped: reason")
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def fail_a_skip_under_ci(report) -> None:
    """Turn a skip report into a failure under CI, unless the test is allowed to skip there."""
    if not (report.skipped and in_ci()) or hasattr(report, "wasxfail") or allowed_in_ci(report.nodeid):
        return
    report.outcome = "failed"
    report.longrepr = (f"skipped under CI, where it must run: {_skip_reason(report)}\n"
                       "CI installs every tool the tests drive (.ci/run); a skip CI may take goes in "
                       "tests/ci.py ALLOWED_IN_CI with its reason")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    fail_a_skip_under_ci(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    report = yield
    fail_a_skip_under_ci(report)
    return report
