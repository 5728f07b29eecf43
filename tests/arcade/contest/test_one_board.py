"""One board, three views (``arcade.contest.boardmodel``): random small seasons (teams that
resubmit or are rejected, all-pairs or a ladder, Hog's exact scoring with a tiny goal, forfeits,
CS4341's closing stage) written into a contest's folder as ``run`` leaves it, then read back as
each view shows them: ``arcade contest standings`` (its table, ``--csv``, ``--json``,
``--crosstable`` and its CSV), the app's live board (``arcade.contest.board``: the cells the screen
draws, and the screen itself once) and the published site (``standings.json`` and the pages'
tables). Every view agrees, cell for cell, and with the games as they were played; one season is
played for real (tiny file bots, no sandbox)."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arcade.contest.board import snapshot, team_page
from arcade.contest.config import Config, create
from arcade.contest.db import Database
from arcade.contest.standings import points as points_rule
from arcade.web.contest import publish_contest
from arcade.web.model import slug
from tests.arcade.contest.helpers import arcade, bot

TEAMS = ("ann", "bob", "cy", "dee", "eve")
DASH = "–"


# -- a season, written as run leaves it ----------------------------------------------------------

def season(folder: Path, seed: int, kind: str) -> dict:
    """A random season of ``kind`` (``all-pairs``, ``ladder``, ``exact``, ``cs4341``) in
    ``folder``: its submissions, games, exact pairs and tables, ladder plan or closing stage. What
    was written, for the checks: each current team's digest and the games."""
    from arcade.contest import ladder

    rng = random.Random(seed)
    games = rng.choice((2, 3, 4))
    config = {"all-pairs": Config("toothpicks", games=games, sandbox="none", points=rng.choice(("stats306", "none"))),
              "ladder": Config("toothpicks", games=games, sandbox="none", format="ladder"),
              "exact": Config("hog", {"goal": 8}, games=games, sandbox="none", scoring="exact", points="none"),
              "cs4341": Config("toothpicks", games=games, sandbox="none", points="cs4341", closing="groups")}[kind]
    create(folder, config)
    teams = rng.sample(TEAMS, rng.randint(2, len(TEAMS)))
    accepted: list[tuple[str, str]] = []  # (team, digest), in arrival order
    with Database(folder) as db:
        for minute in range(rng.randint(len(teams), 2 * len(teams))):
            team = teams[minute % len(teams)] if minute < len(teams) else rng.choice(teams)
            digest = f"{rng.getrandbits(256):064x}"
            verdict = "accepted" if minute < len(teams) or rng.random() < 0.7 else "rejected"
            db.add_submission(team, digest, "bot.py:strategy", f"2026-03-01T10:{minute:02d}:00+00:00", verdict,
                              "" if verdict == "accepted" else f"its strategy raised ValueError({minute})")
            if verdict == "accepted":
                accepted.append((team, digest))
        current = {team: digest for team, digest in accepted}
        live = set(current.values())
        exact, tabled = {}, {}
        if kind == "exact":
            for digest in live:
                how = rng.choice(("exact", "exact", "sampled", "pending"))
                if how != "pending":
                    tabled[digest] = (round(rng.random(), 6), "") if how == "exact" else (
                        None, "its table differs between two fresh processes")
                    db.set_tabled(digest, *tabled[digest])
        owners = {digest: team for team, digest in accepted}
        pairs = [(x, y) for x in sorted(owners) for y in sorted(owners) if x < y and owners[x] != owners[y]]
        tables = {digest for digest, (_vs, why) in tabled.items() if not why}  # scored exactly
        played = []
        for a, b in pairs:
            if a in live and b in live and a in tables and b in tables:  # computed, never played
                exact[(a, b)] = rng.random()
                db.set_exact(a, b, exact[(a, b)])
                continue
            for number in sorted(rng.sample(range(1, games + 1), rng.randint(0, games))):
                forfeit = rng.choice((None, None, None, 0, 1))
                winner = 1 - forfeit if forfeit is not None else rng.choice((0, 1) if kind == "exact" else (0, 1, None))
                reason = f"Player {forfeit + 1}'s strategy produced an error" if forfeit is not None else "won"
                played.append((a, b, number, winner, forfeit, reason))
        db.write("INSERT INTO games (a, b, number, winner, forfeit, reason) VALUES (?, ?, ?, ?, ?, ?)", played)
    if kind == "ladder":
        ladder.append_round(folder, ladder.Round(1, tuple(ladder.Meeting(a, b, 1, games) for a, b in pairs)))
    if kind == "cs4341":
        (folder / "closing.json").write_text(json.dumps(closing(rng, sorted(current))))
    return {"config": config, "current": current, "games": played, "exact": exact, "tabled": tabled, "owners": owners}


