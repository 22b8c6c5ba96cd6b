"""Drift: what switches and hosts run (their dumps) against the bundle's files for them.

A switch's dump is written by ``switches/rail-switch-apply.py dump OUTDIR``, a host's by its
``hosts/<host>/rail-dump.sh OUTDIR``; both hold a MANIFEST.json (`dumps`). `run.compare` reads a bundle
and a folder of dumps and returns a `findings.DriftReport`: per device, the missing, extra and changed
keys with a finding code (`findings.CODES`) and the commands that converge it. Which CONFIG_DB tables the
bundle owns, and how far, is `configdb.OWNERSHIP`.
"""
