"""Equal strategies, equal scores: a contest season deals each game from the contest's secret, the
game's number and the sides' roles (``arcade.seeds.season_rngs``), never from the pair, so two
teams that hand in the same strategy in other bytes meet the same games, and get the same
results, against every opponent: in all-pairs, with Hog's exact scoring, and in a ladder's
meetings; strategies that draw from Python's global ``random`` and Hog's dice included."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.catalog import load as load_game
from arcade.contest import ladder, store
from arcade.contest.config import Config, secret_seed
from arcade.contest.db import Database
from arcade.contest.ladder import Meeting, Round
from arcade.contest.run import run
from arcade.contest.submit import submit
from arcade.match import run_match
from arcade.seeds import pair_seed, season_deal, season_seed
from bots.base import BotEntry, random_move
from bots.registry import resolve
from tests.arcade.contest.helpers import arcade, records


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


# -- one match: the same strategy as player A and as player B ---------------------------------------

def global_mover(game, state, ctx):
    """A random mover drawing from the global ``random``, as the courses' bots did."""
    return random.choice(list(game.legal_moves(state)))


SMALL = {"hog": {"goal": 30}, "ludo": {"counters": 2, "length": 12}, "dfootball": {"n": 5}, "toothpicks": {}}
"""Each game with options that keep its games short."""

BUILT_IN = {"hog": ("always_roll_6", "always_roll_4", "more_boar"), "ludo": ("heuristic", "simple_player2", "random"),
            "dfootball": ("prefer_jumps", "random_move"), "toothpicks": ("perfect", "random", "mirror")}
"""Each game's built-in bots the matches take (besides the two random movers)."""


def entry(game_id: str, name: str) -> BotEntry:
    if name == "global":
        return BotEntry.function("global", "a random mover on the global random", global_mover)
    if name == "own":
        return BotEntry.function("own", "a random mover on its own generator", random_move)
    return resolve(game_id, name)


def as_seen_by(games: list[dict], player: int) -> dict:
    """A player's games (record lines, ``GameRecord.as_json``) by their deal and whether it moved
    first: the moves, how they ended and how the player fared."""
    seen = {}
    for game in games:
        mover = game["first"] if game["moved_first"] is None else game["moved_first"]
        outcome = "draw" if game["winner"] is None else game["winner"] == player
        seen[(season_deal(game["number"]), mover == player)] = (
            tuple(game["moves"]), game["reason"], game["plies"], outcome, game["forfeit"] == player)
    return seen


def lines(summary) -> list[dict]:
    return [record.as_json() for record in summary.records]


bots_of = st.sampled_from(sorted(SMALL)).flatmap(
    lambda g: st.tuples(st.just(g), st.sampled_from([*BUILT_IN[g], "global", "own"]),
                        st.sampled_from([*BUILT_IN[g], "global", "own"])))


@settings(max_examples=40, deadline=None)
@given(bots_of, st.integers(0, (1 << 64) - 1), st.integers(0, 20), st.sampled_from([2, 4]))
def test_a_strategy_meets_the_same_games_as_player_a_and_as_player_b(bots, seed, deal, games):
    """The same strategy against the same opponent, once as player A (first in odd games) and
    once as player B (first in even ones), from any first deal: the same games, game for game."""
    game_id, mine, theirs = bots
    game = load_game(game_id)(**SMALL[game_id])
    first = 2 * deal + 1
    as_a = run_match(game, (entry(game_id, mine), entry(game_id, theirs)), games, seed, first_game=first, season=True)
    as_b = run_match(game, (entry(game_id, theirs), entry(game_id, mine)), games, seed, first_game=first, season=True)
    assert as_seen_by(lines(as_a), 0) == as_seen_by(lines(as_b), 1)
    assert len(as_seen_by(lines(as_a), 0)) == games


