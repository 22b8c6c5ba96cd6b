"""The flow prober: runs inside one host namespace as a plain script (standard library only).

Started by the failover checks with ``ip netns exec <ns> python flowprobe.py``. Protocol, one line each
on stdin/stdout: the runner sends ``{"flows": [[src, dst], ...], "interval": s}``; the prober opens one
raw ICMP socket per source address (routed by the host's policy rules, like ``ping -I``) and prints
``ready``. On ``go`` it sends one echo request per flow every ``interval`` seconds, each flow with its
own ICMP identifier, and notes when every reply arrives. On ``stop`` it waits for late replies and prints
one JSON line: ``{"flows": [{"sent": [t, ...], "answered": [index, ...]}, ...]}`` (``time.monotonic()``
seconds, the clock every process of the machine shares).
"""

import json
import os
import select
import socket
import struct
import sys
import time

from agent import checksum, icmp_of, roomy, say  # noqa: E402  (run as a script beside agent.py)

ECHO_REQUEST, ECHO_REPLY = 8, 0
IDENT_BASE = 0x8000          # the one-shot probe agent keeps to identifiers below this
LATE = 0.3                   # seconds to wait for replies after ``stop``


def request(ident: int, seq: int) -> bytes:
    payload = b"rail-designer flow"
    header = struct.pack("!BBHHH", ECHO_REQUEST, 0, 0, ident, seq)
    return struct.pack("!BBHHH", ECHO_REQUEST, 0, checksum(header + payload), ident, seq) + payload


def main() -> None:
    commands = os.fdopen(sys.stdin.fileno(), "r", buffering=1)
    config = json.loads(commands.readline())
    flows = [tuple(f) for f in config["flows"]]
    interval = float(config["interval"])
    base = IDENT_BASE | ((os.getpid() * 64) & 0x7FFF)
    idents = {(base + i) & 0xFFFF | IDENT_BASE: i for i in range(len(flows))}
    ident_of = {i: ident for ident, i in idents.items()}
    senders = {}
    for src in sorted({s for s, _ in flows}):
        sock = roomy(socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
        sock.bind((src, 0))
        senders[src] = sock
    sent = [[] for _ in flows]
    answered = [set() for _ in flows]
    say("ready")
    if commands.readline().strip() != "go":
        return
    next_send, stop_at = time.monotonic(), None
    watched = [commands, *senders.values()]
    while True:
        now = time.monotonic()
        if stop_at is None and now >= next_send:
            for i, (src, dst) in enumerate(flows):
                seq = len(sent[i])
                sent[i].append(time.monotonic())
                try:
                    senders[src].sendto(request(ident_of[i], seq & 0xFFFF), (dst, 0))
                except OSError:
                    pass                      # no route: the probe stays unanswered
            next_send += interval
        if stop_at is not None and now >= stop_at:
            break
        wake = stop_at if stop_at is not None else next_send
        for r in select.select(watched, [], [], max(0.0, wake - time.monotonic()))[0]:
            if r is commands:
                # "stop", or the runner gone (end of input, which select reports as readable for ever):
                # stop listening, or each wake-up would push the stop further away and never end
                if commands.readline().strip() in ("stop", ""):
                    stop_at = time.monotonic() + LATE
                    watched.remove(commands)
                continue
            icmp = icmp_of(r.recv(65535))
            if icmp and icmp[0] == ECHO_REPLY and icmp[3] in idents:
                i = idents[icmp[3]]
                if (icmp[1], icmp[2]) == (flows[i][1], flows[i][0]) and icmp[4] < len(sent[i]):
                    answered[i].add(icmp[4])
    say(json.dumps({"flows": [{"sent": s, "answered": sorted(a)} for s, a in zip(sent, answered)]}))


if __name__ == "__main__":
    main()
