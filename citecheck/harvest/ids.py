"""Source IDs: `src-NNN`, stable across runs, never reused.

A known source (matched on the dedupe key of its URL, final URL or canonical URL) keeps its ID; a
new one gets the next number above the high-water mark. The mark lives in a sidecar file beside
the corpus (`<corpus>.ids`), so an ID whose source was dropped is retired, not handed out again.
The mark is also never below the largest ID in the corpus, so a crash between writing the corpus
and the sidecar cannot cause reuse.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from citecheck.atomic import atomic_write
from citecheck.errors import CorpusError
from citecheck.models import Corpus
from citecheck.urls import dedupe_key

ID_RE = re.compile(r"^src-(\d{3}|[1-9]\d{3,})$")


def format_id(number: int) -> str:
    """`src-007`, `src-999`, `src-1000`: zero-padded to three digits, widened past 999."""
    return f"src-{number:03d}"


def id_number(source_id: str) -> int | None:
    match = ID_RE.match(source_id)
    return int(match.group(1)) if match else None


def sidecar(corpus_path: str | Path) -> Path:
    return Path(f"{corpus_path}.ids")


def identity_keys(*urls: str) -> list[str]:
    return [dedupe_key(u) for u in urls if u]


@dataclass
class IdBook:
    """Known identities -> IDs, and the high-water mark."""

    by_key: dict[str, str] = field(default_factory=dict)
    high_water: int = 0
    issued: list[str] = field(default_factory=list)

    @classmethod
    def from_corpus(cls, corpus: Corpus | None, corpus_path: str | Path | None) -> IdBook:
        book = cls()
        if corpus is not None:
            for source in corpus.sources:
                number = id_number(source.id)
                if number is None:
                    raise CorpusError(f"{corpus.path}:{source.line}: id {source.id!r} is not src-NNN; "
                                      "refusing to append (fix the corpus or write to a new file)")
                book.high_water = max(book.high_water, number)
                for key in identity_keys(source.url, source.final_url, source.canonical_url):
                    book.by_key.setdefault(key, source.id)
        if corpus_path is not None:
            book.high_water = max(book.high_water, read_high_water(corpus_path))
        return book

    def lookup(self, urls: Iterable[str]) -> str | None:
        return next((self.by_key[k] for k in identity_keys(*urls) if k in self.by_key), None)

    def assign(self, urls: Iterable[str]) -> str:
        """The known ID of any of these URLs, or a new one."""
        urls = list(urls)
        known = self.lookup(urls)
        if known is not None:
            return known
        self.high_water += 1
        new = format_id(self.high_water)
        self.issued.append(new)
        for key in identity_keys(*urls):
            self.by_key.setdefault(key, new)
        return new


def read_high_water(corpus_path: str | Path) -> int:
    path = sidecar(corpus_path)
    if not path.exists():
        return 0
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return int(data["high_water"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise CorpusError(f"{path}: unreadable ID high-water file ({err}); restore it or delete it only if no "
                          "ID from this corpus was ever dropped") from None


def write_high_water(corpus_path: str | Path, high_water: int) -> None:
    payload = {"version": 1, "high_water": high_water, "next": format_id(high_water + 1),
               "note": "citecheck harvest: IDs up to high_water were issued; none is ever reused"}
    atomic_write(sidecar(corpus_path), json.dumps(payload, indent=2) + "\n")
