"""What every search provider shares: the Candidate it returns, its settings, and one JSON call.

A provider is a small class with a `name` and `async search(query, limit) -> list[Candidate]`.
Web APIs subclass `HttpProvider`, which reads the API key from the environment only, takes its
base URL from config (so tests point it at 127.0.0.1), and turns every failure (401, 429, 5xx,
timeouts, malformed JSON, an unexpected shape) into one clear ProviderError line.
"""
from __future__ import annotations

import abc
import asyncio
import html
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import aiohttp

from citecheck.errors import ConfigError, MissingKeyError, ProviderError

COMMON_SETTINGS = {"base_url", "key_env", "timeout", "retries"}
_TAG = re.compile(r"<[^>]{0,200}>")


@dataclass(frozen=True)
class Candidate:
    """One search result: a URL a tool returned, never a URL a model wrote."""

    url: str
    title: str = ""
    snippet: str = ""
    query: str = ""
    tool: str = ""
    rank: int = 0


def settings_for(name: str, providers: Mapping[str, Any], allowed: frozenset[str]) -> dict[str, Any]:
    """The `providers.<name>` config mapping, refusing unknown keys."""
    raw = providers.get(name) or {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"providers.{name} must be a mapping")
    unknown = set(raw) - allowed - COMMON_SETTINGS
    if unknown:
        known = ", ".join(sorted(allowed | COMMON_SETTINGS))
        raise ConfigError(f"providers.{name}: unknown setting {min(unknown)!r} (known: {known})")
    return dict(raw)


class HttpProvider(abc.ABC):
    """Base of the web-API providers: one aiohttp session, one JSON request helper."""

    name = ""
    key_env = ""
    base_url = ""
    options: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = dict(settings)
        env = str(self.settings.get("key_env") or self.key_env)
        self.api_key = os.environ.get(env, "").strip()
        if not self.api_key:
            raise MissingKeyError(f"{self.name}: set the {env} environment variable (API keys are read only "
                                  "from the environment)")
        self.root = str(self.settings.get("base_url") or self.base_url).rstrip("/")
        self.timeout = float(self.settings.get("timeout", 30))
        self.retries = int(self.settings.get("retries", 1))
        self._session: aiohttp.ClientSession | None = None

    @abc.abstractmethod
    async def search(self, query: str, limit: int) -> list[Candidate]:
        """The provider's results for `query`, at most `limit`, best first."""

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def call(self, method: str, path: str, *, params: Mapping[str, Any] | None = None,
                   json: Any = None, headers: Mapping[str, str] | None = None) -> Any:
        """One API call returning parsed JSON; retries 429/5xx once (honouring a short Retry-After)."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        for attempt in range(self.retries + 1):
            status, retry_after, body = await self._send(method, path, params, json, headers)
            if (status == 429 or status >= 500) and attempt < self.retries:
                await asyncio.sleep(min(retry_after if retry_after is not None else 1.0, 5.0))
                continue
            return self._parse(status, retry_after, body)
        raise AssertionError("unreachable")  # the loop always returns or raises on its last attempt

    async def _send(self, method: str, path: str, params: Mapping[str, Any] | None, json: Any,
                    headers: Mapping[str, str] | None) -> tuple[int, float | None, bytes]:
        assert self._session is not None
        try:
            async with self._session.request(method, self.root + path, params=params, json=json,
                                             headers=headers) as response:
                return response.status, _retry_after(response.headers.get("Retry-After")), await response.read()
        except TimeoutError:
            raise ProviderError(f"{self.name}: no answer from {self.root} within {self.timeout:g} s") from None
        except aiohttp.ClientError as err:
            raise ProviderError(f"{self.name}: cannot reach {self.root}: {err}") from None

    def _parse(self, status: int, retry_after: float | None, body: bytes) -> Any:
        if status in (401, 403):
            raise ProviderError(f"{self.name}: the API refused the key (HTTP {status}); check "
                                f"{self.settings.get('key_env') or self.key_env}")
        if status == 429:
            wait = f", retry after {retry_after:g} s" if retry_after is not None else ""
            raise ProviderError(f"{self.name}: rate limited (HTTP 429{wait})")
        if status >= 400:
            raise ProviderError(f"{self.name}: HTTP {status} from {self.root}: {_brief(body)}")
        import json as jsonlib

        try:
            return jsonlib.loads(body)
        except ValueError as err:
            raise ProviderError(f"{self.name}: malformed JSON in the response ({err})") from None

    def shape_error(self, what: str) -> ProviderError:
        return ProviderError(f"{self.name}: unexpected response shape: {what}")


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def _brief(body: bytes) -> str:
    return " ".join(body[:200].decode("utf-8", "replace").split()) or "(empty body)"


def dig(data: Any, *keys: str) -> Any:
    """`data[k1][k2]…`, or None when a level is missing or not a mapping."""
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def clean(value: Any) -> str:
    """A provider string field with markup and runs of whitespace removed ('' for non-strings)."""
    if not isinstance(value, str):
        return ""
    return " ".join(_TAG.sub(" ", html.unescape(value)).split())


def candidates(items: Any, what: str, provider: HttpProvider, query: str, *, url: str = "url",
               title: str = "title", snippet: str = "snippet") -> list[Candidate]:
    """Candidates from a list of result objects; a non-list is a shape error, a URL-less item is skipped."""
    if not isinstance(items, list):
        raise provider.shape_error(f"no {what} array")
    out: list[Candidate] = []
    for item in items:
        link = item.get(url) if isinstance(item, dict) else None
        if isinstance(link, str) and link.strip().lower().startswith(("http://", "https://")):
            out.append(Candidate(link.strip(), clean(item.get(title)), clean(item.get(snippet)), query,
                                 provider.name, len(out) + 1))
    return out
