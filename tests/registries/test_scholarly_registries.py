"""Scholarly references end to end against loopback stand-ins of the five registry APIs
(tests/registryfakes.py): verdicts, one request per identifier, batching, the fact cache, pacing,
and every registry's 429/503/timeout path giving R003 reference-unverifiable, never R001."""
from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_net import ServerThread
from registryfakes import FakeRegistries, Work

from citecheck import audit
from citecheck.config import Config, build
from citecheck.errors import ConfigError
from citecheck.models import Finding
from citecheck.registries import Registries
from citecheck.registries.http import Reply
from citecheck.registries.stage import run_outage
from citecheck.scholarly.ids import Identifier

RESNET = Work("Deep Residual Learning for Image Recognition",
              [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90")
ATTENTION = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv="1706.03762")
ATTENTION_DOI = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017,
                     doi="10.48550/arXiv.1706.03762", agency="datacite")
ZENODO = Work("Ocean temperature grids", [("Ana", "García-López")], 2021, doi="10.5281/zenodo.4567", agency="other")
RETRACTED = Work("A retracted study of vaccines", [("Andrew", "Wakefield")], 1998,
                 doi="10.1016/S0140-6736(97)11096-0", pmid="9500320", retracted=True)
WORKS = [RESNET, ATTENTION, ATTENTION_DOI, ZENODO, RETRACTED]

MEMO = """# Memo

Residual nets ([He et al., 2016](https://doi.org/10.1109/CVPR.2016.90)) and transformers
([Vaswani et al., 2017](https://arxiv.org/abs/1706.03762v5)); grids ([García-López, 2021](https://doi.org/10.5281/zenodo.4567)).
Invented: https://doi.org/10.9999/fabricated.2023.001 and [Smith 2019](https://arxiv.org/abs/2401.99999).

## References

1. Smith, J. (2019). A survey of everything. https://doi.org/10.1109/CVPR.2016.90
2. Wakefield, A. (1998). A retracted study of vaccines. doi:10.1016/S0140-6736(97)11096-0
3. Vaswani, A., & Shazeer, N. (2017). Attention is all you need. doi:10.48550/arXiv.1706.03762
4. Doe, J. (2017). Attention is all you need. arXiv:1706.03762
5. Wakefield A. A retracted study of vaccines. Lancet. 1998. PMID: 9500320
6. Nobody, N. (2020). Nothing at all. PMID: 99999999
"""


@pytest.fixture
def fake() -> Iterator[FakeRegistries]:
    registries = FakeRegistries(list(WORKS))
    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


def config_for(fake: FakeRegistries, tmp_path: Path, **scholarly: Any) -> Config:
    port = fake.base.rsplit(":", 1)[1]
    fetch = {"allow": [f"127.0.0.1:{port}"], "cache": str(tmp_path / "cache.sqlite"), "retries": 0, "timeout": 5}
    fetch.update(scholarly.pop("fetch", {}))
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed")}
    return build({"fetch": fetch, "scholarly": {"endpoints": fake.endpoints(), "pace": pace, **scholarly}})


def run(paths: list[str], config: Config) -> tuple[list[Finding], Any]:
    report = audit(paths, config, online=True)
    return [f for f in report.findings if f.rule.startswith("R")], report


def memo(tmp_path: Path, text: str = MEMO, name: str = "memo.md") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def by_rule(findings: list[Finding]) -> dict[tuple[int, str], Finding]:
    return {(f.line, f.rule): f for f in findings}


def test_verdicts_from_the_registries(fake: FakeRegistries, tmp_path: Path) -> None:
    found, report = run([memo(tmp_path)], config_for(fake, tmp_path))
    got = by_rule(found)
    assert set(got) == {(5, "R001"), (9, "R002"), (10, "R004"), (12, "R002"), (13, "R004"), (14, "R001")}
    mismatch = got[(9, "R002")]
    assert "title: claimed 'A survey of everything', record 'Deep Residual Learning for Image Recognition'" in mismatch.evidence
    assert "year: claimed '2019', record '2016'" in mismatch.evidence
    assert mismatch.fix == "He et al. (2016). Deep Residual Learning for Image Recognition."
    assert "placeholder author name 'Doe, J'" in got[(12, "R002")].evidence
    assert "responseCode 100" in next(f for f in found if f.line == 5 and "10.9999" in f.message).message
    assert report.summary["references"]["registry"] == {"absent": 3, "found": 6}
    # the correct references (lines 3, 4 and 11) give nothing; a DOI landing page is never fetched
    assert not [f for f in report.findings if f.line in (3, 4, 11)]
    assert not report.pages


