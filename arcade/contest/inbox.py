"""The drop folder: ``DIR/inbox/TEAM/…``, where an LMS's export of a team's files lands, read by
``arcade contest run --watch`` as ``arcade contest submit DIR TEAM DIR/inbox/TEAM`` would.

A drop is taken once nothing in it has changed for ``quiet`` seconds (a copy still landing is
left for the next look); its verdict is said in one line, and the drop moves to
``DIR/inbox/.done/`` (renamed with the time and the verdict), so that it is judged once. The
folder's name is the team's, checked by the contest's rule like any other: a name outside it is
refused, never cleaned into someone else's.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

DONE = ".done"


def newest_change(path: Path) -> float:
    """The latest modification time of ``path`` or anything under it (links not followed)."""
    newest = os.lstat(path).st_mtime
    for root, folders, files in os.walk(path):
        for name in folders + files:
            try:
                newest = max(newest, os.lstat(os.path.join(root, name)).st_mtime)
            except OSError:
                pass
    return newest


def read_inbox(folder: str | Path, say: Callable[[str], None] = print, quiet: float = 2.0) -> int:
    """Judge every drop in ``DIR/inbox`` that has settled; the drops judged."""
    from arcade.contest.config import ContestError
    from arcade.contest.submit import Verdict, submit
    from arcade.untrusted import clean

    inbox = Path(folder) / "inbox"
    try:
        names = sorted(name for name in os.listdir(inbox) if not name.startswith("."))
    except FileNotFoundError:
        return 0
    judged = 0
    for name in names:
        drop = inbox / name
        try:
            if os.path.isdir(drop) and not os.path.islink(drop) and time.time() - newest_change(drop) < quiet:
                continue  # still landing
        except OSError:
            continue
        if os.path.isdir(drop) and not os.path.islink(drop):
            try:
                verdict = submit(folder, name, str(drop))
            except ContestError as exc:  # the contest's own files (contest.toml mid-edit): the drop waits
                say(f"inbox {clean(name, cap=80)}: not judged yet ({exc}); tried again at the next look")
                continue
        else:
            verdict = Verdict(False, name, f"inbox/{clean(name, cap=80)} is no folder: a drop is inbox/TEAM/ with the team's files")
        say(f"inbox {clean(name, cap=80)}: {verdict.line}")
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%f")
        safe = name if name.isprintable() and len(name) <= 80 else "drop"
        (inbox / DONE).mkdir(exist_ok=True)
        try:
            os.rename(drop, inbox / DONE / f"{stamp}-{'accepted' if verdict.accepted else 'rejected'}-{safe}")
        except OSError as exc:
            say(f"inbox {clean(name, cap=80)}: cannot move it to {DONE}: {exc.strerror}")
        judged += 1
    return judged
