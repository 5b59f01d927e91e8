"""Page rules judged in a forked worker while fetching give exactly the in-process findings."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import citecheck
from citecheck import pagejudge
from citecheck.config import Config, FetchConfig

PATHS = ["/article", "/missing", "/gone", "/soft404", "/pdf", "/deep", "/latin1", "/linkedin", "/cf", "/chain/2",
         "/loop/a", "/to"]


def _memo(tmp_path: Path, base: str) -> Path:
    lines = ["# Memo", ""]
    for n, path in enumerate(PATHS * 2):  # each URL cited twice: findings at every location
        lines.append(f"Claim {n} about the harbor ([source {n}]({base}{path})).\n")
    lines.append(f"<!-- citecheck: disable=H001 reason=\"known dead\" -->\nSuppressed: {base}/missing\n")
    memo = tmp_path / "memo.md"
    memo.write_text("\n".join(lines), encoding="utf-8")
    return memo


def _audit(memo: Path) -> Any:
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5, retries=0))
    return citecheck.audit([str(memo)], config, online=True)


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_worker_findings_equal_in_process_findings(served: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    memo = _memo(tmp_path, served.base)
    inline = _audit(memo)
    used: list[bool] = []
    real_results = pagejudge.PageJudge.results

    def spy(self: pagejudge.PageJudge) -> Any:
        used.append(True)
        return real_results(self)

    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    monkeypatch.setattr(pagejudge.PageJudge, "results", spy)
    forked = _audit(memo)
    assert used == [True]  # the worker path really ran
    assert {f.rule for f in inline.findings} >= {"H001", "H003", "H006", "M008"}  # page rules and M008 had work
    assert forked.findings == inline.findings
    assert forked.suppressed == inline.suppressed and forked.suppressed  # directives apply to worker findings
    assert forked.crashed is inline.crashed is False
    # the parent keeps slim pages (markup samples served the worker's page rules only)
    assert any(p.html_sample for p in inline.pages.values()) and not any(p.html_sample for p in forked.pages.values())
    assert {u: p.title for u, p in forked.pages.items()} == {u: p.title for u, p in inline.pages.items()}


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
@pytest.mark.parametrize("workers", [2, 3])  # 3: what a four-core machine runs
def test_claims_judged_as_their_pages_come_equal_judging_them_at_the_end(served: Any, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          workers: int) -> None:
    """With EARLY_MIN=1 every claim is judged by a worker as soon as its pages are there, and the
    link rules run in the workers: the findings are still exactly the in-process ones, with the
    claims partitioned two ways and three."""
    paths = [str(p) for p in _two_memos(tmp_path, served.base)]
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5, retries=0))
    inline = citecheck.audit(paths, config, online=True)
    monkeypatch.setattr(pagejudge, "WORKERS", workers)
    monkeypatch.setattr(pagejudge, "EARLY_MIN", 1)
    forked, kinds = _forked(paths, config, monkeypatch)
    assert "early" in kinds and kinds.count("links") == kinds.count("done") == workers
    assert {f.rule for f in inline.findings} >= {"H001", "H003", "M008", "U004"}
    assert forked.findings == inline.findings and not forked.crashed


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_without_m008_pages_are_routed_at_once_and_findings_match(served: Any, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """No shardable memo rule: no partition, no claims to forward; the link rules still run in the
    workers and the findings are still exactly the in-process ones."""
    paths = [str(p) for p in _two_memos(tmp_path, served.base)]
    config = Config(ignore=("M008",), fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5, retries=0))
    inline = citecheck.audit(paths, config, online=True)
    forked, kinds = _forked(paths, config, monkeypatch)
    assert "routes" not in kinds and "early" not in kinds and kinds.count("links") == pagejudge.WORKERS
    assert "M008" not in {f.rule for f in inline.findings} and {"H001", "U004"} <= {f.rule for f in inline.findings}
    assert forked.findings == inline.findings and not forked.crashed


def _forked(paths: list[str], config: Config, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[str]]:
    """The audit judged by forked workers, and the kinds of message the workers sent."""
    kinds: list[str] = []
    real_results = pagejudge.PageJudge.results

    def spy(self: pagejudge.PageJudge) -> Any:
        found = real_results(self)
        kinds.extend(kind for worker in self.workers for kind, _ in worker.messages)
        return found

    from citecheck.engine.run import Engine

    in_parent: list[int] = []  # a forked worker appends to its own copy of this list
    real_check_links = Engine.check_links

    def check_links(self: Engine, links: Any, path: str) -> Any:
        if os.getpid() == parent:
            in_parent.append(1)
        return real_check_links(self, links, path)

    parent = os.getpid()
    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    monkeypatch.setattr(pagejudge.PageJudge, "results", spy)
    monkeypatch.setattr(Engine, "check_links", check_links)
    report = citecheck.audit(paths, config, online=True)
    assert not in_parent  # the workers ran the link rules, and only they did
    return report, kinds


def _two_memos(tmp_path: Path, base: str) -> list[Path]:
    """Two memos citing the same URLs, with claims that cite two sources at once (M008 judges
    those against both pages, so a worker needs every page of each claim it judges)."""
    one = ["# One", ""] + [f"Claim {n} about the harbor ([a]({base}{p}), [b]({base}{q}))."
                           for n, (p, q) in enumerate(zip(PATHS[0::2], PATHS[1::2], strict=True))]
    two = ["# Two", ""] + [f"Claim {n} on {p} ([source]({base}{p})) and on nothing else." for n, p in enumerate(PATHS)]
    two.append("An intranet page ([kpi](http://10.9.9.9/kpi)) that U004 reports (the guard never fetches it).")
    paths = [tmp_path / "one.md", tmp_path / "two.md"]
    for path, lines in zip(paths, (one, two), strict=True):
        path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return paths


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_workers_share_claims_across_documents_exactly(served: Any, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(p) for p in _two_memos(tmp_path, served.base)]
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), cache=str(tmp_path / "c.sqlite"), timeout=5, retries=0))
    inline = citecheck.audit(paths, Config(fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5,
                                                             retries=0)), online=True)
    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    forked = citecheck.audit(paths, config, online=True)
    assert {f.rule for f in inline.findings} >= {"H001", "H003", "M008"}
    assert forked.findings == inline.findings and not forked.crashed
    # the workers parsed the bodies: the parent has every page's facts but the markup sample
    assert {u: (p.title, p.text_sample) for u, p in forked.pages.items()} == \
        {u: (p.title, p.text_sample) for u, p in inline.pages.items()}
    # ... and stored the complete pages in the cache, so a warm run judges the same pages
    from citecheck.fetch.cache import Cache
    from citecheck.fetch.guard import Guard

    cached = Cache(str(tmp_path / "c.sqlite"), guard=Guard(("127.0.0.1",))).get_many(list(inline.pages), 30)
    assert cached and all(cached[u].html_sample == inline.pages[u].html_sample for u in cached)
    warm = citecheck.audit(paths, config, online=True)
    assert warm.findings == inline.findings


def test_partition_keeps_each_claims_sources_together(tmp_path: Path) -> None:
    from citecheck.extract import collect
    from citecheck.support.claims import cited_claims, partition

    paths = _two_memos(tmp_path, "https://example.org")
    docs = collect([str(p) for p in paths], ("*.md",), (), 10 ** 7).documents
    parts = partition(docs, 2)
    assert len(parts.claim_part) == 2 and set(parts.load) != {0}
    for doc, owners in zip(docs, parts.claim_part, strict=True):
        claims = cited_claims(doc)
        assert len(owners) == len(claims)
        for claim, owner in zip(claims, owners, strict=True):
            assert claim.urls and {parts.url_part[u] for u in claim.urls} == {owner}
    assert set(parts.url_part.values()) == {0, 1}  # six pairs of URLs: both workers get some
    assert partition(docs, 2) == parts  # deterministic


def test_small_audits_stay_in_process() -> None:
    assert not pagejudge.PageJudge.wanted(pagejudge.PARALLEL_MIN_URLS - 1)


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_warm_rerun_reuses_page_rule_results(served: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citecheck.engine.run import Engine
    from citecheck.fetch.cache import Cache

    memo, log = _memo(tmp_path, served.base), tmp_path / "rule-runs.log"
    real = Engine.check_pages

    def counted(self: Engine, links: Any, pages: Any, path: str) -> Any:
        with log.open("a", encoding="utf-8") as out:  # the worker is a fork: it reports through a file
            out.write("run\n")
        return real(self, links, pages, path)

    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    monkeypatch.setattr(Engine, "check_pages", counted)
    # Unverifiable pages (999, challenges, loops) are never cached, so the warm run fetches them
    # again; their facts, fetch time included, must be the same for the memo to apply to them.
    monkeypatch.setattr("citecheck.fetch.client.now_iso", lambda: "2026-11-29T12:00:00Z")
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), cache=str(tmp_path / "c.sqlite"), timeout=5, retries=0))
    cold = citecheck.audit([str(memo)], config, online=True)
    runs_cold = log.read_text(encoding="utf-8").count("run")
    assert runs_cold > 0 and Cache(str(tmp_path / "c.sqlite")).stats()["extras"] > 0
    warm = citecheck.audit([str(memo)], config, online=True)
    assert log.read_text(encoding="utf-8").count("run") == runs_cold  # every result came from the memo
    assert warm.findings == cold.findings and warm.suppressed == cold.suppressed


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_a_dead_worker_is_an_internal_error_not_a_clean_pass(served: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    def die(items: Any) -> Any:
        os.kill(os.getpid(), signal.SIGKILL)  # the worker is killed mid-batch (OOM killer, say)

    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    monkeypatch.setattr(pagejudge, "judge_batch", die)
    report = _audit(_memo(tmp_path, served.base))
    assert report.crashed and any(f.rule == "E000" and "worker" in f.message for f in report.findings)


def test_no_fork_while_other_threads_run() -> None:
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not pagejudge.PageJudge.wanted(10 ** 6)
    finally:
        stop.set()
        thread.join()


def _spelled_apart() -> Any:
    """Three claims; the first cites `a/` in another spelling. The link extractor and the claim
    finder may spell a URL differently (trailing slash, tracking parameters): M008 then finds the
    page by dedupe key."""
    from citecheck.models import Document, Link, Location, TextSpan

    where = Location("m.md")
    return Document("m.md", "", "markdown",
                    links=(Link("https://example.org/a/", where), Link("https://example.org/b", where),
                           Link("https://example.org/c", where)),
                    spans=(TextSpan("First claim ([x](https://example.org/a?utm_source=feed)).", where),
                           TextSpan("Second claim ([y](https://example.org/b)).", where),
                           TextSpan("Third claim ([z](https://example.org/c)).", where)))


def test_partition_groups_a_claims_other_spelling_with_the_cited_page() -> None:
    from citecheck.support.claims import partition

    parts = partition([_spelled_apart()], 2)  # so both spellings go to one worker
    assert parts.url_part["https://example.org/a/"] == parts.url_part["https://example.org/a?utm_source=feed"] \
        == parts.claim_part[0][0]
    assert sorted(parts.load) == [3, 4]  # claims plus URLs: {claim 1, a/, a?utm} and two pairs


@pytest.mark.skipif(not pagejudge.can_fork(), reason="needs fork and two cores")
def test_bodies_travel_inline_when_the_spool_cannot_be_written(served: Any, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    memo = _memo(tmp_path, served.base)
    inline = _audit(memo)
    spooled: list[int] = []

    def full_disk(fd: int, data: bytes, offset: int) -> int:
        spooled.append(len(data))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pagejudge, "PARALLEL_MIN_URLS", 1)
    monkeypatch.setattr(pagejudge, "single_threaded", lambda: True)  # the test server is a thread
    monkeypatch.setattr(pagejudge.os, "pwrite", full_disk)
    forked = _audit(memo)
    assert spooled  # the spool was tried, and every body then went through the pipe
    assert forked.findings == inline.findings and not forked.crashed


def test_a_claim_waits_for_every_page_it_cites_and_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_Claims` bookkeeping: a claim is judged early only once every URL it cites has its page,
    against just those pages; one citing a spelling no link has waits for the end (M008 then looks
    it up among every page); nothing is judged twice."""
    from citecheck.models import Outcome, Page

    doc = _spelled_apart()
    calls: list[tuple[tuple[int, ...], list[str]]] = []

    class Recorder:
        def check_memo(self, memo: Any, shard: tuple[Any, ...], only_shardable: bool) -> list[Any]:
            assert only_shardable and shard[:2] == (0, pagejudge.WORKERS)
            calls.append((shard[2], sorted(memo.pages)))
            return []

    monkeypatch.setattr(pagejudge, "_ENGINE", Recorder())
    monkeypatch.setattr(pagejudge, "_DOCUMENTS", [doc])
    monkeypatch.setattr(pagejudge, "_PAGES", {})
    claims = pagejudge._Claims(0, (0, 1, 0), 0)  # claims 0 and 2 are this worker's, claim 1 the other's
    for url in ("https://example.org/a/", "https://example.org/c"):
        pagejudge._PAGES[url] = Page(url=url, outcome=Outcome.OK, status=200)
        claims.arrived(url)
    assert claims.judge_ready(2) == [] and calls == []  # one claim ready: fewer than asked for
    claims.judge_ready(1)
    assert calls == [((-1, -1, 0), ["https://example.org/c"])]
    claims.judge_rest()
    assert calls[1] == ((0, -1, -1), ["https://example.org/a/", "https://example.org/c"])
    claims.judge_rest()
    assert len(calls) == 2  # nothing judged twice


