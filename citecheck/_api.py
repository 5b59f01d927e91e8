"""The library's front door: `citecheck.audit()` and `audit_async()` do what `citecheck audit` does,
with the same caches (`Caches`); the command is a thin client of them.

    report = citecheck.audit(["memo.md"], online=True)   # the CLI's caches, by default
    report = citecheck.audit(["memo.md"], online=True, caches=Caches())   # none of them

Reading the inputs, the pipeline (`citecheck._audit`), the result cache, `--baseline` and the cyclic
collector's tuning happen here, so a library call and a command give the same findings and share
what they store.
"""
from __future__ import annotations

import gc
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck._audit import Report, audit_inputs, judge
from citecheck.cache.packs import PackCache
from citecheck.config import Config, load_config
from citecheck.engine.registry import Registry, build_registry
from citecheck.extract import DEFAULT_INCLUDE, InputFiles, build_inputs, load_corpus, read_inputs, sniff
from citecheck.models import Corpus

if TYPE_CHECKING:
    from citecheck.cache.results import ResultCache
    from citecheck.fetch import PageFetcher
    from citecheck.fetch.cache import FactCache

# What `citecheck.cli.run` sets for a whole command: an audit builds many small objects (tokens,
# links, findings), and the default thresholds spent ~12 % of an offline 5,000-link audit re-scanning them.
GC_THRESHOLDS = (200_000, 30, 30)


@dataclass(frozen=True)
class Caches:
    """What an audit keeps between runs; each is optional (None: not used).

    - `packs`: parsed rule packs, by their text (`citecheck.cache.packs`);
    - `results`: whole audits' results, replayed while inputs, configuration, code and every cited
      page's facts are unchanged (`citecheck.cache.results`; online audits of memos only);
    - `facts`: an open fact cache to read and store page facts in, instead of the one the
      configuration names (`fetch.cache`, `--no-cache`), which the run opens and closes itself.

    `Caches.default(config)` is what `citecheck audit` uses and what `audit()` uses unless given
    others: the per-user pack cache (`$XDG_CACHE_HOME/citecheck/packs.json`) and the result cache in
    the configuration's SQLite fact cache. `Caches()` uses none (the fact cache still follows the
    configuration)."""

    packs: PackCache | None = None
    results: ResultCache | None = None
    facts: FactCache | None = None

    @classmethod
    def default(cls, config: Config, *, results: bool = True) -> Caches:
        """The CLI's caches; `results=False` leaves the result cache out (an offline audit, which
        never uses it, need not load it; a report made of more than findings and summary)."""
        if not results:
            return cls(PackCache.default())
        from citecheck.cache.results import ResultCache

        return cls(PackCache.default(), ResultCache.beside(config.fetch))


@dataclass(frozen=True)
class _Run:
    """What an audit reads before it judges."""

    config: Config
    registry: Registry
    read: InputFiles
    corpus: Corpus | None
    corpus_path: str | None


def audit(paths: Iterable[str], config: Config | None = None, *, online: bool = False,
          corpus: str | Path | Corpus | None = None, caches: Caches | None = None, registry: Registry | None = None,
          fetcher: PageFetcher | None = None, archive_check: bool = False, baseline: str | None = None,
          respect_ignore: bool = True, progress: bool = False) -> Report:
    """Audit memos, corpora and bibliographies (files, folders, `-` for stdin) as `citecheck audit`
    does: offline rules, and online the fetched pages and registries. `corpus`: a corpus file's path
    (or a loaded `Corpus`: then the result cache is not used); `caches`: see `Caches` (default
    `Caches.default(config)`); `fetcher`: a `citecheck.fetch.PageFetcher` instead of citecheck's own
    fetch (then the result cache is not used); `baseline`: report only findings not in this
    baseline file; `progress`: a progress bar on stderr while fetching. Offline, no event loop is
    started; the cyclic collector runs less often during the call, as in the command."""
    started = time.perf_counter()
    config = config or load_config()
    caches = caches if caches is not None else Caches.default(config, results=online and not archive_check)
    with _tuned_gc():
        run = _read(paths, config, corpus, caches, registry, respect_ignore)
        if online:
            from citecheck._util import aio

            report = aio.run(_online(run, caches, fetcher, archive_check, progress, started))
        else:
            inputs = build_inputs(run.read.files, run.read.problems, alone=run.read.alone)
            report = judge(inputs, config, run.registry, corpus=run.corpus, started=started)
        return _finish(report, run, baseline)


