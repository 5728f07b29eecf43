"""The replay screen reads as the live screen did: Hog's last turns after any jump, moves as the
live move list writes them, nobody "choosing", and none of the board's keys offered."""

from __future__ import annotations

import random

from textual.widgets import DataTable

from arcade.catalog import CATALOG, load
from arcade.match import play_out
from arcade.screens.replay import ReplayScreen
from bots.registry import bots_for
from games.hog import HogEvent
from tests.conftest import make_app, settle


def recorded(game_id: str, names: tuple[str, str], seed: int):
    game = load(game_id)()
    entries = bots_for(game_id)
    outcome = play_out(game, (entries[names[0]].make(game), entries[names[1]].make(game)), random.Random(seed),
                       (random.Random(seed), random.Random(seed + 1)))
    return game, outcome.moves


async def opened(pilot, game_id: str, names: tuple[str, str], seed: int) -> ReplayScreen:
    """The replay of ``names``' game of ``game_id`` played with ``seed``, open and settled."""
    game, moves = recorded(game_id, names, seed)
    screen = ReplayScreen(CATALOG[game_id], game, names, moves, "a replay")
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


def last_turns(states) -> dict[int, HogEvent]:
    turns = {}
    for state in states:
        if isinstance(state.event, HogEvent) and state.event.turn_over:
            turns[state.event.player] = state.event
    return turns


async def test_hogs_replay_keeps_the_last_turns_after_end_home_and_steps_and_offers_no_board_key():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await opened(pilot, "hog", ("always_roll_4", "always_roll_6"), 4)
        keys = {binding.binding.key for binding in screen.active_bindings.values()}
        assert "c" not in keys and "enter,space" not in keys  # no Coach, no Roll
        await pilot.press("end")
        assert screen.board.last_turns == last_turns(screen.states) and len(screen.board.last_turns) == 2
        drawn = screen.board.render().plain
        for turn in screen.board.last_turns.values():
            assert screen.board.turn_text(turn) in drawn
        await pilot.press("left", "left", "left")
        assert screen.board.last_turns == last_turns(screen.states[:screen.position + 1])
        await pilot.press("home")
        assert screen.board.last_turns == {} and "last turn" not in screen.board.render().plain
        await pilot.press("right", "right", "right")
        assert screen.board.last_turns == last_turns(screen.states[:4])
        assert "is choosing" not in screen.board.render().plain


async def test_ludos_replay_writes_moves_as_the_live_move_list_does():
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await opened(pilot, "ludo", ("heuristic", "simple_player"), 2)
        game = screen.game
        table = screen.query_one("#moves", DataTable)
        shown = [str(table.get_row_at(row)[2]) for row in range(table.row_count)]
        expected = [game.move_label(before, after.event.move) for before, after in zip(screen.states, screen.states[1:])]
        assert shown == expected and not any(text.startswith("(") for text in shown)
        assert any("→" in text for text in shown)


async def test_hogs_replay_shows_ten_dice_whole_in_the_move_list_at_80_by_24():
    """Ten dice (``4-5-6-6-3-2-5-1-5-1``) are broken after their dashes onto a second line of the
    move list, as the live one does: nothing cut, no sideways scrolling."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, "hog", ("always_roll_10", "always_roll_10"), 3)
        game = screen.game
        table = screen.query_one("#moves", DataTable)
        width = table.scrollable_content_region.width
        rolls = [i for i, state in enumerate(screen.states[1:]) if state.event.side == -1 and len(
            game.move_label(screen.states[i], state.event.move)) > 12]
        assert rolls, "a roll of many dice"
        for i in rolls:
            label = game.move_label(screen.states[i], screen.states[i + 1].event.move)
            cell = str(table.get_row_at(i)[2])
            assert cell.replace("\n", "") == label and "…" not in cell and "\n" in cell
        assert table.virtual_size.width <= width  # no sideways scrollbar


def footer_keys(screen) -> dict[str, str]:
    """The keys the footer shows and what each says."""
    return {b.binding.key: b.binding.description for b in screen.active_bindings.values()
            if b.binding.show and b.enabled}


async def test_a_replay_opened_from_the_shell_quits_to_it_on_q():
    """``arcade replay FILE N`` opens the app on the replay alone: q says Quit and ends the app
    (back to the shell), never the arcade's menu."""
    from arcade.app import ArcadeApp

    game, moves = recorded("toothpicks", ("random", "always_1"), 1)
    screen = ReplayScreen(CATALOG["toothpicks"], game, ("random", "always_1"), moves, "a replay", standalone=True)
    app = ArcadeApp(replay=screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen is screen and footer_keys(screen)["q"] == "Quit"
        await pilot.press("q")
        await pilot.pause()
        assert app._exit, "q left the replay for the menu instead of ending the app"
    assert app.return_code == 0


async def test_a_replay_pushed_over_the_menu_goes_back_to_it_on_q():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        screen = await opened(pilot, "toothpicks", ("random", "always_1"), 1)
        assert footer_keys(screen)["q"] == "Menu"
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is menu and not app._exit


def test_the_replay_command_opens_the_replay_alone(tmp_path, monkeypatch):
    """The command's replay is standalone (q ends it); the app itself is not run here."""
    from arcade.app import ArcadeApp
    from arcade.cli import main
    from arcade.tournament.runner import run_tournament

    record = tmp_path / "t.jsonl"
    run_tournament("toothpicks", ["random", "always_1"], games=1, seed=3, record=record)
    opened_with = []
    monkeypatch.setattr(ArcadeApp, "run", lambda self: opened_with.append(self.replay))
    assert main(["replay", str(record), "1"]) == 0
    assert len(opened_with) == 1 and opened_with[0].standalone
