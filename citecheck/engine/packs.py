"""YAML rule packs: data for Python rules (`kind: data`) and data-driven rules (`kind: rules`).

Data rules use a small closed set of check types, Vale-style:
  existence     memo text must not contain any of `tokens` (words or regexes)
  substitution  memo text should use the value instead of each key in `swap`
  occurrence    a token may appear at most `max` times in a memo
  domain-list   a link's registrable domain or host suffix is one of `domains`
  phrase-list   a fetched page's title or text contains one of `phrases`
  title-pattern a fetched page's title matches one of the regexes in `patterns`

Text is matched as the page rules match their packs, through `citecheck.checks._page.Phrases`:
folded (NFKC, case-folded unless `case: true`, curly quotes straightened, whitespace collapsed),
phrases and swap keys as plain text, tokens and patterns as regexes, each item whole words where it
starts or ends with a letter or digit; a phrase list reports the phrase that comes first in the
page (title before text), a memo rule the text as written where it matched.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck._util.safeload import LimitError, load_yaml, safe_loader
from citecheck.checks._page import Phrases
from citecheck.engine.rule import RuleSpec, WriteRole, validate
from citecheck.errors import PackError
from citecheck.extract.positions import offset_location
from citecheck.models import Gate, Hit, Link, Location, Severity, Verdict

if TYPE_CHECKING:
    from citecheck.cache.packs import PackCache

CHECK_TYPES = ("existence", "substitution", "occurrence", "domain-list", "phrase-list", "title-pattern")
_STAGE_OF = {"existence": "memo", "substitution": "memo", "occurrence": "memo", "domain-list": "url",
             "phrase-list": "page", "title-pattern": "page"}


@dataclass(frozen=True)
class Packs:
    data: Mapping[str, Any]  # pack name -> merged data (lists concatenated, mappings merged)
    rules: tuple[RuleSpec, ...]
    files: tuple[str, ...]
    origins: Mapping[str, str] = field(default_factory=dict)  # data pack name -> first file that named it


def builtin_dir() -> Path:
    """The folder of the built-in packs: the package `citecheck.packs` that setup.cfg's `package_dir`
    maps from the top-level `rules/` folder at install time, or, in a source checkout run without
    installing (`PYTHONPATH=<checkout> python -m citecheck`, as bench/ab_warm.sh runs trees), that
    checkout's `rules/` itself. PackError (one line, exit 2) if neither is there."""
    # find_spec, not importlib.resources: it does not run the package and costs no import of
    # importlib.resources (with tempfile, shutil: ~4 ms of every CLI call, bench/startup.py)
    from importlib.util import find_spec

    spec = find_spec("citecheck.packs")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        return Path(folder)
    checkout = Path(__file__).resolve().parents[2] / "rules"
    if (checkout / "__init__.py").is_file():
        return checkout
    raise PackError(f"the built-in rule packs are missing: no package citecheck.packs and no {checkout} "
                    "(install citecheck, or run it from a complete source checkout)")


def load_packs(dirs: Iterable[str | Path] = (), cache: PackCache | None = None) -> Packs:
    """Load the built-in packs, then each user directory (later files extend earlier data); with
    `cache` (the CLI's), files read before are not parsed again."""
    data: dict[str, Any] = {}
    rules: list[RuleSpec] = []
    files: list[str] = []
    origins: dict[str, str] = {}
    builtin = builtin_dir()
    for directory in (builtin, *map(Path, dirs)):
        if not directory.is_dir():
            raise PackError(f"{directory}: rule pack directory not found")
        for file in sorted(directory.glob("*.y*ml")):
            files.append(str(file))
            # the built-in packs are validated by the test suite (tests/engine/test_pack_schema.py): checking
            # them on every run would cost a quarter of a second of jsonschema per CLI call
            for name in _load_file(file, data, rules, validated=directory != builtin, cache=cache):
                origins.setdefault(name, str(file))
    if cache is not None:
        cache.save()
    return Packs(data, tuple(rules), tuple(files), origins)


def _load_file(file: Path, data: dict[str, Any], rules: list[RuleSpec], validated: bool = True,
               cache: PackCache | None = None) -> list[str]:
    """Load one pack file into `data` or `rules`; the names of the data packs it extended."""
    try:
        text = file.read_text(encoding="utf-8")
        doc = cache.parse(text, lambda text: _parse(file, text)) if cache is not None else _parse(file, text)
    except (OSError, UnicodeDecodeError, LimitError) as err:
        raise PackError(f"{file}: cannot read pack: {err}") from None
    if not isinstance(doc, dict) or "pack" not in doc:
        raise PackError(f"{file}:1: a pack is a mapping with a 'pack' name")
    if validated:
        from citecheck.engine.packschema import validate_pack

        validate_pack(file, text, doc, safe_loader())
    kind = doc.get("kind", "data")
    if kind == "data":
        _merge(data, str(doc["pack"]), doc.get("data"), file)
        return [str(doc["pack"])]
    if kind == "rules":
        for index, entry in enumerate(doc.get("rules") or []):
            rules.append(_data_rule(file, index, entry))
        return []
    raise PackError(f"{file}:1: unknown pack kind {kind!r} (data or rules)")


def _parse(file: Path, text: str) -> Any:
    import yaml

    try:
        return load_yaml(text, safe_loader())
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise PackError(f"{file}:{mark.line + 1 if mark else 1}: malformed pack: {getattr(err, 'problem', err)}") from None


def _merge(data: dict[str, Any], name: str, value: Any, file: Path) -> None:
    if not isinstance(value, dict):
        raise PackError(f"{file}:1: pack {name!r} needs a 'data' mapping")
    target = data.setdefault(name, {})
    for key, item in value.items():
        if isinstance(item, list):
            target.setdefault(key, [])
            target[key] = list(target[key]) + item
        elif isinstance(item, dict):
            target.setdefault(key, {})
            target[key] = {**target[key], **item}
        else:
            target[key] = item


