"""Scholarly identifiers: DOIs, arXiv IDs and PubMed IDs, read from URLs and from text, normalised.

A DOI is case-insensitive (the DOI Handbook, 2.4), so its key is lower-cased; the trailing
punctuation a sentence puts after it, LaTeX escapes (`10.1000/a\\_b`) and URL-encoding
(`10.1000%2Fabc`) are undone. An arXiv ID keeps its version (`v2`) apart from the ID the registry
is asked about. A PubMed ID is its digits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})
PUBMED_HOSTS = frozenset({"pubmed.ncbi.nlm.nih.gov", "www.ncbi.nlm.nih.gov", "ncbi.nlm.nih.gov"})
ARXIV_DOI_PREFIX = "10.48550/arxiv."
# a reference without an identifier, judged by registry search (`citecheck.scholarly.unlinked`): its
# value is "title|first author's surname|year" as claimed, what the search asks and validates
SEARCH = "search"

_DOI = re.compile(r"10\.\d{4,9}/\S+")
_NEW_ARXIV = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?")
_OLD_ARXIV = re.compile(r"([a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?")
_TRAILING = ".,;:!?'\"*_>"
_PAIRS = {")": "(", "]": "[", "}": "{"}

# identifiers written as text: `doi:10.…`, `DOI 10.…`, a bare `10.NNNN/…`, `arXiv:…`, `PMID: N`
TEXT_PATTERN = re.compile(
    r"(?P<doi>(?<![\w/.])10\.\d{4,9}/[^\s<>\"'`\[\]]+)"
    r"|(?P<arxiv>\barxiv:\s?(?:\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?))"
    r"|(?P<pmid>\bPMID:?\s?\d{1,9}\b)", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Identifier:
    """A registered work's identifier: `kind` doi | arxiv | pmid, `value` normalised (the key); kind
    `search` stands for a reference without one, to be found by registry search."""

    kind: str
    value: str
    version: str = ""  # arXiv: 'v2' when the memo named a version (the registry is asked for the work)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.value}"

    @property
    def url(self) -> str:
        """The identifier's canonical resolver URL ('' for a reference found by search)."""
        if self.kind == SEARCH:
            return ""
        if self.kind == "doi":
            return f"https://doi.org/{self.value}"
        if self.kind == "arxiv":
            return f"https://arxiv.org/abs/{self.value}{self.version}"
        return f"https://pubmed.ncbi.nlm.nih.gov/{self.value}/"

    @property
    def label(self) -> str:
        if self.kind == SEARCH:
            title = self.value.split("|", 1)[0]
            return f"reference \"{title[:80]}{'…' if len(title) > 80 else ''}\""
        return {"doi": "DOI", "arxiv": "arXiv ID", "pmid": "PubMed ID"}[self.kind] + f" {self.value}{self.version}"

    @property
    def is_arxiv_doi(self) -> bool:
        return self.kind == "doi" and self.value.startswith(ARXIV_DOI_PREFIX)


def clean_doi(raw: str) -> str:
    """The DOI in `raw` in its normal form (lower case, unescaped, no trailing punctuation), or ''."""
    text = unquote(raw.replace("\\_", "_").replace("\\%", "%").replace("\\&", "&").replace("\\#", "#"))
    found = _DOI.search(text)
    if not found:
        return ""
    return _trim(found.group(0)).lower()


def _trim(value: str) -> str:
    """Drop trailing sentence punctuation and closing brackets that do not close one in the value."""
    while value:
        last = value[-1]
        if last in _TRAILING or (last in _PAIRS and value.count(last) > value.count(_PAIRS[last])):
            value = value[:-1]
        else:
            break
    return value


def arxiv_id(raw: str) -> Identifier | None:
    """An arXiv identifier (new `YYMM.NNNNN` or old `archive/YYMMNNN` style), version kept apart."""
    text = raw.strip().removeprefix("arXiv:").removeprefix("arxiv:").strip()
    text = re.sub(r"\.pdf$", "", text, flags=re.IGNORECASE)
    for pattern in (_NEW_ARXIV, _OLD_ARXIV):
        found = pattern.fullmatch(text) or pattern.match(text)
        if found and (found.end() == len(text) or not text[found.end()].isalnum()):
            return Identifier("arxiv", found.group(1), found.group(2) or "")
    return None


def possible_arxiv(value: str) -> bool:
    """Whether a new-style ID names a month arXiv has (from 0704 on, months 01-12); old style: always."""
    if "/" in value:
        return True
    month = int(value[2:4])
    return 1 <= month <= 12 and value[:4] >= "0704" and (len(value.split(".")[1]) == 5) == (value[:4] >= "1501")


def from_url(url: str) -> Identifier | None:
    """The identifier a DOI, arXiv or PubMed URL names, or None for any other URL."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    path = parts.path
    if host in DOI_HOSTS:
        doi = clean_doi(path.lstrip("/"))
        return Identifier("doi", doi) if doi else None
    if host in ARXIV_HOSTS:
        found = re.match(r"/(?:abs|pdf|html)/(.+)", path)
        return arxiv_id(unquote(found.group(1)).rstrip("/")) if found else None
    if host in PUBMED_HOSTS:
        found = re.match(r"/(?:pubmed/)?(\d{1,9})/?$", path)
        return Identifier("pmid", str(int(found.group(1)))) if found else None
    return None


def from_text(match: re.Match[str]) -> Identifier | None:
    """The identifier a `TEXT_PATTERN` match names."""
    if match.group("doi"):
        doi = clean_doi(match.group("doi"))
        return Identifier("doi", doi) if doi else None
    if match.group("arxiv"):
        return arxiv_id(match.group("arxiv")[6:].strip())
    digits = re.sub(r"\D", "", match.group("pmid"))
    return Identifier("pmid", str(int(digits))) if digits else None
