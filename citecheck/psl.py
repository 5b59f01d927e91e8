"""Public-suffix lookup over tldextract's bundled Public Suffix List snapshot, without importing
tldextract.

The offline rules ask one question of the list on every URL and every bare `domain.tld/path`
candidate: does this host end in a known public suffix? Answering it through tldextract costs
~0.27 s per process (importing tldextract imports `requests`, `urllib3` and `filelock`, then its
trie is built on first use) — a fifth of an offline audit of a 5,000-link memo. This module reads
the same data file tldextract ships (`tldextract/.tld_set_snapshot`, located without importing
the package; the list is never fetched) and walks the same trie the same way (ICANN section
only, `*` wildcards, `!` exceptions, punycode labels decoded, Unicode full stops folded).
`tests/test_psl.py` checks that `public_suffix` equals tldextract's `.suffix` on every rule of
the list in several spellings, on IPs, ports, odd hosts and random text, and that
`registrable_domain` equals tldextract's `top_domain_under_public_suffix` on the same hosts (the
page workers of an online audit would otherwise each import tldextract).
"""
from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

_SEPARATOR = "// ===BEGIN PRIVATE DOMAINS==="
# tldextract's own rule pattern, `^(?P<suffix>[.*!]*\w[\S]*)` with re.MULTILINE, anchored on the
# newline before each line instead: a literal first character lets the regex engine jump from line
# to line, where `^` made it try every character of the 200 kB list
_RULE_RE = re.compile(r"\n([.*!]*\w\S*)", re.UNICODE)
_AFTER_DOT_RE = re.compile(r"\.(?=(\S*))")  # at each dot of a rule: the rest of the rule
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")


def snapshot_path() -> Path:
    """tldextract's bundled list, found without importing (and so without running) tldextract."""
    spec = importlib.util.find_spec("tldextract")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("tldextract is not installed: citecheck needs its bundled Public Suffix List")
    return Path(next(iter(spec.submodule_search_locations))) / ".tld_set_snapshot"


@lru_cache(maxsize=1)
def _rules() -> tuple[frozenset[str], frozenset[str]]:
    """(every rule, every rule's suffixes): the trie tldextract walks, flattened into two sets.
    A path of the trie (`uk`, `co.uk`) is in the second set; a node that ends a rule is in the
    first; a node's `*` child is the path `*.<node>` and its `!label` child `!label.<node>`. Two
    set builds cost a third of building the trie's node objects, and both are made by the regex
    engine's `findall` (no Python step per rule), but still ~0.03e9 instructions: a run asking
    about few top-level labels reads only their rules (`_trie_for`)."""
    text = _icann().decode("utf-8")
    rules = frozenset(_RULE_RE.findall(text))
    return rules, _with_paths(rules)


def _with_paths(rules: frozenset[str]) -> frozenset[str]:
    return rules.union(_AFTER_DOT_RE.findall("\n".join(rules)))


@lru_cache(maxsize=1)
def _icann() -> bytes:
    """The list's ICANN section as UTF-8, after a newline (every rule starts a line), newlines
    normalised as `read_text` would."""
    data = snapshot_path().read_bytes()
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return b"\n" + data.partition(_SEPARATOR.encode())[0]


# A walk for a host whose last label is T asks only about keys whose own last label is T, `*` or
# `!T`, and a key is a rule or a rule's suffix only if that rule has the same last label: so the
# rules with those three last labels answer the walk as the whole list would. Finding them costs a
# few `bytes.find` over the list's text. The whole list is read instead after this many distinct
# last labels (a long memo's bare-domain candidates name many), or for a label with more than
# _MAX_LINES rules (`jp` has ~1,800: reading them one by one would cost more than the sets).
_LAZY_LABELS = 16
_MAX_LINES = 256
# bytes that cannot follow the end of a rule (ASCII and not whitespace, as `\S` reads them)
_NOT_AFTER_RULE = frozenset(b for b in range(128) if not chr(b).isspace())


