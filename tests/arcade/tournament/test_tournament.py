"""Tournaments: STATS 306 round robin scoring, the CS4341 groups structure, the same standings
for any number of jobs, and the command line's JSON and CSV."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.tournament.formats import TournamentError, planned_pairs
from arcade.tournament.plan import plan, planned_games
from arcade.tournament.runner import run_tournament
from arcade.catalog import CATALOG
from tests.paths import TESTS

FAULTS = TESTS / "fault_bots"
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
    """Start the tournament (Ctrl+S) and wait for it to finish (a generous deadline)."""
    from tests.conftest import wait_until

    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: not screen.running, what="the tournament's end")


async def test_the_tournament_screen_fills_in_the_standings(tmp_path):
    from textual.widgets import DataTable, Input, ProgressBar, SelectionList, Static

    from arcade.screens.menu import MenuScreen
    from arcade.screens.tournament import DEFAULTS, TournamentScreen, cut
    from tests.conftest import make_app, texts_cut

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
        assert bots.selected == list(DEFAULTS["toothpicks"][0])
        for name in ("random", "always_2", "mirror"):
            bots.deselect(name)
        lucky = lucky_bot(tmp_path)
        screen.query_one("#t-files", Input).value = f"{lucky} {RAISES}"
        screen.query_one("#t-games", Input).value = "6"
        screen.query_one("#t-seed", Input).value = "4"
        await pilot.pause()
        count = screen.query_one("#t-count", Static)
        assert str(count.render()) == "36 games planned"  # 4 bots: 6 pairs of 6 games
        await run_and_wait(pilot, screen)
        await pilot.pause()
        status = str(screen.query_one("#t-status", Static).render())
        assert status.startswith("done: 36 games; perfect first"), status
        assert await texts_cut(pilot, screen) == []  # the status, the count, the standings' notes whole at 80×24
        assert str(count.render()).startswith("36 games in ")
        bar = screen.query_one("#t-progress", ProgressBar)
        assert bar.total == bar.progress == 36
        expected = run_tournament("toothpicks", ["perfect", "always_1", lucky, RAISES], games=6, seed=4)
        table = screen.query_one("#t-standings", DataTable)
        shown = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        # rank, bot, games, won, drew, lost, forfeits
        assert [row[1:] for row in shown] == [
            [cut(s.bot), str(s.games), str(s.wins), str(s.draws), str(s.losses), str(s.forfeits)]
            for s in expected.standings]
        assert [row[2] for row in shown] == ["18"] * 4  # each bot played 3 pairs of 6 games
        assert "lucky:strategy" in [row[1] for row in shown]  # a file bot's file:function, its end
        assert shown[-1][1] == "…faults:raises" and shown[-1][5:] == ["18", "18"]
        # the crosstable: a row per bot in the standings' order, the row bot's wins against each
        cross = screen.query_one("#t-crosstable", DataTable)
        rows = [[str(cell) for cell in cross.get_row_at(i)] for i in range(cross.row_count)]
        order = [s.bot for s in expected.standings]
        assert [row[0] for row in rows] == ["1", "2", "3", "4"]
        assert [row[1] for row in rows] == [shown[i][1] for i in range(4)]
        for i, me in enumerate(order):
            for j, other in enumerate(order):
                pair = next(p for p in expected.pairs if {p.a, p.b} == {me, other}) if i != j else None
                wins = "·" if pair is None else str(pair.wins[0 if pair.a == me else 1])
                assert rows[i][2 + j] == wins, (me, other)
        assert rows[0][2] == rows[3][5] == "·" and rows[0][5] == "6"  # perfect beat the bot that raises
        # a bad list of bots is refused with a message, nothing runs
        screen.query_one("#t-files", Input).value = "nowhere.py:strategy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "no such file" in str(screen.query_one("#t-status", Static).render()) and not screen.running
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_the_plan_before_start_follows_the_game_the_format_the_games_and_the_bots():
    from textual.widgets import Input, ProgressBar, Select, SelectionList, Static

    from arcade.screens.tournament import DEFAULTS, TournamentScreen
    from tests.conftest import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = TournamentScreen("toothpicks")
        await app.push_screen(screen)
        await pilot.pause()
        count = screen.query_one("#t-count", Static)
        bar = screen.query_one("#t-progress", ProgressBar)

        def plan() -> str:
            return str(count.render())

        assert plan() == "200 games planned"  # 5 bots: 10 pairs of 20
        # idle until Start: a bar without a total would animate
        assert bar.total == 200 and bar.progress == 0 and bar.percentage == 0
        screen.query_one("#t-games", Input).value = "3"
        await pilot.pause()
        assert plan() == "30 games planned"
        screen.query_one("#t-bots", SelectionList).deselect("mirror")
        await pilot.pause()
        assert plan() == "18 games planned"  # 4 bots: 6 pairs
        screen.query_one("#t-files", Input).value = "a.py:f b.py:g"
        await pilot.pause()
        assert plan() == "45 games planned"  # 6 entrants: 15 pairs
        screen.query_one("#t-format", Select).value = "groups"
        await pilot.pause()
        assert screen.query_one("#t-games", Input).value == "2"
        assert plan() == f"{planned_pairs(6) * 2} games planned"
        screen.query_one("#t-games", Input).value = ""
        await pilot.pause()
        assert plan() == "games a pair?"
        screen.query_one("#t-files", Input).value = ""
        screen.query_one("#t-bots", SelectionList).deselect_all()
        await pilot.pause()
        assert plan() == "tick two bots"
        assert bar.percentage == 0  # still idle
        # Othello: only bots that play unattended, the fast ones ticked, few games
        screen.query_one("#t-format", Select).value = "round-robin"
        screen.query_one("#t-game", Select).value = "othello"
        await pilot.pause()
        bots = screen.query_one("#t-bots", SelectionList)
        names = [bots.get_option_at_index(i).value for i in range(bots.option_count)]
        assert "external" not in names and "alphabeta" in names
        assert bots.selected == list(DEFAULTS["othello"][0]) and "alphabeta" not in bots.selected
        assert screen.query_one("#t-games", Input).value == str(DEFAULTS["othello"][1])
        assert plan() == f"{3 * DEFAULTS['othello'][1]} games planned"
        # typed among the files, it is refused all the same
        screen.query_one("#t-files", Input).value = "external"
        await pilot.press("ctrl+s")
        await pilot.pause()
        status = str(screen.query_one("#t-status", Static).render())
        assert not screen.running and "'external' cannot play unattended" in status


async def test_the_count_says_the_games_done_and_the_time_left():
    from textual.widgets import ProgressBar, Static

    from arcade.screens.tournament import TournamentScreen, clock, now
    from tests.conftest import make_app

    assert [clock(s) for s in (0, 7.4, 59.6, 754, 3723)] == ["0:00", "0:07", "1:00", "12:34", "1:02:03"]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = TournamentScreen("toothpicks")
        await app.push_screen(screen)
        await pilot.pause()
        screen.running = True  # as if started: the worker's messages, made here
        message = TournamentScreen.Progress(10, 40, [], ["perfect", "random"])
        screen.started = message.time - 20.0  # 10 games in 20 s: 30 to go, 60 s
        screen.post_message(message)
        await pilot.pause()
        assert str(screen.query_one("#t-count", Static).render()) == "10/40 games · 1:00 left"
        bar = screen.query_one("#t-progress", ProgressBar)
        assert (bar.progress, bar.total) == (10, 40)
        screen.started, screen.last = now() - 70.0, (now() - 50.0, 10, 40)  # the same pace, 50 s ago
        screen.show_count()
        assert str(screen.query_one("#t-count", Static).render()) == "10/40 games · 0:10 left"
        screen.last = (now() - 61.0, 10, 40)
        screen.started = screen.last[0] - 20.0
        screen.show_count()
        assert str(screen.query_one("#t-count", Static).render()) == "10/40 games · almost done"
        screen.running = False


@pytest.mark.parametrize("game_id", list(CATALOG))
def test_each_games_default_tournament_takes_seconds(game_id):
    """The screen's defaults (``DEFAULTS``): bots the game has, that play unattended, few games,
    and the whole tournament in well under a minute of work (the app runs it over every core too).
    The work is this process's CPU time, on one process: a busy machine stretches the wall clock,
    not the work (``bench/tournament.py`` measures the wall time, loaded or not)."""
    import time

    from arcade.screens.tournament import defaults
    from bots.registry import bots_for

    bots, games = defaults(game_id)
    entries = bots_for(game_id)
    assert len(bots) >= 3 and all(entries[bot].unattended for bot in bots)
    assert 2 <= games <= 20
    start = time.process_time()
    result = run_tournament(game_id, bots, games=games, seed=0, jobs=1)
    work = time.process_time() - start
    assert sum(p.games for p in result.pairs) == len(bots) * (len(bots) - 1) // 2 * games
    assert work < 30, f"{game_id}'s default tournament took {work:.0f} s of CPU"


def test_a_bot_that_cannot_play_unattended_is_refused_in_one_line():
    from bots.registry import bots_for

    assert not bots_for("othello")["external"].unattended
    assert all(entry.unattended for name, entry in bots_for("othello").items() if name != "external")
    done = run_cli("tournament", "othello", "greedy", "external", "--games", "2")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == ""
    assert len(lines) == 1 and "bot 'external' cannot play unattended" in lines[0]


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
    monkeypatch.setattr("arcade.screens.tournament.now", lambda: 100.0)  # "28 games in 0:00"
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


@pytest.mark.parametrize("fmt,bots", [("round-robin", 2), ("round-robin", 5), ("groups", 2), ("groups", 3),
                                      ("groups", 4), ("groups", 5)])
def test_the_plan_counts_the_games_the_tournament_plays(fmt, bots):
    names = ["perfect", "random", "always_1", "always_2", "mirror"][:bots]
    planned = plan("toothpicks", names, fmt, 2)
    result = run_tournament("toothpicks", names, games=2, seed=3, fmt=fmt)
    assert planned.total == sum(p.games for p in result.pairs) == planned_games(fmt, bots, 2)
    assert planned.pairs == len(result.pairs) and planned.games == result.games_per_pair == 2


def test_the_plans_pre_flight_names_the_first_problem_and_runs_nothing(tmp_path):
    from bots.limits import Limits
    from games.othello import Othello

    for bots, words in [(["perfect"], "at least two bots"), (["perfect", "perfect"], "named twice"),
                        (["perfect", "deep_blue"], "unknown bot 'deep_blue'"),
                        (["perfect", str(tmp_path / "nowhere.py")], "no such file")]:
        with pytest.raises(TournamentError, match=words):
            plan("toothpicks", bots)
    with pytest.raises(TournamentError, match="'external' cannot play unattended"):
        plan("othello", ["greedy", "external"])
    broken = tmp_path / "broken.py"
    broken.write_text("def strategy(n):\n    return (1\n")
    assert plan("toothpicks", ["perfect", str(broken)]).total == 100  # read only when asked to
    with pytest.raises(TournamentError, match="not valid Python"):
        plan("toothpicks", ["perfect", str(broken)], read_files=True)
    assert plan("toothpicks", ["perfect", "random"], "groups").games == 2  # the format's default
    # each bot's time a move: its own, a file bot the game's; the run's time when it sets one
    planned = plan("othello", ["greedy", "alphabeta-0.1s", "alphabeta", str(broken)])
    assert planned.clocks(Othello()) == {"greedy": 0.01, "alphabeta-0.1s": 0.1, "alphabeta": 10.0, str(broken): 10.0}
    assert set(planned.clocks(Othello(), Limits(time=2.0)).values()) == {2.0}


async def test_the_tournament_screen_probes_its_file_bots_in_the_sandbox_it_runs_them_in(monkeypatch):
    from textual.widgets import Input, SelectionList

    import arcade.tournament.runner
    from arcade.screens.tournament import TournamentScreen
    from bots import registry
    from bots.external import sandbox
    from tests.conftest import make_app

    good = f"{FAULTS / 'toothpicks_faults.py'}:good"
    seen = {}

    def admit(game, bots, limits, required=False):
        seen["probed"] = limits
        return registry.Admitted([], limits)

    def run(game_id, bots, **options):
        seen["ran"] = options["limits"]
        raise RuntimeError("played nothing")

    monkeypatch.setattr(registry, "admit", admit)
    monkeypatch.setattr(arcade.tournament.runner, "run_tournament", run)
    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: None)
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = TournamentScreen("toothpicks")
        await app.push_screen(screen)
        await pilot.pause()
        screen.query_one("#t-bots", SelectionList).deselect_all()
        screen.query_one("#t-bots", SelectionList).select("perfect")
        screen.query_one("#t-files", Input).value = good
        await pilot.press("ctrl+s")
        await run_and_wait(pilot, screen)
        assert "played nothing" in str(screen.query_one("#t-status").render())
    assert seen["probed"] is seen["ran"] and seen["ran"].sandbox == "bwrap"


async def test_the_tournament_screen_opens_on_the_game_list_and_says_ticked_bots_in_text():
    from textual.widgets import Select, SelectionList

    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TournamentScreen("toothpicks")
        await pilot.app.push_screen(screen)
        await pilot.pause()
        assert isinstance(app.focused, Select) and app.focused.id == "t-game"
        bots = screen.query_one("#t-bots", SelectionList)
        before = set(bots.selected)
        await pilot.press("down")  # opens the Game list: ticks nothing
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert set(bots.selected) == before

        def prompts() -> dict[str, str]:
            return {bots.get_option_at_index(i).value: str(bots.get_option_at_index(i).prompt)
                    for i in range(bots.option_count)}

        assert all(text.startswith("✓ " if name in before else "· ") for name, text in prompts().items())
        bots.focus()
        await pilot.pause()
        first = bots.get_option_at_index(bots.highlighted or 0).value
        await pilot.press("space")
        await pilot.pause()
        assert set(bots.selected) != before, (bots.highlighted, app.focused)
        assert prompts()[first].startswith("· " if first in before else "✓ ")


def test_a_long_file_bot_name_keeps_a_gap_before_the_groups_points():
    from arcade.screens.tournament import COLUMNS, cut

    width = COLUMNS["groups"][1][1]
    name = cut("tests/fault_bots/toothpicks_faults.py:raises", width - 1)
    assert name.startswith("…") and name.endswith("raises") and len(name) < width


async def test_the_tournament_screen_asks_to_be_enlarged_where_it_does_not_fit():
    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = TournamentScreen("toothpicks")
        await pilot.app.push_screen(screen)
        await pilot.pause()
        assert screen.has_class("too-small")
        notice = str(screen.query_one("#t-too-small").render())
        assert "Enlarge the terminal" in notice and "60×20" in notice and "80×24" in notice
        assert not screen.query_one("#tournament").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.has_class("too-small") and screen.query_one("#tournament").display


def test_the_tournament_screen_at_60_by_20_says_enlarge(snap_compare):
    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    async def run_before(pilot):
        await pilot.app.push_screen(TournamentScreen("toothpicks"))
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(60, 20), run_before=run_before)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_no_csv_cell_starts_a_spreadsheet_formula(text):
    from arcade.commands.tournament import FORMULA_STARTS, cell

    shown = cell(text)
    assert not shown.lstrip(" ").startswith(FORMULA_STARTS)
    assert shown in (text, "'" + text)  # nothing lost: a leading quote at most
    assert cell(-3) == -3 and cell(2.5) == 2.5  # numbers stay numbers


def test_a_bot_file_named_like_a_formula_is_text_in_the_csv(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "=HYPERLINK(1).py").write_text("def good(left):\n    return 1\n")
    bot = "=HYPERLINK(1).py:good"  # as a student hands it in, named from the class folder
    out = tmp_path / "standings.csv"
    done = run_cli("tournament", "toothpicks", "perfect", bot, "--games", "2", "--seed", "1", "--sandbox", "none",
                   "--json", "--csv", str(out), cwd=folder)
    assert done.returncode == 0, done.stderr
    cells = [c for row in csv.reader(out.open()) for c in row]
    assert "'" + bot in cells  # the name, kept whole, read as text
    assert not any(c.lstrip(" ").startswith(("=", "+", "-", "@")) for c in cells)


async def test_t_on_the_menu_opens_the_highlighted_games_tournament_as_the_readme_says():
    """Issue 33: the screen opened on D-Football (highlighted) while the README promised Othello's
    quick bots. The screen follows the menu's highlight, with that game's ``DEFAULTS``, and the
    README's paragraph names every game's defaults as ``DEFAULTS`` holds them."""
    import re

    from textual.widgets import Input, OptionList, Select, SelectionList

    from arcade.screens.tournament import DEFAULTS, TournamentScreen
    from tests.conftest import make_app
    from arcade.catalog import CATALOG
    from tests.paths import ROOT

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "opens the tournament screen on the game highlighted in the menu" in readme
    for game_id, (bots, games) in DEFAULTS.items():
        said = f"{CATALOG[game_id].title}: {', '.join(f'`{bot}`' for bot in bots)}, {games} games a pair"
        assert said in readme, said
    assert not re.search(r"starts with fast bots and few games \(a tournament of seconds: Othello", readme)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        for index, game_id in enumerate(CATALOG):
            menu.query_one("#games", OptionList).highlighted = index
            await pilot.press("t")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TournamentScreen) and screen.query_one("#t-game", Select).value == game_id
            bots, games = DEFAULTS[game_id]
            assert screen.query_one("#t-bots", SelectionList).selected == list(bots)
            assert screen.query_one("#t-games", Input).value == str(games)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is menu


def test_a_resumed_tournament_says_how_many_games_came_from_the_record(tmp_path, capsys):
    """Issue 33: resuming said nothing of what the record held. The count goes to standard error
    (the standings on standard output stay those of an uninterrupted run)."""
    from arcade.cli import main

    record = tmp_path / "t.jsonl"
    command = ["tournament", "toothpicks", "perfect", "random", "always_1", "--games", "10", "--seed", "5",
               "--jobs", "1", "--record", str(record)]
    assert main(command) == 0
    first = capsys.readouterr()
    assert "came from the record" not in first.err
    lines = record.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 30
    record.write_text("".join(lines[:13]))  # the header and 12 games
    assert main(command) == 0
    resumed = capsys.readouterr()
    assert f"arcade: {record}: 12 of the 30 games came from the record, 18 were played now" in resumed.err
    assert resumed.out == first.out
    assert main(command) == 0
    again = capsys.readouterr()
    assert f"arcade: {record}: 30 of the 30 games came from the record, none was played now" in again.err
    assert again.out == first.out


def three_bot_pys(folder: Path) -> list[str]:
    """``alice/bot.py``, ``bob/bot.py`` and ``carol/bot.py`` (whose strategy raises), as a class
    hands them in: one file name, three folders."""
    specs = []
    for team, body in (("alice", "return 1"), ("bob", "return min(2, left)"), ("carol", "raise ValueError('mine')")):
        (folder / team).mkdir()
        (folder / team / "bot.py").write_text(f"def strategy(left):\n    {body}\n")
        specs.append(f"{folder / team / 'bot.py'}:strategy")
    return specs


def test_three_bot_py_of_three_folders_are_named_by_their_folders_in_the_table_and_the_forfeits(tmp_path, capsys):
    from arcade.cli import main

    assert main(["tournament", "toothpicks", *three_bot_pys(tmp_path), "perfect", "--games", "2", "--seed", "1",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    table = [line.split("│")[2].strip() for line in out.splitlines() if line.count("│") > 3]
    assert sorted(table) == ["alice/bot.py:strategy", "bob/bot.py:strategy", "carol/bot.py:strategy", "perfect"]
    forfeits = [line for line in out.splitlines() if " forfeited " in line]
    assert forfeits == [f"carol/bot.py:strategy forfeited 3×: Player {side} strategy produced an error (ValueError: mine)"
                        for side in (1, 2)]


async def test_the_tournament_screen_names_bots_of_one_file_name_by_their_folders(tmp_path):
    from textual.widgets import DataTable, Input, SelectionList, Static

    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TournamentScreen("toothpicks")
        await app.push_screen(screen)
        await pilot.pause()
        bots = screen.query_one("#t-bots", SelectionList)
        for name in list(bots.selected):
            bots.deselect(name)
        bots.select("perfect")
        screen.query_one("#t-files", Input).value = " ".join(three_bot_pys(tmp_path))
        screen.query_one("#t-games", Input).value = "2"
        await pilot.pause()
        await run_and_wait(pilot, screen)
        await pilot.pause()
        assert str(screen.query_one("#t-status", Static).render()).startswith("done: 12 games; perfect first")
        for which, column in (("#t-standings", 1), ("#t-crosstable", 1)):
            table = screen.query_one(which, DataTable)
            names = sorted(str(table.get_row_at(i)[column]) for i in range(table.row_count))
            # 14 columns: each name's start (its folder) and end (its function)
            assert names == ["alice/b…rategy", "bob/bot…rategy", "carol/b…rategy", "perfect"], names
