"""Stage 1 of what the floor adds to the bundle: each cable's racks, units, length, media and labels (the
cabling plan's extra columns), the bill of materials (``bom.csv`` and the AID workbook's sheet), and each
switch port's cable length in whole metres (CABLE_LENGTH). A design without a floor has none of them.

The bill counts what is bought: a splitter cable or a twin-port transceiver once per cage it serves,
anything else once per cable end or cable. Each item is counted in the rack it is installed in: a
transceiver in its device's rack, a cable or fibre in the rack of the end the cabling plan patches first
(the lower-tier switch).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from ..model.entities import TIER_RANK
from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..model.memo import per_state
from ..planning.cable_plan import cable_plan
from .lossless import table_length

FLOOR_COLUMNS = ["a_rack", "a_unit", "b_rack", "b_unit", "length_m", "media", "parts", "label_a", "label_b"]
_KIND_WORDS = {"dac": "DAC", "acc": "ACC", "aoc": "AOC", "optics": "transceivers and fibre"}
BOM_COLUMNS = ["part", "description", "count", "per_rack", "unit_price", "total"]


def port_lengths(fabric: Fabric, switch_id: str) -> dict[str, str] | None:
    """Port name -> SONiC's CABLE_LENGTH value (``"7m"``) of each cabled port with a known length; None
    without a floor (the QoS tables then keep their defaults). On a platform whose image runs SONiC's
    static buffer model the length is rounded up to one its pg_profile_lookup.ini lists: buffermgrd
    creates no lossless PG for a length the table lacks (`lossless.table_length`); more headroom is safe."""
    plan = cable_plan(fabric)
    if plan is None:
        return None
    out = {}
    model = fabric.switches[switch_id].model
    for port, peer in fabric.cabled_ports(switch_id):
        link = fabric.link_at(f"{switch_id}/{port.name}")
        metres = plan.metres(link.id)
        if metres is not None:
            out[port.name] = table_length(model, str(port.speed * 1000), metres) or f"{metres}m"
    return out


def _where(fabric: Fabric, device_id: str) -> tuple[str, object]:
    device = fabric.servers.get(device_id) or fabric.switches.get(device_id)
    return (device.rack or "", "" if device.position is None else device.position)


def floor_columns(fabric: Fabric, link_id: str, a_ep: str, b_ep: str, names: tuple[str, str, str, str],
                  cable: str, cable_type: str = "") -> dict:
    """The cabling plan's floor columns of one cable; ``names``: the A and B host names and ports as the
    plan writes them. A straight cable's ``cable_type`` ("400G DAC/AOC") then names the media chosen."""
    plan = cable_plan(fabric)
    a_rack, a_unit = _where(fabric, a_ep.partition("/")[0])
    b_rack, b_unit = _where(fabric, b_ep.partition("/")[0])
    choice = plan.choices.get(link_id)
    metres = plan.metres(link_id)
    a_host, a_port, b_host, b_port = names
    out = {}
    if choice is not None and choice.kind and "DAC/AOC" in cable_type:     # the media says which it is
        out["cable_type"] = cable_type.replace("DAC/AOC", _KIND_WORDS[choice.kind])
    return out | {"a_rack": a_rack, "a_unit": a_unit, "b_rack": b_rack, "b_unit": b_unit,
            "length_m": "" if metres is None else metres,
            "media": choice.media if choice is not None else "",
            "parts": " + ".join(dict.fromkeys(part for part, _ in choice.items)) if choice is not None else "",
            "label_a": f"{cable} {a_host} {a_port} > {b_host} {b_port} {b_rack} U{b_unit}",
            "label_b": f"{cable} {b_host} {b_port} > {a_host} {a_port} {a_rack} U{a_unit}"}


def _patch_end(fabric: Fabric, link) -> str:
    """The device of the end a cable is patched from: its switch end, the lower tier of two switches."""
    ends = [ep.partition("/")[0] for ep in (link.a, link.b)]
    switches = [d for d in ends if d in fabric.switches]
    if not switches:
        return ends[0]
    return min(switches, key=lambda d: (TIER_RANK[fabric.switches[d].role], natural_key(d)))


def bom_rows(fabric: Fabric) -> list[dict]:
    """One row per part number, in part order; empty without a floor. Worked out once per state of the
    fabric: bom.csv and the AID workbook's sheet both list it."""
    return per_state(fabric, _bom_rows)


def _bom_rows(fabric: Fabric) -> list[dict]:
    plan = cable_plan(fabric)
    if plan is None:
        return []
    media = fabric.catalog.media
    items: dict[str, dict[str, str]] = defaultdict(dict)     # part -> what one item serves -> its rack
    for link_id, choice in plan.choices.items():
        if choice is None:
            continue
        link = fabric.links[link_id]
        patch = _where(fabric, _patch_end(fabric, link))[0]
        for part, serves in choice.items:
            if serves.endswith("/a") and serves[:-2] == link_id:
                rack = _where(fabric, link.a.partition("/")[0])[0]
            elif serves.endswith("/b") and serves[:-2] == link_id:
                rack = _where(fabric, link.b.partition("/")[0])[0]
            elif "/cage" in serves or (serves in (link.a, link.b)):
                rack = _where(fabric, serves.partition("/")[0])[0]
            else:
                rack = patch
            items[part][serves] = rack
    rows = []
    for part in sorted(items, key=natural_key):
        racks = Counter(items[part].values())
        count = len(items[part])
        price = media.prices.get(part)
        rows.append({"part": part, "description": media.describe(part), "count": count,
                     "per_rack": " ".join(f"{rack or '(none)'}:{n}" for rack, n in
                                          sorted(racks.items(), key=lambda kv: natural_key(kv[0]))),
                     "unit_price": "" if price is None else f"{price:.2f}",
                     "total": "" if price is None else f"{price * count:.2f}"})
    return rows
