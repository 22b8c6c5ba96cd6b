"""README.txt's section on dumps: what `rail-switch-apply.py dump` and each host's ``rail-dump.sh`` write,
which ``rail-designer drift BUNDLE DUMPS`` reads (designer/drift/dumps.py reads the same format)."""

from __future__ import annotations

DUMP_SECTION = """\
Drift: what a device runs, against this bundle
  Dump each device into a folder, gather the folders (one per device, any names) into one DUMPS folder,
  then run `rail-designer drift BUNDLE DUMPS` (--format json). Dumps only read; they change nothing.
  as root on a switch, from the staged files: python3 /var/tmp/rail-designer/rail-switch-apply.py dump DIR
  as root on a host: rail-dump.sh DIR (the bundle's hosts/<host>/rail-dump.sh, copied to the host)
  Every dump folder holds MANIFEST.json:
    format      1
    kind        "switch" or "host"
    device      the device's host name (a switch: DEVICE_METADATA|localhost hostname)
    time        when it was taken, UTC (YYYY-MM-DDTHH:MM:SSZ)
    files       file name -> what it holds
    unreadable  part -> why it could not be read (e.g. vtysh or mlnx_qos missing); drift reports such a
                part as not checked (DR050), never as clean
  A switch dump: config_db.json (the whole running CONFIG_DB, sonic-cfggen -d --print-data, in
  config_db.json's shape), frr-running.conf (vtysh -c 'show running-config'), frr.conf (the saved
  /etc/sonic/frr/frr.conf), ppd-agent.json ({"rules": the <table>|PIN_* rules the agent holds, from
  rail-ppd-agent.py show (APPL_DB ACL_RULE_TABLE), "pins": its installed pins file, "pins_file",
  "unit_installed"}).
  A host dump: ip-rule.json (ip -j rule show), ip-route.json (ip -j route show table all), ip-address.json
  (ip -j address show), sysctl.txt and roce-qos.txt (KEY = VALUE lines: every sysctl sysctl.conf sets; per
  rail NIC 'trust NETDEV', 'pfc NETDEV' from mlnx_qos, 'roce_tos RDMA' from the rdma_cm configfs, and each
  sysfs value roce-qos.sh writes, by path); a value that could not be read is left out.
  drift compares CONFIG_DB tables as far as the bundle owns them: VLAN, VLAN_MEMBER, VLAN_INTERFACE,
  INTERFACE and LOOPBACK_INTERFACE whole (an extra key is drift); BGP_NEIGHBOR must be empty; the QoS maps
  field by field; the rules of the bundle's ACL tables whole, except the agent's PIN_ rules (checked
  against ppd-pins.json); every other table the bundle writes by the keys and fields it sets. Tables it
  does not write (BUFFER_*, MGMT_*, FEATURE ...) are not compared. `rail-designer drift --help` lists the
  finding codes (DR000-DR090) and the command that converges each.
"""
