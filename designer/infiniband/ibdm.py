"""An IBDM topology file read by IBDM itself: the parser ``ibdiagnet -t`` uses, from Debian's
``libibdm1`` (its Tcl package ``ibdm``), driven by ``tclsh``.

`read_topology` loads ``fabric.topo`` with the system definitions of an ``ibnl`` folder and lists every
cabled system port as IBDM built it, with the messages IBDM printed (an ignored line, an unknown
system type, a cable it could not make). Debian's IBDM 1.5.7 crashes in its fabric matcher
(``ibdmMatchFabrics``, even on its own sample files), so the live fabric is compared by `verify
--ibnetdiscover` instead; what this proves is that the file says, to the real parser, what the design
says.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .sim import SimError

LIBDIR = Path("/usr/lib/x86_64-linux-gnu")
PACKAGE = LIBDIR / "ibdm1.5.7" / "pkgIndex.tcl"

# Read from standard input. Parse, then print one line per cabled system port: "link <system> <port> <peer system> <peer port> <width>".
_WALK = r"""
set auto_path [linsert $auto_path 0 $env(RD_IBDM_LIBDIR)]
package require ibdm
set fabric [new_IBFabric]
puts "status [IBFabric_parseTopology $fabric $env(RD_IBDM_TOPO)]"
foreach entry [IBFabric_SystemByName_get $fabric] {
    set sys [lindex $entry 1]
    foreach pe [IBSystem_PortByName_get $sys] {
        set port [lindex $pe 1]
        set remote [IBSysPort_p_remoteSysPort_get $port]
        if {$remote eq "NULL" || $remote eq ""} continue
        set node_port [IBSysPort_p_nodePort_get $port]
        puts "link [IBSystem_name_get $sys] [IBSysPort_name_get $port]\
[IBSystem_name_get [IBSysPort_p_system_get $remote]] [IBSysPort_name_get $remote] [IBPort_width_get $node_port]"
    }
}
"""


@dataclass(frozen=True)
class TopologyRead:
    status: int                                         # IBFabric_parseTopology's result: 0 is success
    links: frozenset[tuple[str, str, str, str, str]]    # (system, port, peer system, peer port, width), both ways
    messages: tuple[str, ...]                           # IBDM's "-E-" and "-W-" lines


def missing() -> list[str]:
    """What this machine lacks to run IBDM (empty when everything is there)."""
    gone = [] if shutil.which("tclsh") else ["tclsh"]
    return gone + ([] if PACKAGE.exists() else [str(PACKAGE)])


def read_topology(topo: Path, ibnl: Path, timeout: float = 120.0) -> TopologyRead:
    env = {**os.environ, "IBDM_IBNL_PATH": str(ibnl), "RD_IBDM_LIBDIR": str(LIBDIR), "RD_IBDM_TOPO": str(topo)}
    try:
        done = subprocess.run(["tclsh"], input=_WALK, env=env, text=True,
                              capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SimError(f"IBDM did not read {topo} in {timeout:.0f} s") from None
    status, links, messages = None, set(), []
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word == "status":
            status = int(rest)
        elif word == "link":
            links.add(tuple(rest.split()))
        elif line.startswith(("-E-", "-W-")):
            messages.append(line)
    if done.returncode != 0 or status is None:
        tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-4:])
        raise SimError(f"IBDM failed on {topo} (exit {done.returncode}): {tail}")
    return TopologyRead(status, frozenset(links), tuple(messages))
