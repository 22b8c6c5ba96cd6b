"""The Edit and Design menus' work on the selection, each edit one undo step: delete, copy, paste,
duplicate, add servers to an SU, cable NICs to their rail leaves, connect leaves to their spines and
spines to their cores, re-address. The canvas's context menu offers the same edits for what was
clicked."""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QApplication

from ..model.ids import split_endpoint
from ..planning.bulk import PLURAL, core_mesh, rail_cabling, spine_mesh
from ..planning.copying import Clip, copy_devices, paste_plan
from .commands import (AddDeviceCommand, AddressCommand, ConnectCommand, DisconnectCommand, MacroCommand,
                       GrowCommand, RecableCommand, RemoveDeviceCommand, ReplanCommand)

CLIP_MIME = "application/x-rail-designer-clip"


class EditActions:
    def __init__(self, window):
        self.window = window
        self.document = window.document
        self.scene = window.scene

    @property
    def fabric(self):
        return self.document.fabric

    def status(self, text: str) -> None:
        self.window.status(text)

    def run(self, command, done: str, refused: str) -> bool:
        error = self.document.execute(command)
        self.status(f"{refused}: {error}" if error else done)
        return error is None

    # ------------------------------------------------------------------ what is selected
    def selection(self, ids=None) -> list[str]:
        return sorted(ids) if ids is not None else self.scene.selected_ids()

    def nics_in(self, ids) -> list[str]:
        """The rail NICs of the selected servers and the selected NICs."""
        f = self.fabric
        out = set()
        for i in ids:
            if i in f.servers:
                out.update(n.id for n in f.servers[i].nics if n.rail is not None)
            elif "/" in i and "~" not in i and split_endpoint(i)[0] in f.servers:
                out.add(i)
        return sorted(out)

    def leaves_in(self, ids) -> list[str]:
        return self.switches_in(ids, "leaf")

    def switches_in(self, ids, role: str) -> list[str]:
        f = self.fabric
        return [i for i in ids if i in f.switches and f.switches[i].role.value == role]

    def links_in(self, ids) -> list[str]:
        """The selected cables and every cable of the selected devices."""
        f = self.fabric
        out = {i for i in ids if i in f.links}
        for i in ids:
            if f.has_device(i):
                out.update(l.id for l in f.links_of(i))
        return sorted(out)

    # ------------------------------------------------------------------ delete, copy, paste
    def delete_selection(self, ids=None) -> bool:
        f = self.fabric
        ids = self.selection(ids)
        devices = [i for i in ids if f.has_device(i)]
        links = [i for i in ids if i in f.links and not any(i.startswith(d + "/") or f"~{d}/" in i
                                                                 for d in devices)]
        parts = [DisconnectCommand(f, l) for l in links] + [RemoveDeviceCommand(f, d) for d in devices]
        if not parts:
            self.status("select devices or cables to delete (NICs go with their server)")
            return False
        return self.run(MacroCommand(f, f"Delete {len(parts)} objects", parts), f"deleted {len(parts)} objects",
                        "nothing deleted")

    def copy(self, ids=None) -> Clip | None:
        clip = copy_devices(self.fabric, self.selection(ids))
        if not clip:
            self.status("select servers or switches to copy")
            return None
        data = QMimeData()
        data.setData(CLIP_MIME, clip.to_json().encode())
        data.setText("\n".join(clip.ids()))
        QApplication.clipboard().setMimeData(data)
        self.status(f"copied {len(clip.ids())} devices and {len(clip.links)} cables among them")
        return clip

    def clipboard(self) -> Clip | None:
        data = QApplication.clipboard().mimeData()
        if data is None or not data.hasFormat(CLIP_MIME):
            return None
        try:
            return Clip.from_json(bytes(data.data(CLIP_MIME)).decode())
        except ValueError:
            return None

    def paste(self, su: int | None = None, new_su: bool = False, clip: Clip | None = None) -> bool:
        clip = clip or self.clipboard()
        if not clip:
            self.status("nothing to paste: copy servers or switches first (Ctrl+C)")
            return False
        f = self.fabric
        devices, links = paste_plan(f, clip, su, new_su)
        parts = [AddDeviceCommand(f, d) for d in devices]
        if links:
            parts.append(ConnectCommand(f, pairs=links))
        names = ", ".join(d.id for d in devices[:4]) + (" ..." if len(devices) > 4 else "")
        if self.run(MacroCommand(f, f"Paste {len(devices)} devices", parts), f"pasted {names}", "nothing pasted"):
            self.scene.select_ids([d.id for d in devices])
            return True
        return False

    def duplicate(self, ids=None) -> bool:
        clip = copy_devices(self.fabric, self.selection(ids))
        if not clip:
            self.status("select servers or switches to duplicate")
            return False
        return self.paste(clip=clip)

    # ------------------------------------------------------------------ bulk edits
    def add_servers(self, su: int | None = None) -> bool:
        from .dialogs import AddServersDialog
        dialog = AddServersDialog(self.fabric, su, self.window)
        if not dialog.exec():
            return False
        command = dialog.command()
        if not self.run(command, f"added {len(command.servers)} servers to SU{dialog.su()}", "no servers added"):
            return False
        if command.problems:
            self.status(f"added {len(command.servers)} servers; not cabled: {command.problems[0]}"
                        + (f" (and {len(command.problems) - 1} more)" if len(command.problems) > 1 else ""))
        return True

    def move_rack(self, rack_id: str | None = None) -> bool:
        """Design > Move rack…: the rack of the selection (or any) to another row and slot, one undo step."""
        from .dialogs import MoveRackDialog
        if not self.fabric.racks:
            self.status("the design has no racks to move (rail-designer new --floor superpod lays them out)")
            return False
        floor = self.window.floor
        dialog = MoveRackDialog(self.fabric, rack_id or floor.rack_of_selection(self.selection()), self.window)
        if not dialog.exec():
            return False
        return floor.move_rack(dialog.rack(), dialog.row(), dialog.position()) is None

    def cable_to_rail_leaves(self, ids=None) -> bool:
        nics = self.nics_in(self.selection(ids))
        if not nics:
            self.status("select servers or NICs to cable to their rail leaves")
            return False
        plan = rail_cabling(self.fabric, nics)
        return self._run_plan(plan, RecableCommand(self.fabric, [(n, *p.split("/", 1)) for n, p in plan.steps],
                                                   f"Cable {len(plan.steps)} NICs to their rail leaves"),
                              "NICs cabled to their rail leaves", "on their rail leaf already")

    def mesh_to_spines(self, ids=None) -> bool:
        return self._mesh(ids, "leaf", spine_mesh, "spines")

    def mesh_to_cores(self, ids=None) -> bool:
        return self._mesh(ids, "spine", core_mesh, "cores")

    def _mesh(self, ids, role: str, planner, upper: str) -> bool:
        """Design > Connect leaves to their spines / spines to their cores, on the selected ``role``s."""
        chosen, many = self.switches_in(self.selection(ids), role), PLURAL[role]
        if not chosen:
            self.status(f"select {many} to connect to their {upper}")
            return False
        plan = planner(self.fabric, chosen)
        return self._run_plan(plan, ConnectCommand(self.fabric, pairs=plan.steps,
                                                   text=f"Connect {len(chosen)} {many} to their {upper}"),
                              f"uplinks drawn to the {upper}", f"{many} meshed already")

    def _run_plan(self, plan, command, done: str, already: str) -> bool:
        note = f"; {len(plan.problems)} not possible: {plan.problems[0]}" if plan.problems else ""
        if not plan.steps:
            self.status((f"nothing to do: {plan.already} {already}" if plan.already else "nothing done") + note)
            return False
        return self.run(command, f"{len(plan.steps)} {done}{note}", "refused")

    def readdress(self, ids=None) -> bool:
        ids = self.selection(ids)
        f = self.fabric
        links, switches = self.links_in(ids), [i for i in ids if i in f.switches]
        if not links and not switches:
            self.status("select cables or devices to re-address")
            return False
        return self.run(AddressCommand(f, links, switches),
                        f"re-addressed {len(links)} cables and {len(switches)} switches (pinned addresses kept)",
                        "not re-addressed")

    def add_su(self) -> bool:
        """Design > Add SU: one more SU, placed as the design's plan has it; nothing existing changes."""
        command = GrowCommand(self.fabric)
        done = self.run(command, "", "SU not added")
        if done:
            self.status(f"added an SU: {len(command.added)} devices; nothing that existed changed")
        return done

    def replan(self) -> bool:
        return self.run(ReplanCommand(self.fabric), "rails and addresses re-assigned", "re-planning refused")
