"""`citecheck resolve`: claims become queries; a marker is replaced only by a supporting source."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp import web

from citecheck.config import build
from citecheck.curate.resolve import resolve_async

ACME = ("<html><head><title>Acme 2023 results</title><meta name='description' content='Acme annual results'></head>"
        "<body><article><h1>Acme 2023 results</h1>" + "".join(
            f"<p>Acme Corporation reported that revenue grew 45% in 2023, driven by enterprise sales in Europe and new "
            f"robotics contracts (note {n}).</p>" for n in range(12)) + "</article></body></html>")
WEATHER = ("<html><head><title>Paris weather this week</title></head><body><article><h1>Paris weather this week</h1>"
           + "".join(f"<p>Paris will be sunny all week with mild temperatures and light winds from the west (day {n}).</p>"
                     for n in range(12))
           + "</article></body></html>")
MEMO = """# Acme memo

## Market

Acme's revenue grew 45% in 2023 <needs-source claim="Acme's revenue grew 45% in 2023"/>.

## Risks

The weather will hurt robotics margins <needs-source claim="Robotics margins fell because of tariffs"/>.
"""


@pytest.fixture
async def web_and_search(aiohttp_server):  # type: ignore[no-untyped-def]
    app = web.Application()
    server_holder: dict[str, str] = {}

    async def page(request: web.Request) -> web.Response:
        body = {"/acme-results": ACME, "/paris-weather": WEATHER}.get(request.path)
        if body is None:
            return web.Response(status=404, text="<title>404 Not Found</title>", content_type="text/html")
        return web.Response(text=body, content_type="text/html")

    async def search(request: web.Request) -> web.Response:
        query = (await request.json())["query"]
        base = server_holder["base"]
        hit = ({"url": f"{base}/acme-results", "title": "Acme 2023 results", "content": "Acme revenue grew 45%"}
               if "revenue" in query else
               {"url": f"{base}/paris-weather", "title": "Paris weather this week", "content": "sunny"})
        return web.json_response({"query": query, "results": [hit]})

    app.router.add_post("/search", search)
    app.router.add_get("/{tail:.*}", page)
    server = await aiohttp_server(app)
    server_holder["base"] = str(server.make_url("")).rstrip("/")
    return server_holder["base"]


async def test_supported_claim_is_cited_unsupported_stays(web_and_search: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "test-key")
    config = _config(web_and_search)
    corpus = tmp_path / "sourced_corpus.json"
    result = await resolve_async("memo.md", MEMO, corpus, providers=["tavily"], config=config)
    done = [r for r in result.resolutions if r.resolved]
    left = [r for r in result.resolutions if not r.resolved]
    assert len(done) == 1 and done[0].claim.startswith("Acme's revenue")
    assert "[src-001]" in result.text or f"[{done[0].source_id}]" in result.text
    assert len(left) == 1 and "does not support" in left[0].reason
    assert '<needs-source claim="Robotics margins fell because of tariffs"/>' in result.text
    assert "Acme's revenue grew 45% in 2023 <needs-source" not in result.text
    assert result.by_section == {"Market": {"raised": 1, "resolved": 1}, "Risks": {"raised": 1, "resolved": 0}}
    assert {s.url.rsplit("/", 1)[-1] for s in result.corpus} == {"acme-results", "paris-weather"}


def _config(base: str):  # type: ignore[no-untyped-def]
    # The test web lives on loopback: allow fetching it and silence the (correct) private-address rule.
    return build({"ignore": ["U004"], "fetch": {"allow": ["127.0.0.1"], "no-cache": True},
                  "providers": {"tavily": {"base_url": base}}})


async def test_cli_writes_memo_appends_corpus_and_exits_1_while_markers_remain(
        web_and_search: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from click.testing import CliRunner

    from citecheck.cli import main

    monkeypatch.setenv("TAVILY_API_KEY", "test-key")
    (tmp_path / ".citecheck.yaml").write_text(
        f"ignore: [U004]\nfetch: {{allow: [127.0.0.1], no-cache: true}}\nproviders: {{tavily: {{base_url: '{web_and_search}'}}}}\n")
    (tmp_path / "memo.md").write_text(MEMO)
    args = ["resolve", str(tmp_path / "memo.md"), "--corpus", str(tmp_path / "c.json"), "--provider", "tavily",
            "-o", str(tmp_path / "out.md"), "--config", str(tmp_path / ".citecheck.yaml"), "--format", "json"]
    result = await asyncio.to_thread(CliRunner().invoke, main, args)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert [c["resolved"] for c in report["claims"]] == [True, False]
    out = (tmp_path / "out.md").read_text()
    assert f"[{report['claims'][0]['source_id']}]" in out
    ids = [s["id"] for s in json.loads((tmp_path / "c.json").read_text())]
    assert report["claims"][0]["source_id"] in ids and len(ids) == 2


async def test_no_markers_is_a_no_op(tmp_path: Path) -> None:
    result = await resolve_async("memo.md", "# Memo\n\nNothing to do.\n", tmp_path / "c.json", providers=["tavily"],
                                 config=build({}))
    assert result.text == "# Memo\n\nNothing to do.\n" and result.resolutions == [] and result.harvest is None
