"""The page rules on the labelled real pages (../shared/realworld/pages), in-process: the measured
floors of bench/realworld_pages.py, so that a regression in a rule or a pack fails here."""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
RECALL_FLOORS = {"bot-challenge": 1.0, "consent-wall": 1.0, "hard404-body": 1.0, "login-wall": 1.0,
                 "paywall": 1.0, "server-error": 1.0, "soft404": 1.0}
CLEAN_FLOORS = {"article": 1.0, "js-shell": 1.0}
PRECISION_FLOORS = {"H001": 1.0, "H003": 1.0, "H004": 1.0, "H005": 1.0, "H006": 1.0}


def _bench() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("realworld_pages", BENCH / "realworld_pages.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["realworld_pages"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    bench = _bench()
    if not (bench.PAGES / "MANIFEST.tsv").is_file():
        pytest.skip("../shared/realworld/pages is not beside this checkout")
    return bench.evaluate()  # type: ignore[no-any-return]


def test_every_labelled_page_is_evaluated(result: dict[str, Any]) -> None:
    assert result["pages"] == 56
    assert set(result["labels"]) == set(RECALL_FLOORS) | set(CLEAN_FLOORS)


@pytest.mark.parametrize("label", sorted(RECALL_FLOORS))
def test_recall_floor(result: dict[str, Any], label: str) -> None:
    assert result["labels"][label]["recall"] >= RECALL_FLOORS[label], result["labels"][label]


@pytest.mark.parametrize("label", sorted(CLEAN_FLOORS))
def test_clean_pages_stay_clean(result: dict[str, Any], label: str) -> None:
    noisy = [(p["path"], [f["rule"] for f in p["findings"]]) for p in result["per_page"]
             if p["label"] == label and p["findings"]]
    assert result["labels"][label]["clean_rate"] >= CLEAN_FLOORS[label], noisy


@pytest.mark.parametrize("rule", sorted(PRECISION_FLOORS))
def test_precision_floor(result: dict[str, Any], rule: str) -> None:
    row = result["rules"][rule]
    assert row["precision"] is not None and row["precision"] >= PRECISION_FLOORS[rule], row


def test_challenges_are_never_called_dead(result: dict[str, Any]) -> None:
    dead = {"H001", "H002", "H003"}  # H002 as an error (NXDOMAIN); its warning says unverifiable
    assert not [p["path"] for p in result["per_page"] if p["label"] == "bot-challenge"
                and dead & {f["rule"] for f in p["findings"] if f["rule"] != "H002" or f["severity"] == "error"}]


def test_paywall_metadata_on_a_free_page_is_not_a_paywall(result: dict[str, Any]) -> None:
    reuters = [p for p in result["per_page"] if p["label"] == "article" and "Reuters_2024" in p["path"]]
    assert reuters and not reuters[0]["findings"]


def test_served_over_loopback_gives_the_same_verdicts(result: dict[str, Any]) -> None:
    """Every page served from 127.0.0.1 and fetched by citecheck.fetch: the rules see the same facts."""
    import asyncio

    _bench()
    serve = importlib.import_module("realworld_serve")
    served = asyncio.run(serve.evaluate_served())
    verdicts = {p["path"]: sorted(f["rule"] for f in p["findings"]) for p in result["per_page"]}
    differing = {p["path"]: (verdicts[p["path"]], sorted(f["rule"] for f in p["findings"]))
                 for p in served["per_page"] if sorted(f["rule"] for f in p["findings"]) != verdicts[p["path"]]}
    assert not differing
