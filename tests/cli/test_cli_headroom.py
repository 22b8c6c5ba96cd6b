"""``rail-designer headroom``: the calculator on the command line."""

from __future__ import annotations

import json

import pytest

import designer
from designer.cli import main


def test_headroom_prints_both_buffer_models_default_first(capsys):
    assert main(["headroom", "--model", "nvidia-sn5600", "--speed", "400", "--length", "5", "--mtu", "9100"]) == 0
    out = capsys.readouterr().out
    assert out.index("buffer_model dynamic (the image default)") < out.index("buffer_model traditional")
    assert "port 400000 Mb/s, CABLE_LENGTH 5m, MTU 9100, 4 lanes" in out        # a 2x400G port of an 800G cage
    assert "pg_lossless_400000_5m_profile: xon 19456 xoff 231424 size 250880 dynamic_th 0" in out   # the table's row
    assert "buffer_headroom_mellanox.lua" in out and "pg_profile_lookup.ini of ACS-SN5600" in out


def test_headroom_json_is_the_library_result(capsys):
    assert main(["headroom", "--platform", "DellEMC-Z9664f-O64", "--length", "2.5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == designer.headroom(platform="DellEMC-Z9664f-O64", length=2.5)
    traditional = result["buffer_models"][0]
    assert traditional["buffer_model"] == "traditional" and traditional["profile"] is None
    assert "cable length 2.5m" in traditional["problem"] and "5m, 40m, 300m" in traditional["problem"]


@pytest.mark.parametrize("argv,words", [
    (["--model", "asterfusion-cx864e-n"], "has no SONiC platform in sonic-buildimage"),
    (["--platform", "SN9999"], "no SONiC platform 'SN9999'"),
    ([], "name a switch model (--model) or a SONiC platform"),
    (["--model", "nvidia-sn5600", "--mtu", "20000"], "mtu 20000 is out of range"),
    (["--model", "nvidia-sn5600", "--length", "0"], "length 0.0 is out of range"),
])
def test_headroom_refuses_in_one_line(capsys, argv, words):
    assert main(["headroom", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
