"""Extraction stays fast and linear: a 5,000-link memo, and directories of many memos.

Bounds are CPU seconds with generous headroom for a busy machine; bench/offline_bench.py gives the
real figures (docs/extraction.md)."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from types import ModuleType

import pytest

from citecheck.extract import collect, extract_document

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("offline_bench", ROOT / "bench" / "offline_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_5000_link_memo_extracts_every_link_quickly() -> None:
    memo = _bench().make_memo(5000)
    extract_document("memo.md", memo)  # warm caches (tldextract, regexes)
    started = time.process_time()
    document = extract_document("memo.md", memo)
    elapsed = time.process_time() - started
    assert len(document.links) == 5000
    assert elapsed < 3.0, f"{elapsed:.2f} CPU s for 5,000 links"


def _folder(root: Path, count: int) -> Path:
    folder = root / f"dir-{count}"
    folder.mkdir()
    make_memo = _bench().make_memo
    for i in range(count):
        (folder / f"memo-{i:03d}.md").write_text(make_memo(25, seed=i), encoding="utf-8")
    return folder


def _cpu(folder: Path) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        inputs = collect([str(folder)])
        best = min(best, time.process_time() - started)
    assert sum(len(d.links) for d in inputs.documents) == 25 * len(inputs.documents)
    return best


@pytest.mark.slow
def test_many_files_scale_linearly(tmp_path: Path) -> None:
    small, large = _folder(tmp_path, 25), _folder(tmp_path, 100)
    _cpu(small)
    ratio = _cpu(large) / _cpu(small)
    # linear is 4x, quadratic 16x; the bound sits between them, clear of a busy machine's noise
    assert ratio < 8.0, f"100 files took {ratio:.1f}x the time of 25"
