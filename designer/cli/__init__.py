"""The ``rail-designer`` command line. Each command group lives in its own module with
``register(subparsers)``; Qt is imported only inside the ``gui`` and ``render`` commands.

Exit codes: 0 success, 1 the design has errors (or a check failed), 2 unusable input or a
refused write, 70 an internal error (a bug: the message says where it happened and how to report
it; ``RAIL_DESIGNER_DEBUG=1`` adds the traceback). Never a bare traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback

import designer

from .common import CliError, EXIT_FINDINGS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE  # noqa: F401 (exported)

# Command modules, in the order their commands appear in --help.
COMMAND_MODULES = ["design", "floor", "export", "lint", "qos", "aid", "importers", "analysis", "lossless", "nccl",
                   "emulate", "drift", "changes", "sot", "gui"]


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
    """Run one command; ``argv`` None: this process is the command (the console script, python -m designer)."""
    process = argv is None
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        argv = ["gui"]
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return EXIT_USAGE
    if process and args.command != "gui":
        from ..model.gcpause import freeze_after_pauses
        freeze_after_pauses()        # the process ends with the command: nothing it built needs collecting
    try:
        return int(args.run(args) or 0)
    except CliError as exc:
        print(f"rail-designer: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        sys.stderr.close()                        # the reader went away (| head): nothing to say
        return 141
    except OSError as exc:
        # Disk and permission problems a command did not wrap itself.
        detail = f"{exc.filename}: {exc.strerror}" if exc.filename else (exc.strerror or str(exc))
        print(f"rail-designer: {detail}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rail-designer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except designer.DesignerError as exc:
        # Readable refusals that a command did not wrap itself: each names its file or object.
        print(f"rail-designer: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:       # noqa: BLE001 - the one place that turns any failure into a message
        return _internal_error(exc)


def _internal_error(exc: BaseException) -> int:
    """A bug: one message with the innermost place it happened and how to report it; exit 70."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}designer{os.sep}" in f.filename] or frames
    where = ""
    if ours:
        f = ours[-1]
        path = f.filename[f.filename.rfind(f"{os.sep}designer{os.sep}") + 1:]
        where = f" (at {path}:{f.lineno}, in {f.name})"
    text = str(exc)
    text = text if len(text) <= 200 else text[:197] + "..."
    print(f"rail-designer: internal error: {type(exc).__name__}: {text}{where}\n"
          "This is a bug in rail-designer, not in your input: report it with the design file (and any "
          "input files the command read) and this message. RAIL_DESIGNER_DEBUG=1 prints the traceback.",
          file=sys.stderr)
    if os.environ.get("RAIL_DESIGNER_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    return EXIT_INTERNAL
