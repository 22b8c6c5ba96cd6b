"""The design through a real Nautobot and back (the issue's Done-when): push a 2-SU design, push again (0
changes), pull it and find no difference with the design diff; re-patch one cable by hand through the
REST API, and pull + diff report exactly that cable; a dry run then offers to put exactly it back."""

from __future__ import annotations

import requests

import designer
from tests.sot.designs import free_cage
from designer.cli import main


def _design(tmp_path):
    fabric = designer.build(designer.spec("default", sus=2, servers_per_su=2))
    leaf = "su1-leaf-r0"
    fabric.set_breakout(leaf, free_cage(fabric, leaf), "2x200G")      # an uncabled cage, broken out
    path = tmp_path / "design.fabric.yaml"
    designer.save(fabric, path)
    return fabric, path


def _cli(capsys, *argv) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _api(server, method, path, **kwargs):
    reply = requests.request(method, f"{server.url}/api/{path}", timeout=60,
                             headers={"Authorization": f"Token {server.token}", "Accept": "application/json"},
                             **kwargs)
    assert reply.status_code < 300, reply.text
    return reply.json() if reply.content else None


def test_push_push_pull_edit_pull(nautobot, tmp_path, capsys):
    fabric, path = _design(tmp_path)
    server = ["--url", nautobot.url, "--token-file", str(nautobot.token_file)]

    dry = _cli(capsys, "sot", "push", str(path), *server, "--dry-run")
    assert "create cable su1-leaf-r0/" in dry and "nothing written" in dry
    assert _api(nautobot, "get", "dcim/devices/?limit=1")["count"] == 0          # a dry run writes nothing

    first = _cli(capsys, "sot", "push", str(path), *server)
    assert "changes:" in first and "to create" in first
    devices = _api(nautobot, "get", "dcim/devices/?limit=1")["count"]
    assert devices == len(fabric.servers) + len(fabric.switches)
    cables = _api(nautobot, "get", "dcim/cables/?limit=1")["count"]
    assert cables == len(fabric.links)
    leaf = "su1-leaf-r0"
    broken = [p for p in fabric.ports(leaf).values() if not p.breakout.startswith("1x")]
    for port in broken:                              # the breakout's sub-ports, each an interface of its own
        found = _api(nautobot, "get", f"dcim/interfaces/?device={leaf}&name={port.name}")["results"]
        assert [i["label"] for i in found] == [port.alias]
    assert len(broken) == 2

    again = _cli(capsys, "sot", "push", str(path), *server)
    assert again.strip().endswith(": 0 changes")

    pulled = tmp_path / "pulled.fabric.yaml"
    _cli(capsys, "sot", "pull", *server, "-o", str(pulled))
    report = designer.diff(path, pulled)
    assert not report.changed, [d.as_dict() for d in report.changed_devices()]

    # By hand: the cable of su1-srv01's first NIC moves to a free port of the same leaf.
    link = fabric.link_at("su1-srv01/nic0")
    leaf_end = link.a if link.a.startswith("su1-leaf") else link.b
    leaf_id, old_port = leaf_end.split("/", 1)
    new_port = fabric.free_ports(leaf_id)[0].name
    cable = _api(nautobot, "get", f"dcim/cables/?label={link.id}")["results"][0]
    target = _api(nautobot, "get", f"dcim/interfaces/?device={leaf_id}&name={new_port}")["results"][0]
    side = "a" if link.a == leaf_end else "b"
    _api(nautobot, "patch", f"dcim/cables/{cable['id']}/",
         json={f"termination_{side}_type": "dcim.interface", f"termination_{side}_id": target["id"]})

    edited = tmp_path / "edited.fabric.yaml"
    _cli(capsys, "sot", "pull", *server, "-o", str(edited))
    report = designer.diff(path, edited)
    found = {(d.device, c.kind, c.key, c.old, c.new) for d in report.changed_devices() for c in d.changes}
    cables = {f for f in found if f[1] == "cable"}
    assert cables == {
        (leaf_id, "cable", old_port, "su1-srv01/nic0", None),
        (leaf_id, "cable", new_port, None, "su1-srv01/nic0"),
        ("su1-srv01", "cable", "nic0", leaf_end, f"{leaf_id}/{new_port}"),
    }
    # Besides the cable, only what the diff derives from it: that leaf's PPD pins follow its cabled ports.
    assert {(f[0], f[1]) for f in found - cables} <= {(leaf_id, "ppd")}

    dry = _cli(capsys, "sot", "push", str(path), *server, "--dry-run")
    lines = [line for line in dry.splitlines() if not line.startswith("dry run:")]
    assert len(lines) == 1 and lines[0].startswith(f"update cable {link.id}: ")

    # Pushing the design again puts the cable back where the design has it.
    back = _cli(capsys, "sot", "push", str(path), *server)
    assert back.strip().endswith(": 1 change: 1 to update")
    restored = tmp_path / "restored.fabric.yaml"
    _cli(capsys, "sot", "pull", *server, "-o", str(restored))
    assert not designer.diff(path, restored).changed
