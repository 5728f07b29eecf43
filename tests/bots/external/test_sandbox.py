"""Contest-grade isolation: a malicious student's bot, run through ``arcade match`` in the bwrap
sandbox, cannot cheat, spy or damage (``tests/hostile_bots/attacker/attacks.py``, one attack a
function); the game is scored as if it had played honestly, nothing outside the sandbox changed,
and no process is left.

Without a working ``bwrap`` these tests skip and say why, unless ``ARCADE_REQUIRE_SANDBOX`` is
set (``.ci/run`` sets it): then they fail.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots.external import cgroups, sandbox, seccomp
from tests.paths import ROOT, TESTS

HOSTILE = TESTS / "hostile_bots"
ATTACKS = HOSTILE / "attacker" / "attacks.py"
VICTIM = f"{HOSTILE / 'victim' / 'victim.py'}:strategy"
MARK = "hostile-marker-3b9e"

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None:
    if os.environ.get("ARCADE_REQUIRE_SANDBOX"):
        raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
    pytestmark = pytest.mark.skip(reason=f"the bwrap sandbox cannot run here: {PROBLEM}")


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    monkeypatch.setenv("SECRET_TOKEN", "instructor-token-55")  # in the arcade's environment only
    return folder


def attack(name: str) -> str:
    return f"{ATTACKS}:{name}"


def match(bot_a: str, bot_b: str, *extra: str, games: int = 2, timeout: float = 120, sandbox_mode: str = "bwrap",
          umask: int = -1) -> tuple[dict, str]:
    """``arcade match toothpicks A B --json`` in the sandbox: its JSON and its standard error."""
    done = subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", "toothpicks",
         bot_a, bot_b, "--games", str(games), "--seed", "5", "--sandbox", sandbox_mode, "--json", *extra],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=os.environ.copy(), umask=umask,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    return json.loads(done.stdout), done.stderr


def honest(games: int = 2) -> dict:
    """The same match with the attacker's honest twin (it always takes 1), for the score."""
    return match("always_1", VICTIM, games=games)[0]


def log_of(logs: Path, name: str) -> Path:
    """The log of the attack ``name`` (``attacks.py:name`` in the folder ``attacker``)."""
    (path,) = logs.glob(f"attacks.{name}.attacker-*.log")
    return path


def reports(logs: Path, name: str) -> list[str]:
    text = log_of(logs, name).read_text(errors="replace")
    return re.findall(rf"REPORT {name} (.*)", text)


def processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                pass
    return found


