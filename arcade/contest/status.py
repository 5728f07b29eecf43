"""``arcade contest status``: the submissions, the games done and missing (a ladder: its rounds,
the entries that still need games and the most games its stopping rule leaves), and the time the
missing ones may take (``arcade.tournament.jobs``'s costs: a file bot's move taken as a share of
its limit, its process started once a chunk) on the processes ``run`` would use: once games are
played, from what they took, each pair's games at its two bots' own pace (``arcade.contest.pace``)."""

from __future__ import annotations

from pathlib import Path

from arcade.contest.config import load
from arcade.contest.db import Database
from arcade.contest.formats import format_of
from arcade.contest import pace as paces


def status_lines(folder: str | Path) -> list[str]:
    from arcade.tournament.jobs import FILE_BOT_SHARE, FILE_BOT_START, duration, typical_moves
    from arcade.tournament.worker import chunk_size

    config = load(folder)
    rules = format_of(config)
    with Database(folder) as db:
        every = db.submissions()
        current = db.current()
        progress, missing, pairs = rules.progress(Path(folder), db, current)
        left = rules.missing_games(db, current)
    accepted = sum(s.verdict == "accepted" for s in every)
    games = config.make_game()
    pace = paces.measured(Path(folder))
    if pace is not None:  # the season's own games on this machine, and what a run takes to begin
        start = paces.run_start(Path(folder)) if missing else 0.0
        if left is None:  # a ladder chooses its games as it goes: the field's pace
            serial = missing * pace.game + start
        else:
            serial = pace.left(Path(folder), left) + start
        how = (f"at the {pace.game:.3g} s a game its last {pace.games:,} games took, each pair at its bots' own "
               f"pace, {start:.1f} s to begin")
    else:  # before any: a model of a move's share of its limit and the processes' starts
        move = FILE_BOT_SHARE * config.limits.move_time(games)
        serial = (missing * typical_moves(games) * move
                  + pairs * -(-config.games // chunk_size(config.games)) * 2 * FILE_BOT_START)
        how = f"a move taken as {FILE_BOT_SHARE:.0%} of its limit, until games are played"
    closes = f"closes {config.closes}" + (" (closed)" if config.closed() else "") if config.closes else "never closes"
    return [
        f"{config.game} contest, {config.format}, {config.games} games {rules.per}, {closes}",
        f"submissions: {len(every)} ({accepted} accepted, {len(every) - accepted} rejected); "
        f"teams on the board: {len(current)}",
        *progress,
        f"time left: about {duration(serial)} on one process, {duration(serial / 2)} on --jobs 2; on a cluster "
        f"of W workers, that divided by W ({how})",
    ]

