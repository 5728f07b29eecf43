"""``arcade contest status``: the submissions, the games done and missing (a ladder: its rounds,
the entries that still need games and the most games its stopping rule leaves), and the time the
missing ones may take (``arcade.tournament.jobs``'s costs: a file bot's move taken as a share of
its limit, its process started once a chunk) on the processes ``run`` would use."""

from __future__ import annotations

from pathlib import Path

from arcade.contest.config import load
from arcade.contest.db import Database
from arcade.contest.run import missing_pairs


def status_lines(folder: str | Path) -> list[str]:
    from arcade.tournament.jobs import FILE_BOT_SHARE, FILE_BOT_START, duration, typical_moves
    from arcade.tournament.worker import chunk_size

    config = load(folder)
    with Database(folder) as db:
        every = db.submissions()
        current = db.current()
        counts = db.counts()
        if config.format == "ladder":
            progress, missing, pairs = ladder_lines(folder, config, db, current)
        else:
            pairs = missing_pairs(db, config, current)
        tabled = db.tabled() if config.scoring == "exact" else {}
        on_board = {s.digest for s in current}
        computed = sum(a in on_board and b in on_board for a, b in db.exact()) if config.scoring == "exact" else 0
    accepted = sum(s.verdict == "accepted" for s in every)
    games = config.make_game()
    n = len(current)
    all_pairs = n * (n - 1) // 2
    if config.format != "ladder":
        missing = sum(config.games - counts.get(pair, 0) for pair in pairs)
        done = all_pairs * config.games - missing if config.scoring != "exact" else sum(
            count for (a, b), count in counts.items() if a in on_board and b in on_board)
        computing = f"{computed} computed, " if config.scoring == "exact" else ""
        progress = (f"pairs: {all_pairs} ({computing}{len(pairs)} with games missing); games: {done} "
                    f"{'played' if config.scoring == 'exact' else 'done'}, {missing} missing")
    move = FILE_BOT_SHARE * config.limits.move_time(games)
    serial = missing * typical_moves(games) * move + len(pairs) * -(-config.games // chunk_size(config.games)) * 2 * FILE_BOT_START
    closes = f"closes {config.closes}" + (" (closed)" if config.closed() else "") if config.closes else "never closes"
    per = "a meeting" if config.format == "ladder" else "a pair"
    asked = [tabled[s.digest] for s in current if s.digest in tabled]
    tables = [] if config.scoring != "exact" else [
        f"tables (within {config.table_seconds:g} s each, in two processes): "
        f"{sum(not why for _vs, why in asked)} exact, {sum(bool(why) for _vs, why in asked)} scored by sampled games, "
        f"{n - len(asked)} not asked yet"]
    return [
        f"{config.game} contest, {config.format}, {config.games} games {per}, {closes}",
        f"submissions: {len(every)} ({accepted} accepted, {len(every) - accepted} rejected); teams on the board: {n}",
        progress, *tables,
        f"time left: about {duration(serial)} on one process, {duration(serial / 2)} on --jobs 2; on a cluster "
        f"of W workers, that divided by W (a move taken as {FILE_BOT_SHARE:.0%} of its limit)",
    ]


def ladder_lines(folder, config, db, current) -> tuple[str, int, list]:
    """A ladder's progress line, the most games its stopping rule leaves (each entry that needs
    games playing up to its ``ladder_games``), and the meetings that bound implies."""
    from arcade.contest.ladder import board, needing, read_rounds

    rated = board(Path(folder), db, [s.digest for s in current])
    need = needing(config, rated)
    left = sum(max(0, config.ladder_games - rated[d].games) for d in need)
    meetings = -(-left // config.games)
    played = sum(db.counts().values())
    line = (f"ladder: {len(read_rounds(folder))} rounds, {played} games played; {len(need)} of {len(current)} "
            f"entries still need games (sigma >= {config.ladder_sigma:g}, fewer than {config.ladder_games} games, "
            f"place not settled): up to {left} games left (their budgets)")
    return line, left, [None] * meetings
