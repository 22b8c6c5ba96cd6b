"""`Fabric.snapshot` / `catch_up`: a copy another thread may own (the window checks one off its GUI
thread), kept in step with the original by one RESET that names what changed."""

from designer.checks import check
from designer.checks.incremental import LiveChecker
from designer.model import events as ev
from designer.model.fabric import _STATE, NOT_STATE
from designer.storage.design_file import dumps


def test_a_snapshot_is_the_same_design_and_edits_of_the_original_do_not_reach_it(default_fabric):
    f = default_fabric
    copy = f.snapshot()
    before = dumps(f)
    assert dumps(copy) == before
    assert copy.servers["su1-srv01"] is f.servers["su1-srv01"]          # entities shared, not copied
    f.remove_device("su1-srv02")
    f.disconnect(f.link_at("su1-srv01/nic0").id)
    assert dumps(copy) == before
    assert "su1-srv02" in copy.servers and copy.link_at("su1-srv01/nic0") is not None


def test_every_attribute_of_a_design_is_either_copied_or_named_as_not_state(default_fabric):
    # a new table added to the Fabric without telling `snapshot` would be shared between threads
    assert set(vars(default_fabric)) - NOT_STATE <= set(_STATE)


def test_catch_up_tells_one_reset_naming_the_edits_and_a_live_check_on_the_copy_agrees(default_fabric):
    f = default_fabric
    copy = f.snapshot()
    checker = LiveChecker(copy)
    assert checker.run() == check(f)
    edits: list = []
    f.subscribe(edits.append)
    f.remove_device("su1-srv02")
    f.set_switch_rail("su1-leaf-r3", 2)
    heard: list = []
    copy.subscribe(heard.append)
    copy.catch_up(f, edits)
    assert [e.kind for e in heard] == [ev.RESET] and heard[0].parts == tuple(edits)
    assert dumps(copy) == dumps(f)
    assert checker.run() == check(f)          # incremental, from what the events named
    assert any(x.severity.value == "error" for x in check(f))   # the re-rail is a real error to find
