"""Where the tests find SONiC's YANG models, and the small designs every model test covers.

The models are not in the repository: ``tests.ci.yang_dir`` finds them (the project's shared copy
beside the repository, ``../shared/sonic-yang``, or ``RAIL_DESIGNER_YANG_DIR``). Tests skip with the
reason when they are absent, and fail under CI."""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset
from tests.ci import need, yang_dir

PRESETS = ["default", "rail-only-32x4", "rail-optimized-64x4", "superpod-su"]
SCHEMES = ["subnet-per-leaf", "p2p31"]
PLANES = ["shared", "per-rail"]
RATIOS = [1.0, 2.0]
DESIGNS = list(itertools.product(PRESETS, SCHEMES, PLANES, RATIOS))


@lru_cache(maxsize=1)
def _models():
    from designer.sonic.schema import Models
    return Models(yang_dir())


def models():
    """The compiled models, or a skip (a failure under CI) saying what is missing."""
    try:
        import libyang  # noqa: F401
    except ImportError:
        need(False, "the libyang Python bindings are not installed (pip install -e '.[test]' needs libyang2-dev)")
    need(any(yang_dir().glob("*.yang")), f"SONiC's YANG models are not in {yang_dir()} (set RAIL_DESIGNER_YANG_DIR)")
    return _models()


@lru_cache(maxsize=None)
def small_design(preset: str, scheme: str, planes: str, ratio: float):
    spec = load_preset(preset).spec(sus=1, servers_per_su=8, scheme=scheme, spine_planes=planes,
                                    oversubscription=ratio)
    return build(spec, builtin_catalog())


@pytest.fixture
def yang():
    return models()
