"""Forfeits said the same way by ``arcade match`` and ``arcade tournament``
(``arcade.match.forfeit_lines``): a line for each bot and kind of forfeit, its games counted and
its details together (times as a range), never ten near-identical lines."""

from __future__ import annotations

import argparse

from arcade.match import GameRecord, forfeit_lines, split_reason
from arcade.tournament.formats import PairResult, TournamentResult, round_robin_standings
from games.base import Termination

SLOW = "Player 1 strategy took >100ms to return a move"


def test_ten_time_forfeits_are_one_line_with_their_range():
    forfeits = [("slow", f"{SLOW} ({ms} ms)") for ms in (503, 513, 613, 540, 560, 577, 590, 599, 601, 507)]
    assert forfeit_lines(forfeits) == [f"slow forfeited 10×: {SLOW} (503–613 ms)"]


def test_kinds_and_players_are_apart_the_most_frequent_first_and_other_details_named():
    forfeits = [("b", "Ohio strategy produced an error (ValueError: x)"),
                ("b", "Ohio strategy took >100ms to return a move (120 ms)"),
                ("b", "Ohio strategy produced an error (KeyError: 'a')"),
                ("b", "Ohio strategy produced an error (ValueError: x)"),
                ("b", "Ohio strategy produced an error (ZeroDivisionError: division by zero)"),
                ("b", "Ohio strategy produced an error (OSError: 5)"),
                ("a", f"{SLOW} (no answer after 0.6s; stopped)"),
                ("a", f"{SLOW} (101.5 ms)"),
                ("a", "Player 1 strategy returned an invalid move")]
    assert forfeit_lines(forfeits) == [
        f"a forfeited 2×: {SLOW} (101.5 ms; no answer after 0.6s; stopped)",
        "a forfeited 1×: Player 1 strategy returned an invalid move",
        "b forfeited 5×: Ohio strategy produced an error (ValueError: x; KeyError: 'a'; and 2 more)",
        "b forfeited 1×: Ohio strategy took >100ms to return a move (120 ms)",
    ]


def test_a_reason_splits_into_its_wording_and_its_detail():
    assert split_reason(f"{SLOW} (1503 ms)") == (SLOW, "1503 ms")
    assert split_reason("Blue strategy produced an error (ValueError: f(x) failed)") == (
        "Blue strategy produced an error", "ValueError: f(x) failed")
    assert split_reason("Blue strategy returned an invalid move") == ("Blue strategy returned an invalid move", "")


def test_a_tournament_groups_its_forfeit_lines_as_a_match_does(capsys):
    from arcade.catalog import load
    from arcade.commands.tournament import print_result

    records = [GameRecord(number, 0, 1, f"{SLOW} ({500 + 11 * number} ms)", 3, forfeit=0,
                          termination=Termination.TIME) for number in range(1, 11)]
    pair = PairResult("round robin", "slow", "perfect", records)
    result = TournamentResult("toothpicks", {}, "round-robin", 10, 1, ["slow", "perfect"], [pair],
                              round_robin_standings(["slow", "perfect"], [pair]))
    print_result(load("toothpicks")(), result, argparse.Namespace(fmt="round-robin"), 1, False, [])
    out = capsys.readouterr().out
    assert f"slow forfeited 10×: {SLOW} (511–610 ms)" in out
    assert out.count("forfeited") == 1
