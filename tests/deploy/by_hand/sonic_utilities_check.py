"""By hand, not a test: sonic-utilities' own validation code against a pinned leaf's saved config.

    PYTHONPATH=.:tests/deploy/sonic_yang_api:LIBS .venv/bin/python tests/deploy/by_hand/sonic_utilities_check.py SONIC_UTILITIES

SONIC_UTILITIES is a sonic-utilities checkout or git directory (read at run time; none of its code is in
this repository). LIBS holds PyPI's jsonpatch, jsonpointer and click, which sonic-utilities imports
(`pip install --target LIBS jsonpatch jsonpointer click`).

It builds tests/deploy/test_pins_coexist.py's pinned leaf (the stand-in switch with the bundle applied,
the real agent running with its pins installed), runs `config save`, then runs, from sonic-utilities:
- ``config/main.py``'s ``config_file_yang_validation`` (what `config reload` and `config load_minigraph`
  call before they load a file) and its ``read_json_file``, on the saved file;
- ``generic_config_updater/gu_common.py`` whole (`config apply-patch`'s ConfigWrapper and PatchWrapper):
  ``get_config_db_as_json`` (through the stand-in's sonic-cfggen), ``PatchWrapper.simulate_patch`` of a
  patch, and ``ConfigWrapper.validate_config_db_config`` (loadData plus its lane and BGP peer-group
  checks) on the patch's target;
and the same two validations with the control: one pin where the agent before kept it (CONFIG_DB).

What cannot run here, and is replaced or left out:
- sonic-yang-mgmt's ``sonic_yang`` needs libyang 1's SWIG bindings (``import yang``), which Debian no longer
  ships: tests/deploy/sonic_yang_api stands in, real libyang 2 on SONiC's own models;
- ``sonic_py_common`` (logger, multi_asic) and ``sonic_yang_ext`` are SONiC image modules: minimal stand-ins
  below (a single-ASIC switch; logging to stderr);
- GCU's PatchSorter (needs sonic_yang's dependency walk on libyang 1), its ChangeApplier (writes through
  swsscommon's ConfigDBConnector), swsscommon itself and orchagent are not run.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))


def source(repo: Path, path: str) -> str:
    if (repo / path).is_file():
        return (repo / path).read_text()
    return subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"], capture_output=True, text=True,
                          check=True).stdout


def sonic_image_stand_ins() -> None:
    """sonic_py_common's logger and multi_asic, sonic_yang_ext: what a single-ASIC SONiC image has."""
    common = types.ModuleType("sonic_py_common")
    logger = types.ModuleType("sonic_py_common.logger")

    class Logger:
        def __init__(self, identifier=None, *args, **kwargs):
            self.identifier = identifier

        def set_min_log_priority_debug(self):
            pass

        def log(self, priority, msg, also_print_to_console=False):
            if also_print_to_console:
                print(msg, file=sys.stderr)

        def __getattr__(self, name):                    # log_notice, log_error, ...
            if name.startswith("log_"):
                return lambda msg, also_print_to_console=False: self.log(name, msg, also_print_to_console)
            raise AttributeError(name)

    logger.Logger = Logger
    multi_asic = types.ModuleType("sonic_py_common.multi_asic")
    multi_asic.DEFAULT_NAMESPACE = ""
    multi_asic.is_multi_asic = lambda: False
    multi_asic.get_namespace_list = lambda: []
    common.logger, common.multi_asic = logger, multi_asic
    sys.modules.update({"sonic_py_common": common, "sonic_py_common.logger": logger,
                        "sonic_py_common.multi_asic": multi_asic, "sonic_yang_ext": types.ModuleType("sonic_yang_ext")})


def load_gu_common(repo: Path, yang_dir: str):
    module = types.ModuleType("gu_common")
    module.__file__ = str(repo / "generic_config_updater/gu_common.py")
    exec(compile(source(repo, "generic_config_updater/gu_common.py"), "generic_config_updater/gu_common.py", "exec"),
         module.__dict__)
    module.YANG_DIR = yang_dir                           # /usr/local/yang-models on a switch
    return module


