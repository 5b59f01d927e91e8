"""SIGKILL at random points: the corpus is always the old or the new complete file, IDs never
change, the cache is never corrupt, and a rerun completes from where the cache left off."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from harvestkit import project
from harvestsite import threaded_site

from citecheck.fetch.cache import Cache


def _harvest(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "citecheck", "harvest", *args, "-q"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _ids(path: Path) -> dict[str, str]:
    return {e["url"]: e["id"] for e in json.loads(path.read_text())}


def test_sigkill_never_corrupts_corpus_ids_or_cache(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    corpus = tmp_path / "corpus.json"
    with threaded_site() as site:
        args = project(tmp_path, site)
        first = _harvest(args)
        assert first.wait(120) == 0, first.stderr.read() if first.stderr else ""
        reference = _ids(corpus)
        before = corpus.read_bytes()
        for attempt in range(4):
            proc = _harvest([*args, "--max-age", "0"])  # refetch everything, rewrite the corpus
            time.sleep(rng.uniform(0.2, 2.5))
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
            entries = json.loads(corpus.read_text())  # a complete file, old or new, never half-written
            assert [sorted(e) for e in entries] == [sorted(e) for e in json.loads(before)], f"attempt {attempt}"
            assert _ids(corpus) == reference, f"attempt {attempt}: IDs changed"
            with Cache(str(tmp_path / "cache.sqlite")) as cache:  # opens and reads: not corrupt
                assert cache.stats()["pages"] >= len(reference)
                assert cache.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        last = _harvest(args)
        assert last.wait(120) == 0
    assert _ids(corpus) == reference