def test_a_deals_two_games_give_the_same_dice_to_each_first_mover():
    """One strategy against itself: each deal's two games are the same game with the sides
    swapped, so player A and player B win exactly as often; the pair-seeded derivation of a
    tournament does not promise that (and does not here)."""
    game = load_game("hog")(goal=30)
    season = run_match(game, (entry("hog", "always_roll_6"), entry("hog", "always_roll_6")), 40, 11, season=True)
    assert season.wins[0] == season.wins[1] == 20
    for odd, even in zip(season.records[::2], season.records[1::2]):
        assert odd.moves == even.moves and odd.winner == 1 - even.winner
    tournament = run_match(game, (entry("hog", "always_roll_6"), entry("hog", "always_roll_6")), 40, 11)
    assert tournament.wins[0] != tournament.wins[1]


def test_a_pair_seeded_match_would_deal_player_a_and_player_b_other_games():
    """Why a season needs its own derivation: the tournament's (``match_rngs`` from a pair's
    seed) deals game ``k`` whoever moves first, so the same strategy as A and as B meets other dice."""
    game = load_game("hog")(goal=30)
    six, four = entry("hog", "always_roll_6"), entry("hog", "always_roll_4")
    as_a = run_match(game, (six, four), 10, 11)
    as_b = run_match(game, (four, six), 10, 11)
    assert as_seen_by(lines(as_a), 0) != as_seen_by(lines(as_b), 1)


# -- seasons: two teams with the same strategy in other bytes ------------------------------------------

TWINS = {
    "six": ("hog", "def final_strategy(score, opponent_score):\n    return 6\n",
            "SIX = 6\n\n\ndef final_strategy(my_score, their_score):\n    \"\"\"Always six dice.\"\"\"\n    return SIX\n"),
    "dice": ("hog", "import random\n\ndef final_strategy(score, opponent_score):\n    return random.randrange(0, 11)\n",
             "from random import randrange\n\n\ndef final_strategy(score, opponent_score):\n"
             "    dice = randrange(0, 11)  # any number of dice\n    return dice\n"),
    "lucky": ("dfootball", "import random\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
                           "    return random.choice(valid_moves(game))\n",
              "import random as r\n\nfrom games.dfootball import valid_moves\n\n\ndef strategy(game):\n"
              "    options = valid_moves(game)\n    return r.choice(options)\n"),
    "wander": ("ludo", "import random\nfrom state import getmoves\n\ndef engine(board, turn, roll):\n"
                       "    return random.choice(getmoves(board, turn, roll))\n",
               "from random import choice\n\nfrom state import getmoves\n\n\ndef engine(board, turn, roll):\n"
               "    moves = getmoves(board, turn, roll)\n    return choice(moves)\n"),
}
"""Behaviourally identical strategies: the game, one team's file and the other's."""

OPPONENTS = {
    "hog": {"four": "def final_strategy(score, opponent_score):\n    return 4\n",
            "coin": "import random\n\ndef final_strategy(score, opponent_score):\n    return random.choice([2, 8])\n",
            "bold": "def final_strategy(score, opponent_score):\n    return 6 if score < 12 else 2\n"},
    "dfootball": {"far": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[-1]\n",
                  "near": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[0]\n",
                  "shy": "import random\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
                         "    moves = valid_moves(game)\n    return random.choice(moves[:2])\n"},
    "ludo": {"first": "from state import getmoves\n\ndef engine(board, turn, roll):\n    return getmoves(board, turn, roll)[0]\n",
             "last": "from state import getmoves\n\ndef engine(board, turn, roll):\n    return getmoves(board, turn, roll)[-1]\n",
             "coin": "import random\nfrom state import getmoves\n\ndef engine(board, turn, roll):\n"
                     "    return random.choice(getmoves(board, turn, roll)[-2:])\n"},
}
"""Each game's opponents: plain ones and one that draws from the global ``random``."""


