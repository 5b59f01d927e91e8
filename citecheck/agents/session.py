"""One corpus file and one policy, and the six things an agent may do with them.

The harvester side (`search`, `add`) runs `citecheck.harvest` into the corpus and writes it as
`citecheck harvest -o` does (corpus, then its `.ids` registry, then `--rejects`); `check` runs the
same gate into nothing. The writer side (`get`, `gate`, `prompt`) reads the corpus as it is on disk
now and runs `citecheck.write`. Calls that write are serialised; every input is bounded (`LIMITS`).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecheck.agents import cards
from citecheck.agents.results import (
    AddResult,
    CheckResult,
    GateResult,
    PromptResult,
    ReferenceResult,
    SearchResult,
    SourceEntry,
)
from citecheck.config import Config, load_config
from citecheck.errors import InputError, NetworkUnavailableError, ProviderError, UsageError
from citecheck.extract import load_corpus
from citecheck.harvest import HarvestResult, harvest_async, harvest_into_async
from citecheck.harvest.corpus import write_corpus
from citecheck.harvest.ids import read_registry
from citecheck.harvest.outline import Outline, Query, Section
from citecheck.models import Bibliography, Corpus
from citecheck.urltext.corpusindex import CorpusIndex

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Limits:
    """The bounds of every input; the MCP server publishes them in its tools' schemas."""

    urls: int = 50  # URLs per add_sources / check_urls call
    url_chars: int = 2048
    query_chars: int = 500
    max_results: int = 20  # results asked of each provider per search
    draft_chars: int = 500_000  # gate_draft (the write benchmark's 245,000-character draft gates in < 1 s)
    excerpt_chars: int = 10_000  # get_source (the corpus keeps at most 10,000)
    reference_chars: int = 2_000  # verify_reference: one reference line


LIMITS = Limits()
SECTION_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"


