#!/usr/bin/env python3
"""Rewrite README.md's rule table from the registry: the block between the markers

    <!-- rules-table:start -->
    ... `citecheck rules --format markdown` ...
    <!-- rules-table:end -->

    python scripts/update_readme_rules.py           # rewrite the block in place
    python scripts/update_readme_rules.py --check   # exit 1 if the block is out of date

Only the text between the markers changes; tests/test_meta.py fails while the block is stale.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
START = "<!-- rules-table:start -->"
END = "<!-- rules-table:end -->"


class MarkerError(Exception):
    """The README lacks the markers, or has them out of order or more than once."""


def rules_table() -> str:
    """Exactly what `citecheck rules --format markdown` prints, without the final newline."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from click.testing import CliRunner

    from citecheck.cli import main

    result = CliRunner().invoke(main, ["rules", "--format", "markdown"], catch_exceptions=False)
    if result.exit_code != 0:
        raise RuntimeError(f"citecheck rules --format markdown exited {result.exit_code}: {result.output.strip()}")
    return result.stdout.rstrip("\n")


def split(text: str) -> tuple[str, str, str]:
    """(before and including the start marker, the current block, the end marker and after)."""
    if text.count(START) != 1 or text.count(END) != 1:
        raise MarkerError(f"README.md must contain {START} and {END} exactly once each")
    head, _, rest = text.partition(START)
    block, _, tail = rest.partition(END)
    if END in head:
        raise MarkerError(f"{END} comes before {START} in README.md")
    return head + START, block, END + tail


def current_block(text: str) -> str:
    return split(text)[1].strip("\n")


def updated(text: str, table: str) -> str:
    head, _, tail = split(text)
    return f"{head}\n{table}\n{tail}"


def main(argv: list[str] | None = None, readme: Path = README) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the table is current")
    args = parser.parse_args(argv)
    text = readme.read_text(encoding="utf-8")
    try:
        new = updated(text, rules_table())
    except MarkerError as err:
        print(f"update_readme_rules: {err}", file=sys.stderr)
        return 2
    if new == text:
        print("README.md rule table is up to date")
        return 0
    if args.check:
        print("README.md rule table is out of date: run python scripts/update_readme_rules.py", file=sys.stderr)
        return 1
    from citecheck._util.atomic import atomic_write

    atomic_write(readme, new)
    print("README.md rule table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
