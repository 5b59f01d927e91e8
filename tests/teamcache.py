"""Helpers of the PostgreSQL team-cache tests (e2e/test_team_cache.py, e2e/test_team_cache_secrets.py):
a counting loopback site and `citecheck audit` runs as real processes."""
from __future__ import annotations

import asyncio
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from aiohttp import web


class Counting:
    """/p/N answers a page, /gone/N a 404, each after 200 ms; /f/N a page at once; /slow/N hangs on
    its first request; /busy/N a page, but a 503 to the sibling probe beside it."""

    def __init__(self) -> None:
        self.hits: collections.Counter[str] = collections.Counter()
        self.times: dict[str, list[float]] = collections.defaultdict(list)
        self.released = False
        self.app = web.Application()
        self.app.router.add_get("/{kind}/{n}", self.page)

    async def page(self, request: web.Request) -> web.Response:
        self.hits[request.path] += 1
        self.times[request.path].append(time.monotonic())
        kind, n = request.match_info["kind"], request.match_info["n"]
        if kind == "busy" and "citecheck-probe-" in n:
            return web.Response(status=503, text="busy")
        if kind == "slow" and self.hits[request.path] == 1:
            while not self.released:  # the runner fetching this is killed meanwhile
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.0 if kind == "f" else 0.2)
        if kind == "gone":
            return web.Response(status=404, text="gone")
        return web.Response(text=f"<html><head><title>Widget report {n}</title></head><body><p>Widget report "
                                 f"{n}: widgets grew {n} percent.</p></body></html>", content_type="text/html")

    def memo_paths(self) -> dict[str, int]:
        """Requests for the memos' URLs (not the per-host sibling probes, citecheck-probe-*)."""
        return {path: count for path, count in self.hits.items() if "citecheck-probe-" not in path}

    def probes(self) -> int:
        return sum(count for path, count in self.hits.items() if "citecheck-probe-" in path)


def _audit(memo: Path, cache: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "citecheck", "audit", str(memo), "--allow", "127.0.0.1",
                             "--format", "json", "--cache", cache], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **env}, cwd=memo.parent)


def _finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 1), err
    report: dict[str, Any] = json.loads(out)
    return report
