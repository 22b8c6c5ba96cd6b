import pytest

from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset


@pytest.fixture
def default_fabric():
    return build(load_preset("default").spec(), builtin_catalog())
