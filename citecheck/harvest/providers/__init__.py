"""Search providers behind one interface: `name` and `async search(query, limit) -> list[Candidate]`.

Web APIs (tavily, serpapi, brave, perplexity, firecrawl) read keys from the environment and
base URLs from `providers.<name>` in config; `directory` searches a curated source list;
`urls` reads a file. `build_provider` is the one place that knows them all.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from citecheck.errors import ConfigError, UsageError
from citecheck.harvest.providers.base import Candidate, HttpProvider, settings_for
from citecheck.harvest.providers.brave import Brave
from citecheck.harvest.providers.directory import Directory, Entry, FetchHtml, load_directory
from citecheck.harvest.providers.firecrawl import Firecrawl
from citecheck.harvest.providers.perplexity import Perplexity
from citecheck.harvest.providers.serpapi import SerpApi
from citecheck.harvest.providers.tavily import Tavily
from citecheck.harvest.providers.urls import Listed, UrlList, listed_urls

WEB_APIS: dict[str, type[HttpProvider]] = {p.name: p for p in (Tavily, SerpApi, Brave, Perplexity, Firecrawl)}
NAMES = ("directory", *WEB_APIS)


class Provider(Protocol):
    name: str

    async def search(self, query: str, limit: int) -> list[Candidate]: ...

    async def aclose(self) -> None: ...


def build_provider(name: str, providers: Mapping[str, Any], *, directory: str = "",
                   entries: Sequence[Entry] = (), fetch_html: FetchHtml | None = None) -> Provider:
    """A provider by name, configured from `providers.<name>` (keys checked now, before any fetch)."""
    if name in WEB_APIS:
        cls = WEB_APIS[name]
        return cls(settings_for(name, providers, cls.options))
    if name == "directory":
        settings = settings_for(name, providers, frozenset({"path", "min_score"}))
        path = directory or str(settings.get("path", ""))
        if not entries and not path:
            raise ConfigError("the directory provider needs a source list: `directory:` in the outline or "
                              "providers.directory.path in config")
        return Directory(entries or load_directory(path), fetch_html, min_score=float(settings.get("min_score", 55)))
    raise UsageError(f"unknown provider {name!r} (known: {', '.join(NAMES)})")


__all__ = [
    "NAMES",
    "WEB_APIS",
    "Candidate",
    "Directory",
    "Entry",
    "Listed",
    "Provider",
    "UrlList",
    "build_provider",
    "listed_urls",
    "load_directory",
]
