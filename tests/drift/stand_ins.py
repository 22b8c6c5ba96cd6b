"""Stand-ins for what this machine lacks, each doing to a test tree what the real tool does to a host:
``mlnx_qos`` and ``cma_roce_tos`` (MLNX_OFED) keep their settings in files below RAIL_DUMP_ROOT and print
them as mlnx_qos prints them; `roce_script_below` points roce-qos.sh's /sys writes at that tree. The
agent's vtysh stand-in is tests/ppd's `fake_vtysh`; CONFIG_DB is tests/deploy's redis `FakeSwitch`."""

from __future__ import annotations

import sys
from pathlib import Path

MLNX_QOS = '''import os, sys
root = os.environ["RAIL_DUMP_ROOT"]
args = sys.argv[1:]
dev = args[args.index("-i") + 1]
state = os.path.join(root, "mlnx_qos", dev)
os.makedirs(os.path.dirname(state), exist_ok=True)
if "--trust" in args:
    open(state, "w").write(args[args.index("--trust") + 1] + " " + args[args.index("--pfc") + 1])
    sys.exit(0)
trust, pfc = open(state).read().split() if os.path.exists(state) else ("pcp", "0,0,0,0,0,0,0,0")
print("DCBX mode: OS controlled")
print("Priority trust state: " + trust)
print("PFC configuration:")
print("\\tpriority    0   1   2   3   4   5   6   7")
print("\\tenabled     " + "   ".join(pfc.split(",")))
'''

CMA_ROCE_TOS = '''import os, sys
args = sys.argv[1:]
dev, tos = args[args.index("-d") + 1], args[args.index("-t") + 1]
path = os.path.join(os.environ["RAIL_DUMP_ROOT"], "sys/kernel/config/rdma_cm", dev, "ports/1/default_roce_tos")
os.makedirs(os.path.dirname(path), exist_ok=True)
open(path, "w").write(tos + "\\n")
'''


def install_roce_tools(bindir: Path) -> None:
    bindir.mkdir(parents=True, exist_ok=True)
    for name, body in (("mlnx_qos", MLNX_QOS), ("cma_roce_tos", CMA_ROCE_TOS)):
        (bindir / name).write_text(f"#!{sys.executable}\n{body}")
        (bindir / name).chmod(0o755)


def roce_script_below(text: str, root: Path) -> str:
    """roce-qos.sh with its sysfs writes below ``root`` (the folders made first, as the kernel has them)."""
    lines = []
    for line in text.splitlines():
        if line.lstrip().startswith("echo ") and '> "/sys/' in line:
            target = line.split('> "', 1)[1].rstrip('"')
            indent = line[:len(line) - len(line.lstrip())]
            lines.append(f'{indent}mkdir -p "$(dirname "{root}{target}")"')
            line = line.replace('> "/sys/', f'> "{root}/sys/')
        lines.append(line)
    return "\n".join(lines) + "\n"
