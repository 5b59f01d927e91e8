"""Pages parsed and judged while the audit is still fetching: forked workers take pages as they arrive.

An online audit is three kinds of CPU work: the fetch loop (aiohttp), parsing each body into its
facts, and the rules (page rules on every page, M008 on every cited claim). On a multi-core machine
the fetch loop should do nothing but network work: `fetch_all(on_page=…, defer_parse=True)` hands
each fresh page over unparsed, with its body, and `PageJudge` sends it to one of `WORKERS` worker
processes forked before the first request. A worker parses the body (`facts.complete`), writes the
completed page to the fetch cache, runs the page rules, and sends back the findings and the page
without its markup sample. The workers run at a lower priority (`NICE`), so the fetch loop and the
servers it talks to come first and the workers use the CPU they leave.

Pages are routed so that each worker holds every page its share of M008 needs: the memo's cited
claims are partitioned into groups that share no source (`support.claims.partition`, derived by
worker 0 as it starts, so not on the fetch loop's path; the claims it found travel with the routes
to the other workers, which adopt them instead of finding them again); a URL goes to the worker of
its claims' group (URLs no claim cites go to the least loaded worker). A worker judges each of its
claims (M008's `options["shard"]`) as soon as it holds the pages of every URL the claim cites, so
most of M008 runs while the fetch goes on; after the fetch it judges the rest (claims citing a URL
in a spelling no link has, which M008 looks up among all pages), and the parent runs the other
memo rules on the completed pages. With `judge_links=True` the workers also run the link rules (a
share of each document's links each, as they start, while the parent is still importing its HTTP
stack), so none of that is left for after the fetch. Results travel back pickled and are unpickled
by `results()` once the fetch is over: during it, the parent's CPU is the fetch loop's.

Rules are pure functions of their subjects, so the findings are exactly the ones one process would
compute (a test runs both ways and compares); a rule crash comes back as the engine's E000 finding
and marks the parent's engine as crashed; a worker that dies is an E000 on every document. Small
audits (fewer than `PARALLEL_MIN_URLS` URLs), single-core machines and platforms without `fork`
judge in-process.
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from citecheck.engine.run import Engine
from citecheck.models import Finding, Link, Page, evolve

PARALLEL_MIN_URLS = 300  # below this a fork costs more than it saves
BATCH = 64


def worker_count() -> int:
    """Page workers for this machine: one per core the fetch loop leaves, at least two (the layout
    measured on two cores, where the niced pair shares the second core), at most four (past that
    the fetch loop, not judging, bounds an audit). More than two is not measured here."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may run on, not the machine's
    except (AttributeError, OSError):
        cores = os.cpu_count() or 2
    return max(2, min(4, cores - 1))


WORKERS = worker_count()
NICE = 10  # workers yield to the fetch loop (and, on a loopback benchmark, to the server)
_ENGINE: Engine | None = None  # what the forked workers inherit
_DOCUMENTS: list[Any] = []  # the audit's documents, inherited too
_CORPUS: list[Any] = [None]  # the corpus M008 may judge claims against, inherited
_LINKS: dict[str, list[tuple[str, list[Link]]]] = {}  # URL → (document path, the links citing it)
_PAGES: dict[str, Page] = {}  # in a worker: the pages it has judged (its M008 share reads them)
_SHARDED = [False]  # a shardable memo rule (M008) is active: pages are routed by the claims partition
_SIBLINGS: dict[str, str] = {}  # in a worker: sibling-probe URL → its parsed text sample
_SPOOL: list[Any] = [None]  # the audit's body spool (a Spool), inherited
_MEMO: dict[str, Any] = {"path": None, "salt": "", "cache": None, "guard": None}  # page-rule memo (see citecheck.rulememo)
_JUDGE_LINKS = [False]  # the workers run the link rules too (each on its share of every document's links)
_CLAIMS: dict[int, _Claims] = {}  # in a worker: per document index, its M008 claims and which are judged
DEFERRED = frozenset({"pages", "early", "links", "memo"})  # results, unpickled by `results()` after the fetch
EARLY_MIN = 32  # claims that became judgeable: judge them once there are this many (one Memo per call)

Item = tuple[str, list[Link], Page]  # (document path, the links citing one URL, its page)
Arrival = tuple[str, Any, Any]  # (URL as cited, its page or its spooled place, its spooled facts.Raw or None)


