"""A URL written into a memo that cites from a corpus: only `[src-NNN]` IDs may stand for sources.

The writer's contract is to cite corpus IDs and never write a URL. `citecheck write` removes
every URL of a draft (Markdown and HTML links, autolinks, reference and footnote definitions,
bare, `www.` and schemeless `domain.tld/path` forms, protocol-relative, defanged, zero-width-split
and full-width spellings, URLs in code, comments and HTML attributes, DOIs) and reports each
removal here; corpus URLs count too unless `--hybrid` turns them into footnotes.

In `audit --corpus` the rule reports the URL-shaped text that is not a visible link and not a
corpus entry (obfuscated spellings, code, comments, attributes, DOIs): what `write` would remove
and M007 uncorpused-url cannot see. `report_links: true` reports visible links as well;
`allow_corpus_urls: false` reports corpus URLs too (inside code they are always reported: code
cannot carry a footnote, so `write` removes them). The citation list `write` appends is
checked in both: a URL there must be a corpus URL. Without a corpus the rule stays silent.

Failing example (the URL is not in the corpus; in code, so only M009 sees it in audit):

    Revenue doubled in 2024 (see `https://acme-investors.net/ar-2024`).

Passing example:

    Revenue doubled in 2024 [src-007].
"""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Document, Hit, Location

if TYPE_CHECKING:  # the write gate is imported when a corpus is given, not for every audit
    from citecheck.urltext.scrub import Removal

ID = "M009"
NAME = "draft-url"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "uncorpused"
WRITE = "contract"  # write always runs it (built from its own removals), whatever --select/--ignore say
DEFAULTS: dict[str, Any] = {"allow_corpus_urls": True, "report_links": False}
_VISIBLE = ("http://", "https://")  # the links M007 uncorpused-url reports in audit
OPTIONS = {"allow_corpus_urls": "corpus URLs are not reported (write sets false unless --hybrid)",
           "report_links": "also report visible links, which M007 already reports (write sets true)"}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if memo.corpus is None:
        return
    from citecheck.urltext.corpusindex import CorpusIndex
    from citecheck.urltext.violations import url_violations

    allow = bool(options.get("allow_corpus_urls", True))
    removals = url_violations(memo.document.text, CorpusIndex(memo.corpus), allow_corpus=allow)
    yield from hits(memo.document, removals, bool(options.get("report_links")))


def hits(document: Document, removals: Iterable[Removal], report_links: bool = True) -> Iterator[Hit]:
    """One hit per removal (`write` calls this with the removals it made)."""
    from citecheck.urltext.corpusindex import url_key
    from citecheck.urltext.regions import line_offsets
    from citecheck.urltext.scrub import CORPUS_URL
    from citecheck.urltext.violations import written_key

    starts = line_offsets(document.text)
    seen = set() if report_links else {(link.location.line, url_key(link.url)) for link in document.links
                                       if not link.in_code and link.url.lower().startswith(_VISIBLE)}
    for removal in removals:
        line = bisect.bisect_right(starts, removal.at)
        if (line, written_key(removal)) in seen:
            continue
        where = Location(document.path, line, removal.at - starts[line - 1] + 1)
        if removal.reason == CORPUS_URL:
            yield Hit(f"URL of corpus entry {removal.source_id} written into the draft; cite [{removal.source_id}]",
                      where, removal.url, evidence=removal.kind, fix=f"[{removal.source_id}]")
        else:
            yield Hit(f"URL written into the draft is not in the corpus ({removal.kind}); write removes it",
                      where, removal.url, evidence=removal.kind)
