#!/usr/bin/env python3
"""Regenerate the golden report files: tests/golden/<memo>.<format> for every memo in fixtures/golden/.

    python scripts/regen_golden.py           # rewrite every golden file
    python scripts/regen_golden.py --check   # exit 1 (and name the files) if any golden is out of date

Each golden is the stdout of `citecheck audit fixtures/golden/<memo>.md --offline --format <fmt>
--report-suppressions --corpus fixtures/golden/golden_corpus.json --config fixtures/golden/citecheck.yaml`,
run in-process from the repository root, then normalised: run durations become 0 and the tool version
becomes `VERSION`, so the files only change when the findings or a format change.
tests/report/test_report_golden.py compares the same output with the files.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "golden"
GOLDEN = ROOT / "tests" / "golden"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# the formats with golden files, from the reporter registry (the one list of formats)
FORMATS = tuple(name for name, spec in importlib.import_module("citecheck.report").FORMATS.items() if spec.golden)
CORPUS = "fixtures/golden/golden_corpus.json"
CONFIG = "fixtures/golden/citecheck.yaml"
VERSION_PLACEHOLDER = "VERSION"
_ENV = {"GITHUB_ACTIONS": None, "NO_COLOR": None, "FORCE_COLOR": None, "COLUMNS": None, "CITECHECK_CONFIG": None}


def memos() -> list[str]:
    """Names (without .md) of the golden memos, sorted."""
    return sorted(p.stem for p in FIXTURES.glob("*.md") if p.name != "README.md")


def cli_args(memo: str, fmt: str) -> list[str]:
    return ["audit", f"fixtures/golden/{memo}.md", "--offline", "--format", fmt, "--report-suppressions",
            "--corpus", CORPUS, "--config", CONFIG]


def produce(memo: str, fmt: str) -> str:
    """The normalised report of `memo` in `fmt`, exactly as the golden file should hold it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from click.testing import CliRunner

    from citecheck.cli import main

    with contextlib.chdir(ROOT):
        result = CliRunner(env=_ENV).invoke(main, cli_args(memo, fmt), catch_exceptions=True)
    if result.exit_code not in (0, 1):
        detail = result.stderr.strip() or repr(result.exception)
        raise RuntimeError(f"citecheck {' '.join(cli_args(memo, fmt))} exited {result.exit_code}: {detail}")
    return normalise(fmt, result.stdout)


def normalise(fmt: str, payload: str) -> str:
    """Zero run durations and hide the tool version, leaving everything else byte for byte."""
    if fmt in ("json", "sarif"):
        data = json.loads(payload)
        _zero_durations(data)
        for run in data.get("runs", []) if fmt == "sarif" else []:
            run["tool"]["driver"]["version"] = VERSION_PLACEHOLDER
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if fmt == "text":
        return re.sub(r" in \d+(?:\.\d+)? s$", " in 0.0 s", payload, flags=re.MULTILINE)
    if fmt == "junit":
        return re.sub(r' time="[^"]*"', ' time="0"', payload)
    return payload


def _zero_durations(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("duration_s", "elapsed_ms") and isinstance(value, (int, float)):
                node[key] = 0
            else:
                _zero_durations(value)
    elif isinstance(node, list):
        for item in node:
            _zero_durations(item)


def golden_path(memo: str, fmt: str) -> Path:
    return GOLDEN / f"{memo}.{fmt}"


def stale() -> list[Path]:
    """Golden files whose content differs from what citecheck produces now (or that are missing)."""
    out = []
    for memo in memos():
        for fmt in FORMATS:
            path = golden_path(memo, fmt)
            if not path.is_file() or path.read_text(encoding="utf-8") != produce(memo, fmt):
                out.append(path)
    return out


def regenerate() -> list[Path]:
    from citecheck._util.atomic import atomic_write

    written = []
    for memo in memos():
        for fmt in FORMATS:
            path = golden_path(memo, fmt)
            atomic_write(path, produce(memo, fmt))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report out-of-date golden files")
    args = parser.parse_args(argv)
    if not memos():
        print(f"regen_golden: no memos in {FIXTURES}", file=sys.stderr)
        return 2
    try:
        paths = stale() if args.check else regenerate()
    except RuntimeError as err:
        print(f"regen_golden: {err}", file=sys.stderr)
        return 2
    for path in paths:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{'out of date' if args.check else 'wrote'}: {shown}")
    return 1 if args.check and paths else 0


if __name__ == "__main__":
    sys.exit(main())
