"""What every command shares: exit codes, the CLI's own error type, refusing to overwrite, telling about
leftovers. The work itself goes through the library surface (`import designer`, docs/api.md)."""

from __future__ import annotations

import sys
from pathlib import Path

# 0 clean, 1 the design has error findings (or a check found a mismatch), 2 unusable input or a
# refusal (a file that cannot be read or written), 70 (EX_SOFTWARE) a bug in rail-designer.
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
EXIT_INTERRUPTED = 130                          # as a shell reports a run stopped by Ctrl+C


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


def say_removed(paths) -> None:
    """Tell the user about leftovers of killed runs that a save or an export cleaned up."""
    paths = list(paths)
    if paths:
        names = ", ".join(p.name for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        print(f"rail-designer: removed {len(paths)} leftover(s) of an interrupted run in {paths[0].parent}: {names}",
              file=sys.stderr)