def judge_batch(arrivals: list[Arrival]) -> tuple[list[Finding], dict[str, Page]]:
    """In a worker: complete the unparsed pages, store them in the cache, judge every link citing
    them; returns the page-stage findings and the completed pages (slim)."""
    assert _ENGINE is not None, "judge_batch runs only in a forked worker"
    items: list[Item] = []
    completed: dict[str, Page] = {}
    for url, page, raw in arrivals:
        if not isinstance(page, Page):  # a cache hit, spooled whole (`Spool.put_page`)
            page = _SPOOL[0].get_page(page)
        if raw is not None:
            page = completed[url] = _complete(page, raw)
        _PAGES[url] = slim(page)
        for claims in _CLAIMS.values():
            claims.arrived(url)
        items += [(path, links, page) for path, links in _LINKS.get(url, [])]
    cache = _memo_cache()
    if cache is not None and completed:
        stored = {p.url.split("#", 1)[0]: p for p in completed.values()}  # one row per fetched URL
        cache.put_many(replace(p, url=u) if p.url != u else p for u, p in stored.items())
    if cache is None:
        out: list[Finding] = []
        for path, links, page in items:
            out += _ENGINE.check_pages(links, {page_key(links): page}, path)
    else:
        out = _judge_memoised(items, cache)
    return out, {url: _PAGES[url] for url in completed}


class _Claims:
    """A worker's own M008 claims in one document: which still wait for a page, which are ready
    (every URL they cite has its page here) and which are judged. A claim whose URL never arrives
    under that spelling (M008 then looks it up by dedupe key among every page) waits for the end."""

    def __init__(self, index: int, owners: tuple[int, ...], part: int) -> None:
        from citecheck.support.claims import cited_claims

        self.index, self.owners, self.part = index, owners, part
        self.missing: dict[int, int] = {}  # claim → how many of its URLs have no page here yet
        self.by_url: dict[str, list[int]] = {}
        self.ready: list[int] = []
        self.judged: set[int] = set()
        for number, claim in enumerate(cited_claims(_DOCUMENTS[index])):
            if number >= len(owners) or owners[number] != part:
                continue
            urls = {url for url in claim.urls if url not in _PAGES}
            if not urls:
                self.ready.append(number)
                continue
            self.missing[number] = len(urls)
            for url in urls:
                self.by_url.setdefault(url, []).append(number)

    def arrived(self, url: str) -> None:
        for number in self.by_url.pop(url, ()):
            self.missing[number] -= 1
            if not self.missing[number]:
                del self.missing[number]
                self.ready.append(number)

    def judge(self, numbers: Iterable[int], pages: dict[str, Page]) -> list[Finding]:
        """M008 (every shardable memo rule) on just these claims, against `pages`."""
        from citecheck.engine.run import Memo

        assert _ENGINE is not None
        numbers = [n for n in numbers if n not in self.judged]
        if not numbers:
            return []
        self.judged.update(numbers)
        mine = [-1] * len(self.owners)
        for number in numbers:
            mine[number] = self.part
        return _ENGINE.check_memo(Memo(_DOCUMENTS[self.index], _CORPUS[0], pages),
                                  shard=(self.part, WORKERS, tuple(mine)), only_shardable=True)

    def judge_ready(self, least: int) -> list[Finding]:
        """The ready claims, once there are `least`, against just the pages they cite: every URL
        they cite has its page (so M008 never looks one up among the others), and the rule's
        setup then costs what these claims cite, not what the worker holds."""
        if len(self.ready) < least:
            return []
        from citecheck.support.claims import cited_claims

        ready, self.ready = self.ready, []
        claims = cited_claims(_DOCUMENTS[self.index])
        cited = {url: _PAGES[url] for number in ready for url in claims[number].urls}
        return self.judge(ready, cited)

    def judge_rest(self) -> list[Finding]:
        """Every claim of this worker not judged yet (the run's end: every page has come)."""
        return self.judge((n for n, owner in enumerate(self.owners) if owner == self.part), _PAGES)


def _watch_claims(part: int, claim_part: tuple[tuple[int, ...], ...]) -> None:
    _CLAIMS.clear()
    for index, owners in enumerate(claim_part):
        _CLAIMS[index] = _Claims(index, owners, part)


def _judge_early() -> list[Finding]:
    """The claims whose pages have all come, once there are `EARLY_MIN` of them in a document."""
    out: list[Finding] = []
    for claims in _CLAIMS.values():
        out += claims.judge_ready(EARLY_MIN)
    return out


