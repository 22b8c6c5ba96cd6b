"""The Fabric's floor: its queries and the only methods that change rows, racks and device places.

Each mutation validates, changes and emits one event: ``floor-changed`` naming the racks (or rows) it
touched, or the device's ``server-changed`` / ``switch-changed`` for a place.
"""

from __future__ import annotations

from dataclasses import replace

from . import events as ev
from .entities import Server
from .errors import ModelError
from .floor import (MAX_RACKS, MAX_ROWS, Floor, FloorSettings, Rack, Row, normalized, number_problem, rack_problem, row_problem,
                    settings_problems, MAX_ROW_POSITION)
from .ids import natural_key
from .limits import excerpt
from .validate import POSITION_RANGE


class FloorEdits:
    """Mixed into `Fabric`: ``_floor_settings`` None means the design has no floor."""

    # ------------------------------------------------------------------ reading
    @property
    def floor(self) -> Floor | None:
        """The design's floor (settings, rows and racks in natural order), or None when it has none."""
        if self._floor_settings is None:
            return None
        return Floor(self._floor_settings, tuple(sorted(self._rows.values(), key=lambda r: natural_key(r.id))),
                     tuple(sorted(self._racks.values(), key=lambda r: natural_key(r.id))))

    @property
    def racks(self):
        """Rack id -> `Rack`, read-only (empty without a floor)."""
        return self._racks

    @property
    def rows(self):
        """Row id -> `Row`, read-only."""
        return self._rows

    def device_model(self, device):
        """The catalogue's `ServerModel` of a server or `SwitchModel` of a switch (None when it lacks the model)."""
        models = self.catalog.servers if isinstance(device, Server) else self.catalog.switches
        return models.get(device.model)

    def device_units(self, device) -> int:
        """Rack units a server or switch takes (from its model)."""
        model = self.device_model(device)
        return model.rack_units if model is not None else 1

    def rack_devices(self) -> dict[str, list]:
        """Rack id -> the servers and switches standing in it (devices naming a rack the floor lacks are left
        out: RD063 reports them)."""
        inside: dict[str, list] = {rack_id: [] for rack_id in self._racks}
        for device in (*self._servers.values(), *self._switches.values()):
            if device.rack in inside:
                inside[device.rack].append(device)
        return inside

    def rack_contents(self) -> list[tuple[Rack, list[tuple[str, int, int]]]]:
        """Every rack with its devices as (device id, lowest unit, units), bottom up: what a floor view
        draws. Devices naming a rack the floor lacks are left out (RD063 reports them)."""
        inside = {rack_id: [(d.id, d.position or 0, self.device_units(d)) for d in devices]
                  for rack_id, devices in self.rack_devices().items()}
        racks = sorted(self._racks.values(), key=lambda r: (self._rows[r.row].index if r.row in self._rows else 0,
                                                             r.position, natural_key(r.id)))
        return [(rack, sorted(inside[rack.id], key=lambda d: (d[1], natural_key(d[0])))) for rack in racks]

    # ------------------------------------------------------------------ changing
    def set_floor(self, settings: FloorSettings | None) -> None:
        """Give the design a floor with these settings (or change them); None removes an empty floor."""
        if settings is None:
            if self._racks or self._rows:
                raise ModelError(f"the floor still has {len(self._racks)} racks and {len(self._rows)} rows; "
                                 "remove them before removing the floor")
        else:
            problems = settings_problems(settings)
            if problems:
                raise ModelError(f"floor setting {problems[0][1]}")
            settings = normalized(settings)
        self._floor_settings = settings
        self._emit(ev.FLOOR_CHANGED)

    def _need_floor(self) -> None:
        if self._floor_settings is None:
            raise ModelError("the design has no floor yet: give it one first (rail-designer new --floor superpod)")

    def add_row(self, row: Row) -> None:
        """Add a row of racks in a hall; refuses a bad or duplicate id, or an index another row has."""
        self._need_floor()
        problem = row_problem(row)
        if problem:
            raise ModelError(problem, (row.id,) if isinstance(row.id, str) else ())
        if row.id in self._rows:
            raise ModelError(f"there is a row '{row.id}' already", (row.id,))
        if len(self._rows) >= MAX_ROWS:
            raise ModelError(f"a floor has at most {MAX_ROWS:,} rows")
        taken = next((r.id for r in self._rows.values() if r.index == row.index), None)
        if taken is not None:
            raise ModelError(f"row {taken} already stands at index {row.index}", (row.id, taken))
        self._rows[row.id] = row
        self._emit(ev.FLOOR_CHANGED, row.id)

    def add_rack(self, rack: Rack) -> None:
        """Add a rack to a row; refuses a bad or duplicate id, an unknown row, a taken slot."""
        self._need_floor()
        problem = rack_problem(rack)
        if problem:
            raise ModelError(problem, (rack.id,) if isinstance(rack.id, str) else ())
        if rack.id in self._racks or self.has_device(rack.id):
            raise ModelError(f"'{rack.id}' is already the id of a rack or device", (rack.id,))
        if len(self._racks) >= MAX_RACKS:
            raise ModelError(f"a floor has at most {MAX_RACKS:,} racks")
        self._check_slot(rack.id, rack.row, rack.position)
        self._racks[rack.id] = normalized(rack)
        self._emit(ev.FLOOR_CHANGED, rack.id)

    def _check_slot(self, rack_id: str, row: str, position: int) -> None:
        if row not in self._rows:
            raise ModelError(f"rack {rack_id}: there is no row {excerpt(row)} (rows: "
                             f"{', '.join(sorted(self._rows, key=natural_key)) or 'none'})", (rack_id,))
        problem = number_problem(f"position of rack {rack_id}", position, int, 1, MAX_ROW_POSITION)
        if problem:
            raise ModelError(problem, (rack_id,))
        other = next((r.id for r in self._racks.values() if r.row == row and r.position == position
                      and r.id != rack_id), None)
        if other is not None:
            raise ModelError(f"position {position} of row {row} is taken by rack {other}", (rack_id, other))

    def move_rack(self, rack_id: str, row: str, position: int) -> None:
        """Stand a rack (with everything in it) at another slot; refuses an unknown rack or row, a taken slot."""
        rack = self._rack(rack_id)
        self._check_slot(rack_id, row, position)
        self._racks[rack_id] = replace(rack, row=row, position=position)
        self._emit(ev.FLOOR_CHANGED, rack_id)

    def set_rack(self, rack: Rack) -> None:
        """Change a rack's height or budgets (its slot through `move_rack`)."""
        old = self._rack(rack.id)
        if (rack.row, rack.position) != (old.row, old.position):
            raise ModelError(f"set_rack keeps rack {rack.id} where it is; move it with move_rack", (rack.id,))
        problem = rack_problem(rack)
        if problem:
            raise ModelError(problem, (rack.id,))
        self._racks[rack.id] = normalized(rack)
        self._emit(ev.FLOOR_CHANGED, rack.id)

    def remove_rack(self, rack_id: str) -> Rack:
        """Remove an empty rack and return it."""
        rack = self._rack(rack_id)
        inside = [d.id for d in (*self._servers.values(), *self._switches.values()) if d.rack == rack_id]
        if inside:
            raise ModelError(f"rack {rack_id} still holds {', '.join(sorted(inside, key=natural_key)[:4])}"
                             + (f" and {len(inside) - 4} more" if len(inside) > 4 else "") + "; move them first",
                             (rack_id,))
        del self._racks[rack_id]
        self._emit(ev.FLOOR_CHANGED, rack_id)
        return rack

    def remove_row(self, row_id: str) -> Row:
        """Remove a row that holds no rack."""
        row = self._rows.get(row_id)
        if row is None:
            raise ModelError(f"there is no row '{row_id}'", (row_id,))
        if any(r.row == row_id for r in self._racks.values()):
            raise ModelError(f"row {row_id} still holds racks; move or remove them first", (row_id,))
        del self._rows[row_id]
        self._emit(ev.FLOOR_CHANGED, row_id)
        return row

    def set_place(self, device_id: str, rack: str | None, position: int | None) -> None:
        """Record where a server or switch stands: its rack (None: not known) and its lowest unit. With a
        floor the rack must be one of its racks and the device must fit under the rack's top."""
        device = self.device(device_id)
        if rack is not None and (not isinstance(rack, str) or not rack.strip() or len(rack) > 255
                                 or any(c in rack for c in "\n\r\t")):
            raise ModelError(f"rack {excerpt(rack)} of {device_id} should be a name of 1 to 255 characters on "
                             "one line", (device_id,))
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)
                                     or not POSITION_RANGE[0] <= position <= POSITION_RANGE[1]):
            raise ModelError(f"position {excerpt(position)} of {device_id} should be a whole number from "
                             f"{POSITION_RANGE[0]} to {POSITION_RANGE[1]}", (device_id,))
        if self._floor_settings is not None and rack is not None:
            found = self._racks.get(rack)
            if found is None:
                raise ModelError(f"{device_id}: the floor has no rack {excerpt(rack)}; add it first or pick one of "
                                 f"its {len(self._racks)} racks", (device_id,))
            units = self.device_units(device)
            if position is not None and not 1 <= position <= found.height_u - units + 1:
                raise ModelError(f"{device_id} takes {units}U: in rack {rack} ({found.height_u}U) its lowest unit "
                                 f"is 1 to {found.height_u - units + 1}, not {position}", (device_id,))
        self._replace_device(replace(device, rack=rack, position=position))

    @property
    def media_overrides(self):
        """Cable id -> the media id chosen for it by hand, read-only."""
        return self._media

    def set_media(self, link_id: str, media: str | None) -> None:
        """Choose a cable's media by hand (a cable type id of the catalogue, or ``optics-<fibre id>``); None
        goes back to the choice by length. Whether it fits is for the checks to say (RD064)."""
        if link_id not in self._links:
            raise ModelError(f"there is no cable '{excerpt(link_id)}'", (link_id,) if isinstance(link_id, str) else ())
        if media is not None:
            known = set(self.catalog.media.cables) | {f"optics-{f}" for f in self.catalog.media.fibres}
            if media not in known:
                raise ModelError(f"{excerpt(media)} is not a media of the catalogue (cables: "
                                 f"{', '.join(sorted(self.catalog.media.cables)) or 'none'}; or optics-<fibre>: "
                                 f"{', '.join(sorted(self.catalog.media.fibres)) or 'none'})", (link_id,))
            self._media[link_id] = media
        else:
            self._media.pop(link_id, None)
        self._emit(ev.MEDIA_CHANGED, link_id)

    def _rack(self, rack_id: str) -> Rack:
        rack = self._racks.get(rack_id)
        if rack is None:
            raise ModelError(f"there is no rack '{excerpt(rack_id)}'", (rack_id,) if isinstance(rack_id, str) else ())
        return rack