def descendants(pid: int) -> list[int]:
    """``pid`` and every process it started, from ``/proc``."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                todo += [int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_killing_the_rival_finds_nothing_to_kill(logs):
    result, _ = match(attack("kill_rival"), VICTIM)
    assert set(reports(logs, "kill_rival")) == {"killed=[]"}
    assert result["forfeits"] == [0, 0] and result["wins"] == honest()["wins"]


def test_stopping_the_arcade_finds_nothing_to_stop(logs):
    result, _ = match(attack("stop_arcade"), VICTIM)
    assert set(reports(logs, "stop_arcade")) == {"stopped=[]"}
    assert result["forfeits"] == [0, 0]


@pytest.mark.parametrize("name", ["frozen_clock", "forged_reply"])
def test_the_arcade_keeps_the_clock(logs, name):
    """Freezing its own timers or forging a fast answer on the pipe does not hide 450 ms."""
    result, _ = match(attack(name), VICTIM, "--time-limit", "0.2")
    assert result["forfeits"] == [2, 0]
    assert all(reason.startswith(("Player 1 strategy took >200ms", "Player 2 strategy took >200ms"))
               for reason in result["forfeit_reasons"][0])


def test_spying_sees_no_process_no_secret_no_other_bot(logs):
    result, _ = match(attack("spy"), VICTIM, "--time-limit", "20", games=1)  # it walks the whole file system
    (line,) = set(reports(logs, "spy"))
    assert "LEAK" not in line and line.startswith("processes=[] victim_files=[]")
    assert "SECRET_TOKEN" not in line and "instructor-token" not in log_of(logs, "spy").read_text()
    env = eval(line.split(" env=", 1)[1])  # the sandbox's environment: nothing of the arcade's
    assert set(env) <= {"PATH", "HOME", "PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE", "MALLOC_ARENA_MAX", "PWD", "LANG",
                        "LC_CTYPE"}
    assert result["forfeits"] == [0, 0]


def test_the_rules_and_everything_else_stay_unwritten(logs, tmp_path):
    rules = ROOT / "games" / "toothpicks.py"
    before = hashlib.sha256(rules.read_bytes()).hexdigest(), hashlib.sha256(ATTACKS.read_bytes()).hexdigest()
    result, _ = match(attack("tamper"), VICTIM)
    assert set(reports(logs, "tamper")) == {"written=['/tmp/owned']"}  # its private tmpfs only
    after = hashlib.sha256(rules.read_bytes()).hexdigest(), hashlib.sha256(ATTACKS.read_bytes()).hexdigest()
    assert before == after
    # os.path: a user may not look into /root (Path.exists raises)
    assert not any(os.path.exists(path) for path in ("/owned", "/root/owned", "/usr/owned"))
    assert result["wins"] == honest()["wins"]  # later games are not rigged


def test_the_instructors_terminal_is_out_of_reach(logs):
    """Its parent's standard error inside the sandbox is bwrap's: the bot's own log pipe; no
    terminal is in reach (no /dev/tty), so nothing reaches the arcade's output."""
    _result, stderr = match(attack("terminal"), VICTIM, games=1)
    lines = set(reports(logs, "terminal"))
    assert lines and all("tty" not in line for line in lines)
    assert "pwned" not in stderr


def test_daemons_and_fork_bombs_die_with_the_bot(logs):
    result, _ = match(attack("daemons"), VICTIM)
    assert result["forfeits"] == [0, 0]
    time.sleep(0.5)
    assert processes_with(MARK) == []
    result, _ = match(attack("fork_bomb"), VICTIM, games=1)
    started = max(int(line.removeprefix("started=")) for line in reports(logs, "fork_bomb"))
    assert started < cgroups.PROCESSES  # the process cap held
    time.sleep(0.5)
    assert processes_with(str(ATTACKS)) == []  # the bot's processes, its forks included, are gone


def test_a_flood_of_output_is_cut_in_the_log(logs):
    # a minute a move: 50 MiB written through the log's cut takes seconds on a busy machine
    result, _ = match(attack("flood_log"), VICTIM, "--time-limit", "60", games=1)
    log = log_of(logs, "flood_log")
    assert log.stat().st_size < 200 << 10  # 50 MiB printed
    assert "bytes of output cut" in log.read_text()
    assert result["forfeits"] == [0, 0]


def test_no_network(logs):
    match(attack("network"), VICTIM, games=1)
    lines = reports(logs, "network")
    assert lines and all(line.startswith("refused") for line in lines)


