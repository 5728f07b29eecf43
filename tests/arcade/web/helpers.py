"""What the web tests share: games played at random through the rules, a site of them, the facts a
board must show at each position (from the rules' own states), and the steps' JSON read back
from a page."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from arcade.catalog import load
from arcade.web.model import Contest, Site, SiteGame, Submission, board_of
from games.base import random_playout

HOSTILE = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">&amp;"


def played(game_id: str, seed: int, options: dict | None = None):
    """A game played at random: ``(game, states, move texts)``."""
    game = load(game_id)(**(options or {}))
    states = random_playout(game, game.initial_state(), random.Random(seed))
    moves = tuple(game.move_text(before, after.event.move) for before, after in zip(states, states[1:]))
    return game, states, moves


def site_game(key: str, sides: tuple[str, str], states, moves, number: int = 1) -> SiteGame:
    result = states[-1].result
    return SiteGame(key=key, sides=sides, moves=moves, winner=result.winner, reason=result.reason, number=number)


def site(game_id: str, teams: list[str], games: list[SiteGame], options: dict | None = None,
         updated: str = "2025-03-03T10:00:00+00:00") -> Site:
    contest = Contest(game=game_id, options=options or {}, title="Test contest", games_per_pair=2,
                      points="stats306", updated=updated)
    return Site(contest, board_of(contest, teams, games),
                [Submission(team, "2025-03-01T10:00:00+00:00", True) for team in teams], games)


def page_data(path: Path) -> dict:
    """The steps embedded in a replay page, their frames whole again (``arcade.web.frames.expand``)."""
    from arcade.web.frames import expand

    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S).group(1))
    return {**data, "frames": expand(data)}


def facts(game_id: str, state) -> dict:
    """What the board must show of ``state``, from the rules' state (the browser test reads the
    same from the page's drawing)."""
    if game_id == "dfootball":
        return {"pieces": "".join("M" if p == 1 else "O" if p == -1 else "." for p in state.board)}
    if game_id == "othello":
        return {"discs": "".join("B" if state.blue >> sq & 1 else "O" if state.orange >> sq & 1 else "."
                                 for sq in range(64))}
    if game_id == "ludo":
        return {"red": list(state.red), "blue": list(state.blue), "pens": list(state.pens)}
    if game_id == "hog":
        return {"scores": list(state.scores)}
    return {"left": state.left}


def frame_facts(game_id: str, board: dict, fixed: dict) -> dict:
    """The same facts from a step's JSON."""
    if game_id == "dfootball":
        return {"pieces": "".join("M" if p == 1 else "O" if p == -1 else "." for p in board["squares"])}
    if game_id == "othello":
        return {"discs": board["cells"].replace(".", ".")}
    if game_id == "ludo":
        return {"red": board["r"], "blue": board["b"], "pens": board["p"]}
    if game_id == "hog":
        return {"scores": board["scores"]}
    return {"left": board["left"]}
