"""`citecheck curate --sqlite FILE`: runs accumulate in one database (sources, verdicts with evidence
and dates, runs) with full-text search, and README's two example queries answer on it."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from harvestsite import Page, threaded_site

from citecheck.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def _article(title: str) -> Page:
    return Page(200, f"<html><head><title>{title}</title></head><body><article>"
                     + "".join(f"<p>{title}: tonne-kilometres by road and rail, part {n}.</p>" for n in range(30))
                     + "</article></body></html>")


def _readme_queries() -> list[str]:
    """The SQL of README's `sqlite-utils query` examples, in order."""
    text = README.read_text(encoding="utf-8")
    return [m.replace("\\\n", " ") for m in re.findall(r'sqlite-utils query sources\.db "(.*?)"', text, re.S)]


def _curate(tmp_path: Path, memo_dir: Path, *extra: str) -> None:
    result = CliRunner().invoke(main, ["curate", str(memo_dir), "-o", str(tmp_path / "master.json"),
                                       "--sqlite", str(tmp_path / "sources.db"),
                                       "--config", str(tmp_path / "cfg.yaml"), *extra])
    assert result.exit_code == 0, result.output


def test_two_runs_accumulate_and_the_readme_queries_answer(tmp_path: Path) -> None:
    pytest.importorskip("sqlite_utils")
    pages = {"/freight": _article("EU road freight statistics"), "/rail": _article("Rail freight outlook")}
    memos = tmp_path / "memos"
    memos.mkdir()
    (tmp_path / "cfg.yaml").write_text("ignore: [U004, C005]\nfetch: {allow: [127.0.0.1], no-cache: true}\n")
    with threaded_site(pages) as site:
        base = f"http://{site.host}"
        (memos / "memo.md").write_text(f"# Memo\n\n- [Road]({base}/freight)\n- [Rail]({base}/rail)\n")
        _curate(tmp_path, memos)
        del pages["/rail"]  # the rail page dies between the runs
        _curate(tmp_path, memos)
    db = sqlite3.connect(tmp_path / "sources.db")
    runs = db.execute("select id, source, distinct_urls from runs order by id").fetchall()
    assert runs == [(1, "runs", 2), (2, "runs", 2)]
    rows = db.execute("select s.url, v.run_id, v.verdict, v.status, v.evidence, v.checked_at from verdicts v "
                      "join sources s on s.key = v.source_key order by s.url, v.run_id").fetchall()
    assert [(url.rsplit("/", 1)[-1], run, verdict, status) for url, run, verdict, status, _, _ in rows] == [
        ("freight", 1, "ok", 200), ("freight", 2, "ok", 200), ("rail", 1, "ok", 200), ("rail", 2, "dead", 404)]
    evidence = json.loads(rows[-1][4])
    assert evidence and evidence[0]["rule"] == "H001" and rows[-1][5].endswith("Z")
    stamps = [r[0] for r in db.execute("select checked_at from runs order by id")]
    rail = db.execute("select first_seen, last_seen, last_verdict from sources where url like '%/rail'").fetchone()
    assert rail == (stamps[0], stamps[1], "dead")
    died, search = _readme_queries()
    assert [r[0].rsplit("/", 1)[-1] for r in db.execute(died).fetchall()] == ["rail"]
    assert [r[0].rsplit("/", 1)[-1] for r in db.execute(search).fetchall()] == ["freight"]


def test_a_database_it_did_not_write_is_left_alone(tmp_path: Path) -> None:
    pytest.importorskip("sqlite_utils")
    other = tmp_path / "sources.db"
    sqlite3.connect(other).execute("create table notes (x)").connection.commit()
    before = other.read_bytes()
    memos = tmp_path / "memos"
    memos.mkdir()
    (memos / "memo.md").write_text("# Memo\n\n[Fake](https://example.com/report)\n")
    result = CliRunner().invoke(main, ["curate", str(memos), "--offline", "-o", str(tmp_path / "m.json"),
                                       "--sqlite", str(other)])
    assert result.exit_code == 2 and "not a citecheck curation database" in result.output
    assert other.read_bytes() == before


def test_offline_runs_keep_the_stored_page_facts(tmp_path: Path) -> None:
    pytest.importorskip("sqlite_utils")
    memos = tmp_path / "memos"
    memos.mkdir()
    (memos / "memo.md").write_text("# Memo\n\n[Fake](https://example.com/report)\n")
    for _ in range(2):
        result = CliRunner().invoke(main, ["curate", str(memos), "--offline", "-o", str(tmp_path / "m.json"),
                                           "--sqlite", str(tmp_path / "s.db")])
        assert result.exit_code == 0, result.output
    db = sqlite3.connect(tmp_path / "s.db")
    assert db.execute("select count(*) from runs").fetchone() == (2,)
    assert db.execute("select verdict, outcome from verdicts").fetchall() == [("fabricated", "not-fetched")] * 2
    assert db.execute("select count(*) from sources_fts").fetchone() == (1,)
