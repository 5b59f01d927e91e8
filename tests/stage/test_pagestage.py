"""The page stage: findings from the worker pool are exactly the in-process ones; workers never
outlive the run; a lost worker is an internal error, never a clean pass."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import citecheck
from citecheck.config import Config, FetchConfig
from citecheck.stage import pages as pagestage

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

PATHS = ["/article", "/missing", "/gone", "/soft404", "/pdf", "/deep", "/latin1", "/linkedin", "/cf", "/chain/2",
         "/loop/a", "/to"]
TWO_CORES = pytest.mark.skipif(pagestage.worker_count() < 1, reason="needs two cores")


def _memo(tmp_path: Path, base: str) -> Path:
    lines = ["# Memo", ""]
    for n, path in enumerate(PATHS * 2):  # each URL cited twice: findings at every location
        lines.append(f"Claim {n} about the harbor ([source {n}]({base}{path})).\n")
    lines.append(f"<!-- citecheck: disable=H001 reason=\"known dead\" -->\nSuppressed: {base}/missing\n")
    memo = tmp_path / "memo.md"
    memo.write_text("\n".join(lines), encoding="utf-8")
    return memo


def _two_memos(tmp_path: Path, base: str) -> list[str]:
    """Two memos citing the same URLs, with claims that cite two sources at once (M008 judges
    those against both pages, so each share needs every page of its claims)."""
    one = ["# One", ""] + [f"Claim {n} about the harbor ([a]({base}{p}), [b]({base}{q}))."
                           for n, (p, q) in enumerate(zip(PATHS[0::2], PATHS[1::2], strict=True))]
    two = ["# Two", ""] + [f"Claim {n} on {p} ([source]({base}{p})) and on nothing else." for n, p in enumerate(PATHS)]
    paths = [tmp_path / "one.md", tmp_path / "two.md"]
    for path, lines in zip(paths, (one, two), strict=True):
        path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return [str(p) for p in paths]


def _config(tmp_path: Path | None = None, **options: Any) -> Config:
    cache = {"cache": str(tmp_path / "c.sqlite")} if tmp_path else {"use_cache": False}
    return Config(fetch=FetchConfig(allow=("127.0.0.1",), timeout=5, retries=0, **cache), **options)


def _pooled(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Make every online audit use the pool; the list gets True for each stage that had one."""
    used: list[bool] = []
    real_close = pagestage.PageStage.close

    def close(self: pagestage.PageStage, wait: bool = True) -> None:
        used.append(self.pool is not None)
        real_close(self, wait)

    monkeypatch.setattr(sys.modules["citecheck._audit"], "PARALLEL_MIN_PAGES", 1)
    monkeypatch.setattr(pagestage.PageStage, "close", close)
    return used


