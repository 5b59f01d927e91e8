"""`harvest --bib FILE` (issue #28 item 5): the entries of a bibliography that verify become corpus
sources with their identifier and record, stable src-NNN IDs, and the same gate; the others are
dropped and reported with their reason (R001, R002, R005, R003, nothing to verify), against loopback
stand-ins of the registries' documented APIs (tests/registryfakes.py, tests/searchfakes.py)."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hostile_net import ServerThread
from registryfakes import Work
from searchfakes import SearchingRegistries

from citecheck.config import Config, build
from citecheck.harvest import harvest_async

LONG = "We study examples at length, with experiments on many benchmarks and a careful analysis of what works. " * 3
RESNET = Work("Deep Residual Learning for Image Recognition",
              [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90", venue="CVPR", abstract=LONG)
LSTM = Work("Long Short-Term Memory", [("Sepp", "Hochreiter"), ("Jürgen", "Schmidhuber")], 1997,
            doi="10.1162/neco.1997.9.8.1735", venue="Neural Computation", abstract=LONG)
ATTENTION = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv="1706.03762",
                 abstract=LONG)

BIB = """@inproceedings{he2016,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}, doi = {10.1109/CVPR.2016.90}
}
@article{hochreiter1997,
  title = {Long Short-Term Memory},
  author = {Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen},
  journal = {Neural Computation}, year = {1997}
}
@misc{vaswani2017,
  title = {Attention Is All You Need}, author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}
}
@article{wrong1997,
  title = {Long Short-Term Memory},
  author = {Smith, John}, journal = {Neural Computation}, year = {1997}
}
@article{ghost2022,
  title = {Neural Ocean Oracles for Quarterly Revenue Forecasting},
  author = {Ghost, Casper}, journal = {Journal of Invented Results}, year = {2022}
}
@article{fakedoi,
  title = {A Survey of Everything}, author = {Doe, Jane}, year = {2021}, doi = {10.9999/fabricated.2021.001}
}
@misc{blog, title = {Our blog post about things}, url = {https://blog.example.org/x}, year = 2020}
@book{short, title = {Notes}}
"""


@pytest.fixture
def fake() -> Iterator[SearchingRegistries]:
    registries = SearchingRegistries([RESNET, LSTM, ATTENTION])
    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


def settings(fake: SearchingRegistries, tmp_path: Path) -> dict[str, Any]:
    port = fake.base.rsplit(":", 1)[1]
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed",
                                        "crossref-search", "crossref-search-polite")}
    return {"harvest": {}, "fetch": {"allow": [f"127.0.0.1:{port}"], "cache": str(tmp_path / "c.sqlite"), "retries": 0,
                                     "timeout": 5},
            "scholarly": {"endpoints": fake.endpoints(), "pace": pace}}


def config_for(fake: SearchingRegistries, tmp_path: Path) -> Config:
    return build(settings(fake, tmp_path))


async def test_verified_entries_become_sources_and_the_rest_are_dropped_with_their_reason(
        fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    result = await harvest_async(None, bibliographies=[str(tmp_path / "refs.bib")], config=config_for(fake, tmp_path),
                                 extract_workers=0, min_excerpt=100)
    by_key = {s.retrieval_query: s for s in result.corpus}
    assert sorted(by_key) == ["@he2016", "@hochreiter1997", "@vaswani2017"], [r.to_dict() for r in result.rejects]
    he, lstm, attention = by_key["@he2016"], by_key["@hochreiter1997"], by_key["@vaswani2017"]
    assert (he.id, lstm.id, attention.id) == ("src-001", "src-002", "src-003")
    assert he.url == "https://doi.org/10.1109/cvpr.2016.90" and he.extra["identifier"] == "doi:10.1109/cvpr.2016.90"
    assert he.extra["authors"][0] == "He, Kaiming" and he.extra["year"] == 2016 and he.extra["venue"] == "CVPR"
    assert lstm.url == "https://doi.org/10.1162/neco.1997.9.8.1735"  # found by search: cited by the record's DOI
    assert attention.extra["identifier"] == "arxiv:1706.03762" and attention.body_excerpt.startswith("We study")
    assert all(s.section == "refs" and s.retrieval_tool.startswith("bibliography:") for s in result.corpus)
    rejected = {r.found.candidate.query: (r.reasons[0].rule or r.reasons[0].name) for r in result.rejects}
    assert rejected == {"@wrong1997": "R002", "@ghost2022": "R005", "@fakedoi": "R001", "@blog": "U001",
                        "@short": "nothing-to-verify"}, rejected
    ghost = next(r for r in result.rejects if r.found.candidate.query == "@ghost2022")
    assert ghost.reasons[0].severity.value == "warning" and "fabricated" not in ghost.reasons[0].message.replace(
        "not proven fabricated", "")
    assert ghost.found.location.line == 19  # the entry's @type{key, line
    assert result.stats["fetched"] == 0  # no landing page of a scholarly entry was requested


async def test_a_registry_that_cannot_answer_drops_the_entry_as_unverifiable(fake: SearchingRegistries,
                                                                               tmp_path: Path) -> None:
    fake.fail["crossref-search"] = (503, {})
    fake.fail["arxiv"] = (503, {})
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    result = await harvest_async(None, bibliographies=[str(tmp_path / "refs.bib")], config=config_for(fake, tmp_path),
                                 extract_workers=0, min_excerpt=100)
    rejected = {r.found.candidate.query: r.reasons[0].rule or r.reasons[0].name for r in result.rejects}
    assert rejected["@hochreiter1997"] == "R003" and rejected["@ghost2022"] == "R003" and rejected["@vaswani2017"] == "R003"
    assert [s.retrieval_query for s in result.corpus] == ["@he2016"]  # its DOI answered by Crossref's /works/{DOI}


@pytest.mark.slow
def test_cli_imports_a_bib_and_a_second_run_keeps_the_ids(fake: SearchingRegistries, tmp_path: Path) -> None:
    from citecheck.cli import main

    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps({**settings(fake, tmp_path), "harvest": {"min_excerpt": 100}}), encoding="utf-8")
    port = fake.base.rsplit(":", 1)[1]
    args = ["harvest", "--bib", str(tmp_path / "refs.bib"), "-o", str(tmp_path / "corpus.json"), "--config", str(config),
            "--allow", f"127.0.0.1:{port}", "--rejects", str(tmp_path / "rejects.json"), "-q"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [(s["id"], s["retrieval_query"]) for s in corpus] == [("src-001", "@he2016"), ("src-002", "@hochreiter1997"),
                                                                 ("src-003", "@vaswani2017")]
    rejects = json.loads((tmp_path / "rejects.json").read_text())["rejects"]
    assert {r["retrieval_query"] for r in rejects} == {"@wrong1997", "@ghost2022", "@fakedoi", "@blog", "@short"}
    (tmp_path / "refs.bib").write_text(BIB.replace("@inproceedings{he2016", "@inproceedings{he2016b"), encoding="utf-8")
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert [s["id"] for s in json.loads((tmp_path / "corpus.json").read_text())] == ["src-001", "src-002", "src-003"]


def test_cli_refuses_a_bib_that_cannot_be_read(tmp_path: Path) -> None:
    from citecheck.cli import main

    result = CliRunner().invoke(main, ["harvest", "--bib", str(tmp_path / "missing.bib"), "-o", str(tmp_path / "c.json")])
    assert result.exit_code == 2 and "Traceback" not in result.output


async def test_a_csl_json_bibliography_is_imported_too(fake: SearchingRegistries, tmp_path: Path) -> None:
    items = [{"id": "he2016", "type": "paper-conference", "title": "Deep Residual Learning for Image Recognition",
              "author": [{"family": "He", "given": "Kaiming"}], "issued": {"date-parts": [[2016]]},
              "DOI": "10.1109/CVPR.2016.90"},
             {"id": "ghost", "type": "article-journal", "title": "Neural Ocean Oracles for Quarterly Revenue Forecasting",
              "author": [{"family": "Ghost", "given": "Casper"}], "issued": {"date-parts": [[2022]]}}]
    (tmp_path / "refs.json").write_text(json.dumps(items, indent=2), encoding="utf-8")
    result = await harvest_async(None, bibliographies=[str(tmp_path / "refs.json")], config=config_for(fake, tmp_path),
                                 extract_workers=0, min_excerpt=100)
    assert [(s.id, s.retrieval_query, s.extra["identifier"]) for s in result.corpus] == [
        ("src-001", "@he2016", "doi:10.1109/cvpr.2016.90")]
    assert [(r.found.candidate.query, r.reasons[0].rule) for r in result.rejects] == [("@ghost", "R005")]


async def test_entries_on_one_line_each_keep_their_own_claim(fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{lstm, title = {Long Short-Term Memory}, author = {Hochreiter, Sepp}, year = 1997} "
        "@article{ghost, title = {Neural Ocean Oracles for Quarterly Revenue Forecasting}, author = {Ghost, Casper}, "
        "year = 2022}\n", encoding="utf-8")
    result = await harvest_async(None, bibliographies=[str(tmp_path / "refs.bib")], config=config_for(fake, tmp_path),
                                 extract_workers=0, min_excerpt=100)
    assert [s.retrieval_query for s in result.corpus] == ["@lstm"]
    assert [(r.found.candidate.query, r.reasons[0].rule) for r in result.rejects] == [("@ghost", "R005")]
