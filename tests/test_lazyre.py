"""`citecheck.lazyre.lazy`: a pattern compiled on first use behaves as the compiled pattern."""
from __future__ import annotations

import importlib
import pickle
import pkgutil
import re

import pytest

import citecheck
from citecheck.lazyre import LazyPattern, lazy


def test_nothing_is_compiled_until_the_pattern_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: compiled.append(a[0]) or real(*a))
    pattern = lazy(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    assert compiled == []
    assert pattern.search("see ABC-12 and x-3").group("word") == "ABC"
    assert [m.group(0) for m in pattern.finditer("a-1 b-2")] == ["a-1", "b-2"]
    assert pattern.sub("#", "a-1 b") == "# b" and pattern.split("a-1 b", maxsplit=1) == ["", "a", "1", " b"]
    assert (pattern.pattern, pattern.flags & re.IGNORECASE, pattern.groups, pattern.groupindex["word"]) == (
        r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE, 2, 1)
    assert compiled == [r"(?P<word>[a-z]+)-(\d+)"]  # once


def test_it_pickles_and_reports_a_bad_pattern_when_used() -> None:
    pattern = lazy(r"x+", re.ASCII)
    assert pickle.loads(pickle.dumps(pattern)).fullmatch("xxx") is not None
    pattern.match("x")
    assert pickle.loads(pickle.dumps(pattern)).fullmatch("xy") is None
    broken = lazy(r"(unclosed")
    with pytest.raises(re.error):
        broken.search("text")


def test_every_lazy_pattern_in_citecheck_compiles() -> None:
    """A typo in a lazy pattern would otherwise surface only when a run first uses it."""
    found = 0
    for info in pkgutil.walk_packages(citecheck.__path__, "citecheck."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, LazyPattern):
                re.compile(*value._args)
                found += 1
    assert found >= 21
