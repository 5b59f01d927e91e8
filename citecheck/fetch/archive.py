"""Ask the Wayback Machine's availability API whether dead URLs were ever archived.

`GET {archive_url}?url=URL` answers `{"archived_snapshots": {"closest": {"available": true,
"url": "http://web.archive.org/web/2013.../http://example.com/", "timestamp": "...", "status": "200"}}}`
or `{"archived_snapshots": {}}` when nothing was ever captured. Only asked with `--archive-check`,
only for URLs that fetched dead; the answer becomes `Page.archived` / `Page.snapshot_url`, which the
M010 likely-fabricated and M011 rotted rules judge.
"""
from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from typing import Any

import aiohttp

from citecheck import __version__
from citecheck.models import Outcome, Page

_TIMEOUT = aiohttp.ClientTimeout(total=20, connect=5)


def needs_archive(page: Page) -> bool:
    return page.outcome is Outcome.DEAD


def parse_availability(payload: Any) -> tuple[bool, str]:
    """(ever archived, snapshot URL) from the API's JSON; malformed answers count as unknown → raise."""
    if not isinstance(payload, dict) or not isinstance(payload.get("archived_snapshots"), dict):
        raise ValueError("unexpected Wayback availability response")
    closest = payload["archived_snapshots"].get("closest")
    if isinstance(closest, dict) and closest.get("available") and closest.get("url"):
        return True, str(closest["url"])
    return False, ""


@dataclasses.dataclass
class ArchiveAnswers:
    """What the archive said: the pages (archived/snapshot_url filled in where it answered), how many
    dead URLs were asked about, and why it could not answer for the others (URL → reason)."""

    pages: dict[str, Page]
    asked: int = 0
    unanswered: dict[str, str] = dataclasses.field(default_factory=dict)

    def line(self) -> str:
        """One stderr line when the archive could not answer ('' when it always did)."""
        if not self.unanswered:
            return ""
        reasons = ", ".join(sorted(set(self.unanswered.values())))
        return (f"citecheck: the Wayback Machine could not answer for {len(self.unanswered)} of {self.asked} dead "
                f"URL(s) ({reasons}): likely-fabricated (M010) and rotted (M011) were not judged for them")

    def summary(self) -> dict[str, int]:
        return {"asked": self.asked, "unanswered": len(self.unanswered)}


async def _ask(session: aiohttp.ClientSession, api: str, url: str) -> tuple[bool, str] | str:
    """(ever archived, snapshot URL), or why there is no answer (unknown: the verdict stays "dead",
    never "likely fabricated")."""
    try:
        async with session.get(api, params={"url": url}) as resp:
            if resp.status != 200:
                return f"HTTP {resp.status}"
            return parse_availability(await resp.json(content_type=None))
    except TimeoutError:
        return "timed out"
    except aiohttp.ClientError as err:
        return f"unreachable: {type(err).__name__}"
    except ValueError:
        return "an answer that is not the availability API's JSON"


async def ask_archive(pages: Mapping[str, Page], api: str, concurrency: int = 4) -> ArchiveAnswers:
    """Ask about every dead URL; see `ArchiveAnswers`."""
    targets = [url for url, page in pages.items() if needs_archive(page)]
    out = ArchiveAnswers(dict(pages), len(targets))
    if not targets:
        return out
    limit = asyncio.Semaphore(concurrency)
    headers = {"User-Agent": f"citecheck/{__version__} (+https://github.com/citecheck/citecheck)"}
    async with aiohttp.ClientSession(timeout=_TIMEOUT, headers=headers) as session:
        async def one(url: str) -> tuple[str, tuple[bool, str] | str]:
            async with limit:
                return url, await _ask(session, api, url)
        answers = await asyncio.gather(*(one(u) for u in targets))
    for url, answer in answers:
        if isinstance(answer, str):
            out.unanswered[url] = answer
        else:
            out.pages[url] = dataclasses.replace(out.pages[url], archived=answer[0], snapshot_url=answer[1])
    return out


async def check_archives(pages: Mapping[str, Page], api: str, concurrency: int = 4) -> dict[str, Page]:
    """Pages with `archived`/`snapshot_url` filled in for every dead URL the API answered for."""
    return (await ask_archive(pages, api, concurrency)).pages
