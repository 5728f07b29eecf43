"""``arcade serve [--host H] [--port P] [--allow-file-bots] [--max-sessions N] [--max-per-address N]
[--idle-minutes M] [--session-memory MIB] [--session-processes N]``: the arcade in browsers
(``arcade.web.serve``), its sessions bounded (``arcade.web.sessions``)."""

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
    add_caps(serve)
    serve.set_defaults(run=run)


def add_caps(serve) -> None:
    """The options that bound the sessions (``arcade.web.sessions.Caps``)."""
    from arcade.web import sessions

    serve.add_argument("--max-sessions", type=int, default=sessions.DEFAULT_SESSIONS, metavar="N",
                       help=f"browsers' arcades at once, one process each (default {sessions.DEFAULT_SESSIONS}); "
                            "past it a browser gets a page that says the arcade is full")
    serve.add_argument("--max-per-address", type=int, default=sessions.DEFAULT_PER_ADDRESS, metavar="N",
                       help=f"arcades at once from one client address (default {sessions.DEFAULT_PER_ADDRESS}; "
                            "the connection's address: X-Forwarded-For is not trusted)")
    serve.add_argument("--idle-minutes", type=float, default=sessions.DEFAULT_IDLE_MINUTES, metavar="M",
                       help=f"an arcade with no input (keys, mouse) for M minutes is closed and its process "
                            f"ended (default {sessions.DEFAULT_IDLE_MINUTES:g})")
    serve.add_argument("--session-memory", type=int, default=sessions.DEFAULT_MEMORY_MIB, metavar="MIB",
                       help=f"memory of an arcade's processes, MiB (default {sessions.DEFAULT_MEMORY_MIB}): "
                            "each one's address space, and all of them together where a memory cgroup can be made")
    serve.add_argument("--session-processes", type=int, default=sessions.DEFAULT_PROCESSES, metavar="N",
                       help=f"processes and threads of an arcade (default {sessions.DEFAULT_PROCESSES}): its pids "
                            "cgroup where one can be made (as root, or in a cgroup delegated to the user), else "
                            "the user's processes held to N × --max-sessions more than when it starts (RLIMIT_NPROC)")


def run(args) -> int:
    import socket

    from arcade.untrusted import clean
    from arcade.web.serve import serve

    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port must be 1 to 65535, not {args.port}")
    caps = caps_of(args)
    try:  # a host or port that cannot be had is one line, before the server's start-up
        info = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)[0]
        with socket.socket(info[0], socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(info[4])
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {clean(args.host)} port {args.port}: "
                         f"{clean(getattr(exc, 'strerror', None) or exc)}") from None
    serve(args.host, args.port, args.allow_file_bots, caps)
    return 0


def caps_of(args):
    """The sessions' bounds the options ask (``arcade.web.sessions.Caps``); a bound that makes no
    sense is a usage error."""
    import math

    from arcade.web.sessions import MIN_MEMORY_MIB, Caps

    for name in ("max_sessions", "max_per_address", "session_processes"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}")
    if not (math.isfinite(args.idle_minutes) and args.idle_minutes > 0):
        raise UsageError(f"--idle-minutes must be a positive number, not {args.idle_minutes:g}")
    if args.session_memory < MIN_MEMORY_MIB:
        raise UsageError(f"--session-memory must be at least {MIN_MEMORY_MIB} (MiB: an arcade needs it), "
                         f"not {args.session_memory}")
    return Caps(sessions=args.max_sessions, per_address=args.max_per_address, idle=args.idle_minutes * 60,
                memory=args.session_memory << 20, processes=args.session_processes)
