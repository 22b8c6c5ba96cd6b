"""InfiniBand GUIDs derived from a device's stable id, so the same design always gives the same GUIDs.

A GUID is 64 bits: NVIDIA's (Mellanox) OUI ``00:02:c9`` in the top 24, then 40 bits of the SHA-256
of what the GUID names. A switch has one node GUID, which is also its port 0 (management) GUID. An
HCA port (one rail NIC of a server) is its own node, as each ConnectX port is a PCI function: its
node GUID has the low bit clear and its port GUID is that plus one. Real hardware has GUIDs burnt in;
these stand for them until the as-built compare (`verify`) records the real ones.
"""

from __future__ import annotations

import hashlib

OUI = 0x0002C9


def _guid(kind: str, name: str) -> int:
    digest = hashlib.sha256(f"{kind}:{name}".encode()).digest()
    return (OUI << 40) | (int.from_bytes(digest[:5], "big") & ~1)


def switch_guid(switch_id: str) -> int:
    return _guid("switch", switch_id)


def hca_node_guid(server_id: str, nic_index: int) -> int:
    return _guid("hca", f"{server_id}/{nic_index}")


def hca_port_guid(server_id: str, nic_index: int) -> int:
    return hca_node_guid(server_id, nic_index) | 1


def text(guid: int) -> str:
    """``0x0002c9...`` with all 16 digits, as OpenSM's files and ibnetdiscover's headers write it."""
    return f"0x{guid:016x}"
