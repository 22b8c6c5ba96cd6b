"""Mutators: bytes (flips, splices, repeats), documents (YAML/JSON trees: hostile values, wrong types,
deep nesting, shared nodes that dump as aliases) and text (lines and whitespace-separated tokens).

Every function takes a `random.Random` so a run is reproducible from its seed. Sizes stay bounded
(`MAX_BYTES`) so the fuzzer tests the tool's limits, not the machine's.
"""

from __future__ import annotations

import copy
import json
import random

import yaml

MAX_BYTES = 4 << 20
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

TOKENS = [b"\x00", b"\n", b"\r\n", b"\t", b" ", b"{", b"}", b"[", b"]", b":", b"- ", b"*a", b"&a ", b"!!python/object ",
          b"'", b'"', b"\\", b"%", b"{port[0]}", b"{lane:99999999}", b"9" * 30, "²".encode(), "\u202e".encode(),
          b"\xff\xfe", b"\xed\xa0\x80", b"../", b"/", b"|", b"--", b"==>", b"NaN", b"-1", b"1-999999999", b"2x400G",
          b"GPU0", b"NIC0", b"mlx5_0", b"Ethernet0", b"su1-srv01/nic0", b"10.0.0.1/24", b"pinned", b"\x1b[4m"]


def hostile_value(rng: random.Random):
    """A value of the kind that breaks careless readers."""
    pick = rng.randrange(16)
    if pick == 0:
        return rng.choice([0, -1, 1, 2 ** 31, 2 ** 32, 2 ** 63, 10 ** 30, -(10 ** 18)])
    if pick == 1:
        return int("9" * rng.choice([25, 500, 4000]))        # longer ones come from the byte mutator
    if pick == 2:
        return rng.choice([float("nan"), float("inf"), -0.0, 1e308, 0.5])
    if pick == 3:
        return rng.choice([True, False, None])
    if pick == 4:
        return "x" * rng.choice([16, 64, 254, 4096, 200_000])
    if pick == 5:
        return rng.choice(["", " ", "a b", "a\nb", "é", "²", "\u202e", "\x00", "../etc", "a;rm -rf /", "{port.x}",
                           "su1-srv01/nic0", "nic99", "10.0.0.1/33", "Ethernet0\n", "-", "0", "1-2-3"])
    if pick == 6:
        return []
    if pick == 7:
        return {}
    if pick == 8:
        return [rng.choice(["a", 1, None])] * rng.choice([2, 1000, 100_000])
    if pick == 9:
        return deep(rng.choice([10, 70, 1_500]), rng)
    if pick == 10:
        return {"unexpected": "field"}
    return rng.choice(["a", 1, 1.5, "Ethernet999", "mlx5_0", "ens1np0", "su9-srv99", "10.0.0.0/8"])


def deep(depth: int, rng: random.Random):
    value = 1
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"k": value}
    return value


def alias_bomb(rng: random.Random, levels: int | None = None):
    """Nested lists that share their children: dumped as YAML, they become anchors and aliases."""
    node = ["lol"] * 9
    for _ in range(levels or rng.randint(2, 9)):
        node = [node] * 9
    return node


