"""Writing the site: ``publish(site, out)``, incremental.

``OUT/index.html`` the leaderboard (standings, crosstable, the contest's rules, when it was last
updated, the latest games), ``OUT/rules.html`` the game's rules, ``OUT/closing.html`` the closing
stage (its standings, its games by round) when there is one, ``OUT/teams/<slug>.html`` a page a
team (its submissions, its games, its closing stage), ``OUT/games/<slug>.html`` a replay page a
game (the closing stage's too), and ``OUT/static/`` the style sheet and the replay's script.
Nothing is fetched from elsewhere.

Incremental: ``OUT/.arcade-site.json`` (the manifest) keeps each page's digest and each game
page's fingerprint (``SiteGame.fingerprint`` and the site's own version: its templates, script,
style and this code). A game whose fingerprint is there is not replayed nor drawn again; every
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
STATIC = ("site.css", "replay.js")


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

    def fresh(self, path: str, fingerprint: str) -> bool:
        """Whether game page ``path`` of this ``fingerprint`` is there as it was published."""
        if self.old_games.get(path) == fingerprint and path in self.old_pages and (self.out / path).is_file():
            self.games[path] = fingerprint
            self.pages[path] = self.old_pages[path]
            self.report.kept += 1
            return True
        return False

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
            if path.startswith(("games/", "teams/")) and path.endswith(".html") and "/" not in path[6:] \
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
    teams = [str(row.get("team", "")) for row in site.standings]
    games = list(site.games)
    finals = list(closing.games) if closing else []
    for game in games + finals:
        write_game(writer, rules, game, common, teams)
    cells = pages.crosstable(teams, games)
    writer.put("index.html", pages.render(
        "index.html", root="", rows=pages.standings_rows(site.standings), teams=teams, cells=cells,
        rules=pages.rules_lines(site.contest, rules.title), latest=games[-30:][::-1], games_count=len(games),
        closing_rows=pages.closing_rows(closing), exact_legend=exact_legend(site.contest), **common))
    writer.put("rules.html", pages.render(
        "rules.html", root="", rules=pages.rules_lines(site.contest, rules.title),
        game_rules=pages.game_rules_html(info.help_markdown()), **common))
    if closing is not None:
        writer.put("closing.html", pages.render(
            "closing.html", root="", closing_rows=pages.closing_rows(closing), rounds=pages.rounds(finals), **common))
    write_teams(site, writer, teams, games, finals, common)


def exact_legend(contest) -> str:
    """What a season of Hog's exact scoring's numbers are (``arcade.contest.standings.legend``)."""
    from arcade.contest.standings import legend

    return legend(contest.games_per_pair or 0, "Computed", "vs always_roll(6)") if contest.scoring == "exact" else ""


def write_teams(site: Site, writer: Writer, teams: list[str], games: list[SiteGame], finals: list[SiteGame],
                common: dict) -> None:
    """A page a team: its row, its submissions, its games, its closing stage's."""
    by_team: dict[str, list] = {team: [] for team in teams}
    for game in games:
        for team in game.sides:
            by_team.setdefault(team, []).append(pages.outcome(game, team))
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
    ranks = {str(row.get("team", "")): row for row in pages.standings_rows(site.standings)}
    closing_ranks = {str(row.get("team", "")): row for row in pages.closing_rows(site.closing)}
    for team, outcomes in by_team.items():
        writer.put(f"teams/{slug(team)}.html", pages.render(
            "team.html", root="../", team=team, row=ranks.get(team), outcomes=outcomes,
            submissions=pages.submissions_of(site.submissions, team), closing_row=closing_ranks.get(team),
            closing_outcomes=closing_by_team.get(team, []), **common))


def write_game(writer: Writer, rules, game: SiteGame, common: dict, teams: list[str]) -> None:
    from arcade.web.frames import replay

    path = f"games/{slug(game.key)}.html"
    fingerprint = game.fingerprint()
    if writer.fresh(path, fingerprint):
        return
    if game.withheld:  # its result only, until the contest closes
        writer.put(path, pages.render("withheld.html", root="../", game=game, known=set(teams), **common), fingerprint)
        return
    variant = rules.match_variant(game.number)
    ending = "" if game.termination == "normal" else game.reason
    steps = replay(variant, game.moves, ending)
    writer.put(path, pages.render(
        "game.html", root="../", game=game, steps=steps, data=steps.as_json(), known=set(teams), **common), fingerprint)


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
