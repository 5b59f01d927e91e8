"""A harvest project around the loopback site (harvestsite.py): the directory and outline files, a
config, `citecheck harvest` through click's runner, and the small corpus the merge tests re-harvest."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from harvestsite import Page, Restartable, Site, article

from citecheck.config import Config, build


def directory_yaml(site: Site, extra_reports: str = "") -> str:
    u = site.url
    return f"""sources:
  - name: Statistics Office
    domain: 127.0.0.1
    reports:
      - {{url: "{u('/stats/road-freight-2023')}", title: "Road freight transport statistics 2023", topics: [road freight statistics]}}
      - {{url: "{u('/stats/removed-report')}", title: "Road freight annual report 2019", topics: [road freight statistics]}}
      - {{url: "{u('/stats/old-table')}", title: "Road freight statistics table", topics: [road freight statistics]}}
      - {{url: "{u('/stats/goods-transport')}", title: "Goods transport by road in Germany", topics: [road freight statistics]}}
      - {{url: "https://example.com/road-freight-outlook", title: "Road freight outlook", topics: [road freight statistics]}}
{extra_reports}  - name: Trade Press
    domain: 127.0.0.1
    reports:
      - {{url: "{u('/news/carrier-ranking')}", title: "Europe's largest road carriers ranked", topics: [carrier market news]}}
      - {{url: "{u('/news/spot-rates')}", title: "Spot freight rates between Germany and Poland", topics: [carrier market news]}}
  - name: Law Library
    domain: 127.0.0.1
    search: "{u('/search')}?q={{query}}"
    reports:
      - {{url: "{u('/law/recycled-slug')}", title: "Mobility Package II cabotage rules explained", topics: [mobility package rules]}}
"""


OUTLINE = """title: Northwind Freight memo
company: {name: Northwind Freight, geographies: [DE, PL]}
providers: [directory]
directory: directory.yaml
sections:
  - id: market
    title: Market size
    queries: [road freight statistics]
    preferred_sources: [Statistics Office]
  - id: competition
    title: Competitors
    queries: [carrier market news]
    preferred_sources: [Trade Press]
  - id: regulation
    title: Regulation
    queries: [mobility package rules]
    preferred_sources: [Law Library]
"""


def config(tmp_path: Path, **fetch: Any) -> Config:
    return build({"harvest": {},
                  "fetch": {"allow": ["127.0.0.1"], "cache": str(tmp_path / "cache.sqlite"), "timeout": 10,
                            "retries": 0, **fetch}})


def paths(urls: Any) -> set[str]:
    return {"/" + u.split("/", 3)[3] for u in urls}


CONFIG = "fetch:\n  allow: ['127.0.0.1']\n  timeout: 10\n  retries: 0\n  cache: {cache}\n"


def cli(*args: str) -> Result:
    from citecheck.cli import main

    return CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, ["harvest", *args])


def project(tmp_path: Path, site: Site, outline: str = OUTLINE) -> list[str]:
    (tmp_path / "directory.yaml").write_text(directory_yaml(site))
    (tmp_path / "outline.yaml").write_text(outline)
    (tmp_path / "cfg.yaml").write_text(CONFIG.format(cache=tmp_path / "cache.sqlite"))
    return [str(tmp_path / "outline.yaml"), "--config", str(tmp_path / "cfg.yaml"), "-o", str(tmp_path / "corpus.json")]


def pages() -> dict[str, Page]:
    return {"/a": Page(200, article("Road freight statistics 2023", "EU road freight grew 2 per cent in 2023.")),
            "/b": Page(200, article("Goods transport by road in Germany", "German hauliers carried 3.1 bn t.")),
            "/c": Page(200, article("Spot freight rates DE-PL", "Spot rates on the DE-PL lanes rose 4 per cent.")),
            "/d": Page(200, article("Cabotage rules explained", "The Mobility Package changed cabotage rules."))}


def listing(server: Restartable, tmp_path: Path, *paths: str) -> Path:
    titles = {p: server.site.pages[p].html.split("<title>")[1].split("</title>")[0] for p in paths}
    file = tmp_path / "Sources.md"
    file.write_text("".join(f"- [{titles[p]}]({server.site.url(p)})\n" for p in paths))
    return file


def harvest(server: Restartable, tmp_path: Path, listed: Path, *extra: str) -> Result:
    return cli("--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", server.site.host,
               "--cache", str(tmp_path / "cache.sqlite"), "--report", str(tmp_path / "report.html"), *extra)


def ids(tmp_path: Path) -> dict[str, str]:
    return {"/" + e["url"].split("/", 3)[3]: e["id"] for e in json.loads((tmp_path / "corpus.json").read_text())}
