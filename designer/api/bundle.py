"""The config bundle: export it to a folder (all parts or some), render one device's files in memory,
lint a bundle's config_db.json files against SONiC's YANG models, and check that its hosts and switches
agree on RoCE QoS."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .common import device_id

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..export.bundle import ExportResult
    from ..export.parts import Part
    from ..model.fabric import Fabric
    from ..qos.check import QosReport
    from ..sonic.lint import FileResult



def export_bundle(fabric: Fabric, outdir: str | os.PathLike, *, parts: Iterable[str] | str | None = None,
                  with_parts: Iterable[str] | str | None = None, force: bool = False,
                  progress: Callable[[int, int, str], None] | None = None,
                  cancel: Callable[[], bool] | None = None, workers: int | None = None,
                  since: Fabric | str | os.PathLike | None = None, max_drain: float | str = 1 / 8) -> ExportResult:
    """Write the bundle into ``outdir`` atomically: the folder holds the old bundle or the new one, never half.

    ``parts``: part names (``switches``, ``cabling``, ``ppd``, ``hosts``, ``aid``, ``ansible``, ``monitoring``,
    ``lab`` ...; an unknown name is refused with the list), default every default part (`bundle_parts`).
    ``with_parts``: optional parts (``aid-yaml``, ``aid-csv``) to write as well. A design with ERROR findings is
    refused (``ExportRefused``, with ``findings``) unless ``force``. ``progress(done, total, label)`` is
    called after each rendered device; ``cancel()`` is asked between devices, and when it returns True
    the export stops with ``ExportCancelled`` and leaves ``outdir`` as it was. ``workers``: forked render (and QoS check)
    processes (default: one for small designs, up to four from 500 devices). Returns an ``ExportResult``
    (``outdir``, ``files``, ``bytes``, ``removed``: leftovers of killed exports it cleaned up, ``qos``: the
    written bundle's `qos_check` report, None without a host NIC and switch port to compare). Raises a
    DesignerError (``ExportError``) for a design or a folder it cannot write.

    ``since``: write a change bundle: only the device folders whose files differ from those of ``since``
    (an older design, its design file, or the folder of its bundle), every bundle-wide file, and the rollout plan in
    waves (rollout/ROLLOUT.md, rollout/rollout.json, ansible/rollout.yml; ``max_drain``: the largest
    share of one mesh scope's spines or cores a wave drains, a number or text such as ``"1/8"``). The result's ``rollout`` holds the plan."""
    from ..export import export as write_bundle
    from ..export.errors import ExportError
    reduce = None
    if since is not None:
        from ..export.rollout import parse_share
        from ..export.since import ChangeBundle, design_digests, manifest_digests
        try:
            max_drain = parse_share(str(max_drain))
        except ValueError as exc:
            raise ExportError(f"max drain (--max-drain): {exc}") from None
        if isinstance(since, (str, os.PathLike)) and Path(since).is_dir():
            old, label = manifest_digests(Path(since)), os.fspath(since)
        elif isinstance(since, (str, os.PathLike)):
            from ..storage import load
            old, label = design_digests(load(Path(since)), _names(parts), _names(with_parts)), os.fspath(since)
        else:
            old, label = design_digests(since, _names(parts), _names(with_parts)), f"design '{since.settings.name}'"
        reduce = ChangeBundle(fabric, old, label, max_drain)
    workers = workers or _workers(fabric)
    try:
        result = write_bundle(fabric, outdir, progress=progress, only=_names(parts), extra=_names(with_parts),
                              force=force, cancel=cancel, workers=workers, reduce=reduce)
    except OSError as exc:
        raise ExportError(f"cannot write {os.fspath(outdir)}: {exc.strerror or exc}") from exc
    from ..qos.check import written_bundle
    return replace(result, qos=written_bundle(Path(result.outdir), result.files, workers))


def _names(names: Iterable[str] | str | None) -> list[str] | None:
    return [names] if isinstance(names, str) else list(names or ()) or None


def bundle_parts() -> list[Part]:
    """The bundle's parts in the order they are written: each has ``name``, ``description``, ``apply``
    (how an engineer applies it) and ``default`` (False: optional, written only when named)."""
    from ..export.registry import parts
    return parts()


def _workers(fabric: Fabric) -> int:
    from ..export.forked import workers_for
    return workers_for(len(fabric.servers) + len(fabric.switches))


def render_device(fabric: Fabric, device: str) -> dict[str, str]:
    """The files the bundle would hold for one device (its id or host name), rendered in memory by the
    same code as `export_bundle`: bundle path -> text. Raises ``UnknownDevice`` (a DesignerError) for a name
    the design lacks and ``ExportError`` for a design that cannot be exported."""
    from ..export import preview
    return preview(fabric, device_id(fabric, device))


def lint(bundle: str | os.PathLike, yang_dir: str | os.PathLike, *,
         running: str | os.PathLike | None = None) -> list[FileResult]:
    """Validate config_db.json files against SONiC's YANG models with libyang, as `config reload` and
    GCU do. ``bundle``: a bundle folder, one ``switches/<host>`` folder or one file; ``yang_dir``: the
    models (``*.yang``; on a switch ``/usr/local/yang-models``); ``running``: the running config to merge
    each file over first, as `config load` does (a file for one switch, or a folder of
    ``<hostname>.json``). Returns one result per file (``path``, ``hostname``, ``mode``, ``problems``:
    each with ``where`` and ``message``). Raises a DesignerError when the models, libyang or the inputs
    cannot be used at all; a bad file is a result with problems, not an exception."""
    from ..sonic.lint import lint as lint_files
    from ..sonic.schema import Models
    models = Models(yang_dir)
    return lint_files(Path(bundle), models, Path(running) if running else None)


def qos_check(bundle: str | os.PathLike, *, dumps: str | os.PathLike | None = None) -> QosReport:
    """Do each host NIC and the switch port it is cabled to agree on RoCE QoS? Read from the bundle's files
    (each host's roce-qos.sh, nccl.env, netplan.yaml and policy-routing.sh, each switch's config_db.json,
    cabling.csv), not from the design, so a file edited by hand or by another tool is judged as it is.
    ``dumps``: a folder of device dumps (`check_drift`'s); a dumped device's side is then what it runs.
    Returns a ``QosReport``: ``pairs`` compared, ``findings`` (each ``code`` RD070-RD074, ``host``
    (host:netdev), ``switch`` (switch:port), ``what``, ``host_value``, ``switch_value``, ``host_source``,
    ``switch_source``, ``message``), ``dumped`` and ``clean``. Raises ``QosInputError`` (a DesignerError)
    for a bundle that cannot be read or holds no host-switch pair to compare."""
    from ..qos.check import check_bundle
    return check_bundle(Path(bundle), Path(dumps) if dumps is not None else None)
