"""`emulate --change OLD NEW` (issue 17): the default preset grown by one SU, rolled out wave by wave on the
emulation under running flows: no probe of the untouched flows lost, the new SU reachable from every old
server, every check passing on NEW. Skipped without root or FRR, failed under CI."""

import os
import shutil
from pathlib import Path

import pytest

import designer
from designer.emulation import EmulationError
from designer.storage.design_file import dumps, loads
from tests.ci import need


def test_growing_the_default_preset_by_one_su_loses_nothing_and_reaches_the_new_su():
    need(os.geteuid() == 0, "not root")
    need(bool(shutil.which("ip")) and Path("/usr/lib/frr/zebra").exists(), "no iproute2 or FRR")
    old = designer.build(designer.spec("default", name="grow-emu"))
    new = loads(dumps(old))
    designer.grow(new, 3)
    lines = []
    result = designer.emulate_change(old, new, log=lines.append)
    kinds = [w.name.split(",")[0] for w in result.waves]
    assert kinds[0] == "new devices (no traffic yet)" and "spines" in kinds and kinds[-1].startswith("leaves")
    assert result.flows == 2 * 4 * 4                                   # every rail NIC of the 8 old servers
    assert all(w.sent > 0 and w.lost == 0 for w in result.waves), [(w.name, w.lost, w.sent) for w in result.waves]
    new_hosts = {s.hostname for s in new.servers.values() if s.su == 3}
    pings = [r for r in result.rows if r.kind == "ping"]
    to_new = [r for r in pings if r.target.split(":")[0] in new_hosts and r.source.split(":")[0] not in new_hosts]
    assert to_new and all(r.ok for r in to_new)                        # old servers reach the new SU
    assert result.ok and all(r.ok for r in result.rows), [r for r in result.rows if not r.ok][:3]
    assert any(line.startswith("wave new devices") for line in lines)


def test_a_change_that_drops_a_device_is_refused_before_anything_is_built():
    old = designer.build(designer.spec("default"))
    new = loads(dumps(old))
    new.remove_device("su2-srv04")
    with pytest.raises(EmulationError, match="rolls out growth; NEW drops su2-srv04"):
        designer.emulate_change(old, new)
