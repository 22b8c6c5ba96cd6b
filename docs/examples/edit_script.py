"""The edit script of docs/api.md: open a design planned for its final size, grow it by one SU, give
servers their real names, racks and NIC names from an inventory, change a leaf's model, and check what
the edits change before saving.

    python docs/examples/edit_script.py OUT_DIR
"""

import sys
from pathlib import Path

import designer

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
path = out / "pod.fabric.yaml"
designer.save(designer.build(designer.spec("superpod-su", sus=2, servers_per_su=4, final_sus=4)), path)

fabric = designer.load(path)
grown = designer.grow(fabric, 3)                      # su3: its leaves, servers and cables; nothing renumbered
print(f"grew to {grown.sus} SUs: {len(grown.added)} devices, {grown.cables} cables added")

(out / "inventory.csv").write_text(
    "device,hostname,rack,position,nic,netdev,rdma\n"
    "su3-srv01,gpu-c01,su3-r01,41,,,\n"   # a rack of the floor the preset laid out
    "su3-srv01,,,,nic0,ens1f0np0,mlx5_0\n")
names = designer.apply_inventory(fabric, out / "inventory.csv")
print(f"inventory: {names.hostnames} host name, {names.places} rack place, {names.nic_names} NIC names")

try:                                                 # a model without the leaf's uplink ports is refused
    fabric.set_switch_model("su3-leaf-r0", "asterfusion-cx732q-n")
except designer.DesignerError as refused:
    print(f"model not changed: {refused}")

errors = [f for f in designer.check(fabric) if f.severity is designer.Severity.ERROR]
report = designer.diff(path, fabric)                 # against the file on disk, device by device
print(f"{len(errors)} errors; {report.counts['added']} added, {report.counts['additive']} additive, "
      f"{report.counts['disruptive']} disruptive")
if not errors and not report.disruptive:
    designer.save(fabric, path)
    print(f"saved {path}")
