"""The ``Session`` under the game screen and every runner: turns, chance, forfeits in the
courses' words with their termination, undo with bots told, the end told once."""

from __future__ import annotations

import random

import pytest

from arcade.match import play_out
from arcade.seeds import match_rngs, screen_rngs
from arcade.session import CannotUndo, Session
from bots.base import ERROR, Bot, Context, Forfeit, FunctionBot, took_too_long
from games.base import IllegalMove, Termination
from games.hog import Hog
from games.toothpicks import Toothpicks


def take(n):
    return lambda game, state, ctx: n


class Recorder(Bot):
    """Takes one; remembers every rewind and ending it was told."""

    def __init__(self, game):
        super().__init__(game)
        self.rewinds = []
        self.endings = []

    def choose(self, state, ctx):
        return 1

    def restart_at(self, state):
        self.rewinds.append(state.ply)

    def game_over(self, state, result):
        self.endings.append(result)


class Stubborn(Recorder):
    rewindable = False


def test_the_next_step_says_who_moves():
    game = Toothpicks(count=3)
    session = Session(game, {1: FunctionBot(game, take(1))})
    assert session.humans == {0} and session.next_step() == "human"
    session.play(1)
    assert session.next_step() == "bot"
    session.step()
    assert session.state.left == 1 and session.next_step() == "human"
    session.play(1)
    assert session.over and session.next_step() is None and session.result.winner == 0
    assert session.result.termination is Termination.NORMAL and session.result.forfeited is None


def test_an_illegal_human_move_changes_nothing():
    game = Toothpicks(count=3)
    session = Session(game, {})
    with pytest.raises(IllegalMove):
        session.play(7)
    assert len(session.history) == 1


@pytest.mark.parametrize("fn, kind, words", [
    (take(7), Termination.INVALID, "Player 2 strategy returned an invalid move (cannot take 7: take 1 to 2"),
    (take("two"), Termination.INVALID, "Player 2 strategy returned an invalid move"),
    (lambda g, s, c: 1 / 0, Termination.ERROR, "Player 2 strategy produced an error (ZeroDivisionError: division by zero)"),
])
def test_a_bots_fault_forfeits_in_the_courses_words(fn, kind, words):
    game = Toothpicks(count=5)
    session = Session(game, {0: FunctionBot(game, take(1)), 1: FunctionBot(game, fn)})
    result = session.play_to_end()
    assert result.winner == 0 and result.termination is kind and result.forfeited == 1
    assert result.reason.startswith(words)
    assert len(session.history) == 2  # the state the fault was made in stays current


def test_a_forfeit_raised_by_a_bot_keeps_its_kind_and_wording():
    def too_slow(game, state, ctx):
        raise Forfeit(took_too_long(0.1), "450 ms", Termination.TIME)

    game = Toothpicks()
    result = Session(game, {0: FunctionBot(game, too_slow), 1: FunctionBot(game, take(1))}).play_to_end()
    assert result.reason == "Player 1 strategy took >100ms to return a move (450 ms)"
    assert result.termination is Termination.TIME and result.winner == 1


def test_a_stopped_move_is_not_reported_as_the_slowest_answer():
    """``no answer after 1.5s; stopped`` beside ``slowest move 1778.7 ms`` read as if answered."""
    import time

    def stopped(game, state, ctx):
        time.sleep(0.05)
        raise Forfeit(ERROR, "no answer after 0.01s; stopped", Termination.TIME)

    game = Toothpicks()
    session = Session(game, {0: FunctionBot(game, take(1)), 1: FunctionBot(game, stopped)})
    result = session.play_to_end()
    assert result.winner == 0 and session.slowest[1] == 0.0 and session.slowest[0] < 0.05


def test_chance_is_drawn_from_the_sessions_generator():
    game = Hog(goal=30)
    bots = {0: FunctionBot(game, take(3)), 1: FunctionBot(game, take(5))}
    runs = []
    for _ in range(2):
        chance, a, b = match_rngs(7, 1)
        session = Session(game, dict(bots), chance, (a, b))
        session.play_to_end()
        runs.append([s.event.move for s in session.history[1:]])
    assert runs[0] == runs[1] and len(runs[0]) > 4
    assert screen_rngs(None, "hog", 1)[0] is not screen_rngs(None, "hog", 1)[0]
    assert screen_rngs(3, "hog", 1)[0].random() == screen_rngs(3, "hog", 1)[0].random()


def test_a_move_cap_is_a_draw_by_rule():
    game = Toothpicks(count=50)
    result = Session(game, {0: FunctionBot(game, take(1)), 1: FunctionBot(game, take(1))}).play_to_end(max_plies=5)
    assert result.winner is None and result.termination is Termination.DRAW_BY_RULE


