"""The investing firm's own market leaks into a memo about a company that is not in it.

A memo generator primed with the firm's profile (an Indonesian VC: Indonesia, rupiah, OJK,
Southeast Asia) wrote those terms into the "Risks" section of a memo on a US company. This rule
reads the firm profile (`firm: {name, terms: [...]}`) and the company profile
(`company: {name, geographies: [...]}`) from the config (`firm:`/`company:` keys or this rule's
options) and from the memo's front matter, and reports every
whole-word, case-insensitive use of a firm term the company does not claim. A term is claimed when
it equals or is contained in one of the company's geographies (or the other way round), or when
the firm profile lists it under a claimed geography in `related`. `profile: NAME` (option, or
`profile:` inside `firm:`) starts from a named profile in the `firm_profiles` pack
(rules/firm_profiles.yaml ships several, such as `indonesian-vc`; `citecheck rules M001` lists
them); `firm: NAME` alone, in the config or in front matter, names a profile. URLs are not
scanned (the U and H rules judge them), nor are lines that name the firm itself while
`allow_firm_name` is true. No firm profile, no findings.

Configuration outranks content: the memo's front matter may add terms to a configured firm profile,
never remove or replace its name, terms or `related` groups, and a configured company profile
stands as configured (a front-matter geography would claim terms). Front matter speaks alone only
for a profile the configuration does not set.

Failing example (front matter `firm: indonesian-vc`, `company: {name: Acme Robotics, geographies: [United States]}`):

    ## Risks
    A weaker rupiah and new OJK rules could slow expansion into Southeast Asia.

Passing example (same front matter):

    ## Risks
    A stronger dollar and new FTC rules could slow expansion into Canada.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from citecheck.extract.bare import find_urls
from citecheck.extract.positions import offset_location
from citecheck.models import Hit

ID = "M001"
NAME = "firm-context-leak"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "memo"
PACK = "firm_profiles"
DEFAULTS: dict[str, Any] = {"firm": {}, "company": {}, "profile": "", "allow_firm_name": True, "allow": []}
OPTIONS = {
    "firm": "firm profile {name, terms, related} (the top-level `firm:` config key fills it)",
    "company": "company profile {name, geographies} (the top-level `company:` config key fills it)",
    "profile": "name of a firm profile in the firm_profiles pack to start from (e.g. indonesian-vc)",
    "allow_firm_name": "do not check lines that name the firm itself (a byline)",
    "allow": "terms never to report",
}

_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)


def as_profile(value: Any, profiles: Mapping[str, Any]) -> dict[str, Any]:
    """A profile mapping from a config/front-matter value: a mapping, a profile name, or a plain name."""
    if isinstance(value, str):
        named = profiles.get(value)
        return dict(named) if isinstance(named, Mapping) else {"name": value}
    if not isinstance(value, Mapping):
        return {}
    base = profiles.get(str(value.get("profile", "")), {})
    return {**base, **{k: v for k, v in value.items() if k != "profile"}}


def resolve(options: Mapping[str, Any], front: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(firm, company) profiles: the configured ones (pack profile, then options), to which the
    front matter may only add firm terms; front matter alone where the configuration sets none."""
    profiles = options.get("pack", {}).get("profiles", {})
    firm = as_profile({"profile": options.get("profile") or ""}, profiles)
    firm.update(as_profile(options.get("firm"), profiles))
    from_front = as_profile(front.get("firm"), profiles)
    if any(firm.get(key) for key in ("name", "terms", "related")):
        configured = _strs(firm.get("terms"))
        firm["terms"] = configured + [t for t in _strs(from_front.get("terms")) if t not in configured]
    else:
        firm = from_front
    company = as_profile(options.get("company"), {})
    if not any(company.get(key) for key in ("name", "geographies")):
        company = as_profile(front.get("company"), {})
    return firm, company


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.casefold())) + " "


def _overlaps(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    return wa.strip() != "" and wb.strip() != "" and (wa in wb or wb in wa)


def _strs(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value or [] if str(v).strip()] if isinstance(value, (list, tuple)) else []


def unclaimed_terms(firm: Mapping[str, Any], company: Mapping[str, Any], allow: Iterable[str] = ()) -> list[str]:
    """The firm's terms the company profile does not claim."""
    geographies = _strs(company.get("geographies"))
    related = firm.get("related")
    related = related if isinstance(related, Mapping) else {}
    claimed_by_group = {_words(t) for g, ts in related.items() if any(_overlaps(g, geo) for geo in geographies)
                        for t in _strs(ts)}
    skip = {_words(a) for a in allow}
    return [t for t in _strs(firm.get("terms")) if _words(t) not in claimed_by_group | skip
            and not any(_overlaps(t, geo) for geo in geographies)]


def _term_regex(terms: list[str]) -> re.Pattern[str]:
    alternatives = [r"\s+".join(map(re.escape, t.split())) for t in sorted(set(terms), key=len, reverse=True)]
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def _masked(text: str) -> str:
    """Blank out URLs and HTML comments (keeping offsets) so only prose is scanned."""
    chars = list(text)
    spans = [(m.start, m.start + len(m.raw)) for m in find_urls(text)]
    spans += [(m.start(), m.end()) for m in _COMMENT_RE.finditer(text)]
    for start, end in spans:
        chars[start:end] = [c if c == "\n" else " " for c in chars[start:end]]
    return "".join(chars)


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    firm, company = resolve(options, memo.document.front_matter)
    terms = unclaimed_terms(firm, company, _strs(options.get("allow")))
    firm_name = str(firm.get("name") or "").strip()
    if not options.get("allow_firm_name", True) and firm_name:
        terms.append(firm_name)
    if not terms:
        return
    regex, seen = _term_regex(terms), set()
    claimed = ", ".join(_strs(company.get("geographies"))) or "none given"
    for span in memo.document.spans:
        text = _masked(span.text)
        for m in regex.finditer(text):
            loc = offset_location(span.text, span.location, m.start())
            line_text = text.splitlines()[loc.line - span.location.line]
            if (loc.line, loc.column) in seen or (options.get("allow_firm_name", True) and firm_name
                                                  and firm_name.casefold() in line_text.casefold()):
                continue
            seen.add((loc.line, loc.column))
            where = f"section {span.section!r}" if span.section else "the memo's opening"
            yield Hit(f"firm-context term {m.group(0)!r} in {where}: the company profile does not claim it "
                      f"(company geographies: {claimed})", loc, evidence=m.group(0))