def _judge_links(part: int) -> list[Finding]:
    """The link rules on this worker's share of every document's links (every WORKERS-th link)."""
    assert _ENGINE is not None
    out: list[Finding] = []
    for doc in _DOCUMENTS:
        out += _ENGINE.check_links(doc.links[part::WORKERS], doc.path)
    return out


def _complete(page: Page, spooled: Any) -> Page:
    from citecheck.fetch.facts import complete, sibling_sample

    raw = _SPOOL[0].get(spooled)
    text = None
    if raw.sibling is not None:
        probe = raw.sibling[0]
        if probe not in _SIBLINGS:
            _SIBLINGS[probe] = sibling_sample(raw.sibling)
        text = _SIBLINGS[probe]
    return complete(page, raw, text)


class Spool:
    """Unparsed bodies on their way to the workers, in an unlinked temporary file: the parent
    writes each body once as it arrives and sends only its place, a worker reads it back. Bodies
    waiting for a busy worker sit in the page cache, not in the parent's memory, and are neither
    pickled nor pushed through a pipe. A body that cannot be written travels inline instead."""

    def __init__(self) -> None:
        import tempfile

        self.file = tempfile.TemporaryFile(prefix="citecheck-bodies-")  # noqa: SIM115 - closed by close()
        self.fd = self.file.fileno()
        self.end = 0
        self.probes: dict[str, tuple[int, int]] = {}  # sibling-probe URL → its body's place

    def _write(self, body: bytes) -> tuple[int, int] | bytes:
        try:
            written = os.pwrite(self.fd, body, self.end)
        except OSError:
            return body
        if written != len(body):
            return body
        place = (self.end, written)
        self.end += written
        return place

    def put(self, raw: Any) -> tuple[Any, ...]:
        """(body place or bytes, content type, sibling) with the sibling's body written once per host."""
        sibling = None
        if raw.sibling is not None:
            probe, body, content_type = raw.sibling
            place: tuple[int, int] | bytes | None = self.probes.get(probe)
            if place is None:
                where = self._write(body)
                if isinstance(where, tuple):
                    self.probes[probe] = where
                place = where
            sibling = (probe, place, content_type)
        return (self._write(raw.body), raw.content_type, sibling)

    def put_page(self, page: Page) -> tuple[int, int] | Page:
        """A complete page (a cache hit), pickled into the spool; the page itself when that fails."""
        import pickle

        where = self._write(pickle.dumps(page, protocol=pickle.HIGHEST_PROTOCOL))
        return where if isinstance(where, tuple) else page

    def get_page(self, where: tuple[int, int]) -> Page:
        """In a worker: the page `put_page` spooled (our own bytes, written by the parent)."""
        import pickle

        page: Page = pickle.loads(self._read(where))
        return page

    def _read(self, where: tuple[int, int] | bytes) -> bytes:
        if isinstance(where, bytes):
            return where
        offset, length = where
        return os.pread(self.fd, length, offset)

    def get(self, spooled: tuple[Any, ...]) -> Any:
        """In a worker: the `facts.Raw` that `put` spooled."""
        from citecheck.fetch.facts import Raw

        where, content_type, sibling = spooled
        if sibling is not None:
            probe, place, sibling_type = sibling
            # a worker parses each host's probe once (`_SIBLINGS`): read its body only then
            body = b"" if probe in _SIBLINGS else self._read(place)
            sibling = (probe, body, sibling_type)
        return Raw(self._read(where), content_type, sibling)

    def close(self) -> None:
        self.file.close()


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
        from citecheck.fetch.cache import open_store

        try:
            _MEMO["cache"] = open_store(_MEMO["path"], guard=_MEMO["guard"])
        except Exception as err:  # noqa: BLE001 - an unusable cache only costs the memo
            if str(_MEMO["path"]).startswith(("postgresql://", "postgres://")):  # said, never silent
                print(f"citecheck: warning: a page worker cannot use the team cache ({err}); its pages are "
                      "not stored", file=sys.stderr)
            _MEMO["path"] = None
            return None
    return _MEMO["cache"]


def judge_memo_share(index: int, shard: tuple[int, int], owners: tuple[int, ...] | None) -> list[Finding]:
    """In a worker: its part of the shardable memo rules (M008) on document `index` (`owners`: the
    worker of each cited claim, from the partition; None: interleaved parts)."""
    from citecheck.engine.run import Memo

    assert _ENGINE is not None, "judge_memo_share runs only in a forked worker"
    claims = _CLAIMS.get(index)
    if claims is not None and owners is not None and claims.owners == owners:
        return claims.judge_rest()  # the claims judged early are not judged again
    return _ENGINE.check_memo(Memo(_DOCUMENTS[index], _CORPUS[0], _PAGES),
                              shard=(*shard, owners) if owners is not None else shard, only_shardable=True)


