"""Writing the site: ``publish(site, out)``, incremental.

``OUT/index.html`` the leaderboard (standings, crosstable, the contest's rules, when it was last
updated, the latest games), ``OUT/rules.html`` the game's rules, ``OUT/closing.html`` the closing
stage (its standings, its games by round) when there is one, ``OUT/teams/<slug>.html`` a page a
team (its submissions, its games, its closing stage), ``OUT/games/<slug>.html`` a replay page a
game (the closing stage's too) and beside it ``OUT/games/<slug>.jsonl``, the game as a record of one
game that ``arcade replay`` opens (``game_record``), and ``OUT/static/`` the style sheet, the
scripts (``site.js`` the times in words and local time, ``replay.js`` the replays) and the icon.
Nothing is fetched from elsewhere.

Incremental: ``OUT/.arcade-site.json`` (the manifest) keeps each page's digest and each game
page's and record's fingerprint (``SiteGame.fingerprint``, its name in a closing stage's round,
and the site's own version: its templates, scripts, style and this code). A game whose fingerprint
is there, with both files, is not replayed nor drawn again; every
other page is made (cheap) and written only when its bytes changed; pages no longer made (a game
gone) are removed. Every file is written whole and renamed into place, so a browser never reads
half a page.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from arcade.files import write_whole
from arcade.web import render as pages
from arcade.web.model import Site, SiteGame, slug

MANIFEST = ".arcade-site.json"
STATIC = ("site.css", "site.js", "replay.js", "favicon.svg")


class PublishError(ValueError):
    """A site that cannot be written (a message for the user, one line)."""


@dataclass
class Report:
    """What a publication did: pages ``written``, ``kept`` as they were, ``removed``; its
    ``seconds``; the site's ``bytes`` and ``files`` on disk."""

    written: list[str] = field(default_factory=list)
    kept: int = 0
    removed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    bytes: int = 0
    files: int = 0

    def line(self, out) -> str:
        return (f"site in {out}: {len(self.written)} page{'s' * (len(self.written) != 1)} written, {self.kept} "
                f"unchanged, {len(self.removed)} removed; {self.files} files, {self.bytes / 1e6:.1f} MB, "
                f"{self.seconds:.2f} s")


def version() -> str:
    """The site's version: a digest of what draws it (templates, static files, the frames and
    the pages' code). A new version draws every page again."""
    digest = hashlib.sha256()
    package = resources.files("arcade.web")
    for folder in ("templates", "static"):
        for item in sorted(package.joinpath(folder).iterdir(), key=lambda p: p.name):
            digest.update(item.name.encode() + item.read_bytes())
    for module in ("frames.py", "render.py", "publish.py", "model.py"):
        digest.update(package.joinpath(module).read_bytes())
    return digest.hexdigest()[:16]


class Writer:
    """The files of ``out``: what the manifest says of them, and writing only what changed."""

    def __init__(self, out: Path, report: Report) -> None:
        self.out = out
        self.report = report
        self.version = version()
        old = self.load()
        self.same_version = old.get("version") == self.version
        self.old_pages: dict[str, str] = old.get("pages", {}) if self.same_version else {}
        self.old_games: dict[str, str] = old.get("games", {}) if self.same_version else {}
        self.pages: dict[str, str] = {}
        self.games: dict[str, str] = {}

    def load(self) -> dict:
        try:
            with open(self.out / MANIFEST, "rb") as handle:
                data = json.loads(handle.read(64 << 20))
        except (OSError, ValueError):
            return {}
        return data if type(data) is dict else {}

    def fresh(self, paths: tuple[str, ...], fingerprint: str) -> bool:
        """Whether a game's files ``paths`` (its page, its record) of this ``fingerprint`` are all
        there as they were published; if so, they are kept."""
        if not all(self.old_games.get(path) == fingerprint and path in self.old_pages and (self.out / path).is_file()
                   for path in paths):
            return False
        for path in paths:
            self.games[path] = fingerprint
            self.pages[path] = self.old_pages[path]
            self.report.kept += 1
        return True

    def put(self, path: str, text: str | bytes, fingerprint: str | None = None) -> None:
        data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
        digest = hashlib.sha256(data).hexdigest()
        self.pages[path] = digest
        if fingerprint is not None:
            self.games[path] = fingerprint
        target = self.out / path
        if self.old_pages.get(path) == digest and target.is_file():
            self.report.kept += 1
            return
        write_whole(target, data)
        self.report.written.append(path)

    def finish(self) -> None:
        """Remove the pages no longer made; write the manifest."""
        for path in sorted(set(self.old_pages) - set(self.pages)):
            if path.startswith(("games/", "teams/")) and path.endswith((".html", ".jsonl")) and "/" not in path[6:] \
                    and ".." not in path:
                try:
                    (self.out / path).unlink()
                    self.report.removed.append(path)
                except FileNotFoundError:
                    pass
        write_whole(self.out / MANIFEST, json.dumps(
            {"version": self.version, "pages": self.pages, "games": self.games}, separators=(",", ":")).encode())




