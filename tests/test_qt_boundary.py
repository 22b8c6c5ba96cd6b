"""The core never imports Qt: import it with PySide6 made unimportable (ARCHITECTURE.md rule 1)."""

import ast
import subprocess
import sys
from pathlib import Path

CORE = ["designer", "designer.model", "designer.planning.build", "designer.planning.ppd", "designer.checks",
        "designer.storage", "designer.export", "designer.cli"]

PROBE = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "PySide6" or name.startswith("PySide6.") or name == "shiboken6":
            raise ImportError("PySide6 is blocked in this test")
sys.meta_path.insert(0, Block())
import importlib
for name in {core!r}:
    importlib.import_module(name)
from designer.cli import parser
parser()
assert not any(m.startswith("PySide6") for m in sys.modules), sorted(m for m in sys.modules if "PySide" in m)
print("ok")
"""


def test_core_imports_and_cli_parser_work_without_pyside6():
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", PROBE.format(core=CORE)], cwd=root, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def _module_level_imports(tree):
    """Imports that run when the module is imported (not those inside functions)."""
    pending = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""])
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))


def test_no_module_outside_gui_imports_pyside6_at_import_time():
    root = Path(__file__).resolve().parent.parent / "designer"
    offenders = sorted(
        str(p.relative_to(root)) for p in root.rglob("*.py")
        if p.relative_to(root).parts[0] != "gui"
        and any(name.startswith("PySide6") for name in _module_level_imports(ast.parse(p.read_text()))))
    assert offenders == []
