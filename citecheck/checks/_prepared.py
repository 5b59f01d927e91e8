"""Data a rule derives from its options once per configuration, not once per link.

Rules stay pure functions of (subject, options), but turning a pack into frozensets or one compiled
alternation on every call costs more than the check itself: on a 5,000-link memo the URL stage
spent most of its time re-deriving the same sets. `prepared(options, key, build)` memoises
`build(options)` on the identity of the options mapping (the engine builds one per active rule and
never mutates it); the cache holds the mapping itself, so an identity is never reused while cached.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_CACHE: dict[tuple[int, str], tuple[Any, Any]] = {}
_LIMIT = 512


def prepared(options: Any, key: str, build: Callable[[Any], T]) -> T:
    """`build(options)`, computed once for this options object (or pack list) and `key`."""
    slot = (id(options), key)
    entry = _CACHE.get(slot)
    if entry is not None and entry[0] is options:
        return entry[1]  # type: ignore[no-any-return]
    value = build(options)
    if len(_CACHE) >= _LIMIT:
        _CACHE.clear()
    _CACHE[slot] = (options, value)
    return value


class PerHost:
    """`judge(host) -> str`, memoised per host (memos cite few hosts many times)."""

    LIMIT = 65536

    def __init__(self, judge: Callable[[str], str]) -> None:
        self._judge = judge
        self._memo: dict[str, str] = {}

    def __call__(self, host: str) -> str:
        found = self._memo.get(host)
        if found is None:
            if len(self._memo) >= self.LIMIT:
                self._memo.clear()
            found = self._memo[host] = self._judge(host)
        return found
