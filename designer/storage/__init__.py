"""Files: design files (YAML), the hardware catalog and presets. No Qt."""

from .design_file import FORMAT_VERSION, SaveRefused, dumps, load, loads, save, to_document
from .yamlio import FileFormatError

__all__ = ["FORMAT_VERSION", "FileFormatError", "SaveRefused", "dumps", "load", "loads", "save", "to_document"]
