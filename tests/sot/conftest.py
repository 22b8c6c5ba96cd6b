"""The session's one Nautobot (tests/sot/nautobot_server.py)."""

from __future__ import annotations

import pytest

from tests.ci import need

from tests.sot.nautobot_server import HOME, available, start, wait_for_setup


@pytest.fixture(scope="session")
def nautobot():
    wait_for_setup()
    need(available(), f"no Nautobot prepared in {HOME}: run .ci/nautobot-venv "
                      "(CI's .ci/run does; its log is /tmp/rd-nautobot-setup.log)")
    yield from start()
