"""Class-scale tournaments: game records that resume after a kill, the same standings on one
process, two, or a Dask cluster, and the plan printed before anything is played."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arcade.catalog import load
from arcade.records.log import RecordLog
from arcade.records.schema import RecordError
from arcade.tournament.formats import TournamentError
from arcade.tournament.runner import run_tournament
from games.base import CHANCE
from tests.paths import ROOT

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


def slow_bot(tmp_path: Path) -> str:
    """A file bot that takes 15 ms a move (so that a tournament is still running when killed)."""
    folder = tmp_path / "slow"
    folder.mkdir(exist_ok=True)
    (folder / "slow.py").write_text("import time\n\ndef strategy(left):\n    time.sleep(0.015)\n    return 1\n")
    return f"{folder / 'slow.py'}:strategy"


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_record_holds_every_game_and_its_moves_replay_to_the_result(tmp_path):
    record = tmp_path / "t.jsonl"
    result = run_tournament("hog", ["always_roll_4", "always_roll_6", "optimal"], games=4, seed=2, record=record)
    header, *games = lines(record)
    assert header["record"] == "contest-arcade record 1" and header["bots"] == ["always_roll_4", "always_roll_6",
                                                                                "optimal"]
    assert header["seed"] == 2 and header["games_per_pair"] == 4
    assert len(games) == 12 and len({(g["stage"], *g["pair"], g["number"]) for g in games}) == 12
    hog = load("hog")()
    for game in games:
        state = hog.match_variant(game["number"]).initial_state()
        choices = 0
        for text in game["moves"]:
            choices += state.to_move != CHANCE
            state = hog.play(state, hog.parse_move(state, text))
        assert state.over and state.result.reason == game["reason"]
        assert len(game["times"]) == choices and all(t >= 0 for t in game["times"])  # one per bot move
    wins = {s.bot: s.wins for s in result.standings}
    assert sum(wins.values()) == sum(g["winner"] is not None for g in games)


def test_a_killed_tournament_resumes_to_the_standings_of_an_uninterrupted_one(tmp_path):
    """SIGKILL in the middle, then the same command with the same file: no game is played twice and
    the standings are those of a run that was never interrupted."""
    slow = slow_bot(tmp_path)
    record = tmp_path / "run.jsonl"
    args = ["tournament", "toothpicks", "perfect", "always_1", slow, "random", "--games", "12", "--seed", "9",
            "--jobs", "2", "--json", "--record", str(record)]
    process = subprocess.Popen([*CLI, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if record.exists() and len(record.read_text().splitlines()) > 20:
                break
            time.sleep(0.02)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    kept = len(record.read_text().splitlines()) - 1
    assert 20 <= kept < 72  # killed in the middle (6 pairs × 12 games)
    with open(record, "a") as handle:  # a line cut short by the kill
        handle.write('{"stage": "round robin", "pair": ["perfect", "al')
    done = subprocess.run([*CLI, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    resumed = json.loads(done.stdout)
    games = lines(record)[1:]
    keys = [(g["stage"], *g["pair"], g["number"]) for g in games]
    assert len(keys) == len(set(keys)) == 72
    whole = run_tournament("toothpicks", ["perfect", "always_1", slow, "random"], games=12, seed=9, jobs=1)
    assert resumed["standings"] == whole.as_json()["standings"]
    assert resumed["pairs"] == whole.as_json()["pairs"]


def test_a_record_of_another_run_is_refused_with_the_difference(tmp_path):
    record = tmp_path / "r.jsonl"
    run_tournament("toothpicks", ["perfect", "random"], games=2, seed=1, record=record)
    with pytest.raises(TournamentError, match="its games_per_pair is 2, not 4"):
        run_tournament("toothpicks", ["perfect", "random"], games=4, seed=1, record=record)
    done = subprocess.run([*CLI, "tournament", "toothpicks", "perfect", "random", "--games", "2", "--seed", "5",
                           "--record", str(record)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "its seed is 1, not 5" in done.stderr and "Traceback" not in done.stderr
    (tmp_path / "other.txt").write_text("hello\n")
    with pytest.raises(RecordError, match="not a record file"):
        RecordLog(tmp_path / "other.txt", {"kind": "match"})


def test_without_a_seed_a_resumed_record_keeps_its_secret_seed(tmp_path):
    record = tmp_path / "m.jsonl"
    base = [*CLI, "match", "hog", "always_roll_4", "always_roll_6", "--games", "6", "--json", "--record", str(record)]
    first = json.loads(subprocess.run(base, cwd=ROOT, capture_output=True, text=True, timeout=60).stdout)
    again = json.loads(subprocess.run(base, cwd=ROOT, capture_output=True, text=True, timeout=60).stdout)
    assert first["seed_was_secret"] and again["seed"] == first["seed"] and again["wins"] == first["wins"]
    assert len(lines(record)) == 7  # the header and six games, none twice


def test_the_plan_says_how_many_games_and_how_long_without_playing(tmp_path):
    record = tmp_path / "never.jsonl"
    done = subprocess.run([*CLI, "tournament", "othello", "greedy", "random", "alphabeta-0.1s", "--games", "2",
                           "--plan", "--jobs", "2", "--record", str(record)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "3 pairs × 2 games = 6 games" in done.stdout and "processes playing: 2 (--jobs)" in done.stdout
    assert not record.exists()
    # each bot at its own clock: alphabeta-0.1s 0.1 s a move, greedy and random at once; alphabeta
    # at the game's 10 s. About 60 moves a game, half each side's.
    quick = subprocess.run([*CLI, "tournament", "othello", "greedy", "alphabeta-0.1s", "--games", "2", "--plan"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    slow = subprocess.run([*CLI, "tournament", "othello", "greedy", "alphabeta", "--games", "2", "--plan"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "at most 6.6 s if every move" in quick.stdout, quick.stdout
    assert "at most 10 min if every move" in slow.stdout, slow.stdout


def test_the_plan_refuses_a_file_bot_that_cannot_load_and_runs_none_of_its_code(tmp_path):
    def plan(bot: str) -> subprocess.CompletedProcess:
        return subprocess.run([*CLI, "tournament", "othello", "greedy", bot, "--games", "2", "--plan"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)

    broken = tmp_path / "broken.py"
    broken.write_text("def get_move(board, player):\n    return (3, 2\n")
    marker = tmp_path / "ran"
    fine = tmp_path / "fine.py"  # valid Python whose import would leave a mark
    fine.write_text(f"open({str(marker)!r}, 'w').close()\n\ndef get_move(board, player):\n    return None\n")
    refused = {
        str(tmp_path / "missing.py"): "no such file",
        str(broken): "not valid Python (line 2)",
        f"{fine}:2x": "'2x' is not a function: write a name, or Class(arguments).method",
    }
    for bot, reason in refused.items():
        done = plan(bot)
        assert done.returncode == 2 and reason in done.stderr, (bot, done.stderr)
        assert "games" not in done.stdout
    done = plan(str(fine))
    assert done.returncode == 0 and "1 pair × 2 games = 2 games" in done.stdout, done.stderr
    assert not marker.exists()  # the plan reads the file; it never runs it outside the sandbox


def test_the_same_seed_gives_the_same_standings_on_a_dask_cluster(tmp_path):
    import distributed  # part of .[test]
    slow = slow_bot(tmp_path)  # a file bot: its files travel with the games
    bots = ["perfect", "always_1", "random", slow]
    one = run_tournament("toothpicks", bots, games=10, seed=4, jobs=1).as_json()
    two = run_tournament("toothpicks", bots, games=10, seed=4, jobs=2).as_json()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        record = tmp_path / "cluster.jsonl"
        on_cluster = run_tournament("toothpicks", bots, games=10, seed=4, cluster=cluster.scheduler_address,
                                    record=record).as_json()
    assert one == two == on_cluster
    assert len(lines(record)) == 1 + 6 * 10


def test_a_cluster_that_cannot_be_reached_is_one_line():
    done = subprocess.run([*CLI, "tournament", "toothpicks", "perfect", "random", "--games", "2",
                           "--cluster", "tcp://127.0.0.1:9"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr
    assert "Traceback" not in done.stderr


def test_replay_lists_a_records_games_and_refuses_what_it_cannot_open(tmp_path):
    record = tmp_path / "h.jsonl"
    run_tournament("hog", ["always_roll_4", "always_roll_6"], games=3, seed=1, record=record)
    done = subprocess.run([*CLI, "replay", str(record)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "3 games: arcade replay" in done.stdout
    assert "round robin · game 2: always_roll_6 vs always_roll_4" in done.stdout
    for args, words in [([str(record), "9"], "holds games 1 to 3, not 9"),
                        ([str(tmp_path / "none.jsonl")], "cannot read"),
                        ([str(ROOT / "README.md")], "is not a record file")]:
        done = subprocess.run([*CLI, "replay", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


def test_two_students_files_of_one_name_are_told_apart_in_the_replay_list_and_on_the_site(tmp_path):
    """Every CS 61A hand-in is a hog.py: the replay list and the site name each player as the
    match table does (``alice/hog.py``, ``bob/hog.py``), by the one rule ``records.reader.namer``."""
    from arcade.records.reader import RecordReader, describe, namer
    from arcade.web.model import games_from_record

    for team, rolls in (("alice", 4), ("bob", 6)):
        (tmp_path / team).mkdir()
        (tmp_path / team / "hog.py").write_text(f"def final_strategy(score, opponent_score):\n    return {rolls}\n")
    record = tmp_path / "h.jsonl"
    bots = [str(tmp_path / "alice" / "hog.py"), str(tmp_path / "bob" / "hog.py")]
    run_tournament("hog", bots, games=2, seed=1, record=record)
    done = subprocess.run([*CLI, "replay", str(record)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "game 1: alice/hog.py vs bob/hog.py" in done.stdout
    assert "game 2: bob/hog.py vs alice/hog.py" in done.stdout and "hog.py vs hog.py" not in done.stdout
    site = list(games_from_record(record))
    assert [game.sides for game in site] == [("alice/hog.py", "bob/hog.py"), ("bob/hog.py", "alice/hog.py")]
    with RecordReader(record) as reader:
        player = namer(reader.header, {bots[1]: "Team Bob"})
        line = next(line for _number, line in reader.games())
    assert describe(line, player) == f"round robin · game 1: alice/hog.py vs Team Bob · {line['reason']}"


async def test_a_recorded_game_steps_through_on_its_board(tmp_path):
    from textual.widgets import Static

    from arcade.catalog import CATALOG
    from arcade.records.reader import read_games
    from arcade.screens.replay import ReplayScreen
    from tests.conftest import make_app, settle

    record = tmp_path / "o.jsonl"
    run_tournament("othello", ["greedy", "random"], games=1, seed=3, record=record)
    header, (line,) = read_games(record)
    game = load("othello")(**header["options"])
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(CATALOG["othello"], game, ("greedy", "random"), line["moves"], "a replay")
        await app.push_screen(screen)
        await settle(pilot)
        assert screen.position == 0 and screen.board.state.ply == 0
        await pilot.press("right", "right", "right")
        assert screen.position == 3 and screen.board.state == screen.states[3]
        assert "move 3 of" in str(screen.query_one("#side-panel").render())
        await pilot.press("end")
        final = screen.states[-1]
        assert final.over and final.result.reason == line["reason"] and screen.board.state == final
        assert "wins!" in str(screen.query_one("#result-banner", Static).render()) or "Draw" in str(
            screen.query_one("#result-banner", Static).render())
        await pilot.press("right")  # nothing after the end: a bell, no error
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("q")
        await settle(pilot)
        assert app.screen is not screen


async def test_a_game_saved_from_the_screen_replays_to_the_same_position(tmp_path, monkeypatch):
    from arcade.records.reader import read_games
    from tests.conftest import make_app, open_game, settle

    monkeypatch.setenv("ARCADE_GAMES", str(tmp_path / "games"))
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_game(pilot, "toothpicks", ("human", "perfect"))
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        (path,) = (tmp_path / "games").glob("toothpicks-*.jsonl")
        assert any("Game saved" in (n.title or "") for n in app._notifications)
        header, (line,) = read_games(path)
        assert header["kind"] == "game" and header["finished"] is False and line["reason"] == "not finished"
        game = load("toothpicks")(**header["options"])
        state = game.initial_state()
        for text in line["moves"]:
            state = game.play(state, game.parse_move(state, text))
        assert state == screen.state and line["pair"] == ["Human", "perfect"]
    done = subprocess.run([*CLI, "replay", str(path), "5"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "holds games 1 to 1, not 5" in done.stderr


@pytest.mark.parametrize("kind,memory,limits", [
    ("match", 1024, {"time": None, "grace": None, "memory": 1 << 30, "sandbox": "auto"}),
    ("match", 0, {"time": None, "grace": None, "memory": None, "sandbox": "auto"}),
    ("tournament", 5 << 20, {"time": None, "grace": None, "memory": 5 << 20, "sandbox": "auto"}),
    ("tournament", 0, {"time": None, "grace": None, "memory": None, "sandbox": "auto"}),
    ("tournament", None, {"time": None, "grace": None, "memory": 1 << 30, "sandbox": "auto"}),
])
def test_a_record_made_before_limits_is_the_same_run(tmp_path, kind, memory, limits):
    """Old headers held time_limit, memory (a match's MiB, a tournament's bytes; 0 no cap) and
    sandbox; the run they describe resumes from them."""
    from arcade.records.schema import upgrade

    run = {"kind": kind, "game": "hog", "options": {}, "bots": ["always_roll_4", "always_roll_6"], "seed": 4}
    old = {"record": "contest-arcade record 1", **run, "time_limit": None, "memory": memory, "sandbox": "auto"}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old) + "\n")
    assert upgrade(old)["limits"] == limits and "memory" not in upgrade(old)
    with RecordLog(path, {**run, "limits": limits}) as log:
        assert log.games == {}
    with pytest.raises(RecordError, match="its limits is"):
        RecordLog(path, {**run, "limits": {**limits, "time": 2.0}})


def test_an_old_match_record_resumes_from_the_command_line(tmp_path):
    record = tmp_path / "m.jsonl"
    base = [*CLI, "match", "hog", "always_roll_4", "always_roll_6", "--games", "4", "--seed", "2", "--json"]
    whole = json.loads(subprocess.run(base, cwd=ROOT, capture_output=True, text=True, timeout=60).stdout)
    subprocess.run([*base[:-1], "--games", "2", "--record", str(record)], cwd=ROOT, capture_output=True, timeout=60)
    header, *games = lines(record)
    header = {k: v for k, v in header.items() if k != "limits"}
    header.update(games=4, time_limit=None, memory=1024, sandbox="auto")  # as the arcade wrote them before
    record.write_text("".join(json.dumps(line) + "\n" for line in [header, *games]))
    resumed = subprocess.run([*base, "--record", str(record)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["wins"] == whole["wins"] and len(lines(record)) == 5


def tagged(tag: str) -> set[int]:
    """Processes (not zombies) whose environment holds ``tag``: a run's helpers and workers."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if tag.encode() in (entry / "environ").read_bytes() and (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX":
                found.add(int(entry.name))
        except OSError:
            pass
    return found


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                children = [int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split()]
                todo += [c for c in children if c not in found]
                found.update(children)
        except OSError:
            pass
    return found


