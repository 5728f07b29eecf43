"""``arcade contest run``, ``standings``, ``status`` and ``rebuild``: exactly the missing games,
each pair's games the same whenever they are played, ``kill -9`` at several moments losing and
repeating nothing, the database made again from the records, and the STATS 306 board computed
again from the records alone."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from arcade.contest.db import Database
from arcade.contest.run import chunks, run
from arcade.contest.submit import submit
from tests.arcade.contest.helpers import arcade, bot, kill_9_then_finish, records


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def season(tmp_path: Path, teams: dict[str, str], games: int, *flags: str) -> Path:
    folder = tmp_path / "c"
    # a move's time far above the course's 100 ms: runs compared game by game must not differ by a
    # time forfeit that a busy machine caused in one of them
    assert arcade("contest", "new", str(folder), "--preset", "stats306", "--games", str(games),
                  "--time-limit", "10", *flags) == 0
    for team, name in teams.items():
        verdict = submit(folder, team, bot(tmp_path, name))
        assert verdict.accepted, verdict.line
    return folder


def board(folder: Path, capsys) -> dict:
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), "--json") == 0
    return json.loads(capsys.readouterr().out)


def test_the_tasks_are_exactly_the_missing_games_in_the_tournaments_chunks():
    tasks = chunks(0, "a", "b", 7, {1, 2, 5, 10, 11, 12, 13, 40}, 40)  # chunks of 10: 1-10, 11-20…
    assert [(t.first, t.games) for t in tasks] == [(1, 2), (5, 1), (10, 1), (11, 3), (40, 1)]
    assert chunks(0, "a", "b", 7, set(), 40) == []
    assert sum(t.games for t in chunks(3, "a", "b", 7, set(range(1, 101)), 100)) == 100


def test_a_resubmission_plays_only_its_new_pairs_and_the_board_counts_the_current_ones(tmp_path, capsys):
    folder = season(tmp_path, {"alice": "far", "bob": "near", "carol": "middle"}, 4, "--sandbox", "none")
    assert run(folder, say=lambda line: None) == 12
    assert run(folder, say=lambda line: None) == 0  # nothing missing: nothing played
    first = records(folder)
    assert submit(folder, "bob", bot(tmp_path, "lucky")).accepted
    assert run(folder, say=lambda line: None) == 8  # bob's new submission against alice and carol
    after = records(folder)
    assert len(after) == 20 and all(after[key] == game for key, game in first.items())
    rows = {row["team"]: row for row in board(folder, capsys)["standings"]}
    assert all(row["games"] == 8 for row in rows.values())
    with Database(folder) as db:
        assert sum(db.counts().values()) == 20


def test_a_pairs_games_are_the_same_on_one_process_or_two_whenever_played(tmp_path):
    folder = season(tmp_path, {"alice": "lucky", "bob": "middle", "carol": "careless"}, 6, "--sandbox", "none")
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    run(folder, say=lambda line: None)
    run(copy, jobs=2, say=lambda line: None)
    assert records(folder) == records(copy) and len(records(folder)) == 18
    assert any(game["forfeit"] is not None for game in records(folder).values())


def test_the_records_read_while_a_contest_writes_them_are_its_whole_games(tmp_path):
    """What the kill -9 test's watch reads while a run writes (``records(folder, running=True)``):
    a record file cut at any byte, its header included, gives the games of its whole lines and
    never fails (once it parsed a line the run was half-way through writing)."""
    folder = season(tmp_path, {"alice": "far", "bob": "near"}, 3, "--sandbox", "none")
    run(folder, say=lambda line: None)
    path = next((folder / "records").glob("*--*.jsonl"))
    data = path.read_bytes()
    whole = records(folder)
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    for cut in range(len(data) + 1):
        path.write_bytes(data[:cut])
        seen = records(folder, running=True)
        games = sum(end <= cut for end in ends[1:])  # the header's line, then a game a line
        assert len(seen) == games and all(whole[key] == game for key, game in seen.items())


def test_kill_9_at_several_moments_loses_nothing_and_plays_nothing_twice(tmp_path, capsys):
    folder = season(tmp_path, {"alice": "slow", "bob": "lucky", "carol": "middle"}, 16)
    whole = tmp_path / "whole"
    shutil.copytree(folder, whole)
    kill_9_then_finish(folder, (1, 9, 20, 33), tmp_path / "logs")
    run(whole, say=lambda line: None)
    assert records(folder) == records(whole) and len(records(whole)) == 48
    assert board(folder, capsys)["standings"] == board(whole, capsys)["standings"]
    with Database(folder) as db:
        assert sum(db.counts().values()) == 48


def test_rebuild_makes_the_database_again_from_the_records(tmp_path, capsys):
    folder = season(tmp_path, {"alice": "far", "bob": "lucky"}, 4, "--sandbox", "none")
    run(folder, say=lambda line: None)
    before = board(folder, capsys)
    (folder / "contest.db").write_bytes(b"this is no database" * 100)
    for suffix in ("-wal", "-shm"):
        (folder / f"contest.db{suffix}").unlink(missing_ok=True)
    assert arcade("contest", "standings", str(folder)) == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and f"arcade contest rebuild {folder}" in err and "Traceback" not in err
    path = next((folder / "records").glob("*--*.jsonl"))
    lines = path.read_text().splitlines()
    forged = json.loads(lines[2])
    forged["winner"] = 1 - forged["winner"] if forged["winner"] is not None else 0
    path.write_text("\n".join([*lines, json.dumps({**forged, "number": 9})]) + "\n")
    assert arcade("contest", "rebuild", str(folder)) == 0
    out = capsys.readouterr().out
    assert "left out:" in out and "line 6" in out and "database made again: 2 submissions, 4 games" in out
    assert board(folder, capsys) == before


def test_the_stats306_board_computed_again_from_the_records_alone(tmp_path, capsys):
    teams = {"alice": "far", "bob": "near", "carol": "lucky", "dave": "careless"}
    folder = season(tmp_path, teams, 6)
    run(folder, jobs=2, say=lambda line: None)
    current = {}
    for line in (folder / "submissions.jsonl").read_text().splitlines():
        entry = json.loads(line)
        if entry["verdict"] == "accepted":
            current[entry["team"]] = entry["digest"]
    team_of = {digest: team for team, digest in current.items()}
    wins = dict.fromkeys(current, 0)
    forfeits = dict.fromkeys(current, 0)
    games = dict.fromkeys(current, 0)
    for game in records(folder).values():
        for player, digest in enumerate(game["pair"]):
            games[team_of[digest]] += 1
            wins[team_of[digest]] += game["winner"] == player
            forfeits[team_of[digest]] += game["forfeit"] == player
    high = max(wins.values())
    expected = {team: (wins[team], games[team], forfeits[team],
                       6 if wins[team] == high else round(5 * wins[team] / high, 2)) for team in current}
    got = {row["team"]: (row["score"], row["games"], row["forfeits"], row["points"])
           for row in board(folder, capsys)["standings"]}
    assert got == expected and set(games.values()) == {18} and forfeits["dave"] > 0
    assert arcade("contest", "standings", str(folder), "--csv") == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0] == ["rank", "team", "score", "wins", "draws", "losses", "games", "forfeits", "points", "submitted"]
    assert [row[1] for row in table[1:]] == sorted(current, key=lambda t: (-wins[t], forfeits[t], t))


def test_points_follow_the_rules_text():
    from arcade.contest.standings import points

    assert points([1000, 800, 500]) == [6.0, 4.0, 2.5]  # the seed's table gives the top team 5: its text says 6
    assert points([3, 3, 0]) == [6.0, 6.0, 0.0] and points([0, 0]) == [0.0, 0.0] and points([4], "none") == [0.0]


def test_the_csv_is_safe_in_a_spreadsheet_and_status_says_what_is_left(tmp_path, capsys):
    folder = tmp_path / "c"
    arcade("contest", "new", str(folder), "--game", "toothpicks", "--games", "2", "--sandbox", "none")
    path = folder / "contest.toml"
    path.write_text(path.read_text().replace('team_names = "^[a-z_]+$"', 'team_names = "^[-a-z_]+$"'))
    for team in ("-cmd", "=sum"):
        tool = tmp_path / f"t{len(team)}.py"
        tool.write_text("def strategy(left):\n    return 1\n")
        submit(folder, team, str(tool))
    capsys.readouterr()
    assert arcade("contest", "status", str(folder)) == 0
    out = capsys.readouterr().out
    assert "submissions: 1 (1 accepted, 0 rejected)" in out  # =sum: refused, recorded nowhere and "games: 0 done, 0 missing" in out
    tool = tmp_path / "two.py"
    tool.write_text("def strategy(left):\n    return min(2, left)\n")
    submit(folder, "other", str(tool))
    assert arcade("contest", "status", str(folder)) == 0
    assert "games: 0 done, 2 missing" in capsys.readouterr().out
    run(folder, say=lambda line: None)
    assert arcade("contest", "standings", str(folder), "--csv") == 0
    cells = [row[1] for row in csv.reader(io.StringIO(capsys.readouterr().out))][1:]
    assert sorted(cells) == ["'-cmd", "other"]


def test_status_estimates_what_is_left_from_the_seasons_own_pace(tmp_path, capsys):
    """Before any game, ``status`` models a move as a share of its limit; once games are played it
    uses what they took (``DIR/pace.json``): the estimate for a new team's games is then within a
    few times of what the run takes (the bench holds it to 1.5x on a quiet machine)."""
    import re

    from arcade.contest.status import status_lines

    folder = tmp_path / "c"
    arcade("contest", "new", str(folder), "--preset", "stats306", "--games", "20", "--sandbox", "none")
    for name in ("far", "near", "middle"):
        submit(folder, name, bot(tmp_path, name))
    capsys.readouterr()
    assert "until games are played" in status_lines(folder)[-1]
    run(folder, say=lambda line: None)
    assert json.loads((folder / "pace.json").read_text())["batches"][0]["games"] == 60
    submit(folder, "lucky", bot(tmp_path, "lucky"))
    line = status_lines(folder)[-1]
    assert "s a game its last 60 games took" in line
    per_game = float(re.search(r"at the ([\d.e+-]+) s a game", line).group(1))
    assert re.search(r"about [\d.]+ (s|min|h) on one process", line)
    estimate = per_game * 60  # the new team's 3 pairs of 20 games
    run(folder, say=lambda line: None)
    last = json.loads((folder / "pace.json").read_text())["batches"][-1]
    assert last["games"] == 60
    took = last["seconds"] * last["jobs"]
    assert took / 3 < estimate < took * 3, (estimate, took)


@pytest.mark.parametrize("jobs", [1, 2])
def test_pairs_stream_to_the_workers_and_only_the_pairs_in_play_have_records_open(tmp_path, monkeypatch, jobs):
    """With a batch of one pair, the run still plays every pair in one stream (the next pairs
    asked as the workers run short, never waiting for a batch to end), at most a few records open
    at once, and the same games as a run that plays its pairs one batch at a time."""
    from arcade.contest import evidence, formats, run as running

    teams = {"alice": "far", "bob": "near", "carol": "middle", "dave": "lucky"}
    folder = season(tmp_path, teams, 8, "--sandbox", "none")
    plain = tmp_path / "plain"
    shutil.copytree(folder, plain)  # the same contest, its secret too
    run(plain, say=lambda line: None)  # batches of 32: every pair in one
    monkeypatch.setattr(formats, "BATCH", 1)
    monkeypatch.setattr(running, "STREAMED", 1)
    open_now, most = set(), [0]
    real_open, real_close_pair, real_close = evidence.PairLogs.open, evidence.PairLogs.close_pair, evidence.PairLogs.close

    def opening(self, a, b):
        open_now.add((a, b))
        most[0] = max(most[0], len(open_now))
        return real_open(self, a, b)

    def closing_pair(self, a, b):
        open_now.discard((a, b))
        return real_close_pair(self, a, b)

    def closing(self):
        open_now.clear()
        return real_close(self)

    monkeypatch.setattr(evidence.PairLogs, "open", opening)
    monkeypatch.setattr(evidence.PairLogs, "close_pair", closing_pair)
    monkeypatch.setattr(evidence.PairLogs, "close", closing)
    said: list[str] = []
    assert run(folder, jobs=jobs, say=said.append) == 6 * 8
    assert sum(line.startswith("played ") for line in said) == 1, said  # one stream, not six batches
    assert sum(line.startswith("playing ") for line in said) == 6
    assert most[0] <= 1 + running.STREAMED * 2 * max(1, jobs) + 2, most
    games = lambda where: {k: (v["winner"], v["moves"]) for k, v in records(where).items()}  # noqa: E731
    assert games(folder) == games(plain)
