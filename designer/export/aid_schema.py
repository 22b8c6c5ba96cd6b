"""The AID's JSON Schema (draft 2020-12), derived from the same column list the files are written from."""

from __future__ import annotations

from ..model.entities import FABRIC_KINDS, LOAD_BALANCING_MODES, SPINE_ASN_MODES, SPINE_PLANE_MODES
from ..model.lossless import FILE_KEYS
from ..planning.growth import PLAN_FIELDS
from ..storage.plan_settings import build_kind
from .aid_data import AID_FORMAT_VERSION, FLOOR_KEY, KIND_KEY, PLANES_KEY, SCHEMES_ENUM, SHEETS, TIERS_KEY, Column

_ID = "https://rail-designer.invalid/aid.schema.json"


def _column_schema(col: Column) -> dict:
    schema: dict = {"type": [col.kind, "null"] if col.nullable else col.kind, "title": col.header}
    if col.enum:
        schema["enum"] = list(col.enum) + ([None] if col.nullable else [])
    if col.description:
        schema["description"] = col.description
    return schema


def _rows_schema(columns) -> dict:
    return {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": [c.key for c in columns if not c.when],
        "properties": {c.key: _column_schema(c) for c in columns}}}


def _object(properties: dict, optional: dict | None = None) -> dict:
    """An object whose ``properties`` are all required and whose ``optional`` ones may be left out."""
    return {"type": "object", "additionalProperties": False, "required": sorted(properties),
            "properties": {**properties, **(optional or {})}}


_INDEXED = {"type": "array", "items": _object({"index": {"type": "integer", "minimum": 0},
                                               "name": {"type": "string"}})}


_INTEGER, _STRING = {"type": "integer"}, {"type": "string"}


def _lossless() -> dict:
    """``lossless``: the ECN and PFC watchdog overrides, each optional (their ranges: `model.lossless`)."""
    sections: dict[str, dict] = {}
    for name, (section, key) in FILE_KEYS.items():
        sections.setdefault(section, {})[key] = _STRING if name == "pfcwd_action" else _INTEGER
    return _object({}, {section: _object({}, keys) for section, keys in sections.items()})


def _plan_settings() -> dict:
    """The header's optional ``load_balancing``, ``growth`` and ``lossless`` (`storage.plan_settings`)."""
    return {
        "load_balancing": _object({"mode": {"enum": list(LOAD_BALANCING_MODES)}}, {"qps": _INTEGER}),
        "growth": {**_object({"final_sus": _INTEGER, "final_servers_per_su": _INTEGER, "build": _object(
            {name: _STRING if build_kind(name) is str else _INTEGER for name in PLAN_FIELDS})}),
            "description": "the final size the design is planned for, and the build parameters it grows with"},
        "lossless": {**_lossless(), "description": "the design's ECN and PFC watchdog overrides of the defaults"},
    }


def aid_schema() -> dict:
    design = _object({
        "name": {"type": "string"}, "description": {"type": "string"},
        "max_oversubscription": {"type": "number", "exclusiveMinimum": 0},
        "spine_planes": {"enum": list(SPINE_PLANE_MODES)},
        "addressing": _object({
            "scheme": {"enum": list(SCHEMES_ENUM)}, "rail_supernet": {"type": "string"},
            "rail_prefix": {"type": "integer", "minimum": 0, "maximum": 32},
            "fabric_pool": {"type": "string"}, "loopback_pool": {"type": "string"},
            "mtu": {"type": "integer", "minimum": 68, "maximum": 65535}}),
        "asn": _object({"leaf_base": {"type": "integer"}, "spine_base": {"type": "integer"},
                        "spine_mode": {"enum": list(SPINE_ASN_MODES)}},
                       {"core_asn": {"type": "integer", "description": "the ASN every core shares (three tiers)"}}),
        "rails": _INDEXED, "sus": _INDEXED,
    }, {
        TIERS_KEY: {"type": "number", "exclusiveMinimum": 0,
                    "description": "allowed spine downlink:uplink ratio (three tiers; brings the Group column)"},
        PLANES_KEY: {"type": "integer", "minimum": 1,
                     "description": "independent fabric planes (brings the Fabric plane column)"},
        KIND_KEY: {"enum": list(FABRIC_KINDS),
                   "description": "infiniband: routed by the subnet manager (brings the GUID and NCCL_IB_HCA columns)"},
        FLOOR_KEY: _object({
            "settings": {"type": "object", "description": "rack pitch, routing model and layout numbers"},
            "rows": {"type": "array", "items": _object({"id": {"type": "string"}, "hall": {"type": "string"},
                                                        "index": {"type": "integer", "minimum": 0}})},
            "racks": {"type": "array", "items": _object({
                "id": {"type": "string"}, "row": {"type": "string"}, "position": {"type": "integer", "minimum": 1},
                "height_u": {"type": "integer", "minimum": 1}, "power_kw": {"type": "number", "minimum": 0},
                "weight_kg": {"type": "number", "minimum": 0}})}}),
        **_plan_settings(),
    })
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": _ID,
        "title": "AI Infrastructure Descriptor (rail-designer)",
        "description": "A rail-optimized GPU fabric: devices, interfaces, links and the IP plan. "
                       "'notes' holds the rail number (0 = rail plane 0).",
        **_object({"aid_format_version": {"const": AID_FORMAT_VERSION}, "design": design,
                   **{sheet.key: _rows_schema(sheet.columns) for sheet in SHEETS}}),
    }
    return schema
