"""What every command shares: exit codes, the one error type, and loading a design for reading."""

from __future__ import annotations

from pathlib import Path

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class CliError(Exception):
    """A readable, one-message failure; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = EXIT_USAGE):
        super().__init__(message)
        self.code = code


def new_output(path: str, force: bool) -> Path:
    """The path a command will create, refused when it exists and --force was not given."""
    out = Path(path)
    if out.exists() and not force:
        raise CliError(f"{out} exists; choose another name or add --force to overwrite it")
    return out


def load_design(path: str, catalog_files: list[str] | None = None):
    """Load a design file, turning any storage or model problem into one CliError."""
    from ..storage import FileFormatError, load
    try:
        return load(Path(path), extra_catalogs=[Path(p) for p in catalog_files or []])
    except FileFormatError as exc:
        raise CliError(str(exc)) from None
