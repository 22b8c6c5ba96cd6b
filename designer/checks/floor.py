"""Floor rules (RD060-RD069): what stands in the racks, and cables their media cannot reach.

They run only when the design has a floor (`Fabric.floor`); a design without one has nothing here.
"""

from __future__ import annotations

from ..model.ids import natural_key
from .finding import Severity
from .registry import rule

MOVE = ("`rail-designer floor FILE` shows each rack's fill; give the device another rack or unit (the rack "
        "and position columns of `rail-designer apply-inventory FILE CSV`).")


def _racks(ctx):
    """(rack, its devices), both in natural order; nothing without a floor."""
    return ctx.racks if ctx.fabric.floor is not None else []


@rule("RD060", "Devices past the top of their rack or on each other's units", Severity.ERROR,
      "Give each device free units inside its rack: " + MOVE)
def units(ctx):
    fabric = ctx.fabric
    for rack, devices in _racks(ctx):
        owner: dict[int, str] = {}
        for device in devices:
            if device.position is None:
                continue
            height = fabric.device_units(device)
            top = device.position + height - 1
            if device.position < 1 or top > rack.height_u:
                yield (f"{device.id} takes units {device.position}-{top} of rack {rack.id}, which has units 1-"
                       f"{rack.height_u}", (device.id, rack.id))
            for unit in range(max(device.position, 1), min(top, rack.height_u) + 1):
                other = owner.setdefault(unit, device.id)
                if other != device.id:
                    yield (f"{device.id} and {other} both take unit {unit} of rack {rack.id}", (device.id, other))
                    break


def _sum(fabric, devices, key: str) -> tuple[float, list[str]]:
    total, unknown = 0.0, []
    for device in devices:
        model = fabric.device_model(device)
        value = getattr(model, key) if model is not None else None
        if value is None:
            unknown.append(device.model)
        else:
            total += value
    return total, sorted(set(unknown))


@rule("RD061", "Rack power over its budget", Severity.ERROR,
      "Move servers to another rack, raise the rack's power budget if the room's feeds allow it, or lay out "
      "fewer servers per rack (rail-designer new --servers-per-rack N).")
def power(ctx):
    yield from _over_budget(ctx, "power_w", lambda rack: rack.power_kw * 1000,
                            lambda rack, w: f"rack {rack.id} draws {w / 1000:.1f} kW, its budget is {rack.power_kw:g} kW")


@rule("RD062", "Rack weight over its budget", Severity.WARNING,
      "Spread the heavy devices over more racks, or raise the rack's weight budget if the rack and the floor "
      "take it.")
def weight(ctx):
    yield from _over_budget(ctx, "weight_kg", lambda rack: rack.weight_kg,
                            lambda rack, kg: f"rack {rack.id} holds {kg:.0f} kg, its budget is {rack.weight_kg:g} kg")


def _over_budget(ctx, key: str, budget, says):
    """Each rack whose devices' ``key`` (power_w, weight_kg) adds up past ``budget(rack)``."""
    for rack, devices in _racks(ctx):
        total, unknown = _sum(ctx.fabric, devices, key)
        if total > budget(rack) + 1e-6:
            yield (says(rack, total) + (f" (not counted: {', '.join(unknown)} without {key})" if unknown else ""),
                   (rack.id,))


@rule("RD063", "Device without a place on the floor", Severity.WARNING,
      "Place it in a rack of the floor (the rack and position columns of `rail-designer apply-inventory FILE CSV`); "
      "its cables get no length until then, and their CABLE_LENGTH falls back to the defaults.")
def unplaced(ctx):
    fabric = ctx.fabric
    if fabric.floor is None:
        return
    for device in sorted((*fabric.servers.values(), *fabric.switches.values()), key=lambda d: natural_key(d.id)):
        if device.rack is None or device.position is None:
            yield f"{device.id} has no {'rack' if device.rack is None else 'unit'} on the floor", (device.id,)
        elif device.rack not in fabric.racks:
            yield f"{device.id} stands in rack {device.rack}, which the floor does not have", (device.id,)


def _choices(ctx):
    plan = ctx.cable_plan
    if plan is None:
        return
    for link_id in sorted(plan.choices, key=natural_key):
        choice = plan.choices[link_id]
        if choice is not None and not choice.fits:
            yield link_id, choice


@rule("RD064", "Cable longer than its media reaches", Severity.ERROR,
      "Stand the racks closer (`rail-designer floor FILE` shows where they are), or choose media that reaches "
      "(optics instead of copper), or add it to a media catalogue passed with --catalog.")
def too_long(ctx):
    for link_id, choice in _choices(ctx):
        if choice.media and choice.kind:          # an override (or the only fitting type) that falls short
            a, _, b = link_id.partition("~")
            yield f"cable {a} -- {b}: {choice.problem}", (link_id,)


@rule("RD065", "No media of the catalogue fits the cable", Severity.ERROR,
      "Add a cable or transceivers for these cages and speed to a media catalogue passed with --catalog, or "
      "drop a hand-chosen media that does not fit the port pair.")
def no_media(ctx):
    for link_id, choice in _choices(ctx):
        if not (choice.media and choice.kind):
            a, _, b = link_id.partition("~")
            yield f"cable {a} -- {b}: {choice.problem}", (link_id,)
