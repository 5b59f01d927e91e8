"""The page stage: page rules over fetched pages, and the memo rules that share out (M008), on one
process pool; used by `audit` and `harvest`.

Pages are added as the fetch produces them (`add`), unparsed when the fetcher deferred parsing, and
go to the pool in batches: a worker parses each body (`facts.complete`), runs the page rules on
every link citing it, and sends back the findings and the completed page. The parent is the only
writer of the fetch cache: it stores each completed page and keeps it slim (the markup sample and
the sibling probe's text serve page rules only). `finish()` waits for the pages and sends each
document's shares of the shardable memo rules (`SHARDABLE = True`: M008, see `Memo.share`) to the
same pool, each with just the pages its claims cite (as `claim_view`s); `results()` collects
them. When no page came unparsed (a re-audit from the cache) `flush()` sends the shares at once,
behind the page batches, so the pool is never idle while the parent shares them out. Link rules
and the other memo rules run in the parent, on `stage.parent` (the engine without the pool's rules).

One way to run: a standard-library process pool, started once `min_pages` pages have come that
still need parsing (an audit's `PARALLEL_MIN_PAGES`: a re-audit the cache answers needs none and
never starts one), or at once (`min_pages=0`, harvest); before that, and with one core, the same
calls run in-process. citecheck's own fetch awaits `room()` before each request: while `WAITING`
bodies are fetched or waiting for a worker, it waits (a pool's pending work items hold every body
sent to it in this process until a worker is done with its batch). Workers are spawned (never a fork of a process that may run threads), get the
engine and the documents as their start arguments, ignore Ctrl-C (the parent's to handle), run at
a lower priority so the fetch loop comes first, and exit as soon as the parent process ends,
however it ends (a thread waits on the parent's sentinel). Rules are pure, so
both ways give the same findings; a rule crash is the engine's E000 finding, a lost worker an E000
on every document. As with any spawning pool, a script that calls the API must guard its top
level with `if __name__ == "__main__":` (a worker imports the main module).
"""
from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from citecheck.engine.run import Engine
from citecheck.models import Corpus, Document, Fault, Finding, Link, Location, Page
from citecheck.stage._worker import Cites, Item, Judges, _call, _start_worker

if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import ProcessPoolExecutor

    from citecheck.engine.select import ActiveRule
    from citecheck.fetch.facts import Raw

PARALLEL_MIN_PAGES = 200  # pages to parse before an audit starts its pool: fewer cost less in-process
BATCH = 64  # pages per task: large enough that a task's overhead is small, small enough to keep both busy
WAITING = 16 * BATCH  # fetched or in-flight bodies the parent may hold for the stage before the fetch waits (`room`)


def worker_count() -> int:
    """Workers for this machine: one per core the fetch loop leaves, at most four (past that the
    fetch loop bounds an audit). On two cores that is one: a second worker only contended for the
    same core and cost ~1.7 CPU-s more on the 5,000-link benchmark (bench/README.md)."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may run on, not the machine's
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    if cores < 2:
        return 0
    return min(4, cores - 1)


def pool_rule(rule: ActiveRule) -> bool:
    """Whether an active rule runs in the pool: page rules and shardable memo rules."""
    return bool(rule.spec.stage == "page" or (rule.spec.stage == "memo" and rule.spec.shardable))


def split(engine: Engine) -> tuple[Engine, Engine]:
    """(the parent's engine, the pool's engine): each with the engine-stage rules, which name E000."""
    meta = [r for r in engine.active if r.spec.stage == "engine"]
    return (Engine([r for r in engine.active if not pool_rule(r)]),
            Engine([r for r in engine.active if pool_rule(r)] + meta))


def slim(page: Page) -> Page:
    """The page without the facts only page rules read (markup sample, sibling probe text)."""
    if not page.html_sample and page.sibling_text is None:
        return page
    return replace(page, html_sample="", sibling_text=None)


def claim_view(page: Page) -> Page:
    """What a share of a shardable memo rule gets of a page: the facts a claim is judged against
    (URL, outcome, title, text sample), not its headers, hops and meta, which would only make the
    parent's pickled shares larger (see README, "SHARDABLE")."""
    return Page(page.url, page.outcome, title=page.title, text_sample=page.text_sample)


