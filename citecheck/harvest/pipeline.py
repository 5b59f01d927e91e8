"""The harvest pipeline: providers → preflight → fetch → page rules → title check → IDs → corpus.

The same engine as `audit` runs the rules; the fetch cache is shared across sections and runs
(each distinct URL is fetched once); a known source keeps its ID, a new one gets the next.
Sources already in the target corpus are re-gated with the new candidates and always re-checked
over the network (conditional requests from their stored ETag/Last-Modified; a 304 refreshes the
facts); new candidates may come from the cache within `--max-age`.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from citecheck._util import aio
from citecheck.config import Config, load_config
from citecheck.engine.registry import Registry, build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.errors import InputError, NetworkUnavailableError, UsageError
from citecheck.fetch.facts import now_iso
from citecheck.fetch.outage import assess
from citecheck.harvest import bibimport
from citecheck.harvest.assemble import Run, assemble, existing_found
from citecheck.harvest.corpus import load_existing
from citecheck.harvest.deadline import judged_within, unjudged
from citecheck.harvest.gate import policy_from
from citecheck.harvest.ids import IdBook
from citecheck.harvest.judge import Judge, Verdict
from citecheck.harvest.maintext import Extractor
from citecheck.harvest.outline import DEFAULT_LIMIT, Outline, load_outline
from citecheck.harvest.plan import Found, SectionPlan, outline_plans, query_plan, search, urls_plans
from citecheck.harvest.providers import build_provider, listed_urls
from citecheck.harvest.result import HarvestResult
from citecheck.harvest.robotsgate import RobotsGate
from citecheck.harvest.scholarly import cut_off, registry_lookups
from citecheck.harvest.setup import check_preferred, directory_entries
from citecheck.harvest.titlecheck import DEFAULT_THRESHOLD
from citecheck.models import Outcome
from citecheck.registries.stage import store_facts
from citecheck.stage.pages import PageStage, worker_count
from citecheck.urls import dedupe_key

DEFAULT_MIN_EXCERPT = 200


def harvest(outline: Outline | str | Path | None = None, *, providers: Sequence[str] = (), config: Config | None = None,
            urls: str | None = None, query: str | None = None, into: str | Path | None = None, gate: str = "default",
            progress: bool | Callable[[str], None] = False, registry: Registry | None = None, resolver: Any = None,
            extract_workers: int | None = None, min_excerpt: int | None = None,
            bibliographies: Sequence[str] = ()) -> HarvestResult:
    """Build a corpus from an outline (and/or `urls=`, `query=`); see `harvest_async` for the options."""
    return aio.run(harvest_async(outline, providers=providers, config=config, urls=urls, query=query, into=into,
                                 gate=gate, progress=progress, registry=registry, resolver=resolver,
                                 extract_workers=extract_workers, min_excerpt=min_excerpt,
                                 bibliographies=bibliographies))


async def harvest_async(outline: Outline | str | Path | None = None, *, providers: Sequence[str] = (),
                        config: Config | None = None, urls: str | None = None, query: str | None = None,
                        into: str | Path | None = None, gate: str = "default",
                        progress: bool | Callable[[str], None] = False,
                        registry: Registry | None = None, resolver: Any = None,
                        extract_workers: int | None = None, min_excerpt: int | None = None,
                        bibliographies: Sequence[str] = ()) -> HarvestResult:
    """Harvest from an async caller. `into` is the corpus being merged into (IDs stay stable);
    `gate` is strict|default|lenient; `progress` prints stage lines on stderr (or, a callable, is
    given each line: the MCP server turns them into progress notifications); `min_excerpt` is the
    main text a source needs (default `harvest.min_excerpt`, else 200 characters); `bibliographies`
    are .bib / CSL files whose verified entries become sources (`citecheck.harvest.bibimport`).

    Raises NetworkUnavailableError when no host the run fetched from answered (nothing is judged)."""
    started = time.perf_counter()
    config = config or load_config()
    say = _Say(progress)
    if isinstance(outline, (str, Path)):
        outline = load_outline(outline)
    plans = _plans(outline, providers, urls, query, bool(bibliographies))
    engine = Engine(resolve(registry or build_registry(config.packs), config))
    bib_entries = _bib_entries(bibliographies, config, plans)
    policy = policy_from(gate, config.harvest)
    existing = load_existing(into, engine) if into else None
    book = IdBook.from_corpus(existing, into)
    entries = directory_entries(outline, config, plans)
    check_preferred(plans, entries)
    names = list(dict.fromkeys(n for p in plans for n in p.providers))
    cache = _open_cache(config)
    stage = PageStage(engine, workers=worker_count() if extract_workers is None else extract_workers)
    extractor = Extractor(cache, stage)
    from citecheck.fetch.client import Fetcher

    built: dict[str, Any] = {}
    try:
        async with Fetcher(config.fetch, resolver=resolver, cache=cache) as fetcher:
            async def fetch_html(url: str) -> tuple[str, bytes | None]:
                result = await fetcher.fetch_fresh(url, keep_body=True, probe=False)
                return result.page.final_url, result.body if result.page.outcome is Outcome.OK else None

            for name in names:
                built[name] = build_provider(name, config.providers, entries=entries, fetch_html=fetch_html)
            files = len({e.bib.path for e in bib_entries})
            say(f"{len(plans)} sections{f' and {files} bibliography file(s)' if files else ''}, providers: "
                f"{', '.join(names) or 'none (listed URLs only)'}")
            searched = await search(plans, built, outline.limit if outline else DEFAULT_LIMIT)
            for error in searched.errors:
                print(f"citecheck: warning: {error}", file=sys.stderr)
            found = existing_found(existing) + searched.found
            deadline = config.fetch.deadline  # from here, the candidates known: registry lookups, then judging
            clock = time.monotonic()
            # DOI, arXiv and PubMed candidates: their registries answer, not their landing pages; the
            # entries of --bib files are verified in the same run (each identifier asked once)
            scholarly, registry_run = await registry_lookups([f.candidate.url for f in found], config, cache,
                                                             bibimport.identifiers(bib_entries), deadline)
            imported = bibimport.admit(bib_entries, registry_run, engine, policy, deadline)
            plans += imported.plans
            found += [item for plan in imported.plans for item in plan.listed]
            scholarly.update(imported.lookups)
            if bib_entries:
                say(f"{len(bib_entries)} bibliography entries: {len(bib_entries) - len(imported.rejects)} to the gate, "
                    f"{len(imported.rejects)} dropped (not verified)")
            groups: dict[str, list[Any]] = {}
            for item in found:
                groups.setdefault(dedupe_key(item.candidate.url), []).append(item)
            say(f"{len(found)} candidates, {len(groups)} distinct URLs")
            judge = Judge(stage, policy, fetcher, cache, extractor, config.fetch.max_age_days,
                          float(config.harvest.get("title_threshold", DEFAULT_THRESHOLD)),
                          recheck=[s.url for s in existing.sources] if existing is not None else (), scholarly=scholarly,
                          claims=imported.claims)
            # a candidate whose registry lookup the deadline cut off is not judged by its landing page
            unasked = {key for key, g in groups.items() if cut_off(g[0].candidate.url, registry_run)}
            judge.prefetch([g[0].candidate.url for key, g in groups.items() if key not in unasked])
            robots = RobotsGate(fetcher, engine, policy)
            try:
                verdicts = await judged_within(deadline - (time.monotonic() - clock),
                                               [_cut(g, deadline) if key in unasked else robots.judge(judge, g)
                                                for key, g in groups.items()], list(groups.values()), deadline)
            finally:
                judge.flush()
    finally:
        for provider in built.values():
            await provider.aclose()
        stage.close()
        if cache is not None:
            cache.close()
    replies = [reply.as_page() for reply in registry_run.replies] if registry_run is not None else []
    connected = set(fetcher.connected) | (registry_run.connected if registry_run is not None else set())
    outage = assess([*(v.page for group in verdicts for v in group if v.page is not None), *replies], connected)
    if outage is not None:
        unchanged = f"{into} is unchanged" if into else "nothing is written"
        raise NetworkUnavailableError(f"{outage.line()}; {unchanged}")
    store_facts(registry_run, config, None)  # the registries' facts, now that the run had network
    run = Run(now_iso(), _min_excerpt(min_excerpt, config))
    result = assemble(verdicts, book, plans, existing, engine, gate, searched.errors, str(into or "<harvest>"), run)
    result.rejects += imported.rejects  # bibliography entries that did not verify (never judged as pages)
    result.crashed = engine.crashed or stage.parent.crashed or stage.crashed
    result.stats.update(candidates=len(found), distinct_urls=len(groups), fetch_log=dict(judge.fetch_log),
                        fetched=sum(v == "network" for v in judge.fetch_log.values()),
                        from_registry=sum(v == "registry" for v in judge.fetch_log.values()),
                        registry_requests=len(replies),
                        from_cache=sum(v == "cache" for v in judge.fetch_log.values()),
                        revalidated=judge.revalidated,
                        past_deadline=imported.late + sum(1 for group in verdicts for v in group
                                                          if v.page and v.page.error == "deadline"),
                        extracted=extractor.extracted, extracts_reused=judge.texts_reused,
                        duration_s=round(time.perf_counter() - started, 3))
    late = f" ({result.stats['past_deadline']} not judged before --deadline)" if result.stats["past_deadline"] else ""
    say(f"fetched {result.stats['fetched']} ({result.stats['from_cache']} from the cache), kept {len(result.corpus)}, "
        f"rejected {len(result.rejects)}{late} in {result.stats['duration_s']} s")
    return result


async def _cut(group: list[Found], deadline: float) -> list[Verdict]:
    """The verdicts of a group whose registry lookup the run's deadline cut off."""
    return unjudged(group, deadline)


