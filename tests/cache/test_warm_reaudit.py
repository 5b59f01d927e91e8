"""A re-audit after an edit, with every page in the fact cache: the verdicts are computed again from
the cached facts, and the run fetches nothing to do it."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from citecheck.cli import main
from citecheck.fetch.cache import Cache
from citecheck.fetch.robots import KIND as ROBOTS


def _memo(tmp_path: Path, base: str, tail: str = "") -> Path:
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\nThe harbor grew 45% ([report]({base}/article)).\n\n"
                    f"A study ([study]({base}/missing)) and a soft one ({base}/soft404).\n{tail}", encoding="utf-8")
    return memo


def _args(memo: Path, cache: Path, out: Path) -> list[str]:
    return ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json", "--cache", str(cache), "--timeout", "5",
            "-o", str(out)]


def _rerun(memo: Path, cache: Path, out: Path) -> dict[str, Any]:
    CliRunner().invoke(main, _args(memo, cache, out))
    return dict(json.loads(out.read_text(encoding="utf-8")))


def test_an_edited_memo_is_judged_again_from_the_cache_alone(served: Any, tmp_path: Path) -> None:
    cache, out = tmp_path / "c.sqlite", tmp_path / "out.json"
    memo = _memo(tmp_path, served.base)
    assert CliRunner().invoke(main, _args(memo, cache, out)).exit_code == 1
    cold = json.loads(out.read_text(encoding="utf-8"))
    assert {f["rule"] for f in cold["findings"]} >= {"H001", "H003"}
    requests = sum(served.hits.values())
    _memo(tmp_path, served.base, tail="\n<!-- edited -->\n")  # the stored whole-audit result no longer applies
    warm = _rerun(memo, cache, out)
    assert "from_result_cache" not in warm["summary"]
    assert (warm["summary"]["from_cache"], warm["summary"]["fetched_now"]) == (3, 0)
    assert warm["findings"] == cold["findings"] and sum(served.hits.values()) == requests


def test_a_stale_robots_txt_is_read_again_before_the_cache_answers(served: Any, tmp_path: Path) -> None:
    """robots.txt speaks before the cache: past its day the file is fetched (the Fetcher is made for
    it), once per origin, and the pages still come from the cache."""
    cache, out = tmp_path / "c.sqlite", tmp_path / "out.json"
    memo = _memo(tmp_path, served.base)
    CliRunner().invoke(main, _args(memo, cache, out))
    cold = json.loads(out.read_text(encoding="utf-8"))
    with Cache(cache) as store, store.conn:
        store.conn.execute("UPDATE extras SET data = json_set(data, '$.fetched', ?) WHERE kind = ?",
                           [time.time() - 2 * 86400, ROBOTS])
    before = dict(served.hits)
    _memo(tmp_path, served.base, tail="\n<!-- edited -->\n")
    warm = _rerun(memo, cache, out)
    assert warm["findings"] == cold["findings"] and warm["summary"]["fetched_now"] == 0
    assert served.hits["/robots.txt"] == before.get("/robots.txt", 0) + 1
    assert {p: n for p, n in served.hits.items() if p != "/robots.txt"} == \
        {p: n for p, n in before.items() if p != "/robots.txt"}