def _serve(index: int, inbox: Any, outbox: Any) -> None:
    """A worker's loop: ("pages", arrivals), ("claims", (owners, pickled claims)) and ("memo",
    document index) in, results out (see `_send`), None ends."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        os.nice(NICE)
    except OSError:
        pass
    try:
        if _SHARDED[0] and index == 0:  # worker 0 derives the partition and sends the parent the routes
            from citecheck.support.claims import cited_claims, partition

            try:
                parts = partition(_DOCUMENTS, WORKERS)
            except BaseException as err:  # noqa: BLE001 - reported as a lost worker, never a silent pass
                _send(outbox, "failed", f"partition: {type(err).__name__}: {err}")
                return
            # the claims it found on the way, pickled once for the other workers (finding them
            # again costs each ~0.25 s on 5,000 links; unpickling them 0.07 s)
            found = pickle.dumps([cited_claims(doc) for doc in _DOCUMENTS], protocol=pickle.HIGHEST_PROTOCOL)
            _send(outbox, "routes", (parts.url_part, parts.load, parts.claim_part, found))
            _watch_claims(index, parts.claim_part)
        if _JUDGE_LINKS[0]:
            _send(outbox, "links", _judge_links(index))
    except BaseException as err:  # noqa: BLE001 - reported as a lost worker, never a silent pass
        _send(outbox, "failed", f"{type(err).__name__}: {err}")
        return
    while True:
        message = inbox.get()
        if message is None:
            _send(outbox, "done", None)
            return
        kind, payload = message
        try:
            if kind == "claims":  # worker 0's partition and claims, forwarded by the parent
                owners, found = payload
                from citecheck.support.claims import adopt

                for doc, claims in zip(_DOCUMENTS, pickle.loads(found), strict=True):
                    adopt(doc, claims)
                _watch_claims(index, owners)
                continue
            result = judge_batch(payload) if kind == "pages" else judge_memo_share(*payload)
            _send(outbox, kind, result)
            if kind == "pages" and _CLAIMS:
                early = _judge_early()
                if early:
                    _send(outbox, "early", early)
        except BaseException as err:  # noqa: BLE001 - reported as a lost worker, never a silent pass
            _send(outbox, "failed", f"{type(err).__name__}: {err}")
            return


def _send(outbox: Any, kind: str, payload: Any) -> None:
    """One message to the parent: its kind, a newline, the pickled payload (see `_Worker._read`)."""
    outbox.send_bytes(kind.encode("ascii") + b"\n" + pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))


def slim(page: Page) -> Page:
    """The page without the facts only page rules read (markup sample, sibling probe text)."""
    if not page.html_sample and page.sibling_text is None:
        return page
    return evolve(page, html_sample="", sibling_text=None)


def page_key(links: list[Link]) -> str:
    return links[0].url


def single_threaded() -> bool:
    return threading.active_count() == 1


def can_fork() -> bool:
    return (os.cpu_count() or 1) > 1 and "fork" in multiprocessing.get_all_start_methods() \
        and sys.version_info < (3, 14)


class _Worker:
    """One forked worker: a queue in (fed by its own thread, so the event loop never blocks on a
    full pipe), a pipe out (read by a parent thread as results come, so the worker never waits)."""

    def __init__(self, context: Any, index: int) -> None:
        self.index = index
        self.inbox = context.Queue()
        reader, writer = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(index, self.inbox, writer), daemon=True,
                                       name=f"citecheck-pages-{index}")
        self.process.start()
        writer.close()  # the worker holds the only write end: its death is an EOF here
        self.reader = reader
        self.messages: list[tuple[str, Any]] = []
        self.thread: threading.Thread | None = None

    def start_reading(self) -> None:
        self.thread = threading.Thread(target=self._read, name=f"citecheck-pages-{self.index}-results",
                                       daemon=True)
        self.thread.start()

    def _read(self) -> None:
        """Collect the worker's messages. Findings and pages stay pickled until `results()`: the
        parent's CPU is the fetch loop's while it runs, and is idle once it has ended."""
        while True:
            try:
                data = self.reader.recv_bytes()
            except (EOFError, OSError):
                self.messages.append(("lost", f"exit code {self.process.exitcode}"))
                return
            head, _, body = data.partition(b"\n")
            kind = head.decode("ascii")
            self.messages.append((kind, body if kind in DEFERRED else pickle.loads(body)))
            if kind in ("done", "failed"):
                return


class PageJudge:
    """Collects pages from `fetch_all(on_page=…, defer_parse=True)`, has forked workers parse and
    judge them, and gathers the findings and the completed pages.

    `on_page` must be called with the URL exactly as the links cite it (what `fetch_all` does)."""

    def __init__(self, engine: Engine, documents: Iterable[Any], memo_cache: str | None = None,
                 corpus: Any = None, judge_links: bool = False, cache_guard: Any = None) -> None:
        """`memo_cache`: path of the fetch cache that gets the completed pages and whose side table
        memoises page-rule results (None: no cache). `judge_links`: the workers run the link rules too,
        and `results()` has their findings (the caller then must not run them)."""
        global _ENGINE
        documents = list(documents)
        self.engine = engine
        _LINKS.clear()
        for doc in documents:
            per_url: dict[str, list[Link]] = {}
            for link in doc.links:
                per_url.setdefault(link.url, []).append(link)
            for url, links in per_url.items():
                _LINKS.setdefault(url, []).append((doc.path, links))
        self.route: dict[str, int] = {}
        self.load = [0] * WORKERS
        self.owners: tuple[tuple[int, ...], ...] = ()  # per document: the worker of each cited claim
        # With M008 active, claims sharing a source must stay on one worker: worker 0 derives the
        # partition as it starts (it reads every sentence: ~0.3 s on 5,000 links, off the fetch
        # loop's path) and sends the routes; pages that arrive before them wait here.
        _SHARDED[0] = any(r.spec.shardable for r in engine.by_stage.get("memo", []))
        self.routed = not _SHARDED[0]
        self.waiting: list[tuple[str, Page, Any]] = []
        self.batches: list[list[Arrival]] = [[] for _ in range(WORKERS)]
        self.documents = documents
        self.completed: dict[str, Page] = {}
        _ENGINE = engine
        _DOCUMENTS[:] = documents
        _CORPUS[0] = corpus
        _JUDGE_LINKS[0] = self.judge_links = judge_links
        _CLAIMS.clear()
        _PAGES.clear()
        _SIBLINGS.clear()
        if memo_cache is not None:
            from citecheck.rulememo import engine_digest

            _MEMO.update(path=memo_cache, salt=engine_digest(engine), cache=None, guard=cache_guard)
        else:
            _MEMO.update(path=None, salt="", cache=None, guard=None)
        import citecheck.fetch.facts  # noqa: F401 - the parent fetches anyway: import once, not once per worker

        if memo_cache is not None:  # the workers write to the cache: load its stack before forking too
            from citecheck.fetch.cache import _sqlite_utils

            _sqlite_utils()

        self.spool = _SPOOL[0] = Spool()
        context = multiprocessing.get_context("fork")
        # Every worker is forked before any thread starts (queue feeders, result readers, the fetcher's).
        self.workers: list[_Worker] = [_Worker(context, i) for i in range(WORKERS)]
        for worker in self.workers:
            worker.start_reading()
        self.closed = False

    @staticmethod
    def wanted(url_count: int) -> bool:
        # Forking a process that runs other threads (an agent pipeline's executor, say) can copy a
        # lock in a held state into the child: judge in-process then.
        return url_count >= PARALLEL_MIN_URLS and can_fork() and single_threaded()

    def on_page(self, url: str, page: Page, raw: Any = None) -> Page:
        """Queue the page (and, unparsed, its body) for its worker; return the copy the parent keeps
        until the worker sends the completed one back (the markup sample and the sibling probe's
        text serve only page rules: ~40 % of a page's facts)."""
        kept = slim(page)
        sent: Any = page
        if raw is not None:
            raw = self.spool.put(raw)
        else:  # a cache hit: its full facts (markup sample included) wait in the spool, not here
            sent = self.spool.put_page(page)
        if not self.routed:
            self.waiting.append((url, sent, raw))
            if not self._take_routes(block=False):
                return kept
            waiting, self.waiting = self.waiting, []
            for item in waiting:
                self._queue(*item)
            return kept
        self._queue(url, sent, raw)
        return kept

    def _take_routes(self, block: bool) -> bool:
        """Adopt worker 0's routes once they have come (`block`: wait for them)."""
        reader = self.workers[0]
        while True:
            for kind, payload in reader.messages[:2]:
                if kind == "routes":
                    url_part, load, self.owners, found = payload
                    self.route.update(url_part)
                    self.load = list(load)
                    self.routed = True
                    for worker in self.workers[1:]:  # before any page of theirs: they judge claims early
                        if not self.closed:
                            worker.inbox.put(("claims", (self.owners, found)))
                    return True
                if kind in ("lost", "failed"):
                    self.routed = True  # the worker is gone: results() reports it
                    return True
            if not block:
                return False
            if reader.thread is not None:
                reader.thread.join(0.01)

    def _queue(self, url: str, page: Any, raw: Any) -> None:
        part = self.route.get(url)
        if part is None:
            part = self.route[url] = min(range(WORKERS), key=self.load.__getitem__)
            self.load[part] += 1
        batch = self.batches[part]
        batch.append((url, page, raw))
        if len(batch) >= BATCH:
            self._submit(part)

    def _submit(self, part: int) -> None:
        batch = self.batches[part]
        if batch and not self.closed:
            self.workers[part].inbox.put(("pages", batch))
            self.batches[part] = []

    def _flush(self) -> None:
        """Send every queued page (waiting for the routes first, when they have not come yet)."""
        if not self.routed:
            self._take_routes(block=True)
            waiting, self.waiting = self.waiting, []
            for item in waiting:
                self._queue(*item)
        for part in range(WORKERS):
            self._submit(part)

    def share_memo(self, index: int) -> None:
        """Queue every worker's part of the shardable memo rules on document `index` (after every
        page has been submitted, so each worker holds the pages of its part)."""
        self._flush()
        owners = self.owners[index] if index < len(self.owners) else None
        for part, worker in enumerate(self.workers):
            if not self.closed:
                worker.inbox.put(("memo", (index, (part, WORKERS), owners)))

    def results(self) -> dict[str, list[Finding]]:
        """Every page finding and M008 share, by document path (waits for the workers); the
        completed pages are in `self.completed` afterwards."""
        self._flush()
        by_path: dict[str, list[Finding]] = {}
        lost: list[str] = []
        try:
            for worker in self.workers:
                if not self.closed:
                    worker.inbox.put(None)
            read = [0] * len(self.workers)  # messages handled, per worker
            running = list(self.workers)
            while running:  # unpickle results as they come, while the other worker still judges
                for worker in list(running):
                    assert worker.thread is not None
                    alive = worker.thread.is_alive()  # before reading: a message added after is read next round
                    messages = worker.messages
                    while read[worker.index] < len(messages):
                        at = read[worker.index]
                        kind, message = messages[at]
                        messages[at] = (kind, None)  # its bytes go as its objects come: no peak of both
                        self._take(worker, kind, message, by_path, lost)
                        read[worker.index] += 1
                    if not alive:
                        running.remove(worker)
                if running:
                    thread = running[0].thread
                    assert thread is not None
                    thread.join(0.01)
        finally:
            self.close()
        if lost:
            self._lost(by_path, "; ".join(lost))
        return by_path

    def _take(self, worker: _Worker, kind: str, message: Any, by_path: dict[str, list[Finding]],
              lost: list[str]) -> None:
        payload = pickle.loads(message) if kind in DEFERRED else message
        if kind in ("lost", "failed"):
            lost.append(f"worker {worker.index}: {payload}")
            return
        if kind == "pages":
            found, pages = payload
            self.completed.update(pages)
        elif kind in ("memo", "early", "links"):
            found = payload
        else:  # routes, done
            return
        for finding in found:
            by_path.setdefault(finding.path, []).append(finding)
            if finding.rule == "E000":
                self.engine.crashed = True  # the worker's engine is a copy: tell the parent's

    def _lost(self, by_path: dict[str, list[Finding]], why: str) -> None:
        """A worker died (killed, out of memory) or failed: every document gets an E000 finding and
        the run exits 2 — its findings are incomplete, and saying nothing would pass dead links."""
        from citecheck.models import Location

        self.engine.crashed = True
        for doc in self.documents:
            by_path.setdefault(doc.path, []).append(self.engine.meta(
                "E000", Location(doc.path), f"a page-rule worker process failed ({why}); "
                "its share of the page rules, link rules and M008 may not have run"))

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for worker in self.workers:
            if worker.process.is_alive() and (worker.thread is None or worker.thread.is_alive()):
                worker.process.terminate()  # an interrupted audit: do not wait for the queue
            worker.process.join(timeout=5)
            worker.inbox.close()
            worker.inbox.cancel_join_thread()
            worker.reader.close()
        self.spool.close()
