"""Where candidates come from: web APIs on fake local servers (Perplexity's prose never reaches the
corpus; a failing provider does not stop the others), --urls files, --query, and how redirects and
rel=canonical fold URLs into one source."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from harvestkit import config, paths
from harvestsite import Page, Site, article

from citecheck.config import build
from citecheck.harvest import harvest_async
from citecheck.harvest.corpus import render

COMPLETION = ("Under the Mobility Package hauliers may perform three cabotage operations in seven days, "
              "said nobody in particular, and Northwind should expand into Poland immediately.")


async def fake_api(aiohttp_server: Any, path: str, payload: Any, status: int = 200) -> str:
    async def handler(request: web.Request) -> web.Response:
        return web.json_response(payload, status=status)

    app = web.Application()
    app.router.add_route("*", path, handler)
    server = await aiohttp_server(app)
    return str(server.make_url("")).rstrip("/")


def with_providers(tmp_path: Path, providers: dict[str, Any]) -> Any:
    base = config(tmp_path)
    return build({"providers": providers,
                  "fetch": {"allow": ["127.0.0.1"], "cache": base.fetch.cache, "timeout": 10, "retries": 0}})


def outline(tmp_path: Path, sections: str) -> Path:
    path = tmp_path / "outline.yaml"
    path.write_text(f"title: Memo\ncompany: {{name: Northwind}}\nsections:\n{sections}")
    return path


async def test_perplexity_urls_in_generated_prose_out(aiohttp_server: Any, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    site = await Site.start(aiohttp_server)
    payload = {"id": "x", "model": "sonar", "citations": [site.url("/law/mobility-package")],
               "search_results": [{"title": "Mobility Package I: cabotage and driver rest",
                                   "url": site.url("/law/mobility-package"), "snippet": "Rules on cabotage."}],
               "choices": [{"index": 0, "message": {"role": "assistant", "content": COMPLETION}}]}
    base = await fake_api(aiohttp_server, "/chat/completions", payload)
    monkeypatch.setenv("PERPLEXITY_API_KEY", "pplx-k")
    path = outline(tmp_path, "  - {id: regulation, title: Regulation, queries: [cabotage rules], providers: [perplexity]}\n")
    result = await harvest_async(path, config=with_providers(tmp_path, {"perplexity": {"base_url": base}}),
                                 extract_workers=0)
    assert paths(s.url for s in result.corpus) == {"/law/mobility-package"}
    written = render(result.corpus) + json.dumps(result.rejects_payload())
    for fragment in [COMPLETION, *COMPLETION.split(", ")]:
        assert fragment not in written
    assert "Northwind should expand" not in written and result.corpus[0].retrieval_tool == "perplexity"


async def test_a_failing_provider_does_not_stop_the_others(aiohttp_server: Any, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    site = await Site.start(aiohttp_server)
    brave = await fake_api(aiohttp_server, "/res/v1/web/search", {"type": "search", "web": {"results": [
        {"title": "Spot freight rates between Germany and Poland", "url": site.url("/news/spot-rates"),
         "description": "Spot rates rose."}]}})
    tavily = await fake_api(aiohttp_server, "/search", {"error": "boom"}, status=500)
    monkeypatch.setenv("BRAVE_API_KEY", "b")
    monkeypatch.setenv("TAVILY_API_KEY", "t")
    path = outline(tmp_path, "  - {id: rates, title: Rates, queries: [spot rates], providers: [tavily, brave]}\n"
                             "  - {id: market, title: Market, queries: [market size], providers: [tavily]}\n")
    cfg = with_providers(tmp_path, {"tavily": {"base_url": tavily, "retries": 0}, "brave": {"base_url": brave}})
    result = await harvest_async(path, config=cfg, extract_workers=0)
    assert result.sections == {"rates": ["src-001"], "market": []}
    assert result.empty_sections == ["market"] and result.exit_code == 1
    assert len(result.errors) == 2 and all("tavily: HTTP 500" in e for e in result.errors)
    assert "citecheck: warning: section market: tavily: HTTP 500" in capsys.readouterr().err


async def test_urls_file_sections_by_heading_and_link_text_as_title(aiohttp_server: Any, tmp_path: Path) -> None:
    site = await Site.start(aiohttp_server)
    sources = tmp_path / "Sources.md"
    sources.write_text(f"# Sources\n\n## Market data\n\n- [Road freight transport statistics 2023]"
                       f"({site.url('/stats/road-freight-2023')}): Eurostat table\n- {site.url('/stats/removed-report')}\n\n"
                       f"## Law\n\n- [Mobility Package II cabotage rules explained]({site.url('/law/recycled-slug')})\n"
                       f"- [Mobility Package I]({site.url('/law/mobility-package')})\n\n```\n{site.url('/in/code')}\n```\n")
    result = await harvest_async(None, urls=str(sources), config=config(tmp_path), extract_workers=0)
    assert set(result.sections) == {"market-data", "law"}
    assert paths(s.url for s in result.corpus) == {"/stats/road-freight-2023", "/law/mobility-package"}
    assert result.corpus[0].retrieval_tool == "urls" and result.corpus[0].retrieval_query == f"listed in {sources}"
    reasons = {r.found.candidate.url.rsplit("/", 1)[1]: r.reasons[0].name for r in result.rejects}
    assert reasons == {"removed-report": "http-error", "recycled-slug": "title-contradiction"}
    assert site.fetched("/in/code") == 0  # a URL in a code block is not a listed source


async def test_redirects_and_canonical_fold_into_one_source(aiohttp_server: Any, tmp_path: Path) -> None:
    from harvestsite import default_pages

    pages = default_pages()
    pages["/go/freight"] = Page(301, "", {"Location": "/stats/road-freight-2023"})
    pages["/print/road-freight-2023"] = Page(200, article(
        "Road freight transport statistics 2023", "Printable version.",
        extra_head='<link rel="canonical" href="/stats/road-freight-2023">'))
    site = await Site.start(aiohttp_server, pages)
    listed = tmp_path / "urls.txt"
    listed.write_text("\n".join(site.url(p) for p in ("/stats/road-freight-2023", "/go/freight",
                                                       "/print/road-freight-2023",
                                                       "/stats/road-freight-2023?utm_source=x")))
    result = await harvest_async(None, urls=str(listed), config=config(tmp_path), extract_workers=0, gate="default")
    assert [s.url for s in result.corpus] == [site.url("/stats/road-freight-2023")]
    assert result.stats["duplicates"] == 2 and not result.rejects
    # the page itself, as the redirect's target, and with ?utm_source=x: one source (one ID), but each URL
    # is its own request (a fact answers only for the URL fetched, issue 26 item 6)
    assert site.fetched("/stats/road-freight-2023") == 3
    (tmp_path / "print.txt").write_text(site.url("/print/road-freight-2023"))
    printable = await harvest_async(None, urls=str(tmp_path / "print.txt"), config=config(tmp_path), extract_workers=0)
    entry = printable.corpus[0]
    assert entry.url == entry.final_url == site.url("/print/road-freight-2023")
    assert entry.canonical_url == site.url("/stats/road-freight-2023")  # the declared rel=canonical, made absolute


@pytest.mark.slow
async def test_query_section_and_extraction_in_a_process_pool(aiohttp_server: Any, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    site = await Site.start(aiohttp_server)
    items = [{"title": t, "url": site.url(p), "content": "x"} for p, t in [
        ("/stats/road-freight-2023", "Road freight transport statistics 2023"),
        ("/stats/goods-transport", "Goods transport by road in Germany"),
        ("/stats/removed-report", "Road freight annual report 2019"),
        ("/news/spot-rates", "Spot freight rates between Germany and Poland")]]
    base = await fake_api(aiohttp_server, "/search", {"query": "q", "results": items})
    monkeypatch.setenv("TAVILY_API_KEY", "t")
    result = await harvest_async(None, query="road freight", providers=["tavily"], extract_workers=2,
                                 config=with_providers(tmp_path, {"tavily": {"base_url": base}}))
    assert result.sections == {"query": ["src-001", "src-002", "src-003"]}
    assert result.stats["extracted"] == 3 and all("Road freight carried" in s.body_excerpt for s in result.corpus)
    assert [f.rule for r in result.rejects for f in r.findings] == ["H001"]  # page rules ran in the workers


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_crashing_rule_is_reported_and_exits_2(aiohttp_server: Any, tmp_path: Path, workers: int) -> None:
    from citecheck.engine.registry import Registry, build_registry
    from citecheck.engine.rule import RuleSpec
    from citecheck.models import Severity

    def explode(fetched: Any, options: Any) -> Any:
        raise KeyError("boom")

    base = build_registry()
    broken = Registry((*base.rules, RuleSpec("H099", "explodes", "page", Severity.WARNING, "Crashes.", explode)),
                      base.packs)
    site = await Site.start(aiohttp_server)
    (tmp_path / "u.txt").write_text(site.url("/stats/road-freight-2023"))
    result = await harvest_async(None, urls=str(tmp_path / "u.txt"), config=config(tmp_path), registry=broken,
                                 extract_workers=workers)
    assert result.crashed and result.exit_code == 2 and not result.corpus
    assert "rule H099 (explodes) crashed: KeyError" in result.rejects[0].findings[0].message
