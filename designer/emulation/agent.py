"""The probe agent: runs inside one host namespace as a plain script (standard library only).

Started by the runner with ``ip netns exec <ns> python agent.py``. Protocol on stdin/stdout, one line
each: the runner sends a JSON config ``{"probes": [[src, dst], ...], "timeout": s, "silent": [[src, dst], ...]}``
(``silent``: probes that must stay unanswered, sent in the first round only); the agent opens a
packet socket on every interface of the namespace (it sees each frame with its interface and direction,
like tcpdump) and prints ``ready``. On ``go`` it sends one ICMP echo request per probe from a raw socket
bound to the source address (so the kernel routes it by the host's policy rules, as ``ping -I <addr>``
does), re-sends the unanswered ones (paced, up to three rounds, ``timeout`` apart) and prints ``done`` when all are answered or
the second wait ends. It keeps capturing (other hosts' requests and this kernel's replies to them)
until ``stop``, then prints one JSON line: ``{"replied": [[src, dst]...], "seen": [[ifname, "in"|"out",
icmp type, src, dst, count]...]}``.
"""

import json
import os
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
ECHO_REQUEST, ECHO_REPLY = 8, 0
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
ATTEMPTS = 3                     # rounds of sending the unanswered probes
CHUNK, PACE = 8, 0.004           # probes per chunk, seconds between chunks
DRAIN = 0.25                     # seconds at most to read frames still queued after ``stop``
RECEIVE_BUFFER = 16 << 20        # room for every frame of a burst while the agent is busy sending


def roomy(sock):
    """Enlarge the receive buffer (root may exceed rmem_max), so a burst is never dropped unseen."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RECEIVE_BUFFER)
    except OSError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    return sock


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    total = (total >> 16) + (total & 0xFFFF)
    total += total >> 16
    return ~total & 0xFFFF


def echo_request(ident: int, seq: int) -> bytes:
    payload = b"rail-designer emulate"
    header = struct.pack("!BBHHH", ECHO_REQUEST, 0, 0, ident, seq)
    return struct.pack("!BBHHH", ECHO_REQUEST, 0, checksum(header + payload), ident, seq) + payload


def icmp_of(ip: bytes):
    """(icmp type, src, dst, id, seq) of an IPv4 ICMP packet, else None."""
    if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != socket.IPPROTO_ICMP:
        return None
    ihl = (ip[0] & 0x0F) * 4
    if len(ip) < ihl + 8:
        return None
    kind, _, _, ident, seq = struct.unpack("!BBHHH", ip[ihl:ihl + 8])
    return kind, socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20]), ident, seq


class Agent:
    def __init__(self, probes, timeout, silent=()):
        self.probes = [tuple(p) for p in probes]
        self.silent = {tuple(p) for p in silent}
        self.timeout = timeout
        self.ident = os.getpid() & 0x7FFF        # flowprobe.py keeps to 0x8000 and up
        self.replied = set()
        self.errors = {}
        self.seen = {}
        self.capture = roomy(socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL)))
        self.senders = {}
        for src in sorted({s for s, _ in self.probes}):
            sock = roomy(socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
            sock.bind((src, 0))
            self.senders[src] = sock

    def queue(self, attempt: int) -> list[int]:
        """Sequence numbers still unanswered, to send (again) in round ``attempt``: a silent probe only in the
        first round, whose whole timeout it waits (a reply or an arrival elsewhere would show by then)."""
        return [seq for seq, pair in enumerate(self.probes, start=1)
                if pair not in self.replied and (attempt <= 1 or pair not in self.silent)]

    def send(self, seqs: list[int]) -> None:
        for seq in seqs:
            src, dst = self.probes[seq - 1]
            try:
                self.senders[src].sendto(echo_request(self.ident, seq), (dst, 0))
            except OSError as exc:       # e.g. no route: the probe stays unanswered, the error is reported
                self.errors[f"{src}>{dst}"] = exc.strerror or str(exc)

    def on_capture(self) -> None:
        frame, addr = self.capture.recvfrom(65535)
        if len(frame) < 14 or frame[12:14] != b"\x08\x00":
            return
        icmp = icmp_of(frame[14:])
        if icmp is None or icmp[0] not in (ECHO_REQUEST, ECHO_REPLY):
            return
        key = (addr[0], "out" if addr[2] == PACKET_OUTGOING else "in", icmp[0], icmp[1], icmp[2])
        self.seen[key] = self.seen.get(key, 0) + 1

    def on_reply(self, sock) -> None:
        icmp = icmp_of(sock.recv(65535))
        if icmp and icmp[0] == ECHO_REPLY and icmp[3] == self.ident and 1 <= icmp[4] <= len(self.probes):
            src, dst = self.probes[icmp[4] - 1]
            if (icmp[1], icmp[2]) == (dst, src):
                self.replied.add((src, dst))

    def run(self, commands) -> None:
        """Send in paced chunks (a burst of every probe of every host at once overflows the kernel's
        per-CPU backlog and ARP gives up), then wait ``timeout``; up to ATTEMPTS rounds."""
        say("ready")
        attempt, pending, next_send, deadline = 0, [], 0.0, None
        inputs = [self.capture, *self.senders.values(), commands]
        while True:
            now = time.monotonic()
            if pending and now >= next_send:
                self.send(pending[:CHUNK])
                pending = pending[CHUNK:]
                next_send = now + PACE
                if not pending:
                    deadline = now + self.timeout
            wake = [t for t in (next_send if pending else None, deadline) if t is not None]
            wait = max(0.0, min(wake) - time.monotonic()) if wake else None
            for r in select.select(inputs, [], [], wait)[0]:
                if r is self.capture:
                    self.on_capture()
                elif r is commands:
                    line = commands.readline().strip()
                    if line == "go" and attempt == 0:
                        attempt, pending = 1, self.queue(1)
                        if not pending:
                            say("done")
                    elif line in ("stop", ""):
                        return
                else:
                    self.on_reply(r)
            if deadline is not None and (time.monotonic() >= deadline or not self.queue(attempt)):
                deadline = None
                if self.queue(attempt + 1) and attempt < ATTEMPTS:
                    attempt, pending = attempt + 1, self.queue(attempt + 1)
                else:
                    say("done")

    def result(self) -> dict:
        return {"replied": sorted(list(p) for p in self.replied),
                "seen": sorted([*key, count] for key, count in self.seen.items()),
                "errors": dict(sorted(self.errors.items()))}


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    commands = os.fdopen(sys.stdin.fileno(), "r", buffering=1)
    config = json.loads(commands.readline())
    agent = Agent(config["probes"], float(config.get("timeout", 1.0)), config.get("silent", ()))
    agent.run(commands)
    # Drain frames already queued (the last replies) before reporting; other traffic (e.g. the failover
    # flows) may never let the socket go idle, so the drain is bounded.
    until = time.monotonic() + DRAIN
    while time.monotonic() < until and select.select([agent.capture], [], [], 0.05)[0]:
        agent.on_capture()
    say(json.dumps(agent.result()))


if __name__ == "__main__":
    main()
