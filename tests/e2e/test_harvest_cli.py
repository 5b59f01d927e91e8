"""`citecheck harvest` on the command line: outputs, exit codes 0/1/2, one-line errors, and an
interrupted run that leaves the previous corpus intact and resumes from the cache."""
from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import pytest
from harvestkit import OUTLINE, cli, project
from harvestsite import Page, threaded_site

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

def test_strict_run_writes_corpus_rejects_and_sections(tmp_path: Path) -> None:
    with threaded_site() as site:
        result = cli(*project(tmp_path, site), "--gate", "strict", "--rejects", str(tmp_path / "rejects.json"),
                     "--per-section", str(tmp_path / "sections"))
    assert result.exit_code == 1, result.output  # strict: any reject fails the run
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [e["id"] for e in corpus] == ["src-001", "src-002", "src-003", "src-004"]
    rejects = json.loads((tmp_path / "rejects.json").read_text())
    assert rejects["version"] == 1 and rejects["summary"]["rejected"] == 5
    assert rejects["summary"]["by_reason"] == {"H001": 1, "H003": 1, "H004": 1, "U001": 1, "title-contradiction": 1}
    dead = next(r for r in rejects["rejects"] if r["url"].endswith("/stats/removed-report"))
    assert dead["findings"][0]["rule"] == "H001" and dead["origin"].endswith("outline.yaml:8")
    sections = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "sections").glob("*.json")}
    assert {k: [e["id"] for e in v] for k, v in sections.items()} == {
        "market": ["src-001", "src-002"], "competition": ["src-003"], "regulation": ["src-004"]}
    assert json.loads((tmp_path / "corpus.json.ids").read_text())["high_water"] == 4
    assert "removed-report" in result.stderr and "H001" in result.stderr  # the rejects table
    assert "harvest: 3 sections" in result.stderr  # progress


def test_default_gate_exits_0_and_empty_section_exits_1(tmp_path: Path) -> None:
    with threaded_site() as site:
        assert cli(*project(tmp_path, site), "-q").exit_code == 0
        empty = OUTLINE + "  - id: outlook\n    title: Outlook\n    queries: [no such thing anywhere]\n" \
                          "    preferred_sources: [Statistics Office]\n"
        result = cli(*project(tmp_path, site, empty), "-q")
    assert result.exit_code == 1
    assert "section 'outlook' ended with no source" in result.stderr


@pytest.mark.parametrize("args,message", [
    (["--query", "road freight"], "--query needs a provider"),
    (["--query", "road freight", "--provider", "tavily"], "set the TAVILY_API_KEY environment variable"),
    (["--provider", "google", "--query", "x"], "unknown provider 'google'"),
    ([], "nothing to harvest"),
])
def test_bad_usage_is_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = cli(*args, "-o", str(tmp_path / "c.json"))
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "c.json").exists()


def test_malformed_outline_exit_2_with_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "outline.yaml").write_text("title: x\ncompany: {name: a}\nsections:\n  - id: a\n    titel: A\n")
    result = cli(str(tmp_path / "outline.yaml"), "-o", str(tmp_path / "c.json"))
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"citecheck: error: {tmp_path / 'outline.yaml'}:5: sections.0: unknown key "
                                     "'titel' (known keys: id, preferred_sources, providers, queries, questions, "
                                     "title, urls)")


def test_interrupted_run_keeps_the_previous_corpus_and_resumes_from_cache(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from citecheck.harvest.judge import Judge

    # Ctrl-C is simulated with raise_signal, which asyncio's runner turns into a cancelled run only
    # when SIGINT has Python's default handler: a handler left behind by anything that ran earlier in
    # this process (seen in the full suite) would otherwise make the "interrupt" a no-op.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupted_run(tmp_path, monkeypatch, Judge, previous)
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupted_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, Judge: Any, previous: Any) -> None:
    with threaded_site() as site:
        args = project(tmp_path, site)
        assert cli(*args, "-q").exit_code == 0
        before = (tmp_path / "corpus.json").read_bytes()
        site.pages["/stats/goods-transport"] = Page(200, site.pages["/stats/goods-transport"].html.replace(
            "3.1 billion", "3.2 billion"))
        originals = {name: getattr(Judge, name) for name in ("_fresh", "_recheck")}  # new candidates, corpus sources

        def interrupting(original: Any) -> Any:
            async def interrupt(self: Judge, url: str) -> Any:
                if url.endswith("/law/mobility-package"):  # Ctrl-C once the other pages are in
                    for _ in range(600):  # ... and the changed one's main text extracted (the pool starts first)
                        await asyncio.sleep(0.05)
                        if self.extractor.extracted:
                            break
                    await asyncio.sleep(0.2)
                    signal.raise_signal(signal.SIGINT)
                    await asyncio.sleep(10)
                return await original(self, url)
            return interrupt

        for name, original in originals.items():
            monkeypatch.setattr(Judge, name, interrupting(original))
        site.log.clear()
        result = cli(*args, "-q", "--max-age", "0")
        assert result.exit_code == 130 and "interrupted" in result.stderr, (result.exit_code, result.stderr,
                                                                             f"SIGINT handler before: {previous!r}")
        assert (tmp_path / "corpus.json").read_bytes() == before  # untouched, not half-written
        refetched = {p for p in site.log if p.startswith(("/stats", "/news", "/law"))}
        for name, original in originals.items():
            monkeypatch.setattr(Judge, name, original)
        site.log.clear()
        assert cli(*args, "-q").exit_code == 0
        again = {p for p in site.log if p.startswith(("/stats", "/news", "/law"))}
    assert "/stats/goods-transport" in refetched and "/law/mobility-package" not in refetched
    # the corpus's sources are re-checked on every harvest (issue 25 item 2); every other candidate the
    # interrupted run (or the first run) fetched came from the cache
    sources = {"/" + e["url"].split("/", 3)[3] for e in json.loads(before)}
    assert {p for p in again if "citecheck-probe" not in p} == sources
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert any("3.2 billion" in e["body_excerpt"] for e in corpus)


def test_allow_alone_harvests_loopback_and_a_private_reject_names_the_flag(tmp_path: Path) -> None:
    """`--allow 127.0.0.1:PORT` is the whole story: no --ignore U004,C005, no config file."""
    with threaded_site() as site:
        listed = tmp_path / "Sources.md"
        listed.write_text(f"- [Goods transport by road in Germany]({site.url('/stats/goods-transport')})\n"
                          f"- [Spot freight rates]({site.url('/news/spot-rates')})\n"
                          "- [Internal dashboard](http://10.20.30.40:8080/kpi)\n")
        result = cli("--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", site.host,
                     "--cache", str(tmp_path / "cache.sqlite"), "--rejects", str(tmp_path / "rejects.json"))
    assert result.exit_code == 0, result.stderr
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [e["url"] for e in corpus] == [site.url("/stats/goods-transport"), site.url("/news/spot-rates")]
    reject = json.loads((tmp_path / "rejects.json").read_text())["rejects"][0]
    assert reject["reasons"][0]["rule"] == "U004" and reject["url"] == "http://10.20.30.40:8080/kpi"
    line = next(x for x in result.stderr.splitlines() if "10.20.30.40" in x)
    assert "--allow 10.20.30.40:8080 or --allow-private" in line
