"""GUI benchmark (offscreen, the real window): open + first paint of a 1,024-server x 8-rail design
and of a 4,096-server one; every kind of single edit and its undo, zoomed in (every item shown);
bulk edits over one SU; and zoom, pan and find on the large design. Then the three-tier
b200-superpod preset at 16 SUs (512 servers) and 64 SUs (2,048 servers, 49,152 cables): open, the
tier edits (a core added, a spine deleted or moved to another spine group, a spine-core cable drawn,
a NIC re-cabled), the verdict a drag shows before the drop, and the bulk edits over one SU and one
spine group.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui.py [--big-only | --no-big] [--tiers-only | --no-tiers]

Targets (issues 10 and 23, on 2 cores): open 1,024 servers < 3 s; every single edit, its undo
and its redo < 100 ms median at 1,024 servers and < 250 ms at 4,096, from the call to the repainted
canvas and the automatic re-check's findings; a bulk edit over one SU < 1 s; open 4,096 servers
< 10 s. Each edit is run 3 times (min/median printed) and asserted to have taken effect (and its
undo to have taken it back). The re-check runs as the window runs it, on its worker thread
(started at once rather than after its debounce); how late a 4 ms timer fires meanwhile is how long input waited.
Run it under a real X server too: xvfb-run -a env QT_QPA_PLATFORM=xcb python bench/bench_gui.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.storage import save  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402
from designer.gui.check_runner import DELAY_MS  # noqa: E402

# the 1,024-server design of the issue (32 SUs x 32 servers, subnet per leaf) and bench_checks' 4,096-server one
SPEC_1024 = BuildSpec(sus=32, servers_per_su=32, server_model="hgx-h100-8x400g", leaf_model="generic-64x400g",
                      spine_model="generic-64x400g", spine_planes="per-rail")
SPEC_4096 = BuildSpec(sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_model="nvidia-sn5600",
                      spine_model="nvidia-sn5600", leaf_uplinks=32, uplink_speed=800, spines=32,
                      spine_planes="per-rail", scheme="p2p31")
ROWS: list[tuple[str, float, float]] = []


def row(name: str, seconds: float, target_ms: float) -> None:
    ms = seconds * 1000
    ROWS.append((name, ms, target_ms))
    print(f"  {name:58} {ms:9.1f} ms   (target < {target_ms:,.0f} ms){'' if ms < target_ms else '  OVER'}")


def timed(app, window, fn, first_paint: bool = False):
    """Seconds for ``fn`` and the window catching up: the posted canvas updates and the repaint
    they cause (or, ``first_paint``, a synchronous paint of the whole canvas). The debounced re-check
    is held meanwhile (an edit slower than its delay would otherwise count the check as well); it
    is timed on its own ("re-check after it")."""
    timer = window.checks._timer
    timer.setInterval(10 ** 8)
    t0 = time.perf_counter()
    try:
        result = fn()
        app.processEvents()
        if first_paint:
            window.view.viewport().repaint()
        return time.perf_counter() - t0, result
    finally:
        timer.setInterval(DELAY_MS)


def open_design(app, window, path: Path, label: str, target_ms: float):
    """Open (load, canvas, first paint), then the first check the window runs right after it (on its
    worker: the longest the GUI thread waited meanwhile is printed)."""
    runner = window.checks
    t_open, _ = timed(app, window, lambda: window.files.open_file(path, ask=False), first_paint=True)
    runner._timer.stop()                               # the check is timed apart from the open
    f = window.document.fabric
    row(f"open {label} ({len(f.servers):,} servers, {len(f.links):,} cables) + first paint", t_open, target_ms)
    t_check, longest = recheck(app, window)
    row(f"  first check of {label} (on the worker, after the open)", t_check, target_ms)
    row(f"  the longest the window waited while it ran", longest, 16)
    row(f"  open + first check, findings shown", t_open + t_check, target_ms)


TICK_MS = 4      # the stand-in for input while a re-check runs: a precise timer this often


def recheck(app, window) -> tuple[float, float]:
    """The automatic re-check as the window runs it (on its worker thread), started at once instead
    of after its debounce: (seconds until the findings are shown, the longest input waited meanwhile).
    Input is stood in for by a precise timer every `TICK_MS`: how late a tick fires past its time is how
    long an event would have waited (for the interpreter lock, the hand-over, the delivery of the
    findings). The loop sleeps between events as the window's does, so the worker has the lock."""
    from PySide6.QtCore import QEventLoop, QTimer, Qt
    runner = window.checks
    ticks: list[float] = []
    probe = QTimer()
    probe.setTimerType(Qt.PreciseTimer)
    probe.setInterval(TICK_MS)
    probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
    t0 = time.perf_counter()
    ticks.append(t0)
    probe.start()
    runner.start()
    while runner.pending():
        app.processEvents(QEventLoop.WaitForMoreEvents)
    done = time.perf_counter()
    probe.stop()
    ticks.append(done)
    late = max((b - a for a, b in zip(ticks, ticks[1:])), default=0.0) - TICK_MS / 1000
    return done - t0, max(late, 0.0)


