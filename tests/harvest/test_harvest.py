"""`citecheck harvest` end to end on a local web: the gate keeps exactly the good sources, rejects
the rest with the findings that failed them, and IDs are stable, appended and never reused.

Depends on the page rules H001 http-error, H003 soft-404 and H004 paywall (citecheck/checks/) and
on citecheck.fetch (Fetcher, Cache). The site is loopback: `fetch.allow` alone lets it through, the
fetcher and U004 private-address / C005 placeholder-in-corpus alike.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from harvestkit import OUTLINE, config, directory_yaml, paths
from harvestsite import Page, Site, article

from citecheck.errors import CorpusError
from citecheck.harvest import harvest_async, write_outputs
from citecheck.harvest.ids import read_high_water

GOOD = {"/stats/road-freight-2023", "/stats/goods-transport", "/news/spot-rates", "/law/mobility-package"}


def setup_outline(tmp_path: Path, site: Site, extra_reports: str = "") -> Path:
    (tmp_path / "directory.yaml").write_text(directory_yaml(site, extra_reports))
    path = tmp_path / "outline.yaml"
    path.write_text(OUTLINE)
    return path


async def run(tmp_path: Path, site: Site, gate: str = "strict", **options: Any) -> Any:
    site.log.clear()
    outline = options.pop("outline", None) or tmp_path / "outline.yaml"
    cfg = options.pop("cfg", None) or config(tmp_path)
    return await harvest_async(outline, config=cfg, gate=gate, extract_workers=0, **options)


def assert_fetched_this_run_or_fresh_cache(result: Any, site: Site) -> None:
    """Every corpus URL was requested from the server in this run, or came from a fresh cache hit."""
    for source in result.corpus:
        how = result.stats["fetch_log"].get(source.url)
        path = "/" + source.url.split("/", 3)[3]
        assert how in ("network", "cache"), source.url
        if how == "network":
            assert site.fetched(path) >= 1, f"{source.url} claimed fetched but the server never saw it"
        else:
            assert site.fetched(path) == 0, f"{source.url} claimed cached but was requested"


async def test_three_sections_keep_exactly_the_good_sources(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    setup_outline(tmp_path, site)
    result = await run(tmp_path, site, "strict")
    assert paths(s.url for s in result.corpus) == GOOD
    assert [s.id for s in result.corpus] == ["src-001", "src-002", "src-003", "src-004"]
    assert result.sections == {"market": ["src-001", "src-002"], "competition": ["src-003"], "regulation": ["src-004"]}
    why = {"/" + r.found.candidate.url.split("/", 3)[3]: r for r in result.rejects}
    assert set(why) == {"/stats/removed-report", "/stats/old-table", "/road-freight-outlook", "/news/carrier-ranking",
                        "/law/recycled-slug"}
    assert why["/stats/removed-report"].reasons[0].rule == "H001"
    assert why["/stats/old-table"].reasons[0].rule == "H003"
    assert why["/road-freight-outlook"].reasons[0].rule == "U001"
    assert why["/news/carrier-ranking"].reasons[0].rule == "H004"
    title = why["/law/recycled-slug"].reasons
    assert any(r.name == "title-contradiction" and "Ten cookie recipes" in r.evidence for r in title)
    assert all(r.findings or r.reasons[0].stage == "title" for r in result.rejects)
    assert "https://example.com/road-freight-outlook" not in result.stats["fetch_log"]  # preflight: never fetched
    assert site.fetched("/search") == 1  # the Law Library's site search, its hit deduplicated
    assert result.exit_code == 1 and not result.empty_sections and not result.corpus_findings
    assert_fetched_this_run_or_fresh_cache(result, site)


async def test_entries_carry_the_corpus_contract(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    setup_outline(tmp_path, site)
    result = await run(tmp_path, site, "default")
    entry = next(s for s in result.corpus if s.url.endswith("/stats/road-freight-2023"))
    body = site.pages["/stats/road-freight-2023"].html.encode()
    assert entry.final_url == entry.url == entry.canonical_url and entry.status == 200
    assert entry.content_hash == hashlib.sha256(body).hexdigest()
    assert entry.title == "Road freight transport statistics 2023" and entry.section == "market"
    assert entry.retrieval_query == "road freight statistics" and entry.retrieval_tool == "directory"
    assert entry.body_excerpt.startswith("Road freight transport statistics 2023") or "1 857 billion" in entry.body_excerpt
    assert "Sign in" not in entry.body_excerpt and "Cookie settings" not in entry.body_excerpt  # chrome dropped
    assert entry.summary == "In 2023, EU road freight transport amounted to 1 857 billion tonne-kilometres."
    assert entry.fetched_at.endswith(("Z", "+00:00")) and entry.extra["dedupe_key"].endswith("/stats/road-freight-2023")
    assert paths(s.url for s in result.corpus) == GOOD  # a hard paywall (teaser only) is rejected at every gate


async def test_lenient_gate_rejects_only_dead_placeholder_private_and_walls(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    setup_outline(tmp_path, site)
    result = await run(tmp_path, site, "lenient")
    assert paths(r.found.candidate.url for r in result.rejects) == {"/stats/removed-report", "/stats/old-table",
                                                                    "/road-freight-outlook", "/news/carrier-ranking"}
    assert result.exit_code == 0


async def test_ids_stable_appended_and_never_reused(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    setup_outline(tmp_path, site)
    corpus = tmp_path / "sourced_corpus.json"
    first = await run(tmp_path, site, into=corpus)
    write_outputs(first, corpus)
    ids = {s.url: s.id for s in first.corpus}

    # warm: the corpus's sources are re-checked over the network (issue 25 item 2), nothing re-extracted
    again = await run(tmp_path, site, into=corpus)
    assert {s.url: s.id for s in again.corpus} == ids
    assert again.stats["fetched"] == 4 and again.stats["extracted"] == 0
    assert again.stats["extracts_reused"] == 4
    asked = sorted(p for p in site.log if "citecheck-probe" not in p)
    assert asked == sorted(["/search?q=mobility+package+rules", *(s.url.split(str(site.port), 1)[1] for s in first.corpus)])
    assert_fetched_this_run_or_fresh_cache(again, site)
    write_outputs(again, corpus)

    site.pages["/stats/new-survey"] = Page(200, article("Road haulage survey 2024", "A new survey of 4 000 hauliers."))
    extra = f'      - {{url: "{site.url("/stats/new-survey")}", title: "Road haulage survey 2024", topics: [road freight statistics]}}\n'
    setup_outline(tmp_path, site, extra)
    grown = await run(tmp_path, site, into=corpus)
    assert {s.url: s.id for s in grown.corpus if s.url in ids} == ids  # nothing renumbered
    assert {s.id for s in grown.corpus} - set(ids.values()) == {"src-005"}
    assert [s.id for s in grown.corpus][-1] == "src-005"
    assert_fetched_this_run_or_fresh_cache(grown, site)
    write_outputs(grown, corpus)
    assert read_high_water(corpus) == 5

    site.pages["/stats/new-survey"] = Page(404, "gone")  # src-005 dies: dropped, and its ID retired
    site.pages["/stats/later"] = Page(200, article("Road freight statistics update", "Figures were revised."))
    extra = f'      - {{url: "{site.url("/stats/later")}", title: "Road freight statistics update", topics: [road freight statistics]}}\n' + extra
    setup_outline(tmp_path, site, extra)
    dropped = await run(tmp_path, site, into=corpus, cfg=config(tmp_path, **{"max-age": 0}))
    gone = next(r for r in dropped.rejects if r.found.candidate.url.endswith("/stats/new-survey"))
    assert gone.previous_id == "src-005" and gone.reasons[0].rule == "H001"
    assert {s.id for s in dropped.corpus} == set(ids.values()) | {"src-006"}
    assert_fetched_this_run_or_fresh_cache(dropped, site)


async def test_refuses_to_append_to_a_corpus_that_fails_its_checks(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    setup_outline(tmp_path, site)
    corpus = tmp_path / "sourced_corpus.json"
    entry = {"id": "src-001", "url": "https://www.sec.gov/a", "canonical_url": "https://www.sec.gov/a", "title": "A",
             "fetched_at": "2025-01-01T00:00:00Z", "body_excerpt": "", "summary": "", "retrieval_query": "q",
             "retrieval_tool": "tavily"}
    corpus.write_text(json.dumps([entry, {**entry, "url": "https://www.sec.gov/b"}]))
    with pytest.raises(CorpusError, match=r"sourced_corpus.json:\d+: C004 id-integrity: .*refusing to append"):
        await run(tmp_path, site, into=corpus)
    corpus.write_text(json.dumps([{**entry, "fetched_at": 5}]))
    with pytest.raises(CorpusError, match="C001 schema"):
        await run(tmp_path, site, into=corpus)
    assert site.log == []  # refused before any fetch
