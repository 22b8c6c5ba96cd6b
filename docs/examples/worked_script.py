"""The worked script of docs/api.md: build a preset, edit it, check it, export some parts, trace a path,
analyse collisions, and verify the cabling against LLDP dumps.

    python docs/examples/worked_script.py OUT_DIR [LLDP_DIR]

LLDP_DIR holds one dump per device, named by host (``lldpctl -f json`` on hosts, ``show lldp table``
on SONiC switches). Exit status: 0 all well, 1 the cabling differs from the design, 2 a refusal.
"""

import sys
from pathlib import Path

import designer


def main(out: Path, lldp: Path | None = None) -> int:
    # 1. Parameters: the default preset (2 SUs of 4 four-GPU servers, 4 rails, 2 spines), renamed.
    spec = designer.spec("default", name="lab")
    sizing = designer.size(spec)
    print(f"{spec.name}: {sizing.servers} servers, {sizing.gpus} GPUs, {sizing.leaves} leaves, "
          f"{sizing.spines} spines, {sizing.ratio:.2f}:1")
    fabric = designer.build(spec)
    out.mkdir(parents=True, exist_ok=True)

    # 2. Edit through the Fabric's methods, then check. A NIC cabled to another rail's leaf is an error.
    fabric.set_hostname("su1-srv01", "gpu-a01")
    fabric.move_nic("su1-srv02/nic1", "su1-leaf-r0")
    errors = [f for f in designer.check(fabric) if f.severity is designer.Severity.ERROR]
    for f in errors:
        print(f"  {f.code} {f.message}")
    assert any(f.code == "RD004" for f in errors)
    fabric.move_nic("su1-srv02/nic1", "su1-leaf-r1")          # back to its rail's leaf
    designer.assign(fabric)                                     # re-plan what the move disturbed
    assert not [f for f in designer.check(fabric) if f.severity is designer.Severity.ERROR]
    designer.save(fabric, out / "lab.fabric.yaml")
    fabric = designer.load(out / "lab.fabric.yaml")

    # 3. Export three parts of the bundle; render one host's files in memory.
    def progress(done: int, total: int, label: str) -> None:
        if done == total:
            print(f"  {total} render steps, the last {label}")

    bundle = designer.export_bundle(fabric, out / "bundle", parts=["switches", "hosts", "cabling"],
                                    progress=progress)
    print(f"wrote {len(bundle.files)} files ({bundle.bytes:,} bytes) to {bundle.outdir}")
    netplan = designer.render_device(fabric, "gpu-a01")["hosts/gpu-a01/netplan.yaml"]
    print(f"gpu-a01's netplan.yaml: {len(netplan.splitlines())} lines")

    # 4. Trace a flow across the spines, and its reply.
    for trace in designer.trace(fabric, "gpu-a01:nic0", "su2-srv03:nic0"):
        print(f"{trace.src_nic} -> {trace.dst_nic}: {' > '.join(hop.device for hop in trace.request.hops)}"
              f" ({'ok' if trace.ok else 'broken'})")

    # 5. Collisions of an all-to-all: PPD pins against ECMP hashing.
    for routing in ("ppd", "ecmp"):
        analysis = designer.analyze(fabric, "alltoall", routing=routing, trials=50)
        print(f"alltoall under {routing}: the slowest flow gets {min(analysis.fraction):.0%} of line rate")

    # 6. The as-built cabling against the design.
    if lldp is None:
        return 0
    result = designer.verify(fabric, lldp)
    for m in result.mismatches:
        print(f"  {m.message}")
    for step, move in enumerate(result.moves, 1):
        print(f"  {step}. {move.text}")
    print(f"{len(result.as_planned)} cables as planned, {len(result.mismatches)} mismatches")
    return 0 if result.ok else 1


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) == 3 else None))
    except designer.DesignerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
