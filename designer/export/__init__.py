"""Fabric -> per-device data -> templates -> the bundle on disk. No Qt."""

from . import bundle as _bundle
from .bundle import ExportCancelled, ExportRefused, ExportResult
from .errors import ExportError

__all__ = ["ExportCancelled", "ExportError", "ExportRefused", "ExportResult", "export", "preview"]

NOT_YET = "three-tier/multi-plane export comes in phase B"


def refuse_new_shapes(fabric) -> None:
    """The exporters know two tiers and one plane: refuse a design with cores or several fabric planes
    instead of writing configs that leave them out."""
    shapes = []
    if fabric.cores():
        shapes.append(f"{len(fabric.cores())} core switches")
    if fabric.settings.fabric_planes > 1 or any(s.fabric_plane for s in fabric.switches.values()):
        shapes.append(f"{fabric.settings.fabric_planes} fabric planes")
    if shapes:
        raise ExportError(f"design '{fabric.settings.name}' has {' and '.join(shapes)}: {NOT_YET} "
                          "(validate, paths and analyze already work on it)")


def export(fabric, outdir, **options) -> ExportResult:
    refuse_new_shapes(fabric)
    return _bundle.export(fabric, outdir, **options)


def preview(fabric, device_id: str) -> dict[str, str]:
    refuse_new_shapes(fabric)
    return _bundle.preview(fabric, device_id)
