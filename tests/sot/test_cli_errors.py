"""`sot push` / `sot pull` refuse bad input with one readable message and exit 2, writing nothing."""

from __future__ import annotations

import socket

import pytest

import designer
from designer.cli import main


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]          # closed again when the block ends: nothing listens there


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_token_file_missing_or_not_one_token(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    designer.save(designer.build(designer.spec("default", sus=1, servers_per_su=2)), design)
    code, _, err = _run(capsys, "sot", "push", str(design), "--url", "http://127.0.0.1:1",
                        "--token-file", str(tmp_path / "none"))
    assert code == 2 and err.startswith("rail-designer: cannot read the token file")
    (tmp_path / "two").write_text("abc def\n")
    code, _, err = _run(capsys, "sot", "push", str(design), "--url", "http://127.0.0.1:1",
                        "--token-file", str(tmp_path / "two"))
    assert code == 2 and "should hold one token on one line" in err


def test_unreachable_server_and_bad_url(tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    designer.save(designer.build(designer.spec("default", sus=1, servers_per_su=2)), design)
    (tmp_path / "token").write_text("0" * 40 + "\n")
    url = f"http://127.0.0.1:{_closed_port()}"
    code, _, err = _run(capsys, "sot", "push", str(design), "--url", url, "--token-file", str(tmp_path / "token"))
    assert code == 2 and err == f"rail-designer: cannot reach Nautobot at {url}: ConnectionError\n"
    code, _, err = _run(capsys, "sot", "pull", "--url", "nautobot.example", "--token-file", str(tmp_path / "token"),
                        "-o", str(tmp_path / "out.fabric.yaml"))
    assert code == 2 and "should start with http:// or https://" in err
    assert not (tmp_path / "out.fabric.yaml").exists()


def test_a_missing_client_library_is_one_message_with_the_install_command(monkeypatch):
    import sys
    from designer.sot.errors import SotError
    from designer.sot.nautobot import Nautobot
    monkeypatch.setitem(sys.modules, "pynautobot", None)   # as if the sot extra were not installed
    with pytest.raises(SotError, match=r"pynautobot is not installed .*rail-designer\[sot\]"):
        Nautobot("http://127.0.0.1:9", "token")
