"""Reference lines in the numbered styles (Vancouver/ICMJE/NLM, AMA, Nature, Springer LNCS, ACM, MLA)
and the near-miss title rule: what each line claims, what never reads as an author list, and which
title changes are content (reported) and which are a writer's variation (not reported)."""
from __future__ import annotations

import pytest

from citecheck.scholarly.claims import reference_claim
from citecheck.scholarly.compare import compare, title_problem
from citecheck.scholarly.records import Author, Claim, Record

LINES = {
    "vancouver": ("1. Doe J, Roe RA, van der Maaten L. Title of the article in question. J Abbrev. 2020;12(3):45-67. "
                  "doi:10.1000/xyz",
                  "Title of the article in question", ("Doe J", "Roe RA", "van der Maaten L"), False, 2020, "J Abbrev"),
    "vancouver-et-al": ("[3] Vaswani A, Shazeer N, Parmar N, et al. Attention is all you need. arXiv. 2017.",
                        "Attention is all you need", ("Vaswani A", "Shazeer N", "Parmar N"), True, 2017, "arXiv"),
    "nlm-internet": ("Doe J. Effects of smoking in pregnancy [Internet]. BMJ. 2019 [cited 2021 Jan 5];365:l1.",
                     "Effects of smoking in pregnancy", ("Doe J",), False, 2019, "BMJ"),
    "ama": ("2. García-Pérez MA, Lee K. Does the autistic child have a theory of mind? *Cognition*. 1985;21(1):37-46.",
            "Does the autistic child have a theory of mind?", ("García-Pérez MA", "Lee K"), False, 1985, "Cognition"),
    "nature": ("4. He, K., Zhang, X., Ren, S. & Sun, J. Deep residual learning for image recognition. in *Proc. CVPR* "
               "770–778 (2016).",
               "Deep residual learning for image recognition", ("He, K.", "Zhang, X.", "Ren, S.", "Sun, J."), False,
               2016, "Proc. CVPR"),
    "nature-et-al": ("Jumper, J. et al. Highly accurate protein structure prediction with AlphaFold. Nature 596, "
                     "583–589 (2021).",
                     "Highly accurate protein structure prediction with AlphaFold", ("Jumper, J.",), True, 2021, "Nature"),
    "lncs": ("5. Pouget-Abadie, J.-B., Kaiser, Ł.: Generative adversarial nets. In: NeurIPS, pp. 2672–2680 (2014)",
             "Generative adversarial nets", ("Pouget-Abadie, J.-B.", "Kaiser, Ł."), False, 2014, "NeurIPS"),
    "lncs-et-al": ("He, K., et al.: Mask R-CNN. In: ICCV, pp. 2961–2969 (2017)",
                   "Mask R-CNN", ("He, K.",), True, 2017, "ICCV"),
    "group": ("6. Open Science Collaboration. Estimating the reproducibility of psychological science. Science. "
              "2015;349(6251):aac4716.",
              "Estimating the reproducibility of psychological science", ("Open Science Collaboration",), False, 2015,
              "Science"),
    "group-lncs": ("ATLAS Collaboration: Observation of a new particle. Phys. Lett. B 716, 1–29 (2012)",
                   "Observation of a new particle", ("ATLAS Collaboration",), False, 2012, "Phys"),
}


@pytest.mark.parametrize("style", list(LINES))
def test_numbered_styles_claim_authors_title_year_and_venue(style: str) -> None:
    line, title, authors, et_al, year, venue = LINES[style]
    claim = reference_claim(line)
    assert (claim.title, claim.authors, claim.et_al, claim.year) == (title, authors, et_al, year)
    assert claim.venue.startswith(venue)


def test_mla_year_is_not_a_page_number() -> None:
    claim = reference_claim('Vaswani, Ashish, et al. "Attention Is All You Need." *arXiv*, vol. 4, no. 3, 2017, '
                            "pp. 1627–1636.")
    assert (claim.title, claim.authors, claim.year) == ("Attention Is All You Need", ("Vaswani, Ashish",), 2017)


def test_acm_reads_its_year_and_title() -> None:
    claim = reference_claim("Kaiming He and Jian Sun. 2016. Deep Residual Learning for Image Recognition. "
                            "In Proceedings of CVPR. 770–778.")
    assert (claim.title, claim.year, claim.authors[0]) == ("Deep Residual Learning for Image Recognition", 2016,
                                                          "Kaiming He")


@pytest.mark.parametrize("line", [
    "Attention Is All You Need. NIPS 2017.",                # a title first is not an author list
    "Smith J. argued that the results hold in 2020.",       # prose opening with a name and an initial
    "Deep Learning for NLP. In: Proceedings 2019.",
    "He, K. and the team showed this in 2016.",
])
def test_lines_that_do_not_open_with_an_author_list(line: str) -> None:
    claim = reference_claim(line)
    assert not claim.authors


RESNET = Record("crossref", "Deep Residual Learning for Image Recognition",
                authors=(Author("He", "Kaiming"), Author("Sun", "Jian")), year=2016, venue="CVPR")


def record(title: str) -> Record:
    return Record("crossref", title, authors=(Author("Doe", "Jane"),), year=2020)


