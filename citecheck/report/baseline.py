"""Baselines: accept today's findings, report only new ones (as ruff and Vale users expect).

A finding's fingerprint survives unrelated edits: rule, file, URL, evidence and the text of its
line (whitespace-normalised), plus an occurrence counter for identical lines — never the line
number itself.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from citecheck._util.atomic import atomic_write
from citecheck._util.safeload import load_json
from citecheck.errors import InputError
from citecheck.models import Fault, Finding

BASELINE_VERSION = 1


def fingerprints(findings: Iterable[Finding], texts: dict[str, str]) -> list[str]:
    """One stable fingerprint per finding, in order."""
    lines_of = {path: text.split("\n") for path, text in texts.items()}
    seen: Counter[str] = Counter()
    out = []
    for f in findings:
        lines = lines_of.get(f.path, [])
        line_text = " ".join(lines[f.line - 1].split()) if 0 < f.line <= len(lines) else ""
        base = "\x1f".join((f.rule, f.path, f.url, f.evidence, line_text))
        seen[base] += 1
        out.append(hashlib.sha256(f"{base}\x1f{seen[base]}".encode()).hexdigest()[:24])
    return out


def write_baseline(path: str, findings: list[Finding], texts: dict[str, str]) -> int:
    prints = fingerprints(findings, texts)
    entries = [{"fingerprint": fp, "rule": f.rule, "path": f.path, "line": f.line, "url": f.url}
               for fp, f in zip(prints, findings)]
    atomic_write(path, json.dumps({"version": BASELINE_VERSION, "findings": entries}, indent=2) + "\n")
    return len(entries)


def load_baseline(path: str) -> set[str]:
    try:
        data = load_json(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise InputError(f"{path}: cannot read baseline: {err.strerror or err}") from None
    except ValueError as err:
        raise InputError(f"{path}: baseline is not valid JSON: {err}") from None
    if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION or not isinstance(data.get("findings"), list):
        raise InputError(f"{path}: not a citecheck baseline (version {BASELINE_VERSION})")
    return {str(e.get("fingerprint")) for e in data["findings"] if isinstance(e, dict)}


def filter_new(findings: list[Finding], texts: dict[str, str], known: set[str]) -> tuple[list[Finding], int]:
    """(findings not in the baseline, how many were hidden)."""
    kept = [f for f, fp in zip(findings, fingerprints(findings, texts)) if fp not in known or f.fault is Fault.CRASH]
    return kept, len(findings) - len(kept)
