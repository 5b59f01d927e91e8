"""The harvest tests' loopback site (tests/harvestsite.py) serves what its pages claim."""
from __future__ import annotations

from typing import Any

from harvestsite import Site


async def test_site_serves_what_it_claims(aiohttp_server: Any) -> None:
    import aiohttp

    site = await Site.start(aiohttp_server)
    async with aiohttp.ClientSession() as session:
        async with session.get(site.url("/stats/removed-report")) as response:
            assert response.status == 404
        async with session.get(site.url("/stats/old-table")) as response:
            assert response.status == 200 and "Page not found" in await response.text()
    assert site.fetched("/stats/removed-report") == 1 and site.fetched("/stats/old-table") == 1
