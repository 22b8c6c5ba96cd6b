"""What SONiC's buffer manager will compute for a switch's lossless PG, for its NOTES.txt.

The ports are read from the switch's CONFIG_DB tables as the bundle writes them (`buffer_ports`): a
port with a lossless priority (``PORT_QOS_MAP.pfc_enable``) and a ``CABLE_LENGTH``, at its ``PORT``
speed, MTU and lane count. So the notes follow whatever lengths qos.py writes, constants or real
cable lengths. Each group of ports alike gets the calculator's profile (`lossless`) under each buffer
model the platform can run, the one its image starts with first. NOTES.txt prints no port counts:
growing a design only adds lines to an existing switch's files (tests/planning/test_growth.py).
"""

from __future__ import annotations

from collections import Counter

from .lossless import DYNAMIC, TRADITIONAL, lossless_headroom, platform_for_model


def buffer_ports(db: dict) -> Counter:
    """(speed, cable length, MTU, lanes) -> how many lossless ports of a config_db have them."""
    ports, qos = db.get("PORT", {}), db.get("PORT_QOS_MAP", {})
    groups: Counter = Counter()
    for lengths in db.get("CABLE_LENGTH", {}).values():
        for name, cable in lengths.items():
            port = ports.get(name)
            if port is None or not qos.get(name, {}).get("pfc_enable"):
                continue
            lanes = len(port.get("lanes", "").split(","))
            groups[(port["speed"], cable, port.get("mtu", "9100"), lanes)] += 1
    return groups


def buffer_notes(model_id: str, db: dict) -> dict:
    """``platform`` (None when sonic-buildimage has none for the model) and, per buffer model, its
    ``source`` and one row per group of ports: their count, speed, length, MTU, lanes and the profile's
    fields, or the ``problem`` that leaves them without one."""
    platform = platform_for_model(model_id)
    groups = sorted(buffer_ports(db).items(), key=lambda item: (int(item[0][0]), _length(item[0][1]), item[0][2:]))
    if platform is None:
        return {"platform": None, "model": model_id, "ports": sum(n for _, n in groups), "models": []}
    order = [platform.buffer_model] + [m for m in (DYNAMIC, TRADITIONAL) if m != platform.buffer_model]
    models = []
    for buffer_model in order:
        rows, source = [], ""
        for (speed, cable, mtu, lanes), count in groups:
            result = lossless_headroom(platform, speed, cable, mtu, lanes, buffer_model)
            if not result.source:                  # this model does not run on the platform at all
                rows = None
                source = result.problem
                break
            source = result.source
            rows.append({"ports": count, "speed": speed, "cable": cable, "mtu": mtu, "lanes": lanes,
                         "profile": result.profile.name if result.profile else None,
                         "fields": _fields(result.profile.fields()) if result.profile else "",
                         "problem": result.problem})
        models.append({"name": buffer_model, "default": buffer_model == platform.buffer_model,
                       "source": source, "rows": rows})
    return {"platform": platform.name, "device": platform.device, "asic": platform.asic,
            "is_class": platform.is_class, "model": model_id, "ports": sum(n for _, n in groups), "models": models}


def _fields(fields: dict[str, str]) -> str:
    return " ".join(f"{k} {v}" for k, v in fields.items() if k != "pool")


def _length(cable: str) -> float:
    try:
        return float(cable.removesuffix("m"))
    except ValueError:
        return float("inf")
