"""The library surface stays deliberate (issue 12 part 4): `designer.__all__` is what docs/api.md
documents, heading by heading and signature by signature; every public name has its own docstring;
importing the package loads no engine and no Qt; the command line reaches the engine only through
the public names (plus the few modules that only format results); and these tests use only public
names themselves."""

import ast
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import designer

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"
CLI = ROOT / "designer" / "cli"
TESTS = Path(__file__).resolve().parent

# What the command line may import besides `designer` and its own modules: code that only formats a
# result or writes the chart it drew, and the window. Module (relative to designer) -> names.
PRESENTATION = {
    "planning.spec": {"format_ratio"},                                            # 1.00:1
    "analysis.report": {"trace_text", "trace_json", "analysis_table", "analysis_json", "chart_links"},
    "analysis.chart": {"format_of", "write_chart", "write_mode_chart"},           # analyze --chart
    "analysis.compare": {"compare_table"},                                        # analyze --compare
    "nccl.report": {"result_text", "result_json"},
    "nccl.plot": {"busbw_chart"},                                                 # nccl-check --plot
    "nccl": {"COLLECTIVES"},                                                      # --collective choices
    "sonic.lint": {"report"},
    "qos.check": {"table", "as_json", "codes_text", "said_on_export"},                               # qos-check
    "emulation.report": {"summary", "table"},
    "drift.report": {"drift_table", "drift_json", "codes_text"},
    "changes.table": {"as_json", "table"},                                        # diff
    "storage.atomic": {"write_atomic"},                                           # writes the plot
    "export.csvtext": {"csv_text"},                                               # verify --format csv
    "model.gcpause": {"freeze_after_pauses"},     # the console script's process ends with its one command
    "gui.app": {"run", "render"},                                                 # the window (Qt)
}
HEAVY = ("networkx", "yaml", "jinja2", "matplotlib", "PySide6", "shiboken6", "libyang", "openpyxl", "numpy")


def _documented() -> dict[str, str]:
    """name -> what follows it in its ``### `designer.name...` `` heading (the signature, or '')."""
    out = {}
    for line in API_MD.read_text().splitlines():
        if line.startswith("### `designer.") and line.endswith("`"):
            text = line[len("### `designer."):-1]
            name = text.split("(")[0]
            assert name not in out, f"docs/api.md documents designer.{name} twice"
            out[name] = text[len(name):]
    return out


def _signature(function) -> str:
    sig = inspect.signature(function)
    plain = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    return str(sig.replace(parameters=plain, return_annotation=inspect.Signature.empty))


def test_all_is_exactly_what_docs_api_md_documents():
    assert len(designer.__all__) == len(set(designer.__all__))
    documented = _documented()
    assert sorted(documented) == sorted(designer.__all__), \
        "a name was added to or removed from designer.__all__ without docs/api.md (or the other way round)"


def test_each_function_heading_is_its_signature_and_each_type_heading_has_none():
    for name, shown in _documented().items():
        value = getattr(designer, name)
        if inspect.isfunction(value):
            assert shown == _signature(value), f"docs/api.md shows designer.{name}{shown}"
        else:
            assert isinstance(value, type) and shown == "", name


def test_every_public_name_has_a_docstring_of_its_own():
    for name in designer.__all__:
        doc = inspect.getdoc(getattr(designer, name)) or ""
        assert len(doc) >= 30 and not doc.startswith(f"{name}("), f"designer.{name} has no docstring of its own"


def test_public_names_are_not_submodule_names():
    """A function called like a subpackage (``export``) would be replaced by the module the first time
    the subpackage is imported."""
    submodules = {m.name for m in pkgutil.iter_modules(designer.__path__)}
    assert not submodules & set(designer.__all__)


def test_importing_designer_loads_no_engine_and_no_qt():
    probe = "import sys, designer; print('\\n'.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            cwd=ROOT).stdout.split()
    ours = {m for m in loaded if m == "designer" or m.startswith("designer.")}
    assert ours == {"designer", "designer.errors", "designer.api"} | {m for m in ours if m.startswith("designer.api.")}
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]


def _imports(path: Path):
    """(module, names, level) of every import statement in the file, at any depth."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), 0
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", tuple(a.name for a in node.names), node.level


def _designer_attributes(path: Path) -> set[str]:
    """Names used as ``designer.<name>`` (module dunders such as ``__all__`` aside)."""
    return {node.attr for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "designer"
            and not node.attr.startswith("__")}


def test_the_command_line_reaches_the_engine_only_through_public_names():
    for path in sorted(CLI.glob("*.py")):
        for module, names, level in _imports(path):
            where = f"{path.name}: {'.' * level}{module} {names}"
            if level == 1 or (level == 0 and "designer" not in module.split(".")[0]):
                continue                                        # the CLI's own modules, the standard library
            if level == 0:
                assert module == "designer", where
            elif not module:
                assert set(names) <= set(designer.__all__), where
            else:
                assert set(names) <= PRESENTATION.get(module, set()), where
        assert _designer_attributes(path) <= set(designer.__all__), path.name


def test_these_tests_use_only_public_names():
    for path in sorted(TESTS.glob("*.py")):
        for module, names, level in _imports(path):
            top = module.split(".")[0]
            assert level == 0 and (top in sys.stdlib_module_names or top in ("pytest", "designer")
                                   or module == "tests.ci"), f"{path.name}: {module}"   # where the machine's inputs are
            if top == "designer":
                assert module == "designer" and set(names) <= set(designer.__all__), f"{path.name}: {module} {names}"
        assert _designer_attributes(path) <= set(designer.__all__), path.name