def test_one_request_per_identifier_batched_and_a_cached_run_asks_nothing(fake: FakeRegistries, tmp_path: Path) -> None:
    config = config_for(fake, tmp_path, mailto="team@example.org")
    first = memo(tmp_path)
    second = memo(tmp_path, MEMO.replace("# Memo", "# Memo two"), "memo2.md")  # the same identifiers again
    found, _ = run([first, second], config)
    paths = [entry[1] for entry in fake.log]
    assert len(paths) == len(set(paths)), paths
    assert len(fake.asked("arxiv")) == 1 and "id_list=1706.03762,2401.99999" in fake.asked("arxiv")[0]
    assert len(fake.asked("pubmed")) == 1 and "id=9500320,99999999" in fake.asked("pubmed")[0]
    assert "tool=citecheck" in fake.asked("pubmed")[0] and "email=team@example.org" in fake.asked("pubmed")[0]
    assert all("mailto=team@example.org" in p for p in fake.asked("crossref"))
    asked = len(fake.log)
    again, report = run([first, second], config)
    assert len(fake.log) == asked, "a second run with the cache asks no registry"
    assert report.summary["references"]["from_cache"] == report.summary["references"]["identifiers"]
    assert sorted((f.line, f.rule, f.path) for f in again) == sorted((f.line, f.rule, f.path) for f in found)


def test_absence_is_cached_one_day_and_found_thirty(fake: FakeRegistries, tmp_path: Path) -> None:
    config = config_for(fake, tmp_path)
    path = memo(tmp_path, "See https://doi.org/10.9999/nope and https://doi.org/10.1109/CVPR.2016.90.\n")
    run([path], config)
    from citecheck.fetch.cache import Cache

    with Cache(tmp_path / "cache.sqlite") as cache:
        rows = dict(cache.conn.execute("SELECT key, data FROM extras WHERE kind = 'registry'"))
        for key in rows:
            cache.conn.execute("UPDATE extras SET data = json_set(data, '$.fetched', json_extract(data, '$.fetched') - 2 * 86400) "
                               "WHERE kind = 'registry' AND key = ?", [key])
        cache.conn.commit()
    asked = len(fake.log)
    run([path], config)
    again = [entry[1] for entry in fake.log[asked:]]
    assert again and all("nope" in p for p in again), "two days on, only the absence is asked again"


@pytest.mark.parametrize("failure", [(429, {"Retry-After": "0"}), (503, {}),
                                     pytest.param("timeout", marks=pytest.mark.slow)], ids=["429", "503", "timeout"])
@pytest.mark.parametrize("target", ["doi", "arxiv-doi", "arxiv", "pubmed"])
def test_a_registry_that_cannot_answer_gives_unverifiable_never_not_found(
        fake: FakeRegistries, tmp_path: Path, target: str, failure: Any) -> None:
    cited = {"doi": ("https://doi.org/10.9999/nope", ["crossref", "doi"]),
             "arxiv-doi": ("https://doi.org/10.48550/arXiv.2401.99999", ["datacite", "doi"]),
             "arxiv": ("https://arxiv.org/abs/2401.99999", ["arxiv"]),
             "pubmed": ("https://pubmed.ncbi.nlm.nih.gov/99999999/", ["pubmed"])}[target]
    for registry in cited[1]:
        fake.fail[registry] = failure
    config = config_for(fake, tmp_path, fetch={"timeout": 0.5})
    found, report = run([memo(tmp_path, f"Invented: [Smith et al., 2020]({cited[0]}).\n")], config)
    assert [f.rule for f in found] == ["R003"], [f.message for f in found]
    assert report.outage is None  # loopback registries say nothing about the outside network
    from citecheck.fetch.cache import Cache

    with Cache(tmp_path / "cache.sqlite") as cache:
        assert not cache.conn.execute("SELECT COUNT(*) FROM extras WHERE kind = 'registry'").fetchone()[0]