def test_the_move_cap_is_the_games_longest_game(monkeypatch):
    game = Toothpicks(count=50)
    monkeypatch.setattr(Toothpicks, "max_game_length", lambda self: 7)
    session = Session(game, {0: FunctionBot(game, take(1)), 1: FunctionBot(game, take(1))})
    result = session.play_to_end()
    assert result.termination is Termination.DRAW_BY_RULE and result.reason == "no result after 7 plies"
    assert len(session.history) == 8


def test_undo_goes_back_to_the_humans_move_and_tells_the_bots():
    game = Toothpicks(count=10)
    bot = Recorder(game)
    session = Session(game, {1: bot})
    session.play(2)
    session.step()
    session.play(1)
    assert [s.left for s in session.history] == [10, 8, 7, 6]
    session.undo()  # the human's last move (the bot had not answered yet)
    assert [s.left for s in session.history] == [10, 8, 7] and bot.rewinds == [2]
    session.undo()  # the human's first move and the bot's answer to it
    assert [s.left for s in session.history] == [10] and bot.rewinds == [2, 0]
    with pytest.raises(CannotUndo, match="nothing to undo"):
        session.undo()


def test_undo_between_bots_goes_one_step():
    game = Toothpicks(count=10)
    session = Session(game, {0: Recorder(game), 1: Recorder(game)})
    session.step()
    session.step()
    session.undo()
    assert len(session.history) == 2


def test_a_bot_that_cannot_rewind_refuses_the_undo_and_nothing_changes():
    game = Toothpicks(count=10)
    session = Session(game, {1: Stubborn(game)})
    session.play(1)
    session.step()
    with pytest.raises(CannotUndo, match="Player 2's bot cannot take moves back"):
        session.undo()
    assert len(session.history) == 3


def test_the_end_is_told_once_and_again_after_an_undo_reopened_it():
    game = Toothpicks(count=2)
    bot = Recorder(game)
    session = Session(game, {1: bot})
    session.play(2)
    assert session.over
    session.tell_the_end()
    session.tell_the_end()
    assert len(bot.endings) == 1 and bot.endings[0].winner == 0
    session.undo()
    assert not session.over
    session.play(1)
    session.step()
    session.tell_the_end()
    assert len(bot.endings) == 2 and bot.endings[1].winner == 1


def test_an_answer_for_an_old_position_is_refused():
    game = Toothpicks(count=10)
    session = Session(game, {0: Recorder(game)})
    answer = session.ask()
    session.step()
    with pytest.raises(ValueError, match="no longer current"):
        session.apply(answer)


def test_ask_changes_nothing_and_times_the_answer():
    game = Toothpicks(count=10)
    session = Session(game, {0: Recorder(game)})
    answer = session.ask(Context(rng=random.Random(0)))
    assert len(session.history) == 1 and answer.move == 1 and answer.seconds >= 0
    session.apply(answer)
    assert session.state.left == 9 and session.slowest[0] == answer.seconds


def test_play_out_is_a_session_to_the_end():
    game = Toothpicks(count=5)
    outcome = play_out(game, (FunctionBot(game, take(1)), FunctionBot(game, take(9))), random.Random(0),
                       (random.Random(1), random.Random(2)))
    assert outcome.forfeit == 1 and outcome.result.termination is Termination.INVALID
    assert outcome.result.reason.startswith("Player 2 strategy returned an invalid move")


def test_undo_never_takes_back_a_roll_of_the_dice():
    """Hog: a choice of dice is rolled at once, and the roll stands. Undo can neither make the roll
    a fresh one (undoing until the dice are kind) nor show the dice of another choice."""
    from games.hog import Hog

    game = Hog()
    bot = Recorder(game)
    session = Session(game, {1: bot}, chance_rng=random.Random(3))
    session.play(5)
    assert session.next_step() == "chance"
    session.undo()  # the choice, before its dice: taken back
    assert len(session.history) == 1 and bot.rewinds == [0]
    session.play(5)
    rolled = session.roll()
    before = list(session.history)
    for _ in range(3):
        with pytest.raises(CannotUndo, match="a roll stands"):
            session.undo()
        assert session.history == before and session.state is rolled  # nothing changed, no re-roll
    assert bot.rewinds == [0]


def test_undo_in_ludo_stops_at_the_next_roll():
    from games.ludo import Ludo

    game = Ludo()
    session = Session(game, {1: Recorder(game)}, chance_rng=random.Random(5))
    while session.next_step() != "human":
        session.step() if session.next_step() == "bot" else session.roll()
    mine = session.state
    session.play(game.legal_moves(mine)[0])
    if session.next_step() == "chance":
        session.undo()  # the move, before any die after it: taken back, the die of the turn stands
        assert session.state is mine
        session.play(game.legal_moves(mine)[0])
        session.roll()
        with pytest.raises(CannotUndo, match="a roll stands"):
            session.undo()
