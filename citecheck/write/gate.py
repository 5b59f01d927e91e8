"""The write gate: draft + corpus → memo with footnotes and a citation list, plus findings.

    split off a previous run's citation list (and turn its footnotes back into IDs)
    → scrub every URL (strict) or keep corpus URLs as citations (hybrid)
    → number `[src-NNN]` citations as `[^N]`; unknown IDs become `<needs-source claim="…"/>`
    → rescan the result until nothing URL-shaped is left → append the citation list.

Findings come from the engine's memo rules run over the draft as written (M009 draft-url
reports every removal, M006 unknown-source-id every unknown ID), so they point at the draft.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from citecheck.config import Config, load_config
from citecheck.engine.registry import Registry, build_registry
from citecheck.engine.run import Engine, Memo
from citecheck.engine.select import ActiveRule, resolve
from citecheck.errors import CitecheckError
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Corpus, Finding
from citecheck.write.citations import render_block, split_block
from citecheck.write.cite import cite, restore_labels
from citecheck.write.corpusindex import CorpusIndex
from citecheck.write.scrub import Removal, scrub

CONTRACT_RULES = ("M009", "M006")  # always run by write, whatever select/ignore say
SUPERSEDED = ("M007",)  # uncorpused-url: every such URL is an M009 removal in write
_MAX_PASSES = 5


@dataclass(frozen=True)
class Transformed:
    text: str
    removals: tuple[Removal, ...]
    citations: tuple[tuple[str, str], ...]  # (footnote label, source id)
    unknown_ids: tuple[str, ...]


@dataclass(frozen=True)
class WriteResult:
    """The memo text and the findings about the draft it came from."""

    text: str
    findings: list[Finding]
    suppressed: list[Finding] = field(default_factory=list)
    removals: tuple[Removal, ...] = ()
    citations: tuple[tuple[str, str], ...] = ()
    unknown_ids: tuple[str, ...] = ()
    crashed: bool = False


def transform(draft: str, index: CorpusIndex, *, strict: bool = True, hybrid: bool = False) -> Transformed:
    """The memo text for a draft (no findings: see `write`)."""
    block = split_block(draft)
    body = restore_labels(draft[:block.start], block.labels)
    scrubbed = scrub(body, index, hybrid=hybrid, remove=strict)
    cited = cite(scrubbed.text, index)
    text = cited.text
    for _ in range(_MAX_PASSES if strict else 0):
        again = scrub(text, index, hybrid=False)
        if not again.removals:
            break
        text = again.text
    else:
        if strict:
            raise CitecheckError("write: the draft still held URL-shaped text after repeated scrubbing; "
                                 "refusing to write it (please report this draft)")
    listing = render_block(list(cited.numbered))
    if listing:
        text = text.rstrip("\n") + "\n\n" + listing
    return Transformed(text, scrubbed.removals, tuple((label, src.id) for label, src in cited.numbered),
                       cited.unknown)


def write(draft_text: str, corpus: Corpus, strict: bool = True, hybrid: bool = False, *, path: str = "<draft>",
          config: Config | None = None, registry: Registry | None = None) -> WriteResult:
    """Gate a draft against a corpus: the memo text and the findings (see the module docstring)."""
    config = config or load_config()
    registry = registry or build_registry(config.packs)
    out = transform(draft_text, CorpusIndex(corpus), strict=strict, hybrid=hybrid)
    engine = Engine(_memo_rules(registry, config, hybrid))
    document = extract_markdown(path, draft_text)
    found = engine.check_memo(Memo(document, corpus))
    kept, suppressed = engine.apply_directives(document, found, registry.rules)
    return WriteResult(out.text, _dedupe(sorted(kept)), suppressed, out.removals, out.citations, out.unknown_ids,
                       engine.crashed)


def _memo_rules(registry: Registry, config: Config, hybrid: bool) -> list[ActiveRule]:
    active = [r for r in resolve(registry, config)
              if r.spec.stage in ("memo", "engine") and r.spec.id not in SUPERSEDED]
    present = {r.spec.id for r in active}
    for rule_id in CONTRACT_RULES:
        spec = registry.get(rule_id)
        if spec is not None and rule_id not in present:
            active.append(ActiveRule(spec, spec.severity, dict(spec.defaults)))
    contract = {"allow_corpus_urls": hybrid, "report_links": True}
    return [ActiveRule(r.spec, r.severity, {**r.options, **contract}) if r.spec.id == "M009" else r for r in active]


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[object, ...]] = set()
    out = []
    for f in findings:
        key = (f.path, f.line, f.column, f.rule, f.url, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
