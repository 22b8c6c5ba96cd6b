"""Analysis of a design's forwarding: path traces and collective flow collisions. No Qt.

- `routing.Forwarding`: the configured forwarding state (hosts, leaves with PPD, spines), from the model.
- `paths`: hop-by-hop trace of a flow and its reply, with flags.
- `flows` and `collisions`: the flows of a collective pattern placed on the designed links under
  PPD, ECMP, QP hashing or adaptive spraying (`spray`), with per-link loads and the predicted
  bus-bandwidth fraction; `compare` runs every mode, `closed_form` is the exact 8 -> 8 law the tests
  hold the sampler to, `modes` picks the design's mode.
- `report` and `chart`: text/JSON output; charts (PNG/SVG) drawn with matplotlib (Agg).
"""

from ..errors import DesignerError


class AnalysisError(DesignerError):
    """A readable problem with the question asked (unknown host, NIC, pattern)."""