def closing(rng: random.Random, teams: list[str]) -> dict:
    """A ``closing.json`` of CS4341's points, as ``arcade.contest.closing`` writes one."""
    rows = []
    for rank, team in enumerate(rng.sample(teams, len(teams)), start=1):
        wins, draws = rng.randint(0, 3), rng.randint(0, 1)
        beat = rng.choice((None, True, False))
        rows.append({"rank": rank, "team": team, "wins": wins, "draws": draws, "losses": 1, "games": wins + draws + 1,
                     "forfeits": 0, "points": 2 * wins + draws, "stage": "final" if rank < 3 else "first round",
                     "completed": True, "beat_original": beat, "extra_credit": 2 * wins + draws + 5 + 5 * bool(beat)})
    challenges = [{"team": row["team"], "new": 2 if row["beat_original"] else 0, "original": 0 if row["beat_original"] else 2,
                   "draws": 0, "games": 2, "played": "new" if row["beat_original"] else "original",
                   "new_digest": "a" * 64, "original_digest": f"{i:064x}"}
                  for i, row in enumerate(rows) if row["beat_original"] is not None]
    return {"stage": "groups", "standings": rows, "points": "cs4341", "challenges": challenges}


# -- what the games say, counted here ------------------------------------------------------------

def expected_board(made: dict) -> tuple[dict, dict]:
    """Each current team's row fields and each ordered pair of current teams' ``[W, D, L]`` (or
    its exact chance), counted from the games written, apart from the arcade's model."""
    config, current = made["config"], made["current"]
    team_of = {digest: team for team, digest in current.items()}
    rows = {team: dict(wins=0, draws=0, losses=0, games=0, forfeits=0) for team in current}
    cells: dict[tuple[str, str], list] = {}
    for a, b, _number, winner, forfeit, _reason in made["games"]:
        for player, (me, other) in enumerate(((a, b), (b, a))):
            if me not in team_of or (other not in team_of and config.format != "ladder"):
                continue
            row = rows[team_of[me]]
            row["games"] += 1
            row["forfeits"] += forfeit == player
            kind = "wins" if winner == player else "draws" if winner is None else "losses"
            row[kind] += 1
            if other in team_of:
                cells.setdefault((team_of[me], team_of[other]), [0, 0, 0])[("wins", "draws", "losses").index(kind)] += 1
    for (a, b), chance in made["exact"].items():
        cells[(team_of[a], team_of[b])] = chance
        cells[(team_of[b], team_of[a])] = 1 - chance
    return rows, cells


def cell_text(cell, games: int) -> str:
    """A crosstable's cell as every view must write it: ``W–D–L``, a computed pair's expected
    wins and losses to 2 decimals (no trailing zeros), marked ``*``."""
    if isinstance(cell, list):
        return DASH.join(map(str, cell))
    wins, losses = round(games * cell, 2), round(games * (1 - cell), 2)
    return f"{_num(wins)}{DASH}0{DASH}{_num(losses)}*"


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


# -- what each view shows, read back ---------------------------------------------------------------

def command(capsys, *args: str) -> str:
    capsys.readouterr()
    assert arcade("contest", "standings", *args) == 0
    return capsys.readouterr().out


CELL = re.compile(r"\d\d-\d\d \d\d:\d\d|\S+ ± \S+|\S+")
"""A cell of the command's tables: a time, a rating ± σ, or one word."""


