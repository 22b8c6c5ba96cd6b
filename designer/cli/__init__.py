"""The ``rail-designer`` command line. Each command group lives in its own module with
``register(subparsers)``; Qt is imported only inside the ``gui`` and ``render`` commands.

Exit codes: 0 success, 1 the design has errors (or a check failed), 2 unusable input.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .common import CliError, EXIT_USAGE

# Command modules, in the order their commands appear in --help.
COMMAND_MODULES = ["design", "export", "lint", "aid", "importers", "analysis", "nccl", "emulate", "gui"]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="rail-designer",
        description="Design rail-optimized GPU fabrics: build from presets, check, and export configs. "
                    "With no command, opens the designer window on the default design.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        argv = ["gui"]
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return EXIT_USAGE
    try:
        return int(args.run(args) or 0)
    except CliError as exc:
        print(f"rail-designer: {exc}", file=sys.stderr)
        return exc.code
    except (ValueError, OSError) as exc:
        # Last net for readable refusals that a command did not wrap itself (FileFormatError,
        # ModelError, PlanningError, ExportError are ValueErrors; disk problems are OSErrors).
        detail = f"{exc.filename}: {exc.strerror}" if isinstance(exc, OSError) and exc.filename else str(exc)
        print(f"rail-designer: {detail}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rail-designer: interrupted", file=sys.stderr)
        return 130
