"""`citecheck mcp` end to end: the server runs as a subprocess and the MCP SDK's own stdio client
drives it against a loopback site (a real article, a soft-404, a dead link) and a fake Tavily that
answers with the documented shape of `tests/cassettes/tavily_search.yaml`."""
from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from aiohttp import web

pytest.importorskip("mcp")
from hostile_net import ServerThread
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from citecheck.agents import LIMITS

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "examples" / "pipeline" / "site"
TOOLS = {"search_sources", "add_sources", "get_source", "check_urls", "gate_draft", "prompt", "verify_reference"}
EUROSTAT = ("<!doctype html><html><head><title>Road freight transport statistics - Statistics Explained</title></head>"
            "<body><main><article><h1>Road freight transport statistics</h1>"
            "<p>In 2023, EU road freight transport amounted to 1 857 billion tonne-kilometres, down 2.4% on 2022.</p>"
            "<p>National transport made up two thirds of the total; international transport the rest.</p>"
            "<p>Poland remained the largest road freight country, ahead of Germany, Spain and France.</p>"
            "</article></main></body></html>")


def site() -> web.Application:
    pages = {"/stats/road-freight-2024": ("road-freight-2024.html", 200), "/stats/removed": ("not-found.html", 404),
             "/stats/outlook": ("not-found.html", 200), "/stats/haulage": ("haulage-enterprises.html", 200),
             "/rules/mobility": ("mobility-package.html", 200)}

    async def page(request: web.Request) -> web.Response:
        if request.path == "/eurostat/road-freight":
            return web.Response(text=EUROSTAT, content_type="text/html")
        name, status = pages.get(request.path, ("not-found.html", 404))
        return web.Response(status=status, body=(SITE / name).read_bytes(), content_type="text/html")

    async def tavily(request: web.Request) -> web.Response:
        """The cassette's documented answer, its URLs pointed at this site (the third stays ftp://)."""
        assert request.headers["Authorization"] == "Bearer tvly-test-key"
        cassette = yaml.safe_load((ROOT / "tests" / "cassettes" / "tavily_search.yaml").read_text())
        body = json.loads(cassette["interactions"][0]["response"]["body"]["string"])
        base = f"http://127.0.0.1:{request.url.port}"
        body["results"][0]["url"], body["results"][1]["url"] = f"{base}/eurostat/road-freight", f"{base}/stats/removed"
        return web.json_response(body)

    app = web.Application()
    app.router.add_post("/search", tavily)
    app.router.add_get("/{tail:.*}", page)
    return app


@pytest.fixture
def served() -> Iterator[str]:
    with ServerThread(site()) as thread:
        yield f"http://127.0.0.1:{thread.port}"


