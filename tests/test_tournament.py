"""Tournaments: STATS 306 round robin scoring, the CS4341 groups structure, the same standings
for any number of jobs, and the command line's JSON and CSV."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from arcade.tournament import TournamentError, planned_pairs, run_tournament
from arcade.catalog import CATALOG

FAULTS = Path(__file__).parent / "fault_bots"
RAISES = f"{FAULTS / 'toothpicks_faults.py'}:raises"


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def lucky_bot(folder: Path) -> str:
    """A file bot that draws from the global ``random`` (seeded per game by the arcade)."""
    path = folder / "lucky.py"
    path.write_text("import random\n\n\ndef strategy(left):\n    return random.choice([1, 2][:left])\n")
    return f"{path}:strategy"


def test_round_robin_scores_wins_as_stats306_did():
    result = run_tournament("toothpicks", ["always_1", "perfect", "always_2", RAISES], games=10, seed=0)
    table = {s.bot: s for s in result.standings}
    # perfect beats both fixed takers from 10 whoever starts; always_1 and always_2 split 5-5
    # (the first mover takes the last one); the bot that raises forfeits all 30 of its games.
    assert [s.bot for s in result.standings] == ["perfect", "always_1", "always_2", RAISES]
    assert [s.rank for s in result.standings] == [1, 2, 2, 4]
    assert table["perfect"].wins == 30 and table["perfect"].games == 30
    assert table["always_1"].wins == table["always_2"].wins == 15
    assert table[RAISES].wins == 0 and table[RAISES].forfeits == 30 and table[RAISES].losses == 30
    assert len(result.pairs) == 6
    for pair in result.pairs:
        assert pair.games == 10
        firsts = [r.first for r in pair.records]
        assert firsts.count(0) == firsts.count(1) == 5  # each side first in half the games
        assert [r.number for r in pair.records] == list(range(1, 11))


@pytest.mark.parametrize("fmt", ["round-robin", "groups"])
def test_the_same_seed_gives_the_same_standings_with_one_or_two_jobs(tmp_path, fmt):
    bots = ["random", "mirror", "always_1", lucky_bot(tmp_path), "perfect", "always_2"]
    games = 14 if fmt == "round-robin" else 4
    one = run_tournament("toothpicks", bots, games=games, seed=7, jobs=1, fmt=fmt).as_json()
    two = run_tournament("toothpicks", bots, games=games, seed=7, jobs=2, fmt=fmt).as_json()
    assert one == two
    other = run_tournament("toothpicks", bots, games=games, seed=8, jobs=1, fmt=fmt).as_json()
    assert other["pairs"] != one["pairs"]  # random players: another seed, other games


def test_groups_follow_the_cs4341_structure():
    bots = ["perfect", "random", "always_1", "always_2", "mirror", RAISES, "random_b"]
    with pytest.raises(Exception, match="unknown bot 'random_b'"):
        run_tournament("toothpicks", bots, games=2, seed=1, fmt="groups")
    bots = bots[:-1]
    seen = []
    result = run_tournament("toothpicks", bots, games=2, seed=1, fmt="groups",
                            progress=lambda done, total, pairs: seen.append((done, total)))
    names = [r.name for r in result.rounds]
    assert names == ["first round", "semi-final", "final"]
    first = result.rounds[0]
    assert sorted(len(g.bots) for g in first.groups) == [3, 3]
    assert sorted(b for g in first.groups for b in g.bots) == sorted(bots)
    semi = result.rounds[1].groups[0]
    assert sorted(semi.bots) == sorted(s.bot for g in first.groups for s in g.standings[:2])
    final, third = result.rounds[2].groups
    assert final.bots == [s.bot for s in semi.standings[:2]] and third.bots == [s.bot for s in semi.standings[2:]]
    assert result.standings[0].bot == "perfect" and result.standings[0].stage == "final"
    assert [s.stage for s in result.standings[:4]] == ["final", "final", "third place", "third place"]
    assert {s.stage for s in result.standings[4:]} == {"first round"}
    assert len(result.standings) == len(bots) and result.standings[-1].bot == RAISES
    # points as the course gave them: 2 a win, 1 a draw
    assert all(s.points == 2 * s.wins + s.draws for s in result.standings)
    assert seen[-1][0] == seen[-1][1] == planned_pairs(len(bots)) * 2


def test_planned_pairs_counts_every_round():
    assert planned_pairs(2) == 1  # the final only
    assert planned_pairs(3) == 3 + 1  # semi-final round robin, final
    assert planned_pairs(4) == 6 + 2  # semi-final, final and third place
    assert planned_pairs(16) == 4 * 6 + 2 * 6 + 6 + 2  # 4 groups of 4, 2 groups of 4, semi, finals
    assert planned_pairs(11) == (6 + 6 + 3) + (3 + 3) + 6 + 2  # groups of 4, 4, 3; then 2 of 3
    assert planned_pairs(20) == 4 * 10 + 2 * 6 + 6 + 2  # 4 groups of 5


def test_bad_tournaments_are_refused():
    with pytest.raises(TournamentError, match="at least two bots"):
        run_tournament("toothpicks", ["perfect"])
    with pytest.raises(TournamentError, match="named twice"):
        run_tournament("toothpicks", ["perfect", "perfect"])
    with pytest.raises(TournamentError, match="unknown format"):
        run_tournament("toothpicks", ["perfect", "random"], fmt="swiss")


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )


def test_cli_json_and_csv(tmp_path):
    chatty = f"{FAULTS / 'toothpicks_faults.py'}:good"
    out = tmp_path / "standings.csv"
    done = run_cli("tournament", "toothpicks", "perfect", "always_1", chatty, RAISES, "--games", "6",
                   "--seed", "3", "--jobs", "2", "--json", "--csv", str(out))
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)  # one object: the bots' prints went to their logs
    assert result["game"] == "toothpicks" and result["games_per_pair"] == 6
    assert [s["bot"] for s in result["standings"]][0] == "perfect"
    for row in result["standings"]:
        assert {"bot", "wins", "games", "forfeits"} <= set(row) and row["games"] == 18
    assert {tuple(p["bots"]) for p in result["pairs"]} == {
        ("perfect", "always_1"), ("perfect", chatty), ("perfect", RAISES),
        ("always_1", chatty), ("always_1", RAISES), (chatty, RAISES)}
    assert next(s for s in result["standings"] if s["bot"] == RAISES)["forfeits"] == 18
    rows = list(csv.reader(out.open()))
    assert rows[0][:3] == ["rank", "bot", "wins"] and [r[1] for r in rows[1:]] == [s["bot"] for s in result["standings"]]


def test_cli_table_and_errors():
    done = run_cli("tournament", "toothpicks", "perfect", "random", RAISES, "--games", "4", "--jobs", "1")
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "perfect" in done.stdout and "toothpicks_faults.py:raises" in done.stdout
    assert "strategy produced an error (ValueError: deliberate bug)" in done.stdout
    for args, words in [
        (["perfect"], "at least two bots"),
        (["perfect", "deep_blue"], "unknown bot 'deep_blue'"),
        (["perfect", "random", "--jobs", "0"], "--jobs must be at least 1"),
        (["perfect", str(FAULTS / "syntax_error.py")], "cannot load bot"),
    ]:
        done = run_cli("tournament", "toothpicks", *args)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and done.stdout == ""
        assert len(lines) == 1 and words in lines[0]


async def run_and_wait(pilot, screen) -> None:
    """Start the tournament (Ctrl+S) and wait for it to finish (30 s at most)."""
    await pilot.press("ctrl+s")
    for _ in range(600):
        await pilot.pause(0.05)
        if not screen.running:
            break


async def test_the_tournament_screen_fills_in_the_standings(tmp_path):
    from textual.widgets import DataTable, Input, SelectionList, Static

    from arcade.screens.menu import MenuScreen
    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        app.screen.query_one("#games").highlighted = list(CATALOG).index("toothpicks")
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TournamentScreen) and screen.game_id == "toothpicks"
        bots = screen.query_one("#t-bots", SelectionList)
        assert bots.selected == ["perfect", "random", "always_1"]  # the first three, ticked
        bots.deselect("random")
        lucky = lucky_bot(tmp_path)
        screen.query_one("#t-files", Input).value = f"{lucky} {RAISES}"
        screen.query_one("#t-games", Input).value = "6"
        screen.query_one("#t-seed", Input).value = "4"
        await run_and_wait(pilot, screen)
        await pilot.pause()
        status = str(screen.query_one("#t-status", Static).render())
        assert status.startswith("done: 36 games; perfect first"), status
        table = screen.query_one("#t-standings", DataTable)
        expected = run_tournament("toothpicks", ["perfect", "always_1", lucky, RAISES], games=6, seed=4)
        shown = [table.get_row_at(i) for i in range(table.row_count)]
        assert [row[2] for row in shown] == [str(s.wins) for s in expected.standings]
        assert shown[-1][1] == "…lts.py:raises" and shown[-1][4] == "18"
        # a bad list of bots is refused with a message, nothing runs
        screen.query_one("#t-files", Input).value = "nowhere.py:strategy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "no such file" in str(screen.query_one("#t-status", Static).render()) and not screen.running
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def test_the_tournament_screen_at_80_by_24_after_a_groups_tournament(snap_compare, monkeypatch):
    from textual.widgets import Input, Select, SelectionList

    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    async def run_before(pilot):
        await pilot.pause()
        screen = TournamentScreen("toothpicks")
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.query_one("#t-format", Select).value = "groups"
        await pilot.pause()
        screen.query_one("#t-bots", SelectionList).select_all()
        # a path relative to the checkout, so that the picture is the same on any machine
        screen.query_one("#t-files", Input).value = "tests/fault_bots/toothpicks_faults.py:raises"
        screen.query_one("#t-seed", Input).value = "3"
        await run_and_wait(pilot, screen)
        screen.query_one("#t-bots", SelectionList).focus()
        await pilot.pause()

    monkeypatch.chdir(FAULTS.parent.parent)
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


async def test_random_keys_on_the_tournament_screen_never_crash_the_app(seed=0):
    import random

    from arcade.screens.menu import MenuScreen
    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    keys = ["up", "down", "enter", "space", "tab", "shift+tab", "ctrl+s", "escape", "t", "1", "0", "x",
            "backspace", "left", "right"]
    rng = random.Random(seed)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(TournamentScreen("toothpicks"))
        for _ in range(30):
            key = rng.choice(keys)
            if key == "escape" and isinstance(app.screen, MenuScreen):
                continue
            await pilot.press(key)
        await pilot.pause()
        assert app.is_running
        for worker in list(app.workers):  # stop any tournament still running
            worker.cancel()
        for _ in range(200):
            if all(worker.is_finished for worker in app.workers):
                break
            await pilot.pause(0.05)
        assert app.is_running
