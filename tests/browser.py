"""A small Chrome DevTools Protocol client for end-to-end tests of the HTML report.

Starts Debian's `chromium` headless with a fresh profile and `--remote-debugging-port=0`, reads
the port from `DevToolsActivePort`, and talks CDP over aiohttp's websocket client to 127.0.0.1
only. Every event is recorded so a test can assert on network requests, console errors,
exceptions and dialogs after the fact. No dependency beyond aiohttp.
"""
from __future__ import annotations

import asyncio
import base64
import itertools
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Self, TypeVar

import aiohttp

T = TypeVar("T")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--remote-debugging-port=0")


def chromium_path() -> str | None:
    """The browser to drive: $CITECHECK_CHROMIUM, else `chromium` on PATH."""
    return os.environ.get("CITECHECK_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class CDPError(RuntimeError):
    """A DevTools command answered with an error."""


class Browser:
    """`async with Browser() as b: tab = await b.new_tab()`."""

    def __init__(self, executable: str | None = None, timeout: float = 30.0) -> None:
        self.executable = executable or chromium_path() or "chromium"
        self.timeout = timeout
        self.events: list[tuple[str, dict[str, Any], str]] = []  # (method, params, sessionId)
        self._tasks: set[asyncio.Future[Any]] = set()
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}

    async def __aenter__(self) -> Self:
        self.profile = tempfile.mkdtemp(prefix="citecheck-chromium-")
        self.proc = await asyncio.create_subprocess_exec(
            self.executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank",
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port, path = await self._active_port()
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._reader.cancel()
        await self.ws.close()
        await self.http.close()
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def _active_port(self) -> tuple[int, str]:
        marker = Path(self.profile) / "DevToolsActivePort"
        for _ in range(int(self.timeout * 10)):
            if self.proc.returncode is not None:
                raise RuntimeError(f"{self.executable} exited with {self.proc.returncode}")
            lines = marker.read_text().split("\n") if marker.exists() else []
            if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].startswith("/"):
                return int(lines[0]), lines[1].strip()
            await asyncio.sleep(0.1)
        raise TimeoutError(f"{self.executable} wrote no DevToolsActivePort in {self.timeout} s")

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = msg.json()
            if "id" in data and data["id"] in self._pending:
                self._pending.pop(data["id"]).set_result(data)
            elif "method" in data:
                self.events.append((data["method"], data.get("params", {}), data.get("sessionId", "")))
                if data["method"] == "Page.javascriptDialogOpening":  # never leave a page blocked
                    # held until done: the loop keeps only a weak reference to a running task
                    task = asyncio.ensure_future(self.send("Page.handleJavaScriptDialog", {"accept": False},
                                                           data.get("sessionId", "")))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

    async def send(self, method: str, params: dict[str, Any] | None = None, session: str = "") -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        await self.ws.send_json(message)
        reply = await asyncio.wait_for(future, self.timeout)
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error']}")
        return dict(reply.get("result", {}))

    async def new_tab(self) -> Tab:
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        tab = Tab(self, attached["sessionId"], target["targetId"])
        for domain in ("Page", "Network", "Runtime", "Log"):
            await tab.send(f"{domain}.enable")
        return tab


class Tab:
    """One page, attached in flat mode: commands and events carry its session id."""

    def __init__(self, browser: Browser, session: str, target: str) -> None:
        self.browser, self.session, self.target = browser, session, target

    async def close(self) -> None:
        await self.browser.send("Target.closeTarget", {"targetId": self.target})

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.send(method, params, self.session)

    def events(self, method: str) -> list[dict[str, Any]]:
        return [p for m, p, s in self.browser.events if m == method and s == self.session]

    async def goto(self, url: str) -> None:
        seen = len(self.events("Page.loadEventFired"))
        await self.send("Page.navigate", {"url": url})
        for _ in range(int(self.browser.timeout * 20)):
            if len(self.events("Page.loadEventFired")) > seen:
                return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"{url} did not finish loading")

    async def evaluate(self, expression: str) -> Any:
        reply = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                     "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise CDPError(f"{expression}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    async def screenshot(self, path: Path, width: int, height: int, mobile: bool = False,
                         full_page: bool = False) -> None:
        await self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                               "deviceScaleFactor": 1, "mobile": mobile})
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = await self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size[0], "height": min(size[1], 12000), "scale": 1})
        shot = await self.send("Page.captureScreenshot", params)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def console_errors(self) -> list[str]:
        """console.error calls, uncaught exceptions and browser log errors (CSP violations land there)."""
        found = [str(p.get("args")) for p in self.events("Runtime.consoleAPICalled") if p.get("type") == "error"]
        found += [str(p.get("exceptionDetails")) for p in self.events("Runtime.exceptionThrown")]
        found += [str(p["entry"].get("text")) for p in self.events("Log.entryAdded")
                  if p.get("entry", {}).get("level") == "error"]
        return found

    def requested_urls(self) -> list[str]:
        return [p["request"]["url"] for p in self.events("Network.requestWillBeSent")]


class SharedBrowser:
    """One browser for many synchronous tests: its event loop runs in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="cdp", daemon=True)
        self.thread.start()
        self.browser = self.call(Browser().__aenter__())

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        try:
            self.call(self.browser.__aexit__(None, None, None))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()
