"""Tavily search (https://docs.tavily.com): `POST /search` with a Bearer key.

Request: `query`, `max_results`, `search_depth`, `include_domains` (from `@domain`), with
`include_answer` and `include_raw_content` off: Tavily's generated answer is never asked for.
Response: `results[]` of `{url, title, content, score}`; `content` (a page extract) is the snippet.
"""
from __future__ import annotations

from typing import Any

from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate, HttpProvider, candidates


class Tavily(HttpProvider):
    name = "tavily"
    key_env = "TAVILY_API_KEY"
    base_url = "https://api.tavily.com"
    options = frozenset({"search_depth", "topic"})

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        body: dict[str, Any] = {"query": text, "max_results": min(limit, 20),
                                "search_depth": self.settings.get("search_depth", "basic"),
                                "topic": self.settings.get("topic", "general"),
                                "include_answer": False, "include_raw_content": False}
        if sites:
            body["include_domains"] = list(sites)
        data = await self.call("POST", "/search", json=body, headers={"Authorization": f"Bearer {self.api_key}"})
        items = data.get("results") if isinstance(data, dict) else None
        return candidates(items, "'results'", self, query, snippet="content")[:limit]
