"""The contest's live board in the app (``arcade contest board DIR``, ``c`` on the menu): the
standings, the crosstable, a team's page (its submissions, its games with their forfeit reasons,
its log) and a game's replay, redrawn as games reach the database while the screen keeps
answering keys; a hostile submission's words shown plain; pictures at 80×24."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from textual.widgets import ContentSwitcher, DataTable, Input, RichLog, Static

from arcade.contest.db import Database
from arcade.match import GameRecord
from arcade.screens.contest import ContestScreen, OpenContest, TeamScreen
from arcade.screens.replay import ReplayScreen
from tests.arcade.contest.helpers import arcade, bot
from tests.conftest import make_app, texts_cut, wait_until

HOSTILE = '''from games.dfootball import valid_moves

calls = 0

def strategy(game):
    global calls
    calls += 1
    print("[link=http://evil]click[/link] [@click=app.quit]quit[/]")
    if calls > 8 and calls % 3 == 0:
        raise ValueError("[@click=app.quit]boom[/] [b]bold[/b]")
    return valid_moves(game)[-1]
'''

REFUSING = '''def strategy(game):
    raise ValueError("this strategy refuses every position: the ball is too far from the goal line to try "
                     "anything clever today, and tomorrow looks no better")
'''


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> Path:
    """A STATS 306 season of 2 games a pair, played: alice, bob and carol (whose strategy prints
    markup and raises an error whose message is markup), dave's submission rejected, and carol's
    second (an error of two lines' worth) rejected too."""
    from arcade.contest.run import run
    from arcade.contest.submit import submit

    where = tmp_path_factory.mktemp("season")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARCADE_BOT_LOGS", str(where / "logs"))
        folder = where / "c"
        assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "2", "--sandbox", "none") == 0
        (where / "hostile").mkdir()
        (where / "hostile" / "hostile.py").write_text(HOSTILE)
        (where / "refusing").mkdir()
        (where / "refusing" / "refusing.py").write_text(REFUSING)
        for team, path in (("alice", bot(where, "far")), ("bob", bot(where, "near")),
                           ("carol", str(where / "hostile" / "hostile.py")), ("dave", bot(where, "broken")),
                           ("carol", str(where / "refusing" / "refusing.py"))):
            submit(folder, team, path)
        assert run(folder, say=lambda line: None) == 6
    with Database(folder) as db:  # the same times in every picture
        db.write("UPDATE submissions SET submitted = '2026-03-0' || id || 'T10:00:00+00:00'")
    return where


@pytest.fixture
def contest(season, monkeypatch) -> Path:
    """The season (which these tests only read), the working folder its parent (the board's title
    shows ``c``), the bots' logs where its run wrote them and the board's clock stopped."""
    monkeypatch.chdir(season)
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(season / "logs"))
    monkeypatch.setattr("arcade.contest.board.clock", lambda: "12:00:00")
    return Path("c")


@pytest.fixture
def copied(contest, tmp_path, monkeypatch) -> Path:
    """A copy of the season, for a test that writes in it."""
    shutil.copytree(contest, tmp_path / "c")
    monkeypatch.chdir(tmp_path)
    return Path("c")


async def opened(pilot, screen):
    await pilot.app.push_screen(screen)
    await wait_until(pilot, lambda: screen.reads >= 1, what="the board read")
    await pilot.pause()
    return screen


def rows(table: DataTable) -> list[list[str]]:
    return [[str(getattr(cell, "plain", cell)).strip() for cell in table.get_row_at(i)] for i in range(table.row_count)]


def test_the_board_at_80_by_24(snap_compare, contest):
    async def run_before(pilot):
        await opened(pilot, ContestScreen(contest))

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


def test_the_crosstable_at_80_by_24(snap_compare, contest):
    async def run_before(pilot):
        await opened(pilot, ContestScreen(contest))
        await pilot.press("x")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


def test_a_teams_page_at_80_by_24(snap_compare, contest):
    async def run_before(pilot):
        await opened(pilot, TeamScreen(contest, "carol"))

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


def test_a_teams_page_at_120_by_40(snap_compare, contest):
    async def run_before(pilot):
        await opened(pilot, TeamScreen(contest, "carol"))

    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=run_before)


def test_a_teams_submissions_at_80_by_24(snap_compare, contest):
    async def run_before(pilot):
        await opened(pilot, TeamScreen(contest, "carol"))
        await pilot.press("s")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)


