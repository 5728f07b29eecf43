"""``arcade serve [--host H] [--port P] [--allow-file-bots]``: the arcade in browsers
(``arcade.web.serve``)."""

from __future__ import annotations

from arcade.commands.common import UsageError


def register(subparsers) -> None:
    from arcade.web.serve import DEFAULT_PORT, LOOPBACK

    serve = subparsers.add_parser("serve")
    serve.add_argument("--host", default=LOOPBACK,
                       help=f"the address to listen on (default {LOOPBACK}, loopback: this machine only; "
                            "0.0.0.0 for every machine that can reach this one)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT})")
    serve.add_argument("--allow-file-bots", action="store_true",
                       help="offer bots from files and tournaments (off by default: they run on this machine)")
    serve.set_defaults(run=run)


def run(args) -> int:
    import socket

    from arcade.untrusted import clean
    from arcade.web.serve import serve

    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port must be 1 to 65535, not {args.port}")
    try:  # a host or port that cannot be had is one line, before the server's start-up
        info = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)[0]
        with socket.socket(info[0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(info[4])
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {clean(args.host)} port {args.port}: "
                         f"{clean(getattr(exc, 'strerror', None) or exc)}") from None
    serve(args.host, args.port, args.allow_file_bots)
    return 0
