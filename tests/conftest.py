"""Shared fixtures: the bundled catalog and preset-built fabrics."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402
from tests.ci import pytest_make_collect_report, pytest_runtest_makereport  # noqa: E402,F401  (no skips under CI)


@pytest.fixture
def catalog():
    return builtin_catalog()


def preset_fabric(name: str, **overrides):
    return build(load_preset(name).spec(**overrides), builtin_catalog())


@pytest.fixture
def default_fabric():
    return preset_fabric("default")
