"""Body decoding as browsers do it (WHATWG sniffing): BOM, then HTTP charset, then the meta prescan."""
from __future__ import annotations

import pytest

from citecheck.fetch.decode import decode, sniff
from citecheck.fetch.parse import parse_body

NOT_FOUND = "<html><head><meta charset=\"{}\"><title>Página no encontrada</title></head>" \
            "<body><h1>Página no encontrada</h1><p>Lo sentimos, esta página no existe.</p></body></html>"


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be", "utf-32"])
def test_wide_meta_declaration_on_an_ascii_compatible_body_reads_as_utf8(label: str) -> None:
    body = NOT_FOUND.format(label).encode("utf-8")
    facts = parse_body(body, "text/html")
    assert facts.title == "Página no encontrada"
    assert "esta página no existe" in facts.text_sample


def test_http_charset_wins_over_meta() -> None:
    body = "<meta charset='utf-8'><title>café</title>".encode("cp1252")
    assert sniff(body, "text/html; charset=windows-1252") == ("cp1252", 0)
    assert "café" in decode(body, "text/html; charset=windows-1252")


def test_bom_wins_over_http_charset_and_is_skipped() -> None:
    body = "\ufeff<title>日本語</title>".encode("utf-16-le")
    assert sniff(body, "text/html; charset=iso-8859-1") == ("utf-16-le", 2)
    assert decode(body, "text/html; charset=iso-8859-1") == "<title>日本語</title>"
    assert decode(b"\xef\xbb\xbf<p>x</p>", "") == "<p>x</p>"


def test_latin1_label_reads_as_windows_1252() -> None:
    # WHATWG maps iso-8859-1 to windows-1252: 0x93/0x94 are curly quotes, not C1 controls
    assert decode(b"<p>\x93quoted\x94</p>", "text/html; charset=iso-8859-1") == "<p>\u201cquoted\u201d</p>"


def test_meta_prescan_declares_legacy_encoding() -> None:
    body = '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">' \
           "<title>ページが見つかりません</title></head></html>"
    assert parse_body(body.encode("shift_jis"), "text/html").title == "ページが見つかりません"


def test_undeclared_non_utf8_body_is_detected() -> None:
    text = "<html><body><p>" + "Ceci est une page française, très intéressante à lire. " * 20 + "</p></body></html>"
    assert "française" in decode(text.encode("cp1252"), "text/html")


def test_non_text_codec_labels_are_ignored() -> None:
    assert sniff(b"<meta charset=base64><p>ok</p>", "text/html; charset=zlib") == ("utf-8", 0)


def test_utf8_cut_in_its_last_character_stays_utf8() -> None:
    body = "<p>naïve ünïcödé</p><p>é".encode()[:-1]
    assert sniff(body, "")[0] == "utf-8"


def test_never_raises_on_garbage() -> None:
    assert isinstance(decode(bytes(range(256)) * 4, "text/html; charset=utf-16"), str)
