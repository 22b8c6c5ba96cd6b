"""The device types the push writes, from ``resources/devicetypes/``: YAML in the NetBox devicetype-library
format (manufacturer, model, slug, part_number, u_height, ...), one file per type, and ``models.yaml``
mapping the design's catalog model ids to those files. A catalog model without a file gets a device type
built from the catalog itself (vendor, id, rack units), so every design can be pushed.

The mapping is one to one, so a pulled device type's model name gives the catalog model back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..resources import resources_dir
from .errors import SotError


@dataclass(frozen=True, slots=True)
class DeviceType:
    manufacturer: str
    model: str              # the device type's model name in the source of truth
    part_number: str = ""
    u_height: int = 1
    is_full_depth: bool = True
    comments: str = ""


def folder() -> Path:
    return resources_dir() / "devicetypes"


@lru_cache(maxsize=None)
def library() -> dict[str, DeviceType]:
    """Catalog model id -> its device type from the shipped library files."""
    base = folder()
    index = yaml.safe_load((base / "models.yaml").read_text(encoding="utf-8"))["models"]
    found, seen = {}, {}
    for model_id, name in sorted(index.items()):
        doc = yaml.safe_load((base / name).read_text(encoding="utf-8"))
        if doc["model"] in seen:
            raise SotError(f"resources/devicetypes/models.yaml maps both {seen[doc['model']]} and {model_id} "
                           f"to the device type {doc['model']}: each device type serves one catalog model")
        seen[doc["model"]] = model_id
        found[model_id] = DeviceType(doc["manufacturer"], doc["model"], str(doc.get("part_number", "")),
                                     int(doc.get("u_height", 1)), bool(doc.get("is_full_depth", True)),
                                     str(doc.get("comments", "")).strip())
    return found


def device_type(catalog, model_id: str, server: bool) -> DeviceType:
    """The device type of a catalog model: the library's, or one made from the catalog entry."""
    shipped = library().get(model_id)
    if shipped is not None:
        return shipped
    model = catalog.server(model_id) if server else catalog.switch(model_id)
    return DeviceType(model.vendor or "Generic", model_id, "", int(model.rack_units or 1), True,
                      model.description or "")


def model_of(device_type_model: str) -> str:
    """The catalog model id a device type's model name stands for (itself when no library file has it)."""
    for model_id, shipped in library().items():
        if shipped.model == device_type_model:
            return model_id
    return device_type_model
