"""CS4341 programs the arcade starts itself (``path/to/team/team:program``,
``bots.external.program``): a Python script, a shell script and a Java program play in the file
bots' sandbox, each game with a fresh copy of its folder, and are killed with everything they
started; faults forfeit in the referee's words; a hostile program writes nowhere outside.

The sandboxed cases skip without a working ``bwrap``, and fail if ``ARCADE_REQUIRE_SANDBOX`` is
set (``.ci/run`` sets it).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bots.external import cgroups, sandbox
from bots.external.specs import BadSpec, is_file_spec, is_program_spec, parse_spec, short_name
from tests.bots.external.programs import program
from tests.paths import ROOT

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None and os.environ.get("ARCADE_REQUIRE_SANDBOX"):
    raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
BWRAP = pytest.param("bwrap", marks=pytest.mark.skipif(PROBLEM is not None,
                                                       reason=f"the bwrap sandbox cannot run here: {PROBLEM}"))
MODES = ["none", BWRAP]


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))  # where an unsandboxed program's working copy goes
    (tmp_path / "tmp").mkdir()
    return folder


def match(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match",
                           "othello", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=os.environ.copy())


def played(*args: str) -> dict:
    done = match(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def log_text(logs: Path, name: str) -> str:
    (path,) = logs.glob(f"{name}.program.*.log")
    return path.read_text()


def digest_of(folder: Path) -> str:
    hasher = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        hasher.update(str(path.relative_to(folder)).encode() + b"\0")
        if path.is_file():
            hasher.update(path.read_bytes())
    return hasher.hexdigest()


# -- the spec ---------------------------------------------------------------------------------------

def test_a_program_is_named_by_its_executable(tmp_path):
    exe = program(tmp_path, "gamma")
    spec = f"{exe}:program"
    assert is_program_spec(spec) and is_file_spec(spec) and short_name(spec) == "gamma:program"
    assert parse_spec(spec, "othello") == (exe.resolve(), "program")
    assert not is_program_spec(f"{tmp_path}/bot.py:program")  # a Python function named program
    assert not is_program_spec("alphabeta") and not is_program_spec("program")


@pytest.mark.parametrize("case, words", [
    ("game", "programs play othello only"),
    ("name", "one word"),
    ("missing", "no program"),
    ("link", "no program"),
    ("text", "is no program"),
])
def test_what_is_no_program_is_one_clear_line(tmp_path, case, words):
    exe = program(tmp_path, "gamma")
    game = "dfootball" if case == "game" else "othello"
    if case == "name":
        exe = exe.rename(exe.with_name("two words"))
    elif case == "missing":
        exe = exe.with_name("nobody")
    elif case == "link":
        os.symlink(exe, exe.with_name("alias"))
        exe = exe.with_name("alias")
    elif case == "text":
        exe.write_text("print('no #! line')\n")
    with pytest.raises(BadSpec, match=words) as raised:
        parse_spec(f"{exe}:program", game)
    assert "\n" not in str(raised.value)


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), min_size=1, max_size=45))
def test_a_programs_name_is_one_word_or_refused(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("program")
    try:
        (folder / name).write_text("#!/bin/sh\n")
    except (OSError, ValueError):  # no file can have that name here: no program either
        assume(False)
    one_word = (len(name) <= 40 and not name.startswith("-")
                and all(c.isascii() and (c.isalnum() or c in "_-") for c in name))
    try:
        parse_spec(f"{folder / name}:program", "othello")
    except BadSpec as exc:
        assert not one_word and "one word" in str(exc)
    else:
        assert one_word and name.split() == [name]  # a move line, split on spaces, keeps it whole


# -- playing ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["python", "shell"])
def test_a_program_plays_a_match_a_fresh_copy_each_game(tmp_path, logs, mode, kind):
    exe = program(tmp_path / "students", "gamma", kind)
    before = digest_of(exe.parent)
    result = played(f"{exe}:program", "greedy", "--games", "2", "--seed", "3", "--sandbox", mode)
    assert result["games"] == 2 and result["forfeits"] == [0, 0], result["forfeit_reasons"]
    log = log_text(logs, "gamma")
    assert ("in the bwrap sandbox" if mode == "bwrap" else "NOT contained") in log
    assert log.count("gamma run 1") == 2 and "gamma run 2" not in log  # each game its own working folder
    assert log.count("gamma read: ") == 2 and ("WINS!" in log or "TIED" in log)  # told the end, by end_game
    assert digest_of(exe.parent) == before  # its folder is read, never written
    assert not list((tmp_path / "tmp").iterdir())  # no working copy left behind


FORFEITS = {
    "garbage": "garbage played Z 9: off the board (Invalid move!)",
    "binary": "binary's files failed: move_file holds bytes that are not UTF-8 text (Invalid move!)",
    "silent": "silent did not move within 1 s (Time out!)",
    "impostor": "move written under the name 'delta', not 'impostor' (Out-of-order move!)",
    "quitter": "quitter ended (status 3) without a move (Time out!)",
    "linker": "linker's files failed: move_file is a symbolic link, not followed (Invalid move!)",
    "killer": "killer broke off the game (its process ",  # its referee's, killed: how bwrap says it
}


@pytest.mark.parametrize("mode", [BWRAP])
@pytest.mark.parametrize("kind", list(FORFEITS))
def test_a_fault_forfeits_in_the_referees_words(tmp_path, mode, kind):
    exe = program(tmp_path, kind, kind)
    started = time.monotonic()
    result = played(f"{exe}:program", "greedy", "--games", "1", "--time-limit", "1", "--sandbox", mode)
    assert result["forfeits"] == [1, 0]
    (reason,) = result["forfeit_reasons"][0]
    side, said = reason.split(" ", 1)
    assert side in ("Blue", "Orange") and (said == FORFEITS[kind] or kind == "killer" and said.startswith(FORFEITS[kind]))
    assert time.monotonic() - started < 60  # a program that ended is not waited out


def test_a_program_that_cannot_start_is_one_line(tmp_path):
    exe = program(tmp_path, "gamma")
    exe.write_text("#!/no/such/interpreter\n")
    done = match(f"{exe}:program", "greedy", "--games", "1", "--sandbox", "none")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "cannot start gamma" in done.stderr
    assert not list((tmp_path / "tmp").iterdir())  # its working copy removed by its referee


HOSTILE = '''\
#!/usr/bin/env python3
import os, subprocess, sys, time
OUT = {outside!r}
for target in [OUT + "/escaped", "/bot/escaped", "/arcade/games/escaped", "/usr/escaped"]:
    try:
        with open(target, "w") as f:
            f.write("escaped")
        print("WROTE", target, flush=True)
    except OSError as exc:
        print("refused", target, exc.strerror, flush=True)
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "{mark}"], start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "{mark}"])
    os._exit(0)
try:
    with open("flood", "wb") as f:
        for _ in range(200):
            f.write(b"x" * (1 << 20))
except OSError as exc:
    print("flood stopped:", exc.strerror, flush=True)
os.remove("flood")
print("daemons started", flush=True)
while not os.path.exists("hostile.go"):
    time.sleep(0.02)
os.remove("move_file") if os.path.exists("move_file") else None
os.symlink(OUT + "/secret", "move_file")
time.sleep(60)
'''


@pytest.mark.parametrize("mode", [BWRAP])
def test_a_hostile_program_is_contained(tmp_path, logs, mode):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("hostile A 1")  # a move it would like the referee to read
    mark = f"hostile-mark-{os.getpid()}"
    exe = program(tmp_path / "students", "hostile")
    exe.write_text(HOSTILE.format(outside=str(outside), mark=mark))
    result = played(f"{exe}:program", "greedy", "--games", "1", "--time-limit", "2", "--sandbox", mode)
    (reason,) = result["forfeit_reasons"][0]
    assert "move_file is a symbolic link, not followed (Invalid move!)" in reason
    log = log_text(logs, "hostile")
    assert "daemons started" in log and "WROTE" not in log and log.count("refused") == 4
    assert "flood stopped: No space left on device" in log  # its /tmp, a small tmpfs
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]
    deadline = time.monotonic() + 10
    while subprocess.run(["pgrep", "-f", mark], capture_output=True).returncode == 0:
        assert time.monotonic() < deadline, "a daemon the program started outlived its game"
        time.sleep(0.1)


@pytest.mark.parametrize("mode", [BWRAP])
def test_a_java_program_plays_in_the_sandbox(tmp_path, logs, mode):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("no JDK here (javac): apt install default-jdk-headless")
    if "one budget" not in cgroups.memory_mode("bwrap", cgroups.BotCgroup(memory=1 << 30)):
        pytest.skip("a JVM's threads need the sandbox's one process budget (a memory cgroup)")
    folder = tmp_path / "students" / "delta"
    folder.mkdir(parents=True)
    (folder / "Main.java").write_text(JAVA)
    subprocess.run(["javac", "Main.java"], cwd=folder, check=True, timeout=120)
    (folder / "Main.java").unlink()
    exe = folder / "delta"
    exe.write_text('#!/bin/sh\ncd "$(dirname "$0")" || exit 1\nexec java -Xmx256m -XX:+UseSerialGC '  # README's
                   '-XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m -cp . Main delta\n')
    result = played(f"{exe}:program", "greedy", "--games", "1", "--sandbox", mode)
    assert result["games"] == 1 and result["forfeits"] == [0, 0], result["forfeit_reasons"]
    assert "delta read: " in log_text(logs, "delta")


JAVA = '''\
import java.nio.file.*;

/** A CS4341 program in Java: the first legal move, column by column, through the referee's files. */
public class Main {
    static char[][] board = new char[8][8];
    static final String COLUMNS = "ABCDEFGH";

    static int flips(char me, int c, int r, boolean apply) {
        char other = me == 'B' ? 'O' : 'B';
        int total = 0;
        for (int dc = -1; dc <= 1; dc++) for (int dr = -1; dr <= 1; dr++) {
            if (dc == 0 && dr == 0) continue;
            int n = 0, x = c + dc, y = r + dr;
            while (x >= 0 && x < 8 && y >= 0 && y < 8 && board[x][y] == other) { n++; x += dc; y += dr; }
            if (n > 0 && x >= 0 && x < 8 && y >= 0 && y < 8 && board[x][y] == me) {
                total += n;
                if (apply) for (int k = 1; k <= n; k++) board[c + k * dc][r + k * dr] = me;
            }
        }
        return total;
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        board[3][4] = 'O'; board[4][4] = 'B'; board[3][3] = 'B'; board[4][3] = 'O';
        Path go = Paths.get(name + ".go"), moves = Paths.get("move_file"), end = Paths.get("end_game");
        char me = 0;
        String written = null;
        while (true) {
            if (!Files.exists(go)) { Thread.sleep(10); continue; }
            if (Files.exists(end)) { System.out.println(name + " read: " + Files.readString(end).trim()); return; }
            String text = Files.exists(moves) ? Files.readString(moves).trim() : "";
            if (text.equals(written)) { Thread.sleep(10); continue; }
            if (me == 0) me = text.isEmpty() ? 'B' : 'O';
            if (!text.isEmpty()) {
                String[] parts = text.split("\\\\s+");
                if (!parts[1].equals("P")) {
                    int c = COLUMNS.indexOf(parts[1]), r = Integer.parseInt(parts[2]) - 1;
                    char them = me == 'B' ? 'O' : 'B';
                    flips(them, c, r, true);
                    board[c][r] = them;
                }
            }
            written = name + " P 1";
            search:
            for (int c = 0; c < 8; c++) for (int r = 0; r < 8; r++) {
                if (board[c][r] == 0 && flips(me, c, r, false) > 0) {
                    flips(me, c, r, true);
                    board[c][r] = me;
                    written = name + " " + COLUMNS.charAt(c) + " " + (r + 1);
                    break search;
                }
            }
            Files.writeString(moves, written);
        }
    }
}
'''
