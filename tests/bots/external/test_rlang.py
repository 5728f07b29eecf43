"""D-Football strategies written in R, as STATS 306 students wrote them: ``path/strategy.R:fn``
runs in one long-lived R process per bot (``bots.external.rlang``), in and out of the sandbox,
as root and under a plain user's limits (hostile ones held by them: ``tests/hostile_bots/rbomber``),
with the course's forfeits; the project's ``d_football.R`` agrees with ``games.dfootball``.

Without R (Debian's ``r-base-core`` and ``r-cran-dplyr``) the tests that need it are skipped;
``ARCADE_REQUIRE_R=1`` (set by ``.ci/run``) makes them fail instead. Their limits leave room
for a busy machine (a second a move where the 100 ms is not the point), so they run in
parallel with the rest of the suite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from arcade.catalog import load
from arcade.match import run_match
from bots.external import sandbox
from bots.base import BotEntry, Context, random_move
from bots.external import file_entry, is_file_spec, parse_spec, short_name
from bots.external.host import FileBotSource
from bots.external.rlang import R_DIR, R_MISSING
from bots.limits import Limits
from bots.registry import UnknownBot, check
from games import dfootball
from games.base import IllegalMove
from tests.bots.external.test_course_bots import SAMPLES, own_folder
from tests.paths import ROOT, TESTS

RSCRIPT = shutil.which("Rscript")
if RSCRIPT is None and os.environ.get("ARCADE_REQUIRE_R"):
    raise RuntimeError(f"ARCADE_REQUIRE_R is set and R is not installed ({R_MISSING})")
needs_r = pytest.mark.skipif(RSCRIPT is None, reason=R_MISSING)

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None and os.environ.get("ARCADE_REQUIRE_SANDBOX"):
    raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
MODES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
    PROBLEM is not None, reason=f"the bwrap sandbox cannot run here: {PROBLEM}"))]

FAULTS = TESTS / "fault_bots" / "dfootball_faults.R"
REFERENCE = json.loads((TESTS / "reference" / "dfootball.json").read_text())
RANDOM = BotEntry.function("random", "a random legal move", random_move)


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def bot_logs(folder: Path) -> list[str]:
    """The texts of the bots' logs written under ``folder``."""
    return [path.read_text() for path in sorted(folder.rglob("*.log"))]


def arcade(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
                          capture_output=True, text=True, timeout=180, cwd=cwd, env=env or os.environ.copy())


# -- specs ----------------------------------------------------------------------------------------

def test_an_r_file_is_a_file_bot_spec(tmp_path, monkeypatch):
    assert is_file_spec("strategy.R") and is_file_spec("path/to/strategy.R:prefer_jumps")
    assert is_file_spec("lower.r:my.strategy")
    assert short_name("path/to/strategy.R:prefer_jumps") == "strategy.R:prefer_jumps"
    if RSCRIPT is None:
        return
    file = tmp_path / "strategy.R"
    file.write_text("my_strategy <- function(game) valid_moves(game)[[1]]\n")
    monkeypatch.chdir(tmp_path)
    assert parse_spec("strategy.R", "dfootball") == (file, "my_strategy")  # the notebook's name
    assert parse_spec("strategy.R:prefer.jumps", "dfootball") == (file, "prefer.jumps")  # an R name
    for bad in ("strategy.R:2fast", "strategy.R:.9", "strategy.R:a-b"):
        with pytest.raises(UnknownBot, match="is not an R function name"):
            check("dfootball", bad)
    with pytest.raises(UnknownBot, match=r"R strategies play dfootball only .*, not hog"):
        check("hog", "strategy.R")


def test_without_r_an_r_bot_is_one_line_naming_the_packages(tmp_path, monkeypatch):
    file = tmp_path / "strategy.R"
    file.write_text("my_strategy <- function(game) valid_moves(game)[[1]]\n")
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # Rscript hidden
    with pytest.raises(UnknownBot) as caught:
        check("dfootball", f"{file}:my_strategy")
    assert str(caught.value) == f"bot '{file}:my_strategy': {R_MISSING}"
    assert R_MISSING == "Rscript not found: apt-get install --no-install-recommends r-base-core r-cran-dplyr"
    done = arcade(tmp_path, "match", "dfootball", f"{file}:my_strategy", "perfect", "--games", "1", "--sandbox", "none",
                  env={**os.environ, "PATH": str(empty)})
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and R_MISSING in lines[0] and "Traceback" not in done.stderr


