"""Shared helpers for the check tests: small real designs built through the planner."""

from __future__ import annotations

import pytest

from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset


@pytest.fixture(scope="session")
def catalog():
    return builtin_catalog()


@pytest.fixture
def make(catalog):
    """``make(preset="default", **spec_overrides)`` -> a freshly built Fabric."""
    def _make(preset: str = "default", **overrides):
        return build(load_preset(preset).spec(**overrides), catalog)
    return _make


@pytest.fixture
def default(make):
    return make()
