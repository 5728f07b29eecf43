"""Hog, the CS 61A dice game: the rules behind the arcade's protocol, and the course's API.

The rules (seed ``004``, CS 61A Summer 2021)
===========================================
Two players take turns; on a turn the mover chooses to roll 0 to 10 six-sided dice.

- **Sow Sad**: if any die shows a 1 the turn scores 1 point, otherwise the sum of the dice.
  All the chosen dice are rolled, even after a 1.
- **Piggy Points**: rolling zero dice scores ``4 + |tens - ones|`` of the opponent's score
  (a one-digit score has tens 0; hundreds are ignored: 156 gives 5).
- **More Boar**: after the points are added, the mover goes again if the lowest digit of their
  score is strictly lower than the opponent's lowest digit and their highest digit strictly
  higher than the opponent's highest digit (plain decimal digits: 7 has the single digit 7).
- The game ends as soon as the mover's score reaches the goal (default 100); the mover wins.

The scoring rules are plain functions in ``games.hog_rules`` (``turn_points``, and the course
API's ``piggy_points`` and ``more_boar`` below call them); the solver uses them from there too.

The protocol
============
``Hog(goal=100)``: a state holds both scores and whose turn it is. The mover's move is the
number of dice, 0..10 (text ``"0"``..``"10"``). Rolling zero dice scores Piggy Points at once.
Rolling n >= 1 dice leads to a ``CHANCE`` state whose outcome is the tuple of the n faces (text
``"3-5-1"``); ``chance_outcomes`` returns ``None`` (6**10 faces are too many to list) and
``sample_chance`` draws the faces with the injected ``random.Random``; ``legal_moves`` of a
chance state is a lazy sequence that tests membership without listing. Exact bots use
``games.hog_solver.point_distribution`` instead. After a More Boar extra turn ``to_move`` is the
same side again. Each turn's last step records a ``HogEvent`` (dice faces, points, Sow Sad,
Piggy Points, More Boar).

The course's API
================
Everything a student's ``hog.py`` (and its ``dice.py``) offers, with the same behaviour:
``make_fair_dice``, ``make_test_dice``, ``four_sided``, ``six_sided``, ``roll_dice``,
``piggy_points``, ``take_turn``, ``more_boar``, ``next_player``, ``silence``, ``play``,
``say_scores``, ``announce_lead_changes``, ``both``, ``announce_highest``, ``always_roll``,
``make_averaged``, ``max_scoring_num_rolls``, ``winner``, ``average_win_rate``,
``run_experiments``, ``piggypoints_strategy``, ``more_boar_strategy`` and ``final_strategy``
(the exactly optimal policy of ``games.hog_solver``). The fair dice, like the course's, draw
from Python's global ``random`` (so ``random.seed`` reproduces a course experiment); the game
engine above never does. Commentary functions print, as the course's do; ``capture_commentary``
collects their lines instead (per thread), which is how the arcade's commentary pane runs them.
"""

from __future__ import annotations

import contextlib
import contextvars
import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, Iterator, Sequence

from games import hog_solver
from games.base import CHANCE, Commentator, Event, Game, IllegalMove, Option, Result, Side, State
from games.hog_rules import MAX_DICE, SIDES, turn_points
from games.hog_rules import more_boar as _more_boar_rule
from games.hog_rules import piggy_points as _piggy_rule

GOAL_SCORE = 100
FACES = SIDES


# ---------------------------------------------------------------------------------------------
# The game engine
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HogEvent(Event):
    """A Hog move: choosing dice (``rolling`` true, the turn goes on to the roll) or a finished turn.

    ``player``: whose turn it was (``side`` is ``CHANCE`` for the roll itself). ``num_dice``,
    ``dice`` (the faces, empty for Piggy Points), ``points`` scored, ``sow_sad``, ``piggy``,
    ``more_boar`` (an extra turn follows), ``scores`` after the turn. For the choice of n >= 1
    dice ``rolling`` is true and ``points`` is 0.
    """

    player: int = 0
    num_dice: int = 0
    dice: tuple[int, ...] = ()
    points: int = 0
    sow_sad: bool = False
    piggy: bool = False
    more_boar: bool = False
    rolling: bool = False
    scores: tuple[int, int] = (0, 0)

    @property
    def turn_over(self) -> bool:
        """True when this event finished a turn (points were scored)."""
        return not self.rolling


@dataclass(frozen=True, kw_only=True)
class HogState(State):
    """Both scores; at a chance step, ``player`` is rolling ``num_dice`` dice."""

    scores: tuple[int, int] = (0, 0)
    player: int = 0
    num_dice: int = 0
    turns: int = 0

    @property
    def mover(self) -> int:
        """The player whose turn it is (also during the roll)."""
        return self.player


