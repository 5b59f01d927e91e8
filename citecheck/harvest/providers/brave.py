"""Brave Search (https://api-dashboard.search.brave.com/docs): `GET /res/v1/web/search`.

Auth header `X-Subscription-Token`; `count` at most 20; `@domain` becomes `site:`. Response:
`{"type": "search", "web": {"results": [{title, url, description}]}}` (no `web` = no results);
`description` carries `<strong>` highlights, stripped here.
"""
from __future__ import annotations

from typing import Any

from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate, HttpProvider, candidates


class Brave(HttpProvider):
    name = "brave"
    key_env = "BRAVE_API_KEY"
    base_url = "https://api.search.brave.com"
    options = frozenset({"country", "search_lang", "safesearch"})

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        params: dict[str, Any] = {"q": " ".join([text, *(f"site:{s}" for s in sites)]), "count": min(limit, 20)}
        params.update({k: self.settings[k] for k in ("country", "search_lang", "safesearch") if k in self.settings})
        headers = {"X-Subscription-Token": self.api_key, "Accept": "application/json"}
        data = await self.call("GET", "/res/v1/web/search", params=params, headers=headers)
        if not isinstance(data, dict) or data.get("type") != "search":
            raise self.shape_error("not a web search response ('type': 'search')")
        web = data.get("web")
        if web is None:
            return []
        items = web.get("results") if isinstance(web, dict) else None
        return candidates(items, "'web.results'", self, query, snippet="description")[:limit]