# -- whole matches --------------------------------------------------------------------------------

@needs_r
@pytest.mark.parametrize("mode", MODES)
def test_the_courses_strategies_in_r_play_whole_matches(tmp_path, logs, mode):
    """The notebook's ``prefer_jumps`` (``dplyr::lead``) and ``random_move`` (R's ``sample``),
    each a long-lived R process: no forfeit. (A second a move, not the contest's 100 ms: a
    shared test machine can stall any process for that long; ``bench/r_bots.py`` gives the
    figures, and the first move's time is checked below.)"""
    folder = own_folder(tmp_path, "stats306_course")
    spec = "stats306_course/course_strategies.R"
    done = arcade(folder.parent, "match", "dfootball", f"{spec}:prefer_jumps", f"{spec}:random_move",
                  "--games", "4", "--seed", "7", "--sandbox", mode, "--time-limit", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 4 and sum(result["wins"]) == 4
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]
    texts = bot_logs(logs)
    assert len(texts) == 2  # one log a bot
    for log in texts:
        assert ("in the bwrap sandbox" if mode == "bwrap" else "NOT contained") in log
        assert "Error" not in log


@needs_r
def test_a_students_r_submission_plays_unchanged_against_perfect(tmp_path, logs):
    """A solution as handed in: the notebook's ``library(tidyverse)`` and
    ``source("d_football.R")`` (neither file is here: dplyr and the arcade's API stand in),
    ``my_strategy`` (found without ``:function``) and its helpers, using
    ``valid_moves``/``make_move`` and the tidyverse's bare ``lead``."""
    folder = own_folder(tmp_path, "stats306_student")
    done = arcade(folder.parent, "match", "dfootball", "stats306_student/my_strategy.R", "perfect",
                  "--games", "2", "--seed", "3", "--time-limit", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]
    assert sum(result["wins"]) == 2
    log = "".join(bot_logs(logs))
    assert "library(tidyverse): only dplyr of the tidyverse is installed here" in log
    assert "the arcade's d_football.R is loaded already" in log


@needs_r
def test_r_random_numbers_follow_the_match_seed_and_loading_is_off_the_clock():
    """``random_move`` draws from R's ``sample``; the arcade's ``Seed`` sets R's generator, so
    the same seed gives the same moves. Starting R, loading dplyr and the file and compiling
    happen before the first move, which is as quick as the rest: a small part of the load."""
    game = load("dfootball")()
    state = game.state_from_board([1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0], 0)
    source = FileBotSource("dfootball", f"{SAMPLES / 'stats306_course' / 'course_strategies.R'}:random_move",
                           Limits(time=2.0, sandbox="none"))
    try:
        host = source.ready_host(game)
        loading = host.cpu_seconds()
        before = host.cpu_seconds()
        source.ask(game, state, Context(), 1)
        first = host.cpu_seconds() - before
        runs = [[source.ask(game, state, Context(), seed if i == 0 else None) for i in range(12)]
                for seed in (11, 12, 11)]
    finally:
        source.close()
    assert loading > 0.2 and first < loading / 4, (loading, first)  # CPU seconds: load stalls do not count
    assert runs[0] == runs[2] and runs[0] != runs[1]
    assert set(runs[1]) <= set(game.legal_moves(state)) and len(set(runs[1])) > 1


@needs_r
def test_r_reads_its_requests_itself_with_no_relay_process_to_wake():
    """Issue 33, item 13: each request went through a ``cat`` relay (``cat <&3``) before R could
    read it: one more process to wake up on the bot's clock (under load, a wait for a CPU). R
    reads its standard input itself now; only the answers' relay to the packet socket remains."""
    from bots.external.freezer import tree

    game = load("dfootball")()
    source = FileBotSource("dfootball", f"{SAMPLES / 'stats306_course' / 'course_strategies.R'}:random_move",
                           Limits(time=2.0, sandbox="none"))
    try:
        host = source.ready_host(game)
        commands = {}
        for pid in tree(host.transport.proc.pid):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            commands[pid] = [part.decode() for part in argv if part]
        rscript = [pid for pid, argv in commands.items() if any(part.endswith("child.R") for part in argv)]
        relays = [argv for argv in commands.values() if argv[:1] in (["cat"], ["/bin/sh"], ["sh"])
                  or (argv and argv[0].endswith("/cat"))]
        assert len(rscript) == 1 and os.readlink(f"/proc/{rscript[0]}/fd/0").startswith("pipe:")
        assert len(relays) == 1, commands  # the answers' cat only
        assert source.ask(game, game.initial_state(), Context(), 1) in game.legal_moves(game.initial_state())
    finally:
        source.close()


