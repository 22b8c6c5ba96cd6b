"""The ``media:`` section of a catalog file (cables, transceivers, fibres, prices), read with located errors."""

from __future__ import annotations

from ..model.ids import is_valid_device_id
from ..model.limits import MAX_SPEED, excerpt
from ..model.media import KINDS, CableType, Fibre, MediaCatalog, Transceiver
from .yamlio import Context, field, only_keys

_MAX_ENTRIES = 2_000
_PART = 64


def _lengths(ctx: Context, raw, path: tuple) -> tuple[tuple[float, str], ...]:
    parts = field(ctx, raw, "parts", path, dict)
    if not parts or len(parts) > 100:
        ctx.fail(path + ("parts",), "should map 1 to 100 sold lengths (m) to part numbers")
    out = []
    for length, part in parts.items():
        if isinstance(length, bool) or not isinstance(length, (int, float)) or not 0 < length <= 10_000:
            ctx.fail(path + ("parts", length), f"a sold length is metres from 0 to 10000, not {excerpt(length)}")
        if not isinstance(part, str) or not part or len(part) > _PART:
            ctx.fail(path + ("parts", length), f"a part number is text of 1 to {_PART} characters")
        out.append((float(length), part))
    return tuple(sorted(out))


def _entries(ctx: Context, raw: dict, key: str, path: tuple) -> list:
    items = field(ctx, raw, key, path, list, default=[])
    if len(items) > _MAX_ENTRIES:
        ctx.fail(path + (key,), f"lists {len(items):,} entries; at most {_MAX_ENTRIES:,}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            ctx.fail(path + (key, i), "should be a mapping")
    return items


def parse_media(ctx: Context, raw, path: tuple) -> MediaCatalog:
    if not isinstance(raw, dict):
        ctx.fail(path, "media should be a mapping with cables, transceivers, fibres and prices")
    only_keys(ctx, raw, {"cables", "transceivers", "fibres", "prices", "currency"}, path)
    media = MediaCatalog(currency=field(ctx, raw, "currency", path, str, default="", max_len=8))
    for i, item in enumerate(_entries(ctx, raw, "cables", path)):
        p = path + ("cables", i)
        only_keys(ctx, item, {"id", "kind", "description", "ends", "speed", "legs", "reach_m", "parts"}, p)
        cable_id = field(ctx, item, "id", p, str)
        if not is_valid_device_id(cable_id):
            ctx.fail(p + ("id",), f"{excerpt(cable_id)} is not a usable media id (letters, digits, hyphens)")
        ends = field(ctx, item, "ends", p, list)
        if len(ends) != 2 or not all(isinstance(e, str) for e in ends):
            ctx.fail(p + ("ends",), "should name the two cage types, like [osfp, qsfp112]")
        parts = _lengths(ctx, item, p)
        reach = field(ctx, item, "reach_m", p, float, default=parts[-1][0], bounds=(0.0, 10_000.0))
        media.cables[cable_id] = CableType(
            cable_id, field(ctx, item, "kind", p, str, choices=KINDS), field(ctx, item, "description", p, str, ""),
            (ends[0], ends[1]), field(ctx, item, "speed", p, int, bounds=(1, MAX_SPEED)),
            field(ctx, item, "legs", p, int, default=1, bounds=(1, 8)),
            tuple(x for x in parts if x[0] <= reach) or parts[:1])
    for i, item in enumerate(_entries(ctx, raw, "transceivers", path)):
        p = path + ("transceivers", i)
        only_keys(ctx, item, {"part", "form", "cage_speed", "ports", "speed", "fibre", "reach_m", "type",
                              "description", "fibres"}, p)
        part = field(ctx, item, "part", p, str, max_len=_PART)
        t = Transceiver(
            part, field(ctx, item, "form", p, str), field(ctx, item, "cage_speed", p, int, bounds=(1, MAX_SPEED)),
            field(ctx, item, "ports", p, int, default=1, bounds=(1, 8)),
            field(ctx, item, "speed", p, int, bounds=(1, MAX_SPEED)), field(ctx, item, "fibre", p, str),
            field(ctx, item, "reach_m", p, float, bounds=(0.0, 100_000.0)), field(ctx, item, "type", p, str, ""),
            field(ctx, item, "description", p, str, ""), field(ctx, item, "fibres", p, int, 1, bounds=(1, 8)))
        media.transceivers[t.key] = t
    for i, item in enumerate(_entries(ctx, raw, "fibres", path)):
        p = path + ("fibres", i)
        only_keys(ctx, item, {"id", "description", "parts"}, p)
        fibre_id = field(ctx, item, "id", p, str)
        media.fibres[fibre_id] = Fibre(fibre_id, field(ctx, item, "description", p, str, ""), _lengths(ctx, item, p))
    prices = field(ctx, raw, "prices", path, dict, default={})
    for part, price in prices.items():
        if isinstance(price, bool) or not isinstance(price, (int, float)) or not 0 <= price <= 1e9:
            ctx.fail(path + ("prices", part), f"a unit price is a number from 0 up, not {excerpt(price)}")
        media.prices[str(part)] = float(price)
    for t in media.transceivers.values():
        if t.fibre not in media.fibres and media.fibres:
            ctx.fail(path + ("transceivers",), f"transceiver {t.part} takes fibre {excerpt(t.fibre)}, which the "
                     f"catalogue does not list (fibres: {', '.join(sorted(media.fibres))})")
    return media
