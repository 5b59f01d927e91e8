"""URLs inside bibliography entries (`url =`, `howpublished = {\\url{…}}`, `note`, CSL `URL`; never
`doi =`) are links at their place in the file, and an audit checks them like a memo's: U rules
offline, fetched and judged by the page rules online (a loopback site), for a .bib given as input
and for one a memo names."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from hostile_net import ServerThread

from citecheck import audit
from citecheck.config import build
from citecheck.extract.bibliography import parse_bibliography
from citecheck.models import LinkKind

BIB = r"""@online{report,
  title = {Annual report 2023},
  url = {https://reports.example.org/annual\_2023.pdf},
  year = 2024
}
@misc{blog,
  title = {A post},
  howpublished = {\url{https://blog.example.net/post}},
  note = {Accessed 2024. See also \url{http://localhost:8080/internal}}
}
@article{paper,
  title = {A paper with a DOI}, author = {Doe, Jane}, journal = {J}, year = 2020,
  doi = {10.1000/xyz123}
}
"""


def test_urls_of_entries_are_links_at_their_place_and_doi_is_not() -> None:
    bib = parse_bibliography("refs.bib", BIB)
    got = [(link.url, link.location.line, link.location.column, link.kind, link.section) for link in bib.links]
    assert got == [("https://reports.example.org/annual_2023.pdf", 3, 10, LinkKind.BIBLIOGRAPHY, "@report"),
                   ("https://blog.example.net/post", 8, 24, LinkKind.BIBLIOGRAPHY, "@blog"),
                   ("http://localhost:8080/internal", 9, 40, LinkKind.BIBLIOGRAPHY, "@blog")], got
    assert bib.links[0].raw == r"https://reports.example.org/annual\_2023.pdf"


def test_csl_json_url_is_a_link() -> None:
    text = json.dumps([{"id": "who", "type": "report", "title": "World report", "URL": "https://www.who.example/r"}],
                      indent=2)
    [link] = parse_bibliography("refs.json", text).links
    assert (link.url, link.location.line) == ("https://www.who.example/r", 6)


def test_offline_audit_runs_the_link_rules_on_bib_urls(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    report = audit([str(tmp_path / "refs.bib")], build({"fetch": {"no-cache": True}}))
    got = sorted((f.line, f.rule) for f in report.findings if f.rule[0] == "U")
    assert got == [(3, "U001"), (8, "U001"), (9, "U001")], [(f.line, f.rule, f.message) for f in report.findings]
    assert report.summary.get("citations", 0) == 0  # entries are not memo citations


@pytest.fixture
def site() -> Iterator[str]:
    app = web.Application()

    async def ok(_request: web.Request) -> web.Response:
        return web.Response(text="<html><head><title>Widget report</title></head><body><p>" + "Widgets. " * 80 +
                            "</p></body></html>", content_type="text/html")

    async def gone(_request: web.Request) -> web.Response:
        return web.Response(status=404, text="<html><title>Not Found</title></html>", content_type="text/html")

    app.router.add_get("/report", ok)
    app.router.add_get("/gone", gone)
    with ServerThread(app) as thread:
        yield f"127.0.0.1:{thread.port}"


def test_online_audit_fetches_and_judges_bib_urls(site: str, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        f"@online{{ok, title = {{Widget report}}, url = {{http://{site}/report}}}}\n"
        f"@online{{gone,\n  title = {{Old page}},\n  url = {{http://{site}/gone}}\n}}\n", encoding="utf-8")
    (tmp_path / "memo.md").write_text("---\nbibliography: refs.bib\n---\n\n# Memo\n\nWidgets [@ok; @gone].\n",
                                      encoding="utf-8")
    config = build({"fetch": {"allow": [site], "no-cache": True, "retries": 0, "timeout": 5},
                    "scholarly": {"enabled": False}})
    for inputs in ([str(tmp_path / "refs.bib")], [str(tmp_path / "memo.md")]):  # as input, and named by a memo
        report = audit(inputs, config, online=True)
        dead = [(Path(f.path).name, f.line, f.rule) for f in report.findings if f.rule.startswith("H")]
        assert dead == [("refs.bib", 4, "H001")], [(f.path, f.line, f.rule, f.message) for f in report.findings]
