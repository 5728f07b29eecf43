"""The pages, from Jinja2 templates (``arcade/web/templates``) with autoescaping on: every text
from the data (a team's name, a reason, a bot's output) is escaped into text, never markup; the
replay's steps go into the page as JSON by ``json_script``, which escapes ``<``, ``>``, ``&`` and
the line separators, so that no text can close the script element or start another."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Iterable

from markupsafe import Markup

from arcade.web.model import CLOSING_COLUMNS, Closing, Contest, SiteGame, Submission, slug

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
    env.filters["when"] = when
    return env


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def moment(value) -> datetime | None:
    """A time from the data (ISO 8601, as the contest writes it; one without a zone is UTC, as
    ``contest.toml``'s ``closes`` reads) in UTC, or ``None`` when it is none."""
    try:
        found = datetime.fromisoformat(str(value).strip())
        return found.astimezone(timezone.utc) if found.tzinfo else found.replace(tzinfo=timezone.utc)
    except (ValueError, OverflowError):  # no time, or one whose UTC is out of the calendar's years
        return None


def time_text(value) -> str:
    """A time as plain words in UTC (``28 Nov 2026, 16:46 UTC``), for a reader without the page's
    script; anything that is no time, its own text."""
    found = moment(value)
    if found is None:
        return str(value)
    return f"{found.day} {_MONTHS[found.month - 1]} {found.year}, {found:%H:%M} UTC"


def when(value) -> Markup | str:
    """A time as a ``<time>`` element: its text ``time_text``'s, its ``datetime`` and ``title`` the
    exact ISO time; ``static/site.js`` rewrites the text in words (``3 minutes ago``) and the
    title in the browser's local time. Empty or no time: the text alone (escaped)."""
    found = moment(value) if value else None
    if found is None:
        return str(value or "")
    exact = found.isoformat(timespec="seconds")
    return Markup('<time datetime="{0}" title="{0}">{1}</time>').format(exact, time_text(found))


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
    """A closing stage's game from ``team``'s side, its verdict in the board's words
    (``arcade.contest.boardmodel.TeamGame.verdict``: ``won``, ``lost``, ``drew``, ``… by forfeit``)."""
    side = 0 if game.sides[0] == team else 1
    verdict = "drew" if game.winner is None else "won" if game.winner == side else "lost"
    if game.forfeit is not None and game.winner is not None:
        verdict += " by forfeit"
    return Outcome(game, side, game.sides[1 - side], verdict)


@dataclass(frozen=True)
class CrossCell:
    """A crosstable's cell on the page: its ``text`` (``Board.cross_text``: the model's), its
    ``kind`` (the style: ``ahead``, ``behind``, ``even``, ``computed`` besides where it is) and its
    ``title`` (a computed pair's exact win chance)."""

    text: str
    kind: str
    title: str = ""


def cross_cells(board) -> dict[tuple[str, str], CrossCell]:
    """Every ordered pair of the board's teams' cell (``arcade.contest.boardmodel.Board``)."""
    teams = [row.team for row in board.rows]
    cells = {}
    for team in teams:
        for other in teams:
            cell = board.cell(team, other)
            wins, losses = cell.score() if cell else (0, 0)
            kind = "ahead" if wins > losses else "behind" if wins < losses else "even"
            title = ""
            if cell is not None and cell.computed:
                kind += " computed"
                title = f"computed, not played: {team}'s exact win chance {cell.chance:.4f}"
            cells[(team, other)] = CrossCell(board.cross_text(team, other), kind, title)
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
    lines.append(f"Submissions close {time_text(contest.closes)}." if contest.closes else "Submissions stay open.")
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


def round_labels(games: Iterable[SiteGame]) -> dict[str, str]:
    """Each closing-stage game's name on the pages, by key: its round and its place among that
    round's games (``first round · game 3``). A game's own number counts within its pair, so a
    round of two pairs would show two games 1 and two games 2."""
    return {game.key: f"{name} · game {index}" for name, played in rounds(games)
            for index, game in enumerate(played, start=1)}
