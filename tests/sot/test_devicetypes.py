"""The shipped device types (resources/devicetypes) against the devicetype-library's own JSON schema
(tests/data/devicetype-schema, with its provenance), and the push's use of them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import designer
from designer.sot.desired import desired
from designer.sot.devicetypes import folder, library, model_of

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "devicetype-schema"
FILES = sorted(p for p in folder().glob("*.yaml") if p.name != "models.yaml")


def _validator():
    docs = {name: json.loads((SCHEMA / f"{name}.json").read_text()) for name in
            ("devicetype", "components", "reusable", "generated_schema")}
    ids = {"devicetype": "urn:devicetype-library:device-type", "components": "urn:devicetype-library:components",
           "reusable": "urn:devicetype-library:reusable", "generated_schema": "urn:devicetype-library:generated-schema"}
    registry = Registry().with_resources(
        (ids[name], Resource.from_contents(doc, default_specification=DRAFT202012)) for name, doc in docs.items())
    return jsonschema.Draft202012Validator(docs["devicetype"], registry=registry)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_device_type_file_is_valid_for_the_library(path):
    errors = sorted(_validator().iter_errors(yaml.safe_load(path.read_text())), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def test_the_schema_rejects_what_the_library_rejects():
    bad = yaml.safe_load((folder() / "nvidia-dgx-h100.yaml").read_text())
    bad["airflow"] = "sideways"
    bad["interfaces"] = [{"name": "eno1", "type": "400gbase-x-osfp-nonexistent"}]
    messages = [e.message for e in _validator().iter_errors(bad)]
    assert any("sideways" in m for m in messages) and any("nonexistent" in m for m in messages)


def test_dgx_h100_b200_and_hgx_are_shipped_and_map_back():
    shipped = library()
    assert {"hgx-h100-8x400g", "dgx-b200-8x400g", "hgx-8gpu-4x400g"} <= shipped.keys()
    assert shipped["hgx-h100-8x400g"].model == "DGX H100" and shipped["hgx-h100-8x400g"].u_height == 8
    assert shipped["dgx-b200-8x400g"].model == "DGX B200" and shipped["dgx-b200-8x400g"].u_height == 10
    for model_id, dtype in shipped.items():
        assert model_of(dtype.model) == model_id


def test_the_push_uses_the_shipped_type():
    fabric = designer.build(designer.spec("superpod-su", sus=1, servers_per_su=2))
    state = desired(fabric)
    assert state.objects["device_type"]["DGX H100"]["manufacturer"] == "NVIDIA"
    server = state.objects["device"]["su1-srv01"]
    assert server["device_type"] == "DGX H100" and server["role"] == "gpu-server"
