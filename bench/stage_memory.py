"""One audit in this process with the page stage instrumented (not a test): the most unparsed body
bytes sent to the pool and not taken back yet (sampled as batches are sent), the most batches
waiting, how often the fetch waited for room (`PageStage.room`), when the fetch and the stage
ended, the peak RSS of this process and of its children, and the CPU seconds of both.
`WAITING=N` in the environment overrides `stage.pages.WAITING` (100000: no back-pressure).

    WAITING= PYTHONSAFEPATH=1 PYTHONPATH=TREE python bench/stage_memory.py audit memo-5000.md \\
        --format json --allow-private --no-cache --concurrency 128 --host-concurrency 128 > out.json

against the loopback server of ../shared/bench (bench/loopback_server.sh); the JSON line goes to stderr.
"""
from __future__ import annotations

import json
import os
import resource
import sys
import time
from concurrent.futures import Future
from typing import Any

from citecheck.stage import pages as stage

STATE: dict[str, Any] = {"held": 0, "max_held": 0, "max_batches": 0, "sent": 0, "waits": 0, "first_wait": None,
                         "fetch_end": None, "stage_end": None, "t0": 0.0}
SIZES: dict[Future[Any], int] = {}
SEND, TAKE, ROOM, FINISH = stage.PageStage._send, stage.PageStage._take, stage.PageStage.room, stage.PageStage.finish


def _bodies(batch: list[Any]) -> int:
    return sum(len(raw.body) + (len(raw.sibling[1]) if raw.sibling else 0) for _, _, raw, _ in batch if raw is not None)


def send(self: stage.PageStage) -> None:
    batch = self._batch
    size = _bodies(batch)
    SEND(self)
    if batch and self._running and self._running[-1] not in SIZES:
        SIZES[self._running[-1]] = size
        STATE["held"] += size
        STATE["sent"] += 1
        STATE["max_held"] = max(STATE["max_held"], STATE["held"])
        STATE["max_batches"] = max(STATE["max_batches"], len(self._running))


def take(self: stage.PageStage, future: Future[Any]) -> None:
    STATE["held"] -= SIZES.pop(future, 0)
    TAKE(self, future)


async def room(self: stage.PageStage) -> None:
    started = time.time()
    await ROOM(self)
    if time.time() - started > 0.001:
        STATE["waits"] += 1
        STATE["first_wait"] = STATE["first_wait"] or round(started - STATE["t0"], 1)


def finish(self: stage.PageStage) -> dict[str, Any]:
    STATE["fetch_end"] = round(time.time() - STATE["t0"], 1)
    pages = FINISH(self)
    STATE["stage_end"] = round(time.time() - STATE["t0"], 1)
    return pages


def main() -> None:
    from citecheck.cli import main as cli

    if os.environ.get("WAITING"):
        stage.WAITING = int(os.environ["WAITING"])
    stage.PageStage._send, stage.PageStage._take = send, take  # type: ignore[method-assign]
    stage.PageStage.room, stage.PageStage.finish = room, finish  # type: ignore[method-assign]
    STATE["t0"] = time.time()
    try:
        cli(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    print(json.dumps({"wall": round(time.time() - STATE["t0"], 1), "max_held_MB": round(STATE["max_held"] / 2**20, 1),
                      "max_batches_waiting": STATE["max_batches"], "batches": STATE["sent"],
                      "room_waits": STATE["waits"], "first_wait_s": STATE["first_wait"],
                      "fetch_end_s": STATE["fetch_end"], "stage_end_s": STATE["stage_end"],
                      "parent_maxrss_MB": round(usage[0].ru_maxrss / 1024, 1),
                      "children_maxrss_MB": round(usage[1].ru_maxrss / 1024, 1),
                      "cpu_s": round(sum(u.ru_utime + u.ru_stime for u in usage), 2)}), file=sys.stderr)


if __name__ == "__main__":  # a spawned page worker imports this module: it must not run an audit
    main()
