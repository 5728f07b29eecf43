"""Hostile bot folders through every entry point that takes one (issue 30, item 3): ``arcade
match``, ``arcade tournament`` (``--jobs 1`` and ``--jobs 2``, and a cluster's bundle), ``arcade
bot install``, R and Othello program bots, ``arcade contest submit``; as root, and as a user.

Each example is a folder from ``tests.hostile_folders`` (links in and out, hard links to the
instructor's file, FIFOs, sockets, a device, unreadable entries, deep and wide trees, odd names)
holding a bot that reads every file it can reach in its folder and gives up the game saying
``LEAK`` when one holds the canary's text. It must end in a clean game or one line of error, and
nothing outside the folder may have been read (the canary's access time), written, chmodded or
removed (every entry's ``lstat`` and contents before and after); a match leaves the folder as it
was. Each example starts processes: the counts are small (a 2-core machine runs the suite).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from bots.external import sandbox
from bots.external.sandbox_launch import walk_folder
from tests.bots.external.test_memory_modes import as_user
from tests.hostile_folders import (KINDS, SECRET, World, age_access_times, contents, entries, make_world, one_line,
                                   snapshot)
from tests.bots.external.test_deps import make_wheel
from tests.paths import ROOT

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
USER = sandbox.UNPRIVILEGED

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None:
    if os.environ.get("ARCADE_REQUIRE_SANDBOX"):
        raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
    pytestmark = pytest.mark.skip(reason=f"the bwrap sandbox cannot run here: {PROBLEM}")

SCAN = f'''import os
import stat

_SECRET = {SECRET[:6].encode()!r} + {SECRET[6:].encode()!r}


def _scan():
    for root, _dirs, files in os.walk(os.path.dirname(os.path.abspath(__file__))):
        for name in files:
            path = os.path.join(root, name)
            try:
                if stat.S_ISREG(os.stat(path).st_mode):
                    with open(path, "rb") as handle:
                        if _SECRET in handle.read(1 << 16):
                            raise SystemExit("LEAK " + path)
            except OSError:
                pass


_scan()
'''
TOOTHPICKS = ("bot.py", SCAN + "\n\ndef strategy(left):\n    _scan()\n    return 1\n")
DFOOTBALL = ("bot.py", SCAN + "\nfrom games.dfootball import valid_moves\n\n\ndef strategy(game):\n"
             "    return valid_moves(game)[-1]\n")
R_BOT = ("strategy.R", f'''secret <- paste0("{SECRET[:6]}", "{SECRET[6:]}")
for (f in list.files(".", all.files = TRUE, full.names = TRUE, no.. = TRUE)) {{
  if (isTRUE(file_test("-f", f))) {{
    x <- tryCatch(readBin(f, "raw", 65536), error = function(e) raw(0))
    if (length(grepRaw(secret, x, fixed = TRUE)) > 0) stop(paste("LEAK", f))
  }}
}}
strategy <- function(game) valid_moves(game)[[1]]
''')

SHAPES = entries()
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                derandomize=False)


@pytest.fixture
def base():
    """A folder a user may reach too (pytest's own are root's only); removed after."""
    folder = Path(tempfile.mkdtemp(prefix="arcade-hostile-"))
    os.chmod(folder, 0o755)
    yield folder
    _remove(folder)


def _remove(folder: Path) -> None:
    for root, dirs, _files in os.walk(folder):
        for name in dirs:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, 0o700)
    shutil.rmtree(folder, ignore_errors=True)


class Scene:
    """One example's world, its snapshots taken: ``check()`` once the run is over."""

    def __init__(self, base: Path, bot: tuple[str, str], shape: list, owner: int | None = None,
                 extra: dict[str, bytes] | None = None) -> None:
        root = Path(tempfile.mkdtemp(dir=base))
        os.chmod(root, 0o755)
        self.world: World = make_world(root, bot, shape, owner, extra)
        (root / "logs").mkdir()
        if owner is not None:
            os.chown(root / "logs", owner, owner)
        self.outside_files = contents(self.world.outside)
        age_access_times(self.world.outside)
        self.outside = snapshot(self.world.outside)
        self.folder = snapshot(self.world.folder, times=False)

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "ARCADE_BOT_LOGS": str(self.world.base / "logs"), "HOME": str(self.world.base),
                "PIP_CONFIG_FILE": os.devnull}

    def logs(self) -> str:
        return "".join(path.read_text(errors="replace") for path in (self.world.base / "logs").glob("*.log*"))

    def check(self, done: subprocess.CompletedProcess, folder_kept: bool = True) -> None:
        said = done.stdout + done.stderr + self.logs()
        assert "LEAK" not in said and SECRET not in said, said[-2000:]
        assert snapshot(self.world.outside) == self.outside  # nothing outside read, written, chmodded, removed
        assert contents(self.world.outside) == self.outside_files
        if folder_kept:
            assert snapshot(self.world.folder, times=False) == self.folder


