"""Firecrawl search (https://docs.firecrawl.dev/api-reference/endpoint/search): `POST /v2/search`.

Bearer key; body `{query, limit, sources: ["web"]}` (no `scrapeOptions`: citecheck fetches and
extracts pages itself); `@domain` becomes `site:`. Response: `{"success": true, "data": {"web":
[{url, title, description, position}]}}`; v1's `data: [...]` is accepted too.
"""
from __future__ import annotations

from typing import Any

from citecheck.errors import ProviderError
from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate, HttpProvider, candidates, clean


class Firecrawl(HttpProvider):
    name = "firecrawl"
    key_env = "FIRECRAWL_API_KEY"
    base_url = "https://api.firecrawl.dev"
    options = frozenset({"country", "tbs"})

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        body: dict[str, Any] = {"query": " ".join([text, *(f"site:{s}" for s in sites)]), "limit": min(limit, 100),
                                "sources": ["web"]}
        body.update({k: self.settings[k] for k in ("country", "tbs") if k in self.settings})
        data = await self.call("POST", "/v2/search", json=body, headers={"Authorization": f"Bearer {self.api_key}"})
        if not isinstance(data, dict):
            raise self.shape_error("not a JSON object")
        if data.get("success") is False:
            raise ProviderError(f"{self.name}: {clean(data.get('error')) or 'the search failed'}")
        items = data.get("data")
        if isinstance(items, dict):
            items = items.get("web", [])
        return candidates(items, "'data.web'", self, query, snippet="description")[:limit]
