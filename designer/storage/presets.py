"""Presets: named parameter sets in ``resources/presets/*.yaml`` that `planning.build` turns into designs."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..planning.spec import BuildSpec
from ..resources import resources_dir
from .yamlio import Context, FileFormatError, field, only_keys, parse, read_text

DEFAULT_PRESET = "default"


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    parameters: dict

    def spec(self, **overrides) -> BuildSpec:
        values = {**self.parameters, **{k: v for k, v in overrides.items() if v is not None}}
        return BuildSpec(**values)


def _preset_dir() -> Path:
    return resources_dir() / "presets"


def preset_names() -> list[str]:
    return sorted(p.name.removesuffix(".yaml") for p in _preset_dir().glob("*.yaml"))


def load_preset(name: str) -> Preset:
    path = _preset_dir() / f"{name}.yaml"
    if "/" in name or not path.is_file():
        raise FileFormatError(name, f"there is no preset '{name}'; presets: {', '.join(preset_names())}")
    text = read_text(path)
    ctx = Context(str(path), text)
    raw = parse(text, str(path))
    if not isinstance(raw, dict):
        ctx.fail((), "a preset should be a mapping with description and parameters")
    only_keys(ctx, raw, {"description", "parameters"}, ())
    params = field(ctx, raw, "parameters", (), dict)
    allowed = {f.name: f for f in dataclasses.fields(BuildSpec)}
    for key in params:
        if key not in allowed:
            ctx.fail(("parameters", key), f"unknown parameter '{key}'")
    return Preset(name, " ".join(field(ctx, raw, "description", (), str, default="").split()), dict(params))
