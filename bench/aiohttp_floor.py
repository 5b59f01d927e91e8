"""The least an aiohttp checker that reads bodies can do on the loopback benchmark: no parsing,
no rules, no guard, no cache — GET every distinct URL of a memo (128 in flight), follow redirects
(aiohttp's own), read the body, and on a 429 wait its Retry-After once and ask again.

It is the floor under `citecheck audit` on this web: what aiohttp and asyncio cost before any of
citecheck's own work. `bench/floor_online.sh` runs it side by side with lychee and citecheck.

    python bench/aiohttp_floor.py MEMO.md
"""
from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path

import aiohttp

URL_RE = re.compile(r"https?://[^\s()<>\[\]\"']+")  # the benchmark memo's links: inline, bare, <autolink>


async def fetch_all(urls: list[str], concurrency: int = 128) -> dict[int, int]:
    statuses: dict[int, int] = {}
    connector = aiohttp.TCPConnector(limit=concurrency, limit_per_host=0)
    async with aiohttp.ClientSession(connector=connector, trust_env=False) as session:
        slots = asyncio.Semaphore(concurrency)

        async def one(url: str) -> None:
            for attempt in range(2):
                async with slots:
                    try:
                        async with session.get(url) as response:
                            await response.read()
                            status = response.status
                            wait = response.headers.get("Retry-After", "")
                    except (aiohttp.ClientError, TimeoutError):
                        status, wait = 0, ""
                if status == 429 and attempt == 0 and wait.isdigit():
                    await asyncio.sleep(int(wait) * 1.05 + 0.01)  # what citecheck waits too
                    continue
                statuses[status] = statuses.get(status, 0) + 1
                return

        await asyncio.gather(*(one(url) for url in urls))
    return statuses


def main() -> None:
    text = Path(sys.argv[1]).read_text(encoding="utf-8")
    urls = list(dict.fromkeys(u.rstrip(".,;:") for u in URL_RE.findall(text)))
    wall, cpu = time.perf_counter(), time.process_time()
    statuses = asyncio.run(fetch_all(urls))
    print(f"aiohttp floor: {len(urls)} URLs in {time.perf_counter() - wall:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} CPU-s; statuses {dict(sorted(statuses.items()))}", file=sys.stderr)


if __name__ == "__main__":
    main()