def table_lines(text: str, rows: int) -> tuple[list[str], list[list[str]]]:
    """The headings and the rows of a table the command printed (its title first)."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    headings = re.split(r"\s{1,}", lines[top].strip())
    return headings, [CELL.findall(line) for line in lines[top + 1: top + 1 + rows]]


class Tables(HTMLParser):
    """A page's tables by id: each row's cells, each cell's text (and a ``<time>``'s datetime)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[dict]]] = {}
        self.table: list | None = None
        self.cell: dict | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("id") or f"table{len(self.tables)}", [])
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = {"text": "", "class": attrs.get("class") or "", "title": attrs.get("title") or ""}
            self.table[-1].append(self.cell)
        elif tag == "time" and self.cell is not None:
            self.cell["time"] = attrs.get("datetime")

    def handle_endtag(self, tag):
        if tag == "table":
            self.table = None
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data

    def texts(self, table: str) -> list[list[str]]:
        return [[" ".join(cell["text"].split()) for cell in row] for row in self.tables[table]]


# -- the checks -----------------------------------------------------------------------------------

def views_agree(folder: Path, made: dict, capsys, out: Path) -> None:
    """Every view of ``folder``'s board agrees with the model's JSON, cell for cell, and the JSON
    with the games written."""
    config = made["config"]
    data = json.loads(command(capsys, str(folder), "--json"))
    rows, cells = expected_board(made)
    teams = [row["team"] for row in data["standings"]]
    assert sorted(teams) == sorted(made["current"])
    for row in data["standings"]:
        assert {k: row[k] for k in rows[row["team"]]} == rows[row["team"]], row["team"]
        computed = [(x, y) for x, y in cells if x == row["team"] and not isinstance(cells[(x, y)], list)]
        wins = row["wins"] + sum(round(config.games * cells[pair], 2) for pair in computed)
        if config.format != "ladder":
            assert row["score"] == pytest.approx(wins, abs=1e-9)
        if config.scoring == "exact":
            assert row["computed"] == len(computed)
    order = [(-r["score"], r["forfeits"], r["team"]) for r in data["standings"]]
    assert order == sorted(order)
    assert [r["rank"] for r in data["standings"]] == [1 + sum(o["score"] > r["score"] for o in data["standings"])
                                                      for r in data["standings"]]  # equal scores share a rank
    if config.format == "ladder":  # the rating: the games replayed in the rounds' order
        from arcade.contest import ladder

        rated = ladder.ratings(ladder.read_rounds(folder), {(a, b, n): w for a, b, n, w, *_ in made["games"]})
        for row in data["standings"]:
            mine = rated.get(made["current"][row["team"]], ladder.Rating())
            assert (row["score"], row["uncertainty"]) == (round(mine.mu, 2), round(mine.sigma, 2))
    if config.points != "cs4341":
        assert [r["points"] for r in data["standings"]] == points_rule([r["score"] for r in data["standings"]],
                                                                      config.points)
    cross = {(team, other): cell_text(cells[(team, other)], config.games) if (team, other) in cells else "·"
             for team in teams for other in teams if team != other}
    json_cross = {(team, other): data["crosstable"][team][other] for team in teams for other in data["crosstable"][team]}
    assert set(json_cross) == set(cells)
    for pair, cell in json_cross.items():
        assert cell["computed"] == (not isinstance(cells[pair], list))
        if cell["computed"]:
            assert cell["chance"] == pytest.approx(cells[pair]) and cell["games"] == 0
        else:
            assert [cell["wins"], cell["draws"], cell["losses"]] == cells[pair]

    shown = expected_cells(data)
    standings_agree(folder, data, shown, capsys, out)
    crosstables_agree(folder, teams, cross, capsys, out)
    team_pages_agree(folder, made, out)
    if data["closing"]:
        closing_agrees(folder, data, capsys, out)


def expected_cells(data: dict) -> dict[str, dict[str, str]]:
    """Each row's cells, written here from the JSON as every view must show them, by key."""
    shown = {}
    for row in data["standings"]:
        cells = {key: str(value) for key, value in row.items()}
        cells["score"], cells["points"] = _num(row["score"]), _num(row["points"])
        if "rating" in row:
            cells["rating"] = f"{row['rating']:.2f} ± {row['uncertainty']:.2f}"
        if "scored" in row:
            vs = row["vs_always_roll_6"]
            cells["vs_always_roll_6"] = f"{vs:.4f}" if vs is not None else row["scored"]
        cells["submitted"] = row["submitted"][5:16].replace("T", " ")
        shown[row["team"]] = cells
    return shown


