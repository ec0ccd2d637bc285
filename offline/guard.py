"""The network guard: where only replay is allowed, a real connection fails loudly.

`block_network()` (a context manager, or `install()` for a whole process such as the test suite)
patches the socket layer so that any connection or name lookup for a non-loopback address raises
`NetworkBlocked` with a message that says how to record instead. Loopback stays open: the emulator
can be served there, and Jupyter kernels talk to their clients through it.

`allow_host(host)` opens one named host, and only while its block runs: lookups of that name, and
connections to the addresses those lookups returned. Lesson 12 uses it to reach the one provider
a learner has a key for. It opens nothing else: not other hosts, not a proxy, not redirects.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Callable, Iterator
from typing import Any

from offline.errors import NetworkBlocked

HOW_TO_RECORD = (
    "This kit replays cassettes offline and blocks real network access. To record a new "
    "cassette against a live provider, set its API key and run "
    "`python -m course record --provider PROVIDER --scenario SCENARIO` outside the tests.")

_original: dict[str, Callable[..., Any]] = {
    "connect": socket.socket.connect, "connect_ex": socket.socket.connect_ex,
    "getaddrinfo": socket.getaddrinfo}
_depth = 0
_allowed: dict[str, int] = {}  # host -> open blocks; a count, so allow_host blocks nest
_addresses: dict[str, set[str]] = {}  # host -> the addresses its allowed lookups returned


def _is_local(host: object) -> bool:
    if not isinstance(host, str):
        return True  # AF_UNIX paths and the like never leave the machine
    if host in ("localhost", "") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _is_allowed(host: object) -> bool:
    return host in _allowed or any(host in found for found in _addresses.values())


def _check(address: object) -> None:
    host = address[0] if isinstance(address, tuple) else address
    if not _is_local(host) and not _is_allowed(host):
        raise NetworkBlocked(f"Blocked a connection to {host!r}. {HOW_TO_RECORD}")


# The stand-ins take what the functions they replace take (an address is a tuple for IP, a path
# for AF_UNIX), typed Any so that they fit wherever the originals did.
def _connect(self: socket.socket, address: Any) -> None:
    _check(address)
    _original["connect"](self, address)


def _connect_ex(self: socket.socket, address: Any) -> int:
    _check(address)
    error: int = _original["connect_ex"](self, address)  # an errno; 0 when it connected
    return error


def _getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> list[Any]:
    name = host.decode() if isinstance(host, bytes) else host
    _check(name)
    found: list[Any] = _original["getaddrinfo"](host, *args, **kwargs)
    if name in _allowed:  # connections go to addresses, not names: open the ones it resolved to
        _addresses.setdefault(name, set()).update(str(entry[4][0]) for entry in found)
    return found


def install() -> None:
    """Block non-loopback connections until `uninstall` (calls nest)."""
    global _depth
    _depth += 1
    _patch(connect=_connect, connect_ex=_connect_ex, getaddrinfo=_getaddrinfo)


def uninstall() -> None:
    global _depth
    _depth = max(0, _depth - 1)
    if _depth == 0:
        _patch(**_original)


def _patch(*, connect: Callable[..., Any], connect_ex: Callable[..., Any],
           getaddrinfo: Callable[..., Any]) -> None:
    # Replacing methods of the socket class is what the guard is for; mypy rightly refuses
    # assignments to a method anywhere else, so each one here is allowed by name.
    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo


def is_active() -> bool:
    return _depth > 0


@contextlib.contextmanager
def block_network() -> Iterator[None]:
    """Example: `with block_network(): run(...)` fails loudly if anything reaches the internet."""
    install()
    try:
        yield
    finally:
        uninstall()


@contextlib.contextmanager
def allow_host(host: str) -> Iterator[None]:
    """Let connections to `host` (one name, e.g. "api.anthropic.com") through while the block
    runs; everything else stays blocked. Example: `with allow_host("api.openai.com"): ...`."""
    if not host or "/" in host or ":" in host:
        raise ValueError(f"allow_host takes a host name such as 'api.openai.com', got {host!r}")
    _allowed[host] = _allowed.get(host, 0) + 1
    try:
        yield
    finally:
        _allowed[host] -= 1
        if not _allowed[host]:
            del _allowed[host]
            _addresses.pop(host, None)
