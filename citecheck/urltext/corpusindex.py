"""Look a written URL or ID up in the corpus: by `dedupe_key` for URLs, case-folded for IDs."""
from __future__ import annotations

from citecheck.models import Corpus, Source
from citecheck.urls import dedupe_key


class CorpusIndex:
    """Which source a URL (url, canonical_url or final_url) or an ID belongs to."""

    def __init__(self, corpus: Corpus | None) -> None:
        self.sources: dict[str, Source] = {}
        self.by_key: dict[str, str] = {}
        # retired IDs (dead on evidence, kept in the registry): ID → its retired-list record
        self.retired = {sid.strip().lower(): record for sid, record in (corpus.retired if corpus else {}).items()}
        for src in corpus.sources if corpus else ():
            sid = src.id.strip().lower()
            if not sid or sid in self.sources:
                continue
            self.sources[sid] = src
            for url in (src.url, src.canonical_url, src.final_url):
                key = url_key(url)
                if key:
                    self.by_key.setdefault(key, sid)

    def lookup(self, url: str) -> str:
        """The ID of the corpus entry `url` is (by dedupe key), or ''."""
        key = url_key(url)
        return self.by_key.get(key, "") if key else ""

    def source(self, sid: str) -> Source | None:
        return self.sources.get(sid.lower())

    def urls(self) -> set[str]:
        return {u for s in self.sources.values() for u in (s.url, s.canonical_url, s.final_url) if u}


def url_key(url: str) -> str:
    """`dedupe_key`, or '' for an empty or unparseable URL."""
    if not url.strip():
        return ""
    try:
        return dedupe_key(url)
    except (ValueError, UnicodeError):  # w3lib refuses some hosts (over-long IDNA labels)
        return ""
