"""The floor: racks with what stands in them, their fill against their budgets, and each cable's run."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.fabric import Fabric


def floor(fabric: Fabric) -> list[dict]:
    """Every rack of the design's floor, front row first then by slot, as plain data: ``rack``, ``row``,
    ``hall``, ``position``, ``height_u``, ``used_u``, ``power_kw`` (what its devices draw, from the
    catalogue), ``power_budget_kw``, ``weight_kg``, ``weight_budget_kg`` and ``devices`` (each ``id``,
    ``unit``, ``units``, bottom up). Empty for a design without a floor. Move a rack with
    ``fabric.move_rack(rack, row, position)`` and a device with ``fabric.set_place(device, rack, unit)``."""
    out = []
    for rack, devices in fabric.rack_contents():
        watts = kg = 0.0
        for device_id, _, _ in devices:
            device = fabric.device(device_id)
            models = fabric.catalog.servers if device_id in fabric.servers else fabric.catalog.switches
            model = models.get(device.model)
            watts += (model.power_w or 0.0) if model is not None else 0.0
            kg += (model.weight_kg or 0.0) if model is not None else 0.0
        row = fabric.rows.get(rack.row)
        out.append({"rack": rack.id, "row": rack.row, "hall": row.hall if row else "", "position": rack.position,
                    "height_u": rack.height_u, "used_u": sum(units for _, _, units in devices),
                    "power_kw": round(watts / 1000, 2), "power_budget_kw": rack.power_kw,
                    "weight_kg": round(kg, 1), "weight_budget_kg": rack.weight_kg,
                    "devices": [{"id": d, "unit": unit, "units": units} for d, unit, units in devices]})
    return out
