"""``arcade hog analyze``: exact figures from the solver, to 4 decimals, and clear errors."""

from __future__ import annotations

import json

from arcade.cli import main
from games import hog_solver
from games.hog import always_roll, more_boar_strategy


def test_analyze_prints_exact_figures(capsys):
    assert main(["hog", "analyze", "--goal", "30"]) == 0
    out = capsys.readouterr().out
    table = hog_solver.solve(30)
    assert f"the first player wins {table.win[0][0]:.4f}" in out
    first = hog_solver.evaluate(table.strategy, more_boar_strategy, 30)
    second = 1 - hog_solver.evaluate(more_boar_strategy, table.strategy, 30)
    row = next(line for line in out.splitlines() if line.strip().startswith("more_boar_strategy"))
    assert row.split()[1:] == [f"{first:.4f}", f"{second:.4f}", f"{(first + second) / 2:.4f}"]
    assert "← best" in out and "counter_always_roll_6" in out


def test_analyze_json_best_dice_against_always_roll_6(capsys):
    assert main(["hog", "analyze", "--goal", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    averages = {row["dice"]: row["average"] for row in data["always_roll_vs_always_roll_6"]}
    assert data["best_dice_vs_always_roll_6"] == max(averages, key=averages.get)
    six = always_roll(6)
    assert averages[4] == hog_solver.average_win_probability(always_roll(4), six, 30)
    # the exact best response does at least as well as any fixed number of dice
    assert data["counter_always_roll_6"]["average"] >= max(averages.values())
    assert {row["opponent"] for row in data["optimal_vs"]} >= {"optimal", "piggypoints_strategy", "always_roll(6)"}


def test_analyze_rejects_a_bad_goal(capsys):
    assert main(["hog", "analyze", "--goal", "0"]) == 2
    assert "goal" in capsys.readouterr().err
    assert main(["hog"]) == 2
    assert "analyze" in capsys.readouterr().err
