"""``rail-designer headroom``: the lossless PG profile SONiC's buffer manager gives a port."""

from __future__ import annotations

import json

import designer

from .common import EXIT_OK


def register(sub) -> None:
    p = sub.add_parser(
        "headroom", help="the lossless PG headroom SONiC computes for a port (speed, cable length, MTU)",
        description="What SONiC's buffer manager creates for a lossless port's BUFFER_PG|<port>|3: the row of the "
                    "platform's pg_profile_lookup.ini (buffer_model traditional; only the lengths the table lists) "
                    "and the vendor's headroom formula (buffer_model dynamic, Mellanox/NVIDIA Spectrum), the "
                    "platform image's default first, each with its source.")
    p.add_argument("--model", help="a catalogue switch model (rail-designer catalog lists them)")
    p.add_argument("--platform", help="a SONiC HWSKU the calculator knows, instead of --model")
    p.add_argument("--speed", type=int, default=400, help="port speed, Gb/s (default 400)")
    p.add_argument("--length", type=float, default=5, help="cable length, metres (default 5)")
    p.add_argument("--mtu", type=int, default=9100, help="port MTU (default 9100, the bundle's)")
    p.add_argument("--lanes", type=int, help="the port's SerDes lanes (default: the model's at that speed, else 4)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run_headroom)


def run_headroom(args) -> int:
    result = designer.headroom(args.model, platform=args.platform, speed=args.speed, length=args.length,
                               mtu=args.mtu, lanes=args.lanes)
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
        return EXIT_OK
    port = result["port"]
    print(f"{result['model'] or result['platform']}: SONiC platform {result['platform']} ({result['device']}, "
          f"{result['asic']})")
    print(f"port {port['speed']} Mb/s, CABLE_LENGTH {port['cable']}, MTU {port['mtu']}, {port['lanes']} lanes")
    for m in result["buffer_models"]:
        print(f"buffer_model {m['buffer_model']}{' (the image default)' if m['default'] else ''}:")
        profile = m["profile"]
        if profile is None:
            print(f"  none: {m['problem']}")
        else:
            fields = " ".join(f"{k} {v}" for k, v in profile.items() if k not in ("name", "pool"))
            print(f"  {profile['name']}: {fields}")
        if m["source"]:
            print(f"  source: {m['source']}")
    return EXIT_OK
