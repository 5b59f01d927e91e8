"""`harvest_into`: a harvest merged into a corpus file as one transaction, as `citecheck harvest -o`,
`citecheck resolve` and the MCP server's `search_sources` / `add_sources` run it.

    from citecheck.harvest import harvest_into
    result = harvest_into("sourced_corpus.json", "outline.yaml", providers=["directory"])

Under `<corpus>.lock` (`transaction.corpus_lock`: a second writer gets CorpusBusyError at once): finish
a commit an interrupted run left in `<corpus>.journal` (`recover`), harvest into the corpus, and write
the corpus and its `.ids` registry as one commit, then the rejects report and per-section corpora
(`write_outputs`). A run that finds the network unavailable raises before anything is written.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from citecheck._util import aio
from citecheck.config import Config
from citecheck.engine.registry import Registry
from citecheck.harvest.outline import Outline
from citecheck.harvest.output import write_outputs
from citecheck.harvest.pipeline import harvest_async
from citecheck.harvest.result import HarvestResult
from citecheck.harvest.transaction import corpus_lock, recover


def harvest_into(corpus: str | Path, outline: Outline | str | Path | None = None, *, providers: Sequence[str] = (),
                 config: Config | None = None, urls: str | None = None, query: str | None = None,
                 gate: str = "default", progress: bool | Callable[[str], None] = False,
                 registry: Registry | None = None, resolver: Any = None, extract_workers: int | None = None,
                 min_excerpt: int | None = None, bibliographies: Sequence[str] = (),
                 rejects_path: str | Path | None = None, per_section_dir: str | Path | None = None,
                 dry_run: bool = False, refuse: Callable[[HarvestResult], None] | None = None,
                 recovered: Callable[[str | Path], None] | None = None) -> HarvestResult:
    """Harvest into `corpus` and write it (see `harvest_into_async` for the options)."""
    return aio.run(harvest_into_async(
        corpus, outline, providers=providers, config=config, urls=urls, query=query, gate=gate, progress=progress,
        registry=registry, resolver=resolver, extract_workers=extract_workers, min_excerpt=min_excerpt,
        bibliographies=bibliographies, rejects_path=rejects_path, per_section_dir=per_section_dir,
        dry_run=dry_run, refuse=refuse, recovered=recovered))


async def harvest_into_async(corpus: str | Path, outline: Outline | str | Path | None = None, *,
                             providers: Sequence[str] = (), config: Config | None = None, urls: str | None = None,
                             query: str | None = None, gate: str = "default",
                             progress: bool | Callable[[str], None] = False, registry: Registry | None = None,
                             resolver: Any = None, extract_workers: int | None = None,
                             min_excerpt: int | None = None, bibliographies: Sequence[str] = (),
                             rejects_path: str | Path | None = None, per_section_dir: str | Path | None = None,
                             dry_run: bool = False, refuse: Callable[[HarvestResult], None] | None = None,
                             recovered: Callable[[str | Path], None] | None = None) -> HarvestResult:
    """Lock `corpus`, finish an interrupted commit, harvest into it (`harvest_async`'s options) and
    write it with its `.ids`, then `rejects_path` and `per_section_dir` (atomically); return the result.

    `dry_run` harvests under the lock and writes nothing; `refuse` may raise on the result before
    anything is written (the MCP server's "every provider failed"); `recovered` is told the corpus
    path when an interrupted run's journal was finished. Raises CorpusBusyError while another process
    holds the lock and NetworkUnavailableError (nothing written) when no outside host answered."""
    with corpus_lock(corpus):  # read, merge and write as one transaction
        if recover(corpus) and recovered is not None:
            recovered(corpus)
        result = await harvest_async(outline, providers=providers, config=config, urls=urls, query=query, into=corpus,
                                     gate=gate, progress=progress, registry=registry, resolver=resolver,
                                     extract_workers=extract_workers, min_excerpt=min_excerpt,
                                     bibliographies=bibliographies)
        if refuse is not None:
            refuse(result)
        if not dry_run:
            write_outputs(result, corpus, rejects_path=rejects_path, per_section_dir=per_section_dir)
    return result
