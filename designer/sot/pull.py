"""`pull`: rebuild the design a source of truth holds (see `rebuild`)."""

from __future__ import annotations

from .errors import SotError
from .push import server
from .rebuild import design_text


def pull(url: str, token: str, site: str | None = None, kind: str = "nautobot"):
    """The `Fabric` the server holds at ``site`` (the design's name when it was pushed; None: the one site
    a push wrote there)."""
    from ..storage.design_file import loads
    target = server(kind, url, token)
    source = f"{kind} at {url}"
    if site is None:
        sites = target.design_sites()
        if len(sites) != 1:
            raise SotError(f"{source} holds {len(sites)} designs" + (f" ({', '.join(sites)})" if sites else "")
                           + ": name one with --site" if sites else f"{source} holds no design rail-designer pushed")
        site = sites[0]
    held = target.read_site(site)
    text = design_text(site, held.state.objects, held.links, source)
    return loads(text, f"{source}, site {site}")