def publish(site: Site, out: str | os.PathLike) -> Report:
    """Write (or bring up to date) the site of ``site`` in folder ``out``."""
    from arcade.catalog import UnknownGame, load

    started = time.perf_counter()
    out = Path(out)
    from arcade.untrusted import clean

    if out.exists() and not out.is_dir():
        raise PublishError(f"{clean(out)} is not a folder: the site is a folder of pages")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PublishError(f"cannot make {clean(out)}: {exc.strerror or exc}") from None
    try:
        rules = load(site.contest.game)(**dict(site.contest.options))
    except (UnknownGame, ValueError, TypeError) as exc:
        raise PublishError(f"the contest's game cannot be set up: {exc}") from None
    report = Report()
    writer = Writer(out, report)
    try:
        write_site(site, rules, writer)
        writer.finish()
    except OSError as exc:
        raise PublishError(f"cannot write the site in {clean(out)}: {exc.strerror or exc}") from None
    report.seconds = time.perf_counter() - started
    report.files, report.bytes = size_of(out)
    return report


def write_site(site: Site, rules, writer: Writer) -> None:
    from arcade.catalog import entry

    package = resources.files("arcade.web")
    for name in STATIC:
        writer.put(f"static/{name}", package.joinpath("static", name).read_bytes())
    info = entry(rules.id)
    closing = site.closing
    common = {"contest": site.contest, "title": site.contest.title or f"{rules.title} contest",
              "game_title": rules.title, "sides": [s.name for s in rules.sides], "closing": closing,
              "team_href": pages.team_href, "game_href": pages.game_href}
    board = site.board
    teams = [row.team for row in board.rows]
    games = list(site.games)
    finals = list(closing.games) if closing else []
    common["round_labels"] = pages.round_labels(finals)
    for game in games + finals:
        write_game(writer, rules, game, common, teams)
    notes = board.notes("Computed", "vs always_roll(6)")
    writer.put("index.html", pages.render(
        "index.html", root="", board=board, rows=board.rows, teams=teams, cells=pages.cross_cells(board),
        rules=pages.rules_lines(site.contest, rules.title), latest=games[-30:][::-1], games_count=len(games),
        closing_rows=pages.closing_rows(closing), exact_legend=notes[0] if notes else "", **common))
    writer.put("rules.html", pages.render(
        "rules.html", root="", rules=pages.rules_lines(site.contest, rules.title),
        game_rules=pages.game_rules_html(info.help_markdown()), **common))
    if closing is not None:
        writer.put("closing.html", pages.render(
            "closing.html", root="", closing_rows=pages.closing_rows(closing), rounds=pages.rounds(finals), **common))
    write_teams(site, writer, teams, games, finals, common)


