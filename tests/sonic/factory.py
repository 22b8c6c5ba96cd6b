"""A SONiC switch's own config before the bundle arrives, for the merge and deploy tests."""

from __future__ import annotations


def factory_config(ports: dict) -> dict:
    """What a SONiC switch holds before the bundle: its platform's identity, management port,
    buffers (pools, profiles, the lossy PG) and its features."""
    return {
        "DEVICE_METADATA": {"localhost": {"hostname": "sonic", "hwsku": "Generic-64x400G", "platform":
                                          "x86_64-generic-r0", "mac": "52:54:00:12:34:56", "type": "ToRRouter",
                                          "buffer_model": "traditional"}},
        "MGMT_PORT": {"eth0": {"alias": "eth0", "admin_status": "up"}},
        "MGMT_INTERFACE": {"eth0|192.0.2.10/24": {"gwaddr": "192.0.2.1"}},
        "PORT": {name: {"lanes": p["lanes"], "alias": p["alias"], "index": p["index"], "speed": p["speed"],
                        "admin_status": "down"} for name, p in ports.items()},
        "BUFFER_POOL": {"ingress_lossless_pool": {"mode": "dynamic", "size": "60000000", "type": "ingress"},
                        "egress_lossless_pool": {"mode": "static", "size": "60000000", "type": "egress"},
                        "egress_lossy_pool": {"mode": "dynamic", "size": "50000000", "type": "egress"}},
        "BUFFER_PROFILE": {"ingress_lossy_profile": {"pool": "ingress_lossless_pool", "size": "0",
                                                     "dynamic_th": "3"}},
        "BUFFER_PG": {f"{name}|0": {"profile": "ingress_lossy_profile"} for name in ports},
        "FEATURE": {"bgp": {"state": "enabled", "auto_restart": "enabled"}},
    }
