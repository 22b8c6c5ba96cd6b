"""Canvas items. Each carries its model id and what it draws; none knows the window or the document."""

from .device import DeviceItem, ServerItem, SwitchItem
from .link import LinkItem
from .nic import NicItem

__all__ = ["DeviceItem", "ServerItem", "SwitchItem", "NicItem", "LinkItem"]
