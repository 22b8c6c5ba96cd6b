"""Growth: how far a design can grow without renumbering what exists (a note, never a failure)."""

from __future__ import annotations

from ..planning.grow import current_size, growth_room
from .finding import Severity
from .registry import rule


@rule("RD050", "How far the design grows without renumbering", Severity.INFO,
      "To grow further without renumbering later, build it with its final size planned: "
      "rail-designer new ... --final-sus N (then rail-designer grow FILE --sus M adds SUs).")
def growth(ctx):
    fabric = ctx.fabric
    room = growth_room(fabric)
    if room is None:
        return
    sus, servers, planned = room
    now_sus, now_servers = current_size(fabric)
    if planned:
        yield (f"planned for {sus} SUs of {servers} servers (it has {now_sus} of up to {now_servers}): "
               "`rail-designer grow` adds up to that size without renumbering what is built as planned", ())
    elif not ctx.spines:
        yield (f"rail-only and without a growth plan: `rail-designer grow` adds SUs of {servers} servers with "
               "their own leaves; nothing else needs to change", ())
    elif sus > now_sus:
        yield (f"no growth plan: the spines have ports for up to {sus} SUs of {servers} servers at the parameters "
               f"it was built with (it has {now_sus}); `rail-designer grow` checks that nothing is renumbered", ())
    else:
        yield (f"no growth plan and no room: another SU does not fit the ports of the spines (and cores) it has "
               f"at {now_sus} SUs, so growing re-sizes the fabric and recables or renumbers what exists "
               "(plan with --final-sus)", ())