def write(tmp_path: Path, team: str, text: str) -> Path:
    path = tmp_path / "bots" / team / "strategy.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def straddling(tmp_path: Path, team: str, text: str, below: str | None = None, above: str | None = None) -> Path:
    """``text`` written for ``team`` with a trailing comment chosen so that its digest is below
    ``below`` (player A against every opponent) or above ``above`` (player B): what the pair
    seed made unequal."""
    for variant in range(1000):
        path = write(tmp_path, team, f"{text}# variant {variant}\n")
        digest = store.read(str(path), 1 << 20).digest
        if (below is None or digest < below) and (above is None or digest > above):
            return path
    raise AssertionError("no variant")


def season(tmp_path: Path, twins: str, *flags: str) -> tuple[Path, dict[str, str]]:
    """A season of the twins (``alpha`` player A against every opponent, ``omega`` player B) and
    their game's opponents; the teams' digests."""
    game_id, alpha, omega = TWINS[twins]
    folder = tmp_path / "c"
    options = [part for key, value in SMALL[game_id].items() for part in ("--option", f"{key}={value}")]
    assert arcade("contest", "new", str(folder), "--game", game_id, *options, "--sandbox", "none",
                  "--time-limit", "10", *(flags or ("--games", "4"))) == 0
    digests = {}
    for team, text in OPPONENTS[game_id].items():
        verdict = submit(folder, team, str(write(tmp_path, team, text)))
        assert verdict.accepted, verdict.line
        digests[team] = verdict.digest
    low, high = min(digests.values()), max(digests.values())
    for team, path in (("alpha", straddling(tmp_path, "alpha", alpha, below=low)),
                       ("omega", straddling(tmp_path, "omega", omega, above=high))):
        verdict = submit(folder, team, str(path))
        assert verdict.accepted, verdict.line
        digests[team] = verdict.digest
    return folder, digests


def games_against(folder: Path, digests: dict[str, str], team: str, opponent: str) -> dict:
    """``team``'s games against ``opponent`` from the pair's record, by deal and moving first."""
    me, them = digests[team], digests[opponent]
    pair = (min(me, them), max(me, them))
    return as_seen_by([game for key, game in records(folder).items() if key[:2] == pair], pair.index(me))


def board(folder: Path, capsys) -> dict[str, dict]:
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), "--json") == 0
    return {row["team"]: row for row in json.loads(capsys.readouterr().out)["standings"]}


def same_row(rows: dict[str, dict]) -> bool:
    def result(row: dict) -> dict:
        return {k: v for k, v in row.items() if k not in ("team", "digest", "submitted")}

    return result(rows["alpha"]) == result(rows["omega"])


@pytest.mark.parametrize("twins", sorted(TWINS))
def test_two_teams_with_the_same_strategy_get_the_same_games_and_scores_in_all_pairs(tmp_path, capsys, twins):
    folder, digests = season(tmp_path, twins)
    run(folder, say=lambda line: None)
    game_id = TWINS[twins][0]
    for opponent in OPPONENTS[game_id]:
        alpha = games_against(folder, digests, "alpha", opponent)
        assert len(alpha) == 4 and alpha == games_against(folder, digests, "omega", opponent)
    assert digests["alpha"] < min(digests[o] for o in OPPONENTS[game_id]) < digests["omega"]
    rows = board(folder, capsys)
    assert same_row(rows) and rows["alpha"]["games"] == 16


def test_hogs_exact_scoring_samples_equal_random_strategies_alike(tmp_path, capsys):
    """Exact scoring (``hog_exact``) tabulates the plain strategies and plays the random ones'
    pairs as sampled games: dealt as every season game is, so the two random twins' scores match."""
    folder, digests = season(tmp_path, "dice", "--preset", "cs61a-hog", "--games", "4")
    run(folder, say=lambda line: None)
    with Database(folder) as db:
        assert db.exact()  # the plain opponents' pair is computed…
    for opponent in OPPONENTS["hog"]:  # …the twins' are played
        alpha = games_against(folder, digests, "alpha", opponent)
        assert len(alpha) == 4 and alpha == games_against(folder, digests, "omega", opponent)
    assert same_row(board(folder, capsys))


