"""Resuming: every recorded game played again through the rules before it counts."""

from __future__ import annotations

from typing import Callable

from arcade.records.schema import RecordError, shown
from games.base import Termination


def make_game(header: dict, name: str):
    """The game a header names, with its options; ``RecordError`` (line 1) if there is none."""
    from arcade.catalog import UnknownGame, load
    from games.base import GameError

    try:
        return load(header["game"])(**header["options"])
    except (UnknownGame, GameError, TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise RecordError(f"{name} line 1: {shown(exc, 200)}") from None


class Referee:
    """Checks that a game line of a run's record is what the rules give: its moves are legal one
    after the other, its dice are those its seed draws, and they end in its result (a forfeit
    where the forfeiting side was to move, the game not over there). The game's colours and
    seed are the run's (``arcade.match.run_match``): a match's is the header's, a tournament's
    pair's is ``pair_seed(stage, a, b)`` (``arcade.seeds.pair_seed`` with the run's seed; without
    it the line's own seed is taken, and only its dice are checked against it). A contest's
    ``season`` seed (``arcade.seeds.season_seed``): a line that carries it was dealt by
    ``arcade.seeds.season_rngs``, whatever its pair."""

    def __init__(self, header: dict, name: str, pair_seed: Callable[[str, str, str], int] | None = None,
                 season: int | None = None) -> None:
        self.header = header
        self.game = make_game(header, name)
        self.pair_seed = pair_seed
        self.season = season

    def problem(self, data: dict) -> str | None:
        """Why the line is not what the rules give, or ``None``."""
        from arcade.seeds import match_rngs, season_rngs
        from games.base import CHANCE, GameError

        number, first = data["number"], data["first"]
        if first != (0 if number % 2 else 1):
            return f"game {number} is not one that player {'AB'[first]} begins"
        if self.season is not None and data["pair_seed"] == self.season:
            seed = self.season
        elif self.pair_seed is not None:
            try:
                seed = self.pair_seed(data["stage"], *data["pair"])
            except UnicodeEncodeError:  # a name no run could have (a lone surrogate)
                return "its seed is not the run's"
        else:
            seed = self.header["seed"] if self.header.get("kind") == "match" else data["pair_seed"]
        if data["pair_seed"] != seed:
            return "its seed is not the run's"
        game = self.game.match_variant(number)

        def player(side: int) -> int:
            return side if first == 0 else 1 - side

        if data.get("moved_first") is not None and data["moved_first"] != player(game.first_side):
            return "it says the wrong player moved first"
        dice = (season_rngs if seed == self.season else match_rngs)(seed, number)[0]
        state = game.initial_state()
        for index, text in enumerate(data["moves"], start=1):
            if state.over:
                return f"it goes on after the game ended (move {index})"
            try:
                if state.to_move == CHANCE:
                    outcome = game.sample_chance(state, dice)
                    if game.move_text(state, outcome).upper() != text.strip().upper():
                        return f"move {index}: the dice gave {shown(game.move_text(state, outcome), 80)}, " \
                               f"not {shown(repr(text), 80)}"
                    state = game.play(state, outcome)
                else:
                    state = game.play(state, game.parse_move(state, text))
            except GameError:
                return f"move {index} ({shown(repr(text), 80)}) is not legal there"
        termination = Termination(data.get("termination", "normal"))
        winner = data["winner"]
        if data["plies"] != state.ply:
            return f"its moves make {state.ply} plies, not {data['plies']}"
        if termination is Termination.NORMAL:
            if not state.over:
                return "its moves do not end the game"
            if winner != (None if state.result.winner is None else player(state.result.winner)):
                return f"its moves give {self._winner(state.result.winner, player)}, not {self._player(winner)}"
            if data["reason"] != state.result.reason:
                return f"its moves end '{shown(state.result.reason, 80)}', not '{shown(data['reason'], 80)}'"
        elif termination is Termination.DRAW_BY_RULE:
            if state.over or state.ply != game.max_game_length() or winner is not None:
                return "it is no draw by the move cap"
        else:
            if state.over or state.to_move == CHANCE:
                return "it is a forfeit where no player was to move"
            if data["forfeit"] != player(state.to_move):
                return f"the forfeit is {self._player(player(state.to_move))}'s to move, " \
                       f"not {self._player(data['forfeit'])}'s"
            if not data["reason"].startswith(game.sides[state.to_move].name + " "):
                return "its reason names another side"
        return None

    @staticmethod
    def _player(player: int | None) -> str:
        return "a draw" if player is None else f"player {'AB'[player]}"

    def _winner(self, side: int | None, player: Callable[[int], int]) -> str:
        return "a draw" if side is None else f"player {'AB'[player(side)]}'s win"
