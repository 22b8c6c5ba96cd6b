"""How a switch is deployed, said once: the bundle's README.txt, each switch's NOTES.txt and the
Ansible playbook all render their switch steps from `SWITCH_STEPS`, so they cannot disagree.

Every change on the switch is made by one script shipped in the bundle, ``switches/rail-switch-apply.py``
(stdlib Python 3 and SONiC's own sonic_yang, which every SONiC image has): ``diff`` (dry run), ``apply``
(YANG lint of the result, backup, delete the keys an earlier apply created that the bundle dropped,
``config load`` merge, frr.conf, PPD agent (its pins in APPL_DB, never saved), ``config save``, verify with YANG)
and ``rollback``.
A human and the playbook run the same commands on the same staged files. Nothing here ever runs
``config reload`` on a partial file; the script's rollback reloads only a complete backed-up config.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..resources import templates_dir

STAGE = "/var/tmp/rail-designer"                 # where the switch's files are staged on the switch
APPLY_SCRIPT = "rail-switch-apply.py"
AGENT_UNIT = "rail-ppd-agent.service"
AGENT = "rail-ppd-agent.py"                      # the PPD agent, bundle file ppd/rail-ppd-agent.py
HOST = "{host}"                                  # replaced by the switch's host name


@dataclass(frozen=True)
class Step:
    title: str
    command: str                                 # a shell command with {host} for the switch's name
    verb: str = ""                               # the apply script's verb, when the step runs it

    def for_host(self, host: str) -> str:
        return self.command.replace(HOST, host)


def _script(verb: str, *args: str) -> str:
    return " ".join(["sudo", "python3", f"{STAGE}/{APPLY_SCRIPT}", verb, *args])


SWITCH_STEPS: list[Step] = [
    Step("stage the files on the switch (ppd/ only for a leaf with ppd-pins.json)",
         f"ssh admin@{HOST} mkdir -p {STAGE} && scp -r switches/{HOST} switches/{APPLY_SCRIPT} "
         f"switches/{AGENT_UNIT} ppd/{AGENT} admin@{HOST}:{STAGE}/"),
    Step("dry run: what the merge, frr.conf and the PPD agent would change (changes nothing)",
         _script("diff", f"{STAGE}/{HOST}"), "diff"),
    Step("apply: YANG lint of the result, backup, delete what the bundle dropped, config load (merge), "
         "frr.conf, PPD agent, config save, verify",
         _script("apply", f"{STAGE}/{HOST}"), "apply"),
    Step("rollback, if needed: the last backup back in place", _script("rollback"), "rollback"),
]


def script_commands() -> dict[str, str]:
    """verb -> command with {host}: what the playbook runs (and the tests compare with README.txt)."""
    return {s.verb: s.command for s in SWITCH_STEPS if s.verb}


def steps_text(host: str = "<host>", indent: str = "  ") -> str:
    """The numbered steps as README.txt and NOTES.txt print them."""
    lines = []
    for n, step in enumerate(SWITCH_STEPS, 1):
        lines.append(f"{indent}{n}. {step.title}:")
        lines.append(f"{indent}   {step.for_host(host)}")
    return "\n".join(lines)


def switch_global_files() -> dict[str, str]:
    """The switch-side script and the agent's unit, once per bundle (under switches/)."""
    return {
        f"switches/{APPLY_SCRIPT}": (templates_dir() / "sonic" / APPLY_SCRIPT).read_text(encoding="utf-8"),
        f"switches/{AGENT_UNIT}": (templates_dir() / "systemd" / AGENT_UNIT).read_text(encoding="utf-8"),
    }


ANSIBLE_HOST = "{{ inventory_hostname }}"


def ansible_command(verb: str) -> str:
    """The playbook's form of a script step: become replaces sudo, Ansible names the host."""
    return script_commands()[verb].removeprefix("sudo ").replace(HOST, ANSIBLE_HOST)


def playbook(text: str, switch_groups: list[str]) -> str:
    """site.yml with the switch play's hosts (the inventory's switch groups), stage, file names and commands
    filled in from `SWITCH_STEPS`."""
    for placeholder, value in {
        "__RAIL_SWITCH_GROUPS__": ":".join(switch_groups),
        "__RAIL_STAGE__": STAGE, "__RAIL_SCRIPT__": APPLY_SCRIPT, "__RAIL_UNIT__": AGENT_UNIT,
        "__RAIL_AGENT__": AGENT, "__RAIL_CMD_DIFF__": ansible_command("diff"),
        "__RAIL_CMD_APPLY__": ansible_command("apply"), "__RAIL_CMD_ROLLBACK__": ansible_command("rollback"),
    }.items():
        text = text.replace(placeholder, value)
    return text