async def audit_async(paths: Iterable[str], config: Config | None = None, *, online: bool = False,
                      corpus: str | Path | Corpus | None = None, caches: Caches | None = None,
                      registry: Registry | None = None, fetcher: PageFetcher | None = None,
                      archive_check: bool = False, baseline: str | None = None,
                      respect_ignore: bool = True, progress: bool = False) -> Report:
    """`audit` from an async caller (an agent pipeline's event loop); the collector is left as it is."""
    started = time.perf_counter()
    config = config or load_config()
    caches = caches if caches is not None else Caches.default(config, results=online and not archive_check)
    run = _read(paths, config, corpus, caches, registry, respect_ignore)
    if online:
        report = await _online(run, caches, fetcher, archive_check, progress, started)
    else:
        inputs = build_inputs(run.read.files, run.read.problems, alone=run.read.alone)
        report = judge(inputs, config, run.registry, corpus=run.corpus, started=started)
    return _finish(report, run, baseline)


def _read(paths: Iterable[str], config: Config, corpus: str | Path | Corpus | None, caches: Caches,
          registry: Registry | None, respect_ignore: bool) -> _Run:
    """The rules, the corpus and the input files, in the order the command reports their errors."""
    registry = registry or build_registry(config.packs, caches.packs)
    corpus_path = str(corpus) if isinstance(corpus, (str, Path)) else None
    loaded = load_corpus(corpus_path, config.max_file_size) if corpus_path is not None else None
    if isinstance(corpus, Corpus):
        loaded = corpus
    read = read_inputs(paths, config.include or DEFAULT_INCLUDE, config.exclude, config.max_file_size,
                       respect_ignore=respect_ignore)
    return _Run(config, registry, read, loaded, corpus_path)


async def _online(run: _Run, caches: Caches, fetcher: PageFetcher | None, archive_check: bool,
                  progress: bool, started: float) -> Report:
    """The online audit, replayed from the result cache when it can be, else run (and stored)."""
    results = caches.results if fetcher is None and not archive_check and not run.read.problems else None
    key = _result_key(run) if results is not None else None
    if results is not None and key is not None:
        stored = results.lookup(key)
        if stored is not None:
            return Report(stored.findings, stored.suppressed, online=True, replayed=stored.summary)
    inputs = build_inputs(run.read.files, run.read.problems, alone=run.read.alone)
    report = await audit_inputs(inputs, run.config, run.registry, online=True, corpus=run.corpus,
                                archive_check=archive_check, fetcher=fetcher, facts=caches.facts,
                                progress=progress, started=started)
    # registry facts have lifetimes of their own (docs/scholarly.md): such a run is never memoised whole
    if results is not None and key is not None and report.outage is None and report.lookups is None:
        results.store(key, report, report.pages)
    return report


def _result_key(run: _Run) -> str | None:
    """The result cache's key for this run, when a stored result can stand for it: memos only (no
    corpus files among the inputs), no bibliography, a corpus given by its file."""
    files = run.read.files
    if any(sniff(p, t) not in ("markdown", "html", "text") for p, t in files):
        return None
    if run.config.bibliography or any(_names_bibliography(t) for _, t in files):
        return None  # the findings depend on bibliography files the key does not cover
    if run.corpus is not None and run.corpus_path is None:
        return None  # a Corpus object: the key covers a corpus file's bytes
    try:
        corpus_bytes = Path(run.corpus_path).read_bytes() if run.corpus_path else None
    except OSError:
        return None
    from citecheck.cache.results import run_key
    from citecheck.engine.select import resolve

    # the key needs each rule's ID, severity and options, not what its prepare makes of them
    return run_key(files, run.config, corpus_bytes,
                   resolve(run.registry, run.config, defer=("url", "page", "memo", "corpus", "engine")))


def _names_bibliography(text: str) -> bool:
    """Whether a memo's front matter may name a bibliography (a cheap test: the run is not cached)."""
    head = text[:20000]
    return head.startswith("---") and ("bibliography:" in head or "references:" in head)


def _finish(report: Report, run: _Run, baseline: str | None) -> Report:
    """The files read, and `baseline`'s known findings left out."""
    report.files, report.registry, report.corpus = [path for path, _ in run.read.files], run.registry, run.corpus
    if baseline:
        from citecheck.report.baseline import filter_new, load_baseline

        # the memos' lines, as `citecheck baseline` fingerprints them (a finding in a corpus or bibliography
        # file is fingerprinted without its line's text there; with it here, none of them ever matched)
        texts = {path: text for path, text in run.read.files if sniff(path, text) in ("markdown", "html", "text")}
        report.findings, hidden = filter_new(report.findings, texts, load_baseline(baseline))
        report.extra_summary["baselined"] = hidden
    return report


@contextmanager
def _tuned_gc() -> Iterator[None]:
    """The command's collector thresholds for the call, then the caller's again."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
