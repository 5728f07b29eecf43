"""The analysis (``a``): each game's engine (``analyse`` in its bots, found by
``bots.registry.analyser_for``) looks at the position in the game screen's worker, never on the
UI thread; the side panel says "analysing…" meanwhile; an answer for a position that is no
longer on the board is dropped; boards only draw the ``Analysis`` they are given."""

from __future__ import annotations

import random
import threading

import pytest
from rich.text import Text
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade.catalog import CATALOG
from arcade.screens.analyst import Analysed
from bots.registry import analyser_for
from games.base import CHANCE, Analysis
from tests.conftest import HUMANS, SIZE, make_app, open_game, play_moves, settle

ENGINE_GAMES = ("othello", "dfootball", "ludo")
ANALYSIS_KEY = {"othello": "A", "dfootball": "a", "ludo": "a"}  # Othello's a types column A


def random_position(game, seed: int, plies: int):
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if state.over:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def test_the_registry_finds_the_engine_analyses_and_none_for_the_other_games():
    assert {game_id for game_id in CATALOG if analyser_for(game_id) is not None} == set(ENGINE_GAMES)


@pytest.mark.parametrize("game_id", ENGINE_GAMES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 150))
def test_an_analysis_is_of_its_position_and_recommends_a_legal_move(game_id, seed, plies):
    game = CATALOG[game_id].load()()
    state = random_position(game, seed, plies)
    analysis = analyser_for(game_id)(game, state)
    assert isinstance(analysis, Analysis) and analysis.state == state and analysis.lines
    if state.over or state.to_move == CHANCE:
        assert analysis.best is None
    else:
        assert analysis.best in game.legal_moves(state)


def test_dfootballs_verdict_at_the_start_is_the_known_one():
    from bots.dfootball import first_team_wins
    from games.dfootball import DFootball

    for n in (3, 4, 11):
        game = DFootball(n=n)
        analysis = analyser_for("dfootball")(game, game.initial_state())
        assert analysis.verdict == first_team_wins(n)


class Gate:
    """Wraps a game's ``analyse``: fails if called on the UI (main) thread, and holds each call
    until ``open()``, so a test sees the screen while the analysis is still being made."""

    def __init__(self, analyse) -> None:
        self.analyse = analyse
        self.released = threading.Event()
        self.seen: list = []

    def __call__(self, game, state, cancelled=lambda: False):
        assert threading.current_thread() is not threading.main_thread(), "an analysis on the UI thread"
        self.seen.append(state)
        assert self.released.wait(10)
        return self.analyse(game, state, cancelled=cancelled)

    def open(self) -> None:
        self.released.set()


def not_on_the_ui_thread(function):
    def guarded(*args, **kwargs):
        assert threading.current_thread() is not threading.main_thread(), f"{function.__name__} on the UI thread"
        return function(*args, **kwargs)

    return guarded


@pytest.fixture
def engines_off_the_ui_thread(monkeypatch):
    """The engines behind the analyses fail if the UI thread calls them (a board drawing)."""
    import bots.dfootball
    import bots.ludo
    from bots.dfootball.solver import Solver
    from bots.othello.search import Engine

    monkeypatch.setattr(Engine, "search", not_on_the_ui_thread(Engine.search))
    monkeypatch.setattr(Engine, "solve", not_on_the_ui_thread(Engine.solve))
    monkeypatch.setattr(Solver, "wins", not_on_the_ui_thread(Solver.wins))
    monkeypatch.setattr(bots.dfootball, "decide", not_on_the_ui_thread(bots.dfootball.decide))
    monkeypatch.setattr(bots.ludo.SearchBot, "choose", not_on_the_ui_thread(bots.ludo.SearchBot.choose))


def gate(monkeypatch, game_id: str) -> Gate:
    import importlib

    module = importlib.import_module(f"bots.{game_id}")
    wrapped = Gate(module.analyse)
    monkeypatch.setattr(module, "analyse", wrapped)
    return wrapped


async def open_at_a_choice(pilot, game_id: str):
    """A game between humans at a position where the side to move has a choice to make."""
    screen = await open_game(pilot, game_id, HUMANS, **({"n": 11} if game_id == "dfootball" else {}))
    if game_id == "ludo":
        from games.ludo import make_start_board

        board = make_start_board(4, 20)
        board.red[3], board.red[8], board.blue[12], board.redpen, board.bluepen = 1, 1, 1, 2, 3
        screen.session.history = [screen.game.initial_state(), screen.game.state_from_board(board, 0, 5)]
        screen.generation += 1
        screen.advance()
    else:
        play_moves(screen, {"othello": [20, 19], "dfootball": [11, 13]}[game_id])
    await settle(pilot)
    return screen


def side_panel(screen) -> str:
    return str(screen.query_one("#side-panel").render())


@pytest.mark.parametrize("game_id", ENGINE_GAMES)
async def test_the_analysis_runs_in_a_worker_and_the_panel_says_analysing_meanwhile(
        game_id, monkeypatch, engines_off_the_ui_thread):
    analyse = gate(monkeypatch, game_id)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_at_a_choice(pilot, game_id)
        assert not analyse.seen  # the analysis is off: no engine runs
        await pilot.press(ANALYSIS_KEY[game_id])
        await pilot.pause()
        for _ in range(3):  # the screen keeps drawing while the engine is held
            screen.board.refresh(layout=True)
            await pilot.pause()
        assert screen.analyst.on and analyse.seen == [screen.state]
        assert "analysing…" in side_panel(screen)
        assert screen.board.recommended(screen.state) is None
        analyse.open()
        await settle(pilot)
        assert "analysing…" not in side_panel(screen)
        best = screen.board.recommended(screen.state)
        assert best is not None and best in screen.game.legal_moves(screen.state)
        assert Text.from_markup(screen.board.analysed.lines[0]).plain in side_panel(screen)
        await pilot.press(ANALYSIS_KEY[game_id])  # off and on again: the same position, no new run
        await settle(pilot)
        await pilot.press(ANALYSIS_KEY[game_id])
        await settle(pilot)
        assert analyse.seen == [screen.state] and screen.board.recommended(screen.state) == best


