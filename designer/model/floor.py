"""The physical floor: halls, rows of racks, and the settings that turn places into cable lengths.

A design may carry a `Floor` (None: it says nothing about racks, as designs did before). Rows belong to
a hall and stand at an ``index`` on one floor grid (front to back, every hall's rows in one sequence);
a rack stands at ``position`` (from 1) in its row. A device's place is its ``rack`` and ``position``
(the lowest unit it takes, counting from 1 at the bottom; `Server` and `Switch` both hold them). Its
height in units, power and weight come from its hardware model (``rack_units``, ``power_w``,
``weight_kg`` in the catalog).

`FloorSettings` holds the routing model's numbers (`planning.cable_lengths` says how they are used) and
the layout planner's (`planning.floor_layout`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from .ids import is_valid_device_id
from .limits import excerpt

UNIT_MM = 44.45                       # one rack unit (EIA-310)
MAX_RACK_UNITS = 60
MAX_RACKS = 8_192
MAX_ROWS = 1_024
MAX_ROW_POSITION = 1_000


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    hall: str
    index: int                        # where the row stands on the floor grid, from 0 (front to back)


@dataclass(frozen=True, slots=True)
class Rack:
    id: str
    row: str
    position: int                     # slot in the row, from 1
    height_u: int = 48
    power_kw: float = 40.0            # power budget
    weight_kg: float = 1500.0         # static load budget


@dataclass(frozen=True, slots=True)
class FloorSettings:
    """Rack pitch and the routing model (lengths), and what the layout planner places by."""

    rack_width_mm: int = 600
    rack_depth_mm: int = 1200
    aisle_mm: int = 1200              # between two rows: the row pitch is depth + aisle
    tray_mm: int = 500                # from a rack's top to the overhead tray
    slack_end_m: float = 0.5          # service loop at each end
    slack_percent: float = 10.0       # of the routed length
    servers_per_rack: int = 4         # the layout's compute racks (fewer when power, weight or units run out)
    compute_rack_kw: float = 45.0     # power budget of a compute rack the layout adds
    network_rack_kw: float = 25.0     # of a network rack
    rack_weight_kg: float = 1500.0    # weight budget of a rack the layout adds
    rack_height_u: int = 48           # height of a rack the layout adds


@dataclass(frozen=True, slots=True)
class Floor:
    settings: FloorSettings = field(default_factory=FloorSettings)
    rows: tuple[Row, ...] = ()
    racks: tuple[Rack, ...] = ()


# name, kind, low, high of each FloorSettings field (one definition for the model and the file)
SETTING_BOUNDS = {
    "rack_width_mm": (int, 100, 5_000), "rack_depth_mm": (int, 100, 5_000), "aisle_mm": (int, 0, 20_000),
    "tray_mm": (int, 0, 5_000), "slack_end_m": (float, 0.0, 50.0), "slack_percent": (float, 0.0, 100.0),
    "servers_per_rack": (int, 1, 60), "compute_rack_kw": (float, 0.1, 1_000.0),
    "network_rack_kw": (float, 0.1, 1_000.0), "rack_weight_kg": (float, 1.0, 100_000.0),
    "rack_height_u": (int, 1, MAX_RACK_UNITS),
}


def name_problem(what: str, name) -> str | None:
    """Why ``name`` cannot be a hall, row or rack id (None when it can)."""
    if not isinstance(name, str) or not is_valid_device_id(name):
        return (f"{excerpt(name)} is not a valid {what} id: use letters, digits and hyphens (no '/', '.', "
                "spaces), at most 63 characters")
    return None


def number_problem(what: str, value, kind, low, high) -> str | None:
    ok = (isinstance(value, (int, float)) if kind is float else isinstance(value, int)) and not isinstance(value, bool)
    if not ok or not low <= value <= high:
        word = "a number" if kind is float else "a whole number"
        return f"{what} should be {word} from {low} to {high}, not {excerpt(value)}"
    return None


def settings_problems(s: FloorSettings) -> list[tuple[str, str]]:
    out = []
    for name, (kind, low, high) in SETTING_BOUNDS.items():
        problem = number_problem(name, getattr(s, name), kind, low, high)
        if problem:
            out.append((name, problem))
    return out


def normalized(value):
    """A FloorSettings or Rack with its float fields as floats (a whole number given for kW reads back as
    written: the file stays byte-stable)."""
    changes = {name: float(getattr(value, name)) for name in _FLOATS[type(value)]
               if type(getattr(value, name)) is int}
    return replace(value, **changes) if changes else value


_FLOATS = {FloorSettings: [n for n, (kind, _, _) in SETTING_BOUNDS.items() if kind is float],
           Rack: ["power_kw", "weight_kg"]}


def rack_problem(rack: Rack) -> str | None:
    return (name_problem("rack", rack.id) or name_problem("row", rack.row)
            or number_problem(f"position of rack {rack.id}", rack.position, int, 1, MAX_ROW_POSITION)
            or number_problem(f"height of rack {rack.id}", rack.height_u, int, 1, MAX_RACK_UNITS)
            or number_problem(f"power budget (kW) of rack {rack.id}", rack.power_kw, float, 0.0, 1_000.0)
            or number_problem(f"weight budget (kg) of rack {rack.id}", rack.weight_kg, float, 0.0, 100_000.0))


def row_problem(row: Row) -> str | None:
    return (name_problem("row", row.id) or name_problem("hall", row.hall)
            or number_problem(f"index of row {row.id}", row.index, int, 0, MAX_ROWS - 1))


ROW_KEYS = ("id", "hall", "index")
RACK_KEYS = ("id", "row", "position", "height_u", "power_kw", "weight_kg")


def floor_dict(floor: Floor) -> dict:
    """The floor as plain data (the design file's and the AID's ``floor``)."""
    return {"settings": asdict(floor.settings),
            "rows": [{k: getattr(r, k) for k in ROW_KEYS} for r in floor.rows],
            "racks": [{k: getattr(r, k) for k in RACK_KEYS} for r in floor.racks]}