def median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2


def summary(name: str, kind: str, paint: list[float], total: list[float], slices: list[float], target_ms: float) -> None:
    """One line per edit, undo or redo: min/median of the edit + repaint, of the edit + repaint +
    the whole re-check (findings shown), and the longest the event loop waited meanwhile."""
    ms = [x * 1000 for x in total]
    ROWS.append((f"{name}: {kind}", median(ms), target_ms))
    print(f"  {name + ': ' + kind:52} edit+paint {min(paint) * 1000:6.1f}/{median(paint) * 1000:6.1f}"
          f"  +re-check {min(ms):6.1f}/{median(ms):6.1f} ms  longest wait {max(slices) * 1000:5.1f} ms"
          f"{'' if median(ms) < target_ms else '  OVER'}")


def single_edits(app, window, cases, repeats: int = 3, target_ms: float = 100) -> None:
    """Each (name, make command, applied): the edit, its undo and its redo, ``repeats`` times, each
    timed from the call to the repainted canvas and on to the re-check's findings; ``applied()`` must
    hold after the edit and the redo and not after the undo (a refused or empty edit would time
    nothing). The edit is undone at the end, so the design is as it was."""
    doc = window.document
    for name, make, applied in cases:
        assert not applied(), f"{name}: already the case before the edit"
        times = {kind: ([], [], []) for kind in ("edit", "undo", "redo")}
        for _ in range(repeats):
            command = make()
            for kind, fn in (("edit", lambda: doc.execute(command)), ("undo", doc.undo_stack.undo),
                             ("redo", doc.undo_stack.redo)):
                t, error = timed(app, window, fn)
                assert error is None, f"{name}: {error}"
                assert applied() == (kind != "undo"), f"{name}: the {kind} did not take effect"
                t_check, longest = recheck(app, window)
                times[kind][0].append(t)
                times[kind][1].append(t + t_check)
                times[kind][2].append(longest)
            doc.undo_stack.undo()
            recheck(app, window)
            assert not applied()
        for kind, (paint, total, slices) in times.items():
            summary(name, kind, paint, total, slices, target_ms)


