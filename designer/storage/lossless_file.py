"""``settings.lossless`` of the design file: the design's ECN and PFC watchdog overrides.

    settings:
      lossless:
        ecn: {min_bytes: 204800, max_bytes: 2097152, mark_percent: 10}
        pfc_watchdog: {detection_ms: 750, restoration_ms: 750, poll_ms: 200, action: drop}

Every key is optional and only the ones the design sets are written, so a design without overrides
reads and writes exactly as before the section existed (`model.lossless` has the defaults).
"""

from __future__ import annotations

from ..model.entities import LosslessSettings
from ..model.lossless import FILE_KEYS, overridden
from .yamlio import Context, field, only_keys

SECTIONS = ("ecn", "pfc_watchdog")


def write_lossless(doc: dict, settings: LosslessSettings) -> None:
    """Add ``lossless`` to the settings mapping ``doc`` when the design sets any value."""
    values = overridden(settings)
    if not values:
        return
    out: dict[str, dict] = {}
    for name, (section, key) in FILE_KEYS.items():       # the file's order, whatever the dataclass's is
        if name in values:
            out.setdefault(section, {})[key] = values[name]
    doc["lossless"] = {section: out[section] for section in SECTIONS if section in out}


def read_lossless(ctx: Context, settings: dict) -> LosslessSettings:
    path = ("settings",)
    raw = field(ctx, settings, "lossless", path, dict, default={})
    path += ("lossless",)
    only_keys(ctx, raw, set(SECTIONS), path)
    sections = {section: field(ctx, raw, section, path, dict, default={}) for section in SECTIONS}
    for section, mapping in sections.items():
        only_keys(ctx, mapping, {key for s, key in FILE_KEYS.values() if s == section}, path + (section,))
    values = {}
    for name, (section, key) in FILE_KEYS.items():
        kind = str if name == "pfcwd_action" else int
        values[name] = field(ctx, sections[section], key, path + (section,), kind, default=None)
    return LosslessSettings(**values)
