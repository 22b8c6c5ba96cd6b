"""Small helpers for the check tests (a unique module name: tests/ is not a package)."""

from __future__ import annotations

from dataclasses import replace

from designer.checks import check


def of_code(fabric_or_findings, code: str):
    findings = check(fabric_or_findings) if not isinstance(fabric_or_findings, list) else fabric_or_findings
    return [f for f in findings if f.code == code]


def codes(findings) -> list[str]:
    return [f.code for f in findings]


def with_addressing(fabric, **changes) -> None:
    s = fabric.settings
    fabric.set_settings(replace(s, addressing=replace(s.addressing, **changes)))


def nic_of_rail(fabric, server_id: str, rail: int) -> str:
    return next(n.id for n in fabric.servers[server_id].nics if n.rail == rail)
