"""Main text of a fetched page for `body_excerpt`: trafilatura, off the event loop, cached.

trafilatura was chosen by measurement (bench/extract_compare.py, docs/harvest.md): on the real
article pages it kept every body phrase and leaked 12% of the chrome phrases, against 94% / 94%
for resiliparse, at ~35 ms a page. That cost is why extraction runs on the page stage's process pool
(`citecheck.stage.pages`) and why each result is stored in the fetch cache's side table under the body's content hash:
a warm rerun neither refetches nor re-extracts.
"""
from __future__ import annotations

from typing import Any

from citecheck.fetch.parse import decode, is_html
from citecheck.stage.pages import PageStage

EXCERPT_MAX = 10_000
KIND = "maintext"


def _version() -> str:
    from importlib.metadata import version

    return f"trafilatura-{version('trafilatura')}-fast-{EXCERPT_MAX}"


def clip(text: str, limit: int = EXCERPT_MAX) -> str:
    """Cut at the last word boundary before `limit` characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ", max(0, limit - 200))
    return (cut[:space] if space > 0 else cut).rstrip() + "…"


def extract_main_text(body: bytes, content_type: str, url: str = "") -> str:
    """Main text of an HTML body (navigation, footers, comment forms dropped); '' for anything else."""
    if not body or not is_html(content_type, body):
        return ""
    import trafilatura

    text = trafilatura.extract(decode(body, content_type), url=url or None, include_comments=False, fast=True)
    return clip((text or "").strip())


class Extractor:
    """`await extractor.text(hash, body, content_type, url)`, run on the page stage's pool."""

    def __init__(self, cache: Any, stage: PageStage) -> None:
        self.cache = cache
        self.stage = stage
        self.version = _version()
        self.extracted = 0

    def cached(self, content_hash: str) -> str | None:
        """The stored main text for this body, if this extractor version stored one."""
        if self.cache is None or not content_hash:
            return None
        hit = self.cache.get_extras(KIND, [content_hash]).get(content_hash)  # the API every cache backend has
        if isinstance(hit, dict) and hit.get("version") == self.version and isinstance(hit.get("text"), str):
            return str(hit["text"])
        return None

    async def text(self, content_hash: str, body: bytes, content_type: str, url: str) -> str:
        """Extract (or reuse) the main text of one body and remember it under its hash."""
        known = self.cached(content_hash)
        if known is not None:
            return known
        text = await self.stage.call(extract_main_text, body, content_type, url)
        self.extracted += 1
        if self.cache is not None and content_hash:
            self.cache.put_extras(KIND, {content_hash: {"version": self.version, "text": text}})
        return text
