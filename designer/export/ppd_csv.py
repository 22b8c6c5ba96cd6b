"""``ppd/<leaf>.csv``: the leaf's path plan in plain sight, one row per pinned downlink."""

from __future__ import annotations

import csv
import io

COLUMNS = ["downlink", "nic", "source", "uplink", "spine", "spine_port", "next_hop"]


def ppd_csv(ppd: dict) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(ppd["pins"])
    return out.getvalue()
