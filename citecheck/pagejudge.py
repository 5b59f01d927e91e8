"""Page rules judged while the audit is still fetching: a forked worker takes pages as they arrive.

An online audit is two kinds of CPU work: the fetch loop (one core: aiohttp, parsing bodies) and
the rules (page rules on every fetched page, memo rules such as M008 on the whole document). On a
multi-core machine the page rules need not wait for the last response: `fetch_all` reports each
page as it is known (`on_page`), batches of (links, page) go to a worker process forked before the
first request, and the memo rules then run in the parent while the worker finishes its queue.

Rules are pure functions of their subjects, so the worker's findings are exactly the ones the
parent would compute (a test runs both ways and compares); a rule crash comes back as the engine's
E000 finding and marks the parent's engine as crashed. Small audits (fewer than
`PARALLEL_MIN_URLS` URLs), single-core machines and platforms without `fork` judge in-process.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from citecheck.engine.run import Engine
from citecheck.models import Finding, Link, Page

PARALLEL_MIN_URLS = 300  # below this a fork costs more than it saves
BATCH = 64
_ENGINE: Engine | None = None  # what the forked worker inherits
_DOCUMENTS: list[Any] = []  # the audit's documents, inherited too
_PAGES: dict[str, Page] = {}  # the full pages the worker has been sent (M008's share needs them)
_MEMO: dict[str, Any] = {"path": None, "salt": "", "cache": None}  # page-rule memo (see citecheck.rulememo)

Item = tuple[str, list[Link], Page]  # (document path, the links citing one URL, its page)


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _warm() -> None:
    return None


def judge_batch(items: list[Item]) -> list[Finding]:
    """In the worker: page-stage findings for a batch of (path, links, page)."""
    assert _ENGINE is not None, "judge_batch runs only in a forked worker"
    for _path, links, page in items:  # kept for M008's share, which reads titles and text only
        _PAGES[page_key(links)] = slim(page)
    cache = _memo_cache()
    if cache is None:
        out: list[Finding] = []
        for path, links, page in items:
            out += _ENGINE.check_pages(links, {page_key(links): page}, path)
        return out
    return _judge_memoised(items, cache)


def _judge_memoised(items: list[Item], cache: Any) -> list[Finding]:
    """Findings for each link from the memo when known, else from the rules (then remembered);
    one read and one write transaction per batch."""
    from citecheck.rulememo import KIND, restored, storable
    from citecheck.rulememo import page_key as memo_key

    assert _ENGINE is not None
    salt = _MEMO["salt"]
    keyed = [(memo_key(salt, link, page), path, link, page) for path, links, page in items for link in links]
    known = cache.get_extras(KIND, [key for key, *_ in keyed])
    out: list[Finding] = []
    fresh: dict[str, dict[str, Any]] = {}
    for key, path, link, page in keyed:
        found = restored(known.get(key), link)
        if found is None:
            found = _ENGINE.check_pages([link], {link.url: page}, path)
            value = storable(found)
            if value is not None:
                fresh[key] = value
        out += found
    cache.put_extras(KIND, fresh)
    return out


def _memo_cache() -> Any:
    """The worker's own connection to the fetch cache (opened after the fork), or None."""
    if _MEMO["path"] is None:
        return None
    if _MEMO["cache"] is None:
        from citecheck.fetch.cache import Cache

        try:
            _MEMO["cache"] = Cache(_MEMO["path"])
        except Exception:  # noqa: BLE001 - an unusable cache only costs the memo
            _MEMO["path"] = None
            return None
    return _MEMO["cache"]


def judge_memo_share(index: int, corpus: Any, shard: tuple[int, int]) -> list[Finding]:
    """In the worker: its share of the shardable memo rules (M008) on document `index`."""
    from citecheck.engine.run import Memo

    assert _ENGINE is not None, "judge_memo_share runs only in a forked worker"
    return _ENGINE.check_memo(Memo(_DOCUMENTS[index], corpus, _PAGES), shard=shard, only_shardable=True)


def slim(page: Page) -> Page:
    """The page without the facts only page rules read (markup sample, sibling probe text)."""
    if not page.html_sample and page.sibling_text is None:
        return page
    return replace(page, html_sample="", sibling_text=None)


