"""What a refactoring must not change: findings, verdicts, scores and gate decisions, as one JSON document.

Run it in the tree before a change and in the tree after, then diff the two files:

    python bench/compare_findings.py > /tmp/before.json      # in the old tree (its own venv/checkout)
    python bench/compare_findings.py > /tmp/after.json       # in the new tree
    diff /tmp/before.json /tmp/after.json && echo same

It covers:
- `citecheck audit --offline --format json` and `--format html` on fixtures/memos/*.md (alone and with
  fixtures/memos/corpus.json), fixtures/golden/*.md, the two fixture corpora as inputs and
  ../shared/realworld/markdown/*.md (run in process;
  `duration_s` zeroed; a finding's `verdict` field is left out, so the tree before it existed compares);
- the labelled real pages of ../shared/realworld/pages (bench/realworld_pages.py's Page facts): each page's
  page-rule findings, the HTML verdict of the link, its citation-truth score and verdict counts, and the
  harvest gate's decision under strict/default/lenient with the retire-or-stale judgement and the wall
  access a passing page would carry;
- `scripts/regen_golden.py --check` (the golden files are still what the code prints).
Only public functions that exist before and after the verdict change are called.
"""
from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REALWORLD = ROOT.parent / "shared" / "realworld"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _cli(args: list[str]) -> tuple[int, str]:
    from click.testing import CliRunner

    from citecheck.cli import main

    env = {"GITHUB_ACTIONS": None, "NO_COLOR": None, "FORCE_COLOR": None, "COLUMNS": None, "CITECHECK_CONFIG": None}
    with contextlib.chdir(ROOT):
        result = CliRunner(env=env).invoke(main, args, catch_exceptions=True)
    return result.exit_code, result.stdout.replace(str(REALWORLD), "realworld")


def _json_report(payload: str) -> Any:
    data = json.loads(payload)
    data.get("summary", {}).pop("duration_s", None)
    for key in ("findings", "suppressed"):
        for finding in data.get(key, []):
            finding.pop("verdict", None)
    return data


def _html(payload: str) -> str:
    # the finding's verdict may appear as a data attribute; durations as "N.N s"
    payload = re.sub(r' data-verdict="[^"]*"', "", payload)
    return re.sub(r"\d+(\.\d+)? s\b", "N s", payload)


def audits() -> dict[str, Any]:
    memos = sorted((ROOT / "fixtures" / "memos").glob("*.md"))
    runs: list[list[str]] = []
    for memo in memos:
        rel = str(memo.relative_to(ROOT))
        runs += [[rel], [rel, "--corpus", "fixtures/memos/corpus.json"]]
    runs += [[str(p.relative_to(ROOT))] for p in sorted((ROOT / "fixtures" / "golden").glob("*.md"))]
    runs += [["fixtures/memos/corpus.json"], ["fixtures/golden/golden_corpus.json"]]  # corpora as inputs
    runs += [[str(p)] for p in sorted((REALWORLD / "markdown").glob("*.md"))]
    out: dict[str, Any] = {}
    for args in runs:
        key = " ".join(args).replace(str(REALWORLD), "realworld")
        code, payload = _cli(["audit", *args, "--offline", "--format", "json"])
        out[key] = {"exit": code, "json": _json_report(payload)}
        code, payload = _cli(["audit", *args, "--offline", "--format", "html"])
        out[key]["html_exit"] = code
        out[key]["html_lines"] = _html(payload).splitlines()
    return out


def pages() -> dict[str, Any]:
    import realworld_pages as rw

    from citecheck.harvest.evidence import judge_failure
    from citecheck.harvest.gate import GATES, Policy, failing, finding_reason, outcome_reason, wall_access
    from citecheck.models import Document, Link, LinkKind, Location
    from citecheck.report.html_verdicts import classify
    from citecheck.score import summarize

    captures = rw.load_captures(REALWORLD / "pages")
    facts = rw.build_pages(captures)
    found = rw.run_rules(captures, facts)
    out: dict[str, Any] = {}
    for cap in captures:
        page, findings = facts[cap.path], found[cap.path]
        doc = Document(cap.path, "", "markdown", links=(Link(cap.url, Location(cap.path, 1, 1), LinkKind.BARE),))
        summary = summarize([doc], findings, {cap.url})
        reasons = [finding_reason(f) for f in findings]
        extra = outcome_reason(page)
        reasons += [extra] if extra else []
        gates = {}
        for gate in GATES:
            failed = failing(Policy(gate), reasons)
            judged = judge_failure(failed, page, "2000-01-01T00:00:00+00:00") if failed else None
            gates[gate] = {"rejects": [f"{r.rule or r.name}:{r.severity.value}" for r in failed],
                           "retire": judged.retire if judged else None,
                           "by": (judged.reason.rule or judged.reason.name) if judged else None}
        out[cap.path] = {
            "findings": [f"{f.rule} {f.severity.value} {f.message} | {f.evidence} | {f.fix}" for f in findings],
            "html_verdict": classify(findings, page), "score": summary["citation_truth_score"],
            "verdicts": summary["verdicts"], "gate": gates, "access": wall_access(findings),
        }
    return out


def goldens() -> str:
    done = subprocess.run([sys.executable, "scripts/regen_golden.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    return f"exit {done.returncode}: {done.stdout.strip()} {done.stderr.strip()}".strip()


if __name__ == "__main__":
    print(json.dumps({"goldens": goldens(), "pages": pages(), "audits": audits()}, indent=1, sort_keys=True,
                     ensure_ascii=False))
