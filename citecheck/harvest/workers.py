"""The CPU side of a harvest, off the event loop: page rules and main-text extraction in a
process pool on multi-core machines.

The pool is forked before the first fetch, after the rule engine is built, so each worker
inherits the engine and the imported extractor instead of rebuilding them. Rules are pure, so a
worker's findings are the ones the parent would compute; a crash inside a rule comes back as the
engine's E000 finding and marks the parent's engine as crashed. With one core (or no `fork`)
everything runs in-process.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from citecheck.engine.run import Engine
from citecheck.models import Finding, Link, Page

_ENGINE: Engine | None = None  # what forked workers inherit


def _worker_init() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: no worker tracebacks


def _warm() -> None:
    import trafilatura  # noqa: F401 - in the parent already when forked; imported here otherwise


def page_findings_job(link: Link, page: Page) -> list[Finding]:
    """In a worker: the page-stage findings for one link (a crashed rule is an E000 finding)."""
    assert _ENGINE is not None, "page_findings_job runs only in forked workers"
    return _ENGINE.check_pages([link], {link.url: page}, link.location.path)


class Workers:
    def __init__(self, engine: Engine, count: int | None = None) -> None:
        global _ENGINE
        self.engine = engine
        count = count if count is not None else min(os.cpu_count() or 1, 4)
        self.pool: ProcessPoolExecutor | None = None
        self.forked = False
        if count > 1:
            import trafilatura  # noqa: F401 - forked workers inherit the import

            _ENGINE = engine
            fork = "fork" in multiprocessing.get_all_start_methods() and sys.version_info < (3, 14)
            context = multiprocessing.get_context("fork") if fork else None
            self.forked = fork
            self.pool = ProcessPoolExecutor(max_workers=count, mp_context=context, initializer=_worker_init)
            for _ in range(count):  # start every worker now, before any thread of the fetcher exists
                self.pool.submit(_warm)

    async def call(self, func: Callable[..., Any], *args: Any) -> Any:
        """Run `func(*args)` in the pool (or in a thread when there is none)."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, func, *args)

    async def page_findings(self, link: Link, page: Page) -> list[Finding]:
        if self.pool is None or not self.forked:
            return self.engine.check_pages([link], {link.url: page}, link.location.path)
        found: list[Finding] = await self.call(page_findings_job, link, page)
        if any(f.rule == "E000" for f in found):
            self.engine.crashed = True  # the worker's engine is a copy: tell the parent's
        return found

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
