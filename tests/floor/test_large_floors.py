"""Large presets laid out on the floor still find media for every cable. A row per SU puts the
spine-core runs past 100 m from 32 SUs on (150 m there, 408 m at 128), past every copper and
multimode part and the 100 m single-mode optics: the 4,096-server presets once failed validate with
26,546 RD065 errors, the catalogue having no 500 m / 2 km optics for QSFP112 or single-port OSFP."""

from __future__ import annotations

import pytest

import designer
from designer.export.floor_data import cable_plan


@pytest.mark.parametrize("preset", ["b200-superpod", "b200-superpod-ib"])
def test_every_cable_of_a_32_su_preset_has_media(preset):
    fabric = designer.build(designer.spec(preset, sus=32))
    errors = [f for f in designer.check(fabric) if f.severity.value == "error"]
    assert not errors, errors[:3]
    plan = cable_plan(fabric)
    assert max(plan.metres(link) for link in fabric.links) > 100
