"""Regular expressions compiled on first use instead of at import.

A module-level `re.compile` runs in every process that imports the module, whether or not it ever
matches: an offline audit imports every page rule (the registry reads each rule module) and the
claim-support helpers, and runs none of them on a memo without fetched pages or corpus. `lazy()`
stands in for such a pattern: the first attribute asked of it (`search`, `finditer`, `pattern`, …)
compiles it, and from then on the compiled pattern's methods are plain attributes of the stand-in,
so a hot loop pays nothing more than it did. Keep `re.compile` for a pattern every run uses.
"""
from __future__ import annotations

import re
from typing import Any, cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """A `re.Pattern` compiled when first used (see the module docstring)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for what is not an attribute (yet)
        if name.startswith("__") or name in ("_args", "_compiled"):
            raise AttributeError(name)
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self._compiled = re.compile(*self._args)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyPattern, self._args)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r}, {self._args[1]!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done the first time the pattern is used."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
