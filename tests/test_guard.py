"""The network guard blocks real connections loudly and leaves loopback open."""

import socket

import httpx
import pytest

from offline import guard
from offline.errors import NetworkBlocked


def test_the_suite_runs_under_the_guard():
    assert guard.is_active()


def test_a_real_connection_fails_loudly_with_how_to_record():
    with pytest.raises(NetworkBlocked, match="python -m course record"):
        httpx.get("https://api.openai.com/v1/models", timeout=2)


def test_name_lookups_are_blocked_too():
    with pytest.raises(NetworkBlocked, match="api.anthropic.com"):
        socket.getaddrinfo("api.anthropic.com", 443)


def test_loopback_stays_open():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname(), timeout=2)
    client.close()
    server.close()


def test_block_network_nests():
    before = guard.is_active()
    with guard.block_network():
        assert guard.is_active()
    assert guard.is_active() == before


TEST_NET = "203.0.113.7"  # an address reserved for documentation: never a real host


@pytest.fixture
def fake_dns(monkeypatch):
    """Name lookups answer TEST_NET and connections are only noted: no packet leaves."""
    connected = []
    monkeypatch.setitem(guard._original, "getaddrinfo", lambda host, port, *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", (TEST_NET, port))])
    monkeypatch.setitem(guard._original, "connect", lambda sock, address: connected.append(
        address))
    return connected


def test_allow_host_opens_exactly_that_host_while_its_block_runs(fake_dns):
    with socket.socket() as sock:
        with guard.allow_host("api.anthropic.com"):
            ((*_, address),) = socket.getaddrinfo("api.anthropic.com", 443)
            sock.connect(address)
            with pytest.raises(NetworkBlocked, match="api.openai.com"):
                socket.getaddrinfo("api.openai.com", 443)
        assert fake_dns == [(TEST_NET, 443)]
        with pytest.raises(NetworkBlocked, match="api.anthropic.com"):
            socket.getaddrinfo("api.anthropic.com", 443)
        with pytest.raises(NetworkBlocked, match=TEST_NET):
            sock.connect((TEST_NET, 443))  # the address it resolved to is closed again
    assert guard.is_active()


def test_an_address_is_not_opened_by_naming_the_host_without_a_lookup(fake_dns):
    with guard.allow_host("api.anthropic.com"), socket.socket() as sock, \
            pytest.raises(NetworkBlocked, match=TEST_NET):
        sock.connect((TEST_NET, 443))


def test_allow_host_blocks_nest(fake_dns):
    with guard.allow_host("api.openai.com"):
        with guard.allow_host("api.openai.com"):
            socket.getaddrinfo("api.openai.com", 443)
        socket.getaddrinfo("api.openai.com", 443)  # the outer block still holds it open
    with pytest.raises(NetworkBlocked):
        socket.getaddrinfo("api.openai.com", 443)


@pytest.mark.parametrize("wrong", ["https://api.openai.com", "api.openai.com:443", ""])
def test_allow_host_takes_a_bare_host_name(wrong):
    with pytest.raises(ValueError, match="host name"), guard.allow_host(wrong):
        pass
