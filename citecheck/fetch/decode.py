"""Body bytes → text, the way a browser decodes them (WHATWG Encoding and HTML "determining the
character encoding"):

1. a byte-order mark (UTF-8, UTF-16BE, UTF-16LE) wins over everything;
2. then the `charset` of the Content-Type header;
3. then the `<meta charset>` / `http-equiv` prescan of the first bytes, where a UTF-16 or UTF-32
   declaration means UTF-8 (a document whose declaration can be read as ASCII bytes is not UTF-16,
   so browsers ignore the lie);
4. with no usable declaration, UTF-8 when the bytes are valid UTF-8, else a statistical guess
   (charset-normalizer, as browsers fall back to a detector), else windows-1252.

Label → codec mapping follows WHATWG's legacy rules through w3lib (latin-1 and ascii read as
windows-1252, gb2312/gbk as gb18030, …); undecodable bytes become U+FFFD, never an exception.
"""
from __future__ import annotations

import codecs

from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, to_unicode

PRESCAN = 4096  # the meta prescan reads this many bytes (WHATWG says 1024; real heads run longer)
DETECT = 64 * 1024  # bytes the detector looks at when nothing is declared
_WIDE = ("utf-16", "utf-32")
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF16_LE, "utf-16-le"))


def _usable(name: str | None) -> str | None:
    """`name` when it names a text codec (not base64, zlib, rot13 …); else None."""
    if not name:
        return None
    try:
        b"<".decode(name)  # bytes.decode refuses non-text codecs (on non-empty input)
    except LookupError:
        return None
    except UnicodeError:
        pass  # a real text codec in which "<" alone is not valid (UTF-16 and UTF-32 need more bytes)
    return codecs.lookup(name).name


def _from_header(content_type: str) -> str | None:
    name = _usable(http_content_type_encoding(content_type or None))
    if name is None or name.startswith("utf-32"):  # not a WHATWG label: browsers ignore it
        return None
    return "utf-16-le" if name == "utf-16" else name  # WHATWG's "utf-16" label is UTF-16LE


def _from_meta(body: bytes) -> str | None:
    name = _usable(html_body_declared_encoding(body[:PRESCAN]))
    if name is None:
        return None
    if name.startswith(_WIDE):
        return "utf-8"
    return name


def _declared(body: bytes, content_type: str) -> tuple[str, int] | None:
    """(codec, BOM length) from a BOM, the HTTP charset or the meta prescan; None when undeclared."""
    for bom, name in _BOMS:
        if body.startswith(bom):
            return name, len(bom)
    declared = _from_header(content_type) or _from_meta(body)
    return (declared, 0) if declared is not None else None


def _undeclared(err: UnicodeDecodeError, body: bytes) -> str:
    """The codec of a body that declares none and is not valid UTF-8."""
    if err.start >= len(body) - 3 and err.reason == "unexpected end of data":
        return "utf-8"  # a body cut inside its last character is still UTF-8
    from charset_normalizer import from_bytes  # ~12 ms to import: only for undeclared non-UTF-8 bodies

    best = from_bytes(body[:DETECT]).best()
    return _usable(best.encoding if best is not None else None) or "cp1252"


def sniff(body: bytes, content_type: str = "") -> tuple[str, int]:
    """(codec name, bytes of BOM to skip) for `body` served with `content_type`."""
    found = _declared(body, content_type)
    if found is not None:
        return found
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as err:
        return _undeclared(err, body), 0
    return "utf-8", 0


def decode(body: bytes, content_type: str = "") -> str:
    """The text of `body` as a browser would decode it; never raises."""
    found = _declared(body, content_type)
    if found is None:
        try:
            return body.decode("utf-8")  # the common undeclared case, decoded once
        except UnicodeDecodeError as err:
            found = _undeclared(err, body), 0
    name, skip = found
    try:
        return to_unicode(body[skip:], name)
    except (LookupError, UnicodeError, ValueError):  # a codec that fails even with errors="replace"
        return body.decode("utf-8", errors="replace")