def load_reload_validation(repo: Path, yang_dir: str):
    """config/main.py's config_file_yang_validation and read_json_file, taken out of the module (importing
    it whole needs the whole SONiC image)."""
    import click
    import sonic_yang
    text = source(repo, "config/main.py")
    wanted = {"config_file_yang_validation", "read_json_file"}
    nodes = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    assert {n.name for n in nodes} == wanted, "sonic-utilities' config/main.py changed: functions not found"
    namespace = {"json": __import__("json"), "click": click, "sonic_yang": sonic_yang, "YANG_DIR": yang_dir,
                 "HOST_NAMESPACE": "localhost", "multi_asic": sys.modules["sonic_py_common.multi_asic"]}
    exec(compile(ast.Module(body=nodes, type_ignores=[]), "config/main.py", "exec"), namespace)
    return namespace["config_file_yang_validation"]


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    repo = Path(sys.argv[1])
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tests.ci import yang_dir
    from tests.deploy.test_pins_coexist import Leaf
    import click
    import jsonpatch

    sonic_image_stand_ins()
    yang = str(yang_dir().resolve())
    gu = load_gu_common(repo, yang)
    reload_check = load_reload_validation(repo, yang)
    leaf = Leaf(Path(tempfile.mkdtemp(prefix="rd-sonic-utilities-")))
    failures = 0
    try:
        print(f"pinned: {len(leaf.pinned())} rules in APPL_DB ACL_RULE_TABLE, agent running")
        os.environ["PATH"] = leaf.switch.env["PATH"]          # sonic-cfggen: the stand-in's
        os.environ["RAIL_TEST_REDIS_PORT"] = leaf.switch.env["RAIL_TEST_REDIS_PORT"]
        os.environ["RAIL_TEST_CALLS"] = leaf.switch.env["RAIL_TEST_CALLS"]
        leaf.config("save", "-y")
        saved = leaf.switch.root / "etc/sonic/config_db.json"

        def reload_validates(path):
            try:
                return reload_check(str(path))
            except click.exceptions.Abort:
                return False

        ok = reload_validates(saved)
        failures += not ok
        print(f"config_file_yang_validation(saved config_db.json): {ok}")
        wrapper = gu.ConfigWrapper()
        running = wrapper.get_config_db_as_json()
        patch = jsonpatch.JsonPatch([{"op": "add", "path": "/PORT/Ethernet0/description", "value": "by GCU"}])
        target = gu.PatchWrapper(config_wrapper=wrapper).simulate_patch(patch, running)
        result = wrapper.validate_config_db_config(target)
        failures += result != (True, None)
        print(f"GCU ConfigWrapper.validate_config_db_config(running + {patch.patch}): {result}")
        # The control: a pin where the agent before kept it.
        pin = leaf.pins["pins"][0]
        uplink = pin["candidates"][0]
        rule = {"PRIORITY": str(pin["priority"]), "SRC_IP": pin["source"],
                "PACKET_ACTION": f"REDIRECT:{leaf.pins['uplinks'][uplink]['next_hop']}@{uplink}"}
        with_pin = dict(target, ACL_RULE={**target["ACL_RULE"], f"PPD|{pin['rule']}": rule})
        control = Path(tempfile.mkdtemp()) / "config_db.json"
        control.write_text(__import__("json").dumps(with_pin, indent=4))
        ok = reload_validates(control)
        failures += ok
        print(f"control, a pin in CONFIG_DB: config_file_yang_validation: {ok}")
        result = gu.ConfigWrapper().validate_config_db_config(with_pin)
        failures += result[0]
        print(f"control, a pin in CONFIG_DB: validate_config_db_config: {result}")
    finally:
        leaf.close()
    print("all as expected" if not failures else f"{failures} result(s) not as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
