"""The largest inputs the designer accepts, in one place, and how a refusal quotes a value.

Every reader checks its input against these before the work grows with it: a file larger than
its limit is refused before it is parsed, a count beyond its limit before anything is built for
it. The numbers are generous for real fabrics (the 4,096-server, 8-rail design is a 6.6 MB file
with 49,152 cables) and small enough that no accepted input can hang the tool or exhaust memory.
"""

from __future__ import annotations

import re

KIB, MIB = 1 << 10, 1 << 20

# Files, in bytes.
MAX_DESIGN_BYTES = 64 * MIB          # the largest design (MAX_SERVERS) is about 30 MB
MAX_CATALOG_BYTES = 4 * MIB
MAX_AID_BYTES = 256 * MIB            # its JSON repeats every device and cable: 47 MB at 4,096 servers
MAX_TOPO_BYTES = 16 * MIB            # nvidia-smi topo -m output (a full 1,024-column matrix is about 6 MB)
MAX_NIC_NAMES_BYTES = 4 * MIB        # ibdev2netdev / show_gids output
MAX_LLDP_BYTES = 16 * MIB            # one LLDP dump
MAX_FTS_BYTES = 1024 * MIB           # dump_fts output (~80 bytes per LID per switch: ~13,000 LIDs x 1,000 switches)
MAX_IBND_BYTES = 64 * MIB            # ibnetdiscover output (about 250 bytes per HCA, 32,768 HCAs: 8 MB)
MAX_LLDP_FILES = 65_536              # dumps in one folder

# Structure of YAML and JSON documents.
MAX_NESTING = 64                     # mappings and lists inside each other (real files use under 10)
MAX_ALIAS_NODES = 10_000             # YAML nodes that aliases (*name) may add when expanded

# A design.
MAX_SERVERS = 16_384                 # 131,072 GPUs at 8 per server
MAX_SWITCHES = 8_192
MAX_LINKS = 524_288
MAX_RAILS = 64                       # rail indexes 0..63
MAX_FABRIC_PLANES = 8                # independent fabric planes (multi-plane NICs): 0..7
MAX_SU = 4_096                       # scalable units 1..4096
MAX_TEXT = 1_024                     # a design's name, description, rail or SU name, rack

# Hardware models.
MAX_CAGES = 1_024                    # front-panel cages of a switch model
MAX_LANES = 16                       # SerDes lanes per cage
MAX_BREAKOUT = 8                     # sub-ports per cage
MAX_SPEED = 3_200                    # Gb/s of a cage or NIC
MAX_LANE_BASE = 1 << 20
MAX_GPUS = 256                       # GPUs of a server model
MAX_NICS = 256                       # rail NICs of a server model
MAX_NIC_INDEX = MAX_NICS * 4         # the highest NIC index a server model may give
MAX_PORT_NAME = 63                   # characters of an interface name pattern's result

# nvidia-smi topo -m.
MAX_TOPO_DEVICES = 1_024             # columns of the matrix (GPUs and NICs)

# Whole numbers read from YAML: at most this many digits (Python refuses to parse past 4,300).
MAX_DIGITS = 20

_EXCERPT = 60
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def excerpt(value, width: int = _EXCERPT) -> str:
    """A value as an error message may quote it: repr-like, one line, at most ``width`` characters.

    Never builds the whole repr of a large value first (a list of a million items, an expanded
    YAML alias), and never lets a control character or a newline into the message."""
    if isinstance(value, str):
        text = repr(value[: width + 1])
    elif isinstance(value, (list, tuple, dict, set)):
        kind = {list: "a list", tuple: "a list", dict: "a mapping", set: "a set"}[type(value)]
        return f"{kind} of {len(value)} item{'s' if len(value) != 1 else ''}"
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        return f"a whole number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    else:
        text = repr(value)
    text = _CONTROL.sub("?", text)
    return text if len(text) <= width else text[: width - 3] + "..."


def over(count: int, limit: int, what: str) -> str | None:
    """A message when ``count`` exceeds ``limit`` (None when it does not)."""
    if count > limit:
        return f"{what}: {count:,} is more than the {limit:,} this tool accepts"
    return None
