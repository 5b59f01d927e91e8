"""The write gate: draft + corpus → memo with footnotes and a citation list, plus findings.

    split off a previous run's citation list → scrub every URL (strict) or keep corpus URLs
    as citations (hybrid) → turn the previous run's footnotes back into IDs → rescan until
    nothing URL-shaped is left → number `[src-NNN]` citations as `[^N]`, unknown IDs become
    `<needs-source claim="…"/>` → append the citation list → render the memo with cmark-gfm and
    markdown-it-py and take out any link outside the corpus they still make (`rendered.py`), or
    refuse to write (`LeakError`, exit 1).

A Pandoc draft cites `[@key]` from a bibliography instead (`bibliographies`; `write/pandoc.py`):
known keys stay for Pandoc to render, unknown ones become `<needs-source claim="…"/>` and M012
unknown-citation-key reports them; URLs are scrubbed exactly as above (the bibliography's own URLs
and DOIs reach the reader through Pandoc's reference list, never through the draft).

Findings come from the engine's memo rules over the draft as written, so they point at the
draft: M006 unknown-source-id reports unknown IDs, M009 draft-url every removal (built from
the removals this run made, through the rule's own hit builder). M007 uncorpused-url is
superseded here: every URL it could report is an M009 removal. Inline directives in the draft are
the model's, not the user's: they are removed before anything else and never suppress a finding
(`write/directives.py`); front-matter keys that configure checks (`firm:`, `company:`) are kept
out of the memo (`write/frontmatter.py`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from citecheck._audit import Report, dedupe_findings
from citecheck.cache.packs import PackCache
from citecheck.checks import draft_url, id_integrity
from citecheck.config import Config, load_config
from citecheck.engine.registry import Registry, build_registry
from citecheck.engine.rule import WriteRole
from citecheck.engine.run import Engine, Memo
from citecheck.engine.select import ActiveRule, resolve
from citecheck.errors import CitecheckError, CorpusError
from citecheck.extract import Inputs
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Bibliography, Corpus, Document, Finding
from citecheck.urltext.citations import render_block, split_block
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.detect import url_spans
from citecheck.urltext.scrub import UNCORPUSED, Removal, scrub
from citecheck.urltext.violations import contract_breaches
from citecheck.write.cite import cite, restore_labels
from citecheck.write.directives import has_directive, strip_directives
from citecheck.write.frontmatter import drop_check_keys, tidy
from citecheck.write.pandoc import cite_keys
from citecheck.write.rendered import fail_closed

_MAX_PASSES = 5
NO_CORPUS = "<no corpus>"  # the path of the empty corpus a Pandoc draft is gated with (its bibliography only)


@dataclass(frozen=True)
class Transformed:
    text: str
    violations: tuple[Removal, ...]  # URLs the draft should not have held (what M009 reports)
    citations: tuple[tuple[str, str], ...]  # (footnote label, source id)
    unknown_ids: tuple[str, ...]
    cited_keys: tuple[str, ...] = ()  # bibliography keys the memo cites (Pandoc drafts)
    unknown_keys: tuple[str, ...] = ()  # keys the bibliography lacks, taken out


@dataclass(frozen=True)
class WriteResult:
    """The memo text and the findings about the draft it came from."""

    text: str
    findings: list[Finding]
    suppressed: list[Finding] = field(default_factory=list)
    violations: tuple[Removal, ...] = ()
    citations: tuple[tuple[str, str], ...] = ()
    unknown_ids: tuple[str, ...] = ()
    unknown_keys: tuple[str, ...] = ()
    cited_keys: tuple[str, ...] = ()
    crashed: bool = False
    document: Document | None = None  # the draft as extracted (what the findings point into)
    directives_removed: int = 0  # `<!-- citecheck: … -->` directives taken out of the draft, never applied
    front_matter_removed: tuple[str, ...] = ()  # check-configuring front-matter keys kept out of the memo
    corpus: Corpus | None = None  # the corpus it was gated against
    strict: bool = True
    hybrid: bool = False

    def report(self, output: str = "", duration: float = 0.0) -> Report:
        """The findings and the gate's summary as a `Report`, for the reporters (`citecheck write
        --format`): mode, footnotes, removed URLs, unknown IDs and keys, what was taken out."""
        corpora = [self.corpus] if self.corpus is not None and self.corpus.path != NO_CORPUS else []
        inputs = Inputs(documents=[self.document] if self.document else [], corpora=corpora)
        extra = {"mode": "hybrid" if self.hybrid else "strict" if self.strict else "report-only", "output": output,
                 "footnotes": len(self.citations), "removed_urls": len(self.violations) if self.strict else 0,
                 "unknown_ids": len(self.unknown_ids), "directives_removed": self.directives_removed,
                 **({"front_matter_removed": list(self.front_matter_removed)} if self.front_matter_removed else {})}
        if self.cited_keys or self.unknown_keys:
            extra.update(cited_keys=len(self.cited_keys), unknown_keys=len(self.unknown_keys))
        return Report(self.findings, self.suppressed, inputs, crashed=self.crashed, duration=duration,
                      extra_summary=extra)


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def transform(draft: str, index: CorpusIndex, *, strict: bool = True, hybrid: bool = False,
              keys: frozenset[str] | None = None) -> Transformed:
    """The memo text for a draft, and what was wrong with it (see the module docstring); `keys`: the
    bibliography's keys, for a Pandoc draft."""
    draft = normalise_newlines(draft)
    block = split_block(draft)
    scrubbed = scrub(draft[:block.start], index, hybrid=hybrid, remove=strict)
    text = restore_labels(scrubbed.text, block.labels)
    text = _settle(text, index) if strict else text
    cited = cite(text, index)
    text = cited.text
    keyed = cite_keys(text, keys) if keys is not None else None
    text = keyed.text if keyed is not None else text
    if strict and url_spans(text):  # claims are cleaned, so this never runs; kept as a last line
        text = _settle(text, index)
    listing = render_block(list(cited.numbered))
    if listing:
        text = text.rstrip("\n") + "\n\n"
    breaches = contract_breaches(scrubbed.removals, draft, block.start, index)
    if strict:  # the renderers have the last word: what they would link is taken out, or nothing is written
        text, taken = fail_closed(text, index, listing)
        breaches += [Removal(max(draft.find(written), 0), written, "rendered", UNCORPUSED) for written in taken]
    else:
        text += listing
    return Transformed(text, tuple(breaches), tuple((label, src.id) for label, src in cited.numbered),
                       cited.unknown, keyed.cited if keyed else (), keyed.unknown if keyed else ())


def _settle(text: str, index: CorpusIndex) -> str:
    """Scrub until nothing URL-shaped is left (removing a link can expose another)."""
    for _ in range(_MAX_PASSES):
        again = scrub(text, index)
        if not again.removals:
            return text
        text = again.text
    raise CitecheckError("write: URL-shaped text survived repeated scrubbing; refusing to write the memo "
                         "(please report this draft)")


def write(draft_text: str, corpus: Corpus, strict: bool = True, hybrid: bool = False, *, path: str = "<draft>",
          config: Config | None = None, registry: Registry | None = None,
          bibliographies: tuple[Bibliography, ...] | None = None) -> WriteResult:
    """Gate a draft against a corpus and, for `[@key]` citations, its bibliographies: the memo text
    and the findings (see the module docstring). Without `registry`, the rules are built as
    `citecheck write` builds them (the per-user pack cache, `citecheck.cache.packs`)."""
    usable(corpus)
    config = config or load_config()
    registry = registry or build_registry(config.packs, PackCache.default())
    draft_text, directives = strip_directives(normalise_newlines(draft_text))
    draft_text, configuring = drop_check_keys(draft_text)  # the memo never carries them
    keys = frozenset(e.key for bib in bibliographies for e in bib.entries) if bibliographies is not None else None
    out = transform(draft_text, CorpusIndex(corpus), strict=strict, hybrid=hybrid, keys=keys)
    if configuring:
        out = replace(out, text=tidy(out.text))
    if has_directive(out.text):  # the draft has none left, so the transform made one: never write it
        raise CitecheckError("write: the memo would contain a citecheck directive; refusing to write it "
                             "(please report this draft)")
    rules = _memo_rules(registry, config, hybrid)
    from_removals = [r for r in rules if r.spec.id == draft_url.ID and strict]
    engine = Engine([r for r in rules if r not in from_removals])
    document = extract_markdown(path, draft_text)
    if configuring:  # the draft's own checks still see them: they may add firm terms (see M001)
        document = replace(document, front_matter={**document.front_matter, **configuring})
    found = engine.check_memo(Memo(document, corpus, bibliographies=bibliographies))
    for rule in from_removals:
        found += [engine.finding(rule, hit) for hit in draft_url.hits(document, out.violations)]
    # no directive is read: the draft's were removed above, and none may speak for the model
    return WriteResult(out.text, dedupe_findings(sorted(found)), [], out.violations, out.citations, out.unknown_ids,
                       out.unknown_keys, out.cited_keys, engine.crashed, document, directives, tuple(configuring),
                       corpus=corpus, strict=strict, hybrid=hybrid)


def usable(corpus: Corpus) -> None:
    """CorpusError for a corpus whose IDs do not each name one source (C004's check, whatever the
    configuration enables): an ID given twice would cite whichever entry came last."""
    hit = next(iter(id_integrity.check(corpus, {})), None)
    if hit is not None:
        raise CorpusError(f"{hit.location.path}:{hit.location.line}: C004 id-integrity: {hit.message}; refusing to "
                          "write from this corpus (fix it, or harvest it again)")


def _memo_rules(registry: Registry, config: Config, hybrid: bool) -> list[ActiveRule]:
    """The memo rules as configured, less those write supersedes, plus its contract rules whatever
    --select/--ignore say (each rule's `WRITE`: M006, M009, M012 are contract, M007 superseded)."""
    active = [r for r in resolve(registry, config)
              if r.spec.stage in ("memo", "engine") and r.spec.write_role is not WriteRole.SUPERSEDED]
    present = {r.spec.id for r in active}
    for spec in registry.rules:
        if spec.write_role is WriteRole.CONTRACT and spec.stage == "memo" and spec.id not in present:
            active.append(ActiveRule(spec, spec.severity, dict(spec.defaults)))
    contract = {"allow_corpus_urls": hybrid, "report_links": True}
    return [ActiveRule(r.spec, r.severity, {**r.options, **contract}) if r.spec.id == draft_url.ID else r for r in active]
