"""rail-ppd-agent's decisions and its pins file, as plain data (no root, no switch)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.ppd.agent_helpers import AGENT_PATH, load_agent, pins_data, write_pins

agent = load_agent()


def pins(tmp_path, data=None):
    return agent.load_pins(str(write_pins(tmp_path, data)))


def health(up=("Ethernet240", "Ethernet248"), neigh=(("Ethernet240", "10.254.0.0"), ("Ethernet248", "10.254.0.2")),
           established=("10.254.0.0", "10.254.0.2"), adverts=None):
    both = {"10.254.0.0", "10.254.0.2"}
    return agent.Health(up, neigh, established, adverts if adverts is not None else
                        {"10.0.0.4/30": both, "10.0.0.8/30": both})


def targets(rules):
    return {name: (r["uplink"], r["destination"]) for name, r in rules.items()}


def test_every_source_on_its_primary_when_all_is_healthy(tmp_path):
    rules = agent.decide(pins(tmp_path), health())
    assert targets(rules) == {"PIN_Ethernet0": ("Ethernet240", None), "PIN_Ethernet8": ("Ethernet248", None)}
    assert rules["PIN_Ethernet0"]["priority"] == 5000 and rules["PIN_Ethernet0"]["next_hop"] == "10.254.0.0"


@pytest.mark.parametrize("broken", [
    dict(up=("Ethernet248",)),                                          # uplink oper-down
    dict(neigh=(("Ethernet248", "10.254.0.2"),)),                       # next hop's neighbour not resolved
    dict(established=("10.254.0.2",)),                                  # BGP session not Established
])
def test_an_unhealthy_primary_moves_its_source_to_the_next_candidate_and_back(tmp_path, broken):
    p = pins(tmp_path)
    assert targets(agent.decide(p, health(**broken)))["PIN_Ethernet0"] == ("Ethernet248", None)
    assert targets(agent.decide(p, health()))["PIN_Ethernet0"] == ("Ethernet240", None)     # primary is back


def test_a_source_with_no_healthy_candidate_gets_no_pin(tmp_path):
    assert agent.decide(pins(tmp_path), health(up=())) == {}


def test_a_destination_the_chosen_spine_lost_goes_by_the_next_candidate_that_has_it(tmp_path):
    adverts = {"10.0.0.4/30": {"10.254.0.2"}, "10.0.0.8/30": {"10.254.0.0", "10.254.0.2"}}
    rules = agent.decide(pins(tmp_path), health(adverts=adverts))
    assert targets(rules) == {"PIN_Ethernet0": ("Ethernet240", None),
                              "PIN_Ethernet0_D0": ("Ethernet248", "10.0.0.4/30"),
                              "PIN_Ethernet8": ("Ethernet248", None)}
    assert rules["PIN_Ethernet0_D0"]["priority"] == 8000
    # Nobody advertises it: no exception (normal routing has nothing better either).
    assert targets(agent.decide(pins(tmp_path), health(adverts={"10.0.0.8/30": {"10.254.0.0"}}))) == {
        "PIN_Ethernet0": ("Ethernet240", None), "PIN_Ethernet8": ("Ethernet248", None),
        "PIN_Ethernet8_D1": ("Ethernet240", "10.0.0.8/30")}


def test_decisions_are_deterministic(tmp_path):
    p = pins(tmp_path)
    h = health(up=("Ethernet248",))
    assert json.dumps(agent.decide(p, h)) == json.dumps(agent.decide(p, h))


def test_vtysh_output_of_two_commands_is_read_as_two_documents():
    assert agent.read_json_docs('{"a": 1}\n{"b": [2]}\n') == [{"a": 1}, {"b": [2]}]


def test_the_redis_instance_comes_from_database_config_json(tmp_path):
    sock = tmp_path / "redis.sock"
    sock.write_text("")
    config = {"INSTANCES": {"redis": {"hostname": "127.0.0.1", "port": 6379, "unix_socket_path": str(sock)}},
              "DATABASES": {n: {"id": i, "separator": ":", "instance": "redis"}
                            for n, i in (("APPL_DB", 0), ("CONFIG_DB", 4), ("STATE_DB", 6))}}
    path = tmp_path / "database_config.json"
    path.write_text(json.dumps(config))
    assert agent.locate_dbs(str(path)) == (("unix", str(sock)), {"APPL_DB": 0, "CONFIG_DB": 4, "STATE_DB": 6})
    sock.unlink()                                    # no socket there: the instance's TCP address
    assert agent.locate_dbs(str(path))[0] == ("tcp", "127.0.0.1", 6379)
    del config["DATABASES"]["STATE_DB"]
    path.write_text(json.dumps(config))
    with pytest.raises(agent.AgentError, match="not SONiC's database_config.json"):
        agent.locate_dbs(str(path))
    with pytest.raises(agent.AgentError, match="No such file"):
        agent.locate_dbs(str(tmp_path / "none.json"))


@pytest.mark.parametrize("content,message", [
    ("{", "not JSON"),
    ('{"format": 9}', "not a ppd-pins.json of format 1"),
    (json.dumps({k: v for k, v in pins_data().items() if k != "uplinks"}), "missing 'uplinks'"),
    (json.dumps(dict(pins_data(), pins=[dict(pins_data()["pins"][0], candidates=["Ethernet9"])])),
     "pin PIN_Ethernet0 names uplink(s) Ethernet9 not in 'uplinks'"),
])
def test_a_bad_pins_file_is_one_readable_line_and_exit_2(tmp_path, content, message):
    path = tmp_path / "pins.json"
    path.write_text(content)
    done = subprocess.run([sys.executable, str(AGENT_PATH), "plan", "--backend", "linux", "--pins", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_agent_is_standard_library_only():
    import ast
    tree = ast.parse(AGENT_PATH.read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= set(sys.stdlib_module_names)


def test_wait_to_restore_holds_a_returning_uplink_until_it_has_worked_long_enough(tmp_path):
    p = pins(tmp_path)
    restore = agent.WaitToRestore(5.0)
    assert not restore.hold(p, health(), 0.0)                         # nothing ever failed: trusted at once
    restore.hold(p, health(up=("Ethernet248",)), 1.0)                  # Ethernet240 fails
    for now, held in ((2.0, True), (6.9, True), (7.0, False)):        # works again from 2.0 on
        h = health()
        restore.hold(p, h, now)
        assert (agent.decide(p, h)["PIN_Ethernet0"]["uplink"] == "Ethernet248") is held, now


def test_wait_to_restore_keeps_an_exception_until_the_spines_route_is_back_long_enough(tmp_path):
    p = pins(tmp_path)
    restore = agent.WaitToRestore(5.0)
    lost = {"10.0.0.4/30": {"10.254.0.2"}, "10.0.0.8/30": {"10.254.0.0", "10.254.0.2"}}
    h = health(adverts=lost)
    restore.hold(p, h, 1.0)                                           # spine-01 lost its link to that leaf
    assert "PIN_Ethernet0_D0" in agent.decide(p, h)
    for now, held in ((2.0, True), (6.9, True), (7.0, False)):        # spine-01 advertises it again from 2.0
        h = health()
        restore.hold(p, h, now)
        rules = agent.decide(p, h)
        assert ("PIN_Ethernet0_D0" in rules) is held, now
        assert rules["PIN_Ethernet0"]["uplink"] == "Ethernet240"       # the uplink itself never failed
