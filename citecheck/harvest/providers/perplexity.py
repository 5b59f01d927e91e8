"""Perplexity Sonar (https://docs.perplexity.ai): `POST /chat/completions`, harvest-only.

Perplexity answers with generated prose plus the pages its search used. citecheck takes only
the structured `search_results[]` (`{title, url, date, snippet}`) and the `citations[]` URL list
and discards `choices` unread: no generated sentence can reach the corpus. `@domain` becomes
`search_domain_filter`. A response with neither field is a shape error.
"""
from __future__ import annotations

from typing import Any

from citecheck.harvest.outline import split_sites
from citecheck.harvest.providers.base import Candidate, HttpProvider, candidates

SYSTEM = "Search the web for sources on the user's query."


class Perplexity(HttpProvider):
    name = "perplexity"
    key_env = "PERPLEXITY_API_KEY"
    base_url = "https://api.perplexity.ai"
    options = frozenset({"model", "search_recency_filter"})

    async def search(self, query: str, limit: int) -> list[Candidate]:
        text, sites = split_sites(query)
        body: dict[str, Any] = {"model": self.settings.get("model", "sonar"),
                                "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]}
        if sites:
            body["search_domain_filter"] = list(sites)
        if "search_recency_filter" in self.settings:
            body["search_recency_filter"] = self.settings["search_recency_filter"]
        data = await self.call("POST", "/chat/completions", json=body,
                               headers={"Authorization": f"Bearer {self.api_key}"})
        if not isinstance(data, dict) or ("search_results" not in data and "citations" not in data):
            raise self.shape_error("neither 'search_results' nor 'citations'")
        found = candidates(data.get("search_results") or [], "'search_results'", self, query)
        seen = {c.url for c in found}
        cited = data.get("citations")
        urls = [{"url": u} for u in (cited if isinstance(cited, list) else []) if isinstance(u, str) and u not in seen]
        found += candidates(urls, "'citations'", self, query)
        return [Candidate(c.url, c.title, c.snippet, c.query, c.tool, rank) for rank, c in enumerate(found[:limit], 1)]