# -- a plain user's limits -----------------------------------------------------------------------------

LIMITS_R = """
shown <- FALSE
my_strategy <- function(game) {
  if (!shown) {
    shown <<- TRUE
    limits <- grep("^Max (processes|open files|file size)", readLines("/proc/self/limits"), value = TRUE)
    message(paste(gsub(" {2,}", "|", limits), collapse = "\n"))
    tasks <- sum(vapply(grep("^[0-9]+$", list.files("/proc"), value = TRUE),
                        function(p) length(list.files(file.path("/proc", p, "task"))), 1L))
    message("tasks: ", tasks)
  }
  valid_moves(game)[[1]]
}
"""


def plain_user_caps() -> tuple[int, int, bool]:
    """The processes and open files an R bot's process gets as a plain user here, and whether
    that is the split cap: as root's test (run as ``nobody``) or a user without a delegated
    cgroup, 4 (``cgroups.SPLIT`` + 1, bwrap's first process counted) and ``R_OPEN_FILES``."""
    from bots.external import cgroups

    if os.geteuid() == 0 or cgroups.memory_root() is None:
        return cgroups.SPLIT + 1, sandbox.R_OPEN_FILES, True
    return cgroups.PROCESSES, sandbox.OPEN_FILES, False


@pytest.fixture
def user_tmp():
    """A folder a plain user may reach and write (pytest's are root's only): the bots' files
    and their logs."""
    from tests.bots.external.test_memory_modes import USER

    folder = Path(tempfile.mkdtemp(prefix="arcade-user-"))
    if os.geteuid() == 0:
        os.chown(folder, USER, USER)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def as_plain_user(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """``arcade ARGS --json`` in the bwrap sandbox as a plain user: as root, as ``nobody`` with
    no cgroup of its own (``test_memory_modes.as_user``), else as this user; its run and its
    bots' logs (name: text), written in ``folder`` (``user_tmp``)."""
    from tests.bots.external.test_memory_modes import USER, as_user

    logs = folder / "logs"
    logs.mkdir()
    argv = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args, "--sandbox", "bwrap",
            "--json"]
    if os.geteuid() == 0:
        os.chown(logs, USER, USER)
        argv = as_user(argv)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, cwd=ROOT,
                          env={**os.environ, "ARCADE_BOT_LOGS": str(logs), "HOME": str(folder)})
    return done, {path.name: path.read_text(errors="replace") for path in logs.rglob("*.log")}


@needs_r
@pytest.mark.parametrize("mode", MODES[1:])
def test_r_strategies_play_under_a_plain_users_limits(user_tmp, mode):
    """Issue 44, item 7: as a user with no cgroup (the sandbox's split cap: 4 processes, bwrap's
    first one counted) no R strategy ran at all: R's launcher (the shell script ``Rscript`` runs)
    could not fork ("fork: retry: Resource temporarily unavailable"), then R refused the 64 open
    files ("the limit on the number of open files is too low"). R is started without its
    launcher now and gets the 167 open files it needs, in smaller files: a course strategy
    (dplyr's ``lead``) plays one that shows its limits, both in R."""
    folder = own_folder(user_tmp, "stats306_course")
    (user_tmp / "shows").mkdir()
    (user_tmp / "shows" / "limits.R").write_text(LIMITS_R)
    done, logs = as_plain_user(user_tmp, "match", "dfootball", f"{folder / 'course_strategies.R'}:prefer_jumps",
                               f"{user_tmp / 'shows' / 'limits.R'}", "--games", "2", "--seed", "7",
                               "--time-limit", "2")
    assert done.returncode == 0, (done.stderr, logs)
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0] and sum(result["wins"]) == 2, (result["forfeit_reasons"], logs)
    processes, files, split = plain_user_caps()
    (shows,) = [text for name, text in logs.items() if name.startswith("limits")]
    assert f"| Max processes|{processes}|{processes}|processes" in shows, shows
    assert f"| Max open files|{files}|{files}|files" in shows, shows
    if split:
        assert "memory: split: 3 processes × 1/3 of the cap (no memory cgroup)" in shows
        size = sandbox.R_SPLIT_FILE_SIZE
        assert f"| Max file size|{size}|{size}|bytes" in shows, shows
        assert size * files <= sandbox.SPLIT_OPEN_FILES * sandbox.LOG_FILE_SIZE  # memfd files: a Python bot's bound
    tasks = int(shows.split("| tasks: ")[1].split()[0])
    assert tasks == 3, shows  # bwrap's first process, R (its cli thread stopped), the answers' cat: one left


