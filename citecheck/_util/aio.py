"""`run(coro)`: `asyncio.run` without Python 3.11's exit-time formatting of the result.

On the way out, 3.11's `asyncio.Runner` restores the SIGINT handler and `signal.getsignal` tries
to turn the `functools.partial(..., main_task=task)` it installed into a `Handlers` enum; the
failed lookup formats `repr(partial)`, which formats the task and with it the task's *result*.
For an audit report of 5,000 findings that repr costs 0.15-0.3 s of pure waste. Running the
coroutine inside a wrapper whose own result is None keeps that repr trivially cheap.
"""
from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` to completion in a fresh event loop and return its result."""
    box: list[T] = []

    async def main() -> None:
        box.append(await coro)

    asyncio.run(main())
    return box[0]
