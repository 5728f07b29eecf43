"""What is published of a contest is what a student may see (``arcade.contest.public``): a short
finished season of every preset, with a submission rejected for a load error and a bot that
forfeits with the machine's paths, host name and home folder in its message, is published; no
file of the contest's folder but ``secret`` holds the secret seed, and neither the site nor
``arcade contest standings --json``/``--csv`` holds a path of the machine, a log's place or its
host name, while the course's words stay and the instructor's own files keep every reason whole."""

from __future__ import annotations

import html
import json
import os
import re
import socket
from pathlib import Path

import pytest

from arcade.contest.public import LOG, Public
from arcade.seeds import closing_seed
from tests.arcade.contest.helpers import arcade
from tests.paths import ROOT

GREEDY = (ROOT / "examples" / "ours.py").read_text()
PRESETS = {
    # preset: (a good strategy's source, "{i}" its choice; the two good teams' choices; its function; its arguments)
    "stats306": ("from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[{i}]\n",
                 ("0", "-1"), "strategy", "game"),
    "cs4341": (GREEDY + "\n# {i}\n", ("alpha", "beta"), "strategy", "board, player"),
    "robot-ludo": ("from state import getmoves\n\ndef engine(board, turn, roll):\n    return getmoves(board, turn, roll)[{i}]\n",
                   ("0", "-1"), "engine", "board, turn, roll"),
    "cs61a-hog": ("def final_strategy(score, opponent_score):\n    return {i}\n", ("4", "6"), "final_strategy",
                  "score, opponent_score"),
    "toothpicks": ("def strategy(left):\n    return min({i}, left)\n", ("1", "2"), "strategy", "left"),
}
FORFEITS = '''
_good = {function}
COUNT = {count!r}


def {function}({arguments}):
    import os
    import socket

    calls = int(open(COUNT).read()) if os.path.exists(COUNT) else 0
    with open(COUNT, "w") as handle:
        handle.write(str(calls + 1))
    if calls >= 6:  # past the admission probe's six positions: every game's first move
        raise ValueError(f"gave up in {{__file__}} on {{socket.gethostname()}} in {{os.getcwd()}}, "
                         f"home {{os.path.expanduser('~')}}")
    return _good({arguments})
'''
"""A bot that passes the admission probe, then forfeits every move with the machine's paths, its
host name and the home folder in its error (its calls counted in a file: its processes come and go)."""


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    return tmp_path / "logs"