def _bib_entries(paths: Sequence[str], config: Config, plans: Sequence[SectionPlan]) -> list[bibimport.Entry]:
    if not paths:
        return []
    if not config.scholarly.enabled:
        raise UsageError("--bib verifies each entry with the scholarly registries: scholarly.enabled is false")
    return bibimport.load(paths, config.max_file_size, {p.section.id for p in plans})


def _plans(outline: Outline | None, providers: Sequence[str], urls: str | None, query: str | None,
           bibliographies: bool = False) -> list[SectionPlan]:
    plans: list[SectionPlan] = []
    if outline is not None:
        plans += outline_plans(outline, providers)
    if urls:
        plans += urls_plans(urls, listed_urls(urls))
    if query:
        plans.append(query_plan(query, providers or (outline.providers if outline else ())))
    if not plans and not bibliographies:
        raise UsageError("nothing to harvest: give an OUTLINE.yaml, --urls FILE, --query TEXT or --bib FILE")
    seen: set[str] = set()
    for plan in plans:
        if plan.section.id in seen:
            raise UsageError(f"section id {plan.section.id!r} appears twice (outline sections, --urls headings "
                             "and --query share one namespace)")
        seen.add(plan.section.id)
    return plans


def _min_excerpt(given: int | None, config: Config) -> int:
    value = given if given is not None else config.harvest.get("min_excerpt", DEFAULT_MIN_EXCERPT)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UsageError(f"harvest.min_excerpt must be a whole number of characters, got {value!r}")
    return value


def _open_cache(config: Config) -> Any:
    if not config.fetch.use_cache:
        return None
    from citecheck.fetch.cache import open_store

    try:
        from citecheck.fetch.guard import Guard

        return open_store(config.fetch.cache or None, guard=Guard.of(config.fetch))
    except InputError as err:
        print(f"citecheck: warning: {err}; harvesting without a cache", file=sys.stderr)
        return None


class _Say:
    def __init__(self, progress: bool | Callable[[str], None]) -> None:
        self.sink = progress if callable(progress) else _stderr if progress else None

    def __call__(self, message: str) -> None:
        if self.sink is not None:
            self.sink(message)


def _stderr(message: str) -> None:
    print(f"harvest: {message}", file=sys.stderr, flush=True)
