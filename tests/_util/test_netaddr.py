"""citecheck._util.netaddr: IP-literal hosts in every spelling, and what range they fall in."""
from __future__ import annotations

from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck._util.netaddr import (
    classify_host,
    classify_ip,
    embedded_ipv4,
    parse_ip,
    parse_ipv4,
)

LOOPBACK_SPELLINGS = [
    "127.0.0.1", "2130706433", "0x7f000001", "0X7F000001", "0177.0.0.1", "0x7f.0.0.1", "127.1", "127.0.1",
    "0177.1", "127.0.0.1.", "017700000001", "１２７.０.０.１", "127。0。0。1",
]


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS)
def test_ipv4_spellings_of_loopback(host: str) -> None:
    assert classify_host(host) == (IPv4Address("127.0.0.1"), "loopback")


@pytest.mark.parametrize("host, reason", [
    ("10.0.0.1", "private"), ("172.16.5.4", "private"), ("172.31.255.255", "private"), ("192.168.1.1", "private"),
    ("10.1", "private"), ("100.64.0.1", "shared address space (CGNAT)"), ("100.127.255.254", "shared address space (CGNAT)"),
    ("169.254.1.1", "link-local"), ("169.254.169.254", "link-local (cloud metadata service)"),
    ("0.0.0.0", "unspecified"), ("0", "unspecified"), ("0.1.2.3", "reserved (this network)"),
    ("224.0.0.1", "multicast"), ("239.255.255.250", "multicast"), ("255.255.255.255", "broadcast"),
    ("240.0.0.1", "reserved"), ("192.0.2.10", "reserved (documentation)"), ("198.51.100.7", "reserved (documentation)"),
    ("203.0.113.9", "reserved (documentation)"), ("198.18.0.1", "reserved (benchmarking)"),
    ("192.0.0.8", "reserved (IETF protocol assignments)"),
])
def test_ipv4_ranges(host: str, reason: str) -> None:
    assert classify_host(host)[1] == reason


@pytest.mark.parametrize("host", ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "11.0.0.1",
                                  "134744072", "0x08080808"])
def test_public_ipv4_has_no_reason(host: str) -> None:
    ip, reason = classify_host(host)
    assert ip is not None and reason == ""


@pytest.mark.parametrize("host, reason", [
    ("::1", "loopback"), ("[::1]", "loopback"), ("::", "unspecified"), ("fe80::1", "link-local"),
    ("fe80::1%25eth0", "link-local"), ("fe80::1%eth0", "link-local"), ("fc00::1", "private (unique local)"),
    ("fd00:ec2::254", "private (unique local)"), ("fec0::1", "private (deprecated site-local)"),
    ("ff02::1", "multicast"), ("2001:db8::1", "reserved (documentation)"), ("100::1", "reserved (discard-only)"),
    ("64:ff9b:1::a00:1", "private (local-use NAT64)"),
])
def test_ipv6_ranges(host: str, reason: str) -> None:
    assert classify_host(host)[1] == reason


@pytest.mark.parametrize("host, reason", [
    ("[::ffff:127.0.0.1]", "loopback (IPv4-mapped 127.0.0.1)"),
    ("::ffff:7f00:1", "loopback (IPv4-mapped 127.0.0.1)"),
    ("::ffff:169.254.169.254", "link-local (cloud metadata service) (IPv4-mapped 169.254.169.254)"),
    ("::ffff:10.0.0.1", "private (IPv4-mapped 10.0.0.1)"),
    ("::127.0.0.1", "loopback (IPv4-compatible 127.0.0.1)"),
    ("::ffff:0:7f00:1", "loopback (IPv4-translated 127.0.0.1)"),
    ("64:ff9b::7f00:1", "loopback (NAT64 127.0.0.1)"),
    ("64:ff9b::192.168.0.1", "private (NAT64 192.168.0.1)"),
    ("2002:7f00:1::", "loopback (6to4 127.0.0.1)"),
    ("2002:a00:1::1", "private (6to4 10.0.0.1)"),
    ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback (Teredo 127.0.0.1)"),
])
def test_ipv6_forms_embedding_ipv4_are_unwrapped(host: str, reason: str) -> None:
    assert classify_host(host)[1] == reason


def test_python_itself_does_not_unwrap_mapped_loopback() -> None:
    # The reason this module exists: the stdlib answers False here on 3.11.
    mapped = ip_address("::ffff:127.0.0.1")
    assert isinstance(mapped, IPv6Address)
    assert not mapped.is_loopback
    assert classify_ip(mapped).startswith("loopback")


@pytest.mark.parametrize("host", ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2606:4700::1111",
                                  "2001:4860:4860::8888"])
def test_public_ipv6_has_no_reason(host: str) -> None:
    ip, reason = classify_host(host)
    assert ip is not None and reason == ""


@pytest.mark.parametrize("host", ["example.com", "localhost", "256.1.1.1", "1.2.3.4.5", "08.0.0.1", "0x7g.0.0.1",
                                  "1..2", "1e100", "", "[::1", "::zz", "foo.127", "127.0.0.1.evil.com", "-1"])
def test_names_and_invalid_literals_are_not_ips(host: str) -> None:
    assert classify_host(host) == (None, "")


def test_parse_ipv4_limits() -> None:
    assert parse_ipv4("4294967295") == IPv4Address("255.255.255.255")
    assert parse_ipv4("4294967296") is None
    assert parse_ipv4("1.16777215") == IPv4Address("1.255.255.255")
    assert parse_ipv4("1.16777216") is None
    assert parse_ipv4("1.2.65535") == IPv4Address("1.2.255.255")
    assert parse_ipv4("1.2.65536") is None
    assert parse_ipv4("0x") == IPv4Address("0.0.0.0")


def test_embedded_ipv4_is_none_for_plain_ipv6() -> None:
    assert embedded_ipv4(IPv6Address("2606:4700::1111")) is None
    assert parse_ip("[2606:4700::1111]") == IPv6Address("2606:4700::1111")


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ipv4_spelling_agrees(value: int) -> None:
    ip = IPv4Address(value)
    expected = classify_ip(ip)
    a, b, c, d = ip.packed
    spellings = [str(value), hex(value), f"0{value:o}", f"{a}.{(b << 16) | (c << 8) | d}",
                 f"{a:#x}.0{b:o}.{c}.{d:#x}", f"{a}.{b}.{(c << 8) | d}"]
    for spelling in spellings:
        assert classify_host(spelling) == (ip, expected), spelling
    mapped = classify_host(f"[::ffff:{ip}]")[1]
    assert mapped == (f"{expected} (IPv4-mapped {ip})" if expected else "")
