"""Files the arcade writes whole: ``write_whole`` writes beside the target and renames over it, so
that a reader (the contest's live board, a browser on the published site, a second arcade reading
its settings) finds the old file or the new one, never an empty or half-written one, and a crash
or a full disk mid-write leaves the old file as it was.

The one writer of every file another process may read while it changes: the settings
(``arcade.memory``), a contest's ``contest.toml``, its secret (``exclusive``), ``closing.json`` and Hog's tables
(``arcade.contest``), and the published site (``arcade.web.publish``). Records grow by appends
(``arcade.records.log``); the CS4341 protocol files have their own writer, which never follows a
link in a folder a program controls (``bots.othello.cs4341_program.write_whole``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_whole(target: str | os.PathLike, data: bytes | str, mode: int = 0o644, exclusive: bool = False) -> None:
    """``data`` (text is written as UTF-8) into ``target``, written beside it in a file of its own
    and renamed over it, with permissions ``mode``; the folder is made if missing. An ``OSError``
    (a full disk, no right to write) leaves ``target`` as it was and no temporary file behind.

    ``exclusive``: ``target`` must not exist (``FileExistsError`` otherwise, even from a writer
    racing this one): the whole file is linked in under its name instead of renamed over it."""
    target = Path(target)
    if isinstance(data, str):
        data = data.encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temporary, mode)
        if exclusive:
            os.link(temporary, target)  # fails where target exists, a link included
            os.unlink(temporary)
        else:
            os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