KEYS = {"#": "rank", "team": "team", "score": "score", "rating ± σ": "rating", "vs ar6": "vs_always_roll_6",
        "calc": "computed", "won": "wins", "drew": "draws", "lost": "losses", "games": "games", "ff": "forfeits",
        "points": "points", "submitted": "submitted"}
"""The terminal's headings (the command's and the app's) to a row's fields."""
LONG = {"Rank": "rank", "Team": "team", "Score": "score", "Rating ± σ": "rating", "vs always_roll(6)": "vs_always_roll_6",
        "Computed": "computed", "W": "wins", "D": "draws", "L": "losses", "Games": "games", "Forfeits": "forfeits",
        "Points": "points", "Submitted": "submitted"}
"""The site's headings to a row's fields."""


def standings_agree(folder: Path, data: dict, shown: dict, capsys, out: Path) -> None:
    """The standings: the command's table and CSV, the app's cells, the site's JSON and leaderboard."""
    rows = data["standings"]
    ladder, exact = data["format"] == "ladder", data["scoring"] == "exact"
    keys = ["rank", "team", "rating" if ladder else "score"] + (["vs_always_roll_6", "computed"] if exact else [])
    keys += ["wins"] + ([] if exact else ["draws"]) + ["losses", "games", "forfeits", "points", "submitted"]
    want = [[shown[row["team"]][key] for key in keys] for row in rows]
    # the command's table
    headings, lines = table_lines(command(capsys, str(folder)), len(rows))
    assert [KEYS[h] for h in re.findall("|".join(map(re.escape, sorted(KEYS, key=len, reverse=True))),
                                         " ".join(headings))] == keys
    assert lines == want
    # its CSV: the JSON's values
    table = list(csv.reader(io.StringIO(command(capsys, str(folder), "--csv"))))
    assert [dict(zip(table[0], line)) for line in table[1:]] == [
        {k: "" if row[k] is None else str(row[k]) for k in table[0]} for row in rows]
    # the app's board: the cells its screen draws
    snap = snapshot(folder)
    assert [column.key for column in snap.board.columns()] == keys and snap.standings() == want
    # the site: standings.json is the JSON; the leaderboard's cells, its times the submissions'
    publish_contest(folder, out)
    assert json.loads((out / "standings.json").read_text()) == data
    page = Tables((out / "index.html").read_text())
    head, *body = page.tables["leaderboard"]
    assert [LONG[" ".join(c["text"].split())] for c in head] == keys
    site = [[" ".join(c["text"].split()) for c in line] for line in body]
    when = keys.index("submitted")
    assert [line[:when] for line in site] == [line[:when] for line in want]
    assert [datetime.fromisoformat(line[when]["time"]) for line in body] == [
        datetime.fromisoformat(row["submitted"]) for row in rows]


def crosstables_agree(folder: Path, teams: list[str], cross: dict, capsys, out: Path) -> None:
    """The crosstable: the app's cells, the command's CSV and table (its diagonal blank), the site's."""
    want = [[cross.get((team, other), "") for other in teams] for team in teams]
    assert snapshot(folder).crosstable() == want
    table = list(csv.reader(io.StringIO(command(capsys, str(folder), "--crosstable", "--csv"))))
    assert table[0] == ["team", *teams] and table[1:] == [[team, *line] for team, line in zip(teams, want)]
    _headings, lines = table_lines(command(capsys, str(folder), "--crosstable"), len(teams))
    assert lines == [[str(i), team, *(c for c in line if c)] for i, (team, line) in enumerate(zip(teams, want), 1)]
    if len(teams) > 1:
        page = Tables((out / "index.html").read_text())
        _head, *body = page.texts("crosstable")
        assert body == [[f"{i} {team}", *line] for i, (team, line) in enumerate(zip(teams, want), 1)]


