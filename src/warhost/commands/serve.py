"""``warhost serve``: the web page to play and watch battles (FastAPI + uvicorn).

It listens on 127.0.0.1 (this machine only) unless ``--host`` names another address, which
needs ``--public`` too: then anyone who can reach the port can watch a battle whose link they
have, and each side is commanded only through its join link (it carries an unguessable
token; the same is true on loopback).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Annotated

import typer

from warhost.core.errors import WarhostError

SERVE_HELP = """Play and watch battles in the browser.

Open the address it prints: pick an example or upload a scenario, watch the battle on its
map with the narrated log, command a side (or both), type real dice, share a join link per
side, save and load replays, and run a Monte Carlo. The HTTP API is described at /docs.

It listens on 127.0.0.1 only, unless --host names another address and --public is given.
Battles left idle for --idle seconds are closed."""

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.0/8, ::1 or localhost)."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str, public: bool) -> None:
    """Refuse a host that is not an address (or ``localhost``), and a non-loopback one
    without ``--public``."""
    if host not in LOOPBACK_NAMES:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise WarhostError(f"{host!r} is not an IP address (use 127.0.0.1, ::1, 0.0.0.0 "
                               "or this machine's address)", field="host") from None
    if not is_loopback(host) and not public:
        raise WarhostError(f"{host} is reachable from other machines: pass --public too if "
                           "you mean it (each side is then commanded only through its join "
                           "link)", field="host")


def check_port_free(host: str, port: int) -> None:
    """Fail now, with a clear message, when the port cannot be listened on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise WarhostError(f"cannot listen on {host}:{port}: {exc.strerror or exc} (is "
                               "another server using it? pick another --port)",
                               field="port") from None


def register(app: typer.Typer) -> None:
    """Add ``warhost serve`` to ``app``."""

    from warhost.commands.simulate import paragraphs

    @app.command("serve", help=paragraphs(SERVE_HELP),
                 short_help="Play and watch battles in the browser.")
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this "
                                                "machine only).")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
        public: Annotated[bool, typer.Option(
            "--public", help="Allow a --host that other machines can reach.")] = False,
        idle: Annotated[float, typer.Option(
            min=1, help="Close battles left idle this many seconds.")] = 1800,
        max_battles: Annotated[int, typer.Option(
            "--max-battles", min=1, help="Battles the server holds at once.")] = 100,
    ) -> None:
        check_host(host, public)
        check_port_free(host, port)
        import uvicorn

        from warhost.web.app import create_app

        application = create_app(idle_seconds=idle, max_battles=max_battles)
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"warhost serve: open http://{shown}:{port}/ (Ctrl-C stops it)")
        uvicorn.run(application, host=host, port=port, log_level="warning")


__all__ = ["check_host", "check_port_free", "is_loopback", "register"]
