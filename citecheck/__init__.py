"""citecheck: every URL in a memo must come from a tool call, be fetched and validated, and earn an ID.

`__version__` is importable on its own: the public API (`audit`, `Report`, `Caches`, `load_config`,
the data classes) loads on first use, so `from citecheck import __version__` (the fetcher's
User-Agent, the report writers) does not pull in the audit stack. `audit()`, `audit_async()` and
`Caches` live in `citecheck._api`, `Report` in `citecheck._audit` (the pipeline).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from citecheck._api import Caches, audit, audit_async
    from citecheck._audit import Report
    from citecheck.config import Config, load_config
    from citecheck.models import Corpus, Finding, Link, Location, Outcome, Page, Severity, Source

_EXPORTS = {"Report": "_audit", "audit": "_api", "audit_async": "_api", "Caches": "_api", "Config": "config",
            "load_config": "config",
            **dict.fromkeys(("Corpus", "Finding", "Link", "Location", "Outcome", "Page", "Severity", "Source"), "models")}

__all__ = [
           "Caches",
           "Config",
           "Corpus",
           "Finding",
           "Link",
           "Location",
           "Outcome",
           "Page",
           "Report",
           "Severity",
           "Source",
           "__version__",
           "audit",
           "audit_async",
           "load_config",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'citecheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"citecheck.{_EXPORTS[name]}"), name)
    globals()[name] = value  # bound once: later uses do not come here
    return value
