"""A re-audit after an edit, with every page in the fact cache: the verdicts are computed again from
the cached facts, and the run neither fetches nor loads the HTTP stack to do it."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from citecheck.cli import main
from citecheck.fetch.cache import Cache
from citecheck.fetch.robots import KIND as ROBOTS

# The CLI in a fresh process, then which heavy modules it loaded (a warm run needs neither).
RUN = """
import json, sys
from citecheck.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(json.dumps({m: m in sys.modules for m in ("aiohttp", "sqlite_utils")}))
"""


def _memo(tmp_path: Path, base: str, tail: str = "") -> Path:
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\nThe harbor grew 45% ([report]({base}/article)).\n\n"
                    f"A study ([study]({base}/missing)) and a soft one ({base}/soft404).\n{tail}", encoding="utf-8")
    return memo


def _args(memo: Path, cache: Path, out: Path) -> list[str]:
    return ["audit", str(memo), "--allow", "127.0.0.1", "--format", "json", "--cache", str(cache), "--timeout", "5",
            "-o", str(out)]


def _fresh_process(memo: Path, cache: Path, out: Path) -> tuple[dict[str, Any], dict[str, bool]]:
    ran = subprocess.run([sys.executable, "-c", RUN, *_args(memo, cache, out)], capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.read_text(encoding="utf-8")), json.loads(ran.stdout.splitlines()[-1])


def test_an_edited_memo_is_judged_again_from_the_cache_alone(served: Any, tmp_path: Path) -> None:
    cache, out = tmp_path / "c.sqlite", tmp_path / "out.json"
    memo = _memo(tmp_path, served.base)
    assert CliRunner().invoke(main, _args(memo, cache, out)).exit_code == 1
    cold = json.loads(out.read_text(encoding="utf-8"))
    assert {f["rule"] for f in cold["findings"]} >= {"H001", "H003"}
    requests = sum(served.hits.values())
    _memo(tmp_path, served.base, tail="\n<!-- edited -->\n")  # the stored whole-audit result no longer applies
    warm, loaded = _fresh_process(memo, cache, out)
    assert "from_result_cache" not in warm["summary"]
    assert (warm["summary"]["from_cache"], warm["summary"]["fetched_now"]) == (3, 0)
    assert warm["findings"] == cold["findings"] and sum(served.hits.values()) == requests
    assert loaded == {"aiohttp": False, "sqlite_utils": False}


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
    warm, loaded = _fresh_process(memo, cache, out)
    assert warm["findings"] == cold["findings"] and warm["summary"]["fetched_now"] == 0
    assert served.hits["/robots.txt"] == before.get("/robots.txt", 0) + 1
    assert {p: n for p, n in served.hits.items() if p != "/robots.txt"} == \
        {p: n for p, n in before.items() if p != "/robots.txt"}
    assert loaded["aiohttp"] is True  # made for the robots.txt fetch, and only for it