def edits(app, window, target_ms: float = 100) -> None:
    from designer.gui.commands import (AddDeviceCommand, ConnectCommand, DisconnectCommand, MoveNicCommand,
                                       RehomeCommand, RemoveDeviceCommand, SetSwitchRailCommand)
    from designer.planning.build import make_server
    from designer.planning.wiring import free_port_pair
    doc, f = window.document, window.document.fabric
    window.view.centre_on_ids(["su2-leaf-r0"])          # zoomed in: the freeze of issue 10 was here
    window.view.zoom(1.0 / window.view.scale_now())
    window.scene.clearSelection()
    app.processEvents()
    doc.execute(RemoveDeviceCommand(f, "su2-srv32"))    # room on su2's leaves (every port is used), not timed
    uplink = next(l for l in f.links_of("su2-leaf-r0") if "spine" in l.id)
    spine = next(ep.split("/")[0] for ep in (uplink.a, uplink.b) if "spine" in ep)
    doc.execute(DisconnectCommand(f, uplink.id))         # and on one spine
    doc.undo_stack.clear()
    window.checks.run_now()
    app.processEvents()
    assert f.free_ports("su2-leaf-r1"), "the target leaf of the NIC move has no free port"
    pair = free_port_pair(f, "su2-leaf-r0", spine)
    home = f.peer("su2-srv02/nic1")
    cases = [
        ("move a NIC to another rail's leaf", lambda: MoveNicCommand(f, "su2-srv01/nic0", "su2-leaf-r1"),
         lambda: (f.peer("su2-srv01/nic0") or "").startswith("su2-leaf-r1/")),
        ("add a server", lambda: AddDeviceCommand(f, make_server(f.catalog, "su2-srv99", "hgx-h100-8x400g", 2, 8)),
         lambda: "su2-srv99" in f.servers),
        ("delete a server (with its 8 cables)", lambda: RemoveDeviceCommand(f, "su2-srv05"),
         lambda: "su2-srv05" not in f.servers),
        ("delete a leaf (with its cables)", lambda: RemoveDeviceCommand(f, "su2-leaf-r5"),
         lambda: "su2-leaf-r5" not in f.switches),
        ("re-rail a leaf (drag to another lane)", lambda: SetSwitchRailCommand(f, "su2-leaf-r3", 2),
         lambda: f.switches["su2-leaf-r3"].rail == 2),
        ("draw a leaf-spine cable by hand", lambda: ConnectCommand(f, *pair),
         lambda: f.link_at(pair[0]) is not None),
        ("re-home a cable end to another leaf", lambda: RehomeCommand(
            f, f.link_at("su2-srv02/nic1").id, home, "su2-leaf-r2/" + f.free_ports("su2-leaf-r2")[0].name),
         lambda: (f.peer("su2-srv02/nic1") or "").startswith("su2-leaf-r2/")),
    ]
    single_edits(app, window, cases, target_ms=target_ms)
    window.checks.run_now()


