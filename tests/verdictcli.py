"""`citecheck audit` and `citecheck cache stats` through click's runner, read back as JSON, for the
verdict-network tests (fetch/test_fetch_verdicts.py, fetch/test_cached_evidence.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from citecheck.cli import main


def audit(tmp_path: Path, lines: list[str], *extra: str, policy: tuple[str, ...] = ("--allow-private",)
          ) -> tuple[int, dict[str, Any], str]:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\n" + "".join(f"Claim {n} ([source]({url})).\n\n" for n, url in enumerate(lines)))
    args = ["audit", str(memo), "--format", "json", *policy, "--timeout", "1.5",
            "--cache", str(tmp_path / "cache.sqlite"), "--ignore", "M008", *extra]
    result = CliRunner().invoke(main, args)
    return result.exit_code, json.loads(result.stdout or "{}"), result.stderr


def rules_at(payload: dict[str, Any], url: str) -> set[tuple[str, str]]:
    return {(f["rule"], f["severity"]) for f in payload["findings"] if f["url"] == url}


def cache_stats(tmp_path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["cache", "stats", "--json", "--cache", str(tmp_path / "cache.sqlite")])
    return dict(json.loads(result.stdout))
