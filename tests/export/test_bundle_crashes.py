"""Issue 13, items 9 and 10 (exports): a killed export leaves no litter the next one does not remove
(and report), the swap never leaves the target without a bundle, and forked workers die with the
process that forked them."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from designer.cli import main
from designer.export import export
from designer.export import swap
from designer.export.bundle import MANIFEST
from designer.storage import save
from tests.conftest import preset_fabric

ROOT = Path(__file__).resolve().parents[2]


def _child(script: str, timeout: float = 120) -> subprocess.CompletedProcess:
    prelude = f"import os, signal, sys\nsys.path.insert(0, {str(ROOT)!r})\n"
    return subprocess.run([sys.executable, "-c", prelude + script], capture_output=True, text=True, timeout=timeout)


def test_an_export_killed_while_rendering_leaves_a_partial_the_next_export_removes(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), design)
    out = tmp_path / "bundle"
    assert main(["export", str(design), "-o", str(out)]) == 0
    before = (out / MANIFEST).read_bytes()
    killed = _child("from designer.export import export\nfrom designer.storage import load\n"
                    "def progress(done, total, label):\n"
                    "    if done == 5: os.kill(os.getpid(), signal.SIGKILL)\n"
                    f"export(load({str(design)!r}), {str(out)!r}, progress=progress)\n")
    assert killed.returncode == -9
    [partial] = list(tmp_path.glob(".bundle.rd-*.partial"))
    assert (out / MANIFEST).read_bytes() == before          # the old bundle is still whole
    capsys.readouterr()
    assert main(["export", str(design), "-o", str(out)]) == 0
    assert not partial.exists() and not list(tmp_path.glob(".bundle.*"))
    assert f"removed 1 leftover(s) of an interrupted run in {tmp_path}: {partial.name}" in capsys.readouterr().err


def test_the_swap_never_leaves_the_target_without_a_bundle(tmp_path):
    assert swap.exchange(*(Path(p) for p in _two_dirs(tmp_path)))   # this kernel and filesystem have it
    fabric = preset_fabric("default")
    out = tmp_path / "bundle"
    export(fabric, out)
    missing, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            if not (out / MANIFEST).is_file():
                missing.append(time.perf_counter())
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for n in range(8):
            fabric.set_hostname("su1-srv01", f"node-{n}")
            export(fabric, out)
    finally:
        stop.set()
        watcher.join()
    assert missing == [] and (out / "hosts" / "node-7").is_dir() and not list(tmp_path.glob(".bundle.*"))


def _two_dirs(tmp_path):
    a, b = tmp_path / "swap-a", tmp_path / "swap-b"
    a.mkdir()
    b.mkdir()
    return a, b


def test_without_rename_exchange_a_kill_between_the_renames_is_cleaned_up_next_time(tmp_path):
    design = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), design)
    out = tmp_path / "bundle"
    export(preset_fabric("default"), out)
    killed = _child("import designer.export.swap as swap\nfrom designer.export import export\n"
                    "from designer.storage import load\n"
                    "swap.exchange = lambda a, b: False\n"
                    "real = os.rename\n"
                    "def rename(a, b):\n"
                    "    real(a, b)\n"
                    "    if str(b).endswith('/bundle') and '.old' in str(b): os.kill(os.getpid(), signal.SIGKILL)\n"
                    "swap.os.rename = rename\n"
                    f"export(load({str(design)!r}), {str(out)!r})\n")
    assert killed.returncode == -9
    assert not out.exists()                                   # the documented gap of the fallback
    [old] = list(tmp_path.glob(".bundle.rd-*.old"))
    assert (old / "bundle" / MANIFEST).is_file()
    result = export(preset_fabric("default"), out)
    assert old in result.removed and not old.exists() and (out / MANIFEST).is_file()


def test_the_fallback_swap_replaces_the_bundle(tmp_path, monkeypatch):
    monkeypatch.setattr(swap, "exchange", lambda a, b: False)
    fabric = preset_fabric("default")
    export(fabric, tmp_path / "bundle")
    fabric.set_hostname("su1-srv01", "node-x")
    export(fabric, tmp_path / "bundle")
    assert (tmp_path / "bundle" / "hosts" / "node-x").is_dir() and not list(tmp_path.glob(".bundle.*"))


def test_an_output_symlink_stays_a_link_to_the_new_bundle(tmp_path):
    real = tmp_path / "bundles" / "v1"
    real.parent.mkdir()
    link = tmp_path / "current"
    export(preset_fabric("default"), real)
    link.symlink_to(real)
    export(preset_fabric("default"), link)
    assert link.is_symlink() and (link / MANIFEST).is_file() and not list(real.parent.glob(".v1.*"))


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_forked_workers_die_with_the_exporting_process(tmp_path):
    design = tmp_path / "d.fabric.yaml"
    save(preset_fabric("superpod-su", sus=2), design)
    ready = tmp_path / "workers"
    script = ("import multiprocessing, time\nfrom designer.export import export\nfrom designer.storage import load\n"
              "def progress(done, total, label):\n"
              "    if done == 3:\n"
              f"        open({str(ready)!r}, 'w').write(' '.join(str(p.pid) for p in multiprocessing.active_children()))\n"
              "        time.sleep(60)\n"
              f"export(load({str(design)!r}), {str(tmp_path / 'out')!r}, progress=progress, workers=2)\n")
    log = open(tmp_path / "stderr.txt", "w")
    parent = subprocess.Popen([sys.executable, "-c", f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + script],
                              stderr=log)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() or not ready.read_text().strip():
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.05)
        workers = [int(p) for p in ready.read_text().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 2
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not any(_alive(p) for p in workers), "a worker outlived its parent"
        # without PR_SET_PDEATHSIG they would render on, then die on a broken pipe with a traceback each
        assert "Traceback" not in (tmp_path / "stderr.txt").read_text()
    finally:
        log.close()
        if parent.poll() is None:
            parent.kill()

