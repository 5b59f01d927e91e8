"""The incident memo audited online against a local web that reproduces its pages.

The memo's hosts keep their names; a stub resolver answers every name with one public test
address, and the socket factory translates that address to the loopback server, so the SSRF
guard sees a public answer and the packets never leave 127.0.0.1. The copy uses http (the
local server speaks no TLS); everything else — hosts, paths, link texts — is the shipped memo.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from aiohttp import web
from hostile_net import NatSockets, StubResolver

from citecheck._audit import audit_inputs
from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.extract import Inputs, extract_document
from citecheck.fetch import Pages, fetch_all
from citecheck.report.gate import exit_code

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "93.184.216.34"  # answered for every name; translated to the loopback server
AWS = "/blogs/machine-learning/fabricated-slug-building-agentic-rag-pipelines/"
NOT_FOUND = "<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>"
ARTICLE = ("<html><head><title>Trucking news: Lumen Freight raises Series A</title></head><body><article>"
           + "<p>Lumen Freight raised a Series A to expand dispatch software for US carriers.</p>" * 30
           + "</article></body></html>")


async def _site(request: web.Request) -> web.Response:
    host = request.host.split(":")[0]
    if host == "aws.amazon.com" and request.path == AWS:  # the incident: a dead post served as 200
        return web.Response(text=NOT_FOUND, content_type="text/html")
    if host == "www.freightwaves.com":  # Cloudflare challenge
        return web.Response(status=403, headers={"cf-mitigated": "challenge"}, content_type="text/html",
                            text="<html><head><title>Just a moment...</title></head><body>Checking your browser"
                                 "<script src='/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1'></script></body></html>")
    if host == "www.dat.com":  # LinkedIn-style refusal
        return web.Response(status=999, text="", content_type="text/html")
    if host == "www.ttnews.com" and request.path.startswith("/articles/"):
        return web.Response(text=ARTICLE, content_type="text/html")
    return web.Response(status=404, text=NOT_FOUND, content_type="text/html")


def _local_copy() -> str:
    text = (ROOT / "fixtures" / "memos" / "bad_incident_memo.md").read_text(encoding="utf-8")
    text = re.sub(r"https://(?!analyst:)", "http://", text)
    return text.replace("hxxps://", "hxxp://")


async def test_incident_memo_online(aiohttp_server: Any) -> None:
    app = web.Application()
    app.router.add_get("/{tail:.*}", _site)
    server = await aiohttp_server(app)
    names = ["aws.amazon.com", "www.freightwaves.com", "www.dat.com", "www.ttnews.com", "example.com",
             "www.example.com", "example.org", "example.net", "docs.example.com", "crm.lumenfreight.com"]
    resolver = StubResolver({name: [[PUBLIC]] for name in names})
    sockets = NatSockets({PUBLIC: server.port})

    async def fetcher(urls: list[str], cfg: Any, /, **kw: Any) -> Pages:
        return await fetch_all(urls, cfg, resolver=resolver, socket_factory=sockets, **kw)

    config = build({"fetch": {"no-cache": True, "timeout": 10, "retries": 0}})
    inputs = Inputs(documents=[extract_document("incident.md", _local_copy())])
    report = await audit_inputs(inputs, config, build_registry(), online=True, fetcher=fetcher)
    def at(host: str) -> set[str]:
        return {f.rule for f in report.findings if host in f.url}
    assert "H003" in at("aws.amazon.com") and "H007" not in at("aws.amazon.com"), report.findings
    soft = next(f for f in report.findings if f.rule == "H003" and "aws.amazon.com" in f.url)
    assert "also H007 title-mismatch" in soft.evidence  # one finding per broken link, the mismatch its evidence
    assert "H006" in at("//www.freightwaves.com") and "H001" not in at("//www.freightwaves.com")
    assert "H006" in at("www.dat.com") and "H001" not in at("www.dat.com")
    assert report.pages[next(u for u in report.pages if "//www.freightwaves.com" in u)].outcome.value == "unverifiable"
    assert not any(a[0] not in (PUBLIC,) for a in sockets.addresses), sockets.addresses  # no private target
    assert exit_code(report.findings, "error") == 1