def test_an_honest_bot_plays_the_same_games_in_the_sandbox_and_without(logs):
    good = f"{ROOT / 'tests' / 'fault_bots' / 'toothpicks_faults.py'}:good"
    contained, _ = match(good, VICTIM, games=4)
    done = subprocess.run(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", "toothpicks",
         good, VICTIM, "--games", "4", "--seed", "5", "--sandbox", "none", "--json"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    plain = json.loads(done.stdout)
    for key in ("wins", "draws", "forfeits", "first_player_wins"):
        assert contained[key] == plain[key]


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_a_bot_holding_the_gil_dies_when_the_arcade_is_killed(tmp_path, mode):
    """``sum(range(10**13))`` holds the GIL, so the bot's own watchdog cannot run; the process
    dies with the arcade all the same (bwrap's --die-with-parent, PR_SET_PDEATHSIG)."""
    script = tmp_path / "arcade_stand_in.py"
    script.write_text(
        "import sys, threading, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from bots.base import Context\n"
        "from bots.external import file_entry\n"
        "from bots.limits import Limits\n"
        "from arcade.catalog import load\n"
        "game = load('toothpicks')()\n"
        f"entry = file_entry('toothpicks', {attack('gil_hog')!r}, Limits(sandbox={mode!r}))\n"
        "bot = entry.make(game)\n"
        "threading.Thread(target=lambda: bot.choose(game.initial_state(), Context(time_limit=60)),\n"
        "                 daemon=True).start()\n"
        "while entry.source.host is None or entry.source.host.transport is None:\n"
        "    time.sleep(0.01)\n"
        "time.sleep(1.0)\n"
        "print(entry.source.host.transport.proc.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    stand_in = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "ARCADE_BOT_LOGS": str(tmp_path)})
    try:
        bot_pid = int(stand_in.stdout.readline())
        tree = descendants(bot_pid)
        assert len(tree) >= (3 if mode == "bwrap" else 1)  # bwrap, its reaper and the bot; or the bot
    finally:
        stand_in.send_signal(signal.SIGKILL)
        stand_in.wait()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in tree) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in tree if alive(pid)], "left running after the arcade died"


