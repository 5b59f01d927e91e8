"""harvest and write use registry metadata (issue #27 item 5): a DOI or arXiv candidate's corpus entry
is made from its registry's record (no landing page), a DOI that does not exist is rejected on R001,
and write renders a scholarly source as "Authors (Year). Title. Venue. <https://doi.org/…>"."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_net import ServerThread
from registryfakes import FakeRegistries, Work

from citecheck.config import Config, build
from citecheck.harvest import harvest_async
from citecheck.models import Corpus
from citecheck.write import write

ABSTRACT = ("Deeper neural networks are more difficult to train. We present a residual learning framework to ease "
            "the training of networks that are substantially deeper than those used previously.")
RESNET = Work("Deep Residual Learning for Image Recognition",
              [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")], 2016,
              doi="10.1109/CVPR.2016.90", venue="CVPR", abstract=ABSTRACT)
ATTENTION = Work("Attention Is All You Need", [("Ashish", "Vaswani"), ("Noam", "Shazeer")], 2017, arxiv="1706.03762",
                 abstract="The dominant sequence transduction models are based on complex recurrent or convolutional "
                          "neural networks. We propose a new simple network architecture, the Transformer.")


@pytest.fixture
def fake() -> Iterator[FakeRegistries]:
    registries = FakeRegistries([RESNET, ATTENTION])
    with ServerThread(registries.app()) as thread:
        registries.base = f"http://127.0.0.1:{thread.port}"
        yield registries


def config_for(fake: FakeRegistries, tmp_path: Path) -> Config:
    port = fake.base.rsplit(":", 1)[1]
    pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed")}
    return build({"harvest": {}, "fetch": {"allow": [f"127.0.0.1:{port}"], "cache": str(tmp_path / "c.sqlite"),
                                           "retries": 0, "timeout": 5},
                  "scholarly": {"endpoints": fake.endpoints(), "pace": pace}})


async def test_harvest_makes_scholarly_sources_from_registry_records(fake: FakeRegistries, tmp_path: Path) -> None:
    listed = tmp_path / "Sources.md"
    listed.write_text("# Sources\n\n- [Deep Residual Learning for Image Recognition](https://doi.org/10.1109/CVPR.2016.90)\n"
                      "- [Attention Is All You Need](https://arxiv.org/abs/1706.03762)\n"
                      "- [A survey of everything](https://doi.org/10.9999/fabricated.2023.001)\n")
    result = await harvest_async(None, urls=str(listed), config=config_for(fake, tmp_path), extract_workers=0,
                                 min_excerpt=100)
    by_url = {s.url: s for s in result.corpus}
    resnet = by_url["https://doi.org/10.1109/CVPR.2016.90"]
    assert resnet.title == "Deep Residual Learning for Image Recognition" and resnet.body_excerpt == ABSTRACT
    assert resnet.canonical_url == "https://doi.org/10.1109/cvpr.2016.90"
    assert (resnet.extra["authors"][:2], resnet.extra["year"], resnet.extra["venue"], resnet.extra["identifier"]) == (
        ["He, Kaiming", "Zhang, Xiangyu"], 2016, "CVPR", "doi:10.1109/cvpr.2016.90")
    assert by_url["https://arxiv.org/abs/1706.03762"].extra["identifier"] == "arxiv:1706.03762"
    [reject] = result.rejects
    assert reject.found.candidate.url.endswith("fabricated.2023.001") and reject.reasons[0].name == "reference-not-found"
    assert result.stats["fetched"] == 0 and result.stats["from_registry"] == 3  # no landing page was requested
    asked = len(fake.log)
    again = await harvest_async(None, urls=str(listed), config=config_for(fake, tmp_path), extract_workers=0,
                                min_excerpt=100)
    assert len(fake.log) == asked and [s.url for s in again.corpus] == [s.url for s in result.corpus]

    corpus = Corpus("corpus.json", tuple(result.corpus))
    draft = f"Residual learning eases training [{resnet.id}].\n"
    written = write(draft, corpus)
    line = next(x for x in written.text.splitlines() if x.startswith("[^1]:"))
    assert line.startswith("[^1]: He et al. (2016). Deep Residual Learning for Image Recognition. CVPR. "
                           "<https://doi.org/10.1109/CVPR.2016.90> (")


async def test_a_thin_abstract_is_the_thin_excerpt_rule(fake: FakeRegistries, tmp_path: Path) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("https://doi.org/10.1109/CVPR.2016.90\n")
    result = await harvest_async(None, urls=str(listed), config=config_for(fake, tmp_path), extract_workers=0,
                                 min_excerpt=1000)
    assert not result.corpus and result.rejects[0].reasons[0].name == "thin-excerpt"
    assert "record has no abstract long enough" in result.rejects[0].reasons[0].message


async def test_a_source_whose_doi_the_registry_no_longer_has_is_retired(fake: FakeRegistries, tmp_path: Path) -> None:
    from citecheck.harvest.corpus import write_corpus
    from citecheck.harvest.ids import write_registry

    listed = tmp_path / "urls.txt"
    listed.write_text("https://doi.org/10.1109/CVPR.2016.90\n")
    first = await harvest_async(None, urls=str(listed), config=config_for(fake, tmp_path), extract_workers=0,
                                min_excerpt=100)
    write_corpus(tmp_path / "corpus.json", first.corpus)
    write_registry(tmp_path / "corpus.json", first.book)
    fake.works.remove(RESNET)  # the DOI system now answers responseCode 100
    later = build({"harvest": {}, "scholarly": {"endpoints": fake.endpoints()},
                   "fetch": {"allow": [f"127.0.0.1:{fake.base.rsplit(':', 1)[1]}"], "retries": 0,
                             "cache": str(tmp_path / "other.sqlite")}})  # the found record is not cached here
    again = await harvest_async(None, urls=str(listed), config=later, into=tmp_path / "corpus.json", extract_workers=0,
                                min_excerpt=100)
    assert not again.corpus and [(row.state, row.id) for row in again.merge] == [("retired", "src-001")]
