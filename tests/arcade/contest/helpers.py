"""What the contest's tests share: bots written as STATS 306 students wrote them, and the command line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from arcade import cli
from arcade.records.reader import RecordError, read_games
from tests.paths import ROOT

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]

BOTS = {
    "far": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[-1]\n",
    "near": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[0]\n",
    "lucky": "import random\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
             "    return random.choice(valid_moves(game))\n",
    "middle": "from games.dfootball import valid_moves\n\ndef strategy(game):\n"
              "    moves = valid_moves(game)\n    return moves[len(moves) // 2]\n",
    "careless": "from games.dfootball import valid_moves\n\ncalls = 0\n\ndef strategy(game):\n    global calls\n"
                "    calls += 1\n    if calls % 9 == 8:\n        raise ValueError('oops')\n    return valid_moves(game)[-1]\n",
    "slow": "import time\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
            "    time.sleep(0.004)\n    return valid_moves(game)[-1]\n",
    "broken": "def strategy(game):\n    raise ValueError('nope')\n",
}


def bot(folder: Path, name: str) -> str:
    """The path of bot ``name`` (``BOTS``) written into ``folder/name/``."""
    where = folder / "bots" / name
    where.mkdir(parents=True, exist_ok=True)
    (where / f"{name}.py").write_text(BOTS[name])
    return str(where / f"{name}.py")


def arcade(*args: str) -> int:
    return cli.main(list(args))


def records(folder: Path, running: bool = False) -> dict[tuple, dict]:
    """Every game line of the pairs' records, by pair and number, without its times, read as the
    arcade reads them (``read_games``: whole lines only, so a line a running contest is writing,
    or one a SIGKILL cut short, is not a game yet). ``running``: the contest may be making a
    record file now, so one without its header yet is skipped."""
    found = {}
    for path in (folder / "records").glob("*--*.jsonl"):
        try:
            _header, games = read_games(path)
        except RecordError:
            if running:
                continue
            raise
        for game in games:
            key = (*game["pair"], game["number"])
            assert key not in found, f"game {key} twice"
            found[key] = {k: v for k, v in game.items() if k not in ("times", "max_move_seconds")}
    return found


def kill_9_then_finish(folder: Path, moments: tuple[int, ...], logs: Path, must_reach: bool = True) -> None:
    """``arcade contest run FOLDER --jobs 2`` killed with SIGKILL (its whole process group) once
    the records hold each of ``moments`` games (or once it ends, where ``must_reach`` is false: a
    ladder's run may end between its rounds), then run to its end uninterrupted."""
    env = {**os.environ, "ARCADE_BOT_LOGS": str(logs)}
    for moment in moments:
        process = subprocess.Popen([*CLI, "contest", "run", str(folder), "--jobs", "2"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        try:
            deadline = time.monotonic() + 120
            while len(records(folder, running=True)) < moment and process.poll() is None:
                assert time.monotonic() < deadline, f"no {moment} games in 120 s"
                time.sleep(0.01)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        assert len(records(folder, running=True)) >= moment or not must_reach
    done = subprocess.run([*CLI, "contest", "run", str(folder)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
