"""harvest --deadline bounds the registry lookups too: a DOI/arXiv candidate or a --bib entry whose
registry has not answered when the run's time is up is unverifiable ("deadline"), never an ID, its
landing page is not fetched instead, nothing of it is stored and it is no outage; what answered in
time is kept. Loopback registries only (an arXiv that stalls until the server shuts down)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from registryfakes import FakeRegistries, Work, deadline_config, served

from citecheck.config import Config, build
from citecheck.fetch.cache import Cache
from citecheck.harvest import harvest_async

RESNET = Work("Deep Residual Learning for Image Recognition", [("Kaiming", "He"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90", venue="CVPR", abstract="Deeper neural networks are more difficult to train. "
              "We present a residual learning framework to ease the training of deep networks.")
ATTENTION = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv="1706.03762")
BIB = """@misc{vaswani2017,
  title = {Attention Is All You Need}, author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}
}
"""


@pytest.fixture
def fake() -> Iterator[FakeRegistries]:
    with served(FakeRegistries([RESNET, ATTENTION], fail={"arxiv": "timeout"}, stall=60.0)) as registries:
        yield registries


def config_for(fake: FakeRegistries, tmp_path: Path, deadline: float) -> Config:
    return build(deadline_config(fake, str(tmp_path / "c.sqlite"), deadline, harvest={}))


async def test_a_registry_lookup_the_deadline_cuts_off_is_unverifiable(fake: FakeRegistries, tmp_path: Path) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("https://doi.org/10.1109/CVPR.2016.90\nhttps://arxiv.org/abs/1706.03762\n")
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    began = time.monotonic()
    result = await harvest_async(None, urls=str(listed), bibliographies=[str(tmp_path / "refs.bib")],
                                 config=config_for(fake, tmp_path, 1.0), extract_workers=0, min_excerpt=50)
    assert time.monotonic() - began < 15  # the stalled arXiv request did not hold the run (timeout 30 s, stall 60 s)
    assert fake.asked("arxiv")  # it was asked, and had not answered
    assert [s.url for s in result.corpus] == ["https://doi.org/10.1109/CVPR.2016.90"]  # answered in time: kept
    rejects = {r.found.candidate.query if r.found.candidate.query.startswith("@") else r.found.candidate.url: r.reasons
               for r in result.rejects}
    assert sorted(rejects) == ["@vaswani2017", "https://arxiv.org/abs/1706.03762"], rejects
    for reasons in rejects.values():
        assert [r.name for r in reasons] == ["fetch-unverifiable"], reasons
        assert "deadline" in reasons[0].evidence + reasons[0].message and "--deadline (1 s)" in reasons[0].message
    assert result.stats["past_deadline"] == 2 and result.stats["fetched"] == 0  # no landing page asked instead
    with Cache(tmp_path / "c.sqlite") as facts:  # the registry facts of the DOI are stored, nothing of arXiv's
        stored = [url for (url,) in facts.conn.execute("SELECT key FROM extras")]
    assert stored and not any("arxiv" in url for url in stored), stored
