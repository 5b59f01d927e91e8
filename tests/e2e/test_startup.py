"""Start-up: `citecheck --help` lists each command once and imports no subcommand; an offline audit
of a small memo imports only what it needs (rich for the report; no rapidfuzz, aiohttp or harvest stack).
The timings themselves are measured by bench/startup.py (figures in bench/README.md)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("rich", "rapidfuzz", "aiohttp", "trafilatura", "citecheck.harvest", "citecheck.fetch", "lxml", "sqlite_utils")


def _modules_after(args: list[str], cwd: Path) -> tuple[str, set[str]]:
    code = ("import sys, json; sys.argv = ['citecheck', *json.loads(sys.argv[1])]; from citecheck.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stdout.flush(); print('\\n@@' + json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=cwd, capture_output=True, text=True,
                          check=False, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                            "XDG_CACHE_HOME": str(cwd / "cache")})
    out, _, modules = proc.stdout.rpartition("\n@@")
    return out, set(json.loads(modules))


def test_help_lists_each_command_once_without_importing_them(tmp_path: Path) -> None:
    from citecheck.cli import SUBCOMMANDS

    out, modules = _modules_after(["--help"], tmp_path)
    commands = [line.split()[0] for line in out.split("Commands:", 1)[1].splitlines() if line.strip()]
    for name in SUBCOMMANDS:
        assert commands.count(name) == 1, name
    assert not {f"citecheck.cli.{name}" for name in SUBCOMMANDS} & modules
    assert not {m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}


def test_offline_audit_of_a_small_memo_imports_no_heavy_stack(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text("# Acme Robotics\n\nGrowth ([BLS](https://www.bls.gov/cpi/)), see "
                                      "<https://www.sec.gov/cgi-bin/browse-edgar>.\n")
    out, modules = _modules_after(["audit", "--offline", "memo.md"], tmp_path)
    assert "No findings" in out
    assert sorted(m for m in modules if m.startswith(HEAVY) and m.split(".")[0] != "rich") == []  # rich prints it
    assert (tmp_path / "cache" / "citecheck" / "packs.json").is_file()
    out, modules = _modules_after(["audit", "--offline", "memo.md"], tmp_path)
    assert "No findings" in out
    # from the second run on, the packs come from the cache of parsed packs: no PyYAML, no process pool
    assert not {"yaml", "multiprocessing", "concurrent.futures.process"} & modules


@given(st.text("abcde fgh", max_size=14), st.text("abcde fgh", max_size=14), st.sampled_from([80.0, 92.0, 95.0]))
@settings(max_examples=500, deadline=None)
def test_watermark_length_bound_agrees_with_rapidfuzz(a: str, b: str, cutoff: float) -> None:
    from rapidfuzz import fuzz

    from citecheck.checks.watermark_company import _similar

    assert _similar(a, b, cutoff) == (bool(a and b) and fuzz.ratio(a, b) >= cutoff)


def test_an_offline_audit_never_prepares_the_page_or_corpus_rules(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The page rules' ~400 patterns are compiled only when a page is judged; a deferred rule that
    does run after all prepares once and checks as usual."""
    from citecheck import audit
    from citecheck.config import load_config
    from citecheck.engine.registry import build_registry
    from citecheck.engine.select import resolve

    registry = build_registry()
    calls: list[str] = []
    for spec in registry.rules:
        if spec.prepare is not None:
            original = spec.prepare
            object.__setattr__(spec, "prepare", lambda options, o=original, i=spec.id: (calls.append(i), o(options))[1])
    memo = tmp_path / "memo.md"
    memo.write_text("# M\n\nSee [x](https://example.com/a).\n")
    report = audit([str(memo)], registry=registry)
    assert [f.rule for f in report.findings] == ["U001"]
    page_rules = {s.id for s in registry.rules if s.stage == "page" and s.prepare is not None}
    assert page_rules and not page_rules & set(calls)
    corpus_rules = {s.id for s in registry.rules if s.stage == "corpus" and s.prepare is not None}
    assert corpus_rules and not corpus_rules & set(calls)  # no corpus in this run either
    config = load_config()
    deferred = {r.spec.id: r for r in resolve(registry, config, defer=("page",))}
    eager = {r.spec.id: r for r in resolve(registry, config)}
    assert deferred["H004"].deferred and not eager["H004"].deferred
    from citecheck.engine.run import Fetched
    from citecheck.models import Link, Location, Outcome, Page

    url = "https://news.site-a.org/2024/05/grid-reliability-report"
    teaser = Page(url=url, final_url=url, outcome=Outcome.OK, status=200, title="Grid report",
                  text_sample="Subscribe to continue reading. This article is for subscribers only.")
    subject = Fetched(Link(url, Location("memo.md", 3, 7)), teaser)
    calls.clear()
    got = list(deferred["H004"].check(subject, deferred["H004"].options))
    assert calls == ["H004"] and got == list(eager["H004"].check(subject, eager["H004"].options)) and got
    list(deferred["H004"].check(subject, deferred["H004"].options))
    assert calls == ["H004"]  # prepared once


def test_user_options_of_a_page_rule_are_still_checked_offline(tmp_path: Path) -> None:
    """Deferring the page rules must not hide a bad option the user wrote: an offline pre-commit
    run still stops on it (exit 2, one line naming the rule)."""
    (tmp_path / ".citecheck.yaml").write_text("rules:\n  H003: {options: {extra_titles: ['(gone']}}\n")
    (tmp_path / "m.md").write_text("# memo\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", "m.md"], cwd=tmp_path,
                          capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "rule H003 (soft-404): cannot prepare its options" in proc.stderr


def test_watermark_compiles_only_the_platform_patterns_a_name_contains() -> None:
    from citecheck.checks.watermark_company import Platforms, watermark_match

    platforms = Platforms({"platforms": ["Notion", "Google Docs", "Gamma"], "legal_suffixes": ["inc"]})
    assert watermark_match("Acme Robotics", platforms) == ""
    assert not platforms.words
    assert watermark_match("Gamma Notion", platforms) == "Notion"  # dominated by two platform names
    assert set(platforms.words) == {"notion", "gamma"}


NOISE = ["investment memo", "memo", "series [a-z]", "review", "KK"]


@given(st.lists(st.sampled_from(["Acme", "memo", "MEMO", "Memorandum", "investment", "Series B", "review",
                                 "K", "k", "ſeed", ":", " ", "-", "é"]), max_size=8))
@settings(max_examples=300, deadline=None)
def test_title_noise_shortcut_removes_what_the_patterns_remove(words: list[str]) -> None:
    import re

    from citecheck.checks.watermark_company import company_name
    from citecheck.models import Document, Heading, Location

    title = " ".join(words)
    expected = title
    for noise in NOISE:  # every pattern applied, as before the shortcut
        expected = re.sub(rf"(?<!\w)(?:{noise})(?!\w)", " ", expected, flags=re.IGNORECASE)
    expected = " ".join(re.sub(r"[:|–—-]+\s*$", "", expected.strip()).split())
    doc = Document(path="m.md", text=f"# {title}\n", format="markdown", headings=(Heading(1, title, Location("m.md", 1, 1)),))
    assert company_name(doc, {"title_noise": NOISE})[0] == expected
