"""The pages, from Jinja2 templates (``arcade/web/templates``) with autoescaping on: every text
from the data (a team's name, a reason, a bot's output) is escaped into text, never markup; the
replay's steps go into the page as JSON by ``json_script``, which escapes ``<``, ``>``, ``&`` and
the line separators, so that no text can close the script element or start another."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from markupsafe import Markup

from arcade.web.model import CLOSING_COLUMNS, COLUMNS, EXACT_COLUMNS, Closing, Contest, SiteGame, Submission, slug

POINT_RULES = {
    "stats306": "the highest score gets 6 points; every other team 5 × its score ÷ the highest score "
                "(STATS 306's rule; nobody scores before a game is won)",
    "none": "no points: the board ranks by score",
}
SCORINGS = {
    "wins": "a team's score is its games won",
    "exact": "a team's score is its wins, and for each pair computed from the two strategies' tables "
             "(not played) its expected wins: games a pair × its exact win chance; beside it, the exact win "
             "rate against always_roll(6), the course's own score",
}


def json_script(value) -> Markup:
    """``value`` as JSON safe inside ``<script type="application/json">``: ASCII only (a lone
    surrogate from a record stays an escape), and ``<``, ``>``, ``&`` escaped, so ``</script>``
    or ``<!--`` in a text is never markup."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@lru_cache(maxsize=1)
def environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("arcade.web", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["json_script"] = json_script
    env.filters["number"] = lambda value: f"{value:g}" if isinstance(value, float) else str(value)
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)


@dataclass(frozen=True)
class Outcome:
    """A game from one team's side: its opponent, the side it played, won/lost/drawn, the reason."""

    game: SiteGame
    side: int
    opponent: str
    verdict: str


def outcome(game: SiteGame, team: str) -> Outcome:
    side = 0 if game.sides[0] == team else 1
    verdict = "drawn" if game.winner is None else "won" if game.winner == side else "lost"
    if game.forfeit is not None:
        verdict += " (forfeit)" if game.forfeit != side else " (forfeited)"
    return Outcome(game, side, game.sides[1 - side], verdict)


def crosstable(teams: Sequence[str], games: Iterable[SiteGame]) -> dict[tuple[str, str], list[int]]:
    """Each ordered pair of teams: the first's [wins, draws, losses] against the second, over the
    counted games."""
    cells: dict[tuple[str, str], list[int]] = {}
    known = set(teams)
    for game in games:
        a, b = game.sides
        if not game.counted or a not in known or b not in known:
            continue
        for side, (me, other) in enumerate(((a, b), (b, a))):
            cell = cells.setdefault((me, other), [0, 0, 0])
            cell[0 if game.winner == side else 1 if game.winner is None else 2] += 1
    return cells


def rules_lines(contest: Contest, game_title: str) -> list[str]:
    """The contest's rules in sentences, from its settings and its own lines."""
    lines = [f"The game: {game_title}" + (f" ({', '.join(f'{k} = {v}' for k, v in contest.options.items())})"
                                           if contest.options else "") + "."]
    if contest.games_per_pair:
        lines.append(f"Every two teams play {contest.games_per_pair} games, each team first in half of them"
                     + (f" ({contest.format})." if contest.format else "."))
    if contest.time_limit:
        lines.append(f"A move's time: {contest.time_limit:g} s. A strategy that errs, is late or makes an "
                     "invalid move forfeits the game.")
    else:
        lines.append("A strategy that errs, is late or makes an invalid move forfeits the game.")
    lines.append(SCORINGS.get(contest.scoring, f"scoring: {contest.scoring}").capitalize() + ".")
    if contest.points:
        lines.append("Points: " + POINT_RULES.get(contest.points, contest.points) + ".")
    lines.append(f"Submissions close {contest.closes}." if contest.closes else "Submissions stay open.")
    return lines + list(contest.rules)


_KEYS_SECTION = re.compile(r"^## [^\n]*\bkeys?\b.*?(?=^## |\Z)", re.IGNORECASE | re.MULTILINE | re.DOTALL)


def game_rules_html(markdown: str) -> Markup:
    """A game's rules (``arcade/help/<id>.md``, ours) as HTML, without the terminal's keys; raw
    HTML in the text stays text."""
    from markdown_it import MarkdownIt

    return Markup(MarkdownIt("commonmark", {"html": False}).enable("table").render(_KEYS_SECTION.sub("", markdown)))


def team_href(team: str, root: str) -> str:
    return f"{root}teams/{slug(team)}.html"


def game_href(game: SiteGame, root: str) -> str:
    return f"{root}games/{slug(game.key)}.html"


def standings_rows(standings: Sequence[Mapping]) -> list[dict]:
    """The rows with the columns a page shows (a missing one blank); Hog's exact scoring's too
    (``EXACT_COLUMNS``), its win rate against always_roll(6) written to 4 places (``—``: none)."""
    rows = []
    for row in standings:
        shown = {column: row.get(column, "") for column in COLUMNS + EXACT_COLUMNS}
        vs = row.get("vs_always_roll_6")
        shown["vs_always_roll_6"] = f"{vs:.4f}" if isinstance(vs, (int, float)) else "—"
        rows.append(shown)
    return rows


def submissions_of(submissions: Iterable[Submission], team: str) -> list[Submission]:
    return [s for s in submissions if s.team == team]


def closing_rows(closing: Closing | None) -> list[dict]:
    """A closing stage's rows with the columns its table shows (none without one)."""
    return [{column: row.get(column, "") for column in CLOSING_COLUMNS} for row in closing.standings] if closing else []


def rounds(games: Iterable[SiteGame]) -> list[tuple[str, list[SiteGame]]]:
    """A closing stage's games by round (``SiteGame.stage``), in the order they were played."""
    out: dict[str, list[SiteGame]] = {}
    for game in games:
        out.setdefault(game.stage, []).append(game)
    return list(out.items())
