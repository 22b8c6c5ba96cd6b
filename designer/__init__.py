"""rail-designer."""

from .errors import DesignerError

__all__ = ["DesignerError"]
