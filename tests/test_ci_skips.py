"""Under CI a skipped test is a failure that says why it skipped (tests/ci.py), unless ALLOWED_IN_CI
names it; elsewhere a skip stays a skip. Runs pytest itself on small test files with the suite's hooks."""

from __future__ import annotations

import pytest

from tests import ci

pytest_plugins = ["pytester"]
PLAIN = ("-p", "no:cacheprovider", "-p", "no:pytest-qt", "-p", "no:hypothesispytest")   # pytest with only what the hooks need

CONFTEST = "from tests.ci import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401\n"
TESTS = '''
import pytest

def test_runs():
    pass

def test_skips_in_its_body():
    pytest.skip("no frobnicator here")

@pytest.mark.skipif(True, reason="not on this machine")
def test_skipped_by_a_mark():
    pass

@pytest.mark.xfail(reason="a known bug")
def test_expected_to_fail():
    assert False

def test_allowed():
    pytest.skip("CI may skip this one")
'''
MODULE_SKIP = 'import pytest\npytest.skip("this module needs a frobnicator", allow_module_level=True)\n'


@pytest.fixture
def suite(pytester, monkeypatch):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_tools=TESTS)
    monkeypatch.setitem(ci.ALLOWED_IN_CI, "test_tools.py::test_allowed", "a test of the list itself")
    return pytester


def test_under_ci_each_skip_fails_with_its_reason_but_the_listed_one(suite, monkeypatch):
    monkeypatch.setenv("CI", "true")
    result = suite.runpytest(*PLAIN, "-rA")
    result.assert_outcomes(passed=1, failed=1, errors=1, skipped=1, xfailed=1)    # a skip mark fails in setup
    failed = {r.nodeid.split("::")[1]: str(r.longrepr) for r in result.reprec.getreports("pytest_runtest_logreport")
              if r.failed}
    assert set(failed) == {"test_skips_in_its_body", "test_skipped_by_a_mark"}
    assert "skipped under CI, where it must run: no frobnicator here" in failed["test_skips_in_its_body"]
    assert "skipped under CI, where it must run: not on this machine" in failed["test_skipped_by_a_mark"]
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_under_ci_a_module_that_skips_itself_fails(pytester, monkeypatch):
    monkeypatch.setenv("CI", "1")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_module=MODULE_SKIP)
    result = pytester.runpytest(*PLAIN)
    result.stdout.fnmatch_lines(["*skipped under CI, where it must run: this module needs a frobnicator*"])
    assert result.ret != pytest.ExitCode.OK


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_outside_ci_a_skip_stays_a_skip(suite, monkeypatch, value):
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    result = suite.runpytest(*PLAIN)
    result.assert_outcomes(passed=1, skipped=3, xfailed=1)
    assert result.ret == pytest.ExitCode.OK


def test_shared_inputs_default_beside_the_repository_and_the_variables_override(monkeypatch, tmp_path):
    monkeypatch.delenv("RAIL_DESIGNER_YANG_DIR", raising=False)
    monkeypatch.delenv("RAIL_DESIGNER_CLAB_SCHEMA", raising=False)
    assert ci.yang_dir() == ci.REPO.parent / "shared" / "sonic-yang"
    assert ci.clab_schema() == ci.REPO.parent / "shared" / "containerlab" / "clab.schema.json"
    monkeypatch.setenv("RAIL_DESIGNER_YANG_DIR", str(tmp_path))
    monkeypatch.setenv("RAIL_DESIGNER_CLAB_SCHEMA", str(tmp_path / "s.json"))
    assert (ci.yang_dir(), ci.clab_schema()) == (tmp_path, tmp_path / "s.json")
