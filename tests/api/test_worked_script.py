"""docs/api.md's worked script and edit script: the page carries each file itself, and the file runs.

The as-built network it verifies against is written from the bundle the script exported, the way a
cabled network answers LLDP (``lldpctl -f json`` on every device), with two cables of one server
swapped at the server's end: verify must name exactly that, and the script must say so."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import designer

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "examples" / "worked_script.py"


def shown(block: str, fence: str = "") -> str:
    """What docs/api.md shows between its ``begin``/``end`` markers for ``block``."""
    page = (ROOT / "docs" / "api.md").read_text()
    begin, end = f"<!-- begin {block} -->\n```{fence}\n", f"```\n<!-- end {block} -->"
    return page[page.index(begin) + len(begin):page.index(end)]


def test_docs_api_md_shows_the_script_as_it_is():
    assert shown("docs/examples/worked_script.py", "python") == SCRIPT.read_text()


def lldp_dumps(cabling: Path, folder: Path, swap: tuple[str, str, str] | None = None) -> None:
    """One ``lldpctl -f json`` dump per device of cabling.csv; ``swap = (host, port, port)`` crosses two
    of that host's cables at the host end."""
    seen: dict[str, list[tuple[str, str, str]]] = {}
    with cabling.open() as fh:
        for row in csv.DictReader(fh):
            a, b = (row["a_device"], row["a_port"]), (row["b_device"], row["b_port"])
            if swap and b[0] == swap[0] and b[1] in swap[1:]:
                b = (b[0], swap[2] if b[1] == swap[1] else swap[1])
            seen.setdefault(a[0], []).append((a[1], *b))
            seen.setdefault(b[0], []).append((b[1], *a))
    folder.mkdir()
    for device, rows in seen.items():
        interfaces = [{port: {"via": "LLDP", "chassis": {peer: {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}}},
                              "port": {"id": {"type": "ifname", "value": peer_port}, "descr": peer_port}}}
                      for port, peer, peer_port in sorted(rows)]
        (folder / f"{device}.json").write_text(json.dumps({"lldp": {"interface": interfaces}}, indent=2))


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_the_worked_script_runs_and_finds_the_swapped_cables(tmp_path):
    first = run(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "lab: 8 servers, 32 GPUs, 8 leaves, 2 spines, 1.00:1" in first.stdout
    assert "RD004 su1-srv02/nic1 (rail 1) is cabled to su1-leaf-r0, a leaf of rail 0" in first.stdout
    assert "su1-srv01/nic0 -> su2-srv03/nic0: su1-srv01 > su1-leaf-r0 > spine-01 > su2-leaf-r0 > su2-srv03 (ok)" \
        in first.stdout
    assert "alltoall under ppd: the slowest flow gets 87% of line rate" in first.stdout
    assert "alltoall under ecmp: the slowest flow gets 58% of line rate" in first.stdout
    cabling = tmp_path / "bundle" / "cabling.csv"

    lldp_dumps(cabling, tmp_path / "as-planned")
    clean = run(tmp_path, tmp_path / "as-planned")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "64 cables as planned, 0 mismatches" in clean.stdout

    lldp_dumps(cabling, tmp_path / "swapped", swap=("gpu-a01", "ens1np0", "ens2np0"))
    swapped = run(tmp_path, tmp_path / "swapped")
    assert swapped.returncode == 1, swapped.stdout + swapped.stderr
    mismatches = [line for line in swapped.stdout.splitlines() if line.startswith("  CROSS-RAIL: ")]
    assert len(mismatches) == 2 and all("su1-srv01/nic0" in m or "su1-srv01/nic1" in m for m in mismatches)
    assert "62 cables as planned, 2 mismatches" in swapped.stdout
    assert "  1. " in swapped.stdout                             # the re-cabling work order
    assert swapped.stdout.replace(str(tmp_path), "/srv/lab") == shown("output"), "docs/api.md shows another output"


def test_the_worked_script_says_a_refusal_in_one_line(tmp_path):
    (tmp_path / "lab.fabric.yaml").mkdir()                     # where the script saves: a folder
    done = run(tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {tmp_path / 'lab.fabric.yaml'}: ") and done.stderr.count("\n") == 1


# ---------------------------------------------------------------- the edit script
EDIT_SCRIPT = ROOT / "docs" / "examples" / "edit_script.py"


def test_docs_api_md_shows_the_edit_script_as_it_is():
    assert shown("docs/examples/edit_script.py", "python") == EDIT_SCRIPT.read_text()


def test_the_edit_script_grows_names_refuses_and_saves(tmp_path):
    done = subprocess.run([sys.executable, str(EDIT_SCRIPT), str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "grew to 3 SUs: 12 devices, 64 cables added"
    assert lines[1] == "inventory: 1 host name, 1 rack place, 1 NIC names"
    assert lines[2].startswith("model not changed: asterfusion-cx732q-n has no port for the cables of su3-leaf-r0")
    assert lines[3] == "0 errors; 12 added, 18 additive, 0 disruptive"     # the spines and the old leaves
    saved = designer.load(tmp_path / "pod.fabric.yaml")
    server = saved.servers["su3-srv01"]
    assert (server.hostname, server.rack, server.position) == ("gpu-c01", "su3-r01", 41)
    assert saved.nic("su3-srv01/nic0").netdev == "ens1f0np0"
    assert saved.switches["su3-leaf-r0"].model == "generic-64x400g"
