"""Strict URL removal: every URL written into a draft goes, replaced by a `<needs-source/>` marker.

Two phases over the draft body. First the link constructs (`structure.py`, `htmltags.py`):
the destination goes and the link text stays (`[text](bad)` → `text<needs-source …/>`). Then
every URL-shaped span left in the result (`detect.py`: prose, code, comments, obfuscated
forms) is replaced. Phase-two positions are mapped back to the draft, so every removal is
reported where it was written. In hybrid mode a URL that is a corpus entry becomes that
entry's `[src-NNN]` citation instead (outside code), and is not a violation.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from citecheck.extract.markers import SOURCE_GROUP_RE
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.detect import normalise_url, url_spans
from citecheck.urltext.htmltags import html_tags
from citecheck.urltext.regions import Regions, literal_regions
from citecheck.urltext.shadow import shadow_text
from citecheck.urltext.structure import Construct, autolinks, links, reference_definitions
from citecheck.urltext.weave import Weaver

UNCORPUSED = "uncorpused-url"
CORPUS_URL = "url-instead-of-id"
CITED = "cited"
_PRIORITY = {"refdef": 0, "inline": 1, "image": 1, "anchor": 2, "tag": 2, "autolink": 3, "refuse": 4}


def marker(reason: str) -> str:
    return f'<needs-source reason="{reason}"/>'


@dataclass(frozen=True)
class Removal:
    """One URL taken out of the draft: where it was written and what replaced it."""

    at: int  # offset in the draft where the URL was written
    url: str  # the URL as written (a destination, an attribute value, a span)
    kind: str  # construct kind (inline, image, refdef, autolink, anchor, tag) or span kind
    reason: str  # uncorpused-url | url-instead-of-id | cited
    source_id: str = ""  # the corpus entry the URL belongs to, if any


@dataclass(frozen=True)
class Scrubbed:
    text: str
    removals: tuple[Removal, ...]


def scrub(body: str, index: CorpusIndex, *, hybrid: bool = False, remove: bool = True) -> Scrubbed:
    """Remove (or, with remove=False, only report) every URL in `body`."""
    literal = literal_regions(body)
    decided = _decide(body, _constructs(body, literal), index, hybrid)
    weaver = Weaver(body)
    removals: list[Removal] = []
    for con, reason, sid in decided:
        if con.kind != "refuse":
            removals.append(Removal(con.dest_at, con.dest, con.kind, reason, sid))
            removals.extend(Removal(at, value, con.kind, _attr_reason(value, index)) for value, at in con.more)
        if remove or reason == CITED:
            suffix = "" if (con.kind == "refdef" and reason == CITED) else _suffix(reason, sid)  # uses cite it
            weaver.replace(con.start, con.end, con.keep, con.keep_text + suffix)
    first = weaver.result()
    second = Weaver(first.text)
    second_literal = literal_regions(first.text)
    for span in url_spans(first.text):
        sid = index.lookup(span.url)
        in_code = span.start in second_literal
        reason = CITED if (hybrid and sid and not in_code) else (CORPUS_URL if sid else UNCORPUSED)
        removals.append(Removal(first.to_original(span.start), first.text[span.start:span.end], span.kind, reason, sid))
        if remove or reason == CITED:
            second.replace(span.start, span.end, None, _suffix(reason, sid))
    removals.sort(key=lambda r: r.at)
    return Scrubbed(second.result().text, tuple(removals))


def _attr_reason(value: str, index: CorpusIndex) -> str:
    return CORPUS_URL if index.lookup(normalise_url(shadow_text(value).strip())) else UNCORPUSED


def _suffix(reason: str, sid: str) -> str:
    return f"[{sid}]" if reason == CITED else marker(reason)


def _constructs(body: str, literal: Regions) -> list[Construct]:
    definitions = reference_definitions(body, literal)
    found = links(body, literal, {d.label for d in definitions}) + definitions + autolinks(body, literal)
    found += html_tags(body, literal)
    found.sort(key=lambda c: (c.start, -c.end, _PRIORITY[c.kind]))
    kept: list[Construct] = []
    active: list[Construct] = []  # kept constructs that may still contain later ones
    for con in found:
        active = [a for a in active if a.end > con.start]
        if not any(_inside_removed(con.start, other) for other in active):
            kept.append(con)
            active.append(con)
    return kept


def _inside_removed(offset: int, con: Construct) -> bool:
    if not con.start <= offset < con.end:
        return False
    return con.keep is None or not con.keep[0] <= offset < con.keep[1]


def _decide(body: str, constructs: list[Construct], index: CorpusIndex,
            hybrid: bool) -> list[tuple[Construct, str, str]]:
    """Which constructs go, and why; reference uses follow their definition."""
    out: list[tuple[Construct, str, str]] = []
    removed_labels: dict[str, tuple[str, str]] = {}
    for con in constructs:
        if con.kind == "refuse" or not con.dest.strip() or con.dest.strip().startswith("#"):
            continue
        sid = index.lookup(normalise_url(shadow_text(con.dest).strip()))
        reason = CITED if (hybrid and sid) else (CORPUS_URL if sid else UNCORPUSED)
        out.append((_keep_brackets(body, con), reason, sid))
        if con.kind == "refdef":
            removed_labels[con.label] = (reason, sid)
    for con in constructs:
        if con.kind == "refuse" and con.label in removed_labels and not SOURCE_GROUP_RE.fullmatch(
                body[con.start:con.end]):
            out.append((_keep_brackets(body, con), *removed_labels[con.label]))
    out.sort(key=lambda item: item[0].start)
    return out


def _keep_brackets(body: str, con: Construct) -> Construct:
    """Link text that is itself a citation (`[src-007](bad)`) keeps its brackets."""
    if con.keep and con.kind in ("inline", "refuse") and SOURCE_GROUP_RE.fullmatch(
            body[con.keep[0] - 1:con.keep[1] + 1]):
        return replace(con, keep=(con.keep[0] - 1, con.keep[1] + 1))
    return con