class DiceOutcomes(Sequence):
    """The 6**n outcomes of rolling n dice, in lexicographic order, without listing them."""

    def __init__(self, num_dice: int) -> None:
        self.num_dice = num_dice

    def __len__(self) -> int:
        return FACES**self.num_dice

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        faces = []
        for _ in range(self.num_dice):
            index, face = divmod(index, FACES)
            faces.append(face + 1)
        return tuple(reversed(faces))

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return product(range(1, FACES + 1), repeat=self.num_dice)

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, tuple)
            and len(value) == self.num_dice
            and all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= FACES for f in value)
        )


class Hog(Game):
    """Hog with Sow Sad, Piggy Points and More Boar; option ``goal`` (default 100)."""

    id = "hog"
    title = "Hog"
    blurb = "The CS 61A dice game: Sow Sad, Piggy Points and More Boar, first to 100."
    sides = (Side("Player 0", "0"), Side("Player 1", "1"))
    options = (
        Option("goal", "Goal score", GOAL_SCORE, minimum=1, maximum=200, help="the first to reach it wins"),
    )

    @property
    def goal(self) -> int:
        return self.settings["goal"]

    def max_game_length(self) -> int:
        """``4 goal - 2``: every turn scores at least one point (Sow Sad 1, a sum of dice at least
        2, Piggy Points at least 4) and scores never fall, so before the last turn each player
        has had at most ``goal - 1`` turns: ``2 goal - 1`` turns in all, each a choice and a
        roll. Reached when every roll shows a 1 and More Boar never fires (a goal below 10)."""
        return 4 * self.goal - 2

    # -- states --------------------------------------------------------------------------
    def initial_state(self) -> HogState:
        return HogState(to_move=0, scores=(0, 0), player=0)

    def position(self, score0: int, score1: int, who: int = 0) -> HogState:
        """A state between turns with the given scores and ``who`` to move (tests, snapshots)."""
        for score in (score0, score1):
            if not isinstance(score, int) or score < 0:
                raise IllegalMove(f"scores must be whole numbers at least 0, not {score!r}")
        if who not in (0, 1):
            raise IllegalMove(f"the player to move must be 0 or 1, not {who!r}")
        scores = (score0, score1)
        if max(scores) >= self.goal:
            w = 0 if score0 >= self.goal else 1
            return HogState(to_move=w, scores=scores, player=w, result=self._result(w, scores))
        return HogState(to_move=who, scores=scores, player=who)

    def legal_moves(self, state: HogState) -> Sequence[Any]:
        if state.result is not None:
            return ()
        if state.to_move == CHANCE:
            return DiceOutcomes(state.num_dice)
        return tuple(range(MAX_DICE + 1))

    def play(self, state: HogState, move: Any) -> HogState:
        if state.result is not None:
            raise IllegalMove("the game is over")
        if state.to_move == CHANCE:
            if move not in DiceOutcomes(state.num_dice):
                raise IllegalMove(
                    f"{move!r} is not a roll of {state.num_dice} dice: give {state.num_dice} faces 1 to 6"
                )
            return self._finish_turn(state, state.num_dice, tuple(move))
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move <= MAX_DICE:
            raise IllegalMove(f"{move!r} is not a legal move: choose 0 to {MAX_DICE} dice")
        if move == 0:
            return self._finish_turn(state, 0, ())
        who = state.to_move
        event = HogEvent(
            side=who,
            move=move,
            text=f"{self.sides[who].name} rolls {move} {'die' if move == 1 else 'dice'}",
            player=who,
            num_dice=move,
            rolling=True,
            scores=state.scores,
        )
        return HogState(
            to_move=CHANCE,
            ply=state.ply + 1,
            event=event,
            scores=state.scores,
            player=who,
            num_dice=move,
            turns=state.turns,
        )

    def _finish_turn(self, state: HogState, num_dice: int, faces: tuple[int, ...]) -> HogState:
        who = state.player
        other = 1 - who
        points = turn_points(faces, state.scores[other])
        scores = list(state.scores)
        scores[who] += points
        scores_t = (scores[0], scores[1])
        result = self._result(who, scores_t) if scores[who] >= self.goal else None
        extra = result is None and _more_boar_rule(scores[who], scores[other])
        sow_sad = bool(faces) and 1 in faces
        name = self.sides[who].name
        if not faces:
            text = f"{name} rolls no dice: Piggy Points, {points} point{'s' if points != 1 else ''}"
        elif sow_sad:
            text = f"{name} rolls {' '.join(map(str, faces))}: Sow Sad, 1 point"
        else:
            text = f"{name} rolls {' '.join(map(str, faces))}: {points} points"
        text += f" ({scores[0]}–{scores[1]})"
        if extra:
            text += "; More Boar: extra turn!"
        event = HogEvent(
            side=CHANCE if faces else who,
            move=faces if faces else 0,
            text=text,
            player=who,
            num_dice=num_dice,
            dice=faces,
            points=points,
            sow_sad=sow_sad,
            piggy=not faces,
            more_boar=extra,
            scores=scores_t,
        )
        next_player = who if (extra or result is not None) else other
        return HogState(
            to_move=next_player,
            ply=state.ply + 1,
            event=event,
            result=result,
            scores=scores_t,
            player=next_player,
            turns=state.turns + 1,
        )

    def _result(self, winner: int, scores: tuple[int, int]) -> Result:
        return Result(winner, f"{self.sides[winner].name} wins, {scores[0]}–{scores[1]}")

    # -- chance ----------------------------------------------------------------------------
    def chance_outcomes(self, state: HogState):
        """``None``: up to 6**10 outcomes; see ``hog_solver.point_distribution`` for points."""
        return None

    def sample_chance(self, state: HogState, rng: random.Random) -> tuple[int, ...]:
        if state.to_move != CHANCE:
            raise IllegalMove("no dice are being rolled")
        return tuple(rng.randint(1, FACES) for _ in range(state.num_dice))

    @staticmethod
    def points_distribution(num_dice: int, opponent_score: int) -> tuple[tuple[int, Fraction], ...]:
        """Exact distribution of the turn's points for ``num_dice`` (0: Piggy Points)."""
        if num_dice == 0:
            return ((_piggy_rule(opponent_score), Fraction(1)),)
        return hog_solver.point_distribution(num_dice)

    # -- text ------------------------------------------------------------------------------
    def move_text(self, state: HogState, move: Any) -> str:
        if isinstance(move, tuple):
            return "-".join(map(str, move))
        return str(move)

    def parse_move(self, state: HogState, text: str) -> Any:
        cleaned = text.strip()
        if state.result is not None:
            raise IllegalMove("the game is over")
        if state.to_move == CHANCE:
            parts = [p for p in cleaned.replace(",", " ").replace("-", " ").split() if p]
            try:
                faces = tuple(int(p) for p in parts)
            except ValueError:
                faces = ()
            if faces in DiceOutcomes(state.num_dice):
                return faces
            raise IllegalMove(
                f"{text!r} is not a roll of {state.num_dice} dice: write {state.num_dice} faces 1-6 like 3-5-1"
            )
        if cleaned.isdigit() and 0 <= int(cleaned) <= MAX_DICE:
            return int(cleaned)
        raise IllegalMove(f"{text!r} is not a legal move: choose 0 to {MAX_DICE} dice")

    def describe(self, state: HogState) -> str:
        if state.result is not None:
            return state.result.reason
        name = self.sides[state.player].name
        if state.to_move == CHANCE:
            return f"{name} rolls {state.num_dice} dice…"
        return f"{name} to choose dice"

    def score_text(self, state: HogState, side: int) -> str:
        return f"{state.scores[side]}/{self.goal}"

    def commentator(self) -> "HogCommentator":
        return HogCommentator()