def page_key(links: list[Link]) -> str:
    return links[0].url


def single_threaded() -> bool:
    return threading.active_count() == 1


def can_fork() -> bool:
    return (os.cpu_count() or 1) > 1 and "fork" in multiprocessing.get_all_start_methods() \
        and sys.version_info < (3, 14)


class PageJudge:
    """Collects pages from `fetch_all(on_page=…)` and judges them in a forked worker.

    `on_page` must be called with the URL exactly as the links cite it (what `fetch_all` does)."""

    def __init__(self, engine: Engine, documents: Iterable[Any], memo_cache: str | None = None) -> None:
        """`memo_cache`: path of the fetch cache whose side table memoises page-rule results
        (None: judge every page)."""
        global _ENGINE
        documents = list(documents)
        self.engine = engine
        self.links: dict[str, list[tuple[str, list[Link]]]] = {}
        for doc in documents:
            per_url: dict[str, list[Link]] = {}
            for link in doc.links:
                per_url.setdefault(link.url, []).append(link)
            for url, links in per_url.items():
                self.links.setdefault(url, []).append((doc.path, links))
        self.batch: list[Item] = []
        self.futures: list[Future[list[Finding]]] = []
        self.documents = documents
        _ENGINE = engine
        _DOCUMENTS[:] = self.documents
        _PAGES.clear()
        if memo_cache is not None:
            from citecheck.rulememo import engine_digest

            _MEMO.update(path=memo_cache, salt=engine_digest(engine), cache=None)
        else:
            _MEMO.update(path=None, salt="", cache=None)
        context = multiprocessing.get_context("fork")
        self.pool: ProcessPoolExecutor | None = ProcessPoolExecutor(max_workers=1, mp_context=context,
                                                                    initializer=_ignore_sigint)
        self.pool.submit(_warm).result()  # fork now, before the fetcher starts any thread

    @staticmethod
    def wanted(url_count: int) -> bool:
        # Forking a process that runs other threads (an agent pipeline's executor, say) can copy a
        # lock in a held state into the child: judge in-process then.
        return url_count >= PARALLEL_MIN_URLS and can_fork() and single_threaded()

    def on_page(self, url: str, page: Page) -> Page:
        """Queue the page for the worker; return the slimmer copy the parent keeps (the markup
        sample and the sibling probe's text serve only page rules: ~40 % of a page's facts)."""
        for path, links in self.links.get(url, []):
            self.batch.append((path, links, page))
        if len(self.batch) >= BATCH:
            self._submit()
        return slim(page)

    def _submit(self) -> None:
        if self.batch and self.pool is not None:
            self.futures.append(self.pool.submit(judge_batch, self.batch))
            self.batch = []

    def share_memo(self, index: int, corpus: Any, shard: tuple[int, int]) -> None:
        """Queue the worker's share of the shardable memo rules on document `index` (after every
        page has been submitted, so the worker holds them all)."""
        self._submit()
        if self.pool is not None:
            self.futures.append(self.pool.submit(judge_memo_share, index, corpus, shard))

    def results(self) -> dict[str, list[Finding]]:
        """Every page finding, by document path (waits for the worker)."""
        self._submit()
        by_path: dict[str, list[Finding]] = {}
        try:
            for future in self.futures:
                try:
                    found = future.result()
                except Exception as err:  # noqa: BLE001 - a dead worker is reported, never a traceback
                    self._lost(by_path, err)
                    break
                for finding in found:
                    by_path.setdefault(finding.path, []).append(finding)
                    if finding.rule == "E000":
                        self.engine.crashed = True  # the worker's engine is a copy: tell the parent's
        finally:
            self.close()
        return by_path

    def _lost(self, by_path: dict[str, list[Finding]], err: BaseException) -> None:
        """The worker died (killed, out of memory): every document gets an E000 finding and the
        run exits 2 — its page findings are incomplete, and saying nothing would pass dead links."""
        from citecheck.models import Location

        self.engine.crashed = True
        for doc in self.documents:
            by_path.setdefault(doc.path, []).append(self.engine.meta(
                "E000", Location(doc.path), f"the page-rule worker process failed ({type(err).__name__}: {err}); "
                "page rules and part of M008 did not run"))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
