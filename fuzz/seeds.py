"""Real inputs the mutators start from: the project's own test data and files made from presets."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def _files(folder: Path, pattern: str) -> list[bytes]:
    return [p.read_bytes() for p in sorted(folder.glob(pattern))]


def base_design():
    """The design the importers' inputs are applied to (the default preset)."""
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    return build(load_preset("default").spec(), builtin_catalog())


def ib_base_design():
    """The InfiniBand design the ibnetdiscover inputs are compared with: the fabric of the saved dumps
    (tests/data/infiniband/fabric/README.md)."""
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    return build(load_preset("superpod-h100-ib").spec(sus=2, servers_per_su=4, rails=2, spines=2), builtin_catalog())


def _custom_model_design() -> bytes:
    """A design that carries its own switch and server models (the 'models:' section)."""
    from designer.planning.build import build
    from designer.planning.spec import BuildSpec
    from designer.storage import dumps
    from designer.storage.catalog_file import builtin_catalog
    from designer.model.hardware import SwitchModel
    catalog = builtin_catalog()
    catalog.switches["lab-32x400"] = SwitchModel("lab-32x400", "Lab", "test switch", 32, 400, 8,
                                                 ("1x400G", "2x200G", "4x100G"), "Eth{port}/{sub1}", builtin=False)
    spec = BuildSpec(name="lab", sus=1, servers_per_su=4, leaf_model="lab-32x400", spines=2, scheme="p2p31")
    return dumps(build(spec, catalog)).encode()


def _lossless_design() -> bytes:
    """A design with ECN and PFC watchdog overrides (``settings.lossless``)."""
    from dataclasses import replace

    from designer.model.entities import LosslessSettings
    from designer.storage import dumps
    fabric = base_design()
    fabric.set_settings(replace(fabric.settings, lossless=LosslessSettings(
        ecn_min_bytes=204800, ecn_mark_percent=10, pfcwd_detection_ms=750, pfcwd_restoration_ms=750,
        pfcwd_action="alert")))
    return dumps(fabric).encode()


def _load_balancing_design() -> bytes:
    """A design with a load-balancing setting (settings.load_balancing: mode and qps)."""
    from designer.planning.build import build
    from designer.planning.spec import BuildSpec
    from designer.storage import dumps
    from designer.storage.catalog_file import builtin_catalog
    spec = BuildSpec(name="lb", sus=2, servers_per_su=2, leaf_model="asterfusion-cx732q-n",
                     server_model="gpu-4x400g", spines=2, load_balancing="qp-hash", qps=8)
    return dumps(build(spec, builtin_catalog())).encode()


def _media_design() -> bytes:
    """A design with a floor and a cable whose media was chosen by hand (the 'media:' table)."""
    from designer.storage import dumps
    fabric = base_design()
    fabric.set_media(fabric.link_at("su1-srv01/nic0").id, "optics-smf-mpo12")
    return dumps(fabric).encode()


def _aid(fabric) -> bytes:
    from designer.export.aid import PARTS
    return PARTS[0].render_global(fabric)["aid/fabric.aid.json"]


def lldp_for(fabric, device: str) -> bytes:
    """What a device's LLDP dump would say about its cables: lldpctl JSON on servers, SONiC on switches."""
    rows = []
    for link in fabric.links_of(device):
        local, remote = (link.a, link.b) if link.a.startswith(device + "/") else (link.b, link.a)
        peer, port = remote.split("/", 1)
        peer_port = fabric.nic(remote).netdev if peer in fabric.servers else port
        local_port = fabric.nic(local).netdev if device in fabric.servers else local.split("/", 1)[1]
        rows.append((local_port, fabric.device(peer).hostname, peer_port))
    if device in fabric.servers:
        interfaces = [{lp: {"via": "LLDP", "chassis": {host: {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}}},
                            "port": {"id": {"type": "ifname", "value": pp}, "descr": pp}}} for lp, host, pp in rows]
        return json.dumps({"lldp": {"interface": interfaces}}, indent=2).encode()
    lines = ["LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr",
             "-----------  --------------  --------------  ------------  -----------------"]
    lines += [f"{lp:<11}  {host:<14}  {pp:<14}  {'R':<12}  {pp}" for lp, host, pp in rows]
    return ("\n".join(lines + ["-" * 70, f"Total entries displayed:  {len(rows)}"]) + "\n").encode()


@lru_cache(maxsize=1)
def seeds() -> dict[str, list[bytes]]:
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    base = base_design()
    p2p = build(load_preset("rail-optimized-64x4").spec(sus=1, servers_per_su=4), builtin_catalog())
    importers = DATA / "importers"
    return {
        "design": _files(DATA / "designs", "*.fabric.yaml") + [_custom_model_design(), _lossless_design(),
                                                               _load_balancing_design(), _media_design()],
        "aid": [_aid(base), _aid(p2p)],
        "topo": _files(importers, "topo-*.txt"),
        "nicnames": _files(importers, "ibdev2netdev-*.txt") + _files(importers, "show-gids.txt"),
        "lldp": _files(importers, "lldp-*") + [lldp_for(base, "su1-srv01"), lldp_for(base, "su1-leaf-r0")],
        "bundle": _leaf_files(base, "su1-leaf-r0"),
        "ibnd": _files(DATA / "infiniband" / "fabric", "ibnetdiscover-*.txt") + [_topology_ibnd()],
    }


def _topology_ibnd() -> bytes:
    from designer.export.infiniband import topology_text
    return topology_text(ib_base_design()).encode()


def _leaf_files(fabric, leaf: str) -> list[bytes]:
    """A leaf's bundle files that `diff` reads as data or as lines: config_db.json, ppd-pins.json, frr.conf."""
    from designer.export import preview
    files = preview(fabric, leaf)
    return [files[f"switches/{leaf}/{name}"].encode() for name in ("config_db.json", "ppd-pins.json", "frr.conf")]
