"""Every request body a first `sot push --kind netbox` of a 2-SU design sends, checked against NetBox's own
OpenAPI document (tests/data/netbox/openapi.json, NetBox 4.6.8, see PROVENANCE.md). No NetBox server runs
here (NetBox is not on PyPI): this is a schema check only, as docs/sot.md says."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30WriteValidator

import designer
from tests.sot.designs import free_cage
from designer.sot.desired import KINDS, desired
from designer.sot.netbox import ENDPOINTS, body, setup_bodies

DATA = Path(__file__).resolve().parents[1] / "data" / "netbox"


@lru_cache(maxsize=1)
def _spec() -> dict:
    return json.loads(gzip.decompress((DATA / "openapi.json.gz").read_bytes()))


def _validator(path: str, method: str = "post"):
    """The validator of one object of a bulk request on ``/api/<path>/``: POST takes an object or a list of
    them, PATCH a list of objects with their ids."""
    spec = _spec()
    schema = spec["paths"][f"/api/{path}/"][method]["requestBody"]["content"]["application/json"]["schema"]
    if "oneOf" in schema:
        schema = next(s for s in schema["oneOf"] if s.get("type") != "array")
    elif schema.get("type") == "array":
        schema = schema["items"]
    return OAS30WriteValidator({**schema, "components": spec["components"]})


def _problems(path: str, data: dict, method: str = "post") -> list[str]:
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in _validator(path, method).iter_errors(data)]


@pytest.fixture(scope="module")
def first_push():
    """(endpoint, body) of every object a first push writes, with server ids numbered as NetBox would."""
    fabric = designer.build(designer.spec("superpod-su", sus=2, servers_per_su=31))   # a free cage per leaf
    fabric.set_breakout("su1-leaf-r0", free_cage(fabric, "su1-leaf-r0"), "2x200G")
    want = desired(fabric)
    ids = {kind: {key: n for n, key in enumerate(want.objects[kind], start=1)} for kind in KINDS}
    bodies = [(path, data) for path, data in setup_bodies()]
    for kind in KINDS:
        bodies += [("/".join(ENDPOINTS[kind]), body(kind, key, want, ids, {"rir": 1})) for key in want.objects[kind]]
    return fabric, want, bodies


def test_every_first_push_body_validates(first_push):
    fabric, want, bodies = first_push
    counts = {}
    problems = []
    for path, data in bodies:
        counts[path] = counts.get(path, 0) + 1
        found = _problems(path, data)
        if found and len(problems) < 10:
            problems.append((path, data.get("name") or data.get("label") or data.get("address"), found))
    assert not problems, problems
    assert counts["dcim/interfaces"] == len(want.objects["interface"]) > 1500
    assert counts["dcim/cables"] == len(fabric.links) > 900
    assert counts["ipam/ip-addresses"] == len(want.objects["ip"]) == len(fabric.addresses)
    assert sum(1 for _, data in bodies if data.get("parent")) == 2         # the breakout's sub-ports
    assert {"extras/tags", "extras/custom-fields", "ipam/rirs", "ipam/asns", "dcim/sites", "dcim/racks",
            "dcim/device-roles", "dcim/device-types", "dcim/manufacturers", "ipam/prefixes"} <= counts.keys()


def test_update_and_delete_bodies_validate_as_bulk_patches(first_push):
    """A later push PATCHes changed objects in bulk: the same body with the object's id. (Bulk DELETE bodies,
    a list of ids, are not checked: the document gives DELETE the full object schema, which NetBox does not
    ask for.)"""
    _, _, bodies = first_push
    seen = set()
    for path, data in bodies:
        if path in seen or path.startswith(("extras/", "ipam/rirs")):
            continue
        seen.add(path)
        assert not _problems(path, {"id": 7, **data}, "patch"), path


def test_the_document_rejects_a_wrong_body():
    """The check has teeth: NetBox's schema refuses an unknown cable type and a device without a role."""
    assert any("type" in p for p in _problems("dcim/cables", {
        "a_terminations": [], "b_terminations": [], "type": "copper-string"}))
    assert any("role" in p for p in _problems("dcim/devices", {"device_type": 1, "site": 1}))


def test_every_query_the_netbox_reader_makes_is_in_the_document():
    """The pull's and push's reads: each list endpoint and filter they ask NetBox for is one the document
    lists (the answers are empty pages, but for the site, so that the site's own reads happen too)."""
    from designer.sot.netbox import NetBox
    from designer.sot.rest import Rest

    asked = []

    class Recording(Rest):
        def send(self, method, path_or_url, **kwargs):
            path = path_or_url.split("/api/", 1)[1]
            asked.append((method, path, dict(kwargs.get("params") or {})))
            results = [{"id": 1, "name": "superpod-su", "custom_fields": {}}] if path == "dcim/sites/" else []
            return {"results": results, "next": None}

    fabric = designer.build(designer.spec("superpod-su", sus=2))
    netbox = NetBox("http://netbox.invalid", "0" * 40)
    netbox.rest = Recording("NetBox", netbox.url, "0" * 40, None)
    netbox.read(desired(fabric))
    paths = _spec()["paths"]
    problems = []
    for method, path, params in asked:
        operation = paths.get(f"/api/{path}", {}).get(method)
        if operation is None:
            problems.append(f"{method} /api/{path} is not in the document")
            continue
        known = {p["name"] for p in operation.get("parameters", ()) if p.get("in") == "query"}
        problems += [f"{method} /api/{path}?{name}" for name in params if name not in known]
    assert not problems, problems
    assert ("get", "dcim/interfaces/", {"limit": 1000, "site_id": 1}) in asked
