"""nccl-tests logs judged against the design. No Qt.

- `parse`: real nccl-tests output (``all_reduce_perf``, ``all_gather_perf``, ``reduce_scatter_perf``,
  ``alltoall_perf``, ``sendrecv_perf``) with mpirun/srun prefixes and ``NCCL_DEBUG=INFO`` lines mixed
  in, into `runs.Run` records; problems of the file itself become located `runs.LogProblem`s.
- `predict`: what the design says a run should reach (NIC line rate per GPU, the collision analysis of
  its flows under PPD or ECMP).
- `diagnose`: the verdict, as `Finding`s naming the likely cause.
- `report` and `plot`: table, JSON and a measured-against-expected chart (PNG/SVG).
- `check_logs`: the whole question in one call, for the CLI and for scripts.
"""

from ..errors import DesignerError

# The nccl-tests binaries a log can come from (here, not in runs.py: the CLI's parser lists them for every
# command it runs, and runs.py's records cost 8 ms to import).
COLLECTIVES = ("all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "alltoall_perf", "sendrecv_perf",
               "broadcast_perf", "reduce_perf", "gather_perf", "scatter_perf", "hypercube_perf")


class LogError(DesignerError, ValueError):
    """A log that cannot be used at all; the message names the file and line."""
