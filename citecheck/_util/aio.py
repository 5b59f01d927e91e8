"""Event-loop helpers: `run(coro)`, `asyncio.run` without Python 3.11's exit-time formatting of the
result; `late_after(seconds, jobs)`, the jobs a deadline cut off.

On the way out, 3.11's `asyncio.Runner` restores the SIGINT handler and `signal.getsignal` tries
to turn the `functools.partial(..., main_task=task)` it installed into a `Handlers` enum; the
failed lookup formats `repr(partial)`, which formats the task and with it the task's *result*.
For an audit report of 5,000 findings that repr costs 0.15-0.3 s of pure waste. Running the
coroutine inside a wrapper whose own result is None keeps that repr trivially cheap.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` to completion in a fresh event loop and return its result."""
    box: list[T] = []

    async def main() -> None:
        box.append(await coro)

    asyncio.run(main())
    return box[0]


async def late_after(seconds: float, jobs: Sequence[Awaitable[Any]]) -> tuple[list[Any], set[int]]:
    """Run the jobs until they all end or `seconds` pass; their results (None for a job cut off) and
    the indexes of the jobs cancelled at the deadline. A job that raises stops the others and the run,
    as `asyncio.gather` would."""
    tasks = [asyncio.ensure_future(job) for job in jobs]
    if not tasks:
        return [], set()
    done, late = await asyncio.wait(tasks, timeout=max(0.0, seconds), return_when=asyncio.FIRST_EXCEPTION)
    failed = next((t for t in done if not t.cancelled() and t.exception() is not None), None)
    for task in late:
        task.cancel()
    if late:
        await asyncio.gather(*late, return_exceptions=True)
    if failed is not None:
        raise failed.exception()  # type: ignore[misc]
    cut = {i for i, task in enumerate(tasks) if task in late}
    return [None if i in cut else task.result() for i, task in enumerate(tasks)], cut
