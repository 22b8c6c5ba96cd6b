"""Fuzzing rail-designer's inputs: ``python -m fuzz --count 10000``.

Six kinds of input, each mutated at the level of bytes and of structure from real seeds
(`seeds`): design files (`rail-designer validate`, then export), AID JSON (`import-aid`, then
`validate` of what it wrote), ``nvidia-smi topo -m`` text (`import-topo`, then loading the catalog it
wrote), ibdev2netdev / show_gids output (`apply-nics`, then `validate`), LLDP dumps (`verify`) and a
leaf's bundle files (`diff` of the bundle against the one they came from).
Every input runs in a forked child with a CPU-time alarm and an address-space limit (`runner`),
so a hang or a memory blow-up is counted, not suffered. The run prints counts by outcome; a
traceback, hang, memory blow-up, unreadable message, or a saved file that does not open again is a
bug. ``--keep DIR`` saves those inputs; the ones worth keeping live in ``tests/data/fuzz/``.
"""