def test_a_tournament_refuses_uncontained_file_bots_unless_told(monkeypatch, tmp_path):
    """Without a working bwrap, ``arcade tournament`` with file bots stops with one line unless
    ``--sandbox none`` is said; ``arcade match`` runs them with a one-line warning."""
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on this PATH
    cli = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
    good = f"{ROOT / 'tests' / 'fault_bots' / 'toothpicks_faults.py'}:good"
    done = subprocess.run([*cli, "tournament", "toothpicks", good, "random", "--games", "2"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "file bots need the sandbox" in done.stderr
    assert "--sandbox none" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([*cli, "tournament", "toothpicks", good, "random", "--games", "2", "--sandbox", "none",
                           "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["standings"]
    done = subprocess.run([*cli, "match", "toothpicks", good, "random", "--games", "2", "--json"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0
    assert re.fullmatch(r"arcade: warning: file bots are NOT contained \(no sandbox: .*\)\n", done.stderr)


def test_a_secret_seed_is_printed_for_a_replay_and_a_given_seed_is_not_secret():
    cli = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
    done = subprocess.run([*cli, "match", "hog", "always_roll_4", "always_roll_6", "--games", "3", "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    first = json.loads(done.stdout)
    assert first["seed_was_secret"] is True
    again = subprocess.run([*cli, "match", "hog", "always_roll_4", "always_roll_6", "--games", "3", "--json",
                            "--seed", str(first["seed"])], capture_output=True, text=True, cwd=ROOT, timeout=60)
    replay = json.loads(again.stdout)
    assert replay["seed_was_secret"] is False and replay["wins"] == first["wins"] and replay["seed"] == first["seed"]
    table = subprocess.run([*cli, "match", "hog", "always_roll_4", "always_roll_6", "--games", "1"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert re.search(r"secret seed (\d+): replay this match with --seed \1\n", table.stdout)


async def test_the_setup_screen_offers_the_sandbox_for_file_bots(monkeypatch):
    """The sandbox row shows with a file bot; bwrap asked for where it cannot run is one line on the
    screen, auto falls back with a warning, and the game runs the bot in the chosen mode."""
    from textual.widgets import Input, Select, Static

    from arcade.catalog import CATALOG
    from arcade.screens.game import GameScreen
    from arcade.screens.setup import FILE, SetupScreen
    from tests.conftest import make_app, settle

    good = f"{ROOT / 'tests' / 'fault_bots' / 'toothpicks_faults.py'}:good"
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        setup = SetupScreen(CATALOG["toothpicks"])
        await app.push_screen(setup)
        await pilot.pause()
        row = setup.query_one("#sandbox-row")
        assert not row.display
        setup.query_one("#side-1", Select).value = FILE
        await pilot.pause()
        assert row.display
        setup.query_one("#file-1", Input).value = good
        monkeypatch.setattr(sandbox, "bwrap_problem", lambda: "bwrap is not installed")
        setup.query_one("#sandbox", Select).value = "bwrap"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is setup and "bwrap is not installed" in str(setup.query_one("#setup-error", Static).render())
        setup.query_one("#sandbox", Select).value = "auto"
        await pilot.press("ctrl+s")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        assert any("NOT contained" in n.message for n in app._notifications)
        assert game.bot_entries[1].source.sandbox == "none"
        monkeypatch.undo()
        await pilot.press("q")
        await settle(pilot)
        from arcade.screens.menu import MenuScreen

        assert isinstance(app.screen, MenuScreen)  # leaving the game leaves its setup too


async def test_the_tournament_screen_runs_file_bots_contained_or_not_at_all(monkeypatch):
    from textual.widgets import Input, SelectionList, Static

    from arcade.screens.tournament import TournamentScreen
    from tests.conftest import make_app
    from tests.arcade.tournament.test_tournament import run_and_wait

    good = f"{ROOT / 'tests' / 'fault_bots' / 'toothpicks_faults.py'}:good"
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = TournamentScreen("toothpicks")
        await app.push_screen(screen)
        await pilot.pause()
        for name in ("random", "always_2", "mirror"):  # perfect, always_1 and the file bot: 3 pairs
            screen.query_one("#t-bots", SelectionList).deselect(name)
        screen.query_one("#t-files", Input).value = good
        screen.query_one("#t-games", Input).value = "2"
        status = screen.query_one("#t-status", Static)
        monkeypatch.setattr(sandbox, "bwrap_problem", lambda: "bwrap is not installed")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not screen.running and "file bots need the sandbox" in str(status.render())
        monkeypatch.undo()
        await run_and_wait(pilot, screen)  # the seed left empty: a secret one, shown at the end
        text = str(status.render())
        assert text.startswith("done: 6 games") and re.search(r"secret seed \d+ \(type it to replay\)", text)


@pytest.mark.parametrize("name", ["protocol_string", "protocol_flood"])
def test_a_forged_protocol_line_is_the_attackers_own_loss(logs, name):
    """A JSON string the arcade uses as a signal, or megabytes without an end of line, written on
    the protocol's pipe: the attacker forfeits with an error, the arcade goes on."""
    result, _ = match(attack(name), VICTIM, games=2)
    assert result["forfeits"] == [2, 0] and result["wins"] == [0, 2]
    assert all("garbled its answer" in reason or "without an end of line" in reason
               for reason in result["forfeit_reasons"][0])


def escape_report(logs: Path) -> dict:
    """The ``escape`` attack's one report line, as a dict of its fields."""
    (line,) = set(reports(logs, "escape"))
    fields = dict(re.findall(r"(\w+)=(\[.*?\]|\{.*?\}|\S+)(?= \w+=|$)", line))
    return {key: eval(value) if value[0] in "[{" else value for key, value in fields.items()}


def test_root_gives_nothing(logs):
    """Whoever starts the arcade (root in CI and containers, or a user), the bot has no
    capability, is not root, cannot make namespaces, remount, mount, chroot, make device nodes or
    change the owner's bits of the host's devices, writes nowhere but its private /tmp, and finds
    in /dev only the usual character devices and a small /dev/shm."""
    result, _ = match(attack("escape"), VICTIM, "--time-limit", "20", games=1)
    found = escape_report(logs)
    assert found["got"] == [], found["got"]
    assert set(found["caps"].values()) == {"0000000000000000"}
    assert "0" not in found["uid"] and found["no_new_privs"] == "1"
    assert found["devices"] == {**{name: "char" for name in sandbox.DEVICES}, "shm": "dir", "fd": "link",
                                "stdin": "link", "stdout": "link", "stderr": "link"}
    assert int(found["shm"]) <= sandbox.SHM_SIZE
    assert result["forfeits"] == [0, 0]


def test_the_limits_hold_on_the_bots_own_process(logs):
    """The bot's Python processes (its loaded process, bwrap's grandchild, and the game's, forked
    from it) have the rlimits; as root they are nobody to the kernel too (not only inside their
    namespace) and sit in the bot's pids cgroup, which goes with them."""
    from arcade.catalog import load
    from bots.base import Context
    from bots.external import DEFAULT_MEMORY, file_entry
    from bots.limits import Limits

    game = load("toothpicks")()
    entry = file_entry("toothpicks", VICTIM, Limits(sandbox="bwrap"))
    try:
        entry.make(game).choose(game.initial_state(), Context(time_limit=60))
        host = entry.source.host
        tree = descendants(host.transport.proc.pid)
        pythons = [pid for pid in tree if Path(f"/proc/{pid}/exe").resolve() == Path(sys.executable).resolve()]
        assert len(pythons) == 2  # the loaded process and the game's
        memory, processes = cgroups.process_caps(DEFAULT_MEMORY, True, host.transport.cgroup)
        held = host.transport.cgroup.memory is not None  # one budget: each process the cap, else a share
        assert (memory, processes) == ((DEFAULT_MEMORY, cgroups.PROCESSES) if held
                                       else (DEFAULT_MEMORY // cgroups.SPLIT, cgroups.SPLIT + 1))
        cgroup = host.transport.cgroup.path if host.transport.cgroup is not None else None
        for bot in pythons:
            limits = {line[:26].strip(): line[26:].split()[:2]
                      for line in Path(f"/proc/{bot}/limits").read_text().splitlines()[1:]}
            assert limits["Max processes"] == [str(processes)] * 2
            assert limits["Max cpu time"][0] == str(sandbox.CPU_SECONDS)
            open_files = sandbox.OPEN_FILES if held else sandbox.SPLIT_OPEN_FILES
            assert limits["Max open files"] == [str(open_files)] * 2
            assert limits["Max file size"] == [str(sandbox.LOG_FILE_SIZE)] * 2
            assert limits["Max address space"] == [str(memory)] * 2
            assert limits["Max core file size"] == ["0", "0"]
            status = dict(line.split(":", 1) for line in Path(f"/proc/{bot}/status").read_text().splitlines())
            outside = {int(uid) for uid in status["Uid"].split()}
            assert outside == ({sandbox.UNPRIVILEGED} if os.geteuid() == 0 else {os.geteuid()})
            assert int(status["CapEff"], 16) == 0 and status["NoNewPrivs"].strip() == "1"
            if cgroup is not None:  # root, where cgroups can be made
                assert cgroup.name in Path(f"/proc/{bot}/cgroup").read_text()
                assert (cgroup / "pids.max").read_text().strip() == str(cgroups.PROCESSES)
            elif os.geteuid() == 0:
                assert cgroups._pids_root() is None  # root without a pids controller: only RLIMIT_NPROC
    finally:
        entry.close()
    assert cgroup is None or not cgroup.exists()  # removed once the bot's namespace died, not left behind


@pytest.mark.parametrize("euid", [0, 1000])
def test_root_starts_bwrap_through_the_launcher_and_a_user_directly(monkeypatch, euid):
    """The same bwrap arguments either way: no capabilities, nobody inside, no user namespaces;
    root's go through ``bots/external/sandbox_launch.py`` (bwrap as nobody outside too)."""
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    argv = sandbox.command(["python3"], ATTACKS)
    bwrap = argv.index("--unshare-all") - 1
    assert argv[:bwrap] == ([sys.executable, "-I", "-S", str(ROOT / "bots" / "external" / "sandbox_launch.py"), str(os.getpid())]
                            if euid == 0 else [])
    args = argv[bwrap + 1:]
    text = " ".join(args)
    for flag in ("--cap-drop ALL", "--uid 65534", "--gid 65534", "--unshare-user", "--disable-userns",
                 f"--size {sandbox.SHM_SIZE} --tmpfs /dev/shm --remount-ro /dev", "--proc /proc --remount-ro /proc",
                 "--remount-ro / --"):
        assert flag in text
    assert "--dev /dev" not in text and "--bind " not in text  # no devpts, no writable bind


def _in_sandbox(folder: Path, script: str) -> subprocess.CompletedProcess:
    """``script`` run in a sandbox whose bot's folder is ``folder``, as the arcade starts one
    (``sandbox.Staged``: a user's copy of the folder, the seccomp filter)."""
    staged = sandbox.Staged(folder / "b.py")
    copy = staged.folder
    try:
        return subprocess.run(staged.argv([sys.executable, "-I", "-c", script]), capture_output=True, text=True,
                              timeout=60, env=sandbox.ENVIRONMENT, pass_fds=staged.pass_fds)
    finally:
        staged.close()
        assert copy is None or not copy.exists()  # a user's copy is gone with the bot


def test_a_private_folder_is_the_bots_and_its_links_lead_nowhere(tmp_path, who):
    """A bot's folder that only its owner may enter (pytest's, ``umask 077``, ``/root``) is the
    bot's in its sandbox, whoever starts the arcade (a copy, readable whatever the umask); a link
    in it to a file the student may not read, a hard link to it, a FIFO and a device give the bot
    nothing, and its mounts name no path of the folder on the host."""
    folder = tmp_path / "hostfolder-7c1d" / "bot"
    folder.mkdir(mode=0o700, parents=True)
    (folder / "b.py").write_text("x = 1\n")
    (folder / "pkg").mkdir(mode=0o700)
    (folder / "pkg" / "m.py").write_text("y = 2\n")
    (folder / "pkg" / "m.py").chmod(0o600)
    secret = tmp_path / "grades.txt"
    secret.write_text("SECRET GRADES")
    secret.chmod(0o600)
    (folder / "notes.txt").symlink_to(secret)
    os.link(secret, folder / "hard.txt")
    (folder / "up").symlink_to(tmp_path)
    os.mkfifo(folder / "pipe")
    umask = os.umask(0o077)
    try:
        done = _in_sandbox(folder, (
            "import os\n"
            "print(sorted(os.listdir('/bot')), open('/bot/pkg/m.py').read().strip(), open('b.py').read().strip())\n"
            "for name in ('notes.txt', 'up/grades.txt', 'hard.txt'):\n"
            "    try:\n"
            "        print(open('/bot/' + name).read())\n"
            "    except OSError as exc:\n"
            "        print('refused', name, type(exc).__name__)\n"
            "print('hostfolder' in open('/proc/self/mountinfo').read())\n"
        ))
    finally:
        os.umask(umask)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "SECRET" not in done.stdout
    assert lines[0] == "['b.py', 'pkg'] y = 2 x = 1"
    assert lines[1:] == ["refused notes.txt FileNotFoundError", "refused up/grades.txt FileNotFoundError",
                         "refused hard.txt FileNotFoundError", "False"]


def test_a_bots_folder_is_copied_within_its_cap(tmp_path, who):
    """The bot's folder is a copy of at most ``FOLDER_MAX`` bytes, as root (root's launcher, in
    a tmpfs) and as a user (the arcade, into a private folder): more, and the sandbox says so
    (in the bot's log) and the bot does not start."""
    from bots.external import sandbox_launch

    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "b.py").write_text("x = 1\n")
    with open(folder / "weights.bin", "wb") as handle:
        handle.truncate(sandbox_launch.FOLDER_MAX + (1 << 20))  # sparse: costs no disk
    done = _in_sandbox(folder, "import os; print(os.path.getsize('/bot/weights.bin'))")
    assert done.returncode in (71, 1) and f"it must fit in {sandbox_launch.FOLDER_MAX >> 20} MiB" in done.stderr
    (folder / "weights.bin").unlink()
    with open(folder / "weights.bin", "wb") as handle:
        handle.truncate(sandbox_launch.FOLDER_MAX - (1 << 20))
    done = _in_sandbox(folder, "import os; print(os.path.getsize('/bot/weights.bin'))")
    assert done.returncode == 0 and int(done.stdout) == sandbox_launch.FOLDER_MAX - (1 << 20)


@pytest.fixture(params=["as run", "a user's way"])
def who(request, monkeypatch) -> str:
    """The sandbox started as this process's user would (as root: the launcher), or as a user
    would (``bwrap`` directly, the folder copied by the arcade): as root, the second is tried by
    making the arcade believe it is not root."""
    if request.param == "a user's way" and os.geteuid() == 0:
        monkeypatch.setattr(os, "geteuid", lambda: 1000)
    return request.param


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_tracing_or_reading_another_process_fails(logs, mode):
    """``ptrace`` (attach, seize), ``process_vm_readv`` and ``kcmp`` on the bot's parent (bwrap's
    reaper; without the sandbox, the arcade itself) fail with EPERM: the seccomp filter
    (``seccomp.seccomp_program``, bwrap's ``--seccomp``, or loaded on an unsandboxed bot)."""
    result, _ = match(attack("trace"), VICTIM, "--time-limit", "20", games=1, sandbox_mode=mode)
    (line,) = set(reports(logs, "trace"))
    got = eval(line.removeprefix("got="))
    assert len(got) == 4 and set(got.values()) == {"EPERM"}, got
    assert result["forfeits"] == [0, 0]


def test_the_filter_is_the_machines_and_refuses_other_architectures():
    import struct

    for machine, arch in (("x86_64", 0xC000003E), ("aarch64", 0xC00000B7)):
        program = seccomp.seccomp_program(machine)
        entries = [struct.unpack("=HBBI", program[at:at + 8]) for at in range(0, len(program), 8)]
        assert entries[1] == (0x15, 1, 0, arch) and entries[2][3] == entries[-1][3] == 0x00050000 | 1
        compared = [value for code, _jt, _jf, value in entries[4:-2]]
        assert len(compared) == len(seccomp.DENIED_CALLS) + (machine == "x86_64")
        for at, (code, jt, jf, _value) in enumerate(entries[4:-2], 4):
            assert at + 1 + jt == len(entries) - 1 and jf == 0  # every match: the last entry, EPERM
    assert seccomp.seccomp_program("sparc") is None


def test_the_bot_sees_no_host_path_and_a_private_umask_loads(logs):
    """Started under ``umask 077`` (as root: the copy was 0400, and every bot failed to load),
    the bot loads; ``/proc/self/mountinfo`` names no path of its folder on the host."""
    result, _ = match(attack("where"), VICTIM, "--time-limit", "20", games=1, umask=0o077)
    (line,) = set(reports(logs, "where"))
    assert "attacks.py" in line.split(" bot=", 1)[1]
    roots = eval(line.split(" bot=", 1)[0].removeprefix("roots="))
    assert not [root for root in roots if "hostile_bots" in root or "attacker" in root], roots
    assert result["forfeits"] == [0, 0]


def test_unsandboxed_the_arcades_proc_files_are_not_the_bots(tmp_path):
    """Before an unsandboxed bot starts, the arcade makes itself not dumpable
    (``sandbox.hide_arcade``): a process of the same user (here, both ``nobody``) can no longer
    read its environment or its open files (the record with its seed). As root, both are
    ``nobody`` (a root bot reads anything: the README says so)."""
    record = tmp_path / "record.jsonl"
    record.write_text('{"seed": 1234567}\n')
    record.chmod(0o644)
    code = ("import ctypes, os, sys, subprocess, time\n"
            "from bots.external import sandbox\n"
            "handle = open(sys.argv[1])\n"
            "if os.geteuid() == 0:  # as root: both processes nobody, a user's case\n"
            "    os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)\n"
            "if sys.argv[2] == 'hidden':\n"
            "    sandbox.hide_arcade()\n"
            "else:  # a user's process is dumpable (a change of user made this one not)\n"
            "    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)\n"
            "me = os.getpid()\n"
            "for part in ('environ', f'fd/{handle.fileno()}'):\n"
            "    done = subprocess.run(['/bin/cat', f'/proc/{me}/{part}'], capture_output=True, env={})\n"
            "    print(part, done.returncode, b'SECRET_TOKEN' in done.stdout or b'1234567' in done.stdout)\n")
    seen = {}
    for how in ("plain", "hidden"):
        done = subprocess.run([sys.executable, "-c", code, str(record), how], capture_output=True, text=True,
                              timeout=60, cwd=ROOT, env={**os.environ, "SECRET_TOKEN": "x"})
        assert done.returncode == 0, done.stderr
        seen[how] = done.stdout.split("\n")[:2]
    assert [line.endswith("0 True") for line in seen["plain"]] == [True, True]  # the check can fail
    assert [line.split()[1:] for line in seen["hidden"]] == [["1", "False"], ["1", "False"]]


HOG = HOSTILE / "hog" / "hog.py"


def _held(arcade: int) -> int:
    """Bytes held now by the bot of the arcade ``arcade`` that holds the most (its memory
    cgroup's count: all of its processes, their memfd and tmpfs files, the page cache)."""
    most = 0
    for root, name in ((Path("/sys/fs/cgroup/contest-arcade"), "memory.current"),
                       (Path("/sys/fs/cgroup/unified/contest-arcade"), "memory.current"),
                       (Path("/sys/fs/cgroup/memory/contest-arcade"), "memory.usage_in_bytes")):
        for cgroup in root.glob(f"bot-{arcade}-*"):
            try:
                most = max(most, int((cgroup / name).read_text()))
            except (OSError, ValueError):
                pass
    return most


@pytest.mark.parametrize("mode", ["bwrap", "none"])
@pytest.mark.parametrize("name", ["forks", "memfds"])
def test_all_of_a_bots_processes_share_one_memory_budget(logs, mode, name):
    """Under ``--memory 160`` a bot whose 20 children each touch 100 MiB, or whose 4 processes
    keep 240 memfd files of 1 MiB, forfeits for the memory cap, with all of its processes
    counted together (its memory cgroup), holding at most 1.25x the cap meanwhile; the arcade
    and the other bot play on. Where no memory cgroup can be made (a user without one), the
    mode says the cap is per process."""
    mode_here = cgroups.memory_mode()
    if os.geteuid() != 0:  # a user's ways: tests/bots/external/test_memory_modes.py
        assert mode_here.startswith(("one budget (delegated cgroup v", "split:"))
        return
    assert mode_here.startswith("one budget (cgroup v")
    arcade = subprocess.Popen(
        [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", "toothpicks",
         f"{HOG}:{name}", VICTIM, "--games", "2", "--seed", "5", "--sandbox", mode, "--json", "--memory", "160",
         "--time-limit", "20"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    peak = 0
    while arcade.poll() is None:
        peak = max(peak, _held(arcade.pid))
        time.sleep(0.01)
    out, err = arcade.communicate()
    assert arcade.returncode == 0, err
    result = json.loads(out)
    reasons = result["forfeit_reasons"][0]
    assert result["forfeits"][0] == 2 and result["forfeits"][1] == 0, result
    assert reasons and all("exceeded the memory cap (160 MiB, all of its processes together)" in reason
                           for reason in reasons), reasons
    assert 0 < peak <= 1.25 * (160 << 20), peak / (1 << 20)
    print(f"{name} {mode}: peak {peak / (1 << 20):.1f} MiB under --memory 160; {reasons}")
