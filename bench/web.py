"""The contest's site (``arcade.web``): how long a 2,000-game contest takes to publish from nothing,
to publish again with nothing new, and to bring up to date after one more game; how big it is.

    .venv/bin/python bench/web.py [GAMES] [--game ID] [--teams N]

The contest is STATS 306's by default (D-Football, n = 11, 7 teams: 21 pairs), its games played at
random through the rules (``games.base.random_playout``, seeded), its board counted from them
(``arcade.web.model.board_of``);
the site goes to a temporary folder, removed at the end.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arcade.catalog import load  # noqa: E402
from arcade.web.model import Contest, Site, SiteGame, Submission, board_of  # noqa: E402
from arcade.web.publish import publish  # noqa: E402
from games.base import random_playout  # noqa: E402

PRESETS = {"dfootball": {"n": 11}, "ludo": {"preset": "contest"}}


def contest_games(game_id: str, teams: list[str], count: int, seed: int = 306) -> list[SiteGame]:
    game = load(game_id)(**PRESETS.get(game_id, {}))
    pairs = list(itertools.combinations(teams, 2))
    rng = random.Random(seed)
    games = []
    for index in range(count):
        a, b = pairs[index % len(pairs)]
        number = index // len(pairs) + 1
        sides = (a, b) if number % 2 else (b, a)
        variant = game.match_variant(number)
        states = random_playout(variant, variant.initial_state(), rng)
        moves = tuple(variant.move_text(x, y.event.move) for x, y in zip(states, states[1:]))
        result = states[-1].result
        games.append(SiteGame(f"contest/{a}/{b}/{number}", sides, moves, result.winner if result else None,
                              result.reason if result else "drawn by the move cap", number=number))
    return games


def site_of(game_id: str, teams: list[str], games: list[SiteGame], updated: str) -> Site:
    contest = Contest(game=game_id, options=PRESETS.get(game_id, {}), title="Benchmark contest", games_per_pair=100,
                      points="stats306", updated=updated)
    return Site(contest, board_of(contest, teams, games), [Submission(t, "2025-03-01T10:00:00+00:00", True) for t in teams],
                games)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("--game", default="dfootball")
    parser.add_argument("--teams", type=int, default=7)
    args = parser.parse_args()
    teams = [f"team_{chr(97 + i)}" for i in range(args.teams)]
    started = time.perf_counter()
    games = contest_games(args.game, teams, args.games + 1)
    print(f"{args.games + 1} games of {args.game} played at random in {time.perf_counter() - started:.1f} s "
          f"({sum(len(g.moves) for g in games) / len(games):.0f} moves a game)")
    with tempfile.TemporaryDirectory() as out:
        first = publish(site_of(args.game, teams, games[:-1], "2025-03-03T10:00:00+00:00"), out)
        print(f"publish from nothing: {first.seconds:.1f} s, {len(first.written)} files written, "
              f"{first.files} files, {first.bytes / 1e6:.1f} MB "
              f"({first.bytes / args.games / 1e3:.1f} kB a game)")
        again = publish(site_of(args.game, teams, games[:-1], "2025-03-03T10:00:00+00:00"), out)
        print(f"publish again, nothing new: {again.seconds:.2f} s, {len(again.written)} written")
        one = publish(site_of(args.game, teams, games, "2025-03-03T10:05:00+00:00"), out)
        print(f"publish after one more game: {one.seconds:.2f} s, {len(one.written)} written "
              f"({', '.join(sorted(p.split('/')[0] for p in one.written))}), {one.kept} kept")


if __name__ == "__main__":
    main()