def test_retry_after_is_honoured(fake: FakeRegistries, tmp_path: Path) -> None:
    fake.fail["crossref"] = (429, {"Retry-After": "1"}, 1)
    config = config_for(fake, tmp_path, fetch={"retries": 2})
    found, _ = run([memo(tmp_path, "[He et al., 2016](https://doi.org/10.1109/CVPR.2016.90)\n")], config)
    assert found == []
    times = [entry[2] for entry in fake.log if entry[0] == "crossref"]
    assert len(times) == 2 and times[1] - times[0] >= 0.95


@pytest.mark.slow
def test_arxiv_requests_are_three_seconds_apart_on_one_connection(fake: FakeRegistries, tmp_path: Path) -> None:
    config = build({"fetch": {"allow": [f"127.0.0.1:{fake.base.rsplit(':', 1)[1]}"], "no-cache": True},
                    "scholarly": {"endpoints": fake.endpoints(), "batch": 1}})  # arXiv's documented pace
    found, _ = run([memo(tmp_path, "arXiv:1706.03762 and arXiv:2401.99999 and arXiv:2402.99999\n")], config)
    arxiv = [entry for entry in fake.log if entry[0] == "arxiv"]
    assert len(arxiv) == 3
    gaps = [b[2] - a[2] for a, b in itertools.pairwise(arxiv)]
    assert min(gaps) >= 2.95, gaps
    assert len({entry[3] for entry in arxiv}) == 1, "one connection"
    assert [f.rule for f in found] == ["R001", "R001"]


def test_the_guard_applies_to_registries(fake: FakeRegistries, tmp_path: Path) -> None:
    """Without --allow the loopback mirror is refused like any private address: unverifiable, no request."""
    config = build({"fetch": {"cache": str(tmp_path / "c.sqlite")}, "scholarly": {"endpoints": fake.endpoints()}})
    found, _ = run([memo(tmp_path, "https://doi.org/10.9999/nope\n")], config)
    assert [f.rule for f in found] == ["R003"] and "blocked-private" in found[0].message
    assert fake.log == []


def test_no_registry_reachable_is_an_outage() -> None:
    replies = [Reply("https://api.crossref.org/works/10.1/x", error="unresolved"),
               Reply("https://doi.org/api/handles/10.1/x", error="timeout")]

    class NoPages(dict[str, Any]):
        outage = None
        fetched = 0

    lookups = type("L", (), {"replies": replies, "connected": set()})()
    outage = run_outage(NoPages(), lookups)
    assert outage is not None and outage.hosts == 2
    answered = type("L", (), {"replies": [*replies, Reply("https://export.arxiv.org/api/query", status=503)],
                              "connected": set()})()
    assert run_outage(NoPages(), answered) is None


def test_an_unreachable_registry_network_records_nothing(tmp_path: Path) -> None:
    """Registries on outside names that do not resolve: every reference unverifiable, nothing cached."""

    class NoDns:
        async def resolve(self, host: str, port: int = 0, family: int = 0) -> list[Any]:
            import socket

            raise OSError(socket.EAI_NONAME, "Name or service not known")

        async def close(self) -> None:
            return None

    config = build({"fetch": {"retries": 0, "timeout": 2}})
    lookups = asyncio.run(Registries(config.scholarly, config.fetch, None, NoDns()).lookup(
        [Identifier("doi", "10.1109/cvpr.2016.90"), Identifier("arxiv", "1706.03762")]))
    assert {lookup.status.value for lookup in lookups.found.values()} == {"unverifiable"}
    assert lookups.facts == {}
    assert run_outage(type("P", (dict,), {"outage": None, "fetched": 0})(), lookups) is not None


def test_config_errors_are_one_line() -> None:
    with pytest.raises(ConfigError, match="unknown scholarly key 'endpoint'"):
        build({"scholarly": {"endpoint": {}}})
    with pytest.raises(ConfigError, match=r"scholarly\.endpoints\.crossref must be an http"):
        build({"scholarly": {"endpoints": {"crossref": "ftp://x"}}})
    with pytest.raises(ConfigError, match=r"scholarly\.pace\.arxiv"):
        build({"scholarly": {"pace": {"arxiv": [3]}}})


