"""The design in a source of truth (Nautobot or NetBox), both ways: `push` writes it, `pull` rebuilds a
design from what the server holds. See docs/sot.md.

`desired` turns a `Fabric` into the objects a source of truth keeps, by name only (no server ids), with
`devicetypes` for the shipped device types; `changes` compares them with what the server holds;
`nautobot` and `netbox` read each server and turn the changes into its API's bulk requests (over `rest`);
`rebuild` turns pulled objects back into a design file.
"""
