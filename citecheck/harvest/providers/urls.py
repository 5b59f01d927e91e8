"""The `urls` provider: URLs listed in a file (a plain list, Markdown, or a Sources.md-style
curated list), pulled out by `citecheck.extract` so positions and link text survive.

Each link's text becomes the candidate title (checked against the fetched title like any search
result) and the heading it sits under names its section.
"""
from __future__ import annotations

from dataclasses import dataclass

from citecheck.extract import extract_document, read_text, sniff
from citecheck.harvest.providers.base import Candidate
from citecheck.models import Link


@dataclass(frozen=True)
class Listed:
    """One listed URL with the link it came from (for findings at file:line:col)."""

    candidate: Candidate
    link: Link


def listed_urls(path: str) -> list[Listed]:
    """Every distinct http(s) URL in the file, in order, outside code blocks."""
    text = read_text(path)
    kind = sniff(path, text)
    document = extract_document(path, text, "text" if kind == "corpus" else kind)
    out: list[Listed] = []
    seen: set[str] = set()
    for link in document.links:
        if link.in_code or not link.url.lower().startswith(("http://", "https://")) or link.url in seen:
            continue
        seen.add(link.url)
        title = " ".join(link.text.split())
        candidate = Candidate(link.url, "" if title == link.url else title, "", f"listed in {path}", "urls", len(out) + 1)
        out.append(Listed(candidate, link))
    return out


class UrlList:
    """A file of URLs behind the provider interface: every query returns the whole list."""

    name = "urls"

    def __init__(self, path: str) -> None:
        self.path = path
        self.listed = listed_urls(path)

    async def search(self, query: str, limit: int) -> list[Candidate]:
        return [item.candidate for item in self.listed[:limit]]

    async def aclose(self) -> None:
        return None
