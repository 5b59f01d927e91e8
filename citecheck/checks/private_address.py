"""A URL whose host is an IP address in a private, loopback, link-local or reserved range.

No public source lives at `127.0.0.1`, `10.x`, `192.168.x`, `169.254.169.254` (the cloud metadata
service) or `100.64.0.0/10` (carrier-grade NAT), and a fetcher that follows such a link is an SSRF
hole. Obfuscated spellings are unwrapped first — decimal `2130706433`, octal `0177.0.0.1`, hex
`0x7f.0.0.1` and `0x7f000001`, short `127.1`, and IPv6 forms that carry an IPv4 address
(`::ffff:127.0.0.1`, NAT64, 6to4, Teredo) — see `citecheck._util.netaddr.classify_host`. Host names are
not resolved here; the fetch guard checks the resolved address.

What the run's fetch policy allows is not reported: `--allow HOST_OR_IP[:PORT]` (or `fetch.allow`)
and `--allow-private` fill this rule's `allow` and `allow_private` options, so auditing or
harvesting a local test server needs only the flag that lets the fetcher reach it. The finding
names that flag.

Failing example:

    Internal KPIs: [dashboard](http://10.0.3.7:8080/kpi) and <http://0x7f.0.0.1/admin>.

Passing example:

    Internal KPIs are summarised in the [S-1](https://www.sec.gov/Archives/edgar/data/1318605/) (page 41).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck._util.allowlist import allow_hint, allows_url
from citecheck._util.netaddr import classify_host, parse_ip
from citecheck.checks.malformed_url import has_authority
from citecheck.models import Hit, Link
from citecheck.urls import url_host

ID = "U004"
NAME = "private-address"
STAGE = "url"
SEVERITY = "error"
VERDICT = "invalid"
GATE = "blocked"
DEFAULTS: dict[str, Any] = {"allow": [], "allow_private": False}
OPTIONS = {"allow": "HOST_OR_IP[:PORT] entries not to report (default: the run's --allow / fetch.allow)",
           "allow_private": "report no private address (default: the run's --allow-private / fetch.allow-private)"}


def private_reason(url: str) -> tuple[str, str]:
    """(address, reason) when `url`'s host is a non-public IP literal, else ('', '')."""
    if not has_authority(url):
        return "", ""
    host = url_host(url)  # '' when it does not parse: U002 reports it
    if not host:
        return "", ""
    ip, reason = classify_host(host)
    return (str(ip), reason) if ip is not None and reason else ("", "")


def allowed(url: str, address: str, options: Mapping[str, Any]) -> bool:
    """Does the run's fetch policy allow this private address (so no finding)?"""
    if not options.get("allow") and not options.get("allow_private"):
        return False
    return allows_url(url, url_host(url), parse_ip(address), options.get("allow") or (),
                      bool(options.get("allow_private")))


def check(link: Link, options: Mapping[str, Any]) -> Iterator[Hit]:
    address, reason = private_reason(link.url)
    if reason and not allowed(link.url, address, options):
        yield Hit(f"host is a {reason} address ({address}): no public source lives there "
                  f"(to fetch it anyway: {allow_hint(link.url, url_host(link.url))})", link.location,
                  link.url, evidence=address)
