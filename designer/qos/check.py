"""The agreement check over a whole bundle, and its result as a table or JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..export.forked import shared, sharing, workers_for
from ..model.ids import natural_key
from .agree import CODES, Disagreement, Port, compare_pair, path_mtus
from .sides import NothingToCompare, read_host_of, read_sides


@dataclass
class QosReport:
    bundle: str
    pairs: int                                   # host NIC - switch port pairs compared
    findings: list[Disagreement] = field(default_factory=list)
    dumped: list[str] = field(default_factory=list)   # devices whose side came from a dump

    @property
    def clean(self) -> bool:
        return not self.findings


def check_bundle(bundle: Path, dumps: Path | None = None, workers: int | None = None) -> QosReport:
    """Compare every host NIC with its switch port. The switch configs and the cabling are read here; the
    hosts' files are read and compared in ``workers`` forked processes (default: as many as an export of
    that many devices would render with), each taking a run of hosts in the report's order."""
    sides = read_sides(bundle, dumps, hosts=False)
    if not sides.server_links:
        raise NothingToCompare(f"{bundle} holds no host NIC cabled to a switch port with both sides' files "
                            "(hosts/<host>/roce-qos.sh and switches/<switch>/config_db.json): nothing to compare "
                            "(an InfiniBand bundle has no RoCE QoS; export the switches, hosts and cabling parts)")
    links = sorted(sides.server_links, key=lambda l: (natural_key(l[0]), natural_key(l[1])))
    report = QosReport(str(bundle), len(links), dumped=sorted(sides.dumped, key=natural_key))
    if workers is None:
        workers = workers_for(len(sides.host_sources) + len(sides.switches))
    with sharing((sides, path_mtus(sides)), workers) as imap:
        for found in imap(_compare, _runs_of_hosts(links, 1 if workers <= 1 else workers * 8)):
            report.findings += found
    return report


def _runs_of_hosts(links: list, count: int) -> list[list]:
    """``links`` (sorted by host) cut into about ``count`` runs, never between two links of one host."""
    size, runs = max(1, -(-len(links) // count)), [[]]
    for link in links:
        if len(runs[-1]) >= size and link[0] != runs[-1][-1][0]:
            runs.append([])
        runs[-1].append(link)
    return runs


def _compare(links: list) -> list[Disagreement]:
    """The disagreements of a run of (host, netdev, switch, port) links, each host's files read once."""
    sides, paths = shared()
    out: list[Disagreement] = []
    nics: dict[str, list] = {}
    for host, netdev, switch, port in links:
        if host not in nics:
            nics[host] = read_host_of(sides, host)
        nic = next((n for n in nics[host] if n.netdev == netdev), None)
        db = sides.switches[switch]
        where = f"hosts/{host}/roce-qos.sh"
        if nic is None or port not in db.db.get("PORT", {}):
            missing = (f"has no roce_nic call for {netdev}: its RoCE QoS is not set", "-") if nic is None else \
                ("-", f"has no PORT|{port} in {db.source}")
            out.append(Disagreement("RD072", f"{host}:{netdev}", f"{switch}:{port}", "RoCE QoS", *missing,
                                    where, db.source))
            continue
        out += compare_pair(nic, Port(db, port), paths.get(switch))
    return out


def written_bundle(outdir: Path, files: list[str], workers: int = 1) -> QosReport | None:
    """The check on a bundle just written (``files``: its paths); None when it holds no host-switch pair."""
    if not any(n.endswith("/roce-qos.sh") for n in files) or not any(n.endswith("/config_db.json") for n in files):
        return None
    try:
        return check_bundle(Path(outdir), workers=workers)
    except NothingToCompare:
        return None


def said_on_export(report: QosReport | None, outdir, shown: int = 5) -> list[str]:
    """What export says about the bundle it wrote: nothing when hosts and switches agree."""
    if report is None or report.clean:
        return []
    lines = [f"QoS: {len(report.findings)} disagreement(s) between hosts and their switch ports in this bundle:"]
    lines += [f"  {f.code} {f.message}" for f in report.findings[:shown]]
    more = len(report.findings) - shown
    lines.append(("  ... " + f"{more} more; " if more > 0 else "  ") + f"all of them: rail-designer qos-check {outdir}")
    return lines


def table(report: QosReport) -> list[str]:
    lines = [f"{f.code} {f.message}" for f in report.findings]
    if report.dumped:
        lines.append(f"read from dumps: {', '.join(report.dumped)}")
    verdict = "agree" if report.clean else f"{len(report.findings)} disagreement(s)"
    lines.append(f"{report.pairs} host NIC / switch port pairs: {verdict}")
    return lines


def as_json(report: QosReport) -> str:
    data = {"bundle": report.bundle, "pairs": report.pairs, "clean": report.clean, "dumped": report.dumped,
            "findings": [{**asdict(f), "message": f.message} for f in report.findings]}
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def codes_text() -> str:
    return "codes:\n" + "\n".join(f"  {code}  {title}; fix: {hint}" for code, (title, hint) in CODES.items())
