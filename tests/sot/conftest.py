"""The session's one Nautobot (tests/sot/nautobot_server.py)."""

from __future__ import annotations

import pytest

from tests.ci import need

from tests.sot.nautobot_server import HOME, available, start


@pytest.fixture(scope="session")
def nautobot():
    need(available(), f"no Nautobot prepared in {HOME}: run .ci/nautobot-venv (CI's .ci/run does)")
    yield from start()
