"""URL helpers: host, registrable domain (tldextract, offline snapshot), the dedupe key (which URLs
name one source) and the fact key (which URLs are one request).

The memos of this module are its `lru_cache`d functions (`url_host`, `registrable_domain`,
`public_suffix`, `dedupe_key`, `fact_key` and the suffix extractor they share); `clear_memos()` empties
them all. They hold only pure answers, so keeping them for the life of the process changes no result.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from tldextract import TLDExtract

# A scheme, unless what follows the colon is a port ("example.com:8443/x" is a host and port).
_SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))", re.IGNORECASE)

_C0_EDGES = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")  # stripped by URL parsers (WHATWG)
_NETWORK_SCHEMES = frozenset({"http", "https", "ftp", "ftps", "sftp", "ws", "wss"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# Already in fact-key form: lower-case http(s) scheme and host, no port, userinfo, escape or fragment.
_PLAIN_URL = re.compile(r"https?://[a-z0-9.-]+/[^#%\s\\]*")

# Conservative: parameters that only ever track a click, never select content.
TRACKING_PARAMS = (
    "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "utm_id", "utm_name",
    "gclid", "dclid", "fbclid", "msclkid", "mc_cid", "mc_eid", "igshid", "_hsenc", "_hsmi", "yclid",
    "ref_src", "cmpid", "s_cid", "mkt_tok",
)


@lru_cache(maxsize=65536)
def url_host(url: str) -> str:
    """`urlsplit(url.strip()).hostname` (lower case), or '' when there is none or it does not parse.
    Memoised: every URL rule asks for the host of the same URLs."""
    try:
        return urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""


def host_of(url: str) -> str:
    """The URL's host in lower case, without a trailing dot ('' when there is none)."""
    return url_host(url).rstrip(".")


def domain_match(host: str, domains: Collection[str]) -> str:
    """The entry of `domains` that `host` is, or is under ('' for none): `a.b.example.com` is under
    `example.com` and `b.example.com`, never under `ample.com`; the most specific entry wins. The one
    "host under a domain list" test; `domains` are lower-case names without a leading dot."""
    name = host
    while name:
        if name in domains:
            return name
        name = name.partition(".")[2]
    return ""


@lru_cache(maxsize=1)
def _suffix_extractor() -> TLDExtract:
    """tldextract over the Public Suffix List snapshot bundled with it, built when a run first asks a
    suffix question (importing tldextract costs ~0.1 s). Never fetched (`suffix_list_urls=()` also
    overrides TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS) and never cached on disk (`cache_dir=None`); the
    list's private section (`github.io`, `blogspot.com`) is not a suffix here, tldextract's default."""
    from tldextract import TLDExtract

    return TLDExtract(cache_dir=None, suffix_list_urls=(), fallback_to_snapshot=True,
                      include_psl_private_domains=False)


@lru_cache(maxsize=8192)
def registrable_domain(host: str) -> str:
    """The registrable domain, the public suffix and the label before it (`bbc.co.uk` for
    `news.bbc.co.uk`), '' for none: tldextract's `top_domain_under_public_suffix`."""
    return _suffix_extractor()(host).top_domain_under_public_suffix


@lru_cache(maxsize=65536)
def public_suffix(host: str) -> str:
    """The host's public suffix as written (`co.uk` for `news.bbc.co.uk`), '' for none: tldextract's
    `suffix` (ICANN section of its bundled list)."""
    return _suffix_extractor()(host).suffix


def clear_memos() -> None:
    """Empty every memo of this module (a test measuring work, or a long-lived process)."""
    for memo in (url_host, registrable_domain, public_suffix, dedupe_key, fact_key, _suffix_extractor):
        memo.cache_clear()


@lru_cache(maxsize=65536)
def dedupe_key(url: str) -> str:
    """Canonical key for deduplication: w3lib canonical form, tracking params and fragment dropped,
    scheme and a leading `www.` folded, trailing slash on the path ignored.

    Idempotent: a key read back as a URL gives itself (a key has no scheme, so scheme-less input is
    read as `host/path`; opaque URLs such as `mailto:` keep their scheme in the key). w3lib does not
    promise a fixed point (in `;`-parameters it escapes a `[` once a trailing `//` is gone:
    '(http://&amp;[http://'), so the key is re-read until it gives itself, at most twice more.
    """
    key = _key(url)
    for _ in range(2):
        again = _key(key)
        if again == key:
            break
        key = again
    return key


