"""``warhost serve`` on the command line: its help, and clear exit-2 messages for a bad port
or host (a host other machines can reach needs --public)."""

from __future__ import annotations

import socket

import pytest

from tests.cli_helpers import assert_user_error, run
from warhost.commands.serve import check_host, is_loopback
from warhost.core.errors import WarhostError


def test_serve_help_names_its_options() -> None:
    result = run("serve", "--help")
    assert result.exit_code == 0
    for option in ("--host", "--port", "--public", "--idle", "127.0.0.1"):
        assert option in result.stdout


@pytest.mark.parametrize("port", ["0", "65536", "abc", "-5"])
def test_a_bad_port_is_a_clear_usage_error(port: str) -> None:
    result = run("serve", "--port", port)
    assert result.exit_code == 2
    assert "--port" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("host", ["bad!host", "example.com", "300.1.1.1", ""])
def test_a_host_that_is_no_address_is_refused(host: str) -> None:
    assert_user_error(run("serve", "--host", host), "host: ", "is not an IP address")


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10"])
def test_a_reachable_host_needs_public(host: str) -> None:
    assert_user_error(run("serve", "--host", host), "host: ", "pass --public")
    check_host(host, public=True)  # allowed when asked for


def test_loopback_hosts_need_nothing() -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert is_loopback(host)
        check_host(host, public=False)
    with pytest.raises(WarhostError):
        check_host("10.0.0.1", public=False)


def test_a_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert_user_error(run("serve", "--port", str(port)), "port: ",
                          f"cannot listen on 127.0.0.1:{port}")
