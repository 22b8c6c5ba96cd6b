"""What changed between two designs or two bundles, device by device, and whether a live fabric can take
it without an outage.

`design_diff` compares two `Fabric`s on the model (attributes, cables, addresses, ASNs, pins, PPD pin
maps, design-wide settings); `bundle_diff` compares two bundle folders file by file through their
MANIFEST.sha256 (`content` judges one changed file). Both give a `report.ChangeReport`; `table`
formats it for the terminal and as JSON.
"""
