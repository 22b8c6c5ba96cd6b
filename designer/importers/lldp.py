"""LLDP neighbour dumps, one file per device, in the format each kind of device gives.

- ``lldpctl -f json`` (hosts running lldpd): ``{"lldp": {"interface": ...}}`` where ``interface``
  is a mapping ``{ifname: {...}}``, or a list of one-key mappings when there are several;
  the chassis is keyed by the neighbour's system name (or holds ``id`` directly when it sent none).
- ``lldpctl -f json0``: the same data with every level a list and names as ``name`` fields:
  ``{"lldp": [{"interface": [{"name": ..., "chassis": [{"name": [{"value": ...}]}],
  "port": [{"id": [{"type": ..., "value": ...}], "descr": [{"value": ...}]}]}]}]}``.
- ``lldpctl`` / ``lldpcli show neighbors`` text (SONiC ``show lldp neighbors`` prints it) and
  ``lldpctl -f keyvalue``: see `lldptext`.
- SONiC ``show lldp table``: a text table whose columns (LocalPort, RemoteDevice, RemotePortID,
  Capability, RemotePortDescr) are located by the dashed rule under the header; cells may be
  blank or hold spaces.
The device a file belongs to is named by its file name (device id or host name, then extensions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..model.limits import MAX_LLDP_BYTES, MAX_LLDP_FILES, excerpt
from ..storage.jsonio import JsonInputError, parse_json
from ..storage.yamlio import FileFormatError, read_text
from .errors import ImportFormatError
from .lldptext import is_keyvalue, is_lldpctl_text, read_keyvalue, read_lldpctl_text

_RULE = re.compile(r"^\s*-+(\s+-+)+\s*$")
MAX_NEIGHBORS = 16_384               # neighbours in one device's dump (a switch has at most a few hundred)
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
    format: str                  # "lldpctl-json", "lldpctl-json0", "lldpctl-text", "lldpctl-keyvalue", "sonic-table"
    neighbors: tuple[Neighbor, ...]
    source: str


def parse_lldp(text: str, source: str = "input") -> tuple[str, list[Neighbor]]:
    """Detect the format and read the neighbours: returns (format, neighbours)."""
    if text.lstrip().startswith("{"):
        try:
            data = parse_json(text)
        except JsonInputError as exc:
            lines = text.splitlines()
            shown = lines[exc.line - 1] if exc.line and exc.line <= len(lines) else None
            raise ImportFormatError(exc.message, exc.line, shown, source) from None
        if not isinstance(data, dict) or "lldp" not in data:
            raise ImportFormatError("JSON without an 'lldp' key: expected 'lldpctl -f json' or '-f json0' output",
                                    1, None, source)
        if isinstance(data["lldp"], list):
            neighbors = _json0(data["lldp"], source)
            fmt = "lldpctl-json0"
        else:
            neighbors, fmt = _json(data["lldp"], source), "lldpctl-json"
    elif is_lldpctl_text(text):
        neighbors, fmt = [Neighbor(*row) for row in read_lldpctl_text(text)], "lldpctl-text"
    elif is_keyvalue(text):
        neighbors, fmt = [Neighbor(*row) for row in read_keyvalue(text)], "lldpctl-keyvalue"
    else:
        neighbors, fmt = _sonic_table(text, source), "sonic-table"
    if len(neighbors) > MAX_NEIGHBORS:
        _fail(source, f"lists {len(neighbors):,} neighbours; one device's dump has at most {MAX_NEIGHBORS:,}")
    return fmt, neighbors


def read_lldp_dir(folder: Path) -> list[LldpDump]:
    folder = Path(folder)
    if not folder.is_dir():
        raise ImportFormatError("is not a folder of LLDP dumps", source=str(folder))
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if len(files) > MAX_LLDP_FILES:
        raise ImportFormatError(f"holds {len(files):,} files; at most {MAX_LLDP_FILES:,} dumps are read at once",
                                source=str(folder))
    dumps = []
    for file in files:
        try:
            text = read_text(file, MAX_LLDP_BYTES, "LLDP dump")
        except FileFormatError as exc:
            raise ImportFormatError(exc.message, exc.line, source=str(file)) from None
        fmt, neighbors = parse_lldp(text, str(file))
        dumps.append(LldpDump(file.name, fmt, tuple(neighbors), str(file)))
    if not dumps:
        raise ImportFormatError("holds no LLDP dump files", source=str(folder))
    return dumps


def _fail(source: str, message: str):
    raise ImportFormatError(message, source=source)


_KINDS = {dict: "a mapping", list: "a list", str: "text"}


def _expect(value, kind: type, where: str, source: str, optional: bool = True):
    """``value`` when it is a ``kind``; None when absent (and ``optional``); otherwise a refusal that
    names the place (a real lldpctl never writes another type there)."""
    if value is None and optional:
        return None
    if not isinstance(value, kind):
        got = _KINDS.get(type(value), "null" if value is None else f"a {type(value).__name__}")
        _fail(source, f"{where} should be {_KINDS[kind]}, not {got}")
    return value


def _json(lldp, source: str) -> list[Neighbor]:
    """``lldpctl -f json``: interfaces keyed by name (a list of one-key mappings when there are several)."""
    lldp = _expect(lldp, dict, "'lldp'", source, optional=False)
    interfaces = lldp.get("interface")
    entries = interfaces if isinstance(interfaces, list) else [] if interfaces is None else [interfaces]
    result = []
    for n, entry in enumerate(entries):
        for ifname, body in _expect(entry, dict, f"lldp.interface[{n}]", source, optional=False).items():
            where = f"interface {excerpt(ifname, 40)}"
            body = _expect(body, dict, where, source, optional=False)
            chassis = _expect(body.get("chassis"), dict, f"{where}: 'chassis'", source) or {}
            name = next(iter(chassis)) if chassis and "id" not in chassis else None
            port = _expect(body.get("port"), dict, f"{where}: 'port'", source) or {}
            port_id = _expect(port.get("id"), dict, f"{where}: 'port.id'", source) or {}
            value = _expect(port_id.get("value"), str, f"{where}: 'port.id.value'", source)
            descr = port.get("descr") if isinstance(port.get("descr"), str) else None
            result.append(Neighbor(ifname, name, value, descr))
    return result


def _first_value(items, where: str, source: str) -> str | None:
    """The ``value`` of the first ``[{"value": ...}]`` entry (json0's form of every field)."""
    items = _expect(items, list, where, source)
    if not items:
        return None
    first = _expect(items[0], dict, f"{where}[0]", source, optional=False)
    return _expect(first.get("value"), str, f"{where}[0].value", source)


def _first(items, where: str, source: str) -> dict:
    items = _expect(items, list, where, source) or [{}]
    return _expect(items[0], dict, f"{where}[0]", source, optional=False) if items else {}


def _json0(lldp: list, source: str) -> list[Neighbor]:
    """``lldpctl -f json0``: every level a list, names in ``name`` fields."""
    result = []
    for b, block in enumerate(lldp):
        block = _expect(block, dict, f"lldp[{b}]", source, optional=False)
        for n, iface in enumerate(_expect(block.get("interface"), list, f"lldp[{b}].interface", source) or []):
            where = f"lldp[{b}].interface[{n}]"
            iface = _expect(iface, dict, where, source, optional=False)
            if not isinstance(iface.get("name"), str):
                _fail(source, f"{where} has no 'name' (an interface without a name in 'lldpctl -f json0' output)")
            chassis = _first(iface.get("chassis"), f"{where}.chassis", source)
            port = _first(iface.get("port"), f"{where}.port", source)
            result.append(Neighbor(iface["name"], _first_value(chassis.get("name"), f"{where}.chassis[0].name", source),
                                   _first_value(port.get("id"), f"{where}.port[0].id", source),
                                   _first_value(port.get("descr"), f"{where}.port[0].descr", source)))
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
