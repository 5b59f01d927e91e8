"""The registries' documented answers, read into `Record`s (pure functions of the response body).

- DOI handle API (`{doi}/api/handles/{DOI}`, DOI Handbook "REST API Response Format"): JSON with
  `responseCode` 1 (exists, HTTP 200), 100 (Handle Not Found, HTTP 404), 2 (error, HTTP 500), 200
  (values not found: the handle exists);
- DOI content negotiation (`Accept: application/vnd.citationstyles.csl+json`): one CSL-JSON item;
- Crossref REST API `/works/{DOI}`: `{"status": "ok", "message-type": "work", "message": {…}}`;
  retractions as `update-to`/`updated-by` entries of type retraction and `relation.is-retracted-by`;
- DataCite REST API `/dois/{DOI}`: JSON:API `{"data": {"attributes": {titles, creators, publicationYear, …}}}`;
- arXiv API (Atom 1.0): one `<entry>` per found ID; an unknown ID has no entry; a malformed query is
  one entry titled "Error" whose id points at `/api/errors`;
- NCBI E-utilities esummary (`retmode=json`): `{"result": {"uids": […], "<uid>": {…}}}`; an unknown UID
  is an entry with an `error` ("cannot get document summary") or is left out.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from citecheck.scholarly.records import Author, Record
from citecheck.scholarly.text import plain

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
RETRACTION_TYPES = frozenset({"retraction", "withdrawal", "removal", "partial_retraction"})


def load_json(body: bytes) -> Any:
    """The JSON document of a body, or None when it is not JSON."""
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def handle_code(body: bytes) -> int | None:
    """The handle API's `responseCode`, or None when the body is not its JSON."""
    data = load_json(body)
    code = data.get("responseCode") if isinstance(data, dict) else None
    return code if isinstance(code, int) else None


def _years(parts: Iterable[Any]) -> list[int]:
    out = []
    for item in parts:
        try:
            year = int(((item or {}).get("date-parts") or [[None]])[0][0])
        except (TypeError, ValueError, IndexError, AttributeError):
            continue
        out.append(year)
    return out


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [plain(value)] if value.strip() else []
    if isinstance(value, list):
        return [plain(v) for v in value if isinstance(v, str) and v.strip()]
    return []


def _csl_authors(people: Any) -> tuple[Author, ...]:
    out = []
    for person in people if isinstance(people, list) else []:
        if not isinstance(person, dict):
            continue
        family, given = str(person.get("family") or ""), str(person.get("given") or "")
        literal = str(person.get("literal") or person.get("name") or "")
        if family or literal:
            out.append(Author(plain(family), plain(given), plain(literal)))
    return tuple(out)


def csl_record(item: Mapping[str, Any], registry: str = "csl") -> Record:
    """A CSL-JSON item (content negotiation) or a Crossref work (the same field names) as a Record."""
    titles = _texts(item.get("title"))
    subtitles = _texts(item.get("subtitle"))
    full = [f"{titles[0]}: {subtitles[0]}"] if titles and subtitles else []
    years = _years(item.get(k) for k in ("issued", "published", "published-print", "published-online", "posted"))
    retraction = _crossref_retraction(item)
    return Record(
        registry=registry, title=titles[0] if titles else "",
        titles=tuple(dict.fromkeys([*titles, *full, *_texts(item.get("original-title")), *_texts(item.get("short-title"))])),
        authors=_csl_authors(item.get("author") or item.get("editor")), year=years[0] if years else None,
        years=tuple(dict.fromkeys(years)), venue=(_texts(item.get("container-title")) or [""])[0],
        retracted=bool(retraction), retraction=retraction, abstract=plain(str(item.get("abstract") or ""))[:2000],
        doi=str(item.get("DOI") or "").lower())


def _crossref_retraction(item: Mapping[str, Any]) -> str:
    """The retraction notice Crossref records for a work ('' for none)."""
    for key in ("updated-by", "update-to"):
        for update in item.get(key) or []:
            if isinstance(update, dict) and str(update.get("type", "")).lower().replace("-", "_") in RETRACTION_TYPES:
                return str(update.get("DOI") or update.get("label") or update.get("type"))
    relation = item.get("relation") or {}
    for entry in relation.get("is-retracted-by") or [] if isinstance(relation, dict) else []:
        if isinstance(entry, dict):
            return str(entry.get("id") or "retraction")
    return ""


def crossref_record(body: bytes) -> Record | None:
    """A Crossref `/works/{DOI}` answer as a Record (None: not the documented shape)."""
    data = load_json(body)
    if not isinstance(data, dict) or not isinstance(data.get("message"), dict):
        return None
    return csl_record(data["message"], "crossref")


def csl_json_record(body: bytes) -> Record | None:
    data = load_json(body)
    if isinstance(data, list) and data and isinstance(data[0], dict):
        data = data[0]
    return csl_record(data, "csl") if isinstance(data, dict) and (data.get("title") or data.get("DOI")) else None


