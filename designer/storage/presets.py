"""Presets: named parameter sets in ``resources/presets/*.yaml`` that `planning.build` turns into designs.

A preset file has ``description`` and ``parameters``, and for a preset meant to grow with ``--sus``:

- ``scale``: a list of steps ``{sus: N, parameters: {...}}``; a design of N or more SUs takes a
  step's parameters over the preset's own (later steps over earlier ones), so the preset sizes its
  own spines, tiers and pools for the count asked. A parameter given by the caller always wins.
- ``max_sus``: the most SUs the preset builds with its own server count per SU. Asking for more is
  refused at once with the largest size and the flag that sets it (every count from 1 to
  ``max_sus`` builds: tests/storage/test_presets.py sizes each one).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ..model.limits import MAX_SU
from ..planning.errors import PlanningError
from ..planning.spec import BuildSpec
from ..resources import resources_dir
from .yamlio import Context, FileFormatError, field, only_keys, parse, read_text

DEFAULT_PRESET = "default"


@dataclass(frozen=True)
class ScaleStep:
    """From ``sus`` SUs up, these ``parameters`` replace the preset's."""

    sus: int
    parameters: dict


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    parameters: dict
    scale: tuple[ScaleStep, ...] = ()
    max_sus: int | None = None

    def parameters_for(self, sus: int) -> dict:
        """The preset's parameters for a design of ``sus`` SUs (its scale steps applied)."""
        values = dict(self.parameters)
        for step in self.scale:
            if sus >= step.sus:
                values.update(step.parameters)
        return values

    def spec(self, **overrides) -> BuildSpec:
        given = {k: v for k, v in overrides.items() if v is not None}
        sus = given.get("sus", self.parameters.get("sus", 1))
        final = given.get("final_sus")
        if isinstance(final, int) and not isinstance(final, bool) and isinstance(sus, int) and final > sus:
            sus = final                     # a design planned for its final size takes that size's steps
        if isinstance(sus, int) and not isinstance(sus, bool):
            self._refuse_beyond(sus, given)
            values = {**self.parameters_for(sus), **given}
        else:                               # not a count: BuildSpec's own checks word the problem
            values = {**self.parameters, **given}
        return BuildSpec(**values)

    def _refuse_beyond(self, sus: int, given: dict) -> None:
        """More SUs than the preset builds (with its own servers per SU): say the largest size."""
        own_servers = given.get("servers_per_su", self.parameters.get("servers_per_su"))
        if self.max_sus is None or sus <= self.max_sus or own_servers != self.parameters.get("servers_per_su"):
            return
        raise PlanningError([f"preset {self.name} builds at most {self.max_sus} SUs of {own_servers} servers, not "
                             f"{sus}: use --sus {self.max_sus} (or fewer), or fewer servers per SU "
                             "(--servers-per-su)"])


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
    only_keys(ctx, raw, {"description", "parameters", "scale", "max_sus"}, ())
    params = _parameters(ctx, raw, ())
    steps = []
    for i, step in enumerate(field(ctx, raw, "scale", (), list, default=[])):
        path = ("scale", i)
        if not isinstance(step, dict):
            ctx.fail(path, "a scale step should be a mapping with sus and parameters")
        only_keys(ctx, step, {"sus", "parameters"}, path)
        steps.append(ScaleStep(field(ctx, step, "sus", path, int, bounds=(1, MAX_SU)), _parameters(ctx, step, path)))
    max_sus = field(ctx, raw, "max_sus", (), int, default=None, bounds=(1, MAX_SU))
    return Preset(name, " ".join(field(ctx, raw, "description", (), str, default="").split()), params,
                  tuple(sorted(steps, key=lambda s: s.sus)), max_sus)


def _parameters(ctx: Context, raw: dict, path: tuple) -> dict:
    params = field(ctx, raw, "parameters", path, dict)
    allowed = {f.name for f in dataclasses.fields(BuildSpec)}
    for key in params:
        if key not in allowed:
            ctx.fail(path + ("parameters", key), f"unknown parameter '{key}'")
    return dict(params)
