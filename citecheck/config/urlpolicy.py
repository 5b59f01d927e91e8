"""The URL policy a team writes down: URLs never fetched (`exclude-urls:` / `--exclude-url`, each
with its reason) and HTTP statuses accepted without being verified (`fetch.accept` / `--accept`).
Parsed when the configuration is read; a bad entry is one line naming the key."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citecheck.errors import ConfigError


@dataclass(frozen=True)
class UrlExclusion:
    """A URL pattern the team decided not to fetch (`exclude-urls:` / `--exclude-url`), and why."""

    pattern: str
    reason: str


def exclusions(raw: Any, path: str, fail: Any) -> tuple[UrlExclusion, ...]:
    """`exclude-urls:` entries: a regex, or {pattern: REGEX, reason: WHY}; a bad regex is one line."""
    if raw is not None and not isinstance(raw, list):
        raise fail("exclude-urls", "exclude-urls must be a list of regexes or {pattern, reason} mappings")
    out = []
    for item in raw or []:
        if not isinstance(item, str) and not (isinstance(item, dict) and isinstance(item.get("pattern"), str)
                                              and set(item) <= {"pattern", "reason"}):
            raise fail("exclude-urls", f"exclude-urls entries are regexes or {{pattern, reason}} mappings, got {item!r:.60}")
        pattern, reason = (item, f"exclude-urls in {Path(path).name if path else 'the config'}") if isinstance(item, str) \
            else (item["pattern"], str(item.get("reason") or "exclude-urls"))
        out.append(UrlExclusion(compile_exclusion(pattern, lambda why: fail("exclude-urls", why)), reason))
    return tuple(out)


def compile_exclusion(pattern: str, fail: Any) -> str:
    """`pattern` when it compiles as a regex; else `fail(message)` is raised."""
    try:
        re.compile(pattern)
    except re.error as err:
        raise fail(f"exclude-urls pattern {pattern!r} is not a regex: {err}") from None
    return pattern


def parse_statuses(items: tuple[str, ...], fail: Any = None) -> frozenset[int]:
    """`403`, `500-503` → the HTTP statuses they name; anything else is `fail(message)` raised."""
    out: set[int] = set()
    for item in items:
        low, _, high = str(item).strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()) or not 100 <= int(low) <= int(high or low) <= 999:
            message = f"accept: {item!r} is not an HTTP status or range (403, 500-503)"
            raise (fail(message) if fail else ConfigError(message))
        out.update(range(int(low), int(high or low) + 1))
    return frozenset(out)