def run(argv: list[str], scene: Scene, user: bool = False, timeout: int = 240) -> subprocess.CompletedProcess:
    if user:
        argv = as_user(argv)
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=scene.world.base,
                          env=scene.env)


def clean_game_or_one_line(done: subprocess.CompletedProcess) -> dict | None:
    """A game's JSON with no forfeit, or ``None`` for one line of error."""
    if done.returncode == 0:
        result = json.loads(done.stdout)
        assert result["forfeits"] == [0, 0], result
        return result
    assert done.returncode in (1, 2) and one_line(done.stderr), done.stderr[-2000:]
    return None


# -- arcade match --------------------------------------------------------------------------------

@settings(max_examples=6, **SETTINGS)
@given(shape=SHAPES)
@example(shape=[("__init__.py", "link_out_file", [])])  # once a package in name only: its __init__.py a link out
def test_a_match_in_the_sandbox_plays_or_says_one_line_and_reads_nothing_outside(base, shape):
    scene = Scene(base, TOOTHPICKS, shape)
    done = run([*CLI, "match", "toothpicks", "student/bot.py", "random", "--games", "1", "--seed", "3",
                "--sandbox", "bwrap", "--json"], scene)
    scene.check(done)
    assert clean_game_or_one_line(done) is not None, done.stderr  # the bot's own file is plain: it plays


@pytest.mark.skipif(os.geteuid() != 0, reason="root makes the user for the test")
@settings(max_examples=4, **SETTINGS)
@given(shape=SHAPES)
@example(shape=[("__init__.py", "link_out_file", [])])  # once a package in name only: its __init__.py a link out
@example(shape=[("__init__.py", "unreadable_file", [])])  # and one its user may not read (left out of the copy)
def test_a_users_match_plays_or_says_one_line_and_reads_nothing_outside(base, shape):
    """As a user (the instructor's own 0600 file is the canary, hard linked into the folder):
    the user's copy of the folder leaves links and hard links out."""
    scene = Scene(base, TOOTHPICKS, shape, owner=USER)
    done = run([*CLI, "match", "toothpicks", "student/bot.py", "random", "--games", "1", "--seed", "3",
                "--sandbox", "bwrap", "--json"], scene, user=True)
    scene.check(done)
    assert clean_game_or_one_line(done) is not None, done.stderr


PACKAGE_OR_NOT = """import json, os, sys
from pathlib import Path
from bots.external.sandbox_launch import walk_folder
from bots.external.specs import package_of
found = {}
for folder in sys.argv[1:]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    files = [path for kind, path, _fd in walk_folder(fd) if kind == "file"]
    os.close(fd)
    found[folder] = [package_of(Path(folder) / "bot.py"), "__init__.py" in files]
print(json.dumps(found))
"""