def datacite_record(body: bytes) -> Record | None:
    """A DataCite `/dois/{DOI}` answer as a Record."""
    data = load_json(body)
    attrs = ((data or {}).get("data") or {}).get("attributes") if isinstance(data, dict) else None
    if not isinstance(attrs, dict):
        return None
    titles = [plain(str(t.get("title"))) for t in attrs.get("titles") or [] if isinstance(t, dict) and t.get("title")]
    authors = []
    for creator in attrs.get("creators") or []:
        if isinstance(creator, dict):
            family = str(creator.get("familyName") or "")
            authors.append(Author(plain(family), plain(str(creator.get("givenName") or "")),
                                  "" if family else plain(str(creator.get("name") or ""))))
    years = []
    for value in [attrs.get("publicationYear"), *[d.get("date", "")[:4] for d in attrs.get("dates") or []
                                                  if isinstance(d, dict) and d.get("dateType") in ("Issued", "Submitted")]]:
        try:
            years.append(int(str(value)[:4]))
        except (TypeError, ValueError):
            continue
    abstract = next((plain(str(d.get("description"))) for d in attrs.get("descriptions") or []
                     if isinstance(d, dict) and d.get("descriptionType") == "Abstract" and d.get("description")), "")
    retracted = any(isinstance(r, dict) and r.get("relationType") == "IsRetractedBy"
                    for r in attrs.get("relatedIdentifiers") or [])
    publisher = attrs.get("publisher")
    venue = publisher.get("name", "") if isinstance(publisher, dict) else str(publisher or "")
    return Record(registry="datacite", title=titles[0] if titles else "", titles=tuple(dict.fromkeys(titles)),
                  authors=tuple(a for a in authors if a.family or a.literal), year=years[0] if years else None,
                  years=tuple(dict.fromkeys(years)), venue=venue, retracted=retracted,
                  retraction="IsRetractedBy" if retracted else "", abstract=abstract[:2000],
                  doi=str(attrs.get("doi") or "").lower())


def arxiv_entries(body: bytes) -> dict[str, Record] | None:
    """The arXiv Atom feed's entries by ID without version; None when the body is not a feed or is
    arXiv's error entry (a malformed query)."""
    from lxml import etree

    try:
        root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    except etree.XMLSyntaxError:
        return None
    if root.tag != f"{ATOM}feed":
        return None
    out: dict[str, Record] = {}
    for entry in root.iter(f"{ATOM}entry"):
        ident = (entry.findtext(f"{ATOM}id") or "").strip()
        title = " ".join((entry.findtext(f"{ATOM}title") or "").split())
        if "/api/errors" in ident or (title == "Error" and "arxiv.org/abs/" not in ident):
            return None
        found = re.search(r"arxiv\.org/abs/(.+?)(v\d+)?$", ident)
        if not found or not title:
            continue  # an entry without a title stands for an ID arXiv does not have
        years = [int(t[:4]) for t in (entry.findtext(f"{ATOM}published"), entry.findtext(f"{ATOM}updated")) if t]
        ref = entry.findtext(f"{ARXIV}journal_ref") or ""
        years += [int(y) for y in re.findall(r"\b(19\d{2}|20\d{2})\b", ref)[:1]]
        authors = tuple(Author(literal=plain(" ".join((a.findtext(f"{ATOM}name") or "").split())))
                        for a in entry.findall(f"{ATOM}author"))
        out[found.group(1)] = Record(
            registry="arxiv", title=plain(title), titles=(plain(title),), authors=authors,
            year=years[0] if years else None, years=tuple(dict.fromkeys(years)), venue=ref.strip() or "arXiv",
            abstract=plain(" ".join((entry.findtext(f"{ATOM}summary") or "").split()))[:2000],
            doi=(entry.findtext(f"{ARXIV}doi") or "").strip().lower(), url=f"https://arxiv.org/abs/{found.group(1)}")
    return out


def esummary_records(body: bytes, asked: Iterable[str]) -> dict[str, Record | None] | None:
    """PubMed esummary (JSON): each asked UID → its Record, or None when PubMed has no such record;
    None overall when the body is not an esummary result."""
    data = load_json(body)
    result = data.get("result") if isinstance(data, dict) else None
    if not isinstance(result, dict):
        return None
    out: dict[str, Record | None] = {}
    for uid in asked:
        item = result.get(uid)
        if not isinstance(item, dict) or item.get("error") or not item.get("title"):
            out[uid] = None
            continue
        years = [int(y) for key in ("pubdate", "epubdate", "sortpubdate")
                 for y in re.findall(r"^(\d{4})", str(item.get(key) or ""))]
        authors = tuple(Author(literal=str(a.get("name"))) for a in item.get("authors") or []
                        if isinstance(a, dict) and a.get("name") and a.get("authtype", "Author") == "Author")
        types = [str(t) for t in item.get("pubtype") or []]
        doi = next((str(a.get("value")) for a in item.get("articleids") or []
                    if isinstance(a, dict) and a.get("idtype") == "doi"), "")
        out[uid] = Record(registry="pubmed", title=plain(str(item["title"])).rstrip("."),
                          titles=(plain(str(item["title"])).rstrip("."),), authors=authors,
                          year=years[0] if years else None, years=tuple(dict.fromkeys(years)),
                          venue=str(item.get("fulljournalname") or item.get("source") or ""),
                          retracted="Retracted Publication" in types,
                          retraction="Retracted Publication" if "Retracted Publication" in types else "",
                          doi=doi.lower(), url=f"https://pubmed.ncbi.nlm.nih.gov/{uid}/")
    return out
