"""The published site (``arcade.web``): each replay's steps are the rules' positions, texts from
outside are text, the site is written incrementally, a record file's games read through the safe
reader, and ``arcade contest publish``'s one-line errors."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from arcade import cli
from arcade.catalog import CATALOG
from arcade.web.frames import DRAWERS, apply, changes, expand, replay
from arcade.web.model import SiteGame, games_from_record, slug
from arcade.web.publish import publish
from arcade.web.render import json_script
from tests.arcade.web.helpers import HOSTILE, facts, frame_facts, page_data, played, site, site_game

OPTIONS = {"ludo": {"preset": "contest"}}


def test_every_game_of_the_catalog_has_a_drawing():
    assert set(DRAWERS) == set(CATALOG)


@pytest.mark.parametrize("game_id", list(CATALOG))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_a_replays_steps_are_the_rules_positions(game_id, seed):
    game, states, moves = played(game_id, seed, OPTIONS.get(game_id))
    steps = replay(game, moves)
    assert not steps.problem
    assert len(steps.frames) == len(states)
    for state, frame in zip(states, steps.frames):
        assert frame_facts(game_id, frame["board"], steps.fixed) == facts(game_id, state)
        assert frame["status"] == game.describe(state)
    said = [line for frame in steps.frames[1:] for line in frame["say"]]
    commentator = game.commentator()
    assert said == [line for state in states[1:] for line in commentator.see(state)]
    assert [row[2] for row in steps.rows] == [game.move_label(b, a.event.move) for b, a in zip(states, states[1:])]
    assert expand(json.loads(json.dumps(steps.as_json()))) == steps.frames  # the page's compact steps read back


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.sampled_from("abc"), inner),
                    max_leaves=30)


@given(keys=st.sets(st.sampled_from("xyz")), data=st.data())
def test_a_steps_changes_turn_the_board_before_into_its_own(keys, data):
    """Every step's board has the same keys (the first step's changes are made to an empty one)."""
    import copy

    after = {key: data.draw(JSON) for key in sorted(keys)}
    before = data.draw(st.just({}) | st.fixed_dictionaries({key: JSON for key in sorted(keys)}))
    patch = changes(before, after)
    assert apply(copy.deepcopy(before), json.loads(json.dumps(patch))) == after
    assert changes(after, after) == {}


def test_a_replay_says_where_a_record_stops_making_sense_and_a_forfeit():
    game, states, moves = played("toothpicks", 1)
    steps = replay(game, (*moves[:2], "7"))
    assert len(steps.frames) == 3 and "stops making sense at move 3 ('7'" in steps.problem
    assert steps.frames[-1]["say"][-1] == steps.problem
    steps = replay(game, moves[:2], ending="Player 1 strategy took >1000ms to return a move")
    assert steps.frames[-1]["status"] == "Player 1 strategy took >1000ms to return a move"


@given(st.text())
def test_json_script_never_closes_its_element_and_reads_back(text):
    value = {"say": [text, "</script><script>alert(1)</script>", "<!--", "\u2028"]}
    encoded = str(json_script(value))
    assert "<" not in encoded and ">" not in encoded and "&" not in encoded and encoded.isascii()
    assert json.loads(encoded) == value


@given(st.text(min_size=1))
def test_a_slug_is_a_plain_file_name_and_two_names_never_share_one(name):
    made = slug(name)
    assert re.fullmatch(r"[a-z0-9_-]{1,51}", made) and made not in (".", "..")
    assert slug(name + "x") != made and (name.lower() == name or slug(name.lower()) != made)


def test_hostile_texts_are_shown_as_text_everywhere(tmp_path):
    game, states, moves = played("toothpicks", 2)
    hostile_reason = "strategy produced an error (ValueError: </script><script>window.__pwned=3</script>)"
    games = [site_game("g/1", (HOSTILE, "plain"), states, moves)]
    games.append(SiteGame("g/2", ("plain", HOSTILE), moves[:1], 0, hostile_reason, "error", 1, number=2))
    data = site("toothpicks", [HOSTILE, "plain"], games)
    publish(data, tmp_path / "site")
    pages = list((tmp_path / "site").rglob("*.html"))
    assert len(pages) == 2 + 2 + 2  # index, rules; two teams; two games
    for page in pages:
        text = page.read_text()
        assert "<img" not in text and "window.__pwned=1</script>" not in text and "<script>window" not in text
        assert "</script><script>" not in text
        assert all(s in ("", ' src="../static/replay.js"') for s in re.findall(r"<script([^>]*)>(?!</)", text)
                   if 'type="application/json"' not in s)
    index = (tmp_path / "site" / "index.html").read_text()
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=&#34;window.__pwned=2&#34;&gt;&amp;amp;" in index
    forfeit = next(p for p in pages if "g-2" in p.name)
    assert page_data(forfeit)["frames"][-1]["say"][-1] == hostile_reason


def test_only_what_a_new_game_changes_is_written_again(tmp_path):
    out = tmp_path / "site"
    games = []
    for number in range(1, 7):
        _game, states, moves = played("dfootball", number, {"n": 3})
        teams = ("ann", "bob") if number % 2 else ("bob", "cy")
        games.append(site_game(f"g/{number}", teams, states, moves, number))
    first = publish(site("dfootball", ["ann", "bob", "cy"], games[:5], {"n": 3}), out)
    assert len(first.written) == 2 + 3 + 5 * 2 + 4  # index, rules, three teams, five games and their records, static
    again = publish(site("dfootball", ["ann", "bob", "cy"], games[:5], {"n": 3}), out)
    assert again.written == [] and again.kept == len(first.written)
    added = publish(site("dfootball", ["ann", "bob", "cy"], games, {"n": 3}, updated="2025-03-03T11:00:00+00:00"), out)
    assert sorted(added.written) == sorted(["index.html", f"games/{slug('g/6')}.html", f"games/{slug('g/6')}.jsonl",
                                            f"teams/{slug('bob')}.html", f"teams/{slug('cy')}.html"])
    dropped = publish(site("dfootball", ["ann", "bob", "cy"], games[1:], {"n": 3}), out)
    assert dropped.removed == [f"games/{slug('g/1')}.html", f"games/{slug('g/1')}.jsonl"]
    assert not any((out / path).exists() for path in dropped.removed)
    (out / f"games/{slug('g/2')}.html").unlink()  # a page lost from the folder is made again
    assert f"games/{slug('g/2')}.html" in publish(site("dfootball", ["ann", "bob", "cy"], games[1:], {"n": 3}),
                                                  out).written


def test_each_replay_page_offers_its_game_as_a_record_that_arcade_replay_reads(tmp_path):
    """A replay page's download, written beside it (``OUT/games/<slug>.jsonl``), is the game as a
    record of one game: the records' one reader takes it, and its moves played through the rules
    on the game's own match variant (Robot Ludo's game 3 has Blue move first) end in its result; a
    forfeit keeps who forfeited and why. A game whose moves are withheld has no record to give."""
    import random

    from arcade.catalog import load
    from arcade.records.reader import RecordReader
    from arcade.records.referee import make_game
    from arcade.web.frames import states_of
    from games.base import random_playout

    options = {"preset": "contest"}
    third = load("ludo")(**options).match_variant(3)
    states = random_playout(third, third.initial_state(), random.Random(3))
    moves = tuple(third.move_text(before, after.event.move) for before, after in zip(states, states[1:]))
    games = [site_game("g/3", ("bob", "ann"), states, moves, number=3),
             SiteGame("g/4", ("ann", "bob"), moves[:7], 1, "ann's strategy produced an error", "error", 0, number=4)]
    out = tmp_path / "site"
    publish(site("ludo", ["ann", "bob"], games, options), out)
    for game in games:
        page = (out / "games" / f"{slug(game.key)}.html").read_text()
        href = re.search(r'<a href="([^"]+)" download id="record">', page).group(1)
        with RecordReader(out / "games" / href) as reader:
            [(_number, line)] = list(reader.games())
            rules = make_game(reader.header, href).match_variant(line["number"])
        assert reader.header["game"] == "ludo" and reader.header["options"]["starting"] == "red"  # game 1's, as the contest's
        assert (line["pair"], line["first"], line["number"], line["moves"]) == (list(game.sides), 0, game.number, list(game.moves))
        assert (line["winner"], line["forfeit"], line["reason"]) == (game.winner, game.forfeit, game.reason)
        replayed, problem = states_of(rules, line["moves"])
        assert not problem
        if game.forfeit is None:
            assert replayed[-1].result.winner == line["winner"] and line["plies"] == replayed[-1].ply
        else:
            assert line["termination"] == "error" and not replayed[-1].over
    assert states_of(make_game(reader.header, href), moves)[1]  # on game 1's variant the same moves are no game
    publish(site("ludo", ["ann", "bob"], [replace(game, withheld=True) for game in games], options), out)
    assert sorted(path.suffix for path in (out / "games").iterdir()) == [".html", ".html"]
    assert "download" not in (out / "games" / f"{slug('g/3')}.html").read_text()


def test_times_are_plain_words_without_the_pages_script(tmp_path):
    """A time is a ``<time>`` whose ``datetime`` and title are the exact time and whose text reads
    without the page's script, in UTC (``static/site.js`` writes it in words and local time);
    no raw ISO time is left in a page's text."""
    _game, states, moves = played("toothpicks", 5)
    data = site("toothpicks", ["ann", "bob"], [site_game("g/1", ("ann", "bob"), states, moves)])
    data.contest = replace(data.contest, closes="2020-01-01T00:00:00Z")
    out = tmp_path / "site"
    publish(data, out)
    index, team = (out / "index.html").read_text(), (out / "teams" / f"{slug('ann')}.html").read_text()
    assert '<time datetime="2025-03-03T10:00:00+00:00" title="2025-03-03T10:00:00+00:00">3 Mar 2025, 10:00 UTC</time>' in index
    assert '<time datetime="2020-01-01T00:00:00+00:00" title="2020-01-01T00:00:00+00:00">1 Jan 2020, 00:00 UTC</time>' in index
    assert "<li>Submissions close 1 Jan 2020, 00:00 UTC.</li>" in index
    assert '<td class="when"><time datetime="2025-03-01T10:00:00+00:00"' in team
    for page in (index, team):
        assert not re.search(r"\d\d:\d\d:\d\d", re.sub(r"<[^>]*>", "", page.split("</head>")[1]))
        assert '<script src="' in page and 'static/site.js"></script>' in page


