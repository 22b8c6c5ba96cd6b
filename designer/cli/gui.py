"""``gui [FILE]`` opens the designer window; ``render FILE -o OUT`` draws a design headless.

Qt is imported only inside the run functions, so the rest of the CLI works without a display.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .common import CliError


def register(sub) -> None:
    gui = sub.add_parser("gui", help="open the designer window (on FILE, or on the bundled default design)")
    gui.add_argument("file", nargs="?", help="a .fabric.yaml design to open")
    gui.set_defaults(run=run_gui)
    render = sub.add_parser("render", help="draw a design's diagram to a PNG or SVG file, without a window")
    render.add_argument("file", help="a .fabric.yaml design")
    render.add_argument("-o", "--output", required=True, help="OUT.png or OUT.svg")
    render.set_defaults(run=run_render)


def display_problem(environ=os.environ, platform: str = sys.platform) -> str | None:
    """Why no window can open here (Linux without X or Wayland and no Qt platform chosen), or None."""
    if not platform.startswith("linux") or environ.get("QT_QPA_PLATFORM"):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return ("there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set). "
            "Run it in a desktop session or under `xvfb-run`; without a display, use the headless commands "
            "(new, validate, export, render ...: see rail-designer --help)")


def run_gui(args) -> int:
    if args.file and not Path(args.file).is_file():
        raise CliError(f"{args.file}: no such file")
    problem = display_problem()
    if problem:
        raise CliError(problem)
    try:
        from ..gui.app import run
    except ImportError as exc:
        raise CliError(f"the designer window needs PySide6 ({exc}); the other commands work without it") from None
    return run(args.file)


def run_render(args) -> int:
    out = Path(args.output)
    if out.suffix.lower() not in (".png", ".svg"):
        raise CliError(f"{args.output}: the diagram is written as .png or .svg; name the file OUT.png or OUT.svg")
    from ..gui.app import render
    try:
        counts = render(args.file, str(out))
    except OSError as exc:
        raise CliError(f"{args.file}: {exc.strerror or exc}") from None
    print(f"wrote {out}: {counts['devices']} devices, {counts['nics']} NICs, {counts['links']} cables")
    return 0