@needs_r
def test_r_started_without_its_launcher_gets_the_launchers_settings(tmp_path):
    """``r_direct``: R's binary, run as ``Rscript`` runs it through its launcher (the shell
    script ``R``), sees the same environment (the paths the launcher exports, its
    ``LD_LIBRARY_PATH``), the same ``R.home()`` and packages, and its file by a path with spaces."""
    from bots.external.rlang import r_direct

    binary, settings = r_direct(RSCRIPT)
    assert Path(binary).name == "R" and Path(binary).parent.name == "exec"
    names = sorted(settings)
    script = tmp_path / "a folder" / "shows settings.R"
    script.parent.mkdir()
    script.write_text('suppressMessages(library(dplyr))\n'
                      'cat(Sys.getenv(commandArgs(TRUE), unset = "<unset>"), R.home(), search(), sep = "\\n")\n')
    plain = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    launched = subprocess.run([RSCRIPT, "--vanilla", str(script), *names], capture_output=True, text=True,
                              timeout=60, env=plain)
    direct = subprocess.run([binary, "--no-echo", "--no-restore", "--vanilla",
                             "--file=" + str(script).replace(" ", "~+~"), "--args", *names],
                            capture_output=True, text=True, timeout=60, env={**plain, **settings})
    assert launched.returncode == 0 and direct.returncode == 0, (launched.stderr, direct.stderr)
    assert direct.stdout == launched.stdout
    assert direct.stdout.splitlines()[:len(names)] == [settings[name] for name in names]
    assert "package:dplyr" in direct.stdout


HOSTILE_R = TESTS / "hostile_bots" / "rbomber" / "bomber.R"


@needs_r
@pytest.mark.parametrize("mode", MODES[1:])
@pytest.mark.parametrize("function", ["fork_bomb", "many_files"])
def test_a_hostile_r_strategy_is_held_by_a_plain_users_limits(user_tmp, mode, function):
    """The limits that let R start still hold it: a fork bomb through ``system()`` and 50 of
    R's own forks (``parallel::mcparallel``) get one process more at most (4 in all, bwrap's
    first one counted), and a shell that opens /dev/null 5000 times stops short of 167 open
    files (R's own connections stop at 128, R's rule); the bot plays on, the other one too."""
    folder = user_tmp / "rbomber"
    shutil.copytree(HOSTILE_R.parent, folder)
    done, logs = as_plain_user(user_tmp, "match", "dfootball", f"{folder / 'bomber.R'}:{function}", "random_move",
                               "--games", "1", "--seed", "5", "--time-limit", "5")
    assert done.returncode == 0, (done.stderr, logs)
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0] and sum(result["wins"]) == 1, (result["forfeit_reasons"], logs)
    (log,) = logs.values()
    processes, files, split = plain_user_caps()

    def said(words: str) -> int:
        return int(log.split(f"| {words}: ")[1].split()[0])

    if function == "fork_bomb":
        assert said("processes seen at most") <= processes, log
        if split:
            assert said("R forks") <= 1, log
    else:
        assert said("R connections") < 128
        assert said("shell files") < files, log
        assert said("shell files") > files - 20, log  # it got what the limit leaves, not less


# -- forfeits in the course's words ---------------------------------------------------------------

# function -> (seconds a move, the forfeit's words)
FORFEITS = {
    "invalid_move": (2.0, "Michigan strategy returned an invalid move (square -1 is not a valid move; valid moves: 11)"),
    "slow": (0.1, "Michigan strategy took >100ms to return a move"),
    "raises": (2.0, "Michigan strategy produced an error (Error in raises(game): object 'aoeu' not found)"),
    "quits": (2.0, "Michigan strategy produced an error (it called quit())"),
    "hogs_memory": (5.0, "Michigan strategy exceeded the memory cap (1 GiB)"),
}


FAULT_CASES = [(function, "none") for function in sorted(FORFEITS)] + [  # in the sandbox: the notebook's three
    pytest.param(function, "bwrap", marks=MODES[1].marks) for function in ("invalid_move", "raises", "slow")]


