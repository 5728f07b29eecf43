"""Hog's exact scoring (``arcade.contest.hog_exact``, the ``cs61a-hog`` preset): strategies asked
their whole table within ``table_seconds`` (not a move's time) in two fresh processes, a pair's
result computed by the solver instead of sampled, each strategy's exact win rate against
``always_roll(6)`` on the board, and sampled games, said why, for a strategy that is no function
of the scores (it draws random numbers when called or when its file loads, keeps state, fails) or
whose table does not fit the budget."""

from __future__ import annotations

import json
import re

import pytest

from arcade.contest.config import ContestError, load, loads
from arcade.contest.db import Database
from arcade.contest.evidence import pair_of
from arcade.contest.run import run
from arcade.contest.submit import submit
from games.hog_solver import average_win_probability, evaluate
from tests.arcade.contest.helpers import arcade
from tests.arcade.contest.helpers import records

GOAL = 20
STRATEGIES = {
    "steady": "def final_strategy(score, opponent_score):\n    return 4\n",
    "bold": "def final_strategy(score, opponent_score):\n    return 6 if score < 12 else 2\n",
    "dice": "import random\n\ndef final_strategy(score, opponent_score):\n    return random.randrange(1, 7)\n",
    "counter": "calls = 0\n\ndef final_strategy(score, opponent_score):\n    global calls\n    calls += 1\n"
               "    return 3 + calls % 2\n",
}
SIX = "def final_strategy(score, opponent_score):\n    return 6\n"
SLOW_FIRST = '''import time

TABLE = {}


def final_strategy(score, opponent_score):
    if not TABLE:  # its own table, built at its first call: longer than a move's second
        time.sleep(1.5)
        TABLE.update({(s, o): 6 if s < 12 else 2 for s in range(100) for o in range(100)})
    return TABLE[score, opponent_score]
'''
DRAWN = '''import random

PLAN = [random.randrange(11) for _ in range(400)]  # drawn when the file loads: one plan a process


def final_strategy(score, opponent_score):
    return PLAN[score * 20 + opponent_score]
'''
SLUGGISH = '''import time


def final_strategy(score, opponent_score):
    time.sleep(0.02)
    return 5
'''


def always(n):
    return lambda s, o: n


def bold(s, o):
    return 6 if s < 12 else 2


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def season(tmp_path, teams: dict[str, str], *options: str, table_seconds: float | None = None):
    """A ``cs61a-hog`` season to ``GOAL`` of 4 games a pair with ``teams`` (name: the file's
    text) submitted, uncontained (``sandbox = "none"``) unless ``options`` say otherwise."""
    folder = tmp_path / "c"
    assert arcade("contest", "new", str(folder), "--preset", "cs61a-hog", "--option", f"goal={GOAL}",
                  "--games", "4", *(options or ("--sandbox", "none"))) == 0
    if table_seconds is not None:
        toml = folder / "contest.toml"
        toml.write_text(toml.read_text().replace("table_seconds = 60.0", f"table_seconds = {table_seconds}"))
    digests = {}
    for team, text in teams.items():
        path = tmp_path / f"{team}.py"
        path.write_text(text)
        verdict = submit(folder, team, str(path))
        assert verdict.accepted, verdict.line
        digests[team] = verdict.digest
    return folder, digests


def board(folder, capsys, *form: str) -> str:
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), *form) == 0
    return capsys.readouterr().out


def test_tabulated_pairs_are_exact_and_the_others_sampled(tmp_path, capsys):
    folder, digests = season(tmp_path, STRATEGIES, "--sandbox", "auto")  # in the sandbox
    said = []
    run(folder, say=said.append)
    assert any(line.startswith("dice: scored by sampled games (its answers change when asked again") for line in said)
    assert any(line.startswith("counter: scored by sampled games (its answers change when asked again")
               for line in said)
    a, b = pair_of(digests["steady"], digests["bold"])
    with Database(folder) as db:
        exact = db.exact()
    assert list(exact) == [(a, b)]
    first, second = (always(4), bold) if a == digests["steady"] else (bold, always(4))
    assert exact[(a, b)] == pytest.approx((evaluate(first, second, GOAL) + 1 - evaluate(second, first, GOAL)) / 2)
    played = {tuple(sorted(key[:2])) for key in records(folder)}
    assert (a, b) not in played and len(played) == 5 and len(records(folder)) == 20
    rows = {row["team"]: row for row in json.loads(board(folder, capsys, "--json"))["standings"]}
    chance_steady = exact[(a, b)] if a == digests["steady"] else 1 - exact[(a, b)]
    assert rows["steady"]["score"] == pytest.approx(rows["steady"]["wins"] + 4 * chance_steady, abs=0.01)
    assert rows["steady"]["computed"] == 1 and rows["steady"]["games"] == 8 and rows["steady"]["scored"] == "exact"
    assert rows["dice"]["score"] == rows["dice"]["wins"] and rows["dice"]["games"] == 12
    assert rows["dice"]["computed"] == 0 and rows["dice"]["vs_always_roll_6"] is None
    assert rows["dice"]["scored"] == "sampled" and rows["dice"]["why"].startswith("its answers change when asked again")
    assert rows["steady"]["vs_always_roll_6"] == pytest.approx(average_win_probability(always(4), always(6), GOAL))
    before = rows
    assert arcade("contest", "rebuild", str(folder)) == 0
    assert {row["team"]: row for row in json.loads(board(folder, capsys, "--json"))["standings"]} == before