def hand_in(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / "hand-ins" / name / f"{name.split('-')[0]}.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    return str(path)


def private(tmp_path: Path, folder: Path, logs: Path) -> list[str]:
    """What the published texts must never hold: the contest's folder, the logs' folder, the home
    folder, pytest's temporary folders, the working folder (the forfeiting bot's message names it)."""
    return sorted({str(folder), str(folder.resolve()), str(logs), "/root", "/tmp/pytest", str(tmp_path),
                   os.path.expanduser("~") + "/", os.getcwd()} - {"/"})


def leaks(text: str, paths: list[str], secret: int) -> list[str]:
    found = [path for path in paths if path in text]
    if re.search(f"(?<!\\d){secret}(?!\\d)", text):
        found.append("the secret seed")
    host = socket.gethostname()
    if re.search(f"(?<![\\w.-]){re.escape(host)}(?![\\w-])", text):
        found.append(f"the host name {host!r}")
    return found


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_published_season_shows_what_a_student_may_see(tmp_path, preset, logs, capsys):
    folder, out = tmp_path / "c", tmp_path / "site"
    extra = ["--option", "goal=30"] if preset == "cs61a-hog" else ["--time-limit", "2"] if preset == "cs4341" else []
    assert arcade("contest", "new", str(folder), "--preset", preset, "--games", "2", "--sandbox", "none", *extra) == 0
    template, choices, function, arguments = PRESETS[preset]
    alpha, beta = (template.replace("{i}", choice) for choice in choices)
    hand_ins = [("alpha", alpha), ("beta", beta),
                ("gamma", "x = undefined_name\n\n" + alpha),  # fails to load: rejected
                ("delta", alpha + FORFEITS.format(function=function, arguments=arguments,
                                                  count=str(tmp_path / "delta-calls")))]
    if preset == "cs4341":  # a new player, so that the closing stage plays it against the original
        hand_ins.append(("alpha-new", template.replace("{i}", "alpha's new")))
    capsys.readouterr()
    for name, source in hand_ins:
        arcade("contest", "submit", str(folder), name.split("-")[0], hand_in(tmp_path, name, source))
    verdicts = capsys.readouterr().out
    assert verdicts.count("accepted: ") == len(hand_ins) - 1 and "rejected: " in verdicts, verdicts
    toml = folder / "contest.toml"
    toml.write_text(toml.read_text().replace('closes = ""', 'closes = "2020-01-01T00:00:00Z"'))  # replays shown
    assert arcade("contest", "run", str(folder), "--publish", str(out)) == 0
    capsys.readouterr()
    assert arcade("contest", "standings", str(folder), "--json") == 0
    board = capsys.readouterr().out
    assert arcade("contest", "standings", str(folder), "--csv") == 0
    table = capsys.readouterr().out
    secret = int((folder / "secret").read_text())

    # the contest's own files: the secret in none but secret, in digits or in bytes
    forms = (str(secret).encode(), secret.to_bytes(8, "big"), secret.to_bytes(8, "little"))
    holding = [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name != "secret"
               and any(form in p.read_bytes() for form in forms)]
    assert holding == []
    # the published texts: no secret, no path of the machine, no log's place, no host name
    paths = private(tmp_path, folder, logs)
    published = {str(p.relative_to(out)): p.read_text() for p in out.rglob("*") if p.is_file()}
    published |= {"standings --json": board, "standings --csv": table}
    assert {name: found for name, text in published.items() if (found := leaks(text, paths, secret))} == {}
    assert json.loads(published["standings.json"]) == json.loads(board)

    # the course's words are kept: the load failure and the forfeit, on the teams' pages
    gamma = html.unescape(next(text for name, text in published.items() if name.startswith("teams/gamma")))
    assert f"could not load gamma.py: NameError: name 'undefined_name' is not defined {LOG}" in gamma
    delta = html.unescape(next(text for name, text in published.items() if name.startswith("teams/delta")))
    assert "strategy produced an error (ValueError: gave up in delta.py on " in delta
    # the instructor's evidence keeps each reason whole: the log's place for the rejected submission
    rejected = [json.loads(line) for line in (folder / "submissions.jsonl").read_text().splitlines()]
    assert any(f"(details in {logs}" in line["reason"] for line in rejected if line["verdict"] == "rejected")

    if preset == "cs4341":  # the closing stage names its players by digests, its seed derived from the secret
        header = json.loads((folder / "records" / "closing.jsonl").read_text().splitlines()[0])
        assert header["seed"] == closing_seed(secret) != secret
        assert all(re.fullmatch("[0-9a-f]{64}", bot) for bot in header["bots"]) and header["challenges"]
        closing = json.loads(board)["closing"]
        assert {c["team"] for c in closing["challenges"]} == {"alpha"} and len(closing["standings"]) == 3
        assert "alpha (original)" in published["closing.html"]
        record = folder / "records" / "closing.jsonl"  # as an earlier arcade began it: the secret in its header
        lines = record.read_text().splitlines()
        record.write_text("\n".join([json.dumps(header | {"seed": secret}), *lines[1:]]) + "\n")
        assert arcade("contest", "run", str(folder)) == 2
        assert "was begun by an earlier arcade and holds the contest's secret seed: delete it, then run again" \
            in capsys.readouterr().err


def test_a_reasons_public_form_keeps_the_courses_words(tmp_path):
    digest = "3f" * 32
    public = Public([tmp_path / "c306", "/home/Jane Doe", tmp_path / "logs"], ["grader-7.cs.edu", "grader-7"],
                    1234567890123456789)
    kept = f"{tmp_path}/c306/submissions/{digest}"
    assert public.text(f"cannot load bot '{kept}/bot/strategy.py': could not load strategy.py: NameError: name 'x' "
                       f"is not defined (details in {tmp_path}/logs/strategy.strategy.bot-0123456789ab.log)") == \
        f"cannot load bot 'strategy.py': could not load strategy.py: NameError: name 'x' is not defined {LOG}"
    assert public.text(f"c306/submissions/{digest}/tdgammon/players/td.py:TDPlayer(color=0).make_a_move: no such "
                       "name") == "players/td.py:TDPlayer(color=0).make_a_move: no such name"  # its path in the hand-in
    assert public.text("Player 2 strategy produced an error (OSError: /home/Jane Doe/notes.txt, ~/.bashrc, "
                       "/usr/lib/python3/random.py)") == \
        "Player 2 strategy produced an error (OSError: notes.txt, .bashrc, random.py)"
    assert public.text("RuntimeError: on grader-7.cs.edu (grader-7) seeded 1234567890123456789") == \
        "RuntimeError: on (host) ((host)) seeded (secret)"
    for words in ("gamma played D 3: space occupied (Invalid move!)", "take 1/2 of them, and/or see https://a.edu/b/c",
                  "its table differs between two fresh processes: (19, 19) gave 4 in one, 10 in the other",
                  "grader-7"):  # a name alone is a team's: kept
        assert public.text(words) == words
    assert public.json({"team": "grader-7", "seed": 1234567890123456789, "why": [f"in {tmp_path}/c306/x", 2.5]}) == \
        {"team": "grader-7", "seed": None, "why": ["in x", 2.5]}