@lru_cache(maxsize=_LAZY_LABELS)
def _trie_for(last: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """(rules, paths) as `_rules`, restricted to what a walk from the last label `last` asks;
    None when a label has too many rules to read one by one."""
    parts = [_rules_ending(label) for label in (last, "*", f"!{last}")]
    if any(part is None for part in parts):
        return None
    rules = frozenset().union(*parts)  # type: ignore[arg-type]
    return rules, _with_paths(rules)


@lru_cache(maxsize=_LAZY_LABELS * 2 + 1)
def _rules_ending(label: str) -> frozenset[str] | None:
    """Every rule whose last label (after its last dot) is `label`, read off the lines where the
    label's bytes follow a newline or a dot and end the rule; None past `_MAX_LINES` such lines."""
    if not label:  # a rule ending in a dot: every line would be a candidate, so read them all
        return frozenset(r for r in _rules()[0] if not r.rpartition(".")[2])
    if label.split() != [label]:  # no rule holds whitespace
        return frozenset()
    data, needle = _icann(), label.encode("utf-8", "surrogatepass")
    found: set[str] = set()
    lines = 0
    for target in (b"." + needle, b"\n" + needle):  # the label starts the rule or follows a dot
        at = data.find(target)
        while at != -1:
            after = at + len(target)
            if after < len(data) and data[after] in _NOT_AFTER_RULE:  # the label does not end the rule
                at = data.find(target, at + 1)
                continue
            lines += 1
            if lines > _MAX_LINES:
                return None
            end = data.find(b"\n", after)
            end = len(data) if end == -1 else end
            match = _RULE_RE.match(data[data.rfind(b"\n", 0, at + 1):end].decode("utf-8"))
            if match and match.group(1).rpartition(".")[2] == label:
                found.add(match.group(1))
            at = data.find(target, end)  # one rule per line
    return frozenset(found)


def _lookup(last: str) -> tuple[frozenset[str], frozenset[str]]:
    if _rules.cache_info().currsize or _trie_for.cache_info().currsize >= _LAZY_LABELS:
        return _rules()
    return _trie_for(last) or _rules()


def public_suffix(host: str) -> str:
    """The host's public suffix as written (`co.uk` for `news.bbc.co.uk`), or '' when it has none."""
    labels = _lenient_host(host).translate(_DOTS).split(".")
    rules, paths = _lookup(_decode(labels[-1]))
    suffix_at = at = len(labels)
    path = ""
    for label in reversed(labels):
        decoded = _decode(label)
        child = f"{decoded}.{path}" if path else decoded
        if child in paths:
            at -= 1
            path = child
            if child in rules:
                suffix_at = at
            continue
        if (f"*.{path}" if path else "*") in paths:
            exception = f"!{decoded}.{path}" if path else f"!{decoded}"
            return ".".join(labels[at if exception in paths else at - 1:])
        break
    return "" if suffix_at == len(labels) else ".".join(labels[suffix_at:])


def registrable_domain(host: str) -> str:
    """The public suffix and the one label before it (`bbc.co.uk` for `news.bbc.co.uk`), '' when
    there is none: tldextract's `top_domain_under_public_suffix`."""
    suffix = public_suffix(host)
    if not suffix:
        return ""
    labels = _lenient_host(host).translate(_DOTS).split(".")
    size = suffix.count(".") + 1
    if len(labels) <= size or not labels[-size - 1]:
        return ""
    return f"{labels[-size - 1]}.{suffix}"


def _decode(label: str) -> str:
    lowered = label.lower()
    if lowered.startswith("xn--"):
        import idna

        try:
            return str(idna.decode(lowered))
        except (UnicodeError, IndexError):
            pass
    return lowered


def _lenient_host(text: str) -> str:
    """The host part of a URL-ish string, as tldextract's `lenient_netloc` reads it."""
    slashes = text.find("//")
    if slashes == 0:
        text = text[2:]
    elif slashes >= 2 and text[slashes - 1] == ":" and not set(text[: slashes - 1]) - _SCHEME_CHARS:
        text = text[slashes + 2:]
    authority = text.partition("/")[0].partition("?")[0].partition("#")[0]
    after_userinfo = authority.rpartition("@")[-1]
    if after_userinfo and after_userinfo[0] == "[":
        before, bracket, _ = after_userinfo.partition("]")
        if bracket:
            return f"{before}]"
    return after_userinfo.partition(":")[0].strip().rstrip(".\u3002\uff0e\uff61")
