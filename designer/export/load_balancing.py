"""What the design's load-balancing mode (`model.entities.LoadBalancing`) asks of hosts and switches.

- ``ppd`` (the default): nothing new. Leaves pin (the PPD part), spines keep SONiC's default ECMP hash;
  the bundle is what it was before the setting existed. Every other mode drops the PPD ACL table and
  pins (`ppd_data.leaf_ppd_data` is None): a pinned leaf would not hash at all.
- ``ecmp``: every switch hashes on the 5-tuple, written as ``SWITCH_HASH|GLOBAL`` ``ecmp_hash``
  (sonic-hash.yang, SONiC's Generic Hash). NCCL keeps its one QP per connection.
- ``qp-hash``: NCCL opens ``qps`` queue pairs per connection (``NCCL_IB_QPS_PER_CONNECTION``) and splits
  every message evenly over them (``NCCL_IB_SPLIT_DATA_ON_QPS=1``: NCCL's split mode; its default, 0,
  sends whole messages round-robin, so an operation of one message would use one QP). The switches
  should hash on the RoCE BTH destination QP; SONiC's hash field for it (``RDMA_BTH_DEST_QP``,
  sonic-buildimage PR 27335 over SAI_NATIVE_HASH_FIELD_RDMA_BTH_DEST_QP) is not in the YANG models this
  project validates against, so the bundle writes the 5-tuple instead: RoCEv2's UDP destination port is
  always 4791, but the NIC derives each QP's UDP source port from its QP numbers (Linux
  ``rdma_calc_flow_label`` -> ``rdma_flow_label_to_udp_sport``, mlx5), so hashing ``L4_SRC_PORT`` spreads
  the QPs of a connection. NOTES.txt says so and what to write once the image has the field.
- ``adaptive``: per-packet spraying / adaptive routing. No CONFIG_DB table expresses it: it is a vendor
  feature (NVIDIA Spectrum-X adaptive routing with the SuperNIC's reordering, Arista's dynamic load
  balancing, Broadcom's cognitive routing). NCCL is told to use its adaptive-routing transfer mode on
  RoCE (``NCCL_IB_ADAPTIVE_ROUTING=1``; NCCL enables it only on InfiniBand by itself), which tolerates
  out-of-order arrival; NOTES.txt says what the switch needs.
"""

from __future__ import annotations

from ..model.entities import LoadBalancing

FIVE_TUPLE = ("SRC_IP", "DST_IP", "IP_PROTOCOL", "L4_SRC_PORT", "L4_DST_PORT")
ROCE_QP_FIELD = "RDMA_BTH_DEST_QP"         # PR 27335's name; not in the YANG validated here


def nccl_env(lb: LoadBalancing) -> dict[str, str]:
    """The NCCL variables the mode sets (none for ppd and ecmp)."""
    if lb.mode == "qp-hash":
        return {"NCCL_IB_QPS_PER_CONNECTION": str(lb.qps), "NCCL_IB_SPLIT_DATA_ON_QPS": "1"}
    if lb.mode == "adaptive":
        return {"NCCL_IB_ADAPTIVE_ROUTING": "1"}
    return {}


def switch_hash(lb: LoadBalancing) -> dict | None:
    """The ``SWITCH_HASH`` table every switch gets, or None (ppd keeps the image's default, adaptive
    has no table)."""
    if lb.mode in ("ecmp", "qp-hash"):
        return {"GLOBAL": {"ecmp_hash": list(FIVE_TUPLE)}}
    return None


def switch_notes(lb: LoadBalancing) -> list[str]:
    """NOTES.txt lines on the mode (none for ppd)."""
    if lb.mode == "ecmp":
        return ["Mode ecmp: SWITCH_HASH|GLOBAL ecmp_hash is the 5-tuple (" + ", ".join(FIVE_TUPLE) + "), on every",
                "switch; NCCL keeps one queue pair per connection, so each connection is one hashed flow.",
                *_common()]
    if lb.mode == "qp-hash":
        return [f"Mode qp-hash, {lb.qps} queue pairs per connection (the hosts' nccl.env sets",
                f"NCCL_IB_QPS_PER_CONNECTION={lb.qps} and NCCL_IB_SPLIT_DATA_ON_QPS=1). The switches should hash on",
                f"the RoCE BTH destination QP: SONiC's field {ROCE_QP_FIELD} (sonic-buildimage PR 27335) is not in",
                "the YANG models this bundle is validated against, so ecmp_hash is the 5-tuple (" + ", ".join(FIVE_TUPLE) + ").",
                "The NIC gives each QP its own UDP source port (from the QP numbers), so L4_SRC_PORT spreads the",
                f"QPs. On an image whose `show switch-hash capabilities` lists {ROCE_QP_FIELD}, add it to ecmp_hash.",
                *_common()]
    if lb.mode == "adaptive":
        return ["Mode adaptive: per-packet spraying / adaptive routing is a switch vendor feature that SONiC's",
                "CONFIG_DB does not model, so config_db.json carries no hash or routing table for it. Enable the",
                "vendor's feature on every switch (NVIDIA Spectrum-X adaptive routing, Arista dynamic load",
                "balancing, Broadcom cognitive routing) and check that the NICs reorder sprayed packets",
                "(Spectrum-X SuperNIC / ConnectX-8); the hosts' nccl.env sets NCCL_IB_ADAPTIVE_ROUTING=1.",
                "Without the feature the switches fall back to ECMP's per-flow hash."]
    return []


def _common() -> list[str]:
    return ["The leaves hash instead of pinning: this mode writes no PPD ACL table and no ppd-pins.json, so",
            "apply installs no PPD agent. Check the fields with: show switch-hash global"]
