"""The contract between the bundle writer and the exporters.

A `Part` is one folder or file family of the bundle (``switches``, ``hosts``, ``aid`` ...).
The bundle asks each part for the devices it renders (for per-device progress), then for
each device's files, then for the part's global files. Every path is relative to the bundle
root and uses ``/``; every content is ``str`` (written as UTF-8) or ``bytes``. Rendering must
be deterministic: the same fabric gives the same bytes.

``refused_by`` names the design rules whose errors make the part's renderers refuse; a forced export
stops on those at once, and only for the parts it writes (tests/export/test_one_verdict.py holds each
part to its list over mutated designs).

A part that is not ``default`` is optional: the bundle writes it only when asked for by name
(``export --with NAME`` or ``--only NAME``; ``with_parts=`` / ``parts=`` in the API).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model.fabric import Fabric

Files = dict[str, "str | bytes"]


@dataclass(frozen=True)
class Part:
    name: str                                              # what --only names
    description: str                                       # one line for README.txt and --help
    devices: Callable[[Fabric], list[str]] = lambda fabric: []
    render_device: Callable[[Fabric, str], Files] = lambda fabric, device_id: {}
    render_global: Callable[[Fabric], Files] = lambda fabric: {}
    apply: str = ""                                        # how an engineer applies it, for README.txt
    default: bool = True                                   # False: written only when named (optional part)
    # Codes of the error findings this part's renderers cannot get past (each one's refusal has a rule:
    # checks/export_ready.py): a forced export that writes the part stops on them before rendering.
    refused_by: frozenset[str] = frozenset()
    # The fabric kinds (DesignSettings.fabric_kind) the part is written for: an InfiniBand design has no
    # SONiC, FRR, host routing or PPD, an Ethernet one no subnet manager.
    kinds: frozenset[str] = frozenset({"ethernet"})
