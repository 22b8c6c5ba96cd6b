"""A small bar chart of link loads as a PNG, written with zlib and struct only (no plotting library).

One bar per link in the order given, height = utilisation (demand / capacity), drawn against a
full-rate line at 100 %. Bars over 100 % are red, at or under are blue. No text is drawn: the
table and JSON name the links; the chart shows the shape of the load at a glance.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

WHITE, GREY, BLUE, RED, BLACK = (255, 255, 255), (200, 200, 200), (52, 101, 164), (204, 0, 0), (0, 0, 0)
HEIGHT, MARGIN, MAX_WIDTH = 240, 10, 4000


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width: int, height: int, pixels: list[bytearray]) -> bytes:
    """8-bit RGB PNG from rows of ``width * 3`` bytes."""
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)        # filter type 0 per row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b""))


def bar_chart(values: list[float]) -> bytes:
    """Bars for ``values`` (1.0 = full rate). Bar width shrinks with the count, down to 1 pixel."""
    count = max(1, len(values))
    bar = max(1, min(12, (MAX_WIDTH - 2 * MARGIN) // count))
    width = 2 * MARGIN + bar * count
    top = max([1.0] + values) * 1.1
    plot = HEIGHT - 2 * MARGIN
    rows = [bytearray(WHITE * width) for _ in range(HEIGHT)]

    def put(x: int, y: int, colour: tuple[int, int, int]) -> None:
        rows[y][3 * x:3 * x + 3] = bytes(colour)

    full = HEIGHT - MARGIN - round(plot / top)
    for x in range(MARGIN, width - MARGIN):
        put(x, full, GREY)
        put(x, HEIGHT - MARGIN, BLACK)
    for i, v in enumerate(values):
        h = round(plot * v / top)
        colour = RED if v > 1 + 1e-9 else BLUE
        gap = 1 if bar > 2 else 0
        for x in range(MARGIN + i * bar, MARGIN + (i + 1) * bar - gap):
            for y in range(HEIGHT - MARGIN - h, HEIGHT - MARGIN):
                put(x, y, colour)
    return encode_png(width, HEIGHT, rows)


def write_chart(path: Path, values: list[float]) -> None:
    from ..storage.yamlio import write_atomic
    write_atomic(path, bar_chart(values))
