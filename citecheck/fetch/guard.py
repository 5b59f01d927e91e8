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

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from yarl import URL

from citecheck._util.allowlist import Allowed, parse_allow
from citecheck.fetch.addresses import IPAddress, ip_refusal, literal_ip
from citecheck.fetch.cache import policy_key
from citecheck.models import Hop, Page

if TYPE_CHECKING:
    from citecheck.config import FetchConfig

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

    def __init__(self, allow: tuple[str, ...] = (), allow_private: bool = False, max_redirects: int | None = None,
                 *, caps: tuple[int, int] | None = None, headers: Mapping[str, Mapping[str, str]] | None = None) -> None:
        """`caps`: the run's (max_body, max_decompressed), which stored bodies must fit; `headers`:
        the run's per-host request headers (an answer to other headers is another run's fact)."""
        self.allow_private = allow_private
        self.allowed = tuple(parse_allow(entry) for entry in allow)
        self.key = policy_key(allow, allow_private, headers)  # what the cache files this run's facts under
        self.max_redirects = max_redirects  # None: no limit of its own (the fetcher's config has one)
        self.caps = caps  # None: no caps of its own (a reader of the cache that judges nothing)
        self.sends_headers = any((headers or {}).values())  # its facts are its own: the cache reads only its rows

    @classmethod
    def of(cls, config: FetchConfig) -> Guard:
        """The policy of a run with this fetch configuration (what its fact cache may answer)."""
        return cls(config.allow, config.allow_private, config.max_redirects,
                   caps=(config.max_body, config.max_decompressed), headers=config.headers)

    def walks(self, chain: tuple[Hop, ...]) -> bool:
        """Whether a walk under this policy could have gone through `chain` (stored facts): no more
        redirects than the run allows. The cache asks before it answers, so a stored walk never
        outlives a lower `--max-redirects` (its hops' addresses are the policy key's business)."""
        return self.max_redirects is None or sum(1 for hop in chain if hop.location) <= self.max_redirects

    def holds(self, page: Page) -> bool:
        """Whether stored facts are what this run's own fetch would have found: a walk it would make
        (`walks`) and a body its size caps read the same way (`reads`)."""
        return (not page.chain or self.walks(page.chain)) and self.reads(page)

    def reads(self, page: Page) -> bool:
        """Whether the run's body caps (`fetch.max-body`, `max-decompressed`) would read the stored
        body as it was read: a whole body that fits both caps, or one cut at a cap this run's would
        cut too (the body is known to be longer than what was read). A body stored whole under larger
        caps, or cut under smaller ones, is not this run's fact: the URL is fetched again. Rows
        stored before sizes were recorded fall back to Content-Length."""
        if self.caps is None:
            return True
        max_body, max_decompressed = self.caps
        wire, size = page.wire_bytes, page.body_bytes
        if page.error == "body-too-large":
            return wire is not None and max_body < wire
        if page.error == "decompression-bomb":
            return wire is not None and size is not None and max_decompressed <= size and wire <= max_body
        if wire is None:
            return page.content_length is None or page.content_length <= max_body
        return wire <= max_body and (size or 0) <= max_decompressed

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
