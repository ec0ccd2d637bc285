"""The network guard blocks real connections loudly and leaves loopback open."""

import socket

import httpx
import pytest

from harness import NetworkBlocked, guard


def test_the_suite_runs_under_the_guard():
    assert guard.is_active()


def test_a_real_connection_fails_loudly_with_how_to_record():
    with pytest.raises(NetworkBlocked, match="python -m harness record"):
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
