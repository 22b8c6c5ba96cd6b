"""Do each host NIC and the switch port it is cabled to agree on RoCE QoS? Read from the files a bundle
applies (and, where given, from device dumps: what the devices run), never from the design.

`sides` reads both ends (a host's roce-qos.sh, nccl.env, netplan.yaml and policy-routing.sh; a switch's
config_db.json; cabling.csv for who is cabled to whom), `agree` compares them (codes RD070-RD074, each
naming both ends and both values), `report` prints the result. docs/qos-agreement.md.
"""
