"""Shared helpers for the host/AID/ansible/monitoring export tests (not a conftest: other helpers own that)."""

from __future__ import annotations

import shutil
from functools import lru_cache

from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.ci import need


def need_tool(name: str) -> str:
    path = shutil.which(name)
    need(path is not None, f"'{name}' is not installed")
    return path


@lru_cache(maxsize=None)
def _built(preset: str, overrides: tuple):
    return load_preset(preset).spec(**dict(overrides))


def fabric(preset: str = "default", **overrides):
    """A fresh fabric of a preset (fresh every call, so tests may mutate it)."""
    return build(_built(preset, tuple(sorted(overrides.items()))), builtin_catalog())
