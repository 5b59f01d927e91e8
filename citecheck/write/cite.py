"""Swap `[src-NNN]` citations for `[^N]` footnotes numbered by first use.

`[src-007]`, `[src-007, src-012]` and `[src-007][src-012]` (adjacent groups are one citation)
become `[^1]`, `[^1][^2]`; an ID the corpus does not hold becomes `<needs-source claim="…"/>`
carrying the sentence it was meant to support, so a reviewer sees the unsupported claim
instead of losing it. Citations inside code and HTML comments are text and stay as written.
Labels the writer already uses for their own footnotes are skipped when numbering.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from citecheck.models import Source
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.regions import literal_regions
from citecheck.write.claims import sentence_before

_RUN_RE = re.compile(r"(?:\[src-\d{3,}(?:\s*[,;]\s*src-\d{3,})*\])+", re.IGNORECASE)
_ID_RE = re.compile(r"src-\d{3,}", re.IGNORECASE)
_LABEL_RE = re.compile(r"\[\^([^\[\]\s]+)\]")


@dataclass(frozen=True)
class Cited:
    text: str
    numbered: tuple[tuple[str, Source], ...]  # (footnote label, source) in first-use order
    unknown: tuple[str, ...]  # IDs not in the corpus, in order of appearance


def restore_labels(body: str, labels: dict[str, str]) -> str:
    """Turn the footnotes a previous run generated back into `[src-NNN]` citations."""
    if not labels:
        return body
    defined = set(re.findall(r"^ {0,3}\[\^([^\]\s]+)\]:", body, re.MULTILINE))
    literal = literal_regions(body)

    def swap(m: re.Match[str]) -> str:
        label = m.group(1)
        if label in labels and label not in defined and m.start() not in literal and body[m.end():m.end() + 1] != ":":
            return f"[{labels[label]}]"
        return m.group(0)

    return _LABEL_RE.sub(swap, body)


def cite(body: str, index: CorpusIndex) -> Cited:
    """Number known IDs as footnotes and turn unknown ones into needs-source markers."""
    literal = literal_regions(body)
    reserved = set(_LABEL_RE.findall(body))
    labels: dict[str, str] = {}
    numbered: list[tuple[str, Source]] = []
    unknown: list[str] = []
    counter = 0

    def label_for(sid: str) -> str:
        nonlocal counter
        if sid not in labels:
            counter += 1
            while str(counter) in reserved:
                counter += 1
            labels[sid] = str(counter)
            numbered.append((labels[sid], index.sources[sid]))
        return labels[sid]

    def swap(m: re.Match[str]) -> str:
        if m.start() in literal:
            return m.group(0)
        ids = list(dict.fromkeys(i.lower() for i in _ID_RE.findall(m.group(0))))
        known = [label_for(i) for i in ids if index.source(i)]
        missing = [i for i in ids if not index.source(i)]
        unknown.extend(missing)
        refs = "".join(f"[^{label}]" for label in known)
        retired = [i for i in missing if i in index.retired]
        return refs + (needs_source(sentence_before(body, m.start(), m.end()), retired_marks(retired, index))
                       if missing else "")

    text = _RUN_RE.sub(swap, body)
    return Cited(text, tuple(numbered), tuple(unknown))


def retired_marks(ids: list[str], index: CorpusIndex) -> str:
    """'src-007 retired 2026-11-30 (http-error)': when and by which rule each ID was retired. No
    reason text or URL: the retired source's URL is not in the corpus, and write's output never
    holds such a URL."""
    out = []
    for sid in ids:
        record = index.retired[sid]
        when = str(record.get("retired_at") or "")[:10]
        rule = re.sub(r"[^A-Za-z0-9-]", "", str(record.get("rule") or ""))[:40]
        out.append(f"{sid} retired" + (f" {when}" if re.fullmatch(r"\d{4}-\d{2}-\d{2}", when) else "")
                   + (f" ({rule})" if rule else ""))
    return "; ".join(out)


def needs_source(claim: str, retired: str = "") -> str:
    """The marker for an unsupported claim (attribute-escaped); `retired` says which cited IDs were
    retired from the corpus (dead on evidence), so the reviewer knows the source existed."""
    extra = f' retired="{html.escape(retired, quote=True)}"' if retired else ""
    if not claim:
        return f'<needs-source reason="unknown-source-id"{extra}/>'
    return f'<needs-source claim="{html.escape(claim, quote=True)}"{extra}/>'
