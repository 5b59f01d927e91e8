"""M008's passage ranker is a plugin: an entry point in `citecheck.verifiers`, loaded by the engine."""
from __future__ import annotations

import importlib.metadata as md
from collections.abc import Sequence
from typing import Any

import pytest
from rulecases import run_case

from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.select import resolve
from citecheck.errors import ConfigError

CASE = {"rule": "M008", "name": "bad_unrelated_source",
        "input": "Some text. The company holds many patents on battery chemistry [src-003].\n",
        "corpus": [{"id": "src-003", "url": "https://www.weather.com/paris", "title": "Paris weather",
                    "body_excerpt": "Paris will be sunny all week with mild temperatures and light winds."}]}


class Believer:
    """A stand-in for an NLI model that finds every first passage convincing."""

    def best(self, claim: str, passages: Sequence[str]) -> tuple[int, float]:
        return 0, 1.0


def _with_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    real = md.entry_points
    fake = md.EntryPoint("believer", f"{__name__}:Believer", "citecheck.verifiers")

    def entry_points(**kw: Any) -> Any:
        found = real(**kw)
        return [*found, fake] if kw.get("group") == "citecheck.verifiers" else found
    monkeypatch.setattr(md, "entry_points", entry_points)


def test_default_lexical_verifier_is_loaded() -> None:
    m008 = next(r for r in resolve(build_registry(), build({})) if r.spec.id == "M008")
    assert type(m008.options["verifier"]).__name__ == "LexicalVerifier"


def test_a_plugged_in_verifier_changes_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [f.rule for f in run_case(CASE)] == ["M008"]  # lexical: low overlap
    _with_plugin(monkeypatch)
    assert run_case({**CASE, "options": {"verifier": "believer"}}) == []


def test_unknown_verifier_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"no citecheck\.verifiers plugin named 'nli-large'"):
        resolve(build_registry(), build({"rules": {"M008": {"options": {"verifier": "nli-large"}}}}))
