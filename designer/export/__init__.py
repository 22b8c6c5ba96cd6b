"""Fabric -> per-device data -> templates -> the bundle on disk. No Qt.

The bundle's names load on first use: importing one small module of this package (a command line
that only formats a result imports a few) does not load every exporter and Jinja2 with it."""

from .errors import ExportError

__all__ = ["ExportCancelled", "ExportError", "ExportRefused", "ExportResult", "export", "preview"]


def __getattr__(name: str):
    if name in __all__:
        from . import bundle
        return getattr(bundle, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
