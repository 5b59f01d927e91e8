"""SerpApi Google results (https://serpapi.com/search-api): `GET /search.json?engine=google`.

The key travels as the `api_key` query parameter (SerpApi's scheme); `@domain` becomes Google's
`site:` operator. Response: `organic_results[]` of `{position, title, link, snippet}`; an
`error` field is a failure, except SerpApi's "no results" notice, which is an empty answer.
"""
from __future__ import annotations

from typing import Any

from citecheck.errors import ProviderError
from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate, HttpProvider, candidates


class SerpApi(HttpProvider):
    name = "serpapi"
    key_env = "SERPAPI_API_KEY"
    base_url = "https://serpapi.com"
    options = frozenset({"engine", "gl", "hl", "location"})

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        params: dict[str, Any] = {"engine": self.settings.get("engine", "google"),
                                  "q": " ".join([text, *(f"site:{s}" for s in sites)]),
                                  "num": min(limit, 100), "api_key": self.api_key}
        params.update({k: self.settings[k] for k in ("gl", "hl", "location") if k in self.settings})
        data = await self.call("GET", "/search.json", params=params)
        if not isinstance(data, dict):
            raise self.shape_error("not a JSON object")
        if "error" in data:
            if "hasn't returned any results" in str(data["error"]):
                return []
            raise ProviderError(f"{self.name}: {' '.join(str(data['error']).split())[:200]}")
        if "organic_results" not in data and isinstance(data.get("search_metadata"), dict):
            return []  # Google had no organic results for this query
        return candidates(data.get("organic_results"), "'organic_results'", self, query, url="link")[:limit]