# ---------------------------------------------------------------------------------------------
# The course's dice (dice.py)
# ---------------------------------------------------------------------------------------------


def make_fair_dice(sides):
    """Return a die that returns 1 to SIDES with equal chance."""
    assert type(sides) == int and sides >= 1, "Illegal value for sides"

    def dice():
        return random.randint(1, sides)

    return dice


four_sided = make_fair_dice(4)
six_sided = make_fair_dice(6)


def make_test_dice(*outcomes):
    """Return a die that cycles deterministically through OUTCOMES.

    >>> dice = make_test_dice(1, 2, 3)
    >>> dice()
    1
    >>> dice()
    2
    >>> dice()
    3
    >>> dice()
    1
    """
    assert len(outcomes) > 0, "You must supply outcomes to make_test_dice"
    for o in outcomes:
        assert type(o) == int and o >= 1, "Outcome is not a positive integer"
    index = len(outcomes) - 1

    def dice():
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]

    return dice


# ---------------------------------------------------------------------------------------------
# Phase 1: Simulator
# ---------------------------------------------------------------------------------------------


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1.
    """
    assert type(num_rolls) == int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    faces = [dice() for _ in range(num_rolls)]
    return turn_points(faces, 0)


def piggy_points(score):
    """Return the points scored from rolling 0 dice.

    score:  The opponent's current score.
    """
    return _piggy_rule(score)


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case
    of a player using Piggy Points.
    Return the points scored for the turn by the current player.
    """
    assert type(num_rolls) == int, "num_rolls must be an integer."
    assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
    assert num_rolls <= 10, "Cannot roll more than 10 dice."
    assert opponent_score < goal, "The game should be over."
    if num_rolls == 0:
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)


