"""One frozen dataclass per concept: what flows between extract, engine, fetch and report."""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based position in a file."""

    path: str
    line: int = 1
    column: int = 1


class LinkKind(str, enum.Enum):
    """How a URL appears in a document."""

    INLINE = "inline"  # [text](url)
    IMAGE = "image"  # ![alt](url)
    AUTOLINK = "autolink"  # <https://...>
    REFERENCE = "reference"  # [label]: url
    FOOTNOTE = "footnote"  # URL inside a footnote definition
    HTML = "html"  # <a href> / <img src>
    BARE = "bare"  # https://... in prose
    WWW = "www"  # www.host/path without scheme
    DOMAIN = "domain"  # host.tld/path without scheme
    DEFANGED = "defanged"  # hxxps://, example[.]com
    EMAIL = "email"  # ir@acme.com in prose: renderers make it a mailto: link
    CORPUS = "corpus"  # url field of a corpus entry
    BIBLIOGRAPHY = "bibliography"  # url, howpublished or note field of a bibliography entry (CSL: URL)


@dataclass(frozen=True)
class Link:
    """One URL occurrence with its position and surroundings."""

    url: str
    location: Location
    kind: LinkKind = LinkKind.BARE
    text: str = ""
    in_code: bool = False
    raw: str = ""  # the URL as written, before normalisation (defanged, schemeless)
    section: str = ""  # heading the link sits under

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "kind": self.kind.value,
            "text": self.text,
            "in_code": self.in_code,
            "raw": self.raw or self.url,
            "section": self.section,
        }


@dataclass(frozen=True)
class Marker:
    """A `<needs-source/>`, `<insufficient-data/>`, `[src-NNN]` or Pandoc `[@key]` token in a memo."""

    kind: str  # needs-source | insufficient-data | source-id | needs-deeper-grounding | citation | in-text-citation
    value: str
    location: Location
    section: str = ""
    in_code: bool = False


@dataclass(frozen=True)
class TextSpan:
    """A run of prose with where it starts; used by text rules (firm leaks, claims)."""

    text: str
    location: Location
    section: str = ""


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    location: Location


@dataclass(frozen=True)
class FootnoteRef:
    label: str
    location: Location
    is_definition: bool


@dataclass(frozen=True)
class Directive:
    """An inline `<!-- citecheck: ... -->` comment."""

    action: str  # disable | disable-file | enable
    rules: tuple[str, ...]
    location: Location
    target_line: int  # line the directive applies to (next non-blank line); 0 for file-wide
    reason: str = ""
    until: str = ""


@dataclass(frozen=True)
class Document:
    """An extracted memo: links, markers, prose, headings, front matter, directives."""

    path: str
    text: str
    format: str  # markdown | html | text
    links: tuple[Link, ...] = ()
    markers: tuple[Marker, ...] = ()
    spans: tuple[TextSpan, ...] = ()
    headings: tuple[Heading, ...] = ()
    footnotes: tuple[FootnoteRef, ...] = ()
    directives: tuple[Directive, ...] = ()
    front_matter: Mapping[str, Any] = field(default_factory=dict)
    # where the structure goes beyond a parser limit (depth, paragraph size): content there was read as text
    too_deep: tuple[Location, ...] = ()

    @property
    def title(self) -> str:
        first_h1 = next((h.text for h in self.headings if h.level == 1), "")
        return first_h1


@dataclass(frozen=True)
class Source:
    """One entry of `sourced_corpus.json`."""

    id: str
    url: str
    canonical_url: str = ""
    title: str = ""
    fetched_at: str = ""
    body_excerpt: str = ""
    summary: str = ""
    retrieval_query: str = ""
    retrieval_tool: str = ""
    final_url: str = ""
    status: int | None = None
    content_hash: str = ""
    section: str = ""
    snippet: str = ""
    line: int = 1
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k not in ("line", "extra")}
        data.update(self.extra)
        return data


@dataclass(frozen=True)
class Corpus:
    """A loaded corpus: its entries in file order and the raw records for schema checks."""

    path: str
    sources: tuple[Source, ...] = ()
    records: tuple[Mapping[str, Any], ...] = ()
    lines: tuple[int, ...] = ()  # 1-based line where each record starts
    # IDs the corpus's registry (`<corpus>.ids`) retired, dead on evidence: ID → its retired-list
    # record (url, retired_at, rule, reason, evidence); never citable, never "invented"
    retired: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def by_id(self) -> dict[str, Source]:
        return {s.id: s for s in self.sources}

    def urls(self) -> set[str]:
        found: set[str] = set()
        for s in self.sources:
            found.update(u for u in (s.url, s.canonical_url, s.final_url) if u)
        return found


EXCLUDED_BY_CONFIG = "excluded-by-config"  # Page.error of a URL `exclude-urls` / `--exclude-url` kept from the fetch


class Outcome(str, enum.Enum):
    """The closed set of fetch outcomes."""

    OK = "ok"  #: the URL answered with content
    DEAD = "dead"  #: the resource does not exist (404/410, NXDOMAIN, 5xx after retries)
    UNVERIFIABLE = "unverifiable"  #: blocked, rate-limited, timed out: not proven dead
    EXCLUDED = "excluded"  #: refused by the guard or excluded by config, never fetched
    UNSUPPORTED = "unsupported"  #: scheme or content the fetcher does not handle
    ERROR = "error"  #: citecheck itself failed on this URL


@dataclass(frozen=True)
class Hop:
    url: str
    status: int
    location: str = ""


@dataclass(frozen=True)
class Page:
    """The facts of one fetch (what the cache stores): never a verdict."""

    url: str
    outcome: Outcome
    status: int | None = None
    final_url: str = ""
    chain: tuple[Hop, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    content_type: str = ""
    title: str = ""
    canonical: str = ""
    text_sample: str = ""  # bounded visible text
    html_sample: str = ""  # bounded raw head/body for marker checks
    content_hash: str = ""
    content_length: int | None = None
    fetched_at: str = ""
    wire_bytes: int | None = None  # body bytes read off the wire (None: no body was read, or not recorded)
    body_bytes: int | None = None  # body bytes after decoding (what the caps let through)
    error: str = ""  # reason for a non-ok outcome (e.g. "nxdomain", "timeout", "rate-limited")
    elapsed_ms: float = 0.0
    meta: Mapping[str, str] = field(default_factory=dict)  # description, og:title, og:site_name, json-ld flags
    archived: bool | None = None  # Wayback Machine has a snapshot (None: not asked)
    snapshot_url: str = ""
    sibling_text: str | None = None  # text of a random non-existent path on the same host
    sibling_status: int | None = None
    sibling_shape: str = ""  # fingerprint of that path's answer (support.shape.page_shape)
    from_cache: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["outcome"] = self.outcome.value
        data["chain"] = [asdict(h) for h in self.chain]
        data["headers"] = dict(self.headers)
        data["meta"] = dict(self.meta)
        return data


class Verdict(str, enum.Enum):
    """What a finding means for the cited link or work: declared by its rule (`VERDICT`, or per hit),
    stamped on the `Finding` by the engine, read by the score, the reports, the harvest gate and curation.
    The citation-truth score weighs each in `citecheck.score.WEIGHTS`."""

    FABRICATED = "fabricated"  #: no real source: a placeholder or invented URL, a likely-fabricated citation
    INVALID = "invalid"  #: the URL cannot be a source as written: malformed, bad scheme or suffix, private address
    DEAD = "dead"  #: gone, on evidence from the other side: a 4xx, a corroborated NXDOMAIN, a parked domain
    SOFT_404 = "soft-404"  #: answers 200 but serves a not-found or error page
    UNKNOWN_ID = "unknown-id"  #: a source ID the corpus does not hold
    ROTTED = "rotted"  #: the page changed or vanished since the corpus fetched it
    TITLE_MISMATCH = "title-mismatch"  #: the page is about something else than the link promised
    UNVERIFIABLE = "unverifiable"  #: not proven either way now: a wall, a bot challenge, a timeout, a script shell
    UNCORPUSED = "uncorpused"  #: a URL that never went through the corpus gate
    SCHEMELESS = "schemeless"  #: a URL written without its scheme
    UNSUPPORTED = "unsupported"  #: a claim its cited source does not back (an item of the score of its own)
    NEEDS_SOURCE = "needs-source"  #: a claim its writer marked as lacking a source (an item of its own)
    ADVISORY = "advisory"  #: the citation stands; the finding is advice (a redirect to follow, a non-HTML answer)
    MEMO = "memo"  #: about the memo's text, not a citation (a firm leak, a watermark name, footnotes, markers)
    CORPUS = "corpus"  #: about a corpus entry or file (schema, duplicates, staleness, IDs)
    INPUT = "input"  #: about citecheck's own input or run (a crashed rule, a bad directive, an unreadable file)


class Gate(str, enum.Enum):
    """How the harvest gate (`--gate strict|default|lenient`) treats a finding: declared by its rule
    (`GATE`, default `severity`, or per hit); `citecheck.harvest.gate` and `.evidence` read it."""

    SEVERITY = "severity"  #: by severity alone (strict: warnings and errors, default: errors, lenient: none)
    GONE = "gone"  #: the world says the source is not there: also an error under lenient; retires a corpus source
    RETIRES = "retires"  #: by severity, and retires a corpus source (the URL as written can never work)
    BLOCKED = "blocked"  #: cannot be used now, without proof it is gone: also an error under lenient; never retires
    UNVERIFIABLE = "unverifiable"  #: cannot be judged now (a script shell): rejected except under lenient
    WALL = "wall"  #: a wall hides the text (hard paywall, login): rejected under every gate
    ACCESS = "access"  #: a soft wall over text that is there (metered, registration): kept, noted as its access


class Fault(str, enum.Enum):
    """What a finding says about the run itself rather than the memo: declared by the engine's own rules
    (`RuleSpec.fault`, `citecheck.engine.meta`), stamped on the `Finding`; the exit code, JUnit, the
    baseline, inline suppression and selection read it."""

    NONE = "none"  #: a finding about the input, as every rule's is
    UNAUDITED = "unaudited"  #: an input could not be audited (the others were): the run exits 2
    #: citecheck failed on an input (a rule raised, a worker was lost): the run exits 2; always selected,
    #: never suppressed inline nor hidden by a baseline; a JUnit `<error>`, not a `<failure>`
    CRASH = "crash"


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


@dataclass(frozen=True)
class Hit:
    """What a rule yields; the engine turns it into a Finding."""

    message: str
    location: Location
    url: str = ""
    evidence: str = ""
    fix: str = ""  # suggested replacement (e.g. the redirect target)
    severity: Severity | None = None  # per-finding intent; a severity set in config wins
    verdict: Verdict | None = None  # per-finding meaning, when the rule's findings differ (else its VERDICT)
    gate: Gate | None = None  # per-finding harvest treatment (else the rule's GATE)
    compared: tuple[tuple[Any, ...], ...] = ()  # rows of COMPARED: a claim beside a record, field by field (R002)


COMPARED = ("field", "claimed", "record", "agrees", "why")  # a Finding.compared row (R002: title, authors, year)


@dataclass(frozen=True, order=True)
class Finding:
    """One problem: the stable machine contract of every report format."""

    path: str
    line: int
    column: int
    rule: str
    name: str = field(compare=False)
    severity: Severity = field(compare=False, default=Severity.ERROR)
    message: str = field(compare=False, default="")
    url: str = field(compare=False, default="")
    evidence: str = field(compare=False, default="")
    fix: str = field(compare=False, default="")
    section: str = field(compare=False, default="")
    verdict: Verdict = field(compare=False, default=Verdict.ADVISORY)
    gate: Gate = field(compare=False, default=Gate.SEVERITY)
    stage: str = field(compare=False, default="")  # its rule's STAGE (url, page, memo, …, engine)
    fault: Fault = field(compare=False, default=Fault.NONE)
    compared: tuple[tuple[Any, ...], ...] = field(compare=False, default=())  # COMPARED rows: a claim beside a record

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract (`gate`, `stage` and `fault` are the run's business and stay out of it;
        `compared` only when the finding compares a claim with a record)."""
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "url": self.url,
            "evidence": self.evidence,
            "fix": self.fix,
            "section": self.section,
            "verdict": self.verdict.value,
            **({"compared": [dict(zip(COMPARED, row, strict=False)) for row in self.compared]} if self.compared else {}),
        }

    def to_record(self) -> dict[str, Any]:
        """`to_dict` with what the JSON contract leaves out, for a store that reads it back (`from_dict`)."""
        return {**self.to_dict(), "gate": self.gate.value, "stage": self.stage, "fault": self.fault.value}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Finding:
        """The finding `to_dict` (plus an optional `gate`, `stage`, `fault`: `to_record`) describes; a
        dict from before verdicts existed reads as advisory."""
        return cls(str(d.get("path", "")), int(d.get("line", 1)), int(d.get("column", 1)), str(d.get("rule", "")),
                   str(d.get("name", "")), Severity(d.get("severity", "error")), str(d.get("message", "")),
                   str(d.get("url", "")), str(d.get("evidence", "")), str(d.get("fix", "")), str(d.get("section", "")),
                   Verdict(d.get("verdict", "advisory")), Gate(d.get("gate", "severity")), str(d.get("stage", "")),
                   Fault(d.get("fault", "none")), tuple(tuple(c.get(k, "") for k in COMPARED) for c in d.get("compared") or ()))


@dataclass(frozen=True)
class BibEntry:
    """One entry of a bibliography (`.bib`, CSL-JSON, CSL-YAML `references:`): its key, what it says
    about the work, and where it starts (the `@type{key,` line, or the CSL item's `{`)."""

    key: str
    type: str  # article, book, misc, … (BibTeX) or the CSL type
    location: Location
    title: str = ""
    authors: tuple[str, ...] = ()  # as written: 'Smith, John', 'World Health Organization'
    year: int | None = None
    doi: str = ""
    url: str = ""
    arxiv: str = ""  # eprint with archivePrefix arXiv, or an arXiv ID the entry names
    venue: str = ""  # journal, booktitle, container-title, publisher
    fields: Mapping[str, str] = field(default_factory=dict)  # every field as written (LaTeX kept)


@dataclass(frozen=True)
class Bibliography:
    """A loaded bibliography: its entries in file order (repeated keys included) and the blocks that
    could not be read (`(location, why)`)."""

    path: str
    format: str  # bibtex | csl-json | csl-yaml
    entries: tuple[BibEntry, ...] = ()
    unreadable: tuple[tuple[Location, str], ...] = ()
    links: tuple[Link, ...] = ()  # the URLs its entries write, where they write them (`extract.biblinks`)
