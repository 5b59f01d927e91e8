"""Semantic Scholar and OpenAlex as opt-in registries (docs/scholarly.md), against loopback stand-ins
of their documented APIs (tests/keyedfakes.py): the key from the environment only (without it: one
warning line, the registry is skipped), a work only they know is verified, a contradicted field is
R002, a registered DOI no other registry describes gets their record, and 429/503/timeout is R003,
never R001 or R005."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_net import ServerThread
from keyedfakes import OPENALEX_KEY, S2_KEY, KeyedRegistries
from registryfakes import Work

from citecheck import audit
from citecheck.config import Config, build
from citecheck.models import Finding

ENV = {"semanticscholar": ("SEMANTIC_SCHOLAR_API_KEY", S2_KEY), "openalex": ("OPENALEX_API_KEY", OPENALEX_KEY)}
ONLY = {"semanticscholar": "s2", "openalex": "openalex"}


def widget(agency: str) -> Work:
    return Work("Efficient Widget Routing in Datacenter Networks", [("Lin", "Zhou"), ("Mara", "Kask")], 2019,
                doi=f"10.5555/widget.{agency}", agency=agency, venue="Proceedings of Widget Systems")


BIB = """@inproceedings{zhou2019,
  title = {Efficient widget routing in datacenter networks},
  author = {Zhou, Lin and Kask, Mara}, booktitle = {Widget Systems}, year = 2019
}
@inproceedings{wrong2019,
  title = {Efficient widget routing in datacenter networks},
  author = {Smith, John}, booktitle = {Widget Systems}, year = 2019
}
"""


@pytest.fixture
def fake() -> Iterator[KeyedRegistries]:
    registries = KeyedRegistries([widget("s2"), widget("openalex")])
    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, _ in ENV.values():
        monkeypatch.delenv(variable, raising=False)


def config_for(fake: KeyedRegistries, tmp_path: Path, search: list[str], **fetch: Any) -> Config:
    port = fake.base.rsplit(":", 1)[1]
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed", "crossref-search",
                                        "crossref-search-polite", "dblp", "semanticscholar", "openalex")}
    return build({"fetch": {"allow": [f"127.0.0.1:{port}"], "cache": str(tmp_path / "cache.sqlite"), "retries": 0,
                            "timeout": 5, **fetch},
                  "scholarly": {"endpoints": fake.endpoints(), "pace": pace, "search": search}})


def found(paths: list[str], config: Config) -> list[Finding]:
    return [f for f in audit(paths, config, online=True).findings if f.rule.startswith("R")]


def bib(tmp_path: Path, agency: str) -> str:
    path = tmp_path / "refs.bib"
    path.write_text(BIB.replace("Widget Systems", f"Widget Systems {agency}"), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("registry", ["semanticscholar", "openalex"])
def test_without_a_key_the_registry_says_so_once_and_is_skipped(fake: KeyedRegistries, tmp_path: Path, registry: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    findings = found([bib(tmp_path, registry)], config_for(fake, tmp_path, ["crossref", registry]))
    assert sorted(f.rule for f in findings) == ["R005", "R005"]  # not in Crossref; the keyed registry was not asked
    assert not fake.asked(registry)
    lines = [line for line in capsys.readouterr().err.splitlines() if ENV[registry][0] in line]
    assert len(lines) == 1 and "skipped" in lines[0] and ENV[registry][1] not in lines[0]


@pytest.mark.parametrize("registry", ["semanticscholar", "openalex"])
def test_with_a_key_a_work_only_it_knows_is_verified_and_a_wrong_author_contradicted(
        fake: KeyedRegistries, tmp_path: Path, registry: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(*ENV[registry])
    findings = found([bib(tmp_path, registry)], config_for(fake, tmp_path, ["crossref", registry]))
    assert [(f.line, f.rule) for f in findings] == [(5, "R002")], [(f.line, f.rule, f.message) for f in findings]
    assert "Zhou" in findings[0].fix
    assert len(fake.asked(registry)) == 2  # one search per entry, the key sent as documented
    if registry == "semanticscholar":
        assert all(h.get("x-api-key") == S2_KEY for h in fake.headers_seen)
    else:
        assert all(f"api_key={OPENALEX_KEY}" in q for q in fake.asked("openalex"))
        assert all("filter=title.search" in q and "sort=relevance_score" in q for q in fake.asked("openalex"))
    # the key is never written into the cache, the findings or their evidence
    assert ENV[registry][1].encode() not in (tmp_path / "cache.sqlite").read_bytes()
    assert not any(ENV[registry][1] in f"{f.message}{f.evidence}{f.fix}" for f in findings)


@pytest.mark.parametrize("registry", ["semanticscholar", "openalex"])
def test_second_run_asks_nothing(fake: KeyedRegistries, tmp_path: Path, registry: str,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(*ENV[registry])
    config = config_for(fake, tmp_path, ["crossref", registry])
    first = found([bib(tmp_path, registry)], config)
    asked = len(fake.log)
    assert [f.rule for f in found([bib(tmp_path, registry)], config)] == [f.rule for f in first] and len(fake.log) == asked


@pytest.mark.parametrize("registry", ["semanticscholar", "openalex"])
@pytest.mark.parametrize("failure", [(429, {"Retry-After": "0"}), (503, {}), pytest.param("timeout", marks=pytest.mark.slow)])
def test_a_registry_that_cannot_answer_gives_unverifiable(fake: KeyedRegistries, tmp_path: Path, registry: str,
                                                          failure: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(*ENV[registry])
    fake.fail[registry] = failure
    fake.stall = 8.0
    findings = found([bib(tmp_path, registry)], config_for(fake, tmp_path, [registry], timeout=2))
    assert [f.rule for f in findings] == ["R003", "R003"], [(f.rule, f.message) for f in findings]
    assert all("not found" not in f.message for f in findings)


@pytest.mark.parametrize("registry", ["semanticscholar", "openalex"])
def test_a_registered_doi_no_other_registry_describes_gets_their_record(fake: KeyedRegistries, tmp_path: Path,
                                                                        registry: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    doi = f"10.5555/widget.{ONLY[registry]}"
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\n## References\n\n1. Smith, J. (2019). Efficient widget routing in datacenter networks. "
                    f"doi:{doi}\n", encoding="utf-8")
    config = config_for(fake, tmp_path, ["crossref", registry])
    without = found([str(memo)], config)  # no key: registered, no metadata anywhere while the memo claims fields
    assert [f.rule for f in without] == ["R003"] and not fake.asked(registry)
    monkeypatch.setenv(*ENV[registry])
    with_key = found([str(memo)], config_for(fake, tmp_path / "k", ["crossref", registry]))
    assert [f.rule for f in with_key] == ["R002"] and "Zhou" in with_key[0].fix
    assert any("DOI" in q or "doi:" in q for q in fake.asked(registry))


def test_config_accepts_the_new_registries_and_rejects_unknown_ones() -> None:
    from citecheck.errors import ConfigError

    config = build({"scholarly": {"search": ["crossref", "openalex", "semanticscholar"],
                                  "endpoints": {"openalex": "http://mirror.example/oa"}}})
    assert config.scholarly.search == ("crossref", "openalex", "semanticscholar")
    assert config.scholarly.endpoints["openalex"] == "http://mirror.example/oa"
    with pytest.raises(ConfigError):
        build({"scholarly": {"search": ["google-scholar"]}})


@pytest.mark.slow
@pytest.mark.parametrize("registry,span", [("semanticscholar", 2.85), ("openalex", 0.25)])
def test_each_registry_keeps_its_documented_pace(fake: KeyedRegistries, tmp_path: Path, registry: str, span: float,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Four searches, starts 1 s (Semantic Scholar) or 0.1 s (OpenAlex) apart: measured as their arrivals'
    span at the stand-in (3 intervals, less some connection jitter on a loaded machine)."""
    monkeypatch.setenv(*ENV[registry])
    port = fake.base.rsplit(":", 1)[1]
    config = build({"fetch": {"allow": [f"127.0.0.1:{port}"], "no-cache": True, "retries": 0, "timeout": 5},
                    "scholarly": {"endpoints": fake.endpoints(), "search": [registry]}})
    path = tmp_path / "refs.bib"
    path.write_text("".join(f"@article{{k{n}, title = {{Widget routing study number {n}}}, author = {{Zhou, Lin}}, "
                            f"year = 2019}}\n" for n in range(4)), encoding="utf-8")
    audit([str(path)], config, online=True)
    times = sorted(t for name, _q, t, _p in fake.log if name == registry)
    assert len(times) == 4 and times[-1] - times[0] >= span, times


def test_when_no_listed_registry_has_its_key_nothing_is_called_unindexed(fake: KeyedRegistries, tmp_path: Path) -> None:
    findings = found([bib(tmp_path, "s2")], config_for(fake, tmp_path, ["semanticscholar", "openalex"]))
    assert [f.rule for f in findings] == ["R003", "R003"] and all("no registry to search" in f.message for f in findings)
    assert not fake.log  # nothing was asked, so nothing may be called absent
