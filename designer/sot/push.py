"""`push`: make a source of truth hold a design; `--dry-run` lists the changes without writing."""

from __future__ import annotations

from dataclasses import dataclass

from .changes import Change, compare, summary
from .desired import desired
from .errors import SotError

KINDS = ("nautobot", "netbox")


@dataclass(frozen=True)
class PushResult:
    changes: tuple[Change, ...]      # the setup (tag, custom fields, location type) first, then the objects
    written: bool

    @property
    def summary(self) -> str:
        return summary(list(self.changes))


def server(kind: str, url: str, token: str):
    import importlib.util
    client = {"nautobot": "pynautobot", "netbox": "pynetbox"}[kind]
    if importlib.util.find_spec(client) is None:
        raise SotError(f"talking to {kind} needs its Python client {client}: pip install 'rail-designer[sot]'")
    if not url.startswith(("http://", "https://")):
        raise SotError(f"--url {url} should start with http:// or https://")
    if kind == "nautobot":
        from .nautobot import Nautobot
        return Nautobot(url, token)
    from .netbox import NetBox
    return NetBox(url, token)


def push(fabric, url: str, token: str, kind: str = "nautobot", dry_run: bool = False) -> PushResult:
    target = server(kind, url, token)
    want = target.fit(desired(fabric))
    held = target.read(want)
    changes = compare(want, held.state, held.owned)
    if not dry_run and (changes or held.setup):
        target.apply(want, held, changes)
    return PushResult(tuple(held.setup) + tuple(changes), not dry_run)
