"""The arcade as ``arcade serve`` runs it for one browser: ``python -m arcade.web.served
[--allow-file-bots]``, started by ``textual-serve`` once a browser connects (each browser its own
process, its own app). Without ``--allow-file-bots`` the app offers no bot from a file and no
tournament (``ArcadeApp.allow_file_bots``)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from arcade.app import ArcadeApp

    args = sys.argv[1:] if argv is None else argv
    ArcadeApp(allow_file_bots="--allow-file-bots" in args).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
