"""Ids and errors are the command line's (issue 12 part 4): for the same bad input, the DesignerError a
script catches says what ``rail-designer`` prints after ``rail-designer: `` (exit 2), word for word;
where the command line names the design file in front, it adds exactly that."""

import subprocess
import sys
from pathlib import Path

import pytest

import designer

DATA = Path(__file__).resolve().parents[1] / "data"
BAD_TOPO = DATA / "importers" / "topo-bad-cell.txt"
NICS = DATA / "importers" / "ibdev2netdev-plain.txt"


def cli(*args, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "designer", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("rail-designer: "), done.stderr
    return done.stderr.removeprefix("rail-designer: ").removesuffix("\n")


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(designer.DesignerError) as caught:
        call(*args, **kwargs)
    return str(caught.value)


@pytest.fixture(scope="module")
def design(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("design") / "d.fabric.yaml"
    designer.save(designer.build(designer.spec("default", servers_per_su=2)), path)
    return path


def test_files_that_cannot_be_read(design, tmp_path):
    missing, bomb = tmp_path / "missing.fabric.yaml", DATA / "fuzz" / "design" / "alias-bomb.fabric.yaml"
    assert refusal(designer.load, missing) == cli("validate", missing, cwd=tmp_path)
    assert refusal(designer.load, bomb) == cli("validate", bomb, cwd=tmp_path)
    aid = DATA / "fuzz" / "aid" / "pool-with-host-bits.aid.json"
    assert refusal(designer.import_aid, aid) == cli("import-aid", aid, "-o", tmp_path / "x.fabric.yaml", cwd=tmp_path)
    assert refusal(designer.spec, "nope") == cli("new", "--preset", "nope", "-o", tmp_path / "x.fabric.yaml",
                                                 cwd=tmp_path)


def test_inputs_from_real_machines(design, tmp_path):
    catalog = tmp_path / "catalog.yaml"
    assert refusal(designer.import_topo, BAD_TOPO, catalog) == cli("import-topo", BAD_TOPO, "--catalog", catalog,
                                                                   cwd=tmp_path)
    assert refusal(designer.import_topo, NICS, catalog, name="Bad Name") == \
        cli("import-topo", NICS, "--catalog", catalog, "--name", "Bad Name", cwd=tmp_path)
    fabric = designer.load(design)
    assert refusal(designer.apply_nics, fabric, [BAD_TOPO], server="su1-srv01") == \
        cli("apply-nics", design, "--server", "su1-srv01", BAD_TOPO, cwd=tmp_path)
    assert f"{design}: " + refusal(designer.apply_nics, fabric, [NICS], server="nobody") == \
        cli("apply-nics", design, "--server", "nobody", NICS, cwd=tmp_path)
    lldp = tmp_path / "no-dumps"
    assert refusal(designer.verify, fabric, lldp) == cli("verify", design, "--lldp", lldp, cwd=tmp_path)


def test_questions_and_exports(design, tmp_path):
    fabric = designer.load(design)
    assert refusal(designer.trace, fabric, "nobody", "su1-srv01") == \
        cli("paths", design, "--from", "nobody", "--to", "su1-srv01", cwd=tmp_path)
    assert refusal(designer.analyze, fabric, "alltoall", trials=0) == \
        cli("analyze", design, "--pattern", "alltoall", "--trials", "0", cwd=tmp_path)
    log = tmp_path / "missing.log"
    assert refusal(designer.nccl_check, fabric, log) == cli("nccl-check", design, log, cwd=tmp_path)
    assert refusal(designer.export_bundle, fabric, tmp_path / "b", parts=["cables"]) == \
        cli("export", design, "-o", tmp_path / "b", "--only", "cables", cwd=tmp_path)
    assert refusal(designer.lint, tmp_path, tmp_path) == cli("lint", tmp_path, "--yang-dir", tmp_path, cwd=tmp_path)