@pytest.mark.parametrize(("recorded", "claimed"), [
    ("Datasheets for datasets", "Datasheets in datasets"),                                  # stop word swapped
    ("The Tragedy of the Commons", "Tragedy of the Commons"),                              # "The" dropped
    ("Modeling the behavior of tumor cells", "Modelling the behaviour of tumour cells"),   # British spelling
    ("Analysis of variance in the grey literature", "Analyses of variance in the gray literature"),
    ("α-Synuclein aggregation in Parkinson's disease", "Alpha-synuclein aggregation in Parkinson's disease"),
    ("α-Synuclein aggregation in Parkinson's disease", r"$\alpha$-synuclein aggregation in Parkinson's disease"),
    ("The magical number seven, plus or minus two", "The magical number 7, plus or minus 2"),
    ("Safety and Efficacy of the BNT162b2 mRNA Covid-19 Vaccine", "Safety & efficacy of the BNT162b2 mRNA COVID-19 vaccine"),
    ("BERT: Pre-training of Deep Bidirectional Transformers", "{BERT}: Pretraining of deep bidirectional transformers"),
    ("Auto-Encoding Variational Bayes", "AutoEncoding Variational Bayes"),
    ("Long Short-Term Memory", "Long Short-Term Memory (LSTM)"),                           # an acronym after its words
    ("Large Language Models are Zero-Shot Reasoners", "LLMs are Zero-Shot Reasoners"),
    ("Trends in U.S. obesity", "Trends in US obesity"),
    ("Deep Residual Learning for Image Recognition", "Deep residual learning for image recognition."),
    ("Random Forests", "Random Forest"),
])
def test_benign_title_variations_are_the_title(recorded: str, claimed: str) -> None:
    assert title_problem(claimed, record(recorded), 0.90) == ""


@pytest.mark.parametrize(("recorded", "claimed", "word"), [
    ("Deep Residual Learning for Image Recognition", "Deep Residual Learning for Video Recognition", "Video"),
    ("Deep Residual Learning for Image Recognition", "Deep Residual Learning for New Image Recognition", "New"),
    ("Global cancer statistics 2018", "Global cancer statistics 2020", "2020"),
    ("Attention Is All You Need", "Attention Is Not All You Need", "Not"),
    ("Hallmarks of Cancer: The Next Generation", "Hallmarks of Cancer: AI", "AI"),
    ("Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined Factors",
     "Induction of Pluripotent Stem Cells from Mouse Embryonic and Adult Fibroblast Cultures by Defined RNA", "RNA"),
])
def test_a_content_word_swapped_or_inserted_is_a_near_miss(recorded: str, claimed: str, word: str) -> None:
    why = title_problem(claimed, record(recorded), 0.90)
    assert repr(word.lower()) in why.lower()


def test_a_short_title_with_another_word_is_another_title() -> None:
    assert title_problem("Attention Is AI", record("Attention Is All You Need"), 0.90) == "a different title"


def test_vancouver_line_against_the_record() -> None:
    wrong = reference_claim("Smith J, Roe RA. A survey of everything. J Comput Vis. 2016;12(3):45-67.")
    assert [m.field for m in compare(wrong, RESNET, this_year=2026)] == ["title", "authors"]
    right = reference_claim("He K, Sun J. Deep residual learning for image recognition. Proc CVPR. 2016:770-8.")
    assert compare(right, RESNET, this_year=2026) == []
    assert compare(Claim("Deep residual learning for image recognition", ("He K",), True, 2016), RESNET) == []


def test_a_title_ending_in_a_year_is_not_an_author_year_link_text() -> None:
    from citecheck.scholarly.claims import link_claim

    assert link_claim("Global cancer statistics 2018").authors == ()
    assert link_claim("van der Maaten and Hinton (2008)").authors == ("van der Maaten", "Hinton")


def test_pages_after_the_year_are_no_title_and_a_numbered_group_is_an_author() -> None:
    science = reference_claim("K. He, X. Zhang, S. Ren, J. Sun, in Proc. CVPR (2016), pp. 770–778.")
    assert (science.title, science.year) == ("", 2016)
    gbd = reference_claim("GBD 2019 Diseases and Injuries Collaborators. Global burden of 369 diseases. Lancet. "
                          "2020;396(10258):1204-22.")
    assert (gbd.authors, gbd.title, gbd.year) == (("GBD 2019 Diseases and Injuries Collaborators",),
                                                  "Global burden of 369 diseases", 2020)


@pytest.mark.parametrize(("line", "title"), [
    ("Polack FP, Thomas SJ. mRNA vaccines against COVID-19. N Engl J Med. 2020;383:2603-15.",
     "mRNA vaccines against COVID-19"),
    ("Doe J. α-Synuclein in Parkinson's disease. Nature 388, 839–840 (1997).", "α-Synuclein in Parkinson's disease"),
    ("Levine AJ. p53, the cellular gatekeeper. Cell. 1997;88(3):323-31.", "p53, the cellular gatekeeper"),
])
def test_a_title_may_open_with_a_lower_case_term(line: str, title: str) -> None:
    claim = reference_claim(line)
    assert claim.title == title and claim.authors
