"""Is the network there at all? One answer per run, shared by `audit` and `harvest`.

`assess(pages)` groups the run's pages by *outside* host: every DNS name, and every IP literal
that is globally routable (a loopback or private test server says nothing about the outside world).
A host is **reached** when a TCP connection to it was made (`Fetcher.connected`: a server that
accepted and then stalled still shows the network works), some fetch on it got an HTTP status or a
TLS handshake failure (something answered), or its NXDOMAIN was corroborated. A name that merely
resolved is not enough: a sandbox may answer DNS and drop every connection. It **failed at the
network** when every fetch on it ended in a resolver failure, a timeout, a refused or a reset
connection before any status.

Cached evidence is evidence: a page answered from fresh cached facts (an answer or a corroborated
NXDOMAIN within its lifetime) shows its host answered, and its findings stand whatever today's
network does.

The network is **unavailable** only when at least `MIN_FAILED` (2) outside hosts failed at the
network in this run, no outside host answered (fresh or from the cache), and at least `THRESHOLD`
(80 %) of the hosts tried failed at the network (the rest failed in ways that prove nothing either,
such as an invalid response). One silent host is that host's problem: its links are unverifiable,
the rest of the run stands. An outage prints `Outage.line()` on stderr, reports those links as
unverifiable, computes no score, records nothing and exits 2.

API for a pipeline (harvest uses the same): `outage = assess(pages, fetcher.connected)` over every
page of the run, fresh and cached; `outage is None` means carry on; otherwise `outage.line()` is the
message and `outage.hosts`/`outage.failed` the counts.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from citecheck._util.netaddr import classify_host
from citecheck.models import Outcome, Page
from citecheck.urls import host_of

THRESHOLD = 0.8
MIN_FAILED = 2  # one silent host is that host's problem, not the network's
NETWORK_FAILURES = frozenset({"unresolved", "timeout", "refused", "reset"})
_ANSWERED_WITHOUT_STATUS = frozenset({"tls", "nxdomain"})  # something on the other side spoke


@dataclass(frozen=True)
class Outage:
    """No outside host answered: `reachable` of `hosts` (always 0 of N today), `failed` at the network."""

    hosts: int
    failed: int
    reachable: int = 0

    def line(self) -> str:
        return f"network unavailable: {self.reachable} of {self.hosts} hosts reachable; no verdicts recorded"


def assess(pages: Iterable[Page], connected: Iterable[str] = ()) -> Outage | None:
    """An Outage when the run's pages (fresh and cached) and the hosts a connection was made to
    show no working network, else None."""
    reached: set[str] = {host.lower().rstrip(".") for host in connected}
    failed: set[str] = set()
    tried: set[str] = set()
    for page in pages:
        if page.outcome in (Outcome.EXCLUDED, Outcome.UNSUPPORTED, Outcome.ERROR) or page.error == "deadline":
            continue  # not tried, or cut off by the run's --deadline: says nothing about the network
        answered = [hop.url for hop in page.chain if hop.status]
        last = page.final_url or page.url
        hosts = {h for h in (host_of(u) for u in [*answered, last]) if h and _outside(h)}
        if page.from_cache:  # stored facts are only ever answers and corroborated NXDOMAINs
            if hosts and (page.status is not None or page.error == "nxdomain"):
                return None  # an outside host answered within its facts' lifetime
            continue
        tried |= hosts
        reached |= {h for h in (host_of(u) for u in answered) if h in hosts}
        if page.status is not None or page.error in _ANSWERED_WITHOUT_STATUS:
            reached |= {host_of(last)} & hosts
        elif page.error in NETWORK_FAILURES:
            failed |= {host_of(last)} & hosts
    if not tried or reached & tried or len(failed) < MIN_FAILED:
        return None
    share = len(failed) / len(tried)
    return Outage(hosts=len(tried), failed=len(failed)) if share >= THRESHOLD else None


def _outside(host: str) -> bool:
    """A DNS name, or a globally routable address: the hosts whose silence says the network is down."""
    ip, why = classify_host(host)
    return ip is None or not why
