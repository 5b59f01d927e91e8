"""`write --llm`: one chat-completions request with the rendered prompt and no tools, then the gate.

A fake OpenAI-compatible endpoint on 127.0.0.1 returns a canned draft with invented IDs and URLs;
the cassette (written from OpenAI's public API reference) pins the real request/response shape.
"""
from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import vcr
from aiohttp import web
from click.testing import CliRunner
from leakscan import leaked

from citecheck.cli import main
from citecheck.errors import MissingKeyError, ProviderError, UsageError
from citecheck.extract import load_corpus
from citecheck.harvest.outline import load_outline
from citecheck.write import render_prompt, write
from citecheck.write.llm import LLMSettings, complete, llm_settings

ROOT = Path(__file__).resolve().parents[2]
OUTLINE = ROOT / "fixtures" / "harvest" / "outline.yaml"
CORPUS_PATH = ROOT / "fixtures" / "write" / "corpus.json"
CORPUS = load_corpus(str(CORPUS_PATH))
CASSETTE = ROOT / "tests" / "cassettes" / "openai_chat_completions.yaml"
CANNED = ("## Market size and growth\n\nRevenue rose 8% [src-001]. The market doubled [src-404] per "
          "[Freight Weekly](https://freightweekly.example.com/eu) and hxxps://leak[.]example/x.\n")
MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "task"}]


def _answer(content: Any = CANNED, **message: Any) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "fake-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content, **message},
                         "finish_reason": "stop"}]}


def _app(seen: list[dict[str, Any]], status: int = 200, payload: Any = None, delay: float = 0) -> web.Application:
    async def chat(request: web.Request) -> web.Response:
        seen.append({"path": request.path, "auth": request.headers.get("Authorization"), "body": await request.json()})
        await asyncio.sleep(delay)
        if isinstance(payload, str):
            return web.Response(status=status, text=payload)
        return web.json_response(_answer() if payload is None else payload, status=status)

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat)
    return app


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("CITECHECK_LLM_API_KEY", "CITECHECK_LLM_MODEL", "CITECHECK_LLM_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")


