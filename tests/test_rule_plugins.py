"""Third-party rules: a package that declares a `citecheck.rules` entry point adds its rules.

These tests install a plugin the way pip would (a `*.dist-info` folder with an `entry_points.txt`
next to the module on the path) and check that it is found, registered and run, and that what its
rules declare reaches the score, the verdicts and the gate.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from citecheck.engine.registry import build_registry
from citecheck.errors import RegistryError

ROOT = Path(__file__).resolve().parent.parent
RULE = '''"""Links to acme-blog.com are not sources (a third-party rule).

Failing: `[x](https://acme-blog.com/a)`. Passing: `[x](https://www.bls.gov/cpi/)`.
"""
from citecheck.models import Hit

ID = "U901"
NAME = "no-acme-blog"
STAGE = "url"
SEVERITY = "warning"
VERDICT = "invalid"


def check(link, options):
    if "acme-blog.com" in link.url:
        yield Hit("acme-blog.com is not a source", link.location, link.url, evidence="acme-blog.com")
'''


def _install(site: Path, module: str, entry_points: str, source: str = RULE) -> None:
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    dist = site / f"{module.replace('_', '-')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_the_built_in_rules_are_the_listed_modules() -> None:
    from citecheck.checks import RULES

    rules = build_registry().rules
    assert {r.origin for r in rules if r.origin.startswith("citecheck.checks.")} == {m.__name__ for m in RULES}
    modules = {f"citecheck.checks.{p.stem}" for p in (ROOT / "citecheck" / "checks").glob("[a-z]*.py")}
    assert modules == {m.__name__ for m in RULES}, "a rule module not listed in citecheck/checks/__init__.py"
    assert len({r.id for r in rules}) == len(rules)


def test_a_plugin_package_registers_its_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_a", "[console_scripts]\nacme = acme_rules_a:main\n\n"
             "[citecheck.rules]\nacme = acme_rules_a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    rule = build_registry().get("U901")
    assert rule is not None and rule.name == "no-acme-blog" and rule.origin == "acme_rules_a"
    assert build_registry().get("U001") is not None  # the built-ins still register, once


def test_a_plugin_rule_runs_in_an_offline_audit(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, "acme_rules_b", "[citecheck.rules]\nacme = acme_rules_b\n")
    (tmp_path / "memo.md").write_text("# M\n\nSee [x](https://acme-blog.com/a) and [y](https://www.bls.gov/cpi/).\n")
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", "--format", "json", "memo.md"],
                          cwd=tmp_path, capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{site}:{ROOT}",
                               "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert '"rule": "U901"' in proc.stdout and '"line": 3' in proc.stdout, proc.stderr
    assert proc.returncode == 0  # a warning does not fail the default gate


def test_a_plugin_with_a_duplicate_id_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_c", "[citecheck.rules]\nacme = acme_rules_c\n", RULE.replace("U901", "U001"))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="duplicate rule 'u001'"):
        build_registry()


PAGE_RULE = '''"""A page that says "retracted" is gone for citing purposes (a third-party page rule).

Failing: a page whose text says "This article has been retracted". Passing: any other page.
"""
from citecheck.models import Hit

ID = "H901"
NAME = "retracted-page"
STAGE = "page"
SEVERITY = "error"
VERDICT = "dead"
GATE = "gone"


def check(fetched, options):
    if "retracted" in fetched.page.text_sample:
        yield Hit("the article was retracted", fetched.link.location, fetched.link.url, evidence="retracted")
'''


def test_a_plugin_rule_enters_the_score_the_verdicts_and_the_gate(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """What the rule declares is what every reader of its findings sees: no table elsewhere."""
    from citecheck.config import build
    from citecheck.engine.run import Engine
    from citecheck.engine.select import resolve
    from citecheck.harvest.evidence import judge_failure
    from citecheck.harvest.gate import Policy, failing, finding_reason
    from citecheck.models import Document, Gate, Link, LinkKind, Location, Outcome, Page, Verdict
    from citecheck.report.html_verdicts import classify
    from citecheck.score import summarize

    _install(tmp_path, "acme_rules_d", "[citecheck.rules]\nacme = acme_rules_d\n", PAGE_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    engine = Engine(resolve(build_registry(), build({"select": ["H901"]})))
    link = Link("https://journal.example.org/a/1", Location("m.md", 3, 1), LinkKind.INLINE, "study")
    page = Page(link.url, Outcome.OK, 200, text_sample="This article has been retracted.", content_type="text/html")
    found = engine.check_pages([link], {link.url: page}, "m.md")
    assert [(f.rule, f.verdict, f.gate) for f in found] == [("H901", Verdict.DEAD, Gate.GONE)]
    assert found[0].to_dict()["verdict"] == "dead"
    doc = Document("m.md", "", "markdown", links=(link,))
    summary = summarize([doc], found, {link.url})
    assert summary["verdicts"] == {"dead": 1} and summary["citation_truth_score"] == 0.0
    assert classify(found, page) == ("dead", ["retracted-page"])
    reasons = [finding_reason(f) for f in found]
    assert failing(Policy("lenient"), reasons) == reasons  # proof it is gone: rejected even under lenient
    assert judge_failure(reasons, page, "2000-01-01T00:00:00+00:00").retire


def test_a_plugin_rule_without_a_verdict_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_e", "[citecheck.rules]\nacme = acme_rules_e\n", RULE.replace('VERDICT = "invalid"\n', ""))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="acme_rules_e lacks VERDICT"):
        build_registry()


def test_a_plugin_rule_with_an_unknown_verdict_is_refused_by_name(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _install(tmp_path, "acme_rules_f", "[citecheck.rules]\nacme = acme_rules_f\n",
             RULE.replace('VERDICT = "invalid"', 'VERDICT = "bad"'))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="acme_rules_f: VERDICT 'bad' is not one of fabricated"):
        build_registry()