def _nodes(data, path=(), limit: int = 5_000):
    """(path, value) pairs of a tree, iteratively, each shared node once, at most ``limit``."""
    stack, seen = [(path, data)], set()
    while stack and limit:
        p, value = stack.pop()
        yield p, value
        limit -= 1
        if isinstance(value, (dict, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
        if isinstance(value, dict):
            stack.extend((p + (k,), v) for k, v in list(value.items())[:200])
        elif isinstance(value, list):
            stack.extend((p + (i,), v) for i, v in list(enumerate(value))[:200])


def _small(value) -> bool:
    """Few nodes and no long text: safe to repeat thousands of times."""
    nodes = [v for _, v in zip(range(50), _nodes(value))]
    return len(nodes) < 50 and all(len(v) < 1_000 for v in nodes if isinstance(v, str))


def _text_lines(text: str, rng: random.Random) -> str:
    return mutate_lines(text.encode(), rng).decode("utf-8", "replace")


def mutate_tree(data, rng: random.Random, aliases: bool, steps: int | None = None, gentle: bool = False):
    """Apply a few structural mutations to a parsed document; returns the new root. ``aliases``:
    the document will be dumped as YAML, where shared nodes become anchors and aliases (JSON would
    expand an alias bomb in this process). Most mutations are plausible (a value from elsewhere in
    the same document, an edited table line), so inputs reach past the first check."""
    weights = [0, 30, 0, 10, 0, 0, 5, 30, 25] if gentle else [15, 15, 5, 10, 8, 5, 8, 30, 4]
    for _ in range(steps or rng.randint(1, 5)):
        nodes = list(_nodes(data))
        path, value = rng.choice(nodes)
        op = rng.choices(range(9), weights=weights)[0]
        if op == 0 or not path:
            new = hostile_value(rng)
        elif op == 1:
            tables = [(p, v) for p, v in nodes if isinstance(v, str) and "\n" in v]
            if tables:
                path, value = rng.choice(tables)
                new = _table_edit(value, rng) if gentle else _text_lines(value, rng)   # a design file's table
            else:
                new = hostile_value(rng)
        elif op == 2:
            new = alias_bomb(rng) if aliases and rng.random() < 0.5 else [value, value]
        elif op == 3 and isinstance(value, (dict, list)) and value:
            new = type(value)(value)
            if isinstance(new, dict):
                new.pop(rng.choice(list(new)))
            else:
                del new[rng.randrange(len(new))]
        elif op == 4 and isinstance(value, list) and value:
            item = rng.choice(value)
            new = value + [item] * rng.choice([1, 2, 10, 10, 5000] if _small(item) else [1, 10])
        elif op == 5 and isinstance(value, dict):
            new = dict(value)
            new[rng.choice(["id", "name", "x", "index", "", "nics", 7])] = hostile_value(rng)
        elif op == 6 and isinstance(value, str):
            new = value + rng.choice(["", "x" * 300, " y", "\t", "/", "é", "0" * 20])
        elif op == 7:                                  # a value found under the same key elsewhere
            same = [v for p, v in nodes if p and path and p[-1] == path[-1] and type(v) is type(value)
                    and v is not value and _small(v)]
            new = copy.deepcopy(rng.choice(same)) if same else value
        elif op == 8:
            new = _nudge(value, rng)
        else:
            new = hostile_value(rng)
        data = _replace(data, path, new)
    return data


def _table_edit(text: str, rng: random.Random) -> str:
    """Plausible edits of a table (links, asns, addresses): drop or swap records, toggle pins,
    change one digit."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        words, other = lines[i].split(), lines[j].split()
        op = rng.randrange(4)
        if op == 0:
            del lines[i]
        elif op == 1 and words and other:
            words[-1], other[-1] = other[-1], words[-1]
            lines[i], lines[j] = " ".join(words), " ".join(other)
        elif op == 2 and words:
            lines[i] = " ".join(words[:-1] if words[-1] == "pinned" else words + ["pinned"])
        elif lines[i]:
            k = rng.randrange(len(lines[i]))
            if lines[i][k].isdigit():
                lines[i] = lines[i][:k] + rng.choice("0123456789") + lines[i][k + 1:]
        if not lines:
            break
    return "\n".join(lines)


def _nudge(value, rng: random.Random):
    """A small, plausible change: a number off by a little, a name with one character changed."""
    if isinstance(value, bool) or value is None:
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 2, 8, -value])
    if isinstance(value, float):
        return value * rng.choice([0.5, 2, 1.5])
    if isinstance(value, str) and value:
        i = rng.randrange(len(value))
        return value[:i] + rng.choice("0123456789abcxyz-./_ ") + value[i + 1:]
    return value


def _replace(root, path, new):
    if not path:
        return new
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    try:
        parent[path[-1]] = new
    except (TypeError, IndexError, KeyError):
        pass
    return root


def mutate_bytes(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(9)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] ^= 1 << rng.randrange(8 if rng.random() < 0.3 else 7)
        elif op == 1:
            top = 256 if rng.random() < 0.3 else 127      # mostly text, sometimes not UTF-8 at all
            buf[at:at] = bytes(rng.randrange(9, top) for _ in range(rng.randint(1, 16)))
        elif op == 2:
            buf[at:at] = rng.choice(TOKENS)
        elif op == 3:
            del buf[at:at + rng.randint(1, 256)]
        elif op == 4:
            chunk = bytes(buf[at:at + rng.randint(1, 200)])
            buf[at:at] = chunk * rng.choice([2, 50, 2000])
        elif op == 5:
            del buf[at:]
        elif op == 6 and others:
            other = rng.choice(others)
            cut = rng.randrange(len(other) + 1)
            buf = buf[:at] + other[cut:]
        elif op == 7:
            buf[at:at] = rng.choice(TOKENS) * rng.choice([100, 10_000])
        else:
            buf[at:at] = str(rng.choice([-1, 0, 2 ** 32, 10 ** 25])).encode()
        if len(buf) > MAX_BYTES:
            del buf[MAX_BYTES:]
    return bytes(buf)


def mutate_lines(data: bytes, rng: random.Random) -> bytes:
    """Line and token mutations for line-oriented text (topo, ibdev2netdev, show_gids, SONiC tables)."""
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [b""]
        if op == 0:
            lines[i:i] = [lines[i]] * rng.choice([1, 5, 500, 20_000])
        elif op == 1:
            del lines[i]
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split()
            if words:
                k = rng.randrange(len(words))
                if op == 3:
                    words[k] = rng.choice(TOKENS).strip() or b"X"
                elif op == 4:
                    words[k:k] = [rng.choice(TOKENS).strip() or b"Y"] * rng.choice([1, 3, 300])
                elif op == 5:
                    del words[k]
                else:
                    words[k] = words[k] * rng.choice([2, 40, 3000] if len(words[k]) < 100 else [2])
                lines[i] = rng.choice([b" ", b"\t", b"  "]).join(words)[:MAX_BYTES]
        if sum(map(len, lines)) + len(lines) > MAX_BYTES:
            break
    total, kept = 0, []
    for line in lines:                      # join no more than the budget
        total += len(line) + 1
        if total > MAX_BYTES:
            break
        kept.append(line)
    return b"\n".join(kept)


def dump_yaml(data) -> bytes | None:
    """The document as YAML, or None when it cannot be written (too deep for the dumper)."""
    try:
        return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=4096).encode(
            "utf-8", "replace")
    except (RecursionError, ValueError, yaml.YAMLError):
        return None


def dump_json(data, rng: random.Random) -> bytes | None:
    try:
        text = json.dumps(data, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5)
    except (RecursionError, ValueError):
        return None
    return text.encode("utf-8", "surrogatepass")


def topo_matrix(gpus: int, nics: int, rng: random.Random) -> bytes:
    """A synthetic ``nvidia-smi topo -m`` of any size (NIC Legend included)."""
    cols = [f"GPU{i}" for i in range(gpus)] + [f"NIC{i}" for i in range(nics)]
    out = ["\t" + "\t".join(cols) + "\tCPU Affinity\tNUMA Affinity"]
    for r in cols:
        cells = ["X" if r == c else "NV18" if r[0] == c[0] == "G" else rng.choice(["PIX", "PXB", "PHB", "NODE", "SYS"])
                 for c in cols]
        out.append(r + "\t" + "\t".join(cells) + "\t0-63\t0")
    out += ["", "Legend:", "", "  X    = Self", "", "NIC Legend:", ""] + [f"  NIC{i}: mlx5_{i}" for i in range(nics)]
    return ("\n".join(out) + "\n").encode()
