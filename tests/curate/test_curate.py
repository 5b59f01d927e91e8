"""`citecheck curate`: seven runs with overlapping URLs → one deduped master list, each URL fetched once."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from harvestsite import Page, threaded_site

from citecheck.cli import main


def _article(title: str) -> Page:
    return Page(200, f"<html><head><title>{title}</title></head><body><article>"
                     + "".join(f"<p>{title}: freight volumes, carriers and rates in detail, part {n}.</p>"
                               for n in range(30)) + "</article></body></html>")


@pytest.mark.slow
def test_seven_runs_dedupe_and_fetch_each_url_once(tmp_path: Path) -> None:
    pages = {f"/reports/report-{i}": _article(f"Freight report number {i}") for i in range(10)}
    with threaded_site(pages) as site:
        base = f"http://{site.host}"
        runs = []
        for r in range(7):  # run r cites reports r..r+3, with tracking parameters and a dead link
            run = tmp_path / f"run-{r}"
            run.mkdir()
            cites = [f"- [Report {i}]({base}/reports/report-{i}?utm_source=run{r})" for i in range(r, r + 4)]
            (run / "memo.md").write_text("# Memo\n\n" + "\n".join(cites) + f"\n- [Gone]({base}/reports/gone)\n"
                                         "- [Fake](https://example.com/fake-report)\n")
            runs.append(str(run))
        (tmp_path / "cfg.yaml").write_text("ignore: [U004, C005]\nfetch: {allow: [127.0.0.1], no-cache: true}\n")
        out = tmp_path / "master.json"
        common = ["-o", str(out), "--config", str(tmp_path / "cfg.yaml")]
        result = CliRunner().invoke(main, ["curate", *runs, *common, "--report", str(tmp_path / "m.md"),
                                           "--csv", str(tmp_path / "m.csv")])
        fetched = Counter(p.split("?")[0] for p in site.log if "citecheck-probe" not in p and p != "/robots.txt")
        with_corpus = CliRunner().invoke(main, ["curate", *runs, *common, "--corpus-out", str(tmp_path / "corpus.json")])
    assert result.exit_code == 0, result.output
    assert set(fetched.values()) == {1} and len(fetched) == 11, fetched  # each distinct URL fetched once
    assert with_corpus.exit_code == 0, with_corpus.output
    master = json.loads(out.read_text())
    urls = master["urls"]
    assert len(urls) == 10 + 1 + 1  # ten reports, the dead link, the placeholder
    by_path = {u["url"].split("?")[0].rsplit("/", 1)[-1]: u for u in urls}
    assert by_path["report-3"]["occurrences"] == 4 and len(by_path["report-3"]["runs"]) == 4
    assert by_path["gone"]["verdict"] == "dead" and by_path["gone"]["occurrences"] == 7
    assert by_path["fake-report"]["verdict"] == "fabricated"
    assert urls[0]["occurrences"] == 7  # sorted by recurrence
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert sorted(e["id"] for e in corpus) == [f"src-{i:03d}" for i in range(1, 11)]
    assert "| 7 | 7 |" in (tmp_path / "m.md").read_text()


def test_corpus_out_is_written_as_harvest_writes_it_one_writer_at_a_time(tmp_path: Path) -> None:
    """--corpus-out merges into a corpus file as `citecheck harvest -o` does: under its lock (a held
    lock is the one-line exit 2 and the corpus is untouched), then written with its .ids."""
    from citecheck.harvest import corpus_lock

    with threaded_site({"/reports/a": _article("Freight report A")}) as site:
        (tmp_path / "run").mkdir()
        (tmp_path / "run" / "memo.md").write_text(f"# Memo\n\n- [Report A](http://{site.host}/reports/a)\n")
        (tmp_path / "cfg.yaml").write_text("ignore: [U004, C005]\nfetch: {allow: [127.0.0.1], no-cache: true}\n")
        corpus = tmp_path / "corpus.json"
        args = ["curate", str(tmp_path / "run"), "-o", str(tmp_path / "master.json"), "--config",
                str(tmp_path / "cfg.yaml"), "--corpus-out", str(corpus)]
        with corpus_lock(corpus):
            busy = CliRunner().invoke(main, args)
        untouched = not corpus.exists()
        done = CliRunner().invoke(main, args)
    assert busy.exit_code == 2 and "corpus.json.lock is locked" in busy.stderr and "Traceback" not in busy.output and untouched
    assert done.exit_code == 0, done.output
    assert [e["id"] for e in json.loads(corpus.read_text())] == ["src-001"]
    assert json.loads(Path(f"{corpus}.ids").read_text())["high_water"] == 1


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])  # PostgreSQL: the full suite
def cache_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fact cache on either backend: a SQLite file, or the team cache's URL (migrated, empty)."""
    return str(tmp_path / "c.sqlite") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def test_from_cache_lists_every_stored_source_with_its_latest_facts(cache_location: str, tmp_path: Path) -> None:
    from citecheck.fetch.cache import open_store
    from citecheck.fetch.guard import Guard
    from citecheck.models import Outcome
    from citecheck.models import Page as Fetched

    html = {"content-type": "text/html"}
    with open_store(cache_location) as cache:
        cache.put_many([
            Fetched(url="https://freight-rates.org/report", outcome=Outcome.OK, status=200, title="Old title",
                    headers=html, fetched_at="2026-11-01T00:00:00Z"),
            Fetched(url="https://freight-rates.org/gone", outcome=Outcome.DEAD, status=404, headers=html,
                    fetched_at="2026-11-02T00:00:00Z"),
            Fetched(url="https://nosuchname-freight.net/x", outcome=Outcome.DEAD, error="nxdomain",
                    fetched_at="2026-11-03T00:00:00Z")])
        cache.put(Fetched(url="https://freight-rates.org/report?utm_source=memo", outcome=Outcome.OK, status=200,
                          title="Freight rates 2026", text_sample="Freight rates in 2026 rose.", headers=html,
                          fetched_at="2026-11-20T00:00:00Z"))  # the same source again: its latest facts win
    with open_store(cache_location, Guard(("127.0.0.1",))) as allowed:
        allowed.put(Fetched(url="http://127.0.0.1:9/private", outcome=Outcome.OK, status=200, headers=html))
    out, report, table = tmp_path / "sources.json", tmp_path / "sources.md", tmp_path / "sources.csv"
    done = CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, [
        "curate", "--from-cache", "--cache", cache_location, "-o", str(out), "--report", str(report),
        "--csv", str(table)])
    assert done.exit_code == 0, done.output
    listed = {u["url"]: u for u in json.loads(out.read_text())["urls"]}
    assert sorted(listed) == ["https://freight-rates.org/gone", "https://freight-rates.org/report?utm_source=memo",
                              "https://nosuchname-freight.net/x"]  # not the row of another URL policy
    latest = listed["https://freight-rates.org/report?utm_source=memo"]
    assert (latest["status"], latest["title"], latest["kind"], latest["fetched_at"], latest["verdict"]) == \
        (200, "Freight rates 2026", "answer", "2026-11-20T00:00:00Z", "ok")
    assert (listed["https://freight-rates.org/gone"]["verdict"], listed["https://nosuchname-freight.net/x"]["kind"]) \
        == ("dead", "nxdomain")
    assert "| 2 | ok | 200 | answer | 2026-11-20T00:00:00Z | <https://freight-rates.org/report?utm_source=memo> " \
           "| Freight rates 2026 |" in report.read_text()
    assert "PASSWORD" not in done.output and "s3cret" not in out.read_text()
    assert table.read_text().splitlines()[0].endswith(",fetched_at,kind")
    # the row stored under another URL policy is not listed, and the run says so (issue 25)
    assert "1 more stored fact(s) not listed: fetched under another URL policy" in done.output


def test_from_cache_refuses_runs_too_and_a_cache_that_is_not_there(tmp_path: Path) -> None:
    runner = CliRunner(env={"CITECHECK_CACHE_URL": None})
    out = str(tmp_path / "o.json")
    both = runner.invoke(main, ["curate", str(tmp_path), "--from-cache", "-o", out])
    neither = runner.invoke(main, ["curate", "-o", out])
    missing = runner.invoke(main, ["curate", "--from-cache", "--cache", str(tmp_path / "none.sqlite"), "-o", out])
    assert [r.exit_code for r in (both, neither, missing)] == [2, 2, 2]
    assert "RUN paths or --from-cache, not both" in both.output and "no cache there" in missing.output
    assert not (tmp_path / "none.sqlite").exists() and not (tmp_path / "o.json").exists()