def test_the_courses_score_beside_the_board_and_a_slow_first_call_fits_the_tables_budget(tmp_path, capsys):
    folder, digests = season(tmp_path, {"steady": STRATEGIES["steady"], "six": SIX, "slow": SLOW_FIRST})
    config = load(folder)
    assert config.table_seconds == 60.0 and config.limits.move_time(config.make_game()) == 1.0  # < its first call
    said = []
    assert run(folder, say=said.append) == 0  # every pair computed, none played
    computed = [int(m.group(1)) for line in said for m in [re.fullmatch(r"computed (\d+) pairs? exactly", line)] if m]
    assert sum(computed) == 3 and not records(folder)  # as the tables came in, off the run's thread
    strategies = {"steady": always(4), "six": always(6), "slow": bold}
    expected = {team: average_win_probability(strategy, always(6), GOAL) for team, strategy in strategies.items()}
    assert expected["six"] == pytest.approx(0.5, abs=1e-12)  # always_roll(6) against itself, each first in half
    assert expected["slow"] == pytest.approx(0.5009093, abs=1e-7) and expected["steady"] == pytest.approx(0.4564015,
                                                                                                        abs=1e-7)
    rows = {row["team"]: row for row in json.loads(board(folder, capsys, "--json"))["standings"]}
    for team, strategy in strategies.items():
        row = rows[team]
        assert row["vs_always_roll_6"] == pytest.approx(expected[team], abs=1e-6)
        assert (row["scored"], row["why"], row["computed"], row["games"], row["wins"]) == ("exact", "", 2, 0, 0)
        score = sum(4 * average_win_probability(strategy, other, GOAL) for name, other in strategies.items()
                    if name != team)  # each pair: its expected wins over 4 games, each first in half
        assert row["score"] == pytest.approx(score, abs=0.02)
    assert [r["team"] for r in sorted(rows.values(), key=lambda r: r["rank"])] == ["slow", "six", "steady"]
    table = board(folder, capsys)
    assert "vs ar6" in table and "calc" in table and "draws" not in table
    assert f"{expected['slow']:.4f}" in table and "0.5000" in table
    assert "calc: pairs computed from the two strategies' tables, not played, each counting its expected wins " \
           "over 4 games" in table.replace("\n", " ")
    lines = board(folder, capsys, "--csv").splitlines()
    assert lines[0] == ("rank,team,score,vs_always_roll_6,computed,wins,draws,losses,games,forfeits,points,submitted,"
                        "scored,why")
    assert all(line.split(",")[12] == "exact" for line in lines[1:])
    capsys.readouterr()
    assert arcade("contest", "status", str(folder)) == 0
    status = capsys.readouterr().out
    assert "pairs: 3 (3 computed, 0 with games missing); games: 0 played, 0 missing" in status
    assert "tables (within 60 s each, in two processes): 3 exact, 0 scored by sampled games, 0 not asked yet" in status
    kept = json.loads((folder / "tables" / f"{digests['slow']}.json").read_text())
    assert kept["table"][0][0] == 6 and kept["table"][12][0] == 2 and len(kept["seconds"]) == 2
    assert kept["seconds"][0] >= 1.5 > config.limits.move_time(config.make_game())  # the first call, in the budget