@pytest.fixture
def threaded_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The fake endpoint in its own thread and loop, for the synchronous CLI."""
    seen: list[dict[str, Any]] = []
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(_app(seen))
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/v1", seen
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.run_until_complete(runner.cleanup())
    loop.close()


async def test_request_is_model_and_messages_only(aiohttp_server: Any) -> None:
    seen: list[dict[str, Any]] = []
    server = await aiohttp_server(_app(seen))
    settings = LLMSettings(f"http://127.0.0.1:{server.port}/v1", "fake-model", "sk-test", 10)
    completion = await complete(MESSAGES, settings)
    assert completion.text == CANNED and completion.finish_reason == "stop" and completion.model == "fake-model"
    assert seen == [{"path": "/v1/chat/completions", "auth": "Bearer sk-test",
                     "body": {"model": "fake-model", "messages": MESSAGES}}]


@pytest.mark.parametrize(("status", "payload", "message"), [
    (401, {"error": {"message": "Incorrect API key provided: sk-test."}},
     "HTTP 401: Incorrect API key provided: sk-test. (check OPENAI_API_KEY / CITECHECK_LLM_API_KEY)"),
    (500, "<html>upstream error</html>", "HTTP 500: <html>upstream error</html>"),
    (200, "not json", "the answer has no choices[0].message"),
    (200, _answer(None, tool_calls=[{"id": "c1", "type": "function"}]), "answered with a tool call"),
    (200, _answer("   "), "has no text content"),
])
async def test_endpoint_errors_are_one_line(aiohttp_server: Any, status: int, payload: Any, message: str) -> None:
    server = await aiohttp_server(_app([], status, payload))
    settings = LLMSettings(f"http://127.0.0.1:{server.port}/v1", "m", "sk-test", 10)
    with pytest.raises(ProviderError) as err:
        await complete(MESSAGES, settings)
    assert message in str(err.value) and "\n" not in str(err.value)


async def test_content_parts_are_joined(aiohttp_server: Any) -> None:
    parts = [{"type": "text", "text": "## A\n\n"}, {"type": "text", "text": "B [src-001]."}]
    server = await aiohttp_server(_app([], 200, _answer(parts)))
    completion = await complete(MESSAGES, LLMSettings(f"http://127.0.0.1:{server.port}/v1", "m", "k", 10))
    assert completion.text == "## A\n\nB [src-001]."


async def test_timeout_and_unreachable(aiohttp_server: Any, unused_tcp_port: int) -> None:
    server = await aiohttp_server(_app([], delay=5))
    with pytest.raises(ProviderError, match="no answer within 1 s"):
        await complete(MESSAGES, LLMSettings(f"http://127.0.0.1:{server.port}/v1", "m", "k", 1))
    with pytest.raises(ProviderError, match="ClientConnectorError"):
        await complete(MESSAGES, LLMSettings(f"http://127.0.0.1:{unused_tcp_port}/v1", "m", "k", 5))


def test_settings_from_options_and_environment() -> None:
    env = {"OPENAI_API_KEY": "sk-openai", "CITECHECK_LLM_MODEL": "m1",
           "CITECHECK_LLM_BASE_URL": "http://127.0.0.1:1/v1/"}
    assert llm_settings(env) == LLMSettings("http://127.0.0.1:1/v1", "m1", "sk-openai")
    assert llm_settings({**env, "CITECHECK_LLM_API_KEY": "sk-cc"}, "http://127.0.0.1:2/v1", "m2").api_key == "sk-cc"
    assert llm_settings({"OPENAI_API_KEY": "k"}, model="m").base_url == "https://api.openai.com/v1"
    with pytest.raises(MissingKeyError, match=r"set OPENAI_API_KEY .or CITECHECK_LLM_API_KEY."):
        llm_settings({"CITECHECK_LLM_MODEL": "m"})
    with pytest.raises(UsageError, match="--llm-model or set CITECHECK_LLM_MODEL"):
        llm_settings({"OPENAI_API_KEY": "k"})
    with pytest.raises(UsageError, match="not an http"):
        llm_settings({"OPENAI_API_KEY": "k"}, "ftp://x", "m")


def test_cli_generates_then_gates(tmp_path: Path, llm_env: None,
                                  threaded_server: tuple[str, list[dict[str, Any]]]) -> None:
    base, seen = threaded_server
    memo, raw = tmp_path / "market.md", tmp_path / "raw.md"
    result = CliRunner().invoke(main, [
        "write", "--llm", "--outline", str(OUTLINE), "--section", "market", "--corpus", str(CORPUS_PATH),
        "-o", str(memo), "--llm-base-url", base, "--llm-model", "fake-model", "--save-draft", str(raw),
        "--format", "json", "--ignore", "M008"])
    assert result.exit_code == 1, result.output + result.stderr
    body = seen[0]["body"]
    assert set(body) == {"model", "messages"} and body["model"] == "fake-model"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    expected = render_prompt(load_outline(OUTLINE), "market", CORPUS).messages()
    assert body["messages"] == expected
    assert raw.read_text(encoding="utf-8") == CANNED
    text = memo.read_text(encoding="utf-8")
    assert leaked(text, [s.url for s in CORPUS.sources]) == []
    assert '<needs-source claim="The market doubled"/>' in text and "[^1]: Northwind Freight AG" in text
    findings = json.loads(result.output)["findings"]
    assert sorted(f["rule"] for f in findings if f["rule"] in ("M006", "M009")) == ["M006", "M009", "M009"]
    assert {f["path"] for f in findings} == {str(raw)}


def test_cli_without_key_is_one_line_naming_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "CITECHECK_LLM_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    result = CliRunner().invoke(main, ["write", "--llm", "--outline", str(OUTLINE), "--section", "market",
                                       "--corpus", str(CORPUS_PATH), "-o", str(tmp_path / "m.md"),
                                       "--llm-model", "m"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("citecheck: error: --llm needs an API key: set OPENAI_API_KEY "
                                     "(or CITECHECK_LLM_API_KEY) in the environment")
    assert not (tmp_path / "m.md").exists()


def test_cli_llm_needs_outline_and_section(tmp_path: Path, llm_env: None) -> None:
    result = CliRunner().invoke(main, ["write", "--llm", "--corpus", str(CORPUS_PATH), "-o", str(tmp_path / "m.md"),
                                       "--llm-model", "m"])
    assert result.exit_code == 2 and "--llm needs --outline and --section" in result.output + result.stderr


def _chat_shape(live: Any, recorded: Any) -> None:
    body = live.body if isinstance(live.body, dict) else json.loads(live.body)  # vcrpy keeps aiohttp's json=
    want = json.loads(recorded.body)
    assert set(body) == set(want) == {"model", "messages"}, "only model and messages: never tools"
    assert body["model"] == want["model"]
    assert [m["role"] for m in body["messages"]] == [m["role"] for m in want["messages"]]
    assert live.headers.get("Authorization") == recorded.headers.get("Authorization")


async def test_openai_cassette_shape_then_gate() -> None:
    replay = vcr.VCR(record_mode="none")
    replay.register_matcher("chat_shape", _chat_shape)
    prompt = render_prompt(load_outline(OUTLINE), "market", CORPUS)
    settings = LLMSettings("http://127.0.0.1:9/v1", "gpt-4o-2024-08-06", "sk-test-cassette", 10)
    match_on = ["method", "scheme", "host", "port", "path", "chat_shape"]
    with replay.use_cassette(str(CASSETTE), match_on=match_on) as tape:
        completion = await complete(prompt.messages(), settings)
    assert tape.play_count == 1
    assert completion.model == "gpt-4o-2024-08-06" and completion.finish_reason == "stop"
    result = await asyncio.to_thread(write, completion.text, CORPUS, path="<llm>")
    assert "freight-insights" not in result.text and "[^1]" in result.text
    assert {f.rule for f in result.findings} >= {"M006", "M009"}
