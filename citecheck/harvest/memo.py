"""The harvest's page-rule memo: `citecheck.rulememo` over the harvest's workers."""
from __future__ import annotations

from typing import Any

from citecheck.engine.run import Engine
from citecheck.harvest.workers import Workers
from citecheck.models import Finding, Link, Page
from citecheck.rulememo import KIND, engine_digest, page_key, restored, storable

__all__ = ["KIND", "PageRules", "engine_digest"]


class PageRules:
    """`check(link, page)`: the engine's page-stage findings for one link, from the memo when known."""

    def __init__(self, engine: Engine, cache: Any, workers: Workers | None = None) -> None:
        self.engine, self.cache, self.workers = engine, cache, workers
        self.salt = engine_digest(engine) if cache is not None else ""
        self.reused = 0

    async def check(self, link: Link, page: Page) -> list[Finding]:
        if self.cache is None:
            return await self._run(link, page)
        key = page_key(self.salt, link, page)
        known = restored(self.cache.get_extras(KIND, [key]).get(key), link)  # the API every cache backend has
        if known is not None:
            self.reused += 1
            return known
        findings = await self._run(link, page)
        value = storable(findings)
        if value is not None:  # a crash is reported, never remembered
            self.cache.put_extras(KIND, {key: value})
        return findings

    async def _run(self, link: Link, page: Page) -> list[Finding]:
        if self.workers is not None:
            return await self.workers.page_findings(link, page)
        return self.engine.check_pages([link], {link.url: page}, link.location.path)
