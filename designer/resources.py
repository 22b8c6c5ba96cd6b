"""Where the bundled data lives: ``resources/`` and ``templates/``.

In a wheel they sit inside the package (``designer/resources``, ``designer/templates``);
in a source checkout they sit beside it at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the designer's '{name}' folder is missing from the installation")


def resources_dir() -> Path:
    return data_dir("resources")


def templates_dir() -> Path:
    return data_dir("templates")
