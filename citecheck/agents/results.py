"""What the agent tools return: one frozen dataclass per answer, documented field by field.

The MCP server publishes these as the tools' output schemas (pydantic reads the attribute
docstrings: `__pydantic_config__` is a plain dict, so this module needs no pydantic); the Python
hooks return the same objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_DOCS: Any = {"use_attribute_docstrings": True}


@dataclass(frozen=True)
class ReasonInfo:
    """Why the gate turned a URL down: an engine finding, the fetch outcome or the title check."""

    __pydantic_config__ = _DOCS
    stage: str
    """preflight | robots | fetch | page | title"""
    rule: str
    """rule ID (U001, H003 …), empty for the harvest's own checks"""
    name: str
    """rule slug, or fetch-<outcome> / title-contradiction / thin-excerpt"""
    severity: str
    """error | warning | info"""
    message: str
    """one line"""
    evidence: str = ""
    """what was seen: a status, a matched title, a marker"""


@dataclass(frozen=True)
class SourceCard:
    """A source that earned an ID: what an agent needs to pick it (the excerpt is short)."""

    __pydantic_config__ = _DOCS
    id: str
    """src-NNN: the only thing a writer may cite"""
    title: str
    """the fetched page title"""
    url: str
    """the URL as it was given to the gate"""
    excerpt: str
    """the first few hundred characters of the page's main text"""
    section: str = ""
    """the section the source belongs to"""
    access: str = ""
    """'', or metered / registration: the text is present behind a soft wall"""
    stale: bool = False
    """true when the source could not be verified again (kept with its last good facts)"""
    new: bool = False
    """true when the source earned its ID in this call"""


@dataclass(frozen=True)
class RejectedUrl:
    """A URL the gate turned down, with every reason, the strongest first."""

    __pydantic_config__ = _DOCS
    url: str
    reasons: list[ReasonInfo]
    """every reason that rejected it, strongest first"""
    previous_id: str = ""
    """the ID it had, when a corpus source is retired now"""


@dataclass(frozen=True)
class SearchResult:
    """search_sources: the section's sources that hold IDs after the search, and what was turned down."""

    __pydantic_config__ = _DOCS
    query: str
    section: str
    """the corpus section the sources belong to"""
    providers: list[str]
    """the search providers asked"""
    sources: list[SourceCard]
    """validated sources of the section (new: earned the ID in this call); nothing unvalidated"""
    rejected: int
    """how many candidates the gate turned down"""
    rejected_by_reason: dict[str, int]
    """rejections counted by their strongest reason (rule ID or check name)"""
    rejects: list[RejectedUrl] = field(default_factory=list)
    """the first rejections with their reasons (at most 20)"""
    warnings: list[str] = field(default_factory=list)
    """provider failures the search went on without, and other notes"""
    corpus_size: int = 0
    """sources in the corpus file after the call"""


@dataclass(frozen=True)
class UrlOutcome:
    """What the gate did with one URL of add_sources."""

    __pydantic_config__ = _DOCS
    url: str
    status: str
    """kept (holds an ID) | rejected | merged (reached a page the corpus already holds under another URL)"""
    source: SourceCard | None = None
    """the corpus source, when kept"""
    reasons: list[ReasonInfo] = field(default_factory=list)
    """why it was rejected"""


@dataclass(frozen=True)
class AddResult:
    """add_sources: one outcome per distinct URL given, in order."""

    __pydantic_config__ = _DOCS
    section: str
    results: list[UrlOutcome]
    kept: int
    rejected: int
    warnings: list[str] = field(default_factory=list)
    corpus_size: int = 0


@dataclass(frozen=True)
class SourceEntry:
    """get_source: a corpus entry with its main text. Text fields are neutralised as in the writer's prompt."""

    __pydantic_config__ = _DOCS
    id: str
    title: str
    url: str
    canonical_url: str
    fetched_at: str
    """when the page was fetched (ISO 8601)"""
    section: str
    summary: str
    """the page's own description or leading sentences, never generated"""
    excerpt: str
    """the page's main text (up to 10,000 characters)"""
    access: str = ""
    stale: bool = False
    last_verified: str = ""


@dataclass(frozen=True)
class UrlVerdict:
    """check_urls: would this URL earn an ID now? Nothing is added to the corpus."""

    __pydantic_config__ = _DOCS
    url: str
    passes: bool
    """true when the URL passes the gate (fetched, judged, enough main text)"""
    reasons: list[ReasonInfo] = field(default_factory=list)
    """why it fails"""
    in_corpus: str = ""
    """the corpus ID this URL already has, if any"""
    title: str = ""
    final_url: str = ""
    status: int | None = None
    """the HTTP status the host answered"""
    access: str = ""