@pytest.mark.parametrize("who", ["root", "user"])
def test_a_folder_is_a_package_exactly_when_its_copy_holds_its_init(base, who):
    """The class behind a package in name only (an ``__init__.py`` that is a link out, that its
    user may not read): whatever ``__init__.py`` is (every kind of hostile entry), the bot's folder
    is taken for a package (``specs.package_of``) exactly when the copy of the folder the bot gets
    (``walk_folder``, walked by the same user) holds ``__init__.py``; as root and as a user."""
    if who == "user" and os.geteuid() != 0:
        pytest.skip("root makes the user for the test")
    owner = USER if who == "user" else None
    folders = {}
    for kind in KINDS:
        root = Path(tempfile.mkdtemp(dir=base))
        os.chmod(root, 0o755)
        shape = [("__init__.py", kind, [("inside.py", "file", [])] if kind == "folder" else [])]
        folders[kind] = str(make_world(root, TOOTHPICKS, shape, owner).folder)
    argv = [sys.executable, "-c", PACKAGE_OR_NOT, *folders.values()]
    done = subprocess.run(as_user(argv) if owner else argv, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    said = {kind: found[folder] for kind, folder in folders.items()}
    assert all((package == "student") == copied for package, copied in said.values()), said
    assert said["file"] == ["student", True] and said["link_out_file"] == [None, False]  # both ways met
    assert said["unreadable_file"] == (["student", True] if owner is None else [None, False]), said


# -- arcade tournament ---------------------------------------------------------------------------

@settings(max_examples=4, **SETTINGS)
@given(shape=SHAPES, jobs=st.sampled_from(["1", "2"]))
def test_a_tournament_on_one_or_two_processes_plays_or_says_one_line(base, shape, jobs):
    scene = Scene(base, TOOTHPICKS, shape)
    done = run([*CLI, "tournament", "toothpicks", "student/bot.py", "random", "--games", "2", "--seed", "3",
                "--jobs", jobs, "--sandbox", "bwrap", "--json"], scene)
    scene.check(done)
    if done.returncode != 0:
        assert one_line(done.stderr), done.stderr[-2000:]
    else:
        assert "LEAK" not in done.stdout


@settings(max_examples=25, **SETTINGS)
@given(shape=SHAPES)
def test_a_clusters_bundle_holds_the_folders_plain_files_or_is_refused_in_one_line(base, shape, monkeypatch):
    """What a cluster's worker gets (``bundles.pack``, then ``materialise`` in its cache): the
    folder's folders and regular files of one name, or one line naming what cannot travel."""
    from arcade.tournament import bundles

    scene = Scene(base, TOOTHPICKS, shape)
    cache = scene.world.base / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setattr(bundles, "_ROOT", cache)
    bot = scene.world.folder / "bot.py"
    try:
        bundle = bundles.pack("student", bot.resolve(), bot, "strategy")
    except bundles.BundleError as exc:
        assert "\n" not in str(exc)
    else:
        source = os.open(scene.world.folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            walked = {path for _kind, path, _fd in walk_folder(source)}
        finally:
            os.close(source)
        entry = bundles.materialise(bundle.digest, bundle.data) / "student"
        copied = snapshot(entry, times=False)
        assert set(copied) - {"."} == walked  # the folder's plain folders and files, nothing else
        for path in copied:
            info = os.lstat(entry / path)
            assert stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode) and info.st_nlink == 1
        assert SECRET.encode() not in bundle.data
    scene.check(subprocess.CompletedProcess([], 0, "", ""))


# -- arcade bot install --------------------------------------------------------------------------

@settings(max_examples=4, **SETTINGS)
@given(shape=SHAPES)
def test_an_install_places_deps_or_says_one_line_and_touches_nothing_outside(base, shape):
    wheels = Path(tempfile.mkdtemp(dir=base))
    wheel = make_wheel(wheels).read_bytes()
    scene = Scene(base, TOOTHPICKS, shape, extra={"arcadetiny-1.0-py3-none-any.whl": wheel,
                                                  "requirements.txt": b"arcadetiny-1.0-py3-none-any.whl\n"})
    empty = scene.world.base / "index"
    empty.mkdir()
    done = run([*CLI, "bot", "install", "student", "--no-index", "--find-links", str(empty)], scene)
    scene.check(done, folder_kept=False)
    event("installed" if done.returncode == 0 else "refused")
    if done.returncode == 0:
        assert (scene.world.folder / ".deps" / "arcadetiny" / "__init__.py").is_file()
    else:
        assert one_line(done.stderr), done.stderr[-2000:]


# -- R and Othello program bots ------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("Rscript") is None and not os.environ.get("ARCADE_REQUIRE_R"),
                    reason="Rscript is not installed")
@settings(max_examples=3, **SETTINGS)
@given(shape=SHAPES)
def test_an_r_strategy_in_a_hostile_folder_plays_or_says_one_line(base, shape):
    scene = Scene(base, R_BOT, shape)
    done = run([*CLI, "match", "dfootball", "student/strategy.R:strategy", "random_move", "--games", "1", "--seed", "3",
                "--sandbox", "bwrap", "--json"], scene)
    scene.check(done)
    assert clean_game_or_one_line(done) is not None, done.stderr


