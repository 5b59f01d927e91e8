"""Reporters, one module per format, behind `Reporter` (start, finding, summary, close)."""
from __future__ import annotations

import importlib
import importlib.util
import io
import os
import sys
from collections.abc import Iterable
from typing import Any

from citecheck.errors import UsageError
from citecheck.models import Finding
from citecheck.report.base import Reporter

FORMATS = {
    "text": "citecheck.report.text:TextReporter",
    "json": "citecheck.report.json:JsonReporter",
    "sarif": "citecheck.report.sarif:SarifReporter",
    "github": "citecheck.report.github:GithubReporter",
    "junit": "citecheck.report.junit:JunitReporter",
    "html": "citecheck.report.html:HtmlReporter",
}


def available() -> list[str]:
    out = []
    for name, target in FORMATS.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            out.append(name)
    return [*out, "auto"]


def pick(fmt: str, stream_is_tty: bool) -> str:
    """`auto` → github under GitHub Actions, text otherwise."""
    if fmt != "auto":
        return fmt
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def reporter_for(fmt: str, **context: Any) -> Reporter:
    target = FORMATS.get(fmt)
    if target is None or fmt not in available():
        raise UsageError(f"unknown format {fmt!r} (one of {', '.join(available())})")
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)(io.StringIO(), **context)


def render(fmt: str, findings: Iterable[Finding], summary: dict[str, Any], **context: Any) -> str:
    """Drive a reporter over findings and return its payload."""
    rep = reporter_for(fmt, **context)
    rep.start()
    for f in findings:
        rep.finding(f)
    rep.summary(summary)
    rep.close()
    return rep.out.getvalue()  # type: ignore[attr-defined]


__all__ = ["Reporter", "available", "pick", "render", "sys"]
