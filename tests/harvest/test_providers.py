"""Search providers: HTTP shape from cassettes written from each API's public docs, failures
(401, 429, 500, malformed JSON, wrong shape, missing key) from a local fake server."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import vcr
from aiohttp import web

from citecheck.errors import MissingKeyError, ProviderError
from citecheck.harvest.providers import WEB_APIS, build_provider

CASSETTES = Path(__file__).parents[1] / "cassettes"
KEYS = {"tavily": ("TAVILY_API_KEY", "tvly-test-key"), "serpapi": ("SERPAPI_API_KEY", "serp-test-key"),
        "brave": ("BRAVE_API_KEY", "brave-test-key"), "perplexity": ("PERPLEXITY_API_KEY", "pplx-test-key"),
        "firecrawl": ("FIRECRAWL_API_KEY", "fc-test-key")}
PATHS = {"tavily": ("POST", "/search"), "serpapi": ("GET", "/search.json"), "brave": ("GET", "/res/v1/web/search"),
         "perplexity": ("POST", "/chat/completions"), "firecrawl": ("POST", "/v2/search")}


def _json_body(live: Any, recorded: Any) -> None:
    if recorded.body is None:
        assert not live.body
        return
    sent = live.body if isinstance(live.body, (dict, list)) else json.loads(live.body)
    assert sent == json.loads(recorded.body), "request body differs from the documented shape"


def _auth_headers(live: Any, recorded: Any) -> None:
    for name, value in recorded.headers.items():
        if name.lower() in ("authorization", "x-subscription-token", "accept"):
            assert live.headers.get(name) == value, f"{name} header differs"


def _cassette(name: str) -> Any:
    replay = vcr.VCR(record_mode="none")
    replay.register_matcher("json_body", _json_body)
    replay.register_matcher("auth_headers", _auth_headers)
    return replay.use_cassette(str(CASSETTES / name),
                               match_on=["method", "scheme", "host", "port", "path", "query", "json_body", "auth_headers"])


def _provider(name: str, monkeypatch: pytest.MonkeyPatch, base_url: str = "http://127.0.0.1:9", **extra: Any) -> Any:
    env, key = KEYS[name]
    monkeypatch.setenv(env, key)
    return build_provider(name, {name: {"base_url": base_url, **extra}})


async def _search(provider: Any, query: str, limit: int) -> list[Any]:
    try:
        return await provider.search(query, limit)
    finally:
        await provider.aclose()


async def test_tavily_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    with _cassette("tavily_search.yaml") as cassette:
        found = await _search(_provider("tavily", monkeypatch), "EU road freight tonne-kilometres @ec.europa.eu", 3)
    assert cassette.play_count == 1
    assert [c.rank for c in found] == [1, 2]  # the ftp:// result is not a web page
    assert found[0].url.startswith("https://ec.europa.eu/eurostat/statistics-explained/")
    assert found[0].title == "Road freight transport statistics - Statistics Explained"
    assert "1 857 billion tonne-kilometres" in found[0].snippet
    assert {c.tool for c in found} == {"tavily"} and found[0].query.endswith("@ec.europa.eu")


async def test_serpapi_shape_and_no_results_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    with _cassette("serpapi_search.yaml") as cassette:
        provider = _provider("serpapi", monkeypatch)
        found = await provider.search("largest road haulage companies Europe", 2)
        empty = await _search(provider, "zzqx nonexistent phrase", 2)
    assert cassette.play_count == 2
    assert [(c.rank, c.url) for c in found] == [(1, "https://www.ti-insight.com/top-100-road-freight/"),
                                               (2, "https://www.example-logistics-news.eu/market-leaders")]
    assert found[0].snippet == "The largest road freight providers in Europe by revenue."  # <b> stripped
    assert empty == []


async def test_brave_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    with _cassette("brave_search.yaml") as cassette:
        found = await _search(_provider("brave", monkeypatch), "spot freight rates Germany @timocom.com", 5)
    assert cassette.play_count == 1
    assert [c.url for c in found] == ["https://www.timocom.com/transport-barometer"]
    assert found[0].snippet == "The freight to capacity ratio on European spot markets."


async def test_firecrawl_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    with _cassette("firecrawl_search.yaml") as cassette:
        found = await _search(_provider("firecrawl", monkeypatch), "driver rest rules @transport.ec.europa.eu", 4)
    assert cassette.play_count == 1
    assert [c.title for c in found] == ["Driving time and rest periods", "Mobility Package I"]


async def test_perplexity_takes_urls_and_never_prose(monkeypatch: pytest.MonkeyPatch) -> None:
    with _cassette("perplexity_chat.yaml") as cassette:
        found = await _search(_provider("perplexity", monkeypatch), "Mobility Package cabotage rules "
                                                                    "@transport.ec.europa.eu", 10)
    assert cassette.play_count == 1
    assert [c.url for c in found] == ["https://transport.ec.europa.eu/transport-modes/road/mobility-package-i_en",
                                      "https://transport.ec.europa.eu/news-events/news/cabotage-rules-2022-02-21_en"]
    assert found[0].title == "Mobility Package I" and found[1].title == ""
    completion = "three cabotage operations within seven days"
    assert not any(completion in f"{c.title} {c.snippet}" for c in found)


HITS = web.AppKey("hits", list)


def _fake_api(name: str, status: int, body: str, headers: dict[str, str] | None = None) -> web.Application:
    hits: list[int] = []

    async def handler(request: web.Request) -> web.Response:
        hits.append(1)
        return web.Response(status=status, text=body, content_type="application/json", headers=headers)

    app = web.Application()
    app[HITS] = hits
    method, path = PATHS[name]
    app.router.add_route(method, path, handler)
    return app


FAILURES = [(401, '{"detail": {"error": "Unauthorized: missing or invalid API key."}}', "refused the key"),
            (429, '{"error": "rate limit"}', "rate limited (HTTP 429, retry after 0 s)"),
            (500, "upstream exploded", "HTTP 500"),
            (200, "{not json", "malformed JSON"),
            (200, "[1, 2, 3]", "unexpected response shape")]


@pytest.mark.parametrize("name", sorted(WEB_APIS))
@pytest.mark.parametrize("status,body,expected", FAILURES, ids=["401", "429", "500", "malformed", "shape"])
async def test_failures_are_one_clear_provider_error(aiohttp_server: Any, monkeypatch: pytest.MonkeyPatch, name: str,
                                                      status: int, body: str, expected: str) -> None:
    server = await aiohttp_server(_fake_api(name, status, body, {"Retry-After": "0"}))
    provider = _provider(name, monkeypatch, str(server.make_url("")).rstrip("/"), retries=1)
    with pytest.raises(ProviderError) as info:
        await _search(provider, "anything", 3)
    message = str(info.value)
    assert message.startswith(f"{name}: ") and expected in message and "\n" not in message
    assert len(server.app[HITS]) == (2 if status in (429, 500) else 1)  # one retry for 429/5xx only
    if status == 401:
        assert KEYS[name][0] in message


@pytest.mark.parametrize("name", sorted(WEB_APIS))
def test_missing_key_names_the_variable(name: str) -> None:
    with pytest.raises(MissingKeyError, match=f"set the {KEYS[name][0]} environment variable"):
        build_provider(name, {})


def test_key_env_setting_and_unknown_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEAM_TAVILY", "k")
    assert build_provider("tavily", {"tavily": {"key_env": "TEAM_TAVILY"}}).api_key == "k"
    from citecheck.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown setting 'bogus'"):
        build_provider("tavily", {"tavily": {"bogus": 1}})


async def test_unreachable_api_is_a_provider_error(monkeypatch: pytest.MonkeyPatch, unused_tcp_port: int) -> None:
    provider = _provider("brave", monkeypatch, f"http://127.0.0.1:{unused_tcp_port}", retries=0)
    with pytest.raises(ProviderError, match="brave: cannot reach"):
        await _search(provider, "x", 1)
