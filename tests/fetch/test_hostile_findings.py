"""Nothing silent (issue 25 item 5): each hostile case the fetcher survives is also a finding on the
cited link. Fetched from the hostile web on 127.0.0.1 (tests/hostile.py) through the real fetcher,
judged by every H rule through the real engine; private destinations only ever reach the guard."""
from __future__ import annotations

from typing import Any

import pytest
from hostile import HostileWeb
from hostile_net import StubResolver

from citecheck.config import FetchConfig, build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.fetch import fetch_all
from citecheck.models import Finding, Link, LinkKind, Location

CFG = FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=3.0, connect_timeout=1.0, read_timeout=1.0,
                  retries=0, max_body=256 * 1024, max_decompressed=1024 * 1024, sibling_probe=False, robots=False)
# path on the hostile web → (rule, severity) the cited link must get
CASES = {
    "/to?url=http://10.0.0.1/admin": ("H008", "error"),
    "/to?url=http://169.254.169.254/latest/meta-data/": ("H008", "error"),
    "/to?url=http://metadata.test/latest/meta-data/": ("H008", "error"),
    "/to?url=http://[fe80::1]/": ("H008", "error"),
    "/to?url=gopher://research-lab.net/1": ("H008", "warning"),
    "/to?url=file:///etc/passwd": ("H008", "warning"),
    "/to?url=data:text/html,hello": ("H008", "warning"),
    "/to?url=http://analyst:s3cret@127.0.0.1:{port}/article": ("H008", "warning"),
    "/bomb": ("H011", "info"),
    "/brbomb": ("H011", "info"),
    "/endless": ("H011", "info"),
}


@pytest.fixture
async def judged(aiohttp_server: Any) -> dict[str, list[Finding]]:
    server = await aiohttp_server(HostileWeb().app)
    base = f"http://127.0.0.1:{server.port}"
    urls = {path: base + path.format(port=server.port) for path in CASES}
    urls["http://metadata.test/"] = "http://metadata.test/latest/meta-data/"  # cited directly: H002
    dns = StubResolver({"metadata.test": [["169.254.169.254"]]})
    pages = await fetch_all(list(urls.values()), CFG, resolver=dns)
    engine = Engine(resolve(build_registry(), build({"select": ["H"]})))
    out = {}
    for path, url in urls.items():
        link = Link(url, Location("memo.md", 1, 1), LinkKind.INLINE)
        out[path] = engine.check_pages([link], {url: pages[url]}, "memo.md")
    return out


@pytest.mark.parametrize("path", sorted(CASES))
def test_each_hostile_case_is_a_finding_on_the_cited_link(judged: dict[str, list[Finding]], path: str) -> None:
    rule, severity = CASES[path]
    found = [(f.rule, f.severity.value) for f in judged[path]]
    assert (rule, severity) in found, (path, [(f.rule, f.message, f.evidence) for f in judged[path]])
    verdicts = {f.verdict.value for f in judged[path] if f.rule == rule}
    assert verdicts == {"invalid" if severity == "error" else "unverifiable" if rule == "H008" else "advisory"}
    if "s3cret" in path:
        assert not any("s3cret" in f.message + f.evidence for f in judged[path])
    if rule == "H011":
        assert any(f.evidence.startswith("truncated") for f in judged[path])


def test_a_cited_name_that_resolves_to_a_metadata_address_is_an_error(judged: dict[str, list[Finding]]) -> None:
    found = judged["http://metadata.test/"]
    assert [(f.rule, f.severity.value, f.verdict.value) for f in found] == [("H002", "error", "invalid")], found
    assert "private, loopback, link-local or metadata" in found[0].message
