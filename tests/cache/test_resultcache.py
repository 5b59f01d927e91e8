"""The CLI's stored audit results: reused only while files, configuration, code and every cited
page's cached facts are unchanged; anything else runs the audit in full."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from citecheck.cache.results import KIND
from citecheck.cli import main
from citecheck.fetch.cache import Cache


def _memo(tmp_path: Path, base: str, extra: str = "") -> Path:
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\nThe harbor grew 45% ([report]({base}/article)).\n\n"
                    f"A study ([study]({base}/missing)) and a soft one ({base}/soft404).\n{extra}", encoding="utf-8")
    return memo


def _audit(memo: Path, cache: Path, *extra: str) -> tuple[dict[str, Any], int]:
    result = CliRunner().invoke(main, ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json", "--cache", str(cache),
                                       "--timeout", "5", *extra])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout), result.exit_code


def _hits(web: Any) -> int:
    return sum(web.hits.values())


def test_unchanged_reaudit_reuses_the_stored_result(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    cold, code = _audit(memo, cache)
    assert "from_result_cache" not in cold["summary"] and {f["rule"] for f in cold["findings"]} >= {"H001", "H003"}
    requests = _hits(served)
    warm, warm_code = _audit(memo, cache)
    assert warm["summary"]["from_result_cache"] is True and warm_code == code
    assert warm["findings"] == cold["findings"] and _hits(served) == requests  # not even a fetch
    assert (warm["summary"]["from_cache"], warm["summary"]["fetched_now"]) == (3, 0)
    assert (cold["summary"]["from_cache"], cold["summary"]["fetched_now"]) == (0, 3)
    strip = {"duration_s", "from_result_cache", "from_cache", "fetched_now"}
    assert {k: v for k, v in warm["summary"].items() if k not in strip} == \
        {k: v for k, v in cold["summary"].items() if k not in strip}


def test_a_changed_memo_or_configuration_audits_in_full(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    _audit(memo, cache)
    ignored, _ = _audit(memo, cache, "--ignore", "H003")
    assert "from_result_cache" not in ignored["summary"] and not any(f["rule"] == "H003" for f in ignored["findings"])
    _memo(tmp_path, served.base, extra="\nOne more sentence.\n")
    edited, _ = _audit(memo, cache)
    assert "from_result_cache" not in edited["summary"]
    again, _ = _audit(memo, cache)
    assert again["summary"]["from_result_cache"] is True


def test_a_refetched_or_expired_page_audits_in_full(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    _audit(memo, cache)
    store = Cache(str(cache))
    with store.conn:  # the article's facts are replaced, as a refetch would
        store.conn.execute("UPDATE pages SET fetched = fetched + 1 WHERE url LIKE '%/article'")
    store.close()
    refetched, _ = _audit(memo, cache)
    assert "from_result_cache" not in refetched["summary"]
    store = Cache(str(cache))
    with store.conn:  # every fact 40 days old: past the 30-day default
        store.conn.execute("UPDATE pages SET fetched = ?", [time.time() - 40 * 86400])
    store.close()
    expired, _ = _audit(memo, cache)
    assert "from_result_cache" not in expired["summary"]


def test_html_reports_and_crashes_are_never_served_from_it(served: Any, tmp_path: Path) -> None:
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    result = CliRunner().invoke(main, ["audit", str(memo), "--allow", "127.0.0.1", "--format", "html", "-o",
                                       str(tmp_path / "r.html"), "--cache", str(cache), "--timeout", "5"])
    assert result.exit_code == 1, result.output
    store = Cache(str(cache))
    assert not store.conn.execute("SELECT COUNT(*) FROM extras WHERE kind = ?", [KIND]).fetchone()[0]
    store.close()


def test_a_day_old_nxdomain_fact_audits_in_full(served: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """A corroborated NXDOMAIN lives a day in the cache; past that the stored result is not served."""
    from verdictnet import SwitchDns

    dns = SwitchDns(zones=("org",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: dns)
    memo, cache = _memo(tmp_path, served.base, extra="\nInvented ([x](http://fabricated-institute.org/r)).\n"), \
        tmp_path / "c.sqlite"
    cold, _ = _audit(memo, cache)
    assert any(f["rule"] == "H002" and f["severity"] == "error" for f in cold["findings"])
    assert _audit(memo, cache)[0]["summary"]["from_result_cache"] is True
    store = Cache(str(cache))
    with store.conn:  # the NXDOMAIN fact is two days old; the pages' answers are still fresh
        store.conn.execute("UPDATE pages SET fetched = ? WHERE kind = 'nxdomain'", [time.time() - 2 * 86400])
    store.close()
    again, _ = _audit(memo, cache)
    assert "from_result_cache" not in again["summary"] and again["findings"] == cold["findings"]
    # each run resolves the name twice: for its robots.txt, then for the page (a failure is not cached)
    assert again["summary"]["fetched_now"] == 1 and len(dns.lookups) == 4


def test_the_rules_digest_reads_each_package_once(monkeypatch: Any) -> None:
    """Every built-in rule lives in the citecheck package: its tree is read once per digest, not
    once per rule (40 reads of ~200 files were a tenth of a second of every warm run)."""
    from citecheck.cache import results as resultcache
    from citecheck.config import Config
    from citecheck.engine.registry import build_registry
    from citecheck.engine.select import resolve

    active = resolve(build_registry(()), Config(), defer=("url", "page", "memo", "corpus", "engine"))
    expected = resultcache.rules_digest(active)
    reads: list[Path] = []
    real = resultcache._tree_digest

    def counted(root: Path) -> str:
        reads.append(root)
        return real(root)

    monkeypatch.setattr(resultcache, "_tree_digest", counted)
    assert resultcache.rules_digest(active) == expected and len(active) > 30
    assert len(reads) == 1


def test_a_verbose_reaudit_served_from_it_says_so(served: Any, tmp_path: Path) -> None:
    """Regression: `-v` on a served result once crashed (AttributeError: the stored result had no pages)."""
    memo, cache = _memo(tmp_path, served.base), tmp_path / "c.sqlite"
    _audit(memo, cache)
    warm, _ = _audit(memo, cache, "-v")
    assert warm["summary"]["from_result_cache"] is True
    result = CliRunner().invoke(main, ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json", "--cache",
                                       str(cache), "--timeout", "5", "-v"])
    assert "unchanged since a stored audit: its results are reused" in result.stderr



def test_a_stored_finding_reads_back_whole() -> None:
    """What the JSON contract leaves out (gate, stage, fault: an E003 replayed must still exit 2) is stored too."""
    from dataclasses import astuple

    from citecheck.models import Fault, Finding, Gate, Severity, Verdict

    found = Finding("m.md", 3, 4, "E003", "unreadable-input", Severity.ERROR, "cannot read", "u", "e", "f", "s",
                    Verdict.INPUT, Gate.GONE, "engine", Fault.UNAUDITED)
    assert astuple(Finding.from_dict(json.loads(json.dumps(found.to_record())))) == astuple(found)
    assert "fault" not in found.to_dict() and "stage" not in found.to_dict()