def _data_rule(file: Path, index: int, entry: Any) -> RuleSpec:
    where = f"{file}: rule #{index + 1}"
    if not isinstance(entry, dict):
        raise PackError(f"{where}: must be a mapping")
    missing = [k for k in ("id", "name", "type", "message") if k not in entry]
    if missing:
        raise PackError(f"{where}: missing {', '.join(missing)}")
    ctype = entry["type"]
    if ctype not in CHECK_TYPES:
        raise PackError(f"{where}: unknown check type {ctype!r} (one of {', '.join(CHECK_TYPES)})")
    options = {k: v for k, v in entry.items() if k not in ("id", "name", "type", "severity", "description", "verdict",
                                                            "gate", "write", "evidence")}
    stage = _STAGE_OF[ctype]
    try:
        spec = RuleSpec(id=str(entry["id"]), name=str(entry["name"]), stage=stage,
                        severity=Severity(entry.get("severity", "warning")),
                        doc=str(entry.get("description", entry["message"])), check=_CHECKS[ctype],
                        defaults=options, origin=str(file), prepare=_PREPARE.get(ctype),
                        verdict=Verdict(entry.get("verdict", "memo" if stage == "memo" else "advisory")),
                        gate=Gate(entry.get("gate", "severity")), write_role=WriteRole(entry.get("write", "runs")),
                        evidence_label=str(entry.get("evidence", "")))
    except ValueError as err:
        raise PackError(f"{where}: {err}") from None
    validate(spec)
    return spec


def _spans(memo: Any) -> Iterator[tuple[str, Location]]:
    for span in memo.document.spans:
        yield span.text, span.location


def _memo_phrases(options: Mapping[str, Any]) -> Phrases:
    return Phrases(options.get("tokens", []), regex=True, case=bool(options.get("case", False)))


def _existence(memo: Any, options: Mapping[str, Any], prepared: Phrases | None = None) -> Iterator[Hit]:
    tokens = prepared if prepared is not None else _memo_phrases(options)
    for text, loc in _spans(memo):
        for start, end, _ in tokens.spans(text):
            found = text[start:end]
            yield Hit(str(options["message"]).format(found), offset_location(text, loc, start), evidence=found)


def _swaps(options: Mapping[str, Any]) -> Phrases:
    return Phrases(dict(options.get("swap", {})), regex=False, case=bool(options.get("case", False)))


def _substitution(memo: Any, options: Mapping[str, Any], prepared: Phrases | None = None) -> Iterator[Hit]:
    swap = dict(options.get("swap", {}))
    keys = prepared if prepared is not None else _swaps(options)
    for text, loc in _spans(memo):
        for start, end, folded in keys.spans(text):
            good, found = str(swap.get(keys.item(folded), "")), text[start:end]
            yield Hit(str(options["message"]).format(good, found), offset_location(text, loc, start),
                      evidence=found, fix=good)


def _occurrence(memo: Any, options: Mapping[str, Any], prepared: Phrases | None = None) -> Iterator[Hit]:
    tokens = prepared if prepared is not None else _memo_phrases(options)
    hits = [(text, loc, start, end) for text, loc in _spans(memo) for start, end, _ in tokens.spans(text)]
    limit = int(options.get("max", 0))
    if len(hits) > limit:
        text, loc, start, end = hits[limit]
        yield Hit(str(options["message"]).format(len(hits)), offset_location(text, loc, start), evidence=text[start:end])


def _domains(options: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(str(domain).lower().lstrip(".") for domain in options.get("domains", []))


def _domain_list(link: Link, options: Mapping[str, Any], prepared: frozenset[str] | None = None) -> Iterator[Hit]:
    from citecheck.urls import domain_match, host_of

    host = host_of(link.url)
    if domain_match(host, prepared if prepared is not None else _domains(options)):
        yield Hit(str(options["message"]).format(host), link.location, link.url, evidence=host)


def _page_phrases(options: Mapping[str, Any]) -> Phrases:
    return Phrases(options.get("phrases", []), regex=False)


def _phrase_list(fetched: Any, options: Mapping[str, Any], prepared: Phrases | None = None) -> Iterator[Hit]:
    phrases = prepared if prepared is not None else _page_phrases(options)
    page, memo = fetched.page, getattr(fetched, "memo", None)
    found = phrases.first(page.title, memo) or phrases.first(page.text_sample, memo)
    if found:
        phrase = phrases.item(found)
        yield Hit(str(options["message"]).format(phrase), fetched.link.location, fetched.link.url, evidence=phrase)


def _title_patterns(options: Mapping[str, Any]) -> Phrases:
    return Phrases(options.get("patterns", []), regex=True)


def _title_pattern(fetched: Any, options: Mapping[str, Any], prepared: Phrases | None = None) -> Iterator[Hit]:
    patterns = prepared if prepared is not None else _title_patterns(options)
    if patterns.first(fetched.page.title, getattr(fetched, "memo", None)):
        yield Hit(str(options["message"]).format(fetched.page.title), fetched.link.location, fetched.link.url,
                  evidence=fetched.page.title)


_CHECKS: dict[str, Callable[..., Iterator[Hit]]] = {"existence": _existence, "substitution": _substitution, "occurrence": _occurrence,
           "domain-list": _domain_list, "phrase-list": _phrase_list, "title-pattern": _title_pattern}
# what each check type compiles once from its options (the engine passes it as `prepared`)
_PREPARE: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "existence": _memo_phrases, "substitution": _swaps, "occurrence": _memo_phrases, "domain-list": _domains,
    "phrase-list": _page_phrases, "title-pattern": _title_patterns}
