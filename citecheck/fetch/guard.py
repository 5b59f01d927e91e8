"""The SSRF guard: http(s) only, no userinfo, and no connection to an address that is not globally
routable unless the config allows it.

Two gates, both applied on every hop. `Guard.vet_url` checks a URL before it is requested (scheme,
credentials, and hosts spelled as IP literals in any form, since aiohttp skips its resolver for
those). `fetch.resolver.GuardedResolver` is the aiohttp resolver: it resolves a name once, refuses
the whole answer if any address is off-limits, and hands aiohttp only the vetted addresses, so the
connection is pinned to what was checked (no second lookup a rebinding DNS server could answer
differently). This module does not import aiohttp: the fact cache vets URLs with `Guard` in a run
the cache answers entirely, which never loads the HTTP stack.
"""
from __future__ import annotations

from functools import lru_cache

from yarl import URL

from citecheck._util.allowlist import Allowed, parse_allow
from citecheck.fetch.addresses import IPAddress, ip_refusal, literal_ip
from citecheck.fetch.cache import policy_key
from citecheck.models import Hop

__all__ = ["Allowed", "Guard", "Refused", "ip_refusal", "parse_allow"]
SCHEMES = ("http", "https")


class Refused(OSError):
    """The guard refused a URL or an address; `error` is the Page.error word."""

    def __init__(self, error: str, detail: str) -> None:
        super().__init__(None, f"{error}: {detail}")
        self.error = error
        self.detail = detail


class Guard:
    """The policy: what may be requested and connected to."""

    def __init__(self, allow: tuple[str, ...] = (), allow_private: bool = False, max_redirects: int | None = None) -> None:
        self.allow_private = allow_private
        self.allowed = tuple(parse_allow(entry) for entry in allow)
        self.key = policy_key(allow, allow_private)  # what the cache files this run's facts under
        self.max_redirects = max_redirects  # None: no limit of its own (the fetcher's config has one)

    def walks(self, chain: tuple[Hop, ...]) -> bool:
        """Whether a walk under this policy could have gone through `chain` (stored facts): no more
        redirects than the run allows. The cache asks before it answers, so a stored walk never
        outlives a lower `--max-redirects` (its hops' addresses are the policy key's business)."""
        return self.max_redirects is None or sum(1 for hop in chain if hop.location) <= self.max_redirects

    def refusal(self, host: str, ip: IPAddress, port: int | None) -> str:
        """'' when connecting to `ip` (named `host`) on `port` is fine, else why not."""
        if self.allow_private or any(a.covers(host, ip, port) for a in self.allowed):
            return ""
        return ip_refusal(ip)

    def allows_name(self, host: str, port: int | None) -> bool:
        return self.allow_private or any(a.name and a.covers(host, None, port) for a in self.allowed)

    def vet_url(self, url: str) -> URL:
        """The URL to request (numeric hosts spelled canonically), or Refused."""
        try:
            parsed = URL(url.strip())
            host, port, scheme = parsed.raw_host, parsed.port, parsed.scheme.lower()
        except (ValueError, TypeError) as err:
            raise Refused("invalid-url", str(err)) from None
        if scheme not in SCHEMES:
            raise Refused("bad-scheme", f"{scheme or 'no'} scheme")
        if not host:
            raise Refused("invalid-url", "no host")
        if parsed.raw_user is not None or parsed.raw_password is not None:
            raise Refused("credentials", "URL carries a user name or password")
        try:
            ip = literal_ip(host)
        except ValueError as err:
            raise Refused("blocked-private", str(err)) from None
        if ip is None:
            return parsed
        why = self.refusal(host, ip, port)
        if why:
            raise Refused("blocked-private", f"{host} is {why}")
        canonical = _spelled(ip)
        return parsed.with_host(canonical) if canonical != host.strip("[]") else parsed


@lru_cache(maxsize=1024)
def _spelled(ip: IPAddress) -> str:
    """`str(ip)`, which `ipaddress` rebuilds from the integer on every call (once per hop here)."""
    return str(ip)
