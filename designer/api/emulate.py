"""The fabric in Linux network namespaces, running the bundle's own files (root, `ip netns`, FRR)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import device_id

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..emulation import EmulationResult
    from ..emulation.change import ChangeResult
    from ..model.fabric import Fabric


def emulate(fabric: Fabric, *, failover: bool = True, keep: bool = False,
            commands: Iterable[tuple[str, str]] = (), log: Callable[[str], None] | None = None) -> EmulationResult:
    """Build a small design in network namespaces (one per server and switch, a veth pair per cable), run
    the bundle's files unchanged (host scripts and sysctls, config_db.json, FRR on frr.conf, the PPD agent),
    wait for BGP, and check: BGP tables, every rail NIC reaching every other NIC of its rail with replies
    on the right NIC, the leaves' pins, and (``qos`` rows) where RoCE data and CNPs marked as the host files
    say land, priority and queue, at every hop (tc stand-ins for NIC and ASIC, docs/qos-agreement.md). With
    ``failover`` it then pulls one uplink and powers off one
    spine, probing a flow per pinned NIC. ``commands``: ``(device, shell command)`` pairs run with bash in
    the device's namespace after setup, before the checks (to break something by hand); each one's exit
    status goes to ``log``, as do progress lines. Everything created is removed at the end (also on error
    and Ctrl+C) unless ``keep``. Returns an ``EmulationResult`` (``rows``: each check with ``ok``;
    ``timings``, ``kept``, ``removal_hint``, ``ok``). Raises a DesignerError (``EmulationError``) when the
    machine or the design cannot run it (needs root; at most 64 namespaces), ``UnknownDevice`` for a
    command's device."""
    from ..emulation import emulate as run
    wanted = [(device_id(fabric, device), command) for device, command in commands]

    def run_commands(runner) -> None:
        for device, command in wanted:
            done = runner.exec(runner.plan.ns_of(device), ["bash", "-c", command], check=False)
            if log is not None:
                log(f"exec on {device}: {command} (exit {done.returncode})")

    return run(fabric, keep=keep, after_setup=run_commands if wanted else None, failover=failover, log=log)


def emulate_change(old: Fabric, new: Fabric, *, max_drain: float | str = 1 / 8,
                   log: Callable[[str], None] | None = None) -> ChangeResult:
    """Prove a growth change on the emulation before a switch sees it: bring ``old`` up (namespaces and
    cables are already ``new``'s, the added devices unconfigured), run a flow per rail NIC of ``old``'s
    servers, roll ``new`` out in the waves of ``export_bundle(..., since=old)`` (each switch gets its new
    config_db.json lines, frr.conf and PPD pins; each new host its policy-routing.sh), waiting for BGP
    after each wave, then run every check of `emulate` on ``new``. Returns a ``ChangeResult``: ``waves``
    (each ``number``, ``name``, ``switches``, ``hosts``, ``seconds``, ``sent`` and ``lost``: probes of the
    running flows), ``rows`` (the final checks), ``flows`` and ``ok`` (nothing lost, every check passed).
    Not emulated: SONiC's TSA/TSB drain. Raises a DesignerError (``EmulationError``) when the machine
    or the designs cannot run it (needs root; ``new`` must keep every device of ``old``)."""
    from ..emulation.change import emulate_change as run
    from ..export.rollout import parse_share
    from ..emulation import EmulationError
    try:
        share = parse_share(str(max_drain))
    except ValueError as exc:
        raise EmulationError(f"max drain: {exc}") from None
    return run(old, new, max_drain=share, log=log)


def sweep_emulations(*, kept: bool = False, dry_run: bool = False) -> list:
    """Find what emulation runs left on this machine and remove it for the runs whose process is gone: the
    namespaces (with their veths), the FRR daemons and PPD agents in them, the work folders. With ``kept``,
    runs left on purpose (``keep=True``, ``emulate --keep``) go too; with ``dry_run`` nothing is removed.
    Runs still going and namespaces nothing marks as the emulation's are never touched. Returns every run
    found: ``run_id``, ``state`` (``running``, ``kept``, ``dead``), ``namespaces``, ``folders``, ``removed``
    (in a dry run: whether it would be).
    Raises a DesignerError (``EmulationError``) when not root, or naming what could not be removed."""
    from ..emulation import EmulationError
    from ..emulation.sweep import runs, sweep, sweep_problem
    problem = sweep_problem()
    if problem:
        raise EmulationError(problem)
    found = runs()
    chosen = [run for run in found if run.state == "dead" or kept and run.state == "kept"]
    if dry_run:
        for run in chosen:
            run.removed = True
    failed = [] if dry_run else sweep(chosen)
    if failed:
        raise EmulationError(f"could not remove {', '.join(failed)}; see `ip netns pids NAME` for what holds them")
    return found
