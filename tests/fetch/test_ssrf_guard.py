"""The guard's pure parts: address classification, numeric host spellings, allow entries."""
from __future__ import annotations

import ipaddress

import pytest
from ssrfspellings import SPELLINGS

from citecheck.errors import ConfigError
from citecheck.fetch.addresses import literal_ip
from citecheck.fetch.guard import Guard, Refused, ip_refusal, parse_allow

# (host as written in a URL, the address it really names)
PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
          "2002:808:808::1", "172.32.0.1", "100.128.0.1", "11.0.0.1"]


@pytest.mark.parametrize("spelling,address", SPELLINGS)
def test_spelling_reads_as_address_and_is_refused(spelling: str, address: str) -> None:
    ip = literal_ip(spelling)
    assert ip == ipaddress.ip_address(address)
    assert ip_refusal(ip), f"{spelling} must be refused"


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address: str) -> None:
    assert ip_refusal(ipaddress.ip_address(address)) == ""


def test_refusal_names_the_reason() -> None:
    assert "metadata" in ip_refusal(ipaddress.ip_address("169.254.169.254"))
    assert "loopback" in ip_refusal(ipaddress.ip_address("::ffff:127.0.0.1"))
    assert "metadata" in ip_refusal(ipaddress.ip_address("64:ff9b::a9fe:a9fe"))
    assert "CGNAT" in ip_refusal(ipaddress.ip_address("100.64.0.1"))


@pytest.mark.parametrize("host", ["example.com", "127.0.0.1.nip.io", "0x7f.example", "1.2.3.a"])
def test_names_are_not_literals(host: str) -> None:
    assert literal_ip(host) is None


@pytest.mark.parametrize("host", ["1.2.3.4.5", "256.0.0.1", "0x100000000", "08.0.0.1", "0x1.0x1.0x1.0x1.0x1"])
def test_invalid_numeric_hosts_raise(host: str) -> None:
    with pytest.raises(ValueError):
        literal_ip(host)


def test_vet_url_refuses_and_canonicalises() -> None:
    guard = Guard(allow=("127.0.0.1:8080",))
    assert str(guard.vet_url("http://127.0.0.1:8080/a?b#c")) == "http://127.0.0.1:8080/a?b#c"
    assert str(guard.vet_url("http://0x08080808/a?b#c")) == "http://8.8.8.8/a?b#c"  # a public address, respelled
    for url, error in [("http://0x7f000001:8081/", "blocked-private"), ("ftp://example.com/", "bad-scheme"),
                       ("javascript:alert(1)", "bad-scheme"), ("http://u:p@example.com/", "credentials"),
                       ("http://user@example.com/", "credentials"), ("http:///nohost", "invalid-url"),
                       ("http://1.2.3.4.5/", "blocked-private")]:
        with pytest.raises(Refused) as info:
            guard.vet_url(url)
        assert info.value.error == error, url


@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "127.1", "0x7f000001", "0177.0.0.1", "[::ffff:127.0.0.1]",
                                  "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[::127.0.0.1]"])
def test_allow_admits_exactly_the_address_spelled_canonically(host: str) -> None:
    """`--allow 127.0.0.1:P` is that destination; spellings a client translates to it are others."""
    guard = Guard(allow=("127.0.0.1:8080",))
    assert str(guard.vet_url("http://127.0.0.1:8080/")) == "http://127.0.0.1:8080/"
    with pytest.raises(Refused) as info:
        guard.vet_url(f"http://{host}:8080/")
    assert info.value.error == "blocked-private"
    v6 = Guard(allow=("[::1]:8080",))
    assert str(v6.vet_url("http://[::1]:8080/")) == "http://[::1]:8080/"
    with pytest.raises(Refused):
        v6.vet_url("http://[::ffff:127.0.0.1]:8080/")  # not ::1, and not 127.0.0.1 either


def test_allow_address_covers_what_the_resolver_answers() -> None:
    guard = Guard(allow=("127.0.0.1:8080",))
    assert guard.refusal("intranet.test", ipaddress.ip_address("127.0.0.1"), 8080) == ""
    assert guard.refusal("intranet.test", ipaddress.ip_address("::ffff:7f00:1"), 8080) != ""


def test_allow_entries() -> None:
    assert parse_allow("127.0.0.1").network == ipaddress.ip_network("127.0.0.1/32")
    assert parse_allow("10.0.0.0/8:8443").port == 8443
    assert parse_allow("[::1]:8080").network == ipaddress.ip_network("::1/128")
    assert parse_allow("fd00::/8").port is None
    assert parse_allow("Intranet.Test:81").name == "intranet.test"
    for bad in ("host:notaport", "host:70000", ":80", "[::1"):
        with pytest.raises(ConfigError):
            parse_allow(bad)


def test_allow_private_and_port_scoped_allow() -> None:
    ip = ipaddress.ip_address("127.0.0.1")
    assert Guard(allow_private=True).refusal("x", ip, 1) == ""
    scoped = Guard(allow=("127.0.0.1:8080",))
    assert scoped.refusal("127.0.0.1", ip, 8080) == "" and "loopback" in scoped.refusal("127.0.0.1", ip, 8081)
    assert Guard(allow=("intranet.test",)).allows_name("INTRANET.test.", 80)
