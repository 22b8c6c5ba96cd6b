"""A real Nautobot for the tests: PostgreSQL (Debian's) and Redis on Unix sockets in a scratch folder, and
`nautobot-server runserver` on a free localhost port, from the venv and the migrated data folder that
`.ci/nautobot-venv` prepares (RD_NAUTOBOT_HOME, default /opt/rd-nautobot). One server per test session."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HOME = Path(os.environ.get("RD_NAUTOBOT_HOME", "/opt/rd-nautobot"))
CONFIG = REPO / ".ci" / "nautobot_config.py"


@dataclass
class NautobotServer:
    url: str
    token: str
    token_file: Path


def wait_for_setup(limit: float = 1800.0) -> None:
    """Wait while `.ci/nautobot-venv` is still preparing (CI runs it beside the suite): its process id is in
    HOME/preparing until the template is ready. A dead or missing process ends the wait at once."""
    marker = HOME / "preparing"
    deadline = time.monotonic() + limit
    while marker.exists() and time.monotonic() < deadline:
        try:
            os.kill(int(marker.read_text().strip()), 0)
        except (ValueError, ProcessLookupError, FileNotFoundError):
            return
        time.sleep(2)


def available() -> bool:
    return (HOME / "venv" / "bin" / "nautobot-server").exists() and (HOME / "token").exists() \
        and (HOME / "template").is_dir()


def _pg_bin() -> Path:
    return sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_as_postgres(*argv: str) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", *argv], check=True, capture_output=True, timeout=120)


def start():
    """Start the server; yields a `NautobotServer` and stops every process it started afterwards."""
    scratch = Path(tempfile.mkdtemp(prefix="rd-nautobot-"))
    scratch.chmod(0o755)
    data = scratch / "pgdata"
    shutil.copytree(HOME / "template", data, symlinks=True)
    subprocess.run(["chown", "-R", "postgres", str(scratch)], check=True)
    data.chmod(0o700)
    pg = _pg_bin()
    procs: list[subprocess.Popen] = []
    try:
        _run_as_postgres(str(pg / "pg_ctl"), "-D", str(data), "-l", str(scratch / "pg.log"), "-w",
                         "-o", f"-k {scratch} -c listen_addresses='' -c fsync=off -c synchronous_commit=off", "start")
        procs.append(subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", str(scratch / "redis.sock"),
                                       "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL))
        port = _free_port()
        env = {**os.environ, "NAUTOBOT_CONFIG": str(CONFIG), "NAUTOBOT_ROOT": str(scratch),
               "NAUTOBOT_DB_HOST": str(scratch), "NAUTOBOT_DB_USER": "nautobot", "NAUTOBOT_DB_NAME": "nautobot",
               "NAUTOBOT_REDIS_SCHEME": "unix", "NAUTOBOT_REDIS_HOST": str(scratch / "redis.sock"),
               "NAUTOBOT_CELERY_BROKER_URL": f"redis+socket://{scratch}/redis.sock?virtual_host=0",
               "NAUTOBOT_SECRET_KEY": "rail-designer-tests-only-not-a-secret-0123456789"}
        log = open(scratch / "nautobot.log", "wb")
        procs.append(subprocess.Popen([str(HOME / "venv" / "bin" / "nautobot-server"), "runserver", "--noreload",
                                       f"127.0.0.1:{port}"], env=env, stdout=log, stderr=subprocess.STDOUT))
        token = (HOME / "token").read_text().strip()
        url = f"http://127.0.0.1:{port}"
        _wait(url, token, procs[-1], scratch / "nautobot.log")
        token_file = scratch / "token"
        token_file.write_text(token + "\n")
        yield NautobotServer(url, token, token_file)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        subprocess.run(["runuser", "-u", "postgres", "--", str(pg / "pg_ctl"), "-D", str(data), "-m", "fast",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(scratch, ignore_errors=True)


def _wait(url: str, token: str, proc: subprocess.Popen, log: Path, limit: float = 180.0) -> None:
    deadline = time.monotonic() + limit
    request = urllib.request.Request(f"{url}/api/dcim/devices/?limit=1", headers={"Authorization": f"Token {token}"})
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nautobot-server exited ({proc.returncode}): {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"nautobot-server did not answer within {limit:.0f} s: {log.read_text()[-2000:]}")