def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn.

    >>> more_boar(25, 43)
    True
    >>> more_boar(32, 33)
    False
    >>> more_boar(7, 10)
    False
    """
    return _more_boar_rule(player_score, opponent_score)


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1.

    >>> next_player(0)
    1
    >>> next_player(1)
    0
    """
    return 1 - who


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players, with Player
    0's score first, and Player 1's score second.

    A strategy is a function that takes two total scores as arguments (the
    current player's score, and the opponent's score), and returns a number of
    dice that the current player will roll this turn. Each strategy is called once
    per turn; ``say`` is called after every turn (extra turns included) and returns
    the commentary function for the next turn.
    """
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            extra = more_boar(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            extra = more_boar(score1, score0)
        say = say(score0, score1)
        if not extra:
            who = next_player(who)
    return score0, score1


# ---------------------------------------------------------------------------------------------
# Phase 2: Commentary
# ---------------------------------------------------------------------------------------------

_sink: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("hog_commentary_sink", default=None)


def _announce(*args) -> None:
    """``print(*args)``, or collect the line while ``capture_commentary`` is active."""
    lines = _sink.get()
    if lines is None:
        print(*args)
    else:
        lines.append(" ".join(map(str, args)))


@contextlib.contextmanager
def capture_commentary():
    """Collect the lines the course's commentary functions print (this thread only).

    >>> with capture_commentary() as lines:
    ...     _ = say_scores(3, 4)
    >>> lines
    ['Player 0 now has 3 and Player 1 now has 4']
    """
    lines: list[str] = []
    token = _sink.set(lines)
    try:
        yield lines
    finally:
        _sink.reset(token)


def say_scores(score0, score1):
    """A commentary function that announces the score for each player."""
    _announce("Player 0 now has", score0, "and Player 1 now has", score1)
    return say_scores


def announce_lead_changes(last_leader=None):
    """Return a commentary function that announces lead changes.

    >>> f0 = announce_lead_changes()
    >>> f1 = f0(5, 0)
    Player 0 takes the lead by 5
    >>> f2 = f1(5, 12)
    Player 1 takes the lead by 7
    >>> f3 = f2(8, 12)
    >>> f4 = f3(8, 13)
    >>> f5 = f4(15, 13)
    Player 0 takes the lead by 2
    """

    def say(score0, score1):
        if score0 > score1:
            leader = 0
        elif score1 > score0:
            leader = 1
        else:
            leader = None
        if leader != None and leader != last_leader:  # noqa: E711 (the course's code)
            _announce("Player", leader, "takes the lead by", abs(score0 - score1))
        return announce_lead_changes(leader)

    return say


def both(f, g):
    """Return a commentary function that says what f says, then what g says.

    >>> h0 = both(say_scores, announce_lead_changes())
    >>> h1 = h0(10, 0)
    Player 0 now has 10 and Player 1 now has 0
    Player 0 takes the lead by 10
    """

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))

    return say


def announce_highest(who, last_score=0, running_high=0):
    """Return a commentary function that announces when WHO's score
    increases by more than ever before in the game.

    >>> f0 = announce_highest(1)
    >>> f1 = f0(12, 0)
    >>> f2 = f1(12, 9)
    Player 1 has reached a new maximum point gain. 9 point(s)!
    """
    assert who == 0 or who == 1, "The who argument should indicate a player."

    def say(score0, score1):
        score = score0 if who == 0 else score1
        gain = score - last_score
        if gain > running_high:
            _announce("Player", who, "has reached a new maximum point gain.", gain, "point(s)!")
            return announce_highest(who, score, gain)
        return announce_highest(who, score, running_high)

    return say


def gui_commentary():
    """The course GUI's commentary: highest gains of both players, then lead changes."""
    return both(announce_highest(0), both(announce_highest(1), announce_lead_changes()))