def write_teams(site: Site, writer: Writer, teams: list[str], games: list[SiteGame], finals: list[SiteGame],
                common: dict) -> None:
    """A page a team: its row, its submissions, its games (the board's, ``TeamPage.games``, each
    linked to its replay where the site has one), its closing stage's."""
    board = site.board
    by_team: dict[str, list] = {team: [] for team in teams} | {team: page.games for team, page in board.teams.items()}
    replays = {game.key: game for game in games}
    closing_by_team: dict[str, list] = {}
    aliases = dict(site.closing.aliases) if site.closing else {}
    for game in finals:
        for side, name in enumerate(game.sides):
            team = aliases.get(name, name)  # a team's original player's games are the team's
            if name != team and aliases.get(game.sides[1 - side], game.sides[1 - side]) == team:
                continue  # its match against its new player: listed once, from the new one's side
            by_team.setdefault(team, [])
            closing_by_team.setdefault(team, []).append(pages.outcome(game, name))
    for team in {s.team for s in site.submissions}:
        by_team.setdefault(team, [])
    closing_ranks = {str(row.get("team", "")): row for row in pages.closing_rows(site.closing)}
    for team, team_games in by_team.items():
        writer.put(f"teams/{slug(team)}.html", pages.render(
            "team.html", root="../", team=team, row=board.row(team), score=board.score_column, team_games=team_games, replays=replays,
            scoring=board.teams[team].scoring if team in board.teams else "",
            submissions=pages.submissions_of(site.submissions, team), closing_row=closing_ranks.get(team),
            closing_outcomes=closing_by_team.get(team, []), **common))


def write_game(writer: Writer, rules, game: SiteGame, common: dict, teams: list[str]) -> None:
    """A game's replay page and, beside it, its record (``game_record``); a withheld game's
    page gives its result alone, and it has no record until its moves are shown."""
    from arcade.web.frames import replay

    name = slug(game.key)
    path, record = f"games/{name}.html", f"games/{name}.jsonl"
    label = common["round_labels"].get(game.key, "")
    fingerprint = game.fingerprint(label)  # with its name in its round: drawn again under another
    if writer.fresh((path,) if game.withheld else (path, record), fingerprint):
        return
    if game.withheld:  # its result only, until the contest closes
        writer.put(path, pages.render("withheld.html", root="../", game=game, known=set(teams), label=label,
                                      **common), fingerprint)
        return
    variant = rules.match_variant(game.number)
    ending = "" if game.termination == "normal" else game.reason
    steps = replay(variant, game.moves, ending)
    writer.put(record, game_record(rules, game, steps.rows[-1][0] if steps.rows else 0), fingerprint)
    writer.put(path, pages.render(
        "game.html", root="../", game=game, steps=steps, data=steps.as_json(), known=set(teams), label=label,
        record=f"{name}.jsonl", **common), fingerprint)


def game_record(rules, game: SiteGame, plies: int) -> bytes:
    """``game`` as a record of one game (``arcade.records``: a header line, then the game's line),
    as the app saves one, so that ``arcade replay FILE`` opens it and any program reads it: the
    contest's game and options, its two sides as the players (side 0's first), its number (the
    match variant it was played in: Robot Ludo's first side), its moves and dice, its result,
    reason and ``plies``. Nothing else of the contest's own record goes in: not the bots' paths
    on the contest's machine, nor the times, nor the seeds."""
    from arcade.records.schema import FORMAT

    header = {"record": FORMAT, "kind": "game", "game": rules.id, "options": dict(rules.settings),
              "bots": list(game.sides), "seed": None, "finished": True}
    line = {"stage": game.stage or "game", "pair": list(game.sides), "pair_seed": 0, "number": game.number,
            "first": 0, "winner": game.winner, "reason": game.reason, "plies": plies, "forfeit": game.forfeit,
            "termination": game.termination, "moves": list(game.moves)}
    return b"".join(json.dumps(value).encode() + b"\n" for value in (header, line))


def size_of(out: Path) -> tuple[int, int]:
    files = total = 0
    for folder, _dirs, names in os.walk(out):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
                files += 1
            except OSError:
                pass
    return files, total