PROTOCOL = ("move_file", "end_game", ".end_game.part", "student.go", "opponent.go")
PROTOCOL_KINDS = ("link_out_file", "link_out_folder", "link_dangling", "hard_link_out", "fifo", "socket",
                  "unreadable_file", "folder", "empty_file", "file")


@settings(max_examples=12, **SETTINGS)
@given(shape=SHAPES, planted=st.lists(st.tuples(st.sampled_from(PROTOCOL), st.sampled_from(PROTOCOL_KINDS)),
                                      max_size=4, unique_by=lambda e: e[0]),
       answers=st.booleans())
def test_an_othello_programs_folder_never_leads_the_arcade_outside(base, shape, planted, answers):
    """A CS4341 program's folder with its protocol files planted as links (to the canary, out),
    hard links, FIFOs, sockets, folders: the arcade's side plays the program's move or forfeits
    it with one line naming the file, and nothing outside is read, written or removed."""
    from bots.base import Context
    from bots.othello.cs4341_program import ExternalProgramBot, ExternalProgramError
    from games.othello import Othello

    scene = Scene(base, ("notes.txt", "a CS4341 program's folder\n"),
                  [entry for entry in shape if entry[0] not in PROTOCOL]
                  + [(name, kind, []) for name, kind in planted])
    folder = scene.world.folder
    bot = ExternalProgramBot(Othello(), name="student", directory=str(folder), poll=0.005, read_delay=0.01)
    stop = threading.Event()

    def program() -> None:  # answers E 3 once its .go appears, if it answers at all
        deadline = time.monotonic() + 5
        while not stop.is_set() and time.monotonic() < deadline:
            if os.path.lexists(folder / "student.go") and os.path.isfile(folder / "student.go"):
                if answers:
                    try:
                        (folder / ".answer").write_text("student E 3\n")
                        os.replace(folder / ".answer", folder / "move_file")
                    except OSError:
                        pass
                return
            time.sleep(0.005)

    thread = threading.Thread(target=program)
    thread.start()
    try:
        try:
            move = bot.choose(Othello().initial_state(), Context(time_limit=0.5))
            said = f"move {move}"
        except ExternalProgramError as exc:
            said = str(exc)
            assert "\n" not in said.replace("new\nline", "")
    finally:
        stop.set()
        thread.join()
        bot.left(Othello().initial_state())
    assert SECRET not in said
    scene.check(subprocess.CompletedProcess([], 0, said, ""), folder_kept=False)


# -- arcade contest submit -----------------------------------------------------------------------

@settings(max_examples=4, **SETTINGS)
@given(shape=SHAPES)
def test_a_submission_is_accepted_or_rejected_in_one_line_and_reads_nothing_outside(base, shape):
    scene = Scene(base, DFOOTBALL, [entry for entry in shape if not entry[0].endswith((".py", ".R"))])
    contest = scene.world.base / "contest"
    made = run([*CLI, "contest", "new", str(contest), "--preset", "stats306", "--games", "2"], scene)
    assert made.returncode == 0, made.stderr
    done = run([*CLI, "contest", "submit", str(contest), "alice", "student"], scene)
    scene.check(done)
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(("accepted: ", "rejected: ")), done.stdout + done.stderr
    kept = contest / "submissions"
    for path in kept.rglob("*"):  # the copy holds plain folders and files only
        assert path.is_dir() or (path.is_file() and not path.is_symlink() and path.stat().st_nlink == 1)


# -- .deps bound from its descriptor -------------------------------------------------------------

LIST_DEPS = "import os; print(sorted(os.listdir('/bot/.deps')))"


def _deps_swapped_after_the_look(folder: Path, secret: Path) -> None:
    os.rename(folder / ".deps", folder / ".deps.checked")
    (folder / ".deps").symlink_to(secret)