def shown_text(table: DataTable) -> str:
    """What the table shows, line after line, its spaces collapsed: a reason wrapped over its
    row's lines reads on (the row's other cells are blank below their first line)."""
    lines = [table.render_line(y).text for y in range(table.size.height)]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_forfeits_and_a_rejections_reasons_are_shown_whole(contest, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        page = await opened(pilot, TeamScreen(contest, "carol"))
        games = page.query_one("#t-games", DataTable)
        forfeit = page.page.games[0].reason
        assert "boom" in forfeit and len(forfeit) > 80
        assert " ".join(forfeit.split()) in shown_text(games)
        assert games.rows[games.coordinate_to_cell_key((0, 0)).row_key].height > 1  # wrapped, not cut
        await pilot.press("s")
        await pilot.pause()
        submissions = page.query_one("#t-submissions", DataTable)
        rejection = page.page.submissions[0]
        assert rejection.verdict == "rejected" and "tomorrow looks no better" in rejection.reason
        assert " ".join(rejection.reason.split()) in shown_text(submissions)
        await pilot.resize_terminal(*(80, 24) if size != (80, 24) else (120, 40))  # laid out again
        await pilot.pause()
        assert " ".join(rejection.reason.split()) in shown_text(submissions)


async def test_standings_team_page_submissions_log_and_a_games_replay(contest):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await opened(pilot, ContestScreen(contest))
        standings = rows(board.query_one("#c-standings", DataTable))
        names = [row[1] for row in standings]
        assert sorted(names) == ["alice", "bob", "carol"]  # dave: rejected, not on the board
        assert [row[6] for row in standings] == ["4", "4", "4"]  # games
        assert await texts_cut(pilot, board) == []
        await pilot.press(*["down"] * names.index("carol"), "enter")  # carol's page
        page = app.screen
        assert isinstance(page, TeamScreen) and page.team == "carol"
        await wait_until(pilot, lambda: page.reads >= 1, what="carol's page read")
        assert await texts_cut(pilot, page) == []
        games = rows(page.query_one("#t-games", DataTable))
        assert len(games) == 4 and {row[0] for row in games} == {"alice", "bob"}
        forfeits = [row for row in games if "boom" in row[4]]
        assert forfeits and all("[@click=app.quit]boom[/] [b]bold[/b]" in row[4] for row in forfeits)  # plain
        await pilot.press("s")
        assert page.query_one(ContentSwitcher).current == "t-submissions"
        assert [row[1] for row in rows(page.query_one("#t-submissions", DataTable))] == ["rejected", "accepted"]
        await pilot.press("l")
        log = page.query_one("#t-log", RichLog)
        await wait_until(pilot, lambda: log.lines, what="the log shown")
        assert any("[link=http://evil]click[/link]" in line.text for line in log.lines)  # as printed, plain
        await pilot.press("g", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        replay = app.screen
        record = page.page.games[0]
        assert {"alice", "bob"} & set(replay.players) and "carol" in replay.players
        assert len(replay.states) > 1 and replay.title_text.startswith(f"Game {record.number}: ")
        await pilot.press("q")
        assert app.screen is page
        await pilot.press("q")
        assert app.screen is board


async def test_the_board_redraws_as_games_reach_the_database(copied):
    contest = copied
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await opened(pilot, ContestScreen(contest))
        reads = board.reads
        assert "6 games" in str(board.query_one(".c-summary", Static).render())
        await pilot.pause(2.5)
        assert board.reads == reads  # nothing changed: nothing read again
        with Database(contest) as db:
            alice, bob = sorted((s.digest for s in db.current() if s.team in ("alice", "bob")))
            db.add_games(alice, bob, [GameRecord(number=3, first=0, winner=1, reason="a third game", plies=9)])
        await wait_until(pilot, lambda: board.reads > reads, what="the new game drawn")
        assert "7 games" in str(board.query_one(".c-summary", Static).render())
        assert sum(int(row[6]) for row in rows(board.query_one("#c-standings", DataTable))) == 14


async def test_a_slow_read_never_holds_the_keys(contest, monkeypatch):
    from arcade.contest import board as reading

    release = threading.Event()
    real = reading.snapshot

    def slow(folder):
        release.wait(60)
        return real(folder)

    monkeypatch.setattr(reading, "snapshot", slow)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ContestScreen(contest)
        await app.push_screen(board)
        await pilot.press("x")  # while the database is being read
        await pilot.pause()
        assert board.query_one(ContentSwitcher).current == "c-crosstable" and board.reads == 0
        release.set()
        await wait_until(pilot, lambda: board.reads >= 1, what="the board read")


async def test_c_on_the_menu_opens_a_contests_folder_and_says_one_that_holds_none(contest, tmp_path):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, OpenContest)
        field = dialog.query_one(Input)
        field.value = str(tmp_path / "nothing")
        await pilot.press("enter")
        said = str(dialog.query_one("#c-open-said", Static).render())
        assert "holds no contest" in said and app.screen is dialog
        field.value = str(contest)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ContestScreen), what="the board")
        await wait_until(pilot, lambda: app.screen.reads >= 1, what="the board read")
        await pilot.press("q")
        assert type(app.screen).__name__ == "MenuScreen"
    served = make_app()
    served.allow_file_bots = False  # arcade serve: no server folder opened from a browser
    async with served.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        assert type(served.screen).__name__ == "MenuScreen"


def test_the_command_opens_the_board_and_refuses_a_folder_with_no_contest(contest, tmp_path, capsys, monkeypatch):
    opened_with = []
    monkeypatch.setattr("arcade.app.ArcadeApp.run", lambda app: opened_with.append(app.first_screen))
    assert arcade("contest", "board", str(contest)) == 0
    assert isinstance(opened_with[0], ContestScreen) and opened_with[0].standalone
    assert arcade("contest", "board", str(tmp_path / "none")) == 2
    err = capsys.readouterr().err
    assert "holds no contest" in err and err.count("\n") == 1 and "Traceback" not in err


async def test_a_ladders_board_shows_rating_and_uncertainty(copied):
    path = copied / "contest.toml"
    path.write_text(path.read_text().replace('format = "all-pairs"', 'format = "ladder"'))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = await opened(pilot, ContestScreen(copied))
        table = board.query_one("#c-standings", DataTable)
        assert str(table.ordered_columns[2].label).strip() == "rating ± σ"
        assert {row[2] for row in rows(table)} == {"25.00 ± 8.33"}  # no round planned yet: the first rating
        assert "dfootball ladder · 2 games a meeting" in str(board.query_one(".c-summary", Static).render())
        assert await texts_cut(pilot, board) == []
