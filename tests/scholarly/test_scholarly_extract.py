"""Scholarly identifiers and claims, offline: what is recognised and normalised, what a reference
line in each style claims, and how a claim compares with a record."""
from __future__ import annotations

import pytest

from citecheck.extract import extract_document
from citecheck.registries.parse import arxiv_entries, crossref_record, datacite_record, esummary_records, handle_code
from citecheck.scholarly.claims import link_claim, reference_claim, split_authors
from citecheck.scholarly.compare import compare
from citecheck.scholarly.ids import Identifier, from_url, possible_arxiv
from citecheck.scholarly.records import Author, Claim, Record
from citecheck.scholarly.references import references


@pytest.mark.parametrize(("url", "key"), [
    ("https://doi.org/10.1109/CVPR.2016.90", "doi:10.1109/cvpr.2016.90"),
    ("http://dx.doi.org/10.1000%2Fabc", "doi:10.1000/abc"),
    ("https://doi.org/10.1016/S0140-6736(20)30183-5", "doi:10.1016/s0140-6736(20)30183-5"),
    ("https://arxiv.org/abs/1706.03762v5", "arxiv:1706.03762"),
    ("https://arxiv.org/pdf/1706.03762.pdf", "arxiv:1706.03762"),
    ("https://arxiv.org/abs/hep-th/9901001", "arxiv:hep-th/9901001"),
    ("https://pubmed.ncbi.nlm.nih.gov/31452104/", "pmid:31452104"),
    ("https://www.ncbi.nlm.nih.gov/pubmed/31452104", "pmid:31452104"),
])
def test_identifiers_in_urls(url: str, key: str) -> None:
    ident = from_url(url)
    assert ident is not None and ident.key == key


def test_urls_that_name_no_identifier() -> None:
    assert from_url("https://doi.org/") is None
    assert from_url("https://arxiv.org/list/cs.CL/recent") is None
    assert from_url("https://www.nature.com/articles/nature14539") is None


def test_arxiv_version_is_kept_apart() -> None:
    ident = from_url("https://arxiv.org/abs/1706.03762v5")
    assert ident == Identifier("arxiv", "1706.03762", "v5") and ident.url.endswith("1706.03762v5")


@pytest.mark.parametrize(("value", "possible"), [("1706.03762", True), ("2413.00001", False), ("0612.1234", False),
                                                 ("1412.12345", False), ("1501.00001", True), ("hep-th/9901001", True)])
def test_possible_arxiv_ids(value: str, possible: bool) -> None:
    assert possible_arxiv(value) is possible


def keys(text: str) -> list[str]:
    return [r.identifier.key for r in references(extract_document("m.md", text, "markdown"))]


def test_identifiers_written_as_text_are_normalised() -> None:
    text = ("1. Smith (2019). Title. doi:10.1000/ABC\\_def.\n"
            "2. Lee (2020). Other. DOI 10.1016/S0140-6736(20)30183-5).\n"
            "3. Park (2021). Third. arXiv:2101.00001v2, PMID: 31452104; 10.5555/bare.1;\n"
            "4. Code `doi:10.9999/in.code` and\n\n```\narXiv:2101.99999\n```\n")
    assert keys(text) == ["doi:10.1000/abc_def", "doi:10.1016/s0140-6736(20)30183-5", "arxiv:2101.00001",
                          "pmid:31452104", "doi:10.5555/bare.1"]


def test_an_identifier_in_a_link_and_its_text_counts_once() -> None:
    assert keys("[doi:10.1000/abc](https://doi.org/10.1000/abc)\n") == ["doi:10.1000/abc"]