def test_a_deps_swapped_for_a_link_after_its_look_binds_the_folder_that_was_looked_at(tmp_path):
    """The sandbox binds ``.deps`` from the descriptor it checked (``Staged``), never by its name
    again: a ``.deps`` renamed and replaced by a link to the instructor's folder between the look
    and bwrap's mounts shows the bot the checked folder (root's launcher opens it again in its
    namespace only when it is that very folder)."""
    folder = tmp_path / "student"
    (folder / ".deps" / "tiny").mkdir(parents=True)
    (folder / "b.py").write_text("x = 1\n")
    secret = tmp_path / "instructor"
    secret.mkdir(mode=0o700)
    (secret / "grades.txt").write_text(SECRET)
    staged = sandbox.Staged(folder / "b.py")
    try:
        assert staged.deps is not None
        _deps_swapped_after_the_look(folder, secret)
        done = subprocess.run(staged.argv([sys.executable, "-I", "-c", LIST_DEPS]), capture_output=True, text=True,
                              timeout=60, env=sandbox.ENVIRONMENT, pass_fds=staged.pass_fds)
    finally:
        staged.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['tiny']"


USER_SWAP = '''
import os, subprocess, sys
from pathlib import Path
from bots.external import sandbox
from bots.external.sandbox_launch import walk_folder
folder, secret = Path(sys.argv[1]), Path(sys.argv[2])
if sys.argv[3] == "old":
    sandbox._binds_descriptors.cache_clear()
    sandbox._binds_descriptors = lambda: False
staged = sandbox.Staged(folder / "b.py")
os.rename(folder / ".deps", folder / ".deps.checked")
(folder / ".deps").symlink_to(secret)
argv = staged.argv([sys.executable, "-I", "-c", "import json, os; print(json.dumps([sorted(os.listdir('/bot/.deps')), "
                    "sorted(os.listdir('/proc/self/fd'))]))"])
assert ("--ro-bind-fd" in argv) == (sys.argv[3] == "new"), argv
done = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=sandbox.ENVIRONMENT, pass_fds=staged.pass_fds)
staged.close()
assert done.returncode == 0, done.stderr
print(done.stdout.strip())
'''


@pytest.mark.skipif(os.geteuid() != 0, reason="root makes the user for the test")
@pytest.mark.parametrize("bwrap", ["new", "old"])
def test_a_users_deps_swapped_after_its_look_binds_the_checked_folder_and_no_descriptor_leaks(base, bwrap):
    """As a user, with a bwrap that has ``--ro-bind-fd`` and one that has not (``.deps`` is then
    copied with the folder): the bot sees the folder that was looked at, and inherits no
    descriptor of it (one it could leave its sandbox by, with ``..``)."""
    from tests.bots.external.test_memory_modes import as_user

    folder = base / "student"
    (folder / ".deps" / "tiny").mkdir(parents=True)
    (folder / "b.py").write_text("x = 1\n")
    secret = base / "instructor"
    secret.mkdir(mode=0o700)
    (secret / "grades.txt").write_text(SECRET)
    for path in [folder, *folder.rglob("*"), secret, secret / "grades.txt"]:
        os.chown(path, USER, USER)
    done = subprocess.run(as_user([sys.executable, "-c", USER_SWAP, str(folder), str(secret), bwrap]),
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env={**os.environ, "HOME": str(base)})
    assert done.returncode == 0, done.stderr
    listed, fds = json.loads(done.stdout.splitlines()[-1])
    assert listed == ["tiny"] and SECRET not in done.stdout
    assert set(fds) <= {"0", "1", "2", "3"}, fds  # 3: the listing's own


def test_a_protocol_file_made_a_hard_link_mid_game_is_never_written_or_touched(tmp_path):
    """A program that makes ``move_file`` or its ``.go`` a second name of the instructor's file
    between two moves: the arcade's move replaces the name ``move_file`` (the other name's file
    keeps its text and times), and a ``.go`` that is a hard link is refused (a touch would renew
    that file's times), said in one line."""
    from bots.othello.cs4341_program import FileTrouble, touch, write_whole

    canary = tmp_path / "grades.txt"
    canary.write_text(SECRET)
    folder = tmp_path / "program"
    folder.mkdir()
    for name in ("move_file", "student.go"):
        os.link(canary, folder / name)
    before = os.stat(canary)
    write_whole(folder / "move_file", "arcade E 3")
    assert (folder / "move_file").read_text() == "arcade E 3" and os.stat(folder / "move_file").st_nlink == 1
    with pytest.raises(FileTrouble, match=r"^student.go is a hard link"):
        touch(folder / "student.go")
    after = os.stat(canary)
    assert canary.read_text() == SECRET and (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