@dataclass(frozen=True)
class CheckResult:
    __pydantic_config__ = _DOCS
    verdicts: list[UrlVerdict]
    passed: int
    failed: int


@dataclass(frozen=True)
class RemovedUrl:
    """A URL (or URL-shaped text) the gate took out of the draft."""

    __pydantic_config__ = _DOCS
    url: str
    """as written in the draft"""
    reason: str
    """uncorpused-url (not a corpus source) | url-instead-of-id (a corpus URL: cite its ID)"""
    kind: str
    """how it was written: inline, autolink, bare, domain, defanged …"""
    line: int
    column: int
    source_id: str = ""
    """the ID to cite instead, for url-instead-of-id"""


@dataclass(frozen=True)
class FindingInfo:
    __pydantic_config__ = _DOCS
    rule: str
    name: str
    severity: str
    message: str
    line: int
    column: int
    verdict: str = ""
    """what the finding means for the citation, as its rule declares (unknown-id, uncorpused, dead …)"""


@dataclass(frozen=True)
class GateResult:
    """gate_draft: the memo `citecheck write` makes of the draft, and what it had to change."""

    __pydantic_config__ = _DOCS
    text: str
    """the memo: [^N] footnotes and a citation list from the corpus, no other URL"""
    ok: bool
    """true when the draft kept the contract (no finding at or above fail-on)"""
    footnotes: dict[str, str]
    """footnote label -> source ID"""
    unknown_ids: list[str]
    """cited IDs the corpus does not hold (now <needs-source claim=…/>)"""
    removed: list[RemovedUrl]
    """every URL taken out, and why"""
    findings: list[FindingInfo]
    """the memo rules' findings on the draft (M006, M009 and the others configured)"""
    cited_keys: list[str] = field(default_factory=list)
    """bibliography keys the draft cites as [@key] (with `citecheck mcp --bibliography`)"""
    unknown_keys: list[str] = field(default_factory=list)
    """cited keys the bibliography lacks (now <needs-source/>): invented sources"""


@dataclass(frozen=True)
class PromptResult:
    """prompt: the Section Writer's messages (the corpus as fenced data, cite by ID only, no URL)."""

    __pydantic_config__ = _DOCS
    section: str
    system: str
    user: str
    source_ids: list[str]
    """the sources listed in the corpus block"""
    excerpt_ids: list[str]
    """the sources shown with their excerpt"""
    tokens: int
    """estimated as characters / 4"""
    trimmed: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class WorkRecord:
    """What the registry records about the work."""

    __pydantic_config__ = _DOCS
    registry: str
    """crossref | datacite | csl | arxiv | pubmed"""
    title: str
    authors: list[str]
    year: int | None
    venue: str = ""
    doi: str = ""
    retracted: bool = False


@dataclass(frozen=True)
class ReferenceFinding:
    __pydantic_config__ = _DOCS
    rule: str
    name: str
    severity: str
    message: str
    evidence: str = ""
    fix: str = ""
    """the record's own citation, when the memo's claim contradicts it"""
    verdict: str = ""
    """what the finding means for the reference, as its rule declares (fabricated, title-mismatch …)"""


@dataclass(frozen=True)
class IdentifierVerdict:
    """One DOI, arXiv ID or PubMed ID of the reference, judged through its registry."""

    __pydantic_config__ = _DOCS
    identifier: str
    """as the registry is asked: 'DOI 10.1109/cvpr.2016.90', 'arXiv ID 1706.03762'"""
    url: str
    """its resolver URL"""
    status: str
    """the registry's answer: found | absent (authoritatively not registered) | unverifiable (no answer)"""
    ok: bool
    """true when the work exists and nothing the reference claims contradicts the record"""
    findings: list[ReferenceFinding]
    """the reference rules' findings (not found, mismatch, retracted, unverifiable)"""
    record: WorkRecord | None = None
    reason: str = ""
    """who answered what"""


@dataclass(frozen=True)
class ReferenceResult:
    """verify_reference: every identifier of one reference, judged through its registry; nothing is added."""

    __pydantic_config__ = _DOCS
    reference: str
    identifiers: list[IdentifierVerdict]
    ok: bool