def living(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX":
                alive.add(pid)
        except OSError:
            pass
    return alive


def test_a_tournament_killed_with_sigkill_leaves_no_process_behind(tmp_path):
    """kill -9 of ``arcade tournament … --jobs 2 --record …`` alone (not its group): its pool
    workers, the forkserver, the resource tracker and the bots the workers started (sandboxed
    or not) all end within seconds."""
    import uuid

    tag = f"ARCADE_TEST_TAG={uuid.uuid4().hex}"
    slow = slow_bot(tmp_path)
    record = tmp_path / "run.jsonl"
    args = ["tournament", "toothpicks", "perfect", slow, "always_1", "random", "--games", "400", "--seed", "9",
            "--jobs", "2", "--json", "--record", str(record)]
    env = dict(os.environ, ARCADE_TEST_TAG=tag.split("=", 1)[1])
    process = subprocess.Popen([*CLI, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            seen |= descendants(process.pid)
            if record.exists() and len(record.read_text().splitlines()) > 5:
                break
            time.sleep(0.05)
        for _ in range(10):  # the bots' processes of both workers
            seen |= descendants(process.pid)
            time.sleep(0.05)
        seen |= tagged(tag)
        assert len(seen) >= 4, seen  # two workers, the forkserver, the tracker (and bots)
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (living(seen) or tagged(tag)):
        time.sleep(0.1)
    left = living(seen) | tagged(tag)
    for pid in left:  # clean up before failing
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    assert not left, [Path(f"/proc/{pid}/cmdline").read_bytes()[:80] for pid in left if Path(f"/proc/{pid}").exists()]


def interrupted_run(tmp_path: Path, run: str, ready) -> tuple[str, int]:
    """A ``run`` (match or tournament) of 40 Othello games with a record, sent SIGINT (Ctrl+C) once
    ``ready(record)`` holds: what it said on stderr, and the seed its record holds. Its SIGINT is
    at the default, as a terminal's program's is, whatever the test runner's was: a background
    job's is ignored and a child inherits that (a CI started in the background once saw these
    runs play on through the signal)."""
    import signal
    import time

    record = tmp_path / "r.jsonl"
    bots = ["greedy", "alphabeta-0.1s"] if run == "match" else ["greedy", "random", "alphabeta-0.1s"]
    process = subprocess.Popen([*CLI, run, "othello", *bots, "--games", "40", "--record", str(record),
                                *(["--jobs", "1"] if run == "tournament" else [])],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not ready(record):
        time.sleep(0.002)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    return err, json.loads(record.read_text().splitlines()[0])["seed"]


@pytest.mark.parametrize("run", ["match", "tournament"])
def test_ctrl_c_at_any_moment_after_the_record_holds_the_seed_says_it(tmp_path, run):
    """Ctrl+C once the record's header (and its secret seed) is written but before a game is
    played (the bots still being admitted) says the seed too: the record alone cannot replay the
    run without it. (Once only ``arcade: interrupted`` was said there, and an interrupt without
    any words said ``arcade: `` and nothing.)"""
    err, seed = interrupted_run(tmp_path, run, lambda record: record.exists() and record.read_text().endswith("\n"))
    assert f"arcade: interrupted; secret seed {seed}: replay this {run} with --seed {seed}" in err, err


@pytest.mark.parametrize("run", ["match", "tournament"])
def test_ctrl_c_says_the_secret_seed_and_how_to_go_on(tmp_path, run):
    """Interrupted (Ctrl+C: SIGINT), a run with a secret seed says it, and how to resume its
    record: the games so far cannot be replayed or resumed without it."""
    err, seed = interrupted_run(tmp_path, run, lambda record: record.exists()
                                and len(record.read_text().splitlines()) >= 2)
    record = tmp_path / "r.jsonl"
    assert f"arcade: interrupted; secret seed {seed}: replay this {run} with --seed {seed}" in err
    assert f"run it again with --record {record} to go on" in err
