"""Canvas items. Each carries its model id and what it draws; none knows the window or the document."""

from .device import DeviceItem, ServerItem, SwitchItem
from .link import LinkItem
from .nic import NicItem
from .overview import OVERVIEW_LOD, CableLayers, LinkOverviewItem
from .plates import BandPlatesItem, SuPlatesItem

__all__ = ["DeviceItem", "ServerItem", "SwitchItem", "NicItem", "LinkItem", "LinkOverviewItem", "CableLayers", "SuPlatesItem",
           "BandPlatesItem", "OVERVIEW_LOD"]
