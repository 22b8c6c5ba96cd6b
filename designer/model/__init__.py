"""Pure-Python model of a rail fabric. Never imports Qt."""

from .entities import (AddressingSettings, AsnSettings, DesignSettings, Link, Nic, Rail, Role,
                       ScalableUnit, Server, Switch)
from .errors import ModelError
from .events import Event
from .fabric import Fabric, asn_key
from .hardware import Catalog, NicSpec, Port, ServerModel, SwitchModel, parse_breakout

__all__ = [
    "AddressingSettings", "AsnSettings", "Catalog", "DesignSettings", "Event", "Fabric", "Link",
    "ModelError", "Nic", "NicSpec", "Port", "Rail", "Role", "ScalableUnit", "Server", "ServerModel",
    "Switch", "SwitchModel", "asn_key", "parse_breakout",
]
