"""One public exception base (issue 12 part 4): every readable error type derives from DesignerError,
so a script catches one thing; the command line turns that one thing into its message and exit 2."""

import importlib
from pathlib import Path

import designer
from designer.cli import main

ROOT = Path(designer.__file__).resolve().parent
SCRIPTS = {"designer.emulation.flowprobe"}     # run as plain scripts inside a namespace, not imported

# Exception types that are deliberately not DesignerErrors, and why.
NOT_REFUSALS = {
    "designer.cli.common.CliError": "the command line's own refusal; it carries the exit status",
    "designer.export.bundle.ExportCancelled": "not a refusal: the caller's cancel callback asked to stop",
    "designer.storage.atomic.RefusedWrite": "a PermissionError for write_atomic's callers (save() turns it "
                                            "into a FileFormatError)",
    "designer.emulation._Terminated": "SIGTERM unwinding the emulation so that its cleanup runs",
    "designer.export.yamldump._Whole": "never leaves yamldump.dump: it hands that document to PyYAML whole",
    "designer.qos.netplan.NotPlain": "never leaves qos.netplan.mtus: it hands that file to PyYAML",
}


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "gui" or rel.name == "__main__.py":
            continue
        parts = ("designer", *rel.with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name not in SCRIPTS:
            yield name


def _exception_types():
    found = {}
    for name in _modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = value
    return found


def test_every_error_type_of_the_designer_is_a_designer_error_or_listed_with_its_reason():
    types = _exception_types()
    assert len(types) >= 15                                       # the walk found the modules
    strays = sorted(n for n, t in types.items() if not issubclass(t, designer.DesignerError) and n not in NOT_REFUSALS)
    assert strays == [], "derive these from designer.DesignerError, or list them in NOT_REFUSALS with the reason"
    assert all(n in types for n in NOT_REFUSALS), "NOT_REFUSALS names a type that is gone"
    for name in ("ModelError", "PlanningError", "ExportError", "ExportRefused", "AidError", "ImportFormatError",
                 "ImportRefused", "FileFormatError", "JsonInputError", "AnalysisError", "LogError", "EmulationError",
                 "LintInputError", "YangUnavailable", "UnknownDevice"):
        assert any(n.endswith("." + name) for n in types), name


def test_the_command_line_shows_any_designer_error_as_one_line_and_exits_2(monkeypatch, capsys):
    import designer.cli.design as design

    class Refusal(designer.DesignerError):
        pass

    monkeypatch.setattr(design, "run_presets", lambda _args: (_ for _ in ()).throw(Refusal("a.yaml:3: no good")))
    assert main(["presets"]) == 2
    assert capsys.readouterr().err == "rail-designer: a.yaml:3: no good\n"
