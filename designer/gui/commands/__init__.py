"""Undoable edits. Each command calls the Fabric's mutation API (and planning functions that go
through it) only; the scene follows the events."""

from .base import FabricCommand, MacroCommand
from .cables import ConnectCommand, DisconnectCommand, MoveNicCommand, RecableCommand, RehomeCommand
from .floor import MoveRackCommand, SetMediaCommand, SetPlaceCommand
from .devices import AddDeviceCommand, AddServersCommand, RemoveDeviceCommand
from .growth import GrowCommand
from .properties import (AddressCommand, ReplanCommand, SetAddressCommand, SetHostnameCommand, SetNicRailCommand,
                         SetSwitchCommand, SetSwitchRailCommand, set_group_command, set_plane_command)

__all__ = ["FabricCommand", "MacroCommand", "ConnectCommand", "DisconnectCommand", "MoveNicCommand", "RecableCommand",
           "RehomeCommand", "AddDeviceCommand", "AddServersCommand", "GrowCommand", "MoveRackCommand", "SetMediaCommand", "SetPlaceCommand", "RemoveDeviceCommand", "AddressCommand",
           "ReplanCommand", "SetAddressCommand", "SetHostnameCommand", "SetNicRailCommand", "SetSwitchCommand",
           "SetSwitchRailCommand", "set_group_command", "set_plane_command"]
