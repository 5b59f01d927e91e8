"""Harvest is transactional (issue 26, item 7), each failure of the probe as a regression test.

- two harvests into one corpus at once both printed "added src-004" for different URLs and one
  source was lost: a second harvest now exits 2 while the first holds `<corpus>.lock`;
- a corrupted `.ids` gave a corpus with `src-002` twice or an ID `../../etc`, which `write`
  accepted: the registry is validated on load, a merged corpus failing C004 is never written, and
  `write` refuses such a corpus;
- a crash between the corpus write and the registry write lost a retirement record for good: both
  go through one journal, and the next harvest finishes the write.
"""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from harvestkit import harvest, ids, listing, pages
from harvestsite import Page, Restartable

import citecheck.harvest.into as into
import citecheck.harvest.transaction as transaction
from citecheck.errors import CorpusError
from citecheck.harvest.ids import read_registry
from citecheck.harvest.transaction import CorpusBusyError, commit, corpus_lock, recover

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop


def registry(tmp_path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tmp_path / "corpus.json.ids").read_text())
    return data


def test_a_second_harvest_into_the_same_corpus_is_refused_while_the_first_runs(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe: two harvests both issued src-004 and one source was lost. The second one starts
    in the middle of the first (after its read, before its write) and must not touch the corpus."""
    with Restartable(pages()) as server:
        first_list = listing(server, tmp_path, "/a", "/b")
        assert harvest(server, tmp_path, first_list).exit_code == 0
        (tmp_path / "other").mkdir()
        second_list = listing(server, tmp_path / "other", "/d")
        real = into.harvest_async
        seen: list[Result] = []

        async def racing(*args: Any, **kwargs: Any) -> Any:  # the first holds the lock: between its read and write
            if not seen:  # another process, same corpus (a thread: the command runs its own event loop)
                seen.append(await asyncio.to_thread(harvest, server, tmp_path, second_list))
            return await real(*args, **kwargs)

        monkeypatch.setattr(into, "harvest_async", racing)
        listed = listing(server, tmp_path, "/a", "/b", "/c")
        outer = harvest(server, tmp_path, listed)
        assert outer.exit_code == 0, outer.stderr
        second = seen[0]
        assert second.exit_code == 2
        assert "another citecheck process is harvesting into this corpus" in second.stderr
        assert "corpus.json.lock is locked" in second.stderr and "Traceback" not in second.stderr
        assert len(second.stderr.strip().splitlines()) == 1
        assert ids(tmp_path) == {"/a": "src-001", "/b": "src-002", "/c": "src-003"}
        monkeypatch.setattr(into, "harvest_async", real)
        after = harvest(server, tmp_path, second_list)  # the lock is released: the next run merges
        assert after.exit_code == 0, after.stderr
        assert ids(tmp_path) == {"/a": "src-001", "/b": "src-002", "/c": "src-003", "/d": "src-004"}


def test_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    busy = r"c.json: another citecheck process .*c.json.lock is locked"
    with corpus_lock(tmp_path / "c.json"), pytest.raises(CorpusBusyError, match=busy), corpus_lock(tmp_path / "c.json"):
        pass
    with corpus_lock(tmp_path / "c.json"):
        pass


GOOD = {"version": 2, "high_water": 2, "ids": {"src-001": {"url": "https://a.org/", "keys": ["a.org"]},
                                               "src-002": {"url": "https://b.org/", "keys": ["b.org"]}}, "retired": []}


def broken(**changes: Any) -> str:
    return json.dumps({**GOOD, **changes})


BROKEN = {
    "path-like id": broken(ids={"../../etc": {"url": "https://a.org/", "keys": ["a.org"]}}),
    "unpadded id": broken(ids={"src-2": {"url": "https://a.org/", "keys": ["a.org"]}}),
    "key with two owners": broken(ids={"src-001": {"url": "https://a.org/", "keys": ["a.org"]},
                                       "src-002": {"url": "https://b.org/", "keys": ["a.org"]}}),
    "mark as text": broken(high_water="2"),
    "mark as float": broken(high_water=2.5),
    "mark as bool": broken(high_water=True),
    "negative mark": broken(high_water=-1),
    "id above the mark": broken(high_water=1),
    "unknown version": broken(version=3),
    "version as text": broken(version="2"),
    "retired id not an id": broken(retired=[{"id": "../x", "url": "https://c.org/"}]),
    "ids not an object": broken(ids=["src-001"]),
    "keys not strings": broken(ids={"src-001": {"url": "https://a.org/", "keys": [1]}}),
    "not an object": "[1, 2]",
}


@pytest.mark.parametrize("text", list(BROKEN.values()), ids=list(BROKEN))
def test_corrupted_registry_is_one_line_exit_2_and_nothing_is_written(tmp_path: Path, text: str) -> None:
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b")
        assert harvest(server, tmp_path, listed).exit_code == 0
        (tmp_path / "corpus.json.ids").write_text(text)
        before = (tmp_path / "corpus.json").read_bytes()
        result = harvest(server, tmp_path, listing(server, tmp_path, "/a", "/b", "/c"))
        assert result.exit_code == 2, result.stderr
        assert "unreadable ID registry" in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert (tmp_path / "corpus.json").read_bytes() == before
        assert (tmp_path / "corpus.json.ids").read_text() == text


def test_valid_registry_is_read() -> None:
    """The fixture the broken ones start from is itself accepted (each case above breaks one thing)."""
    book = transaction_book(json.dumps(GOOD))
    assert book.high_water == 2 and book.by_key == {"a.org": "src-001", "b.org": "src-002"}


def transaction_book(text: str) -> Any:
    import tempfile

    with tempfile.TemporaryDirectory() as where:
        Path(where, "c.json.ids").write_text(text)
        return read_registry(Path(where, "c.json"))


def test_a_registry_that_would_give_two_urls_one_id_never_writes_that_corpus(tmp_path: Path) -> None:
    """A registry that passes validation but files /b's key under src-001 (the ID of /a) would
    make a corpus with src-001 twice: the merged corpus fails C004, nothing is written, exit 2."""
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a")
        assert harvest(server, tmp_path, listed).exit_code == 0
        data = registry(tmp_path)
        b_key = server.site.url("/b").split("://", 1)[1]
        data["ids"]["src-001"]["keys"].append(b_key)
        (tmp_path / "corpus.json.ids").write_text(json.dumps(data))
        before = (tmp_path / "corpus.json").read_bytes(), (tmp_path / "corpus.json.ids").read_bytes()
        result = harvest(server, tmp_path, listing(server, tmp_path, "/a", "/b"))
        assert result.exit_code == 2, result.stderr
        assert "fails its ID self-check (C004)" in result.stderr and "'src-001' is used again" in result.stderr
        assert ((tmp_path / "corpus.json").read_bytes(), (tmp_path / "corpus.json.ids").read_bytes()) == before


def write_cli(*args: str) -> Result:
    from citecheck.cli import main

    return CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, ["write", *args])


ENTRY = {"canonical_url": "https://a.org/", "title": "T", "fetched_at": "2026-01-01T00:00:00Z", "body_excerpt": "x",
         "summary": "s", "retrieval_query": "q", "retrieval_tool": "t"}


@pytest.mark.parametrize(("ids_", "message"), [(["src-001", "src-002", "src-002"], "'src-002' is used again"),
                                               (["src-001", "../../etc"], "'../../etc' is not of the form src-NNN")])
def test_write_refuses_a_corpus_with_duplicate_or_invalid_ids(tmp_path: Path, ids_: list[str], message: str) -> None:
    corpus = [{**ENTRY, "id": i, "url": f"https://example{n}.org/page"} for n, i in enumerate(ids_)]
    (tmp_path / "c.json").write_text(json.dumps(corpus, indent=1))
    (tmp_path / "draft.md").write_text("Freight grew [src-002].\n")
    result = write_cli(str(tmp_path / "draft.md"), "--corpus", str(tmp_path / "c.json"), "-o", str(tmp_path / "m.md"))
    assert result.exit_code == 2, result.output
    assert "C004 id-integrity" in result.stderr and message in result.stderr and "refusing to write" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "m.md").exists()


class Crash(BaseException):
    """A kill between two writes (BaseException: nothing in citecheck catches it)."""


def crash_after(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    real = transaction.atomic_write
    count = [0]

    def writing(path: Any, data: Any) -> None:
        if count[0] == writes:
            raise Crash(str(path))
        count[0] += 1
        real(path, data)

    monkeypatch.setattr(transaction, "atomic_write", writing)


@pytest.mark.parametrize("writes", [1, 2])
def test_a_crash_between_the_two_writes_loses_no_retirement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            writes: int) -> None:
    """The probe: a crash after the corpus write lost src-002's retirement record for good. Now a
    crash after the journal (writes=1) or after the registry (writes=2) leaves a journal that the
    next harvest finishes from, and the record (with its evidence) is there."""
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b")
        assert harvest(server, tmp_path, listed).exit_code == 0
        server.site.pages["/b"] = Page(404, "<html><head><title>Not Found</title></head><body>gone</body></html>")
        crash_after(monkeypatch, writes)
        with pytest.raises(Crash):
            harvest(server, tmp_path, listed, "--max-age", "0")
        monkeypatch.undo()
        assert (tmp_path / "corpus.json.journal").exists()
        server.stop()  # the next run learns nothing new about /b: the record must come from the journal
        resumed = harvest(server, tmp_path, listing(server, tmp_path, "/a"), "--max-age", "0")
        assert resumed.exit_code == 0, resumed.stderr
        assert "finished writing" in resumed.stderr and "interrupted run's journal" in resumed.stderr
        assert not (tmp_path / "corpus.json.journal").exists()
        retired = registry(tmp_path)["retired"]
        assert [r["id"] for r in retired] == ["src-002"] and "404" in retired[0]["reason"]
        assert ids(tmp_path) == {"/a": "src-001"}


def test_an_interrupted_write_is_refused_by_the_library_until_recovered(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from citecheck.config import load_config
    from citecheck.engine.registry import build_registry
    from citecheck.engine.run import Engine
    from citecheck.engine.select import resolve
    from citecheck.harvest.corpus import load_existing

    corpus = tmp_path / "c.json"
    commit(corpus, "[]\n", '{"version": 2, "high_water": 0, "ids": {}, "retired": []}\n')
    crash_after(monkeypatch, 2)
    with pytest.raises(Crash):
        commit(corpus, json.dumps([{**ENTRY, "id": "src-001", "url": "https://a.org/"}]),
               '{"version": 2, "high_water": 1, "ids": {}, "retired": []}\n')
    monkeypatch.undo()
    engine = Engine(resolve(build_registry(load_config().packs), load_config()))
    with pytest.raises(CorpusError, match=r"c.json.journal: a harvest into .*c.json was interrupted"):
        load_existing(corpus, engine)
    assert recover(corpus) and not recover(corpus)
    assert read_registry(corpus).high_water == 1 and json.loads(corpus.read_text())[0]["id"] == "src-001"
    loaded = load_existing(corpus, engine)
    assert loaded is not None and [s.id for s in loaded.sources] == ["src-001"]


def test_an_unreadable_journal_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "c.json.journal").write_text('{"version": 1, "corpus": 3}')
    with pytest.raises(CorpusError, match=r"c.json.journal: unreadable harvest journal"):
        recover(tmp_path / "c.json")
