"""A simulated subnet: ``ibsim`` loads a topology file, OpenSM and the diagnostics run against it
unchanged through ``libumad2sim.so`` (what ``ibsim-run`` preloads).

Each `Subnet` has its own socket name (``IBSIM_SOCKNAME``) and working folder, so runs do not meet;
``close()`` (or leaving the ``with`` block) kills ibsim and anything still running, always.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..errors import DesignerError

UMAD2SIM = Path("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so")
TOOLS = ("ibsim", "opensm", "ibnetdiscover", "ibtracert", "ibroute")
_CONFIGURED = re.compile(r"osm_ucast_mgr_process: (\S+) tables configured on all switches")
SM_FILES = ("opensm.conf", "root-guids.conf", "cn-guids.conf", "partitions.conf")


class SimError(DesignerError, RuntimeError):
    """A simulator or tool that did not start or answer; the message holds its output's tail."""


def missing_tools() -> list[str]:
    """What this machine lacks to run a subnet (empty when everything is there)."""
    gone = [t for t in TOOLS if not (shutil.which(t) or shutil.which(t, path="/usr/sbin:/sbin"))]
    return gone + ([str(UMAD2SIM)] if not UMAD2SIM.exists() else [])


def _tool(name: str) -> str:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin") or name


@dataclass(frozen=True)
class SmRun:
    engine: str | None          # the routing engine whose tables OpenSM configured ("ftree", "updn", ...)
    log: str


class Subnet:
    def __init__(self, topology: Path, workdir: Path, timeout: float = 20.0):
        self.topology, self.workdir, self.timeout = Path(topology), Path(workdir), timeout
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.sock = f"rail-designer-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._ibsim: subprocess.Popen | None = None

    def __enter__(self) -> Subnet:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def env(self) -> dict[str, str]:
        return {**os.environ, "IBSIM_SOCKNAME": self.sock, "LD_PRELOAD": str(UMAD2SIM),
                "OSM_TMP_DIR": str(self.workdir), "OSM_CACHE_DIR": str(self.workdir)}

    def start(self) -> None:
        env = {**os.environ, "IBSIM_SOCKNAME": self.sock}
        log = self.workdir / "ibsim.log"
        with open(log, "wb") as out:
            self._ibsim = subprocess.Popen([_tool("ibsim"), "-s", "-n", str(self.topology)], cwd=self.workdir,
                                           env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                           start_new_session=True)
        deadline = time.monotonic() + self.timeout
        while b"Network simulator ready." not in log.read_bytes():
            if self._ibsim.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise SimError(f"ibsim did not load {self.topology}: {_tail(log.read_bytes())}")
            time.sleep(0.02)

    def close(self) -> None:
        proc, self._ibsim = self._ibsim, None
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc is not None:
            proc.wait()

    def run(self, *args: str, timeout: float | None = None) -> str:
        """One tool against the subnet; its standard output (standard error is kept for errors)."""
        try:
            done = subprocess.run([_tool(args[0]), *args[1:]], cwd=self.workdir, env=self.env(),
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=timeout or self.timeout, start_new_session=True)
        except subprocess.TimeoutExpired as exc:
            raise SimError(f"{' '.join(args)} did not finish in {exc.timeout:.0f} s") from None
        if done.returncode != 0:
            raise SimError(f"{' '.join(args)} exited {done.returncode}: {_tail(done.stderr.encode())}")
        return done.stdout

    def run_sm(self, sm_dir: Path, installed_dir: str) -> SmRun:
        """OpenSM once over the subnet with the bundle's files, as an admin would install them: copied
        beside each other with ``installed_dir`` (the folder opensm.conf names) pointed at the copy."""
        here = self.workdir / "opensm"
        here.mkdir(exist_ok=True)
        for name in SM_FILES:
            text = (Path(sm_dir) / name).read_text()
            (here / name).write_text(text.replace(installed_dir.rstrip("/") + "/", f"{here}/"))
        log = self.workdir / "opensm.log"
        self.run("opensm", "-F", str(here / "opensm.conf"), "-o", "-s", "0", "-f", str(log),
                 timeout=max(self.timeout, 60))
        text = log.read_text(errors="replace")
        engines = _CONFIGURED.findall(text)
        return SmRun(engines[-1] if engines else None, text)


def _tail(output: bytes, lines: int = 6) -> str:
    kept = [ln for ln in output.decode(errors="replace").splitlines() if "cannot parse remote lid" not in ln]
    return " | ".join(kept[-lines:]) or "(no output)"
