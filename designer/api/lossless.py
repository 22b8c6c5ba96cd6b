"""The lossless calculator as a library call: the PG profile SONiC's buffer manager gives one port."""

from __future__ import annotations


def headroom(model: str | None = None, *, platform: str | None = None, speed: int = 400, length: float = 5,
             mtu: int = 9100, lanes: int | None = None) -> dict:
    """What SONiC's buffer manager computes for a lossless port of ``model`` (a catalogue switch model)
    or ``platform`` (a SONiC HWSKU the calculator knows) at ``speed`` Gb/s over ``length`` metres of
    cable with port MTU ``mtu``. ``lanes``: the port's SerDes lanes (None: the catalogue model's for
    that speed, else 4).

    Returns ``platform``, ``device``, ``asic``, ``model``, ``port`` (``speed`` in Mb/s, ``cable`` as
    CABLE_LENGTH writes it, ``mtu``, ``lanes``) and ``buffer_models``: for each of ``dynamic`` and
    ``traditional``, the image's default first, ``default``, ``source``, ``profile`` (the
    BUFFER_PROFILE name and fields, or None) and ``problem``. Raises a DesignerError
    (``UnknownPlatform``) for a model or platform it has no SONiC platform for, or a bad number."""
    from ..export.lossless import DYNAMIC, TRADITIONAL, UnknownPlatform, lossless_headroom, resolve_platform
    from ..storage.catalog_file import builtin_catalog
    target = resolve_platform(model, platform)
    for name, value, low, high in (("speed", speed, 1, 1600), ("length", length, 0.1, 100000),
                                   ("mtu", mtu, 576, 9216), ("lanes", lanes if lanes is not None else 1, 1, 8)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise UnknownPlatform(f"{name} {value!r} is out of range: use {low} to {high}")
    if lanes is None:
        lanes = 4
        switch = builtin_catalog().switches.get(model or (target.models[0] if target.models else ""))
        if switch is not None and switch.breakout_for_speed(speed) is not None:
            lanes = switch.lanes * speed // switch.speed
    port = {"speed": str(int(speed) * 1000), "cable": f"{length:g}m", "mtu": str(int(mtu)), "lanes": int(lanes)}
    models = []
    for buffer_model in sorted((DYNAMIC, TRADITIONAL), key=lambda m: m != target.buffer_model):
        result = lossless_headroom(target, port["speed"], port["cable"], port["mtu"], port["lanes"], buffer_model)
        models.append({"buffer_model": buffer_model, "default": buffer_model == target.buffer_model,
                       "source": result.source, "problem": result.problem,
                       "profile": None if result.profile is None else
                       {"name": result.profile.name, **result.profile.fields()}})
    return {"platform": target.name, "device": target.device, "asic": target.asic, "model": model,
            "port": port, "buffer_models": models}
