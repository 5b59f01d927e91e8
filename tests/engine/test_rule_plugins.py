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

ROOT = Path(__file__).resolve().parents[2]
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


MEMO_RULE = '''"""A draft must not say "TBD" (a third-party memo rule that write always runs).

Failing: `Revenue was TBD.` Passing: `Revenue was $3M.`
"""
from citecheck.models import Hit

ID = "M901"
NAME = "no-tbd"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "memo"
WRITE = "contract"
EVIDENCE = "Placeholder word"


def check(memo, options):
    for span in memo.document.spans:
        if "TBD" in span.text:
            yield Hit("the draft says TBD", span.location, evidence="TBD")
'''

CORPUS_RULE = '''"""Every corpus entry needs a section (a third-party corpus rule that guards appending).

Failing: an entry with `"section": ""`. Passing: `"section": "Pricing"`.
"""
from citecheck.models import Hit, Location

ID = "C901"
NAME = "needs-section"
STAGE = "corpus"
SEVERITY = "error"
VERDICT = "corpus"
BLOCKS_APPEND = True


def check(corpus, options):
    for source in corpus.sources:
        if not source.section:
            yield Hit(f"{source.id} has no section", Location(corpus.path))
'''

UNREACHED_RULE = '''"""A link nobody could reach (a third-party page rule that speaks only of a missing answer).

Failing: a link whose fetch got no answer. Passing: a page that answered.
"""
from citecheck.models import Hit

ID = "H902"
NAME = "no-answer"
STAGE = "page"
SEVERITY = "warning"
VERDICT = "unverifiable"
UNREACHED = True


def check(fetched, options):
    if fetched.page.status is None:
        yield Hit("no answer", fetched.link.location, fetched.link.url)
'''


def _plugins(site: Path, sources: dict[str, str]) -> None:
    """One distribution whose `citecheck.rules` entry points name each module of `sources` (module
    names differ per test: an imported module stays in `sys.modules`)."""
    for module, source in sources.items():
        (site / f"{module}.py").write_text(source, encoding="utf-8")
    points = "".join(f"{module} = {module}\n" for module in sources)
    _install(site, "acme_rules_g", f"[citecheck.rules]\n{points}", "")


@pytest.mark.parametrize("contract", [True, False])
def test_a_plugin_rule_declaring_write_contract_runs_in_write_whatever_ignore_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, contract: bool) -> None:
    from citecheck.config import build
    from citecheck.extract import load_corpus
    from citecheck.report.html_evidence import finding_item
    from citecheck.write import write

    _plugins(tmp_path, {f"acme_tbd_{contract}": MEMO_RULE if contract else MEMO_RULE.replace('WRITE = "contract"\n', "")})
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = build_registry()
    corpus = load_corpus(str(ROOT / "fixtures" / "write" / "corpus.json"))
    result = write("# Memo\n\nRevenue was TBD.\n", corpus, config=build({"ignore": ["M901", "M008"]}), registry=registry)
    found = [f for f in result.findings if f.rule == "M901"]
    assert [(f.line, f.evidence) for f in found] == ([(3, "TBD")] if contract else [])
    if contract:  # the evidence is labelled as the rule says (EVIDENCE), not guessed from its slug
        assert '<span class="k">Placeholder word:</span> <q>TBD</q>' in finding_item(found[0], registry)


@pytest.mark.parametrize("blocks", [True, False])
def test_a_plugin_rule_declaring_blocks_append_guards_the_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 blocks: bool) -> None:
    import json

    from citecheck.config import build
    from citecheck.engine.run import Engine
    from citecheck.engine.select import resolve
    from citecheck.errors import CorpusError
    from citecheck.harvest.corpus import load_existing

    _plugins(tmp_path, {f"acme_section_{blocks}": CORPUS_RULE if blocks else CORPUS_RULE.replace("BLOCKS_APPEND = True\n", "")})
    monkeypatch.syspath_prepend(str(tmp_path))
    entries = json.loads((ROOT / "fixtures" / "write" / "corpus.json").read_text(encoding="utf-8"))
    entries[0]["section"] = ""
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(entries), encoding="utf-8")
    engine = Engine(resolve(build_registry(), build({"select": ["C901"]})))
    if blocks:
        with pytest.raises(CorpusError, match="C901 needs-section: src-001 has no section"):
            load_existing(corpus, engine)
    else:
        assert load_existing(corpus, engine) is not None


def test_a_plugin_rule_declaring_unreached_is_silent_in_an_outage(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """With no network the run's one line speaks for every link; a rule that only says "no answer"
    (`UNREACHED`) adds nothing, one that says more keeps its findings."""
    import json

    from click.testing import CliRunner
    from verdictnet import SwitchDns

    from citecheck.cli import main

    said_more = UNREACHED_RULE.replace("H902", "H903").replace("no-answer", "no-answer-kept") \
        .replace("UNREACHED = True\n", "")
    _plugins(tmp_path, {"acme_unreached": UNREACHED_RULE, "acme_kept": said_more})
    monkeypatch.syspath_prepend(str(tmp_path))
    dns = SwitchDns(names=("harbor-data.org", "slow-archive.org"), zones=("org",))
    dns.down = True
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: dns)
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nClaim ([source](http://harbor-data.org/r)), ([more](http://slow-archive.org/s)).\n")
    result = CliRunner().invoke(main, ["audit", str(memo), "--format", "json", "--no-cache", "--select", "H902,H903"])
    assert result.exit_code == 2 and "network unavailable" in result.stderr
    assert sorted(f["rule"] for f in json.loads(result.stdout)["findings"]) == ["H903", "H903"]