def test_a_discovered_config_moves_the_registries_only_where_the_run_allows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted .citecheck.yaml could point every registry at a public stand-in that confirms any
    reference, or make citecheck hammer arXiv: a faster pace counts only from an explicit config, and a
    discovered endpoint is asked only when the run's own policy allows its host (a loopback mirror with
    --allow, as docs/scholarly.md describes)."""
    from citecheck.config import load_config
    from citecheck.config.registries import ENDPOINTS, PACE
    from citecheck.registries.lookup import Registries

    planted = ("scholarly:\n  mailto: a@b.org\n  endpoints: {crossref: 'http://127.0.0.1:9/crossref', "
               "datacite: 'https://stand-in.example.net/datacite'}\n  pace: {arxiv: [0, 8]}\n")
    (tmp_path / ".citecheck.yaml").write_text(planted)
    monkeypatch.chdir(tmp_path)
    config = load_config()
    assert dict(config.scholarly.pace) == dict(PACE) and config.ignored == ("scholarly.pace",)
    assert config.scholarly.mailto == "a@b.org" and config.scholarly.discovered_endpoints
    asked = Registries(config.scholarly, config.fetch).endpoints
    assert asked["crossref"] == ENDPOINTS["crossref"] and asked["datacite"] == ENDPOINTS["datacite"]
    allowed = config.with_fetch(allow=("127.0.0.1:9",))
    asked = Registries(allowed.scholarly, allowed.fetch).endpoints
    assert asked["crossref"] == "http://127.0.0.1:9/crossref" and asked["datacite"] == ENDPOINTS["datacite"]
    private = config.with_fetch(allow_private=True)
    assert Registries(private.scholarly, private.fetch).endpoints["datacite"] == ENDPOINTS["datacite"]
    explicit = load_config(str(tmp_path / ".citecheck.yaml"))
    assert not explicit.scholarly.discovered_endpoints and not explicit.ignored
    assert Registries(explicit.scholarly, explicit.fetch).endpoints["datacite"] == "https://stand-in.example.net/datacite"


def test_cli_with_a_config_beside_the_memo_and_allow(fake: FakeRegistries, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The documented set-up: `.citecheck.yaml` naming loopback stand-ins, `--allow` on the command line."""
    import json

    from click.testing import CliRunner

    from citecheck.cli import main

    port = fake.base.rsplit(":", 1)[1]
    endpoints = "".join(f"    {name}: {url}\n" for name, url in fake.endpoints().items())
    (tmp_path / ".citecheck.yaml").write_text(f"scholarly:\n  endpoints:\n{endpoints}")
    memo(tmp_path, MEMO)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["audit", "memo.md", "--format", "json", "--allow", f"127.0.0.1:{port}",
                                       "--cache", str(tmp_path / "c.sqlite")])
    assert result.exit_code == 1, result.output
    found = {(f["line"], f["rule"]) for f in json.loads(result.stdout)["findings"] if f["rule"].startswith("R")}
    assert found == {(5, "R001"), (9, "R002"), (10, "R004"), (12, "R002"), (13, "R004"), (14, "R001")}


def test_a_mismatch_shows_the_claim_beside_the_record_in_json_and_html(fake: FakeRegistries, tmp_path: Path) -> None:
    import json

    import jsonschema

    from citecheck.engine.registry import build_registry
    from citecheck.report import ReportContext, render
    from citecheck.schemas import load_schema

    found, report = run([memo(tmp_path)], config_for(fake, tmp_path))
    mismatch = by_rule(found)[(9, "R002")]
    assert [row[:4] for row in mismatch.compared] == [
        ("title", "A survey of everything", "Deep Residual Learning for Image Recognition", False),
        ("authors", "Smith, J", "He, Kaiming; Zhang, Xiangyu; Ren, Shaoqing; Sun, Jian", False),
        ("year", "2019", "2016", False)]
    text = render("json", report.findings, report.summary)
    jsonschema.Draft202012Validator(load_schema()).validate(json.loads(text))
    rows = [f for f in json.loads(text)["findings"] if f["rule"] == "R002" and f["line"] == 9]
    assert rows[0]["compared"][0] == {"field": "title", "claimed": "A survey of everything",
                                      "record": "Deep Residual Learning for Image Recognition", "agrees": False,
                                      "why": ""}
    assert all("compared" not in f for f in json.loads(text)["findings"] if f["rule"] != "R002")
    page = render("html", report.findings, report.summary, ReportContext(registry=build_registry(), report=report))
    table = page[page.index('<table class="compared">'):]
    table = table[:table.index("</table>")]
    assert "<td>A survey of everything</td><td>Deep Residual Learning for Image Recognition</td>" in table
    assert '<tr class="disagree"><th scope="row">year</th><td>2019</td><td>2016</td>' in table