class HogCommentator(Commentator):
    """The arcade's commentary pane: the course's functions after every finished turn.

    Each turn gives the event's line, then what ``say_scores`` and the course GUI's
    ``both(announce_highest(0), both(announce_highest(1), announce_lead_changes()))`` say, and
    the result at the end.
    """

    def __init__(self) -> None:
        self.say = both(say_scores, gui_commentary())

    def see(self, state: State) -> list[str]:
        event = state.event
        if not isinstance(event, HogEvent) or event.rolling:
            return []
        lines = [event.text]
        with capture_commentary() as said:
            self.say = self.say(*event.scores)
        lines += said
        if state.result is not None:
            lines.append(state.result.reason)
        return lines


# ---------------------------------------------------------------------------------------------
# Phase 3: Strategies
# ---------------------------------------------------------------------------------------------


def always_roll(n):
    """Return a strategy that always rolls N dice.

    >>> strategy = always_roll(5)
    >>> strategy(0, 0)
    5
    >>> strategy(99, 99)
    5
    """

    def strategy(score, opponent_score):
        return n

    return strategy


def make_averaged(original_function, trials_count=1000):
    """Return a function that returns the average value of ORIGINAL_FUNCTION
    called TRIALS_COUNT times.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(roll_dice, 1000)
    >>> averaged_dice(1, dice)
    3.0
    """

    def averaged(*args):
        total = 0
        for _ in range(trials_count):
            total += original_function(*args)
        return total / trials_count

    return averaged


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    """Return the number of dice (1 to 10) that gives the highest average turn
    score by calling roll_dice with the provided DICE over TRIALS_COUNT times.
    Assume that the dice always return positive outcomes.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice)
    1
    """
    averaged = make_averaged(roll_dice, trials_count)
    best, best_average = 1, None
    for num_rolls in range(1, 11):
        average = averaged(num_rolls, dice)
        if best_average is None or average > best_average:
            best, best_average = num_rolls, average
    return best


def winner(strategy0, strategy1):
    """Return 0 if strategy0 wins against strategy1, and 1 otherwise."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1


def average_win_rate(strategy, baseline=always_roll(6)):
    """Return the average win rate of STRATEGY against BASELINE. Averages the
    winrate when starting the game as player 0 and as player 1.
    """
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)
    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    """Run a series of strategy experiments and report results."""
    six_sided_max = max_scoring_num_rolls(six_sided)
    print("Max scoring num rolls for six-sided dice:", six_sided_max)
    print("always_roll(8) win rate:", average_win_rate(always_roll(8)))
    print("piggypoints_strategy win rate:", average_win_rate(piggypoints_strategy))
    print("more_boar_strategy win rate:", average_win_rate(more_boar_strategy))
    print("final_strategy win rate:", average_win_rate(final_strategy))


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and
    rolls NUM_ROLLS otherwise.
    """
    return 0 if piggy_points(opponent_score) >= cutoff else num_rolls


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers an extra turn. It also
    rolls 0 dice if it gives at least CUTOFF points and does not give an extra turn.
    Otherwise, it rolls NUM_ROLLS.
    """
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """The exactly optimal policy for the goal of 100: the number of dice that maximises the
    probability of winning against a perfect opponent (dynamic programming over both scores,
    Piggy Points and More Boar included; see ``games.hog_solver``).
    """
    if not (0 <= score < GOAL_SCORE and 0 <= opponent_score < GOAL_SCORE):
        return more_boar_strategy(score, opponent_score)  # outside the table (another goal)
    return hog_solver.solve(GOAL_SCORE).policy[score][opponent_score]


def run(*args):
    """Read in the command-line argument and call the chosen function (``-r``: run_experiments).

    As the course's ``python3 hog.py -r``: ``python -m games.hog -r``.
    """
    import argparse

    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument("--run_experiments", "-r", action="store_true", help="Runs strategy experiments")
    options = parser.parse_args(list(args) if args else None)
    if options.run_experiments:
        run_experiments()


if __name__ == "__main__":
    run()


__all__ = [
    "CHANCE",
    "GOAL_SCORE",
    "Hog",
    "HogCommentator",
    "HogEvent",
    "HogState",
    "always_roll",
    "announce_highest",
    "announce_lead_changes",
    "average_win_rate",
    "both",
    "capture_commentary",
    "final_strategy",
    "four_sided",
    "make_averaged",
    "make_fair_dice",
    "make_test_dice",
    "max_scoring_num_rolls",
    "more_boar",
    "more_boar_strategy",
    "next_player",
    "piggy_points",
    "piggypoints_strategy",
    "play",
    "roll_dice",
    "run",
    "run_experiments",
    "say_scores",
    "silence",
    "six_sided",
    "take_turn",
    "winner",
]