@needs_r
@pytest.mark.parametrize(("function", "mode"), FAULT_CASES)
def test_each_r_fault_forfeits_in_the_courses_words(function, mode, capfd):
    game = load("dfootball")()
    limit, words = FORFEITS[function]
    limits = Limits(time=limit, sandbox=mode)
    entry = file_entry("dfootball", f"{FAULTS}:{function}", limits)
    summary = run_match(game, (entry, RANDOM), games=1, seed=5, limits=limits)
    record = summary.records[0]
    assert record.forfeit == 0 and record.winner == 1
    assert record.reason.startswith(words), record.reason
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert entry.source.host is None or function not in ("slow", "quits", "hogs_memory")
    entry.close()


@needs_r
def test_answers_that_are_no_square_number_forfeit_as_invalid_moves():
    """One process, one wrong answer a game (an invalid answer does not end the process)."""
    game = load("dfootball")()
    limits = Limits(time=2.0, sandbox="none")
    entry = file_entry("dfootball", f"{FAULTS}:wrong_answers", limits)
    try:
        summary = run_match(game, (entry, RANDOM), games=8, seed=5, limits=limits)
    finally:
        entry.close()
    assert summary.forfeits == [8, 0]
    details = [record.reason.partition(" strategy returned an invalid move ")[2] for record in summary.records]
    assert details[0].startswith("(c(") and details[0].endswith(", 0) is not one square number)")
    assert details[1].startswith('("') and details[1].endswith('" (character) is not a square number)')
    assert details[2:4] == ["(NULL (NULL) is not a square number)", "(NA_real_ is not one square number)"]
    assert details[4].endswith(".5 is not one square number)")
    assert details[5] == "(TRUE (logical) is not a square number)"
    assert details[6] == "(a vector of length 10000000 is not one square number)"
    assert details[7].endswith(" (factor) is not a square number)")


