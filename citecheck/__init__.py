"""citecheck: every URL in a memo must come from a tool call, be fetched and validated, and earn an ID."""
from __future__ import annotations

__version__ = "0.1.0"

from citecheck.audit import Report, audit, audit_async  # noqa: E402
from citecheck.config import Config, load_config  # noqa: E402
from citecheck.models import Corpus, Finding, Link, Location, Outcome, Page, Severity, Source  # noqa: E402

__all__ = ["__version__", "audit", "audit_async", "Report", "Config", "load_config", "Corpus", "Finding", "Link",
           "Location", "Outcome", "Page", "Severity", "Source"]
