"""LLDP neighbour dumps, one file per device, in the format each kind of device gives.

- ``lldpctl -f json`` (hosts running lldpd): ``{"lldp": {"interface": ...}}`` where ``interface``
  is a mapping ``{ifname: {...}}``, or a list of one-key mappings when there are several;
  the chassis is keyed by the neighbour's system name (or holds ``id`` directly when it sent none).
- ``lldpctl -f json0``: the same data with every level a list and names as ``name`` fields:
  ``{"lldp": [{"interface": [{"name": ..., "chassis": [{"name": [{"value": ...}]}],
  "port": [{"id": [{"type": ..., "value": ...}], "descr": [{"value": ...}]}]}]}]}``.
- SONiC ``show lldp table``: a text table whose columns (LocalPort, RemoteDevice, RemotePortID,
  Capability, RemotePortDescr) are located by the dashed rule under the header; cells may be
  blank or hold spaces.
The device a file belongs to is named by its file name (device id or host name, then extensions).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import ImportFormatError

_RULE = re.compile(r"^\s*-+(\s+-+)+\s*$")
_SONIC_COLUMNS = {"LocalPort": "local", "RemoteDevice": "device", "RemotePortID": "port_id",
                  "RemotePortDescr": "port_descr"}


@dataclass(frozen=True, slots=True)
class Neighbor:
    local_port: str
    system_name: str | None
    port_id: str | None
    port_descr: str | None


@dataclass(frozen=True, slots=True)
class LldpDump:
    device: str                  # the file name: device id or host name, plus any extensions
    format: str                  # "lldpctl-json", "lldpctl-json0" or "sonic-table"
    neighbors: tuple[Neighbor, ...]
    source: str


def parse_lldp(text: str, source: str = "input") -> tuple[str, list[Neighbor]]:
    """Detect the format and read the neighbours: returns (format, neighbours)."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportFormatError(f"not valid JSON: {exc.msg}", exc.lineno, text.splitlines()[exc.lineno - 1]
                                    if exc.lineno <= len(text.splitlines()) else None, source) from None
        if not isinstance(data, dict) or "lldp" not in data:
            raise ImportFormatError("JSON without an 'lldp' key: expected 'lldpctl -f json' or '-f json0' output",
                                    1, None, source)
        if isinstance(data["lldp"], list):
            return "lldpctl-json0", _json0(data["lldp"], source)
        return "lldpctl-json", _json(data["lldp"], source)
    return "sonic-table", _sonic_table(text, source)


def read_lldp_dir(folder: Path) -> list[LldpDump]:
    folder = Path(folder)
    if not folder.is_dir():
        raise ImportFormatError("is not a folder of LLDP dumps", source=str(folder))
    dumps = []
    for file in sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")):
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ImportFormatError("is not UTF-8 text", source=str(file)) from None
        fmt, neighbors = parse_lldp(text, str(file))
        dumps.append(LldpDump(file.name, fmt, tuple(neighbors), str(file)))
    if not dumps:
        raise ImportFormatError("holds no LLDP dump files", source=str(folder))
    return dumps


def _fail(source: str, message: str):
    raise ImportFormatError(message, source=source)


def _json(lldp, source: str) -> list[Neighbor]:
    if not isinstance(lldp, dict):
        _fail(source, "'lldp' should be a mapping in 'lldpctl -f json' output")
    interfaces = lldp.get("interface", {})
    items = []
    for entry in interfaces if isinstance(interfaces, list) else [interfaces]:
        if not isinstance(entry, dict):
            _fail(source, "an 'interface' entry is not a mapping")
        items.extend(entry.items())
    result = []
    for ifname, body in items:
        if not isinstance(body, dict):
            _fail(source, f"interface {ifname} is not a mapping")
        chassis = body.get("chassis") or {}
        name = None
        if isinstance(chassis, dict) and chassis and "id" not in chassis:
            name = next(iter(chassis))
        port = body.get("port") or {}
        port_id = port.get("id", {}).get("value") if isinstance(port.get("id"), dict) else None
        descr = port.get("descr") if isinstance(port.get("descr"), str) else None
        result.append(Neighbor(ifname, name, port_id, descr))
    return result


def _first_value(items) -> str | None:
    if isinstance(items, list) and items and isinstance(items[0], dict):
        value = items[0].get("value")
        return value if isinstance(value, str) else None
    return None


def _json0(lldp: list, source: str) -> list[Neighbor]:
    result = []
    for block in lldp:
        if not isinstance(block, dict):
            _fail(source, "an 'lldp' entry is not a mapping in 'lldpctl -f json0' output")
        for iface in block.get("interface", []):
            if not isinstance(iface, dict) or not isinstance(iface.get("name"), str):
                _fail(source, "an interface without a 'name' in 'lldpctl -f json0' output")
            chassis = (iface.get("chassis") or [{}])[0]
            port = (iface.get("port") or [{}])[0]
            result.append(Neighbor(iface["name"], _first_value(chassis.get("name")),
                                   _first_value(port.get("id")), _first_value(port.get("descr"))))
    return result


def _sonic_table(text: str, source: str) -> list[Neighbor]:
    lines = text.expandtabs().splitlines()
    rule_at = next((i for i, line in enumerate(lines) if i and _RULE.match(line) and "LocalPort" in lines[i - 1]),
                   None)
    if rule_at is None:
        _fail(source, "neither lldpctl JSON nor a SONiC 'show lldp table' (no 'LocalPort ...' header "
                      "with a dashed rule under it)")
    starts = [m.start() for m in re.finditer(r"-+", lines[rule_at])]
    spans = list(zip(starts, starts[1:] + [None]))
    header = [lines[rule_at - 1][a:b].strip() for a, b in spans]
    where = {_SONIC_COLUMNS[h]: k for k, h in enumerate(header) if h in _SONIC_COLUMNS}
    for needed in ("local", "device", "port_id"):
        if needed not in where:
            raise ImportFormatError("the table header lacks LocalPort, RemoteDevice or RemotePortID",
                                    rule_at, lines[rule_at - 1], source)
    result = []
    for number in range(rule_at + 1, len(lines)):
        line = lines[number]
        if not line.strip():
            continue
        if set(line.strip()) == {"-"} or line.strip().startswith("Total entries"):
            break
        cells = [line[a:b].strip() if a < len(line) else "" for a, b in spans]
        if not cells[where["local"]] or " " in cells[where["local"]]:
            raise ImportFormatError("a row without a LocalPort in its column", number + 1, line, source)
        descr = cells[where["port_descr"]] if "port_descr" in where else ""
        result.append(Neighbor(cells[where["local"]], cells[where["device"]] or None,
                               cells[where["port_id"]] or None, descr or None))
    return result