def test_page_workers_parse_without_importing_the_http_stack() -> None:
    """The workers are forked before the parent imports aiohttp; what they import must not load it."""
    import subprocess
    import sys

    code = ("import sys, citecheck.audit, citecheck.pagejudge, citecheck.fetch.facts, citecheck.support.claims\n"
            "print('aiohttp' in sys.modules)\n"
            "from citecheck.fetch import USER_AGENT, Fetcher, FetchResult, fetch_all\n"
            "print('aiohttp' in sys.modules, Fetcher.__name__, FetchResult.__name__, USER_AGENT.split('/')[0])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["False", "True", "Fetcher", "FetchResult", "citecheck"]


def test_worker_count_follows_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    for cores, workers in ((1, 2), (2, 2), (3, 2), (4, 3), (5, 4), (64, 4)):
        monkeypatch.setattr(pagejudge.os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)))
        assert pagejudge.worker_count() == workers


def test_adopted_claims_are_the_documents_claims() -> None:
    """Worker 0 finds the cited claims once and the others adopt its (unpickled) copy."""
    import pickle

    from citecheck.models import Document, Link, Location, TextSpan
    from citecheck.support.claims import adopt, cited_claims

    where = Location("m.md")
    text = "A claim ([x](https://example.org/a))."
    found = cited_claims(Document("m.md", "", "markdown", links=(Link("https://example.org/a", where),),
                                  spans=(TextSpan(text, where),)))
    other = Document("m.md", "", "markdown", links=(Link("https://example.org/a", where),),
                     spans=(TextSpan(text, where),))  # the same document in another process
    copy = pickle.loads(pickle.dumps(found))
    adopt(other, copy)
    assert cited_claims(other) is copy and copy == found and found