def bulk(app, window) -> None:
    from designer.gui.commands import AddServersCommand, DisconnectCommand, MacroCommand
    from designer.planning.build import make_server
    from designer.planning.naming import next_server_id
    doc, f, edit = window.document, window.document.fabric, window.edit
    su3 = sorted(s.id for s in f.servers.values() if s.su == 3)
    leaves3 = [l.id for l in f.leaves() if l.su == 3]
    taken: set[str] = set()
    servers = []
    for _ in range(8):
        sid = next_server_id(f, 3, taken)
        taken.add(sid)
        servers.append(make_server(f.catalog, sid, "hgx-h100-8x400g", 3, 8))
    doc.execute(MacroCommand(f, "room", [DisconnectCommand(f, l.id) for s in su3[-8:] for l in f.links_of(s)]))
    t, error = timed(app, window, lambda: doc.execute(AddServersCommand(f, servers, cable=True)))
    row("add 8 servers to SU3, cabled to the rail leaves", t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    doc.undo_stack.undo()
    doc.execute(MacroCommand(f, "uncable", [DisconnectCommand(f, l.id) for s in su3 for l in f.links_of(s)]))
    t, ok = timed(app, window, lambda: edit.cable_to_rail_leaves(su3))
    row(f"cable every NIC of SU3 ({len(su3) * 8} NICs) to its rail leaf", t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    doc.undo_stack.undo()
    doc.execute(MacroCommand(f, "unmesh", [DisconnectCommand(f, l.id) for leaf in leaves3 for l in f.links_of(leaf)
                                             if "spine" in l.id]))
    t, ok = timed(app, window, lambda: edit.mesh_to_spines(leaves3))
    row(f"connect SU3's {len(leaves3)} leaves to their spines ({ok and len(f.links_of(leaves3[0]))} cables each)", t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    doc.undo_stack.undo()
    t, _ = timed(app, window, lambda: edit.readdress(su3 + leaves3))
    row("re-address SU3 (its servers' and leaves' cables)", t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    clip = edit.copy(su3 + leaves3)
    t, _ = timed(app, window, lambda: edit.paste(new_su=True, clip=clip))
    row("paste SU3 (32 servers, 8 leaves, their cables) as a new SU", t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    window.checks.run_now()


def usability(app, window, target_ms: float = 100) -> None:
    view, f = window.view, window.document.fabric
    moves = [("fit the whole design", view.fit), ("zoom in x8", lambda: view.zoom(8)),
             ("pan 400 px", lambda: view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 400)),
             ("zoom out x8", lambda: view.zoom(1 / 8))]
    times: dict[str, list[float]] = {name: [] for name, _ in moves}
    for _ in range(3):
        for name, fn in moves:
            times[name].append(timed(app, window, fn)[0])
    for name, ts in times.items():
        ROWS.append((name, median(ts) * 1000, target_ms))
        print(f"  {name:52} {min(ts) * 1000:6.1f}/{median(ts) * 1000:6.1f} ms (min/median of 3)"
              f"{'' if median(ts) * 1000 < target_ms else '  OVER'}")
    last = f.sorted_servers()[-1].id
    window.find_bar.setText(last)
    t, ids = timed(app, window, window.find_bar.search)
    row(f"find {last} (select, centre, zoom)", t, 300)
    from designer.gui.commands import DisconnectCommand, MoveNicCommand
    nic = f.servers[last].nics[0].id
    leaf = next(l.id for l in f.leaves() if l.su == f.servers[last].su and l.rail == 1)
    room = next(l for l in f.links_of(leaf) if l.a.startswith(f.sorted_servers()[-2].id + "/")
                or l.b.startswith(f.sorted_servers()[-2].id + "/"))             # a free port on that leaf, not timed
    window.document.execute(DisconnectCommand(f, room.id))
    t, error = timed(app, window, lambda: window.document.execute(MoveNicCommand(f, nic, leaf)))
    assert error is None, error
    row("edit there (move a NIC)", t, 100)
    t, _ = timed(app, window, window.checks.run_now)
    row("  re-check after it", t, 300)


def tier_edits(app, window) -> None:
    """Single edits of a three-tier design, zoomed in on SU2 and its pod, each with its undo and redo."""
    from designer.checks.verdict import cable_verdict
    from designer.gui.commands import (AddDeviceCommand, ConnectCommand, DisconnectCommand, MoveNicCommand,
                                       RemoveDeviceCommand, SetSwitchRailCommand, set_group_command)
    from designer.model.entities import Role, Switch
    from designer.planning.wiring import free_port_pair
    doc, f = window.document, window.document.fabric
    window.view.centre_on_ids(["su2-leaf-r0"])
    window.view.zoom(1.0 / window.view.scale_now())
    window.scene.clearSelection()
    app.processEvents()
    doc.execute(RemoveDeviceCommand(f, "su2-srv32"))            # room on su2's leaves, not timed
    spine = "sg1-spine-02"
    uplink = next(l for l in f.links_of(spine) if "core" in l.id)
    doc.execute(DisconnectCommand(f, uplink.id))                # a free spine and core port
    core = uplink.a.split("/")[0] if "core" in uplink.a.split("/")[0] else uplink.b.split("/")[0]
    doc.undo_stack.clear()
    window.checks.run_now()
    app.processEvents()
    other_group = next(s.id for s in f.spines() if s.group == 2)
    leaf_port = f"su2-leaf-r0/{f.free_ports('su2-leaf-r0')[0].name}"
    doc.execute(DisconnectCommand(f, f.links_of(other_group)[-1].id))     # a free port there too
    doc.undo_stack.clear()
    window.checks.run_now()
    spine_port = f"{other_group}/{f.free_ports(other_group)[0].name}"
    t, _ = timed(app, window, lambda: cable_verdict(f, leaf_port, spine_port))
    row("verdict before a drop (a leaf onto another group's spine)", t, 100)
    nic, other_rail = "su2-srv01/nic0", f"su2-leaf-r1/{f.free_ports('su2-leaf-r1')[0].name}"
    t, _ = timed(app, window, lambda: cable_verdict(f, nic, other_rail, gone=f.link_at(nic)))
    row("verdict before a drop (a NIC onto another rail's leaf)", t, 100)
    pair = free_port_pair(f, spine, core)
    cases = [
        ("move a NIC to another rail's leaf", lambda: MoveNicCommand(f, "su2-srv01/nic0", "su2-leaf-r1"),
         lambda: (f.peer("su2-srv01/nic0") or "").startswith("su2-leaf-r1/")),
        ("add a core to core group 1", lambda: AddDeviceCommand(f, Switch("cg1-core-99", "cg1-core-99", Role.CORE,
                                                                           "nvidia-sn5400", group=1)),
         lambda: "cg1-core-99" in f.switches),
        ("draw a spine-core cable by hand", lambda: ConnectCommand(f, *pair), lambda: f.link_at(pair[0]) is not None),
        ("move a spine to another spine group", lambda: set_group_command(f, "sg1-spine-03", 2),
         lambda: f.switches["sg1-spine-03"].group == 2),
        ("delete a spine (with its cables)", lambda: RemoveDeviceCommand(f, "sg1-spine-05"),
         lambda: "sg1-spine-05" not in f.switches),
        ("re-rail a leaf (drag to another lane)", lambda: SetSwitchRailCommand(f, "su2-leaf-r3", 2),
         lambda: f.switches["su2-leaf-r3"].rail == 2),
    ]
    single_edits(app, window, cases)


def tier_bulk(app, window) -> None:
    """Bulk edits of a three-tier design: one SU's leaves to their spines, one spine group's spines to
    their cores (each as one undo step, after taking those uplinks away)."""
    f, edit = window.document.fabric, window.edit
    leaves = [l.id for l in f.leaves() if l.su == 3]
    _rewire(app, window, leaves, "spine", edit.mesh_to_spines,
            f"connect SU3's {len(leaves)} leaves to their spine group's spines")
    spines = [s.id for s in f.spines() if s.group == 1]
    _rewire(app, window, spines, "core", edit.mesh_to_cores,
            f"connect spine group 1's {len(spines)} spines to their cores")
    window.checks.run_now()


def _rewire(app, window, switches: list[str], upper: str, edit, name: str) -> None:
    """Take the switches' cables to the ``upper`` tier away (not timed), then time the bulk edit that
    draws them again and its undo."""
    from designer.gui.commands import DisconnectCommand, MacroCommand
    doc, f = window.document, window.document.fabric
    doc.execute(MacroCommand(f, "unmesh", [DisconnectCommand(f, l.id) for s in switches for l in f.links_of(s)
                                             if upper in l.id]))
    t, _ = timed(app, window, lambda: edit(switches))
    row(name, t, 1000)
    t, _ = timed(app, window, doc.undo_stack.undo)
    row("  undo", t, 1000)
    doc.undo_stack.undo()


def main(argv: list[str]) -> int:
    from designer.gui.app import application, use_private_scope
    from designer.gui.main_window import MainWindow
    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        use_private_scope(Path(tmp))          # never the user's recent files or recovery files
        small = build(BuildSpec(sus=1, servers_per_su=1, server_model="gpu-4x400g"), builtin_catalog())
        from PySide6.QtCore import QSettings
        window = MainWindow(small, recovery_dir=Path(tmp) / "recovery",
                            settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat))
        window.resize(1600, 1000)
        window.show()
        app.processEvents()
        b200 = load_preset("b200-superpod")
        runs = [("1,024", SPEC_1024, 3000, (edits, bulk, usability), "flat"),
                ("4,096", SPEC_4096, 10000, (partial(edits, target_ms=250), partial(usability, target_ms=250)),
                 "flat big"),
                ("b200-superpod 16 SUs", b200.spec(sus=16), 3000, (tier_edits, tier_bulk, usability), "tiers"),
                ("b200-superpod 64 SUs", b200.spec(sus=64), 10000, (tier_edits, usability), "tiers big")]
        for label, spec, target_ms, parts, tags in runs:
            tags = set(tags.split())
            if ("--big-only" in argv and "big" not in tags) or ("--no-big" in argv and "big" in tags) or \
                    ("--tiers-only" in argv and "tiers" not in tags) or ("--no-tiers" in argv and "tiers" in tags):
                continue
            path = Path(tmp) / "design.fabric.yaml"
            save(build(spec, builtin_catalog()), path)
            print(f"{label} servers x 8 rails:" if "flat" in tags else f"{label}:")
            open_design(app, window, path, label if "tiers" in tags else f"{label} servers", target_ms)
            for part in parts:
                part(app, window)
        window.document.undo_stack.setClean()
        window.close()
    over = [r for r in ROWS if r[1] >= r[2]]
    print(f"{len(ROWS)} timings, {len(over)} over target" + (": " + "; ".join(r[0].strip() for r in over) if over else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
