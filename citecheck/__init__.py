"""citecheck: every URL in a memo must come from a tool call, be fetched and validated, and earn an ID."""
from __future__ import annotations

__version__ = "0.1.0"

from citecheck.audit import Report, audit, audit_async
from citecheck.config import Config, load_config
from citecheck.models import Corpus, Finding, Link, Location, Outcome, Page, Severity, Source

__all__ = [
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