def team_pages_agree(folder: Path, made: dict, out: Path) -> None:
    """Each team's games and submissions: the app's page, the site's, and the games written."""
    from arcade.catalog import load

    sides = [side.name for side in load(made["config"].game)(**made["config"].options).sides]
    for team in set(made["owners"].values()):
        page = team_page(folder, team)
        mine = {d for d, t in made["owners"].items() if t == team}
        assert sorted((g.a, g.b, g.number) for g in page.games) == sorted(
            (a, b, n) for a, b, n, *_ in made["games"] if a in mine or b in mine)
        live = set(made["current"].values())
        for game in page.games:
            assert game.current == (game.a in live and game.b in live)
            assert game.opponent == made["owners"][game.b if game.a in mine else game.a]
        site = Tables((out / "teams" / f"{slug(team)}.html").read_text())
        if page.games:
            assert site.texts("games")[1:] == [
                [f"#{g.number}", g.opponent, sides[0 if g.first else 1], g.verdict(),
                 g.reason + ("" if g.current else " (an earlier submission)")] for g in page.games]
        submitted = site.tables["submissions"][1:]
        assert [(datetime.fromisoformat(line[0]["time"]), line[1]["text"].strip(), line[2]["text"].strip())
                for line in submitted] == [(datetime.fromisoformat(s.submitted), s.verdict, s.reason)
                                           for s in page.submissions]


def closing_agrees(folder: Path, data: dict, capsys, out: Path) -> None:
    """CS4341's closing stage: the command's line, the board's points, the site's closing page."""
    text = command(capsys, str(folder))
    rows = data["closing"]["standings"]
    assert ("closing stage (groups): " + ", ".join(
        f"{r['rank']}. {r['team']} ({r['extra_credit']} extra credit)" for r in rows)) in text
    assert {r["team"]: r["points"] for r in data["standings"]} == {r["team"]: r["extra_credit"] for r in rows}
    page = Tables((out / "closing.html").read_text())
    assert [line[:3] for line in page.texts("closing-standings")[1:]] == [
        [str(r["rank"]), r["team"], r["stage"]] for r in rows]


@pytest.mark.parametrize("kind", ["all-pairs", "ladder", "exact", "cs4341"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_the_command_the_app_and_the_site_show_one_board(kind, seed, tmp_path_factory, capsys):
    where = tmp_path_factory.mktemp("season")
    made = season(where / "c", seed, kind)
    views_agree(where / "c", made, capsys, where / "site")


async def test_a_played_season_with_forfeits_reads_alike_on_the_screen(tmp_path, capsys, monkeypatch):
    """A season played by ``run`` (STATS 306's students' tiny D-Football bots, one that errs now
    and then, no sandbox): the views agree with its games, and the app's screen draws the cells
    the board's data holds."""
    from textual.widgets import DataTable

    from arcade.contest.run import run
    from arcade.contest.submit import submit
    from arcade.screens.contest import ContestScreen
    from tests.conftest import make_app, wait_until

    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "c"
    config = Config("dfootball", {"n": 11}, games=2, sandbox="none")
    create(folder, config)
    for team, name in (("ann", "far"), ("bob", "near"), ("cy", "careless")):
        assert submit(folder, team, bot(tmp_path, name)).accepted
    assert run(folder, say=lambda line: None) == 6
    with Database(folder) as db:
        current = {s.team: s.digest for s in db.current()}
        games = db.read("SELECT a, b, number, winner, forfeit, reason FROM games")
    assert any(forfeit is not None for *_, forfeit, _reason in games)
    made = {"config": config, "current": current, "games": games, "exact": {}, "tabled": {},
            "owners": {d: t for t, d in current.items()}}
    views_agree(folder, made, capsys, tmp_path / "site")
    snap = snapshot(folder)
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        screen = ContestScreen(folder)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.reads >= 1, what="the board read")
        standings = screen.query_one("#c-standings", DataTable)
        drawn = [[str(getattr(c, "plain", c)).strip() for c in standings.get_row_at(i)] for i in range(standings.row_count)]
        assert drawn == snap.standings()
        cross = screen.query_one("#c-crosstable", DataTable)
        drawn = [[str(getattr(c, "plain", c)).strip() for c in cross.get_row_at(i)][2:] for i in range(cross.row_count)]
        assert drawn == snap.crosstable()