async def test_an_analysis_of_an_earlier_position_is_dropped(monkeypatch, engines_off_the_ui_thread):
    analyse = gate(monkeypatch, "othello")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_at_a_choice(pilot, "othello")
        await pilot.press("A")
        await pilot.pause()
        first = screen.state
        assert analyse.seen == [first]
        play_moves(screen, [18])  # the position changes while the first analysis is held
        await pilot.pause()
        assert analyse.seen == [first, screen.state]
        analyse.open()
        await settle(pilot)
        assert screen.board.analysed.state == screen.state  # the second one, not the first
        drawn = screen.board.analysed
        other = Analysis(first, best=screen.game.legal_moves(first)[0], lines=("stale",))
        screen.post_message(Analysed(screen.analyst.run, other))  # this run, another position
        earlier = Analysis(screen.state, best=screen.game.legal_moves(screen.state)[0], lines=("stale",))
        screen.post_message(Analysed(screen.analyst.run - 1, earlier))  # an earlier run
        await settle(pilot)
        assert screen.board.analysed is drawn and "stale" not in side_panel(screen)
        assert screen.board.render().plain.count("★") == 1


async def test_turning_the_analysis_off_drops_the_one_being_made(monkeypatch):
    analyse = gate(monkeypatch, "dfootball")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_at_a_choice(pilot, "dfootball")
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("a")  # off before the answer comes
        analyse.open()
        await settle(pilot)
        assert screen.board.analysed is None and screen.analyst.analysing is None
        log = "\n".join(strip.text for strip in screen.query_one("#commentary").lines)
        assert "analysis:" not in log


class Spy:
    """Othello's ``analyse`` as the screen calls it, each call recorded: the position, whether
    it may keep going (``report``) and whether it ended because it was cancelled."""

    def __init__(self, analyse) -> None:
        self.analyse = analyse
        self.calls: list[dict] = []

    def __call__(self, game, state, cancelled=lambda: False, report=None):
        call = {"state": state, "deepens": report is not None, "done": False, "cancelled": False}
        self.calls.append(call)
        extra = {} if report is None else {"report": report}
        try:
            return self.analyse(game, state, cancelled=cancelled, **extra)
        finally:
            call["cancelled"], call["done"] = cancelled(), True


def depth_shown(screen) -> str:
    line = next((line for line in side_panel(screen).splitlines() if "best move:" in line), "")
    return line.split("depth ")[1].strip(" │") if "depth " in line else ""


async def test_othellos_hint_deepens_while_the_human_thinks_and_stops_when_they_move(monkeypatch):
    """Issue 33: the "best move" came from a 3-ply search 0.25 s after each position and lost
    6–58 when followed against ``alphabeta``. While a human is to move it now keeps deepening in
    its worker (the panel says the depth, ``…`` while it goes on), the screen answering keys
    meanwhile; a move stops it, and on the bot's turn it gives its first answer only."""
    import bots.othello as othello_bots
    from tests.conftest import wait_until

    spy = Spy(othello_bots.analyse)
    monkeypatch.setattr(othello_bots, "analyse", spy)
    monkeypatch.setattr(othello_bots, "analysis_seconds", lambda game: 600.0)  # only a move stops it
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_game(pilot, "othello", ("human", "alphabeta-0.1s"))
        await pilot.press("A")
        await wait_until(pilot, lambda: depth_shown(screen).endswith("…") and int(depth_shown(screen)[:-1]) >= 7,
                         what="the hint deepening to depth 7")
        first = spy.calls[0]
        assert first["deepens"] and not first["done"]
        cursor = screen.board.cursor
        await pilot.press("right")  # the board answers keys while the engine thinks
        assert screen.board.cursor != cursor
        best = screen.board.recommended(screen.state)
        assert best in screen.game.legal_moves(screen.state)
        play_moves(screen, [best])  # the human follows the hint
        await wait_until(pilot, lambda: first["done"], what="the deepening to stop after the move")
        assert first["cancelled"]
        await wait_until(pilot, lambda: screen.state.to_move == 0 and len(spy.calls) >= 3,
                         what="the bot's move and the human's next turn")
        bot_turns = [call for call in spy.calls if call["state"].to_move == 1]
        human_turns = [call for call in spy.calls if call["state"].to_move == 0]
        assert bot_turns and not any(call["deepens"] for call in bot_turns)
        assert all(call["deepens"] for call in human_turns)
        screen.analyst.cancel()


async def test_othellos_hint_stops_at_the_default_bots_time_and_says_its_last_depth(monkeypatch):
    import bots.othello as othello_bots
    from tests.conftest import wait_until

    monkeypatch.setattr(othello_bots, "analysis_seconds", lambda game: 0.5)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_at_a_choice(pilot, "othello")
        await pilot.press("A")
        await wait_until(pilot, lambda: screen.analyst.analysing is None and screen.analyst.finished == screen.state,
                         what="the analysis to finish")
        shown = depth_shown(screen)
        assert shown.isdigit() and int(shown) > othello_bots.ANALYSIS_DEPTH, side_panel(screen)
        assert "analysing…" not in side_panel(screen)