@dataclass
class CorpusSession:
    """An agent's view of one corpus under one policy (config, gate, providers)."""

    corpus_path: Path
    config: Config = field(default_factory=load_config)
    outline: Outline | None = None  # sections, questions and company for `prompt`; directory for search
    providers: tuple[str, ...] = ()  # default search providers (else the outline's)
    gate_name: str = "default"
    rejects_path: Path | None = None
    min_excerpt: int | None = None
    extract_workers: int | None = None
    # gate_draft's bibliographies for a Pandoc draft's [@key] citations (`citecheck mcp --bibliography`,
    # as `write --bibliography`); None: a draft's keys are not judged
    bibliographies: tuple[Bibliography, ...] | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    _rules: Any = field(default=None, repr=False)  # the rule registry, built on first use

    def open(self) -> Corpus:
        """The corpus, created empty (`[]`) when the file does not exist yet."""
        if not self.corpus_path.exists():
            try:
                write_corpus(self.corpus_path, [])
            except OSError as err:
                raise InputError(f"{self.corpus_path}: cannot create the corpus: {err.strerror or err}") from None
        return self.corpus()

    def corpus(self) -> Corpus:
        return load_corpus(str(self.corpus_path), self.config.max_file_size)

    async def search(self, query: str, section: str | None = None, providers: Sequence[str] = (),
                     max_results: int = 10, progress: Progress | None = None) -> SearchResult:
        """Run the harvester for one query; the section's validated sources come back, nothing else."""
        names = tuple(providers) or self.providers or (self.outline.providers if self.outline else ())
        if not names:
            raise UsageError("no search provider: name one in `providers`, or start the server with --provider NAME")
        sid = section or "search"
        known = next((s for s in self.outline.sections if s.id == sid), None) if self.outline else None
        planned = Section(sid, known.title if known else sid, known.questions if known else (), (Query(query),),
                          known.preferred_sources if known else (), names)  # the outline's section steers directory
        outline = self._outline(planned, "mcp:search_sources", limit=max_results)
        result = await self._harvest(outline, into=True, progress=progress, refuse=_all_failed(len(names)))
        return cards.search_result(result, query, sid, list(names))

    async def add(self, urls: Sequence[str], section: str | None = None, progress: Progress | None = None) -> AddResult:
        """Gate URLs the agent already holds; those that pass get IDs in the corpus."""
        sid = section or "added"
        wanted = list(dict.fromkeys(urls))
        outline = self._outline(_listing(sid, wanted), "mcp:add_sources")
        result = await self._harvest(outline, into=True, progress=progress)
        return cards.add_result(result, sid, wanted)

    async def check(self, urls: Sequence[str], progress: Progress | None = None) -> CheckResult:
        """Would these URLs earn an ID now? The gate's verdict with its evidence; nothing is written."""
        wanted = list(dict.fromkeys(urls))
        result = await self._harvest(self._outline(_listing("check", wanted), "mcp:check_urls"), into=False,
                                     progress=progress)
        return cards.check_result(result, wanted, CorpusIndex(self.corpus()))

    async def verify(self, reference: str) -> ReferenceResult:
        """Judge a reference's DOIs, arXiv IDs and PubMed IDs through their registries (the online
        audit's reference rules, docs/scholarly.md); the reference is read as a line of a References list."""
        from citecheck._audit import audit_inputs
        from citecheck.extract import build_inputs
        from citecheck.scholarly.references import references

        inputs = build_inputs([("<reference>", f"## References\n\n- {' '.join(reference.split())}\n")])
        refs = references(inputs.documents[0])
        if not refs:
            raise UsageError("no DOI, arXiv ID or PubMed ID in the reference: nothing a registry could answer for")
        registry = self._registry()
        config = self.config.with_overrides(select=tuple(r.id for r in registry.rules if r.stage == "reference"))
        report = await audit_inputs(inputs, config, registry, online=True)
        if report.outage is not None:
            raise NetworkUnavailableError(report.outage.line())
        return cards.reference_result(reference, refs, report)

    def get(self, source_id: str, max_chars: int = LIMITS.excerpt_chars) -> SourceEntry:
        """One corpus entry with its excerpt; a retired or unknown ID is an error that says so."""
        corpus = self.corpus()
        source = CorpusIndex(corpus).source(source_id.strip())
        if source is None:
            retired = read_registry(self.corpus_path).retired.get(source_id.strip().lower())
            if retired:
                raise UsageError(f"{source_id} was retired ({retired.get('reason') or retired.get('rule', '')}, "
                                 f"{retired.get('retired_at', '')}): do not cite it")
            count = len(corpus.sources)
            raise UsageError(f"{source_id} is not in the corpus ({count} source{'' if count == 1 else 's'}"
                             f"{': ' + cards.id_range(corpus) if corpus.sources else ''})")
        return cards.entry(source, max_chars)

    def gate(self, markdown: str, hybrid: bool = False) -> GateResult:
        """`citecheck write` on a draft: footnotes from the corpus, unknown IDs marked, other URLs removed;
        with bibliographies, its [@key] citations judged against them (unknown keys marked)."""
        from citecheck.report.gate import exit_code
        from citecheck.write.gate import write

        result = write(markdown, self.corpus(), strict=True, hybrid=hybrid, path="<draft>", config=self.config,
                       registry=self._registry(), bibliographies=self.bibliographies)
        ok = exit_code(result.findings, self.config.fail_on, result.crashed) == 0
        return cards.gate_result(result, markdown, ok)

    def prompt(self, section: str | None = None, excerpts: Sequence[str] = (),
               token_budget: int | None = None) -> PromptResult:
        """The writer's prompt for a section (the outline's, or one the corpus names); no URL in it."""
        from citecheck.write.prompt import render_prompt

        corpus = self.corpus()
        outline, sid, everything = cards.prompt_outline(self.outline, corpus, section, self.corpus_path.stem)
        rendered = render_prompt(outline, sid, corpus, excerpts=list(excerpts), token_budget=token_budget,
                                 all_sources=everything)
        return PromptResult(sid, rendered.system, rendered.user, list(rendered.source_ids), list(rendered.excerpt_ids),
                            rendered.tokens, rendered.trimmed, list(rendered.notes))

    async def _harvest(self, outline: Outline, *, into: bool, progress: Progress | None,
                       refuse: Callable[[HarvestResult], None] | None = None) -> HarvestResult:
        async with self._lock:  # one writer of the corpus file at a time, here and in other processes
            if into:  # locked, recovered, harvested and written as `citecheck harvest -o` does
                return await harvest_into_async(self.corpus_path, outline, config=self.config, gate=self.gate_name,
                                                progress=progress or False, min_excerpt=self.min_excerpt,
                                                extract_workers=self.extract_workers, registry=self._registry(),
                                                rejects_path=self.rejects_path, refuse=refuse)
            result = await harvest_async(outline, config=self.config, gate=self.gate_name, progress=progress or False,
                                         min_excerpt=self.min_excerpt, extract_workers=self.extract_workers,
                                         registry=self._registry())
            if refuse is not None:
                refuse(result)
        return result

    def _outline(self, section: Section, origin: str, limit: int = 10) -> Outline:
        base = self.outline
        return Outline(base.title if base else self.corpus_path.stem, (section,),
                       base.company if base else {}, {}, section.providers, limit,
                       base.directory if base else "", origin)

    def _registry(self) -> Any:
        from citecheck.engine.registry import build_registry

        if self._rules is None:
            self._rules = build_registry(self.config.packs)
        return self._rules


def _all_failed(asked: int) -> Callable[[HarvestResult], None]:
    """A search whose every provider failed found nothing because it could not ask: an error, never
    an empty result (and nothing is written)."""
    def refuse(result: HarvestResult) -> None:
        if asked and len(result.errors) >= asked:
            raise ProviderError(f"every search provider failed, nothing was searched: {'; '.join(result.errors)}")
    return refuse


def _listing(section: str, urls: Sequence[str]) -> Section:
    return Section(section, section, urls=tuple(Query(u, i) for i, u in enumerate(urls, 1)))
