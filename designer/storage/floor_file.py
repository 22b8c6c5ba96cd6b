"""The design file's ``floor:`` section (written only when the design has a floor, so files without one
read and write as before)::

    floor:
      settings: {rack_width_mm: 600, ..., servers_per_rack: 4}
      rows:
      - {id: row-net, hall: hall1, index: 0}
      racks:
      - {id: su1-r01, row: row-su1, position: 1, height_u: 48, power_kw: 45.0, weight_kg: 1500.0}
"""

from __future__ import annotations

from ..model.errors import ModelError
from ..model.floor import RACK_KEYS as _RACK_KEYS, ROW_KEYS as _ROW_KEYS, SETTING_BOUNDS, FloorSettings, Rack, Row
from .yamlio import Context, field, only_keys


def read_floor(ctx: Context, raw: dict, fabric) -> None:
    """Give ``fabric`` the file's floor (nothing when the file has no ``floor:``)."""
    doc = field(ctx, raw, "floor", (), dict, default=None)
    if doc is None:
        return
    path = ("floor",)
    only_keys(ctx, doc, {"settings", "rows", "racks"}, path)
    s = field(ctx, doc, "settings", path, dict, default={})
    sp = path + ("settings",)
    only_keys(ctx, s, set(SETTING_BOUNDS), sp)
    d = FloorSettings()
    values = {name: field(ctx, s, name, sp, kind, getattr(d, name), bounds=(low, high))
              for name, (kind, low, high) in SETTING_BOUNDS.items()}
    _apply(ctx, sp, fabric.set_floor, FloorSettings(**values))
    for i, item in enumerate(field(ctx, doc, "rows", path, list, default=[])):
        rp = path + ("rows", i)
        if not isinstance(item, dict):
            ctx.fail(rp, "a row should be a mapping with id, hall and index")
        only_keys(ctx, item, set(_ROW_KEYS), rp)
        row = Row(field(ctx, item, "id", rp, str), field(ctx, item, "hall", rp, str, "hall1"),
                  field(ctx, item, "index", rp, int))
        _apply(ctx, rp, fabric.add_row, row)
    d = Rack("x", "x", 1)
    for i, item in enumerate(field(ctx, doc, "racks", path, list, default=[])):
        rp = path + ("racks", i)
        if not isinstance(item, dict):
            ctx.fail(rp, "a rack should be a mapping with id, row and position")
        only_keys(ctx, item, set(_RACK_KEYS), rp)
        rack = Rack(field(ctx, item, "id", rp, str), field(ctx, item, "row", rp, str),
                    field(ctx, item, "position", rp, int), field(ctx, item, "height_u", rp, int, d.height_u),
                    field(ctx, item, "power_kw", rp, float, d.power_kw),
                    field(ctx, item, "weight_kg", rp, float, d.weight_kg))
        _apply(ctx, rp, fabric.add_rack, rack)


def _apply(ctx: Context, path: tuple, change, value) -> None:
    try:
        change(value)
    except ModelError as exc:
        ctx.fail(path, str(exc))
