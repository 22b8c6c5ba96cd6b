"""Issue 13, items 8 and 9 (saves): a save keeps the file's mode and owner, writes through a symlink,
refuses a read-only file unless forced, and cleans up (and reports) what killed saves left."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from designer.cli import main
from designer.storage import FileFormatError, dumps, load, save
from designer.storage.atomic import write_atomic
from designer.storage.scratch import scratch_file
from tests.conftest import preset_fabric

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fabric():
    return preset_fabric("default")


@pytest.fixture
def design(tmp_path, fabric):
    path = tmp_path / "d.fabric.yaml"
    save(fabric, path)
    return path


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664])
def test_a_save_keeps_the_mode(design, fabric, mode):
    os.chmod(design, mode)
    save(fabric, design)
    assert _mode(design) == mode


def test_a_new_file_gets_the_umask_default(tmp_path, fabric):
    old = os.umask(0o027)
    try:
        save(fabric, tmp_path / "new.fabric.yaml")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.fabric.yaml") == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_save_keeps_the_owner(design, fabric):
    os.chown(design, 4321, 4322)
    save(fabric, design)
    st = os.stat(design)
    assert (st.st_uid, st.st_gid) == (4321, 4322)


def test_a_save_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, design, fabric):
    link = tmp_path / "current.fabric.yaml"
    link.symlink_to(design.name)
    fabric.set_hostname("su1-srv01", "renamed-01")
    save(fabric, link)
    assert link.is_symlink() and os.readlink(link) == design.name
    assert "renamed-01" in design.read_text()


def test_a_read_only_file_is_refused_unless_forced(design, fabric):
    os.chmod(design, 0o444)
    before = design.read_bytes()
    fabric.set_hostname("su1-srv01", "renamed-01")
    with pytest.raises(FileFormatError, match=r"is read-only \(mode 0444\).*add --force") as info:
        save(fabric, design)
    assert str(info.value).startswith(str(design))
    assert design.read_bytes() == before and not list(design.parent.glob(".*.tmp"))
    save(fabric, design, force=True)
    assert "renamed-01" in design.read_text() and _mode(design) == 0o444


def test_cli_assign_on_a_read_only_design_names_the_flag(design, capsys):
    os.chmod(design, 0o444)
    assert main(["assign", str(design)]) == 2
    assert "add --force" in capsys.readouterr().err
    assert main(["assign", str(design), "--force"]) == 0


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _leftover(target: Path, pid: int, host: str | None = None) -> Path:
    fd, path = scratch_file(target)
    os.close(fd)
    name = path.name.replace(f"-{os.getpid()}-", f"-{pid}-")
    if host:
        from designer.storage import scratch
        name = name.replace(f"{scratch.TAG}{scratch._HOST}-", f"{scratch.TAG}{host}-")
    return path.rename(path.with_name(name))


def test_leftovers_of_dead_saves_are_removed_and_reported(design, fabric):
    dead = _leftover(design, _dead_pid())
    alive = _leftover(design, os.getpid())
    elsewhere = _leftover(design, _dead_pid(), host="otherhost")
    unrelated = design.parent / f".{design.name}.12345678.tmp"      # not our naming: never touched
    unrelated.write_text("x")
    assert save(fabric, design) == [dead]
    assert not dead.exists() and alive.exists() and elsewhere.exists() and unrelated.exists()


def test_a_save_killed_before_its_rename_leaves_the_old_file_and_a_leftover_the_next_save_removes(
        tmp_path, design, fabric, capsys):
    before = design.read_bytes()
    script = ("import os, signal, sys\n"
              f"sys.path.insert(0, {str(ROOT)!r})\n"
              "import designer.storage.atomic as atomic\n"
              "from designer.storage import load, save\n"
              "atomic.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
              f"save(load({str(design)!r}), {str(design)!r})\n")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert child.returncode == -9
    assert design.read_bytes() == before
    [leftover] = list(tmp_path.glob(f".{design.name}.rd-*.tmp"))
    assert leftover.stat().st_size == len(before)
    assert main(["assign", str(design)]) == 0
    assert not leftover.exists()
    assert f"removed 1 leftover(s) of an interrupted run in {tmp_path}: {leftover.name}" in capsys.readouterr().err


def test_write_atomic_leaves_nothing_when_the_write_fails(tmp_path, monkeypatch):
    import designer.storage.atomic as atomic
    target = tmp_path / "f.txt"
    target.write_text("old")

    def boom(*_a):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(atomic.os, "fsync", boom)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_the_saved_text_loads_back_identically(design, fabric):
    assert dumps(load(design)) == dumps(fabric)


def test_import_topo_refuses_a_read_only_catalog_unless_forced(tmp_path, capsys):
    topo = ROOT / "tests" / "data" / "importers" / "topo-dgx-h100-tabs-ansi.txt"
    cat = tmp_path / "catalog.yaml"
    assert main(["import-topo", str(topo), "--catalog", str(cat)]) == 0
    os.chmod(cat, 0o444)
    assert main(["import-topo", str(topo), "--catalog", str(cat), "--name", "other"]) == 2
    assert "add --force" in capsys.readouterr().err
    assert main(["import-topo", str(topo), "--catalog", str(cat), "--name", "other", "--force"]) == 0
    assert "other" in cat.read_text() and _mode(cat) == 0o444
