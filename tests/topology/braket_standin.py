#!/usr/bin/env python3
"""Braket stand-in: a loopback HTTP server that answers the Amazon Braket jobs API.

It checks every request's SigV4 signature and parameters like the real service
(botocore's signer and Braket model), keeps jobs in memory and moves them through
their states over time. See tests/topology/README.md for the control API.

  braket_standin.py [--host 127.0.0.1] [--port 45200] [--account 123456789012]
                    [--credentials-file FILE] [--log FILE]

FILE for credentials: JSON list of {"accessKeyId", "secretAccessKey", "sessionToken"?}.
BYOC_STANDIN_CONFIG (JSON object) sets the initial config, e.g. '{"advance_seconds": 0.5}'.
"""

import argparse
import ipaddress
import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from standin.server import Credentials, StandinServer  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=45200)
    parser.add_argument("--account", default="123456789012")
    parser.add_argument("--credentials-file")
    parser.add_argument("--log")
    args = parser.parse_args()

    if not ipaddress.ip_address(args.host).is_loopback:
        parser.error("the stand-in listens on loopback only")
    credentials = Credentials()
    if args.credentials_file:
        credentials.load_file(args.credentials_file)
    initial = json.loads(os.environ.get("BYOC_STANDIN_CONFIG") or "{}")

    server = StandinServer((args.host, args.port), args.account, credentials, args.log, initial)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("braket stand-in listening on http://%s:%d" % (args.host, args.port), flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
