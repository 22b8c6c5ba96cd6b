"""The part of SONiC's ``sonic_yang`` module (sonic-buildimage src/sonic-yang-mgmt) that `config reload`
(sonic-utilities config_file_yang_validation) and GCU (ConfigWrapper.validate_config_db_config) call:
``SonicYang(yang_dir)``, ``loadYangModel()``, ``loadData(configdbJson)`` (which parses and so validates),
``validate_data_tree()``, ``tablesWithOutYang`` and ``SonicYangException``. The answer comes from real
libyang on the models found in ``yang_dir`` (the deploy tests link SONiC's own there), through
rail-designer's CONFIG_DB -> YANG translator (designer.sonic, checked against SONiC's sample config).

sonic-yang-mgmt itself cannot run on this machine: it needs libyang 1's SWIG bindings (``import yang``),
which Debian no longer ships. Put this folder on PYTHONPATH; a SONiC image has the real module."""

from __future__ import annotations

from designer.sonic.schema import Models
from designer.sonic.validate import validate

_MODELS: dict[str, Models] = {}


class SonicYangException(Exception):
    pass


class SonicYang:
    def __init__(self, yang_dir, debug=False, print_log_enabled=True, sonic_yang_options=0):
        self.yang_dir = str(yang_dir)
        self.tablesWithOutYang: dict = {}
        self._models: Models | None = None

    def loadYangModel(self):
        if self.yang_dir not in _MODELS:
            _MODELS[self.yang_dir] = Models(self.yang_dir)
        self._models = _MODELS[self.yang_dir]

    def loadData(self, configdbJson, debug=False, quiet=False):
        if self._models is None:
            raise SonicYangException("loadData before loadYangModel")
        problems = validate(self._models, configdbJson)
        unmodelled = [p for p in problems if not p.key and "has no YANG model" in p.message]
        self.tablesWithOutYang = {p.table: configdbJson.get(p.table) for p in unmodelled}
        rest = [p for p in problems if p not in unmodelled]
        if rest:
            raise SonicYangException("Data Loading Failed\n" + "\n".join(
                f"{'|'.join(x for x in (p.table, p.key) if x)}{' ' + p.field if p.field else ''}: {p.message}"
                for p in rest))

    def validate_data_tree(self):
        if self._models is None:
            raise SonicYangException("validate_data_tree before loadData")
