"""References without an identifier (reference lists, footnotes, .bib entries) found by registry
search against loopback stand-ins of Crossref's and arXiv's documented search APIs
(tests/searchfakes.py): verified, R002 mismatch, R005 unindexed (never "fabricated"), R003 when a
registry cannot answer."""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_net import ServerThread
from registryfakes import Work
from searchfakes import SearchingRegistries

from citecheck import audit
from citecheck.config import Config, build
from citecheck.extract import extract_document
from citecheck.models import Finding
from citecheck.scholarly.unlinked import search_terms, unlinked_references

RESNET = Work("Deep Residual Learning for Image Recognition",
              [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90")
LSTM = Work("Long Short-Term Memory", [("Sepp", "Hochreiter"), ("Jürgen", "Schmidhuber")], 1997,
            doi="10.1162/neco.1997.9.8.1735")
ADAM = Work("Adam: A Method for Stochastic Optimization", [("Diederik P.", "Kingma"), ("Jimmy", "Ba")], 2014,
            arxiv="1412.6980", agency="datacite")
GRIDS = Work("Global ocean heat content grids 1955-2020", [("Ana", "García-López")], 2021,
             doi="10.5281/zenodo.4567", agency="datacite")
WORKS = [RESNET, LSTM, ADAM, GRIDS]

MEMO = """# Memo

Residual networks help [1]. See the LSTM paper.[^lstm] Our firm likes Acme.[^acme]

## References

1. He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. CVPR.
2. Smith, J., & Doe, A. (2021). Quantum blockchain synergies for ocean heat forecasting. Journal of Everything.
3. Kingma, D. P., & Ba, J. (2014). Adam: A method for stochastic optimization. arXiv preprint.
4. Vaswani, A. (2016). Deep residual learning for image recognition. CVPR.
5. He, K., Zhang, X., Ren, S., & Sun, J. (2009). Deep residual learning for image recognition. CVPR.
6. Acme Robotics annual report 2023. https://www.acme-robotics.com/ar-2023

[^lstm]: Hochreiter, S., & Schmidhuber, J. (1997). Long short-term memory. Neural Computation.
[^acme]: Acme 10-K, 2023.
"""

BIB = """@inproceedings{he2016,
  title = {Deep Residual Learning for Image Recognition},
  author = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR}, year = {2016}
}
@article{ghost2022,
  title = {Neural Ocean Oracles for Quarterly Revenue Forecasting},
  author = {Ghost, Casper and Phantom, Paula},
  journal = {Journal of Invented Results}, year = {2022}
}
@misc{grids,
  title = {Global Ocean Heat Content Grids 1955--2020},
  author = {Garc{\'i}a-L{\'o}pez, Ana},
  publisher = {Zenodo}, year = {2019}
}
@article{lstmwrong,
  title = {Long Short-Term Memory},
  author = {Smith, John},
  journal = {Neural Computation}, year = {1997}
}
@misc{blog, title = {Our blog post about things}, url = {https://blog.example.org/x}, year = 2020}
"""


@pytest.fixture
def fake() -> Iterator[SearchingRegistries]:
    registries = SearchingRegistries(list(WORKS))
    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


def config_for(fake: SearchingRegistries, tmp_path: Path, timeout: float = 5, **extra: Any) -> Config:
    port = fake.base.rsplit(":", 1)[1]
    fetch = {"allow": [f"127.0.0.1:{port}"], "cache": str(tmp_path / "cache.sqlite"), "retries": 0, "timeout": timeout}
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed",
                                        "crossref-search", "crossref-search-polite", "dblp")}
    return build({"fetch": fetch, "scholarly": {"endpoints": fake.endpoints(), "pace": pace, **extra}})


def found(paths: list[str], config: Config) -> list[Finding]:
    return [f for f in audit(paths, config, online=True).findings if f.rule.startswith("R")]


def test_reference_items_are_read_and_prose_is_not() -> None:
    refs = unlinked_references(extract_document("m.md", MEMO))
    got = [(r.location.line, search_terms(r.identifier)) for r in refs]
    assert got == [
        (7, ("Deep residual learning for image recognition", "he", 2016)),
        (8, ("Quantum blockchain synergies for ocean heat forecasting", "smith", 2021)),
        (9, ("Adam: A method for stochastic optimization", "kingma", 2014)),
        (10, ("Deep residual learning for image recognition", "vaswani", 2016)),
        (11, ("Deep residual learning for image recognition", "he", 2009)),
        (14, ("Long short-term memory", "hochreiter", 1997)),
    ], got


def test_memo_reference_list_verdicts(fake: SearchingRegistries, tmp_path: Path) -> None:
    path = tmp_path / "memo.md"
    path.write_text(MEMO, encoding="utf-8")
    findings = found([str(path)], config_for(fake, tmp_path))
    got = sorted((f.line, f.rule) for f in findings)
    assert got == [(8, "R005"), (10, "R002"), (11, "R002")], [(f.line, f.rule, f.message) for f in findings]
    assert all("fabricated" not in f.message or "not proven fabricated" in f.message for f in findings)


def test_bib_entries_verified_by_search(fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    findings = found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path))
    got = sorted((f.line, f.rule) for f in findings)
    # ghost2022 unindexed; the grids dataset found in DataCite with another year; lstmwrong's authors
    assert got == [(6, "R005"), (11, "R002"), (16, "R002")], [(f.line, f.rule, f.message) for f in findings]
    assert "year" in next(f for f in findings if f.line == 11).message
    mismatch = next(f for f in findings if f.line == 16)
    assert "Hochreiter" in mismatch.evidence and "Hochreiter" in mismatch.fix


