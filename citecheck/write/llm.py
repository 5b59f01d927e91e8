"""Ask an OpenAI-compatible chat-completions endpoint for a draft: one request, no tools.

The writer gets the rendered prompt and nothing else: no `tools`, `functions` or
`tool_choice` are ever sent, so the model cannot fetch or browse; whatever it answers is gated
by `write` like any other draft. Settings come from options or the environment:

    base URL  --llm-base-url  or CITECHECK_LLM_BASE_URL  (default https://api.openai.com/v1)
    model     --llm-model     or CITECHECK_LLM_MODEL     (required)
    key       CITECHECK_LLM_API_KEY, else OPENAI_API_KEY  (environment only, never an option)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from citecheck import __version__
from citecheck._util import aio
from citecheck._util.safeload import load_json
from citecheck.errors import MissingKeyError, ProviderError, UsageError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
KEY_VARIABLES = ("CITECHECK_LLM_API_KEY", "OPENAI_API_KEY")
MAX_RESPONSE = 8 * 1024 * 1024


@dataclass(frozen=True)
class LLMSettings:
    base_url: str
    model: str
    api_key: str
    timeout: float = 180.0


@dataclass(frozen=True)
class Completion:
    text: str
    model: str = ""
    finish_reason: str = ""


def llm_settings(env: Mapping[str, str], base_url: str | None = None, model: str | None = None,
                 timeout: float = 180.0) -> LLMSettings:
    """Resolve the endpoint, model and key; a missing one is a one-line error naming the variable."""
    key = next((env[v] for v in KEY_VARIABLES if env.get(v, "").strip()), "")
    if not key:
        raise MissingKeyError("--llm needs an API key: set OPENAI_API_KEY (or CITECHECK_LLM_API_KEY) "
                              "in the environment")
    model = model or env.get("CITECHECK_LLM_MODEL", "").strip()
    if not model:
        raise UsageError("--llm needs a model: pass --llm-model or set CITECHECK_LLM_MODEL")
    base = (base_url or env.get("CITECHECK_LLM_BASE_URL", "").strip() or DEFAULT_BASE_URL).rstrip("/")
    if not base.lower().startswith(("http://", "https://")):
        raise UsageError(f"--llm-base-url {base!r} is not an http(s) URL")
    return LLMSettings(base, model, key.strip(), timeout)


def request_body(messages: list[dict[str, str]], model: str) -> dict[str, Any]:
    """The chat-completions request: model and messages only (no tools of any kind)."""
    return {"model": model, "messages": messages}


async def complete(messages: list[dict[str, str]], settings: LLMSettings) -> Completion:
    """POST {base}/chat/completions and return the first choice's text."""
    url = f"{settings.base_url}/chat/completions"
    headers = {"Authorization": f"Bearer {settings.api_key}", "User-Agent": f"citecheck/{__version__}"}
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=settings.timeout)) as session, \
                session.post(url, json=request_body(messages, settings.model), headers=headers) as resp:
            raw = await resp.content.read(MAX_RESPONSE)
            status = resp.status
    except TimeoutError:
        raise ProviderError(f"LLM endpoint {url}: no answer within {settings.timeout:g} s") from None
    except aiohttp.ClientError as err:
        raise ProviderError(f"LLM endpoint {url}: {type(err).__name__}: {err}") from None
    return parse_response(status, raw, url)


def parse_response(status: int, raw: bytes, url: str) -> Completion:
    try:
        data = load_json(raw.decode("utf-8", errors="replace"))
    except ValueError:  # not JSON, or JSON over the limits (safeload.LimitError)
        data = None
    if status != 200:
        detail = data.get("error", {}).get("message", "") if isinstance(data, dict) and isinstance(
            data.get("error"), dict) else raw[:200].decode("utf-8", errors="replace")
        hint = " (check OPENAI_API_KEY / CITECHECK_LLM_API_KEY)" if status in (401, 403) else ""
        raise ProviderError(f"LLM endpoint {url} answered HTTP {status}: {' '.join(detail.split())}{hint}")
    try:
        choice = data["choices"][0]  # type: ignore[index]
        message = choice["message"]
    except (TypeError, KeyError, IndexError):
        raise ProviderError(f"LLM endpoint {url}: the answer has no choices[0].message") from None
    if message.get("tool_calls") or message.get("function_call"):
        raise ProviderError(f"LLM endpoint {url}: the model answered with a tool call, but no tools were offered")
    content = message.get("content")
    if isinstance(content, list):  # content parts: [{"type": "text", "text": "…"}]
        content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    if not isinstance(content, str) or not content.strip():
        raise ProviderError(f"LLM endpoint {url}: the answer's message has no text content")
    return Completion(content, str(data.get("model", "")), str(choice.get("finish_reason") or ""))


def generate(messages: list[dict[str, str]], settings: LLMSettings) -> Completion:
    """Synchronous `complete` for the CLI."""
    return aio.run(complete(messages, settings))