class PageStage:
    """Page rules and shardable memo rules for one run: in a pool of `workers` processes once
    `min_pages` pages needing parsing have come (0: at once), else in-process (`workers=0`: always)."""

    def __init__(self, engine: Engine, documents: Iterable[Document] = (), corpus: Corpus | None = None, *,
                 workers: int = 0, min_pages: int = 0, store: Callable[[list[Page]], Any] | None = None) -> None:
        """`store`: called with completed fresh pages to cache (the parent is the only writer)."""
        self.parent, engine = split(engine)
        self.shardable = bool(engine.by_stage.get("memo"))
        self.documents, self.corpus, self.store = list(documents), corpus, store
        self.cites: dict[str, Cites] = {}
        for doc in self.documents:
            per_url: dict[str, list[Link]] = {}
            for link in doc.links:
                per_url.setdefault(link.url, []).append(link)
            for url, links in per_url.items():
                self.cites.setdefault(url, []).append((doc.path, links))
        self.pages: dict[str, Page] = {}  # slim, as cited
        self.found: dict[str, list[Finding]] = {}
        self.crashed = False
        self.lost = ""
        self.unjudged: set[str] = set()  # URLs of page batches a lost worker took with it: "unchecked", never ok
        self.workers, self.min_pages = workers, min_pages
        self._batch: list[Item] = []
        self._running: list[Future[Any]] = []
        # set by the pool's thread when a page batch is done; only `_running` holds the futures, so
        # a batch's result (its completed, unslimmed pages) is freed as soon as it is taken
        self._some_done = False
        self._memo: list[Future[Any]] = []
        self._urls: dict[Future[Any], list[str]] = {}  # each running batch's URLs (`unjudged` if it is lost)
        self._bodies: dict[Future[Any], int] = {}  # each running batch's unparsed bodies (`_held`)
        self._shared = False  # the shardable memo rules' shares are sent
        self._unparsed = 0  # pages that came with a body still to parse (their facts are not known yet)
        # Back-pressure (`room`): bodies sent to the pool wait in its pending work items, in this
        # process, until a worker is done with their batch; a niced worker on a loaded machine lagged
        # the fetch by thousands of bodies (parent peak RSS 146 -> 297 MB on the 5,000-link benchmark).
        self._held = 0  # unparsed bodies in `_batch` and in batches not taken back yet
        self._admitted = 0  # fetches `room` let start whose page has not come yet
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.judges = Judges(engine, self.documents, corpus)
        self.pool: ProcessPoolExecutor | None = None
        if workers >= 1 and min_pages <= 0:
            self._start()

    def _start(self) -> None:
        """Start every worker now. Rules that cannot be sent to another process (a function defined
        inside a function, say) are run here instead, and the run says so."""
        # the pool's stack (multiprocessing, pickle: ~15 ms) is imported only by a run that starts
        # workers; an offline audit's in-process stage never does
        import multiprocessing
        import pickle
        from concurrent.futures import ProcessPoolExecutor

        try:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_start_worker, initargs=(self.judges,))
            for _ in range(self.workers):  # each spawns a worker now, pickling its start arguments here
                self.pool.submit(_call, "ready", None)
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            print(f"citecheck: warning: the rules cannot be sent to worker processes ({err}); "
                  "judging pages in this process", file=sys.stderr)
            self.close(wait=False)
            self.workers = 0

    def _task(self, method: str, argument: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            if self.pool is not None:
                return self.pool.submit(_call, method, argument)
            future.set_result(getattr(self.judges, method)(argument))
        except Exception as err:  # noqa: BLE001 - a broken pool or a failed call: reported by the taker
            future.set_exception(err)
        return future

    def add(self, url: str, page: Page, raw: Raw | None = None) -> Page:
        """Take `url`'s page (with `raw`, its unparsed body); return the slim copy to keep meanwhile
        (`fetch_all`'s `on_page`)."""
        kept = self.pages[url] = slim(page)
        self._admitted = max(0, self._admitted - 1)
        if raw is not None:
            self._unparsed += 1
            self._held += 1
            if self._unparsed == self.min_pages and self.workers >= 1 and self.pool is None:
                self._start()
        elif self._waiters:
            self._admit()  # a page with nothing to parse: its fetch's room is free again
        self._batch.append((url, page, raw, self.cites.get(url, [])))
        if len(self._batch) >= BATCH:
            self._send()
        self._take_done()
        return kept

    def _take_done(self) -> None:
        if self._some_done:
            self._some_done = False  # reset before the scan: a batch done after it sets it again
            for future in [f for f in self._running if f.done()]:
                self._take(future)

    def _note_done(self, _: Future[Any]) -> None:
        self._some_done = True
        if self._waiters and self._loop is not None:  # the fetch waits for room: take the batch back now
            try:
                self._loop.call_soon_threadsafe(self._take_done)
            except RuntimeError:  # the run's loop is closed: nobody waits any more
                pass

    async def room(self) -> None:
        """Wait until the stage has room for one more body (`fetch_all`'s `room`, awaited before each
        fetch): the fetches let start and the unparsed bodies not yet judged are at most `WAITING`.
        In-process each batch is judged as it is sent, so only the fetches in flight count; with a
        pool, the bodies its workers have not taken back yet do too. A memo of fewer distinct URLs
        than `WAITING` never waits."""
        if self._held + self._admitted < WAITING:
            self._admitted += 1
            return
        import asyncio  # here, not at the top: an offline audit builds a stage and never awaits it

        self._loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = self._loop.create_future()
        self._waiters.append(waiter)
        self._take_done()  # a batch may have ended since the last page came
        try:
            await waiter  # `_admit` counted it
        except BaseException:  # cancelled (the run's deadline): no longer waiting
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            raise

    def _admit(self) -> None:
        """Let waiting fetches start while there is room."""
        while self._waiters and self._held + self._admitted < WAITING:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._admitted += 1
                waiter.set_result(None)

    def _send(self) -> None:
        if self._batch:
            future = self._task("pages", self._batch)
            self._urls[future] = [item[0] for item in self._batch]
            self._bodies[future] = sum(1 for item in self._batch if item[2] is not None)
            self._batch = []
            self._running.append(future)
            future.add_done_callback(self._note_done)

    def _take(self, future: Future[Any]) -> None:
        self._running.remove(future)
        urls = self._urls.pop(future, [])
        self._held -= self._bodies.pop(future, 0)
        self._admit()
        try:
            found, completed = future.result()
        except Exception as err:  # noqa: BLE001 - a lost worker is reported, never a silent pass
            self.lost = self.lost or f"{type(err).__name__}: {err}"
            self.unjudged.update(urls)  # no page rule ran on them: unchecked, not ok
            return
        self._note(found)
        for page in completed:
            self.pages[page.url] = slim(page)
        if self.store is not None and completed:
            # at once, one transaction a batch: on a team cache other runners wait for these facts
            stored = {p.url.split("#", 1)[0]: p for p in completed}  # one row per fetched URL
            self.store([p if p.url == u else replace(p, url=u) for u, p in stored.items()])

    def _note(self, found: list[Finding]) -> None:
        for finding in found:
            self.found.setdefault(finding.path, []).append(finding)
            if finding.fault is Fault.CRASH:
                self.crashed = True  # the worker's engine is a copy: say it here

    def flush(self) -> None:
        """No more pages: send the last batch, and the shardable memo rules' shares when every page
        is known already (no body was left to parse: facts from the cache), so that the pool goes
        on from the page batches to them while the caller runs the link rules."""
        self._send()
        if self.shardable and not self._unparsed and not self._shared:
            self._share_memo()

    def finish(self) -> dict[str, Page]:
        """No more pages: wait for them, send the shardable memo rules' shares (if `flush` could
        not); the slim pages."""
        self.flush()
        while self._running:  # as they come: a result's pages are slimmed and its batch freed at once
            wait(self._running, return_when=FIRST_COMPLETED)
            for future in [f for f in self._running if f.done()]:
                self._take(future)
        if self.shardable and not self._shared:
            self._share_memo()
        return self.pages

    def _share_memo(self) -> None:
        """Each document's claims in one interleaved share per worker, each share with the pages it
        cites (as `claim_view`s); in-process, one share of all."""
        from citecheck.support.claims import cited_claims, cited_pages

        self._shared = True
        parts = self.workers if self.pool is not None else 1
        for index, doc in enumerate(self.documents):
            if parts == 1:
                self._memo.append(self._task("memo", (index, self.pages, (0, 1))))
                continue
            claims = cited_claims(doc)
            for part in range(parts):
                pages = {url: claim_view(page) for url, page in cited_pages(claims[part::parts], self.pages).items()}
                self._memo.append(self._task("memo", (index, pages, (part, parts))))

    def results(self) -> dict[str, list[Finding]]:
        """The pool's findings by document path (waits for them); a lost worker is an E000 on each document."""
        for future in self._memo:
            try:
                self._note(future.result())
            except Exception as err:  # noqa: BLE001 - a lost worker is reported, never a silent pass
                self.lost = self.lost or f"{type(err).__name__}: {err}"
        self._memo = []
        if self.lost:
            self.crashed = True
            for doc in self.documents:
                self.found.setdefault(doc.path, []).append(self.parent.crash(
                    Location(doc.path), f"a page-stage worker process failed ({self.lost}); the page "
                    "rules and M008 may not have run on every page"))
        return self.found

    async def judge(self, link: Link, page: Page) -> list[Finding]:
        """The page rules' findings for one link and its page, now (harvest: one candidate at a time)."""
        import asyncio  # here, not at the top: an offline audit builds a stage and never awaits it

        found: list[Finding]
        try:
            found, _ = await asyncio.wrap_future(self._task("pages", [(link.url, page, None,
                                                                        [(link.location.path, [link])])]))
        except Exception as err:  # noqa: BLE001 - a lost worker fails the candidate, never passes it
            self.lost = self.lost or f"{type(err).__name__}: {err}"
            self.unjudged.add(link.url)
            found = [self.parent.crash(link.location, f"a page-stage worker process failed ({self.lost}); "
                                       "the page rules did not run on this page")]
        if any(f.fault is Fault.CRASH for f in found):
            self.crashed = True
        return found

    async def call(self, func: Callable[..., Any], *args: Any) -> Any:
        """`func(*args)` on the pool (a module-level function), or in a thread without one."""
        import asyncio

        if self.pool is not None:
            return await asyncio.wrap_future(self.pool.submit(func, *args))
        return await asyncio.get_running_loop().run_in_executor(None, func, *args)

    def close(self, wait: bool = True) -> None:
        """Stop the workers (`wait=False`: an interrupted run, pending work is dropped)."""
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=True)
            self.pool = None
