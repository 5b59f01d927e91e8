"""Socket-level guard for tests: nothing may resolve an outside name or connect off loopback.

Patched at the socket layer (as the Advocate library's tests do), so a bug in citecheck's own
SSRF guard fails a test instead of sending a packet off the machine.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import Any

_REAL_CONNECT = socket.socket.connect
_REAL_CONNECT_EX = socket.socket.connect_ex
_REAL_GETADDRINFO = socket.getaddrinfo
_REAL_SOCKET_INIT = socket.socket.__init__
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "ip6-localhost"}


class NetworkGuardError(AssertionError):
    """A test tried to leave the machine."""


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NetworkGuardError(f"test tried to connect to {address!r}")
    return _REAL_CONNECT(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> Any:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NetworkGuardError(f"test tried to connect to {address!r}")
    return _REAL_CONNECT_EX(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host is not None and not _is_loopback(host):
        raise NetworkGuardError(f"test tried to resolve {host!r} through the system resolver")
    return _REAL_GETADDRINFO(host, *args, **kwargs)


def install() -> None:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = _guarded_getaddrinfo


def _no_inet_init(self: socket.socket, family: int = -1, *args: Any, **kwargs: Any) -> None:
    if family in (socket.AF_INET, socket.AF_INET6) or family == -1:
        raise NetworkGuardError("an offline run opened an internet socket")
    _REAL_SOCKET_INIT(self, family, *args, **kwargs)


def forbid_inet_sockets(monkeypatch: Any) -> None:
    """For --offline tests: creating any AF_INET/AF_INET6 socket fails the test."""
    monkeypatch.setattr(socket.socket, "__init__", _no_inet_init)