STYLES = {
    "apa": ("1. He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. "
            "*Proceedings of CVPR*, 770–778.",
            "Deep residual learning for image recognition", ("He, K", "Zhang, X", "Ren, S", "Sun, J"), 2016),
    "ieee": ('[1] K. He, X. Zhang, S. Ren, and J. Sun, "Deep residual learning for image recognition," in '
             "*Proc. CVPR*, 2016, pp. 770–778.",
             "Deep residual learning for image recognition", ("K. He", "X. Zhang", "S. Ren", "J. Sun"), 2016),
    "chicago": ('He, Kaiming, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. "Deep Residual Learning for Image '
                'Recognition." In *Proceedings of CVPR*, 770–78. 2016.',
                "Deep Residual Learning for Image Recognition",
                ("He, Kaiming", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"), 2016),
    "harvard": ("He, K., Zhang, X., Ren, S. and Sun, J. (2016) Deep residual learning for image recognition. "
                "In: Proceedings of CVPR, pp. 770-778.",
                "Deep residual learning for image recognition", ("He, K", "Zhang, X", "Ren, S", "Sun, J"), 2016),
    "chicago-author-date": ("He, Kaiming, and Jian Sun. 2016. “Deep Residual Learning for Image Recognition.” CVPR.",
                            "Deep Residual Learning for Image Recognition", ("He, Kaiming", "Jian Sun"), 2016),
    "apa-et-al": ("Brown, T. B., et al. (2020). Language models are few-shot learners. *NeurIPS*.",
                  "Language models are few-shot learners", ("Brown, T. B",), 2020),
    "ieee-inner-quotes": ('[7] G. A. Akerlof, "The market for "lemons": Quality uncertainty and the market '
                          'mechanism," *Q. J. Econ.*, vol. 84, no. 3, 1970.',
                          'The market for "lemons": Quality uncertainty and the market mechanism', ("G. A. Akerlof",),
                          1970),
}


@pytest.mark.parametrize("style", list(STYLES))
def test_reference_lines_in_each_style(style: str) -> None:
    line, title, authors, year = STYLES[style]
    claim = reference_claim(line)
    assert (claim.title, claim.authors, claim.year) == (title, authors, year)


@pytest.mark.parametrize(("text", "title", "authors", "year"), [
    ("Vaswani et al., 2017", "", ("Vaswani",), 2017),
    ("He and Sun (2016)", "", ("He", "Sun"), 2016),
    ("Deep Residual Learning for Image Recognition", "Deep Residual Learning for Image Recognition", (), None),
    ("the original paper", "", (), None),
    ("a recent study of sleep", "", (), None),
    ("https://doi.org/10.1000/x", "", (), None),
    ("Zenodo archive DOI: 10.5281/zenodo.3460969", "", (), None),
])
def test_link_texts(text: str, title: str, authors: tuple[str, ...], year: int | None) -> None:
    claim = link_claim(text)
    assert (claim.title, claim.authors, claim.year) == (title, authors, year)


def test_author_lists() -> None:
    assert split_authors("Smith, J., Doe, A., & Lee, B.") == (["Smith, J", "Doe, A", "Lee, B"], False)
    assert split_authors("Ioannidis, John P. A.") == (["Ioannidis, John P. A"], False)
    assert split_authors("Kaiser, Ł., and Polosukhin, I.") == (["Kaiser, Ł", "Polosukhin, I"], False)
    assert split_authors("Doe J, Roe R, et al.") == (["Doe J", "Roe R"], True)


def test_prose_claims_only_its_link_text() -> None:
    doc = extract_document("m.md", "In 2019, Smith, J. argued ([this paper](https://doi.org/10.1000/x)) that 2020 was hot.\n",
                           "markdown")
    [ref] = references(doc)
    assert ref.claim.empty and not ref.in_reference_list


RESNET = Record("crossref", "Deep Residual Learning for Image Recognition",
                ("Deep Residual Learning for Image Recognition",),
                (Author("He", "Kaiming"), Author("Zhang", "Xiangyu"), Author("Ren", "Shaoqing"), Author("Sun", "Jian")),
                2016, (2016,), "CVPR")


@pytest.mark.parametrize(("claim", "fields"), [
    (Claim("deep residual learning for image recognition", ("He, K",), True, 2016), []),
    (Claim("Deep Residual Learning", ("K. He",), False, 2015), []),  # a dropped subtitle is not a title; see below
    (Claim("A survey of everything", ("Smith, J",), False, 2019), ["title", "authors", "year"]),
    (Claim("Deep Residual Networks for Image Recognition"), ["title"]),  # near miss
    (Claim(authors=("Doe, J",)), ["authors"]),
    (Claim(authors=("He, K", "Smith, J")), ["authors"]),
    (Claim(year=2031), ["year"]),
    (Claim(year=2013), ["year"]),
])
def test_compare(claim: Claim, fields: list[str]) -> None:
    if claim.title == "Deep Residual Learning":
        assert [m.field for m in compare(claim, RESNET)] == ["title"]  # 'deep residual learning' is not the title
        return
    assert [m.field for m in compare(claim, RESNET, this_year=2026)] == fields


def test_subtitles_accents_latex_and_swapped_names() -> None:
    record = Record("crossref", "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
                    authors=(Author("Schölkopf", "Bernhard"), Author("Wei", "Zhang")), year=2019)
    assert compare(Claim("BERT", ("Scholkopf, B", "Zhang Wei")), record) == []
    assert compare(Claim("BERT: pretraining of deep bidirectional transformers for language understanding"), record) == []
    latex = Record("arxiv", r"On the $\alpha$-divergence of na\"ive models", authors=(Author(literal="Ana García"),))
    assert compare(Claim("On the α-divergence of naïve models", ("Garcia, A",)), latex) == []


def test_parsers_read_the_documented_shapes() -> None:
    assert handle_code(b'{"responseCode":100,"handle":"10.1/x"}') == 100
    crossref = crossref_record(b'{"status":"ok","message-type":"work","message":{"DOI":"10.1/X","title":["T <i>x</i>"],'
                               b'"author":[{"given":"A","family":"B","sequence":"first"}],"issued":{"date-parts":[[2020,1]]},'
                               b'"relation":{"is-retracted-by":[{"id-type":"doi","id":"10.1/r"}]}}}')
    assert crossref is not None and (crossref.title, crossref.year, crossref.retracted) == ("T x", 2020, True)
    datacite = datacite_record(b'{"data":{"attributes":{"doi":"10.5281/z.1","titles":[{"title":"D"}],"creators":'
                               b'[{"name":"Lopez, Ana"}],"publicationYear":"2021"}}}')
    assert datacite is not None and datacite.authors[0].literal == "Lopez, Ana" and datacite.year == 2021
    feed = (b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_x'
            b'</id><title>Error</title></entry></feed>')
    assert arxiv_entries(feed) is None
    assert arxiv_entries(b'<feed xmlns="http://www.w3.org/2005/Atom"></feed>') == {}
    summaries = esummary_records(b'{"result":{"uids":["1"],"1":{"uid":"1","title":"T.","pubdate":"2019 Aug",'
                                 b'"authors":[{"name":"Smith J","authtype":"Author"}]},"2":{"uid":"2","error":"cannot get '
                                 b'document summary"}}}', ["1", "2"])
    assert summaries is not None and summaries["2"] is None and summaries["1"] is not None
    assert summaries["1"].title == "T" and summaries["1"].authors[0].surname == "Smith"
    assert esummary_records(b'{"error":"API rate limit exceeded"}', ["1"]) is None