def test_a_table_drawn_when_the_file_loads_or_over_the_budget_is_scored_by_sampled_games(tmp_path, capsys):
    folder, digests = season(tmp_path, {"steady": STRATEGIES["steady"], "drawn": DRAWN, "sluggish": SLUGGISH},
                             table_seconds=2.0)
    said = []
    run(folder, say=said.append)
    assert any(line.startswith("drawn: scored by sampled games (its table differs between two fresh processes: (")
               for line in said)
    assert "sluggish: scored by sampled games (its table did not fit table_seconds: strategy took >2s to answer " \
           "400 positions (" in "\n".join(said)
    with Database(folder) as db:
        assert db.exact() == {}  # every pair has a sampled strategy
        tabled = db.tabled()
    assert tabled[digests["steady"]] == (pytest.approx(0.4564015, abs=1e-6), "")
    assert tabled[digests["drawn"]][0] is None and tabled[digests["sluggish"]][0] is None
    assert len(records(folder)) == 12  # three pairs of 4 games: the sluggish one's 20 ms a move is no forfeit
    rows = {row["team"]: row for row in json.loads(board(folder, capsys, "--json"))["standings"]}
    assert {team: (row["scored"], row["computed"], row["games"]) for team, row in rows.items()} == {
        "steady": ("exact", 0, 8), "drawn": ("sampled", 0, 8), "sluggish": ("sampled", 0, 8)}
    assert all(row["score"] == row["wins"] for row in rows.values())
    table = board(folder, capsys)
    assert "drawn: scored by sampled games: its table differs between two fresh processes" in table
    assert "sluggish: scored by sampled games: its table did not fit table_seconds" in table


def test_a_season_tabled_the_old_way_is_asked_again_and_a_drawn_table_loses_its_computed_pairs(tmp_path, capsys):
    folder, digests = season(tmp_path, {"steady": STRATEGIES["steady"], "drawn": DRAWN})
    a, b = pair_of(digests["steady"], digests["drawn"])
    (folder / "tables").mkdir()
    for team in ("steady", "drawn"):  # as the first format kept them: one process's table, no format
        table = [[4] * GOAL for _ in range(GOAL)] if team == "steady" else [[7] * GOAL for _ in range(GOAL)]
        (folder / "tables" / f"{digests[team]}.json").write_text(json.dumps({"team": team, "table": table, "why": ""}))
    with Database(folder) as db:
        db.set_exact(a, b, 0.25)
    said = []
    run(folder, say=said.append)
    assert any(line.startswith("drawn: scored by sampled games (its table differs") for line in said)
    with Database(folder) as db:
        assert db.exact() == {} and db.counts() == {(a, b): 4}
    assert json.loads((folder / "tables" / f"{digests['steady']}.json").read_text())["format"] == 2


def test_table_seconds_is_written_for_exact_scoring_and_checked_in_one_line(tmp_path):
    folder, _ = season(tmp_path, {})
    text = (folder / "contest.toml").read_text()
    assert "table_seconds = 60.0" in text and "# exact scoring: seconds a strategy has for its whole table" in text
    assert loads(text.replace("table_seconds = 60.0", "table_seconds = 7")).table_seconds == 7
    for bad in ("0", "-1", '"a minute"', "1e9"):
        with pytest.raises(ContestError) as caught:
            loads(text.replace("table_seconds = 60.0", f"table_seconds = {bad}"))
        assert str(caught.value).startswith("table_seconds must be a number of seconds above 0") and "\n" not in str(
            caught.value)


def test_a_slow_first_call_is_refused_by_a_move_limit_and_accepted_by_a_tables_budget(tmp_path):
    path = tmp_path / "slow.py"
    path.write_text(SLOW_FIRST)
    wins = tmp_path / "wins"
    assert arcade("contest", "new", str(wins), "--game", "hog", "--option", f"goal={GOAL}", "--sandbox", "none") == 0
    verdict = submit(wins, "slow", str(path))
    assert not verdict.accepted and "strategy took >1s to return a move" in verdict.line
    folder, _ = season(tmp_path, {"slow": SLOW_FIRST})
    with Database(folder) as db:
        assert [s.team for s in db.current()] == ["slow"]