@TWO_CORES
def test_pool_findings_equal_in_process_findings(served: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memo = [str(_memo(tmp_path, served.base))]
    inline = citecheck.audit(memo, _config(), online=True)
    used = _pooled(monkeypatch)
    pooled = citecheck.audit(memo, _config(), online=True)
    assert used == [True]  # the pool really ran
    assert {f.rule for f in inline.findings} >= {"H001", "H003", "H006", "M008"}  # page rules and M008 had work
    assert pooled.findings == inline.findings
    assert pooled.suppressed == inline.suppressed and pooled.suppressed  # directives apply to the pool's findings
    assert pooled.crashed is inline.crashed is False
    # both keep slim pages (markup samples serve page rules only), with the same facts otherwise
    assert not any(p.html_sample for p in pooled.pages.values())
    assert {u: (p.title, p.text_sample) for u, p in pooled.pages.items()} == \
        {u: (p.title, p.text_sample) for u, p in inline.pages.items()}


@TWO_CORES
@pytest.mark.parametrize("ignore", [(), ("M008",)])
def test_shares_across_documents_and_the_cache_give_the_same_findings(served: Any, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     ignore: tuple[str, ...]) -> None:
    paths = _two_memos(tmp_path, served.base)
    inline = citecheck.audit(paths, _config(ignore=ignore), online=True)
    used = _pooled(monkeypatch)
    pooled = citecheck.audit(paths, _config(tmp_path, ignore=ignore), online=True)
    assert used == [True] and pooled.findings == inline.findings and not pooled.crashed
    assert ("M008" in {f.rule for f in inline.findings}) is not bool(ignore)
    # the parent stored the pages the workers completed, so a warm run
    # judges the same pages
    from citecheck.fetch.cache import Cache
    from citecheck.fetch.guard import Guard

    cached = Cache(str(tmp_path / "c.sqlite"), guard=Guard(("127.0.0.1",))).get_many(list(inline.pages), 30)
    assert cached and all(cached[u].text_sample == inline.pages[u].text_sample for u in cached)
    assert any(p.html_sample for p in cached.values())  # complete pages, not the parent's slim copies
    warm = citecheck.audit(paths, _config(tmp_path, ignore=ignore), online=True)
    assert warm.findings == inline.findings and len(used) == 2


def test_cited_pages_give_each_share_what_the_whole_would() -> None:
    """Two shares, each with only the pages its claims cite (a claim citing `a/` in another
    spelling gets the page by dedupe key), find exactly what one call with every page finds."""
    from citecheck.engine.run import Memo
    from citecheck.models import Document, Link, Location, Outcome, Page, TextSpan
    from citecheck.support.claims import cited_claims, cited_pages

    where = Location("m.md")
    urls = ["https://example.org/a/", "https://example.org/b", "https://example.org/c"]
    doc = Document("m.md", "", "markdown", links=tuple(Link(u, where) for u in urls),
                   spans=(TextSpan("Revenue grew 60% in 2023 ([x](https://example.org/a?utm_source=feed)).", where),
                          TextSpan("Acme hired 40 people ([y](https://example.org/b)).", where),
                          TextSpan("Profit fell 9% ([z](https://example.org/c)).", where)))
    pages = {u: Page(url=u, outcome=Outcome.OK, status=200, title="Report", text_sample=f"Revenue grew 45% {u}",
                     headers={"server": "x"}, meta={"og:title": "Report"}, content_type="text/html")
             for u in urls}
    from citecheck.checks import unsupported_citation as m008

    whole = list(m008.check(Memo(doc, None, pages), m008.DEFAULTS))
    claims = cited_claims(doc)
    # each share as the page stage sends it: only the pages its claims cite, as claim views
    views = [{u: pagestage.claim_view(p) for u, p in cited_pages(claims[i::2], pages).items()} for i in range(2)]
    assert all(not p.headers and not p.meta and p.title == "Report" for view in views for p in view.values())
    shares = [list(m008.check(Memo(doc, None, views[i], (i, 2)), m008.DEFAULTS)) for i in range(2)]
    assert len(whole) == 3 and sorted(shares[0] + shares[1], key=repr) == sorted(whole, key=repr)
    assert set(cited_pages(claims[0::2], pages)) == {"https://example.org/a/", "https://example.org/c"}


@TWO_CORES
def test_a_taken_batch_is_not_kept(tmp_path: Path) -> None:
    """Once its findings and pages are taken, nothing holds a page batch's result (its completed,
    unslimmed pages): the parent's peak memory on a large audit depends on it."""
    import gc
    import weakref

    from citecheck.engine.run import Engine
    from citecheck.models import Outcome, Page

    stage = pagestage.PageStage(Engine([]), workers=2)
    batches: list[weakref.ref[Any]] = []
    real_task = stage._task

    def task(method: str, argument: Any) -> Any:
        future = real_task(method, argument)
        if method == "pages":
            batches.append(weakref.ref(future))
        return future

    stage._task = task  # type: ignore[method-assign]
    try:
        for n in range(pagestage.BATCH * 6 + 5):
            url = f"https://example.org/{n}"
            stage.add(url, Page(url=url, outcome=Outcome.OK, html_sample="<html>" * 100))
        stage.finish()
        gc.collect()
        assert len(batches) == 7 and not stage.lost
        assert [ref for ref in batches if ref() is not None] == []
    finally:
        stage.close()


@TWO_CORES
def test_a_lost_worker_is_an_internal_error_not_a_clean_pass(served: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1]))  # the spawned workers import the rule from here too
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    import dying_rule

    from citecheck.engine.registry import Registry, build_registry
    from citecheck.engine.rule import spec_from_module

    builtin = build_registry()
    registry = Registry((*builtin.rules, spec_from_module(dying_rule)), builtin.packs)
    memo = tmp_path / "memo.md"
    memo.write_text(f"# M\n\nA claim ([a]({served.base}/article)) and ([b]({served.base}/echo?die=/die)).\n",
                    encoding="utf-8")
    used = _pooled(monkeypatch)
    report = citecheck.audit([str(memo)], _config(), online=True, registry=registry)
    assert used == [True]
    assert report.crashed and any(f.rule == "E000" and "worker" in f.message for f in report.findings)


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False)
    return [int(p) for p in out.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@TWO_CORES
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_sigkill_of_the_main_process_leaves_no_worker_behind(served: Any, tmp_path: Path) -> None:
    """CI runners and IDEs kill the main process only: its workers must go too, and a downstream
    `| wc -c` must see the end of its input."""
    memo = tmp_path / "memo.md"
    lines = [f"Claim {n} ([s]({served.base}/article?n={n}))." for n in range(pagestage.PARALLEL_MIN_PAGES)]
    lines += [f"Slow ([s]({served.base}/drip?n={n}))." for n in range(4)]  # keeps the fetch going
    memo.write_text("# M\n\n" + "\n\n".join(lines) + "\n", encoding="utf-8")
    main = subprocess.Popen([sys.executable, "-m", "citecheck", "audit", str(memo), "--allow", "127.0.0.1",
                             "--no-cache", "--format", "json", "--timeout", "60"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=tmp_path)
    count = subprocess.Popen(["wc", "-c"], stdin=main.stdout, stdout=subprocess.PIPE)
    assert main.stdout is not None
    main.stdout.close()  # wc holds the only reading end
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        expected = 1 + pagestage.worker_count()  # the resource tracker and the workers
        while time.monotonic() < deadline and len(workers) < expected:
            time.sleep(0.2)
            workers = _children(main.pid)
        assert len(workers) >= expected, "the pool did not start"
        time.sleep(1)  # the workers are judging pages by now
        os.kill(main.pid, signal.SIGKILL)
        main.wait(10)
        out, _ = count.communicate(timeout=30)  # finishes: nobody holds the pipe any more
        assert out.strip() == b"0"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.1)
        assert not [p for p in workers if _alive(p)]
    finally:
        for proc in (main, count):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@TWO_CORES
def test_the_pool_starts_once_enough_pages_need_parsing() -> None:
    """The threshold counts pages with a body still to parse, not URLs: any number of pages from
    the cache stays in-process; the `min_pages`-th fetched body starts the pool, and the findings
    are those of an in-process stage."""
    from citecheck.engine.run import Engine
    from citecheck.fetch.facts import Raw
    from citecheck.models import Outcome, Page

    engine = Engine([_page_rule("H901", _titled)])
    count = 3 * pagestage.BATCH
    runs: list[list[Any]] = []
    for workers, parse in ((1, False), (1, True), (0, True)):
        stage = pagestage.PageStage(engine, _documents(count), workers=workers, min_pages=count // 2)
        try:
            for i in range(count):
                url = f"https://example.org/{i}"
                if parse:
                    stage.add(url, Page(url=url, final_url=url, outcome=Outcome.OK, status=200, content_type="text/html"),
                              Raw(f"<title>p{i}</title><p>Text.</p>".encode(), "text/html"))
                else:
                    stage.add(url, Page(url=url, final_url=url, outcome=Outcome.OK, status=200, title=f"p{i}"))
                assert (stage.pool is not None) is (workers == 1 and parse and i + 1 >= count // 2)
            stage.finish()
            runs.append(sorted((f.rule, f.url, f.message) for found in stage.results().values() for f in found))
        finally:
            stage.close()
    assert len(runs[0]) == count and runs[0] == runs[1] == runs[2]


@TWO_CORES
def test_the_fetch_waits_for_room_while_the_pool_lags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bodies sent to the pool wait in the parent until a worker is done with them; `room()` (awaited
    before each fetch) holds the fetch back once `WAITING` of them wait, and lets it go on as the
    worker catches up: the parent's memory is bounded whatever the worker's lag (the cold 5,000-link
    benchmark's parent peak RSS doubled without it). Every page is still judged."""
    import asyncio

    from citecheck.engine.run import Engine
    from citecheck.fetch.facts import Raw
    from citecheck.models import Outcome, Page

    gate = tmp_path / "open"  # the worker judges nothing until this file exists
    monkeypatch.setenv("CITECHECK_TEST_GATE", str(gate))
    count = pagestage.WAITING + 2 * pagestage.BATCH
    stage = pagestage.PageStage(Engine([_page_rule("H901", _gated)]), _documents(count), workers=1, min_pages=0)

    async def fetch() -> int | None:
        held_back = None
        for i in range(count):
            try:
                await asyncio.wait_for(stage.room(), 1.0)
            except TimeoutError:
                held_back = i if held_back is None else held_back
                gate.touch()  # the worker catches up
                await asyncio.wait_for(stage.room(), 60)
            url = f"https://example.org/{i}"
            stage.add(url, Page(url=url, final_url=url, outcome=Outcome.OK, status=200, content_type="text/html"),
                      Raw(f"<title>p{i}</title><p>Text.</p>".encode(), "text/html"))
        return held_back

    try:
        held_back = asyncio.run(fetch())
        stage.finish()
        found = [f for findings in stage.results().values() for f in findings]
    finally:
        stage.close()
    assert held_back == pagestage.WAITING  # the first fetch past the window waited
    assert len(found) == count and not stage.crashed


def _gated(fetched: Any, options: Any) -> Any:
    while not os.path.exists(os.environ["CITECHECK_TEST_GATE"]):
        time.sleep(0.01)
    yield from _titled(fetched, options)


def test_worker_count_follows_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    for cores, workers in ((1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (64, 4)):
        monkeypatch.setattr(pagestage.os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)))
        assert pagestage.worker_count() == workers


def _page_rule(rule_id: str, check: Any) -> Any:
    from citecheck.engine.rule import RuleSpec
    from citecheck.engine.select import ActiveRule
    from citecheck.models import Severity

    return ActiveRule(RuleSpec(rule_id, f"rule-{rule_id.lower()}", "page", Severity.WARNING, "doc", check),
                      Severity.WARNING, {})


def _titled(fetched: Any, options: Any) -> Any:
    from citecheck.models import Hit

    yield Hit(f"title {fetched.page.title}", fetched.link.location, fetched.link.url)


def _stage_findings(stage: pagestage.PageStage, count: int) -> list[Any]:
    from citecheck.models import Outcome, Page

    try:
        for i in range(count):
            url = f"https://example.org/{i}"
            stage.add(url, Page(url=url, final_url=url, outcome=Outcome.OK, status=200, title=f"p{i}"))
        stage.finish()
        return sorted((f.rule, f.url, f.message) for found in stage.results().values() for f in found)
    finally:
        stage.close()


def _documents(count: int) -> list[Any]:
    from citecheck.models import Document, Link, Location

    links = tuple(Link(f"https://example.org/{i}", Location("m.md", i + 1, 1)) for i in range(count))
    return [Document("m.md", "", "markdown", links=links)]


def test_rules_that_cannot_travel_to_workers_run_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from citecheck.engine.run import Engine

    def local(fetched: Any, options: Any) -> Any:  # a function inside a function: pickle cannot name it
        return _titled(fetched, options)

    stage = pagestage.PageStage(Engine([_page_rule("H901", local)]), _documents(3), workers=2)
    assert stage.pool is None and stage.workers == 0
    assert "cannot be sent to worker processes" in capsys.readouterr().err
    assert [m for _, _, m in _stage_findings(stage, 3)] == ["title p0", "title p1", "title p2"]


def test_the_shares_go_with_the_last_batch_when_no_page_waits_to_be_parsed() -> None:
    """Pages from the cache are complete: M008's shares are sent behind the last page batch, and
    the pool goes on to them while the parent runs the link rules. A page still to be parsed holds
    them back until its facts are known."""
    from citecheck.config import Config
    from citecheck.engine.registry import build_registry
    from citecheck.engine.select import resolve
    from citecheck.fetch.facts import Raw
    from citecheck.models import Document, Link, Location, Outcome, Page, TextSpan

    where = Location("m.md")
    url = "https://example.org/a"
    doc = Document("m.md", "", "markdown", links=(Link(url, where),),
                   spans=(TextSpan(f"Revenue grew 60% in 2023 ([x]({url})).", where),))
    engine = pagestage.Engine(resolve(build_registry(()), Config()))
    known = Page(url=url, outcome=Outcome.OK, status=200, title="Report", text_sample="Revenue grew 45% in 2023.")
    for raw, at_flush in ((None, ["pages", "memo"]), (Raw(b"<p>Revenue grew 45% in 2023.</p>", "text/html"), ["pages"])):
        stage = pagestage.PageStage(engine, [doc])
        calls: list[str] = []
        task = stage._task
        stage._task = lambda method, argument, calls=calls, task=task: (  # type: ignore[method-assign]
            calls.append(method), task(method, argument))[1]
        stage.add(url, known if raw is None else Page(url=url, outcome=Outcome.OK, status=200), raw)
        stage.flush()
        assert calls == at_flush
        stage.finish()
        assert calls == ["pages", "memo"] and [f.rule for f in stage.results()["m.md"]] == ["M008"]
        stage.close()


@TWO_CORES
def test_pages_a_lost_worker_did_not_judge_are_unchecked_and_unscored(served: Any, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26 item 10: a worker that dies takes its batch with it; those dead links must not read
    as ok, the findings already made stay, and no score is computed over unjudged pages."""
    sys.path.insert(0, str(Path(__file__).parents[1]))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    import dying_rule

    from citecheck.engine.registry import Registry, build_registry
    from citecheck.engine.rule import spec_from_module
    from citecheck.report import ReportContext, render
    from citecheck.report.gate import exit_code

    builtin = build_registry()
    registry = Registry((*builtin.rules, spec_from_module(dying_rule)), builtin.packs)
    dead = [f"{served.base}/missing?n={n}" for n in range(40)]
    memo = tmp_path / "memo.md"
    memo.write_text("# M\n\n" + "".join(f"Claim {n} ([s]({url})).\n\n" for n, url in enumerate(dead))
                    + f"Last ([d]({served.base}/echo?die=/die)).\n\nAn open claim <needs-source/>.\n", encoding="utf-8")
    used = _pooled(monkeypatch)
    report = citecheck.audit([str(memo)], _config(), online=True, registry=registry)
    assert used == [True] and report.crashed
    assert exit_code(report.findings, "error", report.crashed) == 2
    summary = report.summary
    assert summary["outcomes"]["dead"] == 40  # what the fetch saw is still reported
    assert summary["verdicts"].get("ok", 0) == 0 and summary["verdicts"]["unchecked"] >= 40
    assert summary["citation_truth_score"] is None and summary["unjudged"] == 41
    assert set(summary["memos"].values()) == {None}
    rules = {f.rule for f in report.findings}
    assert "E000" in rules and "M003" in rules  # findings made outside the lost batch are kept
    text = render("text", report.findings, summary, ReportContext(registry=registry, report=report))
    assert "no citation-truth score (41 page(s) not judged" in text
