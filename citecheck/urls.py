"""URL helpers: host, registrable domain (tldextract, offline snapshot) and the dedupe key."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import tldextract
from w3lib.url import canonicalize_url, url_query_cleaner

# Never fetch the public suffix list at run time: the bundled snapshot only.
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

# Conservative: parameters that only ever track a click, never select content.
TRACKING_PARAMS = (
    "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "utm_id", "utm_name",
    "gclid", "dclid", "fbclid", "msclkid", "mc_cid", "mc_eid", "igshid", "_hsenc", "_hsmi", "yclid",
    "ref_src", "cmpid", "s_cid", "mkt_tok",
)


def host_of(url: str) -> str:
    try:
        return (urlsplit(url.strip()).hostname or "").lower().rstrip(".")
    except ValueError:
        return ""


@lru_cache(maxsize=8192)
def registrable_domain(host: str) -> str:
    ext = _EXTRACT(host)
    return ext.top_domain_under_public_suffix if hasattr(ext, "top_domain_under_public_suffix") else ext.registered_domain


@lru_cache(maxsize=8192)
def public_suffix(host: str) -> str:
    return _EXTRACT(host).suffix


@lru_cache(maxsize=65536)
def dedupe_key(url: str) -> str:
    """Canonical key for deduplication: w3lib canonical form, tracking params and fragment dropped,
    scheme and a leading `www.` folded, trailing slash on the path ignored."""
    try:
        cleaned = url_query_cleaner(url.strip(), TRACKING_PARAMS, remove=True, keep_fragments=False)
        canon = canonicalize_url(cleaned, keep_fragments=False)
        parts = urlsplit(canon)
    except ValueError:
        return url.strip()
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    port = f":{parts.port}" if parts.port and parts.port not in (80, 443) else ""
    path = parts.path.rstrip("/") or ""
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{port}{path}{query}"


def same_url(a: str, b: str) -> bool:
    return dedupe_key(a) == dedupe_key(b)
