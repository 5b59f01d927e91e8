"""Corpus in and out: vet an existing corpus before appending, build entries, write atomically.

Entry fields follow DESIGN.md: the URL as the search tool gave it (`url`), where it landed
(`final_url`), the page's declared `rel=canonical` made absolute (`canonical_url`, the final URL
when none is declared), the `dedupe_key`, fetch facts, the main-text `body_excerpt`, a `summary`
from the page's own description or leading sentences, and where it came from
(`retrieval_query`, `retrieval_tool`, `section`, `snippet`).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from citecheck._util.atomic import atomic_write
from citecheck.engine.run import Engine
from citecheck.errors import CorpusError
from citecheck.extract import load_corpus
from citecheck.harvest.providers.base import Candidate
from citecheck.harvest.transaction import pending
from citecheck.models import Corpus, Page, Severity, Source
from citecheck.scholarly.records import Record
from citecheck.urls import dedupe_key, host_of, registrable_domain

SUMMARY_MAX = 400
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'“‘(])")


def load_existing(path: str | Path, engine: Engine) -> Corpus | None:
    """The corpus at `path` if there is one, refusing one with an error from a rule that declares
    `BLOCKS_APPEND` (C001 schema, C004 id-integrity; E000, a rule that crashed on it), or whose last
    write was interrupted (`transaction.pending`)."""
    pending(path)
    if not Path(path).exists():
        return None
    corpus = load_corpus(str(path))
    refuse = {rule.spec.id for rule in engine.active if rule.spec.blocks_append}
    bad = [f for f in engine.check_corpus(corpus) if f.severity is Severity.ERROR and f.rule in refuse]
    if bad:
        first = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise CorpusError(f"{first.path}:{first.line}: {first.rule} {first.name}: {first.message}{more}; refusing to "
                          "append to a corpus that fails its checks (fix it, or write to a new file with -o)")
    return corpus


def canonical_of(page: Page) -> str:
    """The declared rel=canonical, absolute, when it is trustworthy; else the final URL.

    Ignored when it points to another site or to the home page of a deeper URL (a common CMS
    misconfiguration that would fold every article of a site into one source)."""
    base = page.final_url or page.url
    declared = urljoin(base, page.canonical.strip()) if page.canonical.strip() else ""
    if not declared.startswith(("http://", "https://")):
        return base
    if registrable_domain(host_of(declared)) != registrable_domain(host_of(base)):
        return base
    if urlsplit(declared).path in ("", "/") and urlsplit(base).path not in ("", "/"):
        return base
    return declared


def summarize(page: Page, main_text: str) -> str:
    """The page's own description (meta, og:, twitter:), else its leading sentences. Never generated."""
    for key in ("description", "og:description", "twitter:description"):
        value = " ".join(str(page.meta.get(key, "")).split())
        if len(value) >= 20:
            return value[:SUMMARY_MAX]
    text = " ".join(main_text.split())
    out = ""
    for sentence in _SENTENCE.split(text):
        if out and len(out) + len(sentence) > SUMMARY_MAX:
            break
        out = f"{out} {sentence}".strip()
        if len(out) >= 160:
            break
    return out[:SUMMARY_MAX]


def build_source(source_id: str, candidate: Candidate, page: Page, section: str, main_text: str,
                 record: Record | None = None) -> Source:
    """The corpus entry of a passing candidate; a registry's `record` adds authors, year, venue and
    identifier (`citecheck.harvest.scholarly`)."""
    extra: dict[str, Any] = {"dedupe_key": dedupe_key(canonical_of(page))}
    if record is not None:
        from citecheck.harvest.scholarly import record_fields

        extra.update(record_fields(record, candidate.url))
    return Source(id=source_id, url=candidate.url, canonical_url=canonical_of(page),
                  title=page.title or page.meta.get("og:title", "") or candidate.title, fetched_at=page.fetched_at,
                  body_excerpt=main_text, summary=summarize(page, main_text), retrieval_query=candidate.query,
                  retrieval_tool=candidate.tool, final_url=page.final_url or page.url, status=page.status,
                  content_hash=page.content_hash, section=section, snippet=candidate.snippet,
                  extra=extra)


def render(sources: Iterable[Source]) -> str:
    return json.dumps([s.to_dict() for s in sources], indent=2, ensure_ascii=False) + "\n"


def write_corpus(path: str | Path, sources: Iterable[Source]) -> None:
    atomic_write(path, render(sources))