@pytest.mark.parametrize("failure", [(429, {"Retry-After": "0"}), (503, {}),
                                     pytest.param("timeout", marks=pytest.mark.slow)])
def test_search_that_cannot_answer_is_unverifiable(fake: SearchingRegistries, tmp_path: Path, failure: Any) -> None:
    fake.fail["crossref-search"] = failure
    fake.stall = 8.0
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    config = config_for(fake, tmp_path, timeout=2)  # the client gives up long before the stall ends
    findings = found([str(tmp_path / "refs.bib")], config)
    rules = {f.line: f.rule for f in findings}
    # Crossref could not answer and arXiv has none of them: unverifiable, never unindexed or not found
    assert rules == {1: "R003", 6: "R003", 11: "R002", 16: "R003"}  # DataCite still answered for the grids


def test_datacite_search_failure_is_unverifiable(fake: SearchingRegistries, tmp_path: Path) -> None:
    fake.fail["datacite-search"] = (503, {})
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    rules = {f.line: f.rule for f in found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path))}
    assert rules[6] == "R003" and rules[11] == "R003" and 1 not in rules and rules[16] == "R002"


def test_dblp_is_opt_in(fake: SearchingRegistries, tmp_path: Path) -> None:
    fake.works.append(Work("Efficient Widget Routing in Datacenter Networks", [("Lin", "Zhou")], 2019, doi="10.1145/xyz",
                           agency="dblp", venue="SIGCOMM"))
    (tmp_path / "refs.bib").write_text("@inproceedings{zhou2019, title = {Efficient widget routing in datacenter "
                                       "networks}, author = {Zhou, Lin}, booktitle = {SIGCOMM}, year = 2019}\n",
                                       encoding="utf-8")
    by_default = found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path))
    assert [f.rule for f in by_default] == ["R005"] and not fake.asked("dblp")
    opted = found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path, search=["crossref", "dblp"]))
    assert opted == [] and len(fake.asked("dblp")) == 1
    fake.fail["dblp"] = (503, {})
    failing = found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path / "x", search=["dblp"]))
    assert [f.rule for f in failing] == ["R003"]


def test_arxiv_search_failure_is_unverifiable(fake: SearchingRegistries, tmp_path: Path) -> None:
    fake.fail["arxiv"] = (503, {})
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    rules = {f.line: f.rule for f in found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path))}
    assert rules[6] == "R003" and 1 not in rules


def test_second_run_asks_nothing(fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    config = config_for(fake, tmp_path)
    first = found([str(tmp_path / "refs.bib")], config)
    asked = len(fake.log)
    again = found([str(tmp_path / "refs.bib")], config)
    assert asked > 0 and len(fake.log) == asked and [f.rule for f in again] == [f.rule for f in first]


def test_quarto_memo_end_to_end_keys_entries_and_links(fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "memo.qmd").write_text(
        "---\ntitle: Memo\nbibliography: refs.bib\n---\n\nResidual nets [@he2016], ghosts [@ghost2022; @casper2023].\n"
        "See [the lab](https://lab.example/notes).\n", encoding="utf-8")
    report = audit([str(tmp_path / "memo.qmd")], config_for(fake, tmp_path), online=True)
    got = sorted((Path(f.path).name, f.line, f.rule) for f in report.findings if f.rule[0] in "MRBU")
    assert ("memo.qmd", 6, "M012") in got  # the key the bibliography lacks
    assert ("refs.bib", 6, "R005") in got and ("refs.bib", 16, "R002") in got  # its entries, searched
    assert ("memo.qmd", 7, "U001") in got  # its links: lab.example is a reserved domain
    assert not any(rule == "R001" for _, _, rule in got)


@pytest.mark.slow
def test_crossref_search_is_paced_at_one_per_second(fake: SearchingRegistries, tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    port = fake.base.rsplit(":", 1)[1]
    config = build({"fetch": {"allow": [f"127.0.0.1:{port}"], "no-cache": True, "retries": 0, "timeout": 5},
                    "scholarly": {"endpoints": fake.endpoints(), "pace": {"arxiv": [0.0, 1]}}})
    audit([str(tmp_path / "refs.bib")], config, online=True)
    times = [t for registry, _q, t, _p in fake.log if registry == "crossref-search"]
    assert len(times) == 4 and all(b - a >= 0.95 for a, b in itertools.pairwise(times)), times


def test_searches_past_the_run_budget_are_unverifiable_not_skipped(fake: SearchingRegistries, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import citecheck.registries.search as search_module

    monkeypatch.setattr(search_module, "MAX_SEARCHES", 1)
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    findings = found([str(tmp_path / "refs.bib")], config_for(fake, tmp_path))
    budget = [f for f in findings if f.rule == "R003"]
    assert len(budget) == 3 and all("not searched" in f.message for f in budget)
    assert len(fake.asked("crossref-search")) == 1


def test_searched_references_are_scored_like_links(fake: SearchingRegistries, tmp_path: Path) -> None:
    path = tmp_path / "memo.md"
    path.write_text(MEMO, encoding="utf-8")
    report = audit([str(path)], config_for(fake, tmp_path), online=True)
    verdicts = report.summary["verdicts"]
    # six searched items (three verified, one unindexed, two contradicted by their record) and item 6's
    # link, whose page this sandbox cannot fetch (unverifiable)
    assert sum(verdicts.values()) == report.summary["citations"] == 7, verdicts
    assert verdicts == {"ok": 3, "title-mismatch": 2, "unverifiable": 2}, verdicts