async def test_the_apps_board_and_the_site_say_where_an_exact_score_comes_from(tmp_path):
    from textual.widgets import DataTable, Static

    from arcade.screens.contest import ContestScreen, TeamScreen
    from arcade.web.contest import publish_contest
    from tests.conftest import make_app, texts_cut, wait_until

    folder, _ = season(tmp_path, {"steady": STRATEGIES["steady"], "six": SIX, "drawn": DRAWN})
    run(folder, say=lambda line: None)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = ContestScreen(folder)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.reads >= 1, what="the board read")
        table = screen.query_one("#c-standings", DataTable)
        assert [column.label.plain.strip() for column in table.columns.values()] == [
            "#", "team", "score", "vs ar6", "calc", "won", "lost", "games", "ff", "points", "submitted"]
        shown = {str(row[1]): [str(getattr(cell, "plain", cell)).strip() for cell in row]
                 for row in (table.get_row_at(i) for i in range(table.row_count))}
        assert shown["steady"][3:5] == [f"{average_win_probability(always(4), always(6), GOAL):.4f}", "1"]
        assert shown["six"][3:5] == ["0.5000", "1"] and shown["drawn"][3:5] == ["sampled", "0"]
        notes = str(screen.query_one("#c-notes", Static).render())
        assert "calc: pairs computed from the two strategies' tables, not played" in notes
        assert "drawn: scored by sampled games: its table differs between two fresh processes" in notes
        assert "8 games played, 1 pair computed" in str(screen.query_one(".c-summary", Static).render())
        assert await texts_cut(pilot, screen) == []  # the summary and the notes whole at 80×24 (the notes scroll)
        page = TeamScreen(folder, "drawn")
        await app.push_screen(page)
        await wait_until(pilot, lambda: page.reads >= 1, what="drawn's page read")
        assert "scored by sampled games: its table differs" in str(page.query_one(".c-summary", Static).render())
        assert await texts_cut(pilot, page) == []
    publish_contest(folder, tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<th class=\"num\">vs always_roll(6)</th><th class=\"num\">Computed</th>" in index
    assert 'id="exact-legend">Computed: pairs computed from the two strategies&#39; tables, not played' in index
    assert ('<span class="name" title="drawn">drawn</span>: scored by sampled games: its table differs between two '
            'fresh processes') in index
    assert "<td class=\"num\">0.5000</td>" in index


def test_the_two_processes_seeds_are_pinned_and_differ():
    from arcade import seeds

    assert seeds.hog_table_seeds(5) == (4265848270026378202, 5669027148502939141)  # a derivation never changes
    first, second = seeds.hog_table_seeds(6)
    assert first != second and (first, second) != seeds.hog_table_seeds(5) and 0 <= first < 1 << 63


SLOWER = SLOW_FIRST.replace("time.sleep(1.5)", "time.sleep(3)")


def test_tables_are_asked_off_the_runs_thread_and_a_slow_one_holds_up_no_other_pair(tmp_path):
    """A strategy whose table takes seconds (within its budget) is asked beside the run: the
    pairs of two fast strategies are computed before its table is in, and its own pairs after."""
    import time

    folder, _digests = season(tmp_path, {"slowest": SLOWER, "steady": STRATEGIES["steady"], "six": SIX})
    said: list[tuple[float, str]] = []
    start = time.monotonic()
    assert run(folder, say=lambda line: said.append((time.monotonic() - start, line))) == 0
    lines = [line for _t, line in said]
    slow_in = next(i for i, line in enumerate(lines) if line.startswith("slowest: table asked"))
    computed = [(i, int(m.group(1))) for i, line in enumerate(lines)
                for m in [re.fullmatch(r"computed (\d+) pairs? exactly", line)] if m]
    assert computed and computed[0][0] < slow_in, lines  # steady–six, while slowest's table is asked
    assert sum(n for _i, n in computed) == 3 and not records(folder)


def test_a_table_that_finishes_just_after_the_run_looked_is_still_collected(tmp_path):
    """The run stops only when no table is waiting to go into the database: one that finished
    between ``collect``'s look and the run's next question is collected, its pair computed (a
    run once ended with both tables asked and the pair neither computed nor played)."""
    from concurrent.futures import wait as until

    from arcade.contest.formats import format_of
    from arcade.contest.hog_exact import Asker
    from arcade.contest.run import settle

    class Late(Asker):
        def collect(self, db, wait=0.0):
            if not wait:
                until(list(self.asked.values()))  # finished, but after the look
                return 0
            return super().collect(db, wait)

    folder, digests = season(tmp_path, {"steady": STRATEGIES["steady"], "six": SIX})
    config = load(folder)
    limits = settle(config)
    helpers = {"asker": Late(folder, config, limits, lambda line: None)}
    rules = format_of(config)
    with Database(folder) as db:
        for _ in range(4):
            wanted, progressed = rules.next_games(folder, db, db.current(), 0, lambda line: None, limits, helpers)
            assert not wanted
            if not progressed:
                break
        assert set(db.tabled()) == set(digests.values())
        assert set(db.exact()) == {pair_of(digests["steady"], digests["six"])}
    rules.close(helpers)
