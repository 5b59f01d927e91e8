"""`citecheck mcp` with no working DNS (every name fails, as in a sandbox without network) and a
socket guard that refuses anything off loopback: the server of the outage test. Arguments are
`citecheck`'s."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import netguard
from verdictnet import SwitchDns

import citecheck.fetch.dns
from citecheck.cli import main

if __name__ == "__main__":
    netguard.install()
    dns = SwitchDns()
    dns.down = True
    citecheck.fetch.dns.SystemResolver = lambda: dns  # type: ignore[assignment,misc]
    main(sys.argv[1:])
