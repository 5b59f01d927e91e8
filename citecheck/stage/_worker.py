"""What runs in a page-stage worker (`citecheck.stage.pages`): the `Judges` a worker holds, and the
pool's initializer and task entry. The parent uses `Judges` too, in-process, below the pool's threshold."""
from __future__ import annotations

import os
from typing import Any

from citecheck.engine.run import Engine, Memo
from citecheck.models import Corpus, Document, Finding, Link, Page

NICE = 10  # workers yield to the fetch loop (and, on a loopback benchmark, to the server)

Cites = list[tuple[str, list[Link]]]  # (document path, the links citing one URL), per document
Item = tuple[str, Page, Any, Cites]  # (URL as cited, its page, its facts.Raw when unparsed, who cites it)


class Judges:
    """What a worker holds: the pool's engine, the run's documents and corpus (for M008's shares),
    and each host's sibling-probe text once parsed."""

    def __init__(self, engine: Engine, documents: list[Document], corpus: Corpus | None) -> None:
        self.engine, self.documents, self.corpus = engine, documents, corpus
        self.siblings: dict[str, str] = {}

    def pages(self, batch: list[Item]) -> tuple[list[Finding], list[Page]]:
        """Complete the unparsed pages, judge every link citing each; the findings and the completed
        pages."""
        found: list[Finding] = []
        completed: list[Page] = []
        for url, page, raw, cites in batch:
            if raw is not None:
                page = self._complete(page, raw)
                completed.append(page)
            for path, links in cites:
                found += self.engine.check_pages(links, {url: page}, path)
        return found, completed

    def ready(self, _: None) -> None:
        """Nothing: a first task, so that the pool starts every worker."""

    def memo(self, share: tuple[int, dict[str, Page], tuple[int, int]]) -> list[Finding]:
        """The shardable memo rules on (document index, the pages its share cites, share)."""
        index, pages, part = share
        return self.engine.check_memo(Memo(self.documents[index], self.corpus, pages, part))

    def _complete(self, page: Page, raw: Any) -> Page:
        from citecheck.fetch.facts import complete, sibling_sample

        text = None
        if raw.sibling is not None:  # one probe serves every page of its host: parse it once
            probe = raw.sibling[0]
            if probe not in self.siblings:
                self.siblings[probe] = sibling_sample(raw.sibling)
            text = self.siblings[probe]
        return complete(page, raw, text)


_JUDGES: list[Judges] = []  # in a worker process only: what the pool's initializer built from its arguments


def _start_worker(judges: Judges) -> None:
    """A worker's initializer."""
    import atexit
    import multiprocessing
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: no worker tracebacks
    # When the pool lets a worker go, its results have gone through the pool's queue and it has
    # nothing left to write: tearing its heap down (rules, documents, memo caches) only kept the
    # parent waiting in `close` (0.2-0.3 s of a re-audit). Handlers registered later still run first.
    atexit.register(os._exit, 0)
    parent = multiprocessing.parent_process()
    if parent is not None:  # the pool may never get to say goodbye (SIGKILL): leave with the parent
        threading.Thread(target=_exit_with, args=(parent.sentinel,), name="citecheck-parent-watch",
                         daemon=True).start()
    try:
        os.nice(NICE)  # the pool starts when bodies come to parse: the fetch loop comes first
    except OSError:
        pass
    _JUDGES.append(judges)


def _exit_with(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)  # the parent is gone: nobody is left to take a result


def _call(method: str, argument: Any) -> Any:
    return getattr(_JUDGES[0], method)(argument)