def test_two_teams_with_the_same_strategy_meet_the_same_games_in_a_ladder(tmp_path, capsys):
    folder, digests = season(tmp_path, "lucky", "--format", "ladder", "--games", "2")
    path = folder / "contest.toml"
    path.write_text(path.read_text().replace("ladder_games = 60", "ladder_games = 6"))
    run(folder, say=lambda line: None)
    both = 0
    for opponent in OPPONENTS["dfootball"]:
        alpha = games_against(folder, digests, "alpha", opponent)
        omega = games_against(folder, digests, "omega", opponent)
        common = alpha.keys() & omega.keys()
        assert all(alpha[key] == omega[key] for key in common)
        both += len(common)
    assert both >= 2  # the twins met an opponent each: their meetings with it were the same games
    rounds = ladder.read_rounds(folder)
    assert all(m.first % 2 == 1 for r in rounds for m in r.meetings)


def test_a_ladders_meetings_start_on_odd_numbers_so_each_deal_is_whole():
    config = Config(game="dfootball", games=3, format="ladder")
    planned = ladder.plan(config, [Round(1, (Meeting("a", "b", 1, 3),))], ["a", "b"], {}, 5)
    assert planned.meetings == (Meeting("a", "b", 5, 3),)  # game 4 is skipped: games 5 and 6 are one deal
    even = ladder.plan(Config(game="dfootball", games=2, format="ladder"), [Round(1, (Meeting("a", "b", 1, 2),))],
                       ["a", "b"], {}, 5)
    assert even.meetings == (Meeting("a", "b", 3, 2),)


# -- the records: what the season deals, checked on every read ------------------------------------------

def test_a_line_dealt_by_the_pair_seed_before_still_counts_and_a_forged_deal_is_left_out(tmp_path, capsys):
    """A season begun before this derivation keeps its games (a line carrying the pair's old seed
    is checked against it); a line that carries the season's seed with other dice is left out, and
    the next run plays that game again as the season deals it."""
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--game", "hog", "--option", "goal=30", "--games", "4",
                  "--sandbox", "none") == 0
    bot_of = {}
    for team, text, same in (("four", OPPONENTS["hog"]["four"], "always_roll_4"), ("six", TWINS["six"][1], "always_roll_6")):
        verdict = submit(folder, team, str(write(tmp_path, team, text)))
        assert verdict.accepted, verdict.line
        bot_of[verdict.digest] = same
    run(folder, say=lambda line: None)
    dealt = records(folder)
    path = next((folder / "records").glob("*--*.jsonl"))
    a, b = path.stem.split("--")
    secret = secret_seed(folder)
    text = path.read_text().splitlines()
    assert {json.loads(line)["pair_seed"] for line in text[1:]} == {season_seed(secret)}
    old = pair_seed(secret, "contest", a, b)
    game = load_game("hog")(goal=30)
    before = run_match(game, (entry("hog", bot_of[a]), entry("hog", bot_of[b])), 2, old, first_game=3).records
    assert [r.moves for r in before] != [dealt[(a, b, n)]["moves"] for n in (3, 4)]  # other dice than the season's
    kept = {"stage": "contest", "pair": [a, b], "pair_seed": old, **before[0].as_json()}
    forged = {"stage": "contest", "pair": [a, b], "pair_seed": season_seed(secret), **before[1].as_json()}
    first_two = [line for line in text[1:] if json.loads(line)["number"] in (1, 2)]
    path.write_text("\n".join([text[0], *first_two, json.dumps(kept), json.dumps(forged)]) + "\n")
    capsys.readouterr()
    assert arcade("contest", "rebuild", str(folder)) == 0
    out = capsys.readouterr().out
    assert "left out:" in out and "line 5" in out and "the dice gave" in out
    assert "database made again: 2 submissions, 3 games" in out
    assert run(folder, say=lambda line: None) == 1  # game 4 again, as the season dealt it
    again = records(folder)
    assert again[(a, b, 4)] == dealt[(a, b, 4)] and again[(a, b, 3)]["pair_seed"] == old
