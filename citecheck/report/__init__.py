"""Reporters, one module per format, behind `Reporter` (start, finding, summary, close)."""
from __future__ import annotations

import importlib
import importlib.util
import io
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from citecheck.errors import UsageError
from citecheck.models import Finding
from citecheck.report.base import ReportContext, Reporter


@dataclass(frozen=True)
class Format:
    """One report format: its reporter and what it is made of. The one list of formats: the CLI's
    choices, the result cache and the golden files are derived from `FORMATS`."""

    reporter: str  # "module:Class"
    replayable: bool  # made of the findings and summary alone: the result cache may store and replay it
    golden: bool = True  # has golden files, tests/golden/<memo>.<format> (scripts/regen_golden.py)


FORMATS: dict[str, Format] = {
    "text": Format("citecheck.report.text:TextReporter", replayable=True),
    "json": Format("citecheck.report.json:JsonReporter", replayable=True),
    "sarif": Format("citecheck.report.sarif:SarifReporter", replayable=True),
    "github": Format("citecheck.report.github:GithubReporter", replayable=True),
    "junit": Format("citecheck.report.junit:JunitReporter", replayable=False),  # lists the audited files
    # the memo's source and its fetched pages (a 130 kB page per memo); tests/test_report_html*.py check it
    "html": Format("citecheck.report.html:HtmlReporter", replayable=False, golden=False),
}
CHOICES = (*FORMATS, "auto")  # what --format accepts


def available() -> list[str]:
    out = []
    for name, spec in FORMATS.items():
        module = spec.reporter.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            out.append(name)
    return [*out, "auto"]


def pick(fmt: str, stream_is_tty: bool) -> str:
    """`auto` → github under GitHub Actions, text otherwise."""
    if fmt != "auto":
        return fmt
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def reporter_for(fmt: str, context: ReportContext | None = None) -> Reporter:
    spec = FORMATS.get(fmt)
    if spec is None or fmt not in available():
        raise UsageError(f"unknown format {fmt!r} (one of {', '.join(available())})")
    module, cls = spec.reporter.split(":")
    reporter: Reporter = getattr(importlib.import_module(module), cls)(io.StringIO(), context)
    return reporter


def render(fmt: str, findings: Iterable[Finding], summary: dict[str, Any], context: ReportContext | None = None) -> str:
    """Drive a reporter over findings and return its payload."""
    rep = reporter_for(fmt, context)
    rep.start()
    for f in findings:
        rep.finding(f)
    rep.summary(summary)
    rep.close()
    return rep.out.getvalue()  # type: ignore[attr-defined]


__all__ = ["ReportContext", "Reporter", "available", "pick", "render", "sys"]
