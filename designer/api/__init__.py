"""The implementation of the library surface that `designer` (the package) exports: see docs/api.md.

Each module here imports the engine (model, planning, checks, storage, export, importers, analysis,
nccl, sonic, emulation) inside its functions only, so ``import designer`` stays cheap and never
loads Qt. Scripts and the command line import from `designer`, not from here.
"""
