"""What of a contest a student may see: the public form of its texts, the one place that makes it.

The contest's own files keep every text whole, for the instructor: a verdict's reason in
``submissions.jsonl`` (``could not load strategy.py: … (details in /…/bot-logs/….log)``, the kept
copy's path ``/…/submissions/DIGEST/bot/strategy.py``), a forfeit's reason in a pair's record (a
bot's own exception message, which may name its file, the folder it ran in or the machine), Hog's
``why``. The instructor's views show them so: the app's board, ``arcade contest status``, the
terminal ``arcade contest standings`` table and ``submit``'s verdict line (whoever submits reads
the log it names, on the machine that wrote it). What is **published** passes through ``Public``
first: the site (``arcade contest publish``, ``run --publish``: ``arcade.web.contest``) and
``arcade contest standings --json`` and ``--csv``.

A text's public form (``Public.text``) keeps the course's words and drops what is the machine's:

- a bot's log: ``(details in /…/bot-logs/x.log)`` is ``(details in the bot's log)``;
- a kept submission's path is its path in the hand-in: ``/…/submissions/DIGEST/bot/strategy.py``
  is ``strategy.py``, ``…/DIGEST/tdgammon/players/td.py`` is ``players/td.py``;
- any other absolute path (the contest's folder, the home folder, the logs' folder, a temporary
  folder, the sandbox's ``/bot``: each by name, spaces and all, then any ``/a/b``) is its last
  name: ``/usr/lib/python3/random.py`` is ``random.py``;
- the machine's host name is ``(host)``, except in a text that is that one name alone (a team's);
- the contest's secret seed is ``(secret)``.

``Public.json`` makes every string of a JSON value public (keys are names, left as they are) and
drops an integer that is the secret; ``Public.board`` gives a board (``arcade.contest.boardmodel``)
whose every text is public. A new published text needs no rule of its own: it goes through these.
"""

from __future__ import annotations

import os
import re
import socket
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from arcade.contest.boardmodel import Board

LOG = "(details in the bot's log)"
"""A bot's log where a reason named it."""
HOST = "(host)"
SECRET = "(secret)"

_DETAILS = re.compile(r"\(details in [^()\n]*\)")
_STOP = r"\s'\"()<>\[\]{},;`|"
"""What ends a path in a sentence: a space, a quote, a bracket, a separator."""
_NAME = f"[^/{_STOP}]+"
"""A name in a path."""
_REST = f"(?:/{_NAME})*/?(?![^{_STOP}])"
"""The rest of a path after a folder named whole."""
_KEPT = f"[^{_STOP}]*submissions/[0-9a-f]{{64}}(?:/{_NAME})?/"
"""A kept submission's folder and the hand-in's top folder in it (``DIR/submissions/DIGEST/TOP/``)."""
_PATH = re.compile(f"(?<![\\w.~:/-])(~(?:/{_NAME})+|(?:/{_NAME}){{2,}})/?")
"""An absolute path of two names or more (or one from the home folder, ``~/…``): not one inside a
word, a URL's or a relative path (``a/b``, ``1/2``, ``https://…`` are left alone), nor a lone
``/name`` (a closing tag's ``</script>`` in a hostile text stays as it was written)."""


class Public:
    """The public form of a contest's texts (the module's docstring): ``roots`` the folders
    named by their last name even where they hold spaces (the contest's, the home folder, the
    logs'), ``hosts`` the machine's names, ``secret`` the contest's secret seed (``None``: none)."""

    def __init__(self, roots: Iterable[str | os.PathLike] = (), hosts: Iterable[str] = (),
                 secret: int | None = None) -> None:
        given = {str(root).rstrip("/") for root in roots if str(root).startswith("/")} - {""}
        folders = sorted(given, key=len, reverse=True)  # the longest first: a folder inside another
        named = "|".join(f"(?<![\\w.-]){re.escape(f)}" for f in folders)
        self.roots = re.compile(f"(?:{named}){_REST}") if folders else None
        self.kept = re.compile(f"(?:(?:{named})/)?{_KEPT}" if folders else _KEPT)
        names = sorted({h for h in hosts if h and h != "localhost"}, key=len, reverse=True)
        self.hosts = names
        self.host = re.compile("|".join(f"(?<![\\w.-]){re.escape(h)}(?![\\w-])" for h in names)) if names else None
        self.secret = secret
        self._secret = re.compile(f"(?<!\\d){secret}(?!\\d)") if secret is not None else None

    @classmethod
    def of(cls, folder: str | os.PathLike) -> "Public":
        """The public form of the texts of the contest in ``folder``: its folder (as given and
        resolved), the home folder, the bots' logs' folder, this machine's host name and the
        contest's secret seed."""
        from arcade.contest.config import ContestError, secret_seed
        from bots.external.logs import log_dir

        folder = Path(folder)
        roots = {os.path.abspath(folder), str(folder.resolve()), os.path.expanduser("~"), str(Path.home()),
                 os.path.abspath(log_dir()), str(log_dir().resolve())}
        host = socket.gethostname()
        try:
            secret = secret_seed(folder)
        except ContestError:
            secret = None
        return cls(roots, (host, host.partition(".")[0]), secret)

    def text(self, text: str) -> str:
        """``text``'s public form (the module's docstring)."""
        if not text:
            return text
        text = _DETAILS.sub(LOG, text)
        text = self.kept.sub("", text)
        if self.roots is not None:
            text = self.roots.sub(lambda m: _last(m.group()), text)
        text = _PATH.sub(lambda m: _last(m.group(1)), text)
        if self.host is not None and text.strip() not in self.hosts:
            text = self.host.sub(HOST, text)
        if self._secret is not None:
            text = self._secret.sub(SECRET, text)
        return text

    def json(self, value: object) -> object:
        """``value`` (JSON's kinds) with every string public (``text``) and an integer that is the
        secret seed dropped (``None``); a mapping's keys are names, kept."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool) or value is None or isinstance(value, float):
            return value
        if isinstance(value, int):
            return None if self.secret is not None and value == self.secret else value
        if isinstance(value, dict):
            return {key: self.json(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.json(item) for item in value]
        return value

    def board(self, board: "Board") -> "Board":
        """``board`` with every text public: each row's ``why``, each team page's submissions'
        reasons, its games' reasons and its ``scoring``, and the closing stage (``closing.json``'s
        content, every string)."""
        from arcade.contest.boardmodel import ClosingStage

        teams = {team: replace(page, scoring=self.text(page.scoring),
                               submissions=[replace(s, reason=self.text(s.reason)) for s in page.submissions],
                               games=[replace(g, reason=self.text(g.reason)) for g in page.games])
                 for team, page in board.teams.items()}
        closing = ClosingStage.parse(self.json(dict(board.closing.data))) if board.closing else None
        return replace(board, rows=[replace(row, why=self.text(row.why)) for row in board.rows], teams=teams,
                       closing=closing)


def _last(path: str) -> str:
    """A path's last name (``/a/b/c.py`` → ``c.py``; a folder alone → its name)."""
    return path.rstrip("/").rsplit("/", 1)[-1]
