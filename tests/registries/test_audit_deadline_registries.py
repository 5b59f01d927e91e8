"""audit --deadline bounds the registry lookups as it bounds the fetch beside them: a reference whose
registry has not answered when the run's time is up is R003 reference-unverifiable ("deadline"),
nothing of it is stored and it is no outage; what answered in time is judged. Loopback registries
only (an arXiv that stalls until the server shuts down)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from registryfakes import FakeRegistries, Work, deadline_config, served

from citecheck import audit_async
from citecheck.config import Config, build
from citecheck.fetch.cache import Cache

RESNET = Work("Deep Residual Learning for Image Recognition", [("Kaiming", "He"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90", venue="CVPR")
ATTENTION = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv="1706.03762")
MEMO = """# Memo

Residual networks ([Deep Residual Learning for Image Recognition](https://doi.org/10.1109/CVPR.2016.90))
and transformers ([Attention Is All You Need](https://arxiv.org/abs/1706.03762)).
"""


@pytest.fixture
def fake() -> Iterator[FakeRegistries]:
    with served(FakeRegistries([RESNET, ATTENTION], fail={"arxiv": "timeout"}, stall=60.0)) as registries:
        yield registries


def config_for(fake: FakeRegistries, tmp_path: Path, deadline: float) -> Config:
    return build(deadline_config(fake, str(tmp_path / "c.sqlite"), deadline))


async def test_a_registry_lookup_the_audit_deadline_cuts_off_is_unverifiable(fake: FakeRegistries,
                                                                               tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text(MEMO, encoding="utf-8")
    began = time.monotonic()
    report = await audit_async([str(memo)], config_for(fake, tmp_path, 1.0), online=True)
    assert time.monotonic() - began < 15  # the stalled arXiv request did not hold the run (timeout 30 s, stall 60 s)
    assert fake.asked("arxiv")  # it was asked, and had not answered
    assert report.outage is None  # a cut-off lookup is no evidence that the network is down
    late = [f for f in report.findings if f.rule == "R003"]
    assert [f.url for f in late] == ["https://arxiv.org/abs/1706.03762"], report.findings
    assert "--deadline (1 s)" in late[0].message, late[0].message
    assert not [f for f in report.findings if f.url and "doi.org" in f.url and f.severity.value == "error"]
    with Cache(tmp_path / "c.sqlite") as facts:  # the DOI's registry facts are stored, nothing of arXiv's
        stored = [key for (key,) in facts.conn.execute("SELECT key FROM extras")]
    assert stored and not any("arxiv" in key for key in stored), stored
