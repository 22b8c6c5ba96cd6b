"""The design in a source of truth (Nautobot or NetBox), both ways: `push` writes it, `pull` rebuilds a
design from what the server holds. See docs/sot.md.

`desired` turns a `Fabric` into the objects a source of truth keeps, by name only (no server ids);
`changes` compares them with what the server holds; `nautobot` and `netbox` turn them into each API's
request bodies and send them in bulk; `rebuild` turns pulled objects back into a design file.
"""
