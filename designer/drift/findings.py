"""Drift findings: the code table, one finding, one device's verdict and the whole report.

Every code has a title and what to run to converge; ``{host}`` in a command is the device's host name.
docs/drift.md and the bundle's README.txt print this table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..export.deploy import script_commands

_APPLY = [script_commands()["diff"], script_commands()["apply"]]
_FRR_RELOAD = "sudo docker exec bgp /usr/lib/frr/frr-reload.py --reload /etc/frr/frr.conf"
_POLICY = ["sudo /usr/local/sbin/rail-policy-routing.sh   # the bundle's hosts/{host}/policy-routing.sh; "
           "a host on netplan.yaml: sudo netplan apply"]
_SWITCH_DUMP = "sudo python3 /var/tmp/rail-designer/rail-switch-apply.py dump /var/tmp/rail-dump/{host}"
_HOST_DUMP = "sudo ./rail-dump.sh /var/tmp/rail-dump/{host}   # the bundle's hosts/{host}/rail-dump.sh, copied to the host"


@dataclass(frozen=True)
class Code:
    title: str
    converge: tuple[str, ...]                                  # shell commands; '# ...' says what they need
    by_kind: dict[str, tuple[str, ...]] | None = None          # other commands for a switch or a host


CODES: dict[str, Code] = {
    "DR000": Code("no dump of this device: not checked", (), {"switch": (_SWITCH_DUMP,), "host": (_HOST_DUMP,)}),
    "DR001": Code("a CONFIG_DB key of the bundle is missing", tuple(_APPLY)),
    "DR002": Code("an extra CONFIG_DB key in a table the bundle owns",
                  ("sudo sonic-db-cli CONFIG_DB DEL '{key}'", "sudo config save -y")),
    "DR003": Code("a CONFIG_DB value differs from the bundle's", tuple(_APPLY)),
    "DR010": Code("a BGP neighbour differs (missing, extra, another remote-as or setting)", (_FRR_RELOAD,)),
    "DR011": Code("the BGP instance differs (local ASN or router-id)", (_FRR_RELOAD,)),
    "DR012": Code("a BGP network statement is missing or extra", (_FRR_RELOAD,)),
    "DR013": Code("another FRR setting differs (BGP setting or static route)", (_FRR_RELOAD,)),
    "DR014": Code("the switch's saved frr.conf is not the bundle's", tuple(_APPLY)),
    "DR020": Code("a host ip rule of the bundle is missing", tuple(_POLICY)),
    "DR021": Code("an extra host ip rule (from a rail NIC address or into a rail table)",
                  ("sudo ip rule del {key}",)),
    "DR022": Code("a host route of the bundle is missing or differs", tuple(_POLICY)),
    "DR023": Code("an extra host route in a rail table", ("sudo ip route del {key}",)),
    "DR024": Code("a rail NIC's address or MTU differs", tuple(_POLICY)),
    "DR030": Code("the PPD agent's installed pins or unit are not the bundle's", tuple(_APPLY)),
    "DR031": Code("a PPD agent rule the bundle's pins do not explain",
                  ("sudo systemctl restart rail-ppd-agent.service   # it deletes the PIN_ rules it does not want",)),
    "DR032": Code("a pinned source has no PPD rule (agent stopped, or no healthy uplink)",
                  ("sudo systemctl status rail-ppd-agent.service", "sudo systemctl restart rail-ppd-agent.service")),
    "DR040": Code("a sysctl differs from the bundle's sysctl.conf", ("sudo sysctl -p /etc/sysctl.d/60-rail.conf",)),
    "DR045": Code("a RoCE QoS value differs from what roce-qos.sh sets",
                  ("sudo /usr/local/sbin/rail-roce-qos.sh   # the bundle's hosts/{host}/roce-qos.sh",)),
    "DR050": Code("part of the dump could not be read: that part is not checked",
                  ("# dump again with this bundle's script, where the tool MANIFEST.json names is installed",)),
    "DR090": Code("a dump of a device the bundle does not have", ("# compare it with the bundle of its own design",)),
}


@dataclass(frozen=True)
class DriftFinding:
    code: str
    device: str
    key: str                       # what differs: 'VLAN|Vlan2000', 'neighbor 10.254.0.0', 'from 10.0.0.2 table 100'
    message: str
    expected: str | None = None    # the bundle's value (None: the bundle has none)
    actual: str | None = None      # the device's value (None: the device has none)

    @property
    def title(self) -> str:
        return CODES[self.code].title

    def converge(self, kind: str | None = None) -> list[str]:
        """What to run on the device (a ``kind`` of device, when the code says it per kind)."""
        code = CODES[self.code]
        commands = code.by_kind.get(kind, ()) if code.by_kind and kind else code.converge
        return [c.replace("{host}", self.device).replace("{key}", self.key) for c in commands]


@dataclass
class DeviceDrift:
    device: str
    kind: str                                  # "switch" or "host" ("unknown" for DR090)
    dump: str | None                           # the dump folder compared, None when there is none
    findings: list[DriftFinding] = field(default_factory=list)

    @property
    def status(self) -> str:
        """'clean', 'drift', 'not checked' (no dump) or 'partly checked' (parts unread, nothing else)."""
        codes = {f.code for f in self.findings}
        if not codes:
            return "clean"
        if codes == {"DR000"}:
            return "not checked"
        if codes == {"DR050"}:
            return "partly checked"
        return "drift"

    def converge(self) -> list[str]:
        """The commands that converge this device, each once, in finding order."""
        out: list[str] = []
        for finding in self.findings:
            for command in finding.converge(self.kind):
                if command not in out:
                    out.append(command)
        return out


@dataclass
class DriftReport:
    bundle: str
    dumps: str
    devices: list[DeviceDrift]
    owned_tables: dict[str, str]               # CONFIG_DB table -> how the bundle owns it (configdb.OWNERSHIP)

    @property
    def findings(self) -> list[DriftFinding]:
        return [f for d in self.devices for f in d.findings]

    @property
    def clean(self) -> bool:
        """Every device of the bundle was dumped and shows no drift."""
        return not self.findings

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for device in self.devices:
            out[device.status] = out.get(device.status, 0) + 1
        return out
