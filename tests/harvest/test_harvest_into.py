"""`citecheck.harvest.harvest_into` is what `citecheck harvest -o` does: the same outline, search
providers (the directory and a site search, on a loopback web) and configuration give the same corpus,
`.ids` registry, rejects and per-section corpora, on a first harvest and on a merge into the result;
both finish an interrupted run's journal first and refuse a corpus another process holds."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harvestkit import CONFIG, OUTLINE, cli, directory_yaml
from harvestsite import threaded_site

from citecheck.config import load_config
from citecheck.errors import UsageError
from citecheck.harvest import CorpusBusyError, corpus_lock, harvest_into
from citecheck.harvest.transaction import journal_path

WHEN = ("fetched_at", "last_verified", "retired_at", "generated_at", "duration_s")  # the clock, not the harvest


def _project(folder: Path, directory: str) -> Path:
    folder.mkdir()
    (folder / "directory.yaml").write_text(directory)
    (folder / "outline.yaml").write_text(OUTLINE)
    (folder / "cfg.yaml").write_text(CONFIG.format(cache=folder / "cache.sqlite"))  # each its own: both fetch
    return folder


def _cli(folder: Path) -> int:
    result = cli(str(folder / "outline.yaml"), "--config", str(folder / "cfg.yaml"), "-o", str(folder / "corpus.json"),
                 "--gate", "strict", "--rejects", str(folder / "rejects.json"), "--per-section", str(folder / "sections"),
                 "-q")
    assert "Traceback" not in result.output, result.output
    return result.exit_code


def _library(folder: Path) -> int:
    result = harvest_into(folder / "corpus.json", folder / "outline.yaml", config=load_config(folder / "cfg.yaml"),
                          gate="strict", rejects_path=folder / "rejects.json", per_section_dir=folder / "sections")
    return result.exit_code


def _written(folder: Path) -> dict[str, Any]:
    names = ["corpus.json", "corpus.json.ids", "rejects.json", *(f"sections/{p.name}" for p in
                                                                 sorted((folder / "sections").glob("*.json")))]
    # each project's own folder (the outline's path in the rejects' origins) is the one difference allowed
    return {name: _timeless(json.loads((folder / name).read_text().replace(str(folder), "<project>")))
            for name in names}


def _timeless(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: "<when>" if k in WHEN else _timeless(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def test_the_library_and_the_command_write_the_same_corpus(tmp_path: Path) -> None:
    with threaded_site() as site:
        command, library = (_project(tmp_path / name, directory_yaml(site)) for name in ("command", "library"))
        assert _cli(command) == _library(library) == 1  # strict: the rejects fail the run
        first = _written(command)
        assert [e["id"] for e in first["corpus.json"]] == ["src-001", "src-002", "src-003", "src-004"]
        assert first["rejects.json"]["summary"]["rejected"] == 5 and first["corpus.json.ids"]["high_water"] == 4
        assert {k: [e["id"] for e in v] for k, v in first.items() if k.startswith("sections/")} == {
            "sections/competition.json": ["src-003"], "sections/market.json": ["src-001", "src-002"],
            "sections/regulation.json": ["src-004"]}
        assert first == _written(library)
        # a merge into the corpus each wrote: the same IDs kept, the same records refreshed
        assert _cli(command) == _library(library) == 1
        assert _written(command) == _written(library)
        assert [e["id"] for e in _written(command)["corpus.json"]] == ["src-001", "src-002", "src-003", "src-004"]


def test_an_interrupted_write_is_finished_first_and_a_held_corpus_is_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    registry = '{"version": 2, "high_water": 0, "ids": {}, "retired": []}\n'
    journal_path(corpus).write_text(json.dumps({"version": 1, "corpus": "[]\n", "registry": registry}))
    told: list[str | Path] = []
    with corpus_lock(corpus), pytest.raises(CorpusBusyError, match=r"corpus\.json\.lock is locked"):
        harvest_into(corpus, urls=str(tmp_path / "none.txt"), recovered=told.append)
    assert journal_path(corpus).exists() and not corpus.exists() and not told  # refused before anything
    with pytest.raises(UsageError, match="nothing to harvest"):  # the journal is finished before the harvest reads
        harvest_into(corpus, recovered=told.append)
    assert told == [corpus] and not journal_path(corpus).exists()
    assert corpus.read_text() == "[]\n" and Path(f"{corpus}.ids").read_text() == registry
