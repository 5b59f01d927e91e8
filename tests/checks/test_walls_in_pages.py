"""Walls as real pages serve them (issue 25 item 6): the notice under a truncated teaser comes after
kilobytes of menus, and a sign-in page's form comes after kilobytes of inline styles. The parsed
facts must still show them: a registration wall is H004, a page that is itself a sign-in page is
H005 in audit and a reject in harvest, and an article with a login box or a big menu stays clean."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from harvestsite import Page as SitePage
from harvestsite import threaded_site

from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.fetch.parse import parse_body
from citecheck.models import Link, LinkKind, Location, Outcome, Page

MENU = "".join(f"<li><a href='/s{i}'>Section number {i} of the news</a></li>" for i in range(260))  # ~8 KB
STYLE = "<style>" + ".y{margin:0;padding:0}" * 600 + "</style>"  # ~13 KB of head before any form
TEASER = ("<p>The ministries of labour and economy clashed on Tuesday over the timetable of the reform, which "
          "was due in parliament before the summer.</p><p>Sources in both departments admit that talks with")


def _page(title: str, body: str, url: str = "https://news.example.net/economy/2024/the-reform.html") -> Page:
    html = f"<!doctype html><html><head><title>{title}</title>{STYLE}</head><body>{body}</body></html>"
    facts = parse_body(html.encode())
    return Page(url=url, outcome=Outcome.OK, status=200, final_url=url, title=facts.title,
                text_sample=facts.text_sample, html_sample=facts.html_sample, meta=facts.meta,
                headers={"content-type": "text/html; charset=utf-8"})


def _rules(page: Page) -> list[tuple[str, str]]:
    engine = Engine(resolve(build_registry(), build({"select": ["H004", "H005"]})))
    link = Link(page.url, Location("memo.md", 1, 1), LinkKind.BARE)
    return [(f.rule, f.evidence) for f in engine.check_pages([link], {page.url: page}, "memo.md")]


@pytest.mark.parametrize("chrome", [f"<header><nav><ul>{MENU}</ul></nav></header>",
                                    f"<div role='navigation'><ul>{MENU}</ul></div>"])
@pytest.mark.parametrize("notice", ["Regístrate gratis para seguir leyendo", "Register to read more",
                                    "Registrieren Sie sich kostenlos, um weiterzulesen"])
def test_a_registration_prompt_under_a_teaser_after_a_long_menu_is_found(chrome: str, notice: str) -> None:
    body = f"{chrome}<main><article><h1>The reform</h1>{TEASER}<div><p>{notice}</p></div></article></main>" \
           f"<footer><ul>{MENU}</ul></footer>"
    found = _rules(_page("The reform divides the government", body))
    assert [rule for rule, _ in found] == ["H004"] and found[0][1].startswith("access=registration;"), found


def test_a_sign_in_page_after_long_styles_is_a_login_wall() -> None:
    body = (f"<nav><ul>{MENU}</ul></nav><main><h1>Login to Your Account</h1><form><input name=email>"
            "<input type=password name=pw><button>Log in</button></form><p>Forgot your password?</p></main>")
    found = _rules(_page("Login to Your Account", body, "https://members.example.net/events/248885422/"))
    assert [rule for rule, _ in found] == ["H005"] and "Login to Your Account" in found[0][1]


def test_an_article_with_a_login_box_and_long_menus_stays_clean() -> None:
    article = "".join(f"<p>Paragraph {n}: freight volumes rose by rail and road in the quarter.</p>" for n in range(80))
    body = (f"<nav><ul>{MENU}</ul></nav><main><article><h1>Freight in the quarter</h1>{article}</article></main>"
            "<aside><form><input name=user><input type=password><button>Sign in</button></form></aside>"
            f"<footer>Already a subscriber? Sign in. {MENU}</footer>")
    assert _rules(_page("Freight in the quarter | News", body)) == []


def test_harvest_rejects_a_sign_in_page(tmp_path: Path) -> None:
    body = (f"<nav><ul>{MENU}</ul></nav><main><h1>Login to Your Account</h1><form><input name=email>"
            "<input type=password name=pw><button>Log in</button></form></main>")
    html = f"<!doctype html><html><head><title>Login to Your Account</title>{STYLE}</head><body>{body}</body></html>"
    with threaded_site({"/events/248885422/": SitePage(200, html)}) as site:
        (tmp_path / "urls.txt").write_text(f"http://{site.host}/events/248885422/\n")
        (tmp_path / "cfg.yaml").write_text("fetch: {allow: [127.0.0.1], no-cache: true}\n")
        result = CliRunner().invoke(__import__("citecheck.cli", fromlist=["main"]).main, [
            "harvest", "--urls", str(tmp_path / "urls.txt"), "-o", str(tmp_path / "corpus.json"),
            "--rejects", str(tmp_path / "rejects.json"), "--config", str(tmp_path / "cfg.yaml")])
    rejects = json.loads((tmp_path / "rejects.json").read_text())
    assert not (tmp_path / "corpus.json").exists() or json.loads((tmp_path / "corpus.json").read_text()) == [], \
        result.output
    assert "H005" in json.dumps(rejects), rejects
