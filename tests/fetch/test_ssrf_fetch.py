"""The guard in the fetch path: no connection to a refused address, as input or as a redirect hop,
whatever the spelling; names resolved through a stub resolver (the socket guard stays on)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hostile import HostileWeb
from hostile_net import NatSockets, RawServer, RecordingSockets, StubResolver, canary
from ssrfspellings import SPELLINGS

from citecheck.config import FetchConfig
from citecheck.fetch import fetch_all
from citecheck.models import Outcome

CFG = FetchConfig(use_cache=False, timeout=2.0, connect_timeout=1.0, read_timeout=1.0, retries=0, sibling_probe=False,
                  robots=False)  # each lookup and connection counted here is the page's own
PUBLIC = "93.184.216.34"  # only ever translated to a loopback port by NatSockets


@pytest.fixture
async def site(aiohttp_server: Any) -> Any:
    web = HostileWeb()
    server = await aiohttp_server(web.app)
    web.port = server.port  # type: ignore[attr-defined]
    web.base = f"http://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
    return web


@pytest.fixture
async def trap() -> Any:
    async with RawServer(canary) as server:
        yield server


def allowed_site(site: Any) -> FetchConfig:
    return replace(CFG, allow=(f"127.0.0.1:{site.port}",))


@pytest.mark.parametrize("spelling", [s for s, _ in SPELLINGS])
async def test_refused_as_input(spelling: str, site: Any, trap: Any) -> None:
    url = f"http://{spelling}:{trap.port}/"
    sockets = RecordingSockets()
    page = (await fetch_all([url], allowed_site(site), socket_factory=sockets))[url]
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "blocked-private")
    assert sockets.addresses == [] and trap.connections == 0


@pytest.mark.parametrize("spelling", [s for s, _ in SPELLINGS])
async def test_refused_as_redirect_hop(spelling: str, site: Any, trap: Any) -> None:
    url = f"{site.base}/to?url=http://{spelling}:{trap.port}/secret"
    sockets = RecordingSockets()
    page = (await fetch_all([url], allowed_site(site), socket_factory=sockets))[url]
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "blocked-private")
    assert [h.status for h in page.chain] == [302] and page.final_url.endswith("/secret")
    assert sockets.addresses == [("127.0.0.1", site.port)] and trap.connections == 0


async def test_unallowed_loopback_port_is_a_canary(site: Any, trap: Any) -> None:
    url = f"{site.base}/to?url=http://127.0.0.1:{trap.port}/"
    page = (await fetch_all([url], allowed_site(site)))[url]
    assert page.outcome is Outcome.EXCLUDED and trap.connections == 0


@pytest.mark.parametrize("spelling", ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "0177.0.0.01"])
async def test_allowed_spellings_connect(spelling: str, site: Any) -> None:
    url = f"http://{spelling}:{site.port}/article"
    page = (await fetch_all([url], replace(CFG, allow_private=True)))[url]
    assert page.outcome is Outcome.OK and page.final_url == f"{site.base}/article"


async def test_metadata_name_refused() -> None:
    sockets, dns = RecordingSockets(), StubResolver({"metadata.test": [["169.254.169.254"]]})
    url = "http://metadata.test/latest/meta-data/"
    page = (await fetch_all([url], CFG, resolver=dns, socket_factory=sockets))[url]
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "blocked-private")
    assert dns.lookups == ["metadata.test"] and sockets.addresses == []


@pytest.mark.parametrize("answers", [["::ffff:127.0.0.1"], ["64:ff9b::a9fe:a9fe"], ["2002:7f00:1::1"],
                                     ["2001:0:4136:e378:8000:63bf:80ff:fffe"], ["::7f00:1"], [PUBLIC, "10.0.0.1"],
                                     ["fe80::1%1"]])
async def test_wrapped_and_mixed_answers_refused(answers: list[str], trap: Any) -> None:
    sockets = RecordingSockets()
    url = f"http://sneaky.test:{trap.port}/"
    page = (await fetch_all([url], CFG, resolver=StubResolver({"sneaky.test": [answers]}), socket_factory=sockets))[url]
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "blocked-private")
    assert sockets.addresses == [] and trap.connections == 0


async def test_dns_rebinding_refused_on_second_answer(site: Any, trap: Any) -> None:
    dns = StubResolver({"rebind.test": [[PUBLIC], ["127.0.0.1"]]})
    sockets = NatSockets({PUBLIC: site.port})
    url = f"http://rebind.test:{trap.port}/article"
    first = (await fetch_all([url], CFG, resolver=dns, socket_factory=sockets))[url]
    assert first.outcome is Outcome.OK and sockets.addresses == [(PUBLIC, trap.port)]
    second = (await fetch_all([url], CFG, resolver=dns, socket_factory=sockets))[url]
    assert (second.outcome, second.error) == (Outcome.EXCLUDED, "blocked-private")
    assert sockets.addresses == [(PUBLIC, trap.port)] and trap.connections == 0 and dns.lookups == ["rebind.test"] * 2


async def test_public_name_redirecting_to_private_name(site: Any, trap: Any) -> None:
    dns = StubResolver({"public.test": [[PUBLIC]], "metadata.test": [["169.254.169.254"]]})
    sockets = NatSockets({PUBLIC: site.port})
    url = f"http://public.test:{trap.port}/to?url=http://metadata.test:{trap.port}/"
    page = (await fetch_all([url], CFG, resolver=dns, socket_factory=sockets))[url]
    assert (page.outcome, page.error) == (Outcome.EXCLUDED, "blocked-private")
    assert sockets.addresses == [(PUBLIC, trap.port)] and trap.connections == 0


async def test_nxdomain_alone_is_unverifiable() -> None:
    """Nothing in the run shows the resolver works (see tests/fetch/test_fetch_verdicts.py for the corroborated case)."""
    dns = StubResolver({})
    url = "http://no-such-host.test/page"
    page = (await fetch_all([url], CFG, resolver=dns))[url]
    assert (page.outcome, page.error, page.status) == (Outcome.UNVERIFIABLE, "unresolved", None)


async def test_allowed_name_may_resolve_privately(site: Any) -> None:
    dns = StubResolver({"intranet.test": [["127.0.0.1"]]})
    url = f"http://intranet.test:{site.port}/article"
    page = (await fetch_all([url], replace(CFG, allow=("intranet.test",)), resolver=dns))[url]
    assert page.outcome is Outcome.OK and page.title == "Quantum harbor report"