def test_a_record_files_games_come_through_the_safe_reader(tmp_path, capsys):
    record = tmp_path / "m.jsonl"
    assert cli.main(["match", "hog", "always_roll_6", "always_roll_3", "--games", "3", "--seed", "5", "--record", str(record)]) == 0
    lines = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    got = list(games_from_record(record))
    assert [g.number for g in got] == [1, 2, 3]
    for game, line in zip(got, lines):
        assert list(game.moves) == line["moves"]
        players = ("always_roll_6", "always_roll_3")
        assert game.sides == (players if line["first"] == 0 else players[::-1])
        winner = None if line["winner"] is None else players[line["winner"]]
        assert (None if game.winner is None else game.sides[game.winner]) == winner
    with record.open("a") as handle:
        handle.write('{"stage": "match"}\n')
    damaged: list[str] = []
    assert len(list(games_from_record(record, damaged=damaged))) == 3 and "line 5" in damaged[0]
    with pytest.raises(Exception, match="line 5"):
        list(games_from_record(record))


def test_publish_says_what_is_wrong_in_one_line(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert cli.main(["contest", "publish", str(tmp_path / "none"), str(tmp_path / "out")]) == 2
    assert "holds no contest" in capsys.readouterr().err
    assert cli.main(["contest", "new", str(tmp_path / "c"), "--game", "toothpicks", "--sandbox", "none"]) == 0
    assert cli.main(["contest", "publish", str(tmp_path / "c"), str(tmp_path / "file")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
    assert cli.main(["contest", "publish", str(tmp_path / "c"), str(tmp_path / "out")]) == 0
    assert "No team has an accepted submission yet." in (tmp_path / "out" / "index.html").read_text()


def test_contest_run_publish_keeps_the_site_as_games_finish(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder, out = tmp_path / "c", tmp_path / "site"
    assert cli.main(["contest", "new", str(folder), "--game", "toothpicks", "--games", "1", "--sandbox", "none"]) == 0
    (tmp_path / "file").write_text("x")
    assert cli.main(["contest", "run", str(folder), "--publish", str(tmp_path / "file")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--publish" in err and "is not a folder" in err
    for team, answer in (("ann", "1"), ("bob", "min(2, left)"), ("cy", "2 if left % 3 == 2 else 1")):
        (tmp_path / f"{team}.py").write_text(f"def strategy(left):\n    return {answer}\n")
    assert cli.main(["contest", "submit", str(folder), "ann", str(tmp_path / "ann.py")]) == 0
    assert cli.main(["contest", "submit", str(folder), "bob", str(tmp_path / "bob.py")]) == 0
    assert cli.main(["contest", "run", str(folder), "--publish", str(out)]) == 0
    first = sorted(p.name for p in (out / "games").glob("*.html"))
    assert len(first) == 1
    capsys.readouterr()
    assert cli.main(["contest", "standings", str(folder), "--json"]) == 0
    assert json.loads((out / "standings.json").read_text())["standings"] == json.loads(capsys.readouterr().out)["standings"]
    old = (out / "games" / first[0]).stat().st_ino
    index = (out / "index.html").read_text()
    assert slug("ann") in index and slug("bob") in index and slug("cy") not in index
    assert cli.main(["contest", "submit", str(folder), "cy", str(tmp_path / "cy.py")]) == 0
    assert cli.main(["contest", "run", str(folder), "--publish", str(out)]) == 0
    assert len(list((out / "games").glob("*.html"))) == 3  # one game a pair: cy's two added
    assert (out / "games" / first[0]).stat().st_ino == old  # the old game's page not written again
    assert slug("cy") in (out / "index.html").read_text() and (out / "teams" / f"{slug('cy')}.html").is_file()
    assert sum(row["games"] for row in json.loads((out / "standings.json").read_text())["standings"]) == 6


def test_a_closing_stage_has_its_page_its_games_and_a_place_on_the_teams_pages(tmp_path):
    """Its page, its games by round, each named by its round and its place there ("first round ·
    game 3"), not by its number in its pair, which starts again at 1 with each pair."""
    from arcade.web.model import Closing

    games = []
    for seed, (stage, teams, number) in enumerate((("first round", ("ann", HOSTILE), 1), ("first round", (HOSTILE, "ann"), 2),
                                                   ("first round", ("bob", HOSTILE), 1), ("final", ("ann", "bob"), 1)), start=1):
        _game, states, moves = played("toothpicks", seed)
        games.append(replace(site_game(f"closing/{stage}/{seed}", teams, states, moves, number), stage=stage))
    rows = [dict(rank=1, team="ann", wins=2, draws=0, losses=1, games=3, forfeits=0, points=2, stage="final"),
            dict(rank=2, team=HOSTILE, wins=1, draws=0, losses=1, games=2, forfeits=0, points=1, stage="first round")]
    data = site("toothpicks", ["ann", "bob", HOSTILE], [])
    out = tmp_path / "site"
    publish(data, out)
    assert not (out / "closing.html").exists() and "closing.html" not in (out / "index.html").read_text()
    data.closing = Closing("groups", rows, games)
    report = publish(data, out)
    assert sorted(report.written) == sorted(["index.html", "rules.html", "closing.html", *(f"games/{slug(g.key)}.html" for g in games),
                                             *(f"games/{slug(g.key)}.jsonl" for g in games),
                                             *(f"teams/{slug(t)}.html" for t in ("ann", "bob", HOSTILE))])
    page = (out / "closing.html").read_text()
    table = page.split('id="closing-standings"')[1].split("</table>")[0]
    assert re.findall(r'<td class="team"><a [^>]*href="teams/([^"]+)\.html"', table) == [slug("ann"), slug(HOSTILE)]
    assert HOSTILE not in page and "&lt;script&gt;window.__pwned=1" in page
    assert [name for name in re.findall(r"<h2>([^<]+) <span", page)] == ["first round", "final"]
    assert all(f"games/{slug(g.key)}.html" in page for g in games)
    assert re.findall(r'<td class="round-game"><a href="games/([^"]+)\.html"[^>]*>([^<]+)</a>', page) == [
        (slug(games[0].key), "game 1"), (slug(games[1].key), "game 2"), (slug(games[2].key), "game 3"),
        (slug(games[3].key), "game 1")]
    team = (out / "teams" / f"{slug('bob')}.html").read_text()
    assert 'id="closing-games"' in team and f"games/{slug(games[3].key)}.html" in team
    assert re.findall(r'<td class="round-game"><a href="[^"]+">([^<]+)</a>', team) == ["first round · game 3", "final · game 1"]
    final = (out / "games" / f"{slug(games[3].key)}.html").read_text()
    assert "<title>ann vs bob · final · game 1 · " in final and ">Final · game 1 · closing stage · " in final
    assert 'href="closing.html"' in (out / "index.html").read_text()


def test_a_contests_closing_stage_is_published_by_team(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder, out = tmp_path / "c", tmp_path / "site"
    assert cli.main(["contest", "new", str(folder), "--game", "toothpicks", "--games", "2", "--sandbox", "none"]) == 0
    path = folder / "contest.toml"
    path.write_text(path.read_text().replace('closing_stage = ""', 'closing_stage = "groups"'))
    for team, answer in (("ann", "1"), ("bob", "min(2, left)"), ("cy", "2 if left % 3 == 2 else 1")):
        (tmp_path / f"{team}.py").write_text(f"def strategy(left):\n    return {answer}\n")
        assert cli.main(["contest", "submit", str(folder), team, str(tmp_path / f"{team}.py")]) == 0
    path.write_text(path.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))
    assert cli.main(["contest", "run", str(folder), "--publish", str(out)]) == 0
    closing = json.loads((folder / "closing.json").read_text())
    page = (out / "closing.html").read_text()
    shown = re.findall(r'<td class="team"><a [^>]*href="teams/([^"]+)\.html"', page.split('id="closing-standings"')[1])
    assert shown[:3] == [slug(row["team"]) for row in closing["standings"]]
    lines = (folder / "records" / "closing.jsonl").read_text().splitlines()[1:]
    finals = [p for p in (out / "games").glob("*.html") if p.name.startswith("closing-")]
    assert len(finals) == len(lines) > 0
    # each game's page named by its round and teams (not the submissions' paths: the same wherever the folder is)
    assert all(re.fullmatch(r"closing-[a-z-]+-(ann|bob|cy)-(ann|bob|cy)-[12]-[0-9a-f]{10}\.html", p.name) for p in finals)
    assert 'id="closing-games"' in (out / "teams" / f"{slug('cy')}.html").read_text()


@pytest.mark.parametrize("allowed", [False, True])
async def test_arcade_serve_offers_no_file_bot_nor_tournament_unless_allowed(allowed):
    from textual.widgets import Select

    from arcade.app import ArcadeApp
    from arcade.screens.setup import FILE, SetupScreen
    from arcade.web.serve import announcement, command

    app = ArcadeApp(allow_file_bots=allowed)
    async with app.run_test(size=(80, 24)) as pilot:
        assert bool(app.screen.check_action("tournament", ())) is allowed
        await app.push_screen(SetupScreen(CATALOG["toothpicks"], choices=("mine.py:strategy", "perfect")))
        await pilot.pause()
        side = app.screen.query_one("#side-0", Select)
        assert (FILE in [value for _prompt, value in side._options]) is allowed
        assert (side.value == FILE) is allowed
    assert ("--allow-file-bots" in command(allowed)) is allowed
    said = announcement("127.0.0.1", 8000, allowed)
    assert "loopback only" in said and ("are ON" if allowed else "are off") in said
    assert "loopback" not in announcement("0.0.0.0", 8000, allowed).split("\n")[0].split(",")[1]


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_arcade_serve_keeps_its_page_template_only_while_it_runs(tmp_path, stop):
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    temp = tmp_path / "tmp"
    temp.mkdir()
    server = subprocess.Popen([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "serve",
                               "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "TMPDIR": str(temp), "COLUMNS": "200"})
    try:
        assert "listening at" in server.stdout.readline()
        made = list(temp.iterdir())
        assert [p.name[:13] for p in made] == ["arcade-serve-"] and (made[0] / "app_index.html").is_file()
        start = time.monotonic()
        while True:  # the page is served from it, without the font link to elsewhere
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read().decode()
                break
            except OSError:
                assert time.monotonic() - start < 60, "the page was not served"
                time.sleep(0.2)
        assert "fonts.googleapis" not in page and "Contest Arcade" in page
        assert '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />' in page
        for name in ("favicon.svg", "favicon.ico"):  # served: not a 404 in the server's log
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}", timeout=30) as icon:
                assert icon.headers["Content-Type"] == "image/svg+xml" and icon.read().startswith(b"<svg")
        server.send_signal(getattr(signal, stop))
        assert server.wait(60) == 0
    finally:
        server.kill()
        server.communicate()
    assert list(temp.iterdir()) == []  # removed when it stopped


def test_a_dealt_games_moves_are_published_once_the_contest_closes(tmp_path, capsys, monkeypatch):
    """A season deals game k of every pair the same dice (``arcade.seeds.season_rngs``): while the
    contest is open, a Robot Ludo game's page gives its result, not its moves (a later submission
    would read its own dice there); once it closes, the replay. A game without dice is shown at once."""
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder, out = tmp_path / "c", tmp_path / "site"
    assert cli.main(["contest", "new", str(folder), "--preset", "robot-ludo", "--games", "2", "--sandbox", "none",
                     "--option", "preset=notebook"]) == 0
    for team, pick in (("ann", "0"), ("bob", "-1")):
        (tmp_path / f"{team}.py").write_text(f"from state import getmoves\n\ndef engine(board, turn, roll):\n"
                                             f"    return getmoves(board, turn, roll)[{pick}]\n")
        assert cli.main(["contest", "submit", str(folder), team, str(tmp_path / f"{team}.py")]) == 0
    assert cli.main(["contest", "run", str(folder), "--publish", str(out)]) == 0
    pages = sorted((out / "games").iterdir())
    assert len(pages) == 2
    for page in pages:
        text = page.read_text()
        assert "published when the contest closes" in text and 'id="replay-data"' not in text
    toml = folder / "contest.toml"
    toml.write_text(toml.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))
    assert cli.main(["contest", "publish", str(folder), str(out)]) == 0
    for page in pages:
        text = page.read_text()
        assert "published when the contest closes" not in text and 'id="replay-data"' in text