def _key(url: str) -> str:
    from w3lib.url import canonicalize_url, url_query_cleaner

    text = _with_scheme(_C0_EDGES.sub("", url.replace("\t", "").replace("\n", "").replace("\r", "")))
    try:
        text = _idna2008_host(text)
        first = urlsplit(text)
        if first.netloc and first.scheme.lower() not in ("http", "https"):
            # the key drops the scheme and reads back as http: canonicalise the rest as http does
            # (w3lib leaves the path of other schemes alone: 'ahttps://a.com/[' kept '[', its key '%5B')
            text = "http:" + text[len(first.scheme) + 1:]
        cleaned = url_query_cleaner(text, TRACKING_PARAMS, remove=True, keep_fragments=False)
        parts = urlsplit(canonicalize_url(cleaned, keep_fragments=False))
        port = parts.port
    except ValueError:
        return url.strip()
    if not parts.netloc and parts.scheme not in _NETWORK_SCHEMES:
        key = f"{parts.scheme}:{parts.path}" + (f"?{parts.query}" if parts.query else "")
    else:
        key = _network_key(parts.hostname or "", port, parts.path, parts.query)
    return _C0_EDGES.sub("", key)


def _idna2008_host(text: str) -> str:
    """`text` with a non-ASCII host spelled as its A-label under UTS #46 non-transitional processing
    (IDNA 2008, what browsers and the fetcher's yarl ask for). w3lib's canonicalize_url encodes hosts
    with Python's IDNA 2003 codec, which maps deviation characters away: `straße.de` became
    `strasse.de`, another registrable name, and a corpus lookup took one for the other. A host the
    idna library refuses is left to w3lib as before."""
    parts = urlsplit(text)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    if hostport.isascii():
        return text
    host, colon, port = hostport.rpartition(":") if hostport.rpartition(":")[2].isdigit() else (hostport, "", "")
    import idna  # only a non-ASCII host needs its tables

    try:
        ascii_host = idna.encode(host.rstrip(".。．｡"), uts46=True).decode("ascii") + ("." if host[-1:] in ".。．｡" else "")
    except (idna.IDNAError, UnicodeError):
        return text
    return urlunsplit(parts._replace(netloc=f"{userinfo}{at}{ascii_host}{colon}{port}"))


def _with_scheme(text: str) -> str:
    if text.startswith("//"):
        return "http:" + text
    return text if _SCHEME_RE.match(text) else "http://" + text


def _network_key(host: str, port: int | None, path: str, query: str) -> str:
    host = _C0_EDGES.sub("", host.lower())
    while host.startswith("www."):  # folded until none is left, or the key would not be a fixed point
        host = host[4:]
    host = f"[{host}]" if ":" in host else host
    port_part = f":{port}" if port and port not in (80, 443) else ""
    if not host and not port_part and path.startswith("//"):
        path = "/" + path.lstrip("/")  # "//x" with no host would read back as host "x"
    return f"{host}{port_part}{path.rstrip('/;')}" + (f"?{query}" if query else "")


def same_url(a: str, b: str) -> bool:
    return dedupe_key(a) == dedupe_key(b)


@lru_cache(maxsize=65536)
def fact_key(url: str) -> str:
    """The key a fetched fact is stored and looked up under: the URL as requested, normalised only
    where RFC 3986 (6.2.2) says the request stays the same: scheme and host in lower case, the
    scheme's default port dropped, an empty path read as "/", percent-encoded unreserved characters
    decoded and other escapes in upper case, the fragment (never sent) dropped.

    Unlike `dedupe_key` it keeps everything that can change the answer: `www.`, the scheme, a
    trailing slash, every query value and its order. A fact about one URL never answers for another.
    """
    if _PLAIN_URL.fullmatch(url):
        return url  # the common case, without parsing (a warm re-audit asks for thousands)
    text = url.strip().split("#", 1)[0]
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    scheme = parts.scheme.lower()
    if not parts.netloc:
        return text
    userinfo, _, hostport = parts.netloc.rpartition("@")
    host = hostport.lower()
    if port is not None or hostport.endswith(":"):
        host = host.rsplit(":", 1)[0]
        if port is not None and port != _DEFAULT_PORTS.get(scheme):
            host = f"{host}:{port}"
    netloc = f"{userinfo}@{host}" if userinfo else host
    path = _escapes(parts.path) or "/"
    query = f"?{_escapes(parts.query)}" if parts.query or text.endswith("?") else ""
    return f"{scheme}://{netloc}{path}{query}"


def _escapes(part: str) -> str:
    """Percent-encoded unreserved characters decoded, the other escapes in upper case."""
    if "%" not in part:
        return part

    def one(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()
    return _PERCENT.sub(one, part)
