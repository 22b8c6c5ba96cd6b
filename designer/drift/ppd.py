"""The PPD agent on a leaf against the bundle's ppd-pins.json.

The agent chooses each source's uplink at run time from the switch's health, so its rules are not
compared with one fixed answer: each rule must belong to one of the pins (its ``PIN_<downlink>`` name,
an ``_D<n>`` exception of it), match that pin's source and redirect to one of its candidate uplinks with
that uplink's next hop (DR031); each pin must have a rule (DR032); the installed pins file and unit must
be the bundle's (DR030).
"""

from __future__ import annotations

import json
import re

from .findings import DriftFinding

_EXCEPTION = re.compile(r"^(?P<base>.+)_D(?P<n>\d+)\Z")


def _pin_of(name: str, pins: dict[str, dict]) -> dict | None:
    if name in pins:
        return pins[name]
    found = _EXCEPTION.match(name)
    return pins.get(found.group("base")) if found else None


def _rule_problem(fields: dict, pin: dict, uplinks: dict) -> str | None:
    if fields.get("SRC_IP") != pin["source"]:
        return f"matches source {fields.get('SRC_IP')}, the pin's source is {pin['source']}"
    action = str(fields.get("PACKET_ACTION", ""))
    target = action.removeprefix("REDIRECT:")
    next_hop, _, uplink = target.partition("@")
    if not action.startswith("REDIRECT:") or uplink not in pin["candidates"]:
        return f"{action or 'no action'} is not a redirect to one of its candidates ({', '.join(pin['candidates'])})"
    if uplinks.get(uplink, {}).get("next_hop") != next_hop:
        return f"redirects to {next_hop} on {uplink}, whose next hop is {uplinks.get(uplink, {}).get('next_hop')}"
    return None


def compare_ppd(device: str, bundle_pins: dict, state: dict) -> list[DriftFinding]:
    out: list[DriftFinding] = []
    installed = state.get("pins")
    rules = state.get("rules") if isinstance(state.get("rules"), dict) else {}
    if installed != bundle_pins:
        shown = "missing" if installed is None else "not the bundle's"
        out.append(DriftFinding("DR030", device, str(state.get("pins_file", "pins file")),
                                f"the agent's pins file is {shown}", "the bundle's ppd-pins.json",
                                None if installed is None else json.dumps(installed, sort_keys=True)[:200]))
    if not state.get("unit_installed"):
        out.append(DriftFinding("DR030", device, "rail-ppd-agent.service",
                                "the agent's unit is not installed", "installed", None))
    table = bundle_pins.get("acl_table")
    pins = {p["rule"]: p for p in bundle_pins.get("pins", [])}
    uplinks = bundle_pins.get("uplinks", {})
    covered = set()
    for key in sorted(rules):
        acl, _, name = key.partition("|")
        pin = _pin_of(name, pins) if acl == table else None
        fields = rules[key] if isinstance(rules[key], dict) else {}
        if pin is None:
            out.append(DriftFinding("DR031", device, f"ACL_RULE|{key}", f"ACL_RULE|{key} is no pin of the bundle's "
                                    "ppd-pins.json", None, json.dumps(fields, sort_keys=True)))
            continue
        if name == pin["rule"]:
            covered.add(name)                      # a wrong rule is DR031, not also DR032
        problem = _rule_problem(fields, pin, uplinks)
        if problem:
            out.append(DriftFinding("DR031", device, f"ACL_RULE|{key}", f"ACL_RULE|{key} {problem}",
                                    None, json.dumps(fields, sort_keys=True)))
    for name in sorted(set(pins) - covered):
        out.append(DriftFinding("DR032", device, f"ACL_RULE|{table}|{name}",
                                f"{pins[name]['source']} ({pins[name].get('nic', name)}) has no pin rule",
                                "a redirect to one of " + ", ".join(pins[name]["candidates"]), None))
    return out