@asynccontextmanager
async def connect(tmp_path: Path, *args: str, script: list[str] | None = None) -> AsyncIterator[ClientSession]:
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "TAVILY_API_KEY": "tvly-test-key", "CITECHECK_TESTING": "1",
           **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}}  # the SDK passes only a few variables on
    command = script or ["-m", "citecheck"]
    params = StdioServerParameters(command=sys.executable, args=[*command, "mcp", *args], env=env, cwd=str(tmp_path))
    with (tmp_path / "server.err").open("w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, name: str, arguments: dict[str, Any], **kw: Any) -> dict[str, Any]:
    result = await session.call_tool(name, arguments, **kw)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def error(session: ClientSession, name: str, arguments: Any) -> str:
    result = await session.call_tool(name, arguments)
    assert result.is_error
    text = result.content[0].text
    assert "\n" not in text and "Traceback" not in text
    return text


async def test_agent_harvests_reads_and_gates_through_the_server(served: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    (tmp_path / "config.yaml").write_text(f"providers:\n  tavily: {{base_url: '{served}', retries: 0}}\n")
    port = served.rsplit(":", 1)[1]
    article, removed, soft = f"{served}/stats/road-freight-2024", f"{served}/stats/removed", f"{served}/stats/outlook"
    async with connect(tmp_path, "--corpus", str(corpus), "--config", str(tmp_path / "config.yaml"),
                       "--allow", f"127.0.0.1:{port}", "--cache", str(tmp_path / "cache.sqlite"),
                       "--provider", "tavily", "--rejects", str(tmp_path / "rejects.json")) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(listed) == TOOLS
        for tool in listed.values():
            assert tool.description and tool.input_schema["type"] == "object"
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        assert listed["gate_draft"].input_schema["properties"]["markdown"]["maxLength"] == LIMITS.draft_chars
        assert listed["add_sources"].input_schema["properties"]["urls"]["maxItems"] == LIMITS.urls
        assert "reasons" in listed["add_sources"].output_schema["$defs"]["UrlOutcome"]["properties"]

        added = await call(session, "add_sources", {"urls": [article, soft, removed, "https://example.com/report"],
                                                    "section": "market"})
        outcome = {r["url"]: r for r in added["results"]}
        assert outcome[article]["status"] == "kept" and outcome[article]["source"]["id"] == "src-001"
        assert outcome[article]["source"]["new"] is True and added["kept"] == 1 and added["rejected"] == 3
        first = {url: outcome[url]["reasons"][0]["rule"] for url in (soft, removed, "https://example.com/report")}
        assert first == {soft: "H003", removed: "H001", "https://example.com/report": "U001"}
        assert all(outcome[url]["status"] == "rejected" and outcome[url]["source"] is None for url in first)

        rejects = json.loads((tmp_path / "rejects.json").read_text())  # as `harvest --rejects` writes it
        assert sorted(r["url"] for r in rejects["rejects"]) == sorted([soft, removed, "https://example.com/report"])

        source = await call(session, "get_source", {"id": "src-001"})
        assert source["url"] == article and "1,950 billion tonne-kilometres" in source["excerpt"]
        assert source["section"] == "market"

        draft = ("## Market\n\nEU road freight grew 3.1% in 2024 [src-001]. Demand will double by 2030 [src-042]. "
                 "See https://evil.example.org/freight-report for details.\n")
        gated = await call(session, "gate_draft", {"markdown": draft})
        assert gated["ok"] is False and gated["unknown_ids"] == ["src-042"] and gated["footnotes"] == {"1": "src-001"}
        assert "[^1]" in gated["text"] and f"<{article}>" in gated["text"]
        assert '<needs-source claim="Demand will double by 2030"/>' in gated["text"]
        assert "evil.example.org" not in gated["text"]
        assert [(r["url"], r["reason"], r["line"]) for r in gated["removed"]] == [
            ("https://evil.example.org/freight-report", "uncorpused-url", 3)]
        assert {(f["rule"], f["verdict"]) for f in gated["findings"]} >= {("M006", "unknown-id"), ("M009", "uncorpused")}

        guarded = await call(session, "add_sources", {"urls": ["http://169.254.169.254/latest/meta-data/",
                                                               f"http://127.0.0.1:{int(port) + 1}/admin"]})
        assert [r["reasons"][0]["rule"] for r in guarded["results"]] == ["U004", "U004"]  # never fetched
        assert "--allow" in guarded["results"][1]["reasons"][0]["message"]

        written = json.loads(corpus.read_text())
        assert [(s["id"], s["url"], s["section"]) for s in written] == [("src-001", article, "market")]
        assert json.loads((tmp_path / "corpus.json.ids").read_text())["high_water"] == 1

        # bad calls are one-line tool errors, and the server keeps serving
        assert "urls: expected array" in await error(session, "add_sources", {"urls": article})
        assert "'urls' is a required property" in await error(session, "add_sources", {})
        assert await error(session, "gate_draft", {"markdown": "x", "strict": False}) == (
            "gate_draft: invalid arguments: unknown 'strict' (known: markdown, hybrid)")
        assert "nope" in await error(session, "nope", {})
        assert "more than the limit of 50" in await error(session, "check_urls", {"urls": [article] * 51})
        big = "Freight [src-001]. " * 30_000
        assert f"markdown: {len(big):,} characters, more than the limit of 500,000" in await error(
            session, "gate_draft", {"markdown": big})
        assert "src-999 is not in the corpus" in await error(session, "get_source", {"id": "src-999"})
        assert "does not match" in await error(session, "get_source", {"id": "https://example.com/"})
        assert "unknown provider 'bing'" in await error(session, "search_sources", {"query": "x", "providers": ["bing"]})

        steps: list[tuple[float, str | None]] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            steps.append((done, message))

        before = corpus.read_bytes()
        checked = await call(session, "check_urls", {"urls": [article, removed]})
        verdicts = {v["url"]: v for v in checked["verdicts"]}
        assert verdicts[article]["passes"] and verdicts[article]["in_corpus"] == "src-001"
        assert not verdicts[removed]["passes"] and verdicts[removed]["reasons"][0]["rule"] == "H001"
        assert corpus.read_bytes() == before  # judged, not added

        found = await call(session, "search_sources", {"query": "EU road freight tonne-kilometres", "section": "market",
                                                       "max_results": 3}, progress_callback=progress)
        new = [s for s in found["sources"] if s["new"]]
        assert [(s["id"], s["url"]) for s in new] == [("src-002", f"{served}/eurostat/road-freight")]
        assert {s["id"] for s in found["sources"]} == {"src-001", "src-002"}  # the section's validated sources
        assert found["rejected"] == 1 and found["rejected_by_reason"] == {"H001": 1}  # (the ftp:// result: not a web page)
        assert steps and all(message for _, message in steps)
        assert [done for done, _ in steps] == sorted({done for done, _ in steps})  # increasing

        prompt = await call(session, "prompt", {"section": "market", "excerpts": ["src-002"]})
        assert prompt["source_ids"] == ["src-001", "src-002"] and prompt["excerpt_ids"] == ["src-002"]
        assert "http" not in prompt["system"] + prompt["user"] and "1 857 billion" in prompt["user"]

        twins = await asyncio.gather(*(call(session, "add_sources", {"urls": [f"{served}{path}"]})
                                       for path in ("/stats/haulage", "/rules/mobility")))
        assert sorted(t["results"][0]["source"]["id"] for t in twins) == ["src-003", "src-004"]  # one writer at a time
        assert [s["id"] for s in json.loads(corpus.read_text())] == ["src-001", "src-002", "src-003", "src-004"]
    assert "Traceback" not in (tmp_path / "server.err").read_text()
    files = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()}
    cache = {f for f in files if f.startswith("cache.sqlite")}
    assert files - cache == {"config.yaml", "server.err", "corpus.json", "corpus.json.ids", "corpus.json.lock",
                             "rejects.json"}  # nothing else (the lock is the harvest's, beside the corpus)


async def test_outage_is_a_one_line_error_and_the_server_keeps_serving(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    corpus.write_text("[]\n")
    offline = [str(ROOT / "tests" / "mcp_offline.py")]
    (tmp_path / "config.yaml").write_text("providers:\n  tavily: {base_url: 'http://127.0.0.1:9', retries: 0}\n")
    async with connect(tmp_path, "--corpus", str(corpus), "--allow", "harbor-data.org", "--no-cache",
                       "--timeout", "2", "--config", str(tmp_path / "config.yaml"), "--provider", "tavily",
                       script=offline) as session:
        # two hosts: one silent host is that host's problem, not an outage (issue 26 item 4)
        message = await error(session, "add_sources", {"urls": ["http://harbor-data.org/report",
                                                                "http://harbor-stats.org/annual"]})
        assert message.endswith("network unavailable: 0 of 2 hosts reachable; no verdicts recorded; "
                                f"{corpus} is unchanged")
        message = await error(session, "check_urls", {"urls": ["http://harbor-data.org/report",
                                                               "http://harbor-stats.org/annual"]})
        assert "network unavailable" in message and "nothing is written" in message
        message = await error(session, "verify_reference", {"reference": "He et al. (2016). doi:10.1109/CVPR.2016.90"})
        assert "network unavailable" in message, message
        message = await error(session, "search_sources", {"query": "harbor freight 2023"})
        assert message.startswith("Error executing tool search_sources: every search provider failed, nothing was "
                                  "searched: section search: tavily: cannot reach http://127.0.0.1:9")
        prompt = await call(session, "prompt", {})
        assert prompt["source_ids"] == []
    assert corpus.read_text() == "[]\n" and not (tmp_path / "corpus.json.ids").exists()


def test_mcp_without_the_sdk_says_which_extra_to_install(tmp_path: Path) -> None:
    import subprocess

    blocker = tmp_path / "sitecustomize.py"  # makes `import mcp` fail, as in an install without the extra
    blocker.write_text("import sys\nsys.modules['mcp'] = None\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "citecheck", "mcp", "--corpus", str(tmp_path / "c.json")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("citecheck: error: citecheck mcp needs the MCP SDK: pip install 'citecheck[mcp]' (")
    assert len(proc.stderr.splitlines()) == 1 and not (tmp_path / "c.json").exists()


async def test_verify_reference_asks_the_registries(tmp_path: Path) -> None:
    from registryfakes import FakeRegistries, Work

    resnet = Work("Deep Residual Learning for Image Recognition",
                  [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016,
                  doi="10.1109/CVPR.2016.90")
    fake = FakeRegistries([resnet])
    with ServerThread(fake.app()) as thread:
        fake.base = f"http://127.0.0.1:{thread.port}"
        pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed")}
        (tmp_path / "config.yaml").write_text(yaml.safe_dump({"scholarly": {"endpoints": fake.endpoints(), "pace": pace}}))
        corpus = tmp_path / "corpus.json"
        async with connect(tmp_path, "--corpus", str(corpus), "--config", str(tmp_path / "config.yaml"),
                           "--allow", f"127.0.0.1:{thread.port}", "--no-cache") as session:
            real = await call(session, "verify_reference", {"reference": (
                "He, K., Zhang, X., Ren, S. & Sun, J. (2016). Deep Residual Learning for Image Recognition. "
                "https://doi.org/10.1109/CVPR.2016.90")})
            assert real["ok"] is True and [v["status"] for v in real["identifiers"]] == ["found"]
            assert real["identifiers"][0]["record"]["title"] == "Deep Residual Learning for Image Recognition"
            wrong = await call(session, "verify_reference", {"reference": (
                "Smith, J. (2019). Quantum Supremacy in Freight Logistics. doi:10.1109/CVPR.2016.90")})
            assert wrong["ok"] is False and wrong["identifiers"][0]["findings"][0]["rule"] == "R002"
            made_up = await call(session, "verify_reference", {"reference": "Doe, J. (2023). A study. doi:10.9999/fab.2023.1"})
            assert made_up["identifiers"][0]["status"] == "absent"
            assert [(f["rule"], f["verdict"]) for f in made_up["identifiers"][0]["findings"]] == [("R001", "fabricated")]
            assert "no DOI, arXiv ID or PubMed ID" in await error(session, "verify_reference", {"reference": "A book."})
        assert corpus.read_text() == "[]\n"  # judged, nothing added
