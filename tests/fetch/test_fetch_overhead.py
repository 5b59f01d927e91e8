"""The fetch loop's cheap paths keep the contracts of the general code they replaced: `Slots.hold`
(a class, once an @asynccontextmanager) takes and gives back both slots on every exit, and the
guard's memoised address spelling is `str(ip)`."""
from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

import pytest

from citecheck.config import FetchConfig
from citecheck.fetch.addresses import literal_ip
from citecheck.fetch.client import Fetcher
from citecheck.fetch.guard import Guard, _spelled
from citecheck.fetch.hosts import Slots
from citecheck.models import Outcome


async def enters_at_once(slots: Slots, key: str) -> bool:
    try:
        async with asyncio.timeout(0.2):
            async with slots.hold(key):
                return True
    except TimeoutError:
        return False


async def test_hold_counts_the_request_and_gives_both_slots_back() -> None:
    slots = Slots(concurrency=1, host_concurrency=1)
    async with slots.hold("a:80") as stats:
        assert stats.requests == 1 and stats.waited >= 0
        assert not await enters_at_once(slots, "b:80")  # the one global slot is taken
        await asyncio.sleep(0.01)
    assert stats.seconds >= 0.01 and slots.stats == {"a:80": stats}
    assert await enters_at_once(slots, "a:80") and stats.requests == 2


async def test_hold_gives_the_slots_back_when_the_request_fails() -> None:
    slots = Slots(concurrency=1, host_concurrency=1)
    with pytest.raises(ValueError):
        async with slots.hold("a:80"):
            raise ValueError("reset")
    assert await enters_at_once(slots, "a:80")


async def test_cancelled_wait_for_the_global_slot_frees_the_host_slot() -> None:
    slots = Slots(concurrency=1, host_concurrency=1)
    async with slots.hold("a:80"):
        waiting = asyncio.create_task(enters_at_once(slots, "b:80"))  # gets b's slot, waits for the global one
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    assert await enters_at_once(slots, "b:80")


async def test_hold_lets_urgent_requests_go_first_and_measures_the_wait() -> None:
    slots = Slots(concurrency=1, host_concurrency=8)
    order: list[str] = []

    async def request(name: str, urgent: bool) -> float:
        async with slots.hold("a:80", urgent=urgent) as stats:
            order.append(name)
            return stats.waited

    async with slots.hold("a:80"):
        fresh = asyncio.create_task(request("fresh", False))
        urgent = asyncio.create_task(request("urgent", True))
        await asyncio.sleep(0.05)
    assert await urgent >= 0.04 and await fresh >= 0.04
    assert order == ["urgent", "fresh"]


@pytest.mark.parametrize("address", ["127.0.0.1", "0.0.0.0", "::1", "::ffff:7f00:1", "fe80::1", "fe80::1%eth0",
                                     "2001:db8::1", "8.8.8.8"])
def test_spelled_is_str(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert _spelled(ip) == str(ip)
    assert _spelled(ipaddress.ip_address(address)) == str(ip)  # an equal address from the cache


def test_scoped_and_unscoped_addresses_keep_their_own_spelling() -> None:
    assert _spelled(ipaddress.ip_address("fe80::1%eth0")) == "fe80::1%eth0"
    assert _spelled(ipaddress.ip_address("fe80::1")) == "fe80::1"


@pytest.mark.parametrize("host", ["127.1", "0x7f000001", "0177.0.0.1", "2130706433", "127.0.0.1", "[::1]",
                                  "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]"])
def test_vet_url_spells_numeric_hosts_canonically(host: str) -> None:
    target = Guard(allow_private=True).vet_url(f"http://{host}:8080/a?b#c")
    ip = literal_ip(host)
    assert ip is not None and target.raw_host == str(ip) and target.port == 8080
    assert (target.path, target.query_string, target.fragment) == ("/a", "b", "c")


async def test_internal_error_page_has_no_sibling_facts(served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the walk (here: in the sibling probe) gives the error page, no probe facts."""
    config = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5, retries=0)
    async with Fetcher(config, defer_parse=True) as fetcher:
        async def broken(*args: Any) -> Any:
            raise RuntimeError("probe broke")

        monkeypatch.setattr(fetcher.siblings, "find", broken)
        result = await fetcher.fetch_fresh(served.base + "/article")
    page = result.page
    assert (page.outcome, page.error) == (Outcome.ERROR, "internal: RuntimeError: probe broke")
    assert (page.sibling_status, page.sibling_text, result.raw) == (None, None, None) and page.elapsed_ms > 0


def test_probe_paths_never_end_in_a_number() -> None:
    """A probe path ending in digits can match a site's `slug-<id>` route and fetch a real page."""
    import re

    from citecheck.fetch.probe import PREFIX, probe_url, random_token

    tokens = {random_token() for _ in range(2000)}
    assert len(tokens) == 2000 and all(re.fullmatch(r"[a-z]{16}", t) for t in tokens)
    url = probe_url("https://example.org/economy/census-regulator-240891")
    assert re.fullmatch(rf"https://example\.org/economy/{PREFIX}[a-z]{{16}}", url)
    assert not re.match(r"^/[a-z]+/[a-z-]+-(\d+)$", url.split("example.org", 1)[1])  # the benchmark's page route
