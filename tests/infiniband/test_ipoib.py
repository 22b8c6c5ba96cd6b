"""The optional ipoib part read by the real netplan: each addressed rail HCA becomes a networkd link in
datagram mode with the partition-wide subnet, and a broken file is refused."""

from __future__ import annotations

import subprocess

import designer
from tests.export.helpers_hosts import need_tool
from tests.infiniband.subnet import ib_design


def _generate(tmp_path, text: str) -> subprocess.CompletedProcess:
    target = tmp_path / "etc" / "netplan" / "61-rail-ipoib.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    target.chmod(0o600)
    return subprocess.run([need_tool("netplan"), "generate", "--root-dir", str(tmp_path)], capture_output=True,
                          text=True)


def test_netplan_makes_an_ipoib_link_per_addressed_hca(tmp_path):
    fabric = ib_design("two-tier")
    out = tmp_path / "bundle"
    designer.export_bundle(fabric, out, parts=["ipoib"])
    text = (out / "hosts/su1-srv01/ipoib-netplan.yaml").read_text()
    run = _generate(tmp_path / "root", text)
    assert run.returncode == 0, run.stderr
    networks = sorted((tmp_path / "root/run/systemd/network").glob("*.network"))
    nics = [n for n in fabric.servers["su1-srv01"].nics if n.rail is not None]
    assert len(networks) == len(nics) == 2
    for nic in nics:
        unit = (tmp_path / "root/run/systemd/network" / f"10-netplan-{nic.netdev}.network").read_text()
        ip = fabric.addresses[nic.id].partition("/")[0]
        assert f"Address={ip}/12" in unit and "MTUBytes=2044" in unit
        assert "[IPoIB]\nMode=datagram" in unit


def test_netplan_refuses_an_ipoib_mode_it_does_not_know(tmp_path):
    fabric = ib_design("two-tier")
    out = tmp_path / "bundle"
    designer.export_bundle(fabric, out, parts=["ipoib"])
    text = (out / "hosts/su1-srv01/ipoib-netplan.yaml").read_text().replace("datagram", "unreliable", 1)
    run = _generate(tmp_path / "root", text)
    assert run.returncode != 0 and "infiniband-mode" in run.stderr