@needs_r
def test_an_r_bot_leaves_no_session_folder_behind_and_tempfile_still_works(tmp_path, monkeypatch):
    """R makes a session folder at start and removes it only when it exits by itself; the arcade
    kills its bots, so the R process removes it once loaded (outside the sandbox it is in the
    machine's /tmp), and makes it again for a strategy that asks for a temporary file."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    game = load("dfootball")()
    for function, left in (("invalid_move", 0), ("uses_tempfile", 1)):
        limits = Limits(time=2.0, sandbox="none")
        entry = file_entry("dfootball", f"{FAULTS}:{function}", limits)
        summary = run_match(game, (entry, RANDOM), games=1, seed=3, limits=limits)
        entry.close()
        assert summary.forfeits == [int(function == "invalid_move"), 0], summary.records[0].reason
        assert len(list(tmp_path.glob("Rtmp*"))) == left


@needs_r
def test_an_r_file_that_cannot_load_says_why_in_one_line(tmp_path):
    game = load("dfootball")()
    cases = {
        "broken.R": ("my_strategy <- function(game) {\n  valid_moves(game\n}\n", "could not load broken.R: Error"),
        "nameless.R": ("helper <- function(x) x\nother <- function(game) 1\n",
                       "nameless.R has no function 'my_strategy'; its functions: helper, other"),
        "needs.R": ("library(notapackage)\nmy_strategy <- function(game) 1\n",
                    "there is no package called"),
    }
    for name, (text, words) in cases.items():
        (tmp_path / name).write_text(text)
        source = FileBotSource("dfootball", str(tmp_path / name), Limits(sandbox="none"))
        try:
            problem = source.probe(game)
        finally:
            source.close()
        assert problem is not None and words in problem and "\n" not in problem, problem
        detail = problem.partition("could not load ")[2]
        assert detail.startswith(name) and str(tmp_path) not in detail.partition(" (details in")[0]


@needs_r
def test_an_r_strategys_output_goes_to_its_log(logs, capfd):
    game = load("dfootball")()
    entry = file_entry("dfootball", f"{FAULTS}:chatty", Limits(time=2.0, sandbox="none"))
    summary = run_match(game, (entry, RANDOM), games=1, seed=2, limits=Limits(time=2.0, sandbox="none"))
    assert summary.forfeits == [0, 0]
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    log = entry.source.log_path.read_text()
    for words in ("$board", "thinking", "a message", "Warning in chatty(game): a warning",
                  "from a subprocess", "to stderr"):
        assert words in log


# -- the project's d_football.R against games.dfootball ---------------------------------------------

HARNESS = r"""
sys.source(file.path(commandArgs(TRUE)[[1]], "json.R"), envir = globalenv())
sys.source(file.path(commandArgs(TRUE)[[1]], "d_football.R"), envir = globalenv())
numbers <- function(x) paste0("[", paste(x, collapse = ","), "]")
requests <- file("stdin", open = "r")
repeat {
  line <- readLines(requests, n = 1L)
  if (length(line) == 0L) break
  q <- json_decode(line)
  game <- list(board = q$board, turn = q$turn)
  valid <- valid_moves(game)
  after <- vapply(valid, function(s) {
    g <- make_move(game, s)
    paste0("{\"board\":", numbers(g$board), ",\"turn\":", g$turn, ",\"last_move\":", numbers(g$last_move), "}")
  }, "")
  refused <- tryCatch({ make_move(game, q$bad); "false" }, error = function(e) "true")
  cat("{\"valid\":", numbers(valid), ",\"whose\":\"", whose_turn(game), "\",\"after\":[",
      paste(after, collapse = ","), "],\"refused\":", refused, "}\n", sep = "")
  flush(stdout())
}
"""


@pytest.fixture(scope="module")
def r_facade():
    """One long-lived Rscript answering questions about positions: ``ask(board, turn, bad)``."""
    if RSCRIPT is None:
        pytest.skip(R_MISSING)
    proc = subprocess.Popen([RSCRIPT, "--vanilla", "-e", HARNESS, str(R_DIR)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def ask(board: list[int], turn: int, bad: int) -> dict:
        proc.stdin.write(json.dumps({"board": board, "turn": turn, "bad": bad}) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    yield ask
    proc.stdin.close()
    proc.wait(timeout=10)


@st.composite
def positions(draw):
    n = draw(st.integers(1, 15))
    board = draw(st.lists(st.sampled_from([1, 0, -1]), min_size=2 * n + 1, max_size=2 * n + 1))
    turn = draw(st.sampled_from([1, -1]))
    return board, turn, draw(st.integers(-2, 2 * n + 4))


@needs_r
@settings(max_examples=150, deadline=None)
@given(positions())
def test_the_r_facade_agrees_with_games_dfootball(r_facade, position):
    board, turn, bad = position
    game = {"board": board, "turn": turn}
    answer = r_facade(board, turn, bad)
    valid = dfootball.valid_moves(game)
    assert answer["valid"] == valid
    assert answer["whose"] == dfootball.whose_turn(game)
    assert answer["after"] == [dfootball.make_move(game, square) for square in valid]
    if bad not in valid:
        assert answer["refused"]
        with pytest.raises(IllegalMove):
            dfootball.make_move(game, bad)


@needs_r
def test_the_r_facade_replays_the_notebooks_outputs(r_facade):
    """The seed's example game (moves 2, 4, 1, 5, 3), its losing positions, and, with R's
    sampler of 2018 (``Rounding``), ``set.seed(1)`` and 100 games of ``random_move`` against
    itself: Michigan 53, Ohio 47, exactly the notebook's table."""
    vectors = REFERENCE["vectors"]
    states = vectors["example_game_n2"]["states"] + vectors["losing_positions"] + vectors["whose_turn_and_valid"]
    for state in states:
        answer = r_facade(state["board"], state["turn"], 0)
        assert answer["valid"] == state["valid_moves"]
        if "whose_turn" in state:
            assert answer["whose"] == state["whose_turn"]
    stochastic = {v["origin"]: v["output"] for v in vectors["stochastic_outputs"]}
    assert stochastic["cell 34"] == {"michigan": 53, "ohio": 47}
    script = (f'sys.source("{R_DIR / "d_football.R"}", envir = globalenv()); TIME_LIMIT <- Inf\n'
              + (SAMPLES / "stats306_course" / "course_strategies.R").read_text()
              + 'suppressWarnings(RNGkind(sample.kind = "Rounding")); set.seed(1)\n'
              'results <- vector("character", 100)\n'
              'for (i in 1:100) results[[i]] <- play_game(mi_strategy = random_move, oh_strategy = random_move, n = 11)\n'
              'cat(sum(results == "michigan"), sum(results == "ohio"), "\\n")\n'
              'cat(play_repeatedly(prefer_jumps, prefer_jumps, k = 20, n = 5), "\\n")\n')
    done = subprocess.run([RSCRIPT, "--vanilla", "-e", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["53", "47", "20", "20"]


# -- tournaments and the setup screen -------------------------------------------------------------

@needs_r
def test_a_tournament_takes_an_r_file(tmp_path):
    """A class tournament's default: every file bot in the bwrap sandbox (else ``none``)."""
    folder = own_folder(tmp_path, "stats306_course")
    mode = "bwrap" if PROBLEM is None else "none"
    done = arcade(folder.parent, "tournament", "dfootball", "stats306_course/course_strategies.R:prefer_jumps",
                  "random_move", "--games", "2", "--seed", "1", "--jobs", "1", "--sandbox", mode,
                  "--time-limit", "1", "--json")
    assert done.returncode == 0, done.stderr
    standings = {row["bot"]: row for row in json.loads(done.stdout)["standings"]}
    mine = standings["stats306_course/course_strategies.R:prefer_jumps"]
    assert mine["games"] == 2 and mine["forfeits"] == 0 and standings["random_move"]["forfeits"] == 0


@needs_r
async def test_the_setup_screen_plays_an_r_file_and_says_why_one_cannot_load(tmp_path, monkeypatch):
    from textual.widgets import Input, Select, Static

    from arcade.catalog import CATALOG
    from arcade.screens.game import GameScreen
    from arcade.screens.setup import FILE, SetupScreen
    from bots.adapters import DFootballAdapter
    from tests.conftest import make_app, settle

    monkeypatch.setattr(DFootballAdapter, "time_limit", lambda self, game: 1.0)  # a shared machine's stalls

    broken = tmp_path / "broken.R"
    broken.write_text("my_strategy <- function(game) {\n")
    good = f"{SAMPLES / 'stats306_course' / 'course_strategies.R'}:prefer_jumps"
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        setup = SetupScreen(CATALOG["dfootball"], choices=("random_move", FILE))
        await app.push_screen(setup)
        await pilot.pause()
        setup.query_one("#sandbox", Select).value = "none"
        error = setup.query_one("#setup-error", Static)
        setup.query_one("#file-1", Input).value = str(broken)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is setup and "could not load broken.R: Error" in str(error.render())
        setup.query_one("#file-1", Input).value = good
        await pilot.press("ctrl+s")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and game.players == ("random_move", good)
        deadline = time.monotonic() + 60
        while len(game.history) < 3 and game.result is None and time.monotonic() < deadline:
            await settle(pilot)  # the R strategy answers from its own process
        assert len(game.history) >= 3 and game.history[2].event.side == 1


def test_arcade_bots_names_the_r_way_for_dfootball_only(capsys):
    from arcade.cli import main

    assert main(["bots", "dfootball"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("in R: path/to/strategy.R[:function]") and "r-base-core r-cran-dplyr" in last
    assert main(["bots", "hog"]) == 0
    assert "in R" not in capsys.readouterr().out


def test_the_r_side_is_package_data():
    """``pip install .`` ships ``bots/external/r/*.R`` (the R bot's process runs them)."""
    import tomllib

    root = ROOT
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    assert "*.R" in patterns
    assert {p.name for p in R_DIR.glob("*.R")} == {"child.R", "json.R", "d_football.R"}


def test_an_r_bot_travels_to_a_cluster_with_its_folders_r_files(tmp_path):
    """A cluster's workers share no folder with the coordinator: the bundle carries the bot's
    ``.R`` files (its own and its helpers) as it carries a Python bot's ``.py`` files."""
    from arcade.tournament.bundles import DEFAULT_CAP, entries
    from arcade.tournament.cluster import pack_bots

    folder = own_folder(tmp_path, "stats306_course")
    (folder / "helpers.R").write_text("helper <- function(x) x\n")
    spec = f"{folder / 'course_strategies.R'}:prefer_jumps"
    (bundle,) = pack_bots("dfootball", [spec, "perfect"], DEFAULT_CAP)
    assert bundle.spec == f"{folder.name}/course_strategies.R:prefer_jumps"
    files = {path.decode(): bytes(data) for kind, path, data in entries(bundle.data) if kind == b"f"}
    assert files[f"{folder.name}/helpers.R"] == b"helper <- function(x) x\n"
    assert files[f"{folder.name}/course_strategies.R"] == (folder / "course_strategies.R").read_bytes()