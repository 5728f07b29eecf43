"""The cluster ships only the bot (``arcade.tournament.bundles``): a file bot's folder travels as its regular
files and folders only (a link, FIFO, socket or device is refused in one line naming it, before
any game, and never opened), within a cap counted as it is read; bundles are content-addressed
and a worker never runs a cache entry that does not hash to its name; workers get pairs' seeds,
never the tournament's; nothing the coordinator holds open reaches a bot
(``tests/hostile_bots/courier/spy.py`` looks for it everywhere it can)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade.records.log import RecordLog
from arcade.tournament import bundles, runner
from arcade.tournament.bundles import BundleError, digest_of, encode, entries, materialise
from arcade.tournament.cluster import pack_bots
from arcade.tournament.formats import TournamentError
from arcade.tournament.runner import run_tournament
from bots.external import sandbox
from tests.paths import ROOT, TESTS

SPY = TESTS / "hostile_bots" / "courier" / "spy.py"
CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]
PROBLEM = sandbox.bwrap_problem()


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private bot cache of this test's own (the worker's is ``cache_root()``)."""
    root = tmp_path / "cache"
    root.mkdir(mode=0o700)
    monkeypatch.setattr(bundles, "_ROOT", root)
    return root


def spy_folder(tmp_path: Path, name: str = "alice") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(SPY, folder / "spy.py")
    return folder


def spec(folder: Path) -> str:
    return f"{folder / 'spy.py'}:strategy"


def opened_names(monkeypatch) -> list[str]:
    """Every path ``os.open`` is asked to open from now on (a relative name when by descriptor)."""
    seen: list[str] = []
    real = os.open

    def recording(path, *args, **kwargs):
        seen.append(os.fsdecode(path) if not isinstance(path, int) else str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording)
    return seen


# -- what cannot travel -----------------------------------------------------------------------------

def _plant(folder: Path, kind: str, tmp_path: Path, record: RecordLog) -> str:
    """Put the thing ``kind`` into ``folder``; the name the refusal must give."""
    secret = tmp_path / "grades.xlsx"
    secret.write_text("SECRET GRADES")
    secret.chmod(0o600)
    if kind == "link to a secret file":
        (folder / "notes.py").symlink_to(secret)
    elif kind == "link to the environment":
        (folder / "notes.py").symlink_to("/proc/self/environ")
    elif kind == "link to the open record":
        (folder / "notes.py").symlink_to(f"/proc/self/fd/{record.handle.fileno()}")
    elif kind == "hard link to a secret file":  # as an archive's hard link, extracted, makes
        os.link(secret, folder / "notes.py")
    elif kind == "link to a folder":
        (folder / "notes.py").symlink_to(tmp_path)
    elif kind == "FIFO deep down":
        (folder / "data" / "deep").mkdir(parents=True)
        os.mkfifo(folder / "data" / "deep" / "notes.py")
        return "data/deep/notes.py"
    elif kind == "socket":
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(folder / "notes.py"))
        listener.close()
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(folder / "notes.py", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return "notes.py"


KINDS = ["link to a secret file", "hard link to a secret file", "link to the environment", "link to the open record", "link to a folder",
         "FIFO deep down", "socket", "device"]


def test_a_bot_named_apart_from_its_file_travels_under_its_name(tmp_path):
    """A contest's closing stage names its players by their submissions' digests
    (``run_tournament``'s ``specs``): each one's folder is packed from its spec, under that name."""
    folder, name = spy_folder(tmp_path), "3f" * 32
    packed = pack_bots("toothpicks", ["random", name], 1 << 20, {name: spec(folder)})
    assert [(p.name, p.spec) for p in packed] == [(name, "alice/spy.py:strategy")]
    assert packed[0].digest == pack_bots("toothpicks", [spec(folder)], 1 << 20)[0].digest


@pytest.mark.parametrize("kind", KINDS)
def test_what_is_not_a_regular_file_is_refused_in_one_line_and_never_opened(tmp_path, monkeypatch, kind):
    folder = spy_folder(tmp_path)
    with RecordLog(tmp_path / "record.jsonl", {"kind": "tournament", "seed": 977}) as record:
        name = _plant(folder, kind, tmp_path, record)
        opened = opened_names(monkeypatch)
        with pytest.raises(TournamentError) as refused:
            pack_bots("toothpicks", ["random", spec(folder)], 1 << 20)
    message = str(refused.value)
    assert "\n" not in message and f"{folder / name} is a " in message
    assert "only a bot's regular files and folders travel to a cluster" in message
    assert Path(name).name not in [Path(p).name for p in opened]  # looked at, never opened
    assert "SECRET" not in message and "977" not in message


def test_as_root_the_local_sandbox_copies_what_travels_and_nothing_else(tmp_path):
    """One rule (``walk_folder``): the copy root's sandbox makes of a bot's folder leaves out what
    a cluster refuses, a hard link to a file of someone else's included."""
    if os.geteuid() != 0 or PROBLEM is not None:
        pytest.skip("as root, with bwrap: a user's sandbox binds the folder itself")
    folder = spy_folder(tmp_path)
    (folder / "sub").mkdir()
    (folder / "sub" / "kept.txt").write_text("kept")
    secret = tmp_path / "grades.xlsx"
    secret.write_text("SECRET GRADES")
    os.link(secret, folder / "grades.txt")
    (folder / "notes.py").symlink_to(secret)
    argv = sandbox.command([sys.executable, "-I", "-c", "import os; print(sorted(os.listdir('/bot')), "
                            "sorted(os.listdir('/bot/sub')))"], folder / "spy.py")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=sandbox.ENVIRONMENT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['spy.py',", "'sub']", "['kept.txt']"]


def test_the_bots_own_file_must_be_a_file_not_a_link(tmp_path):
    folder = spy_folder(tmp_path)
    (folder / "bot.py").symlink_to(folder / "spy.py")
    with pytest.raises(TournamentError, match=r"bot\.py is a symbolic link: name the bot's file itself"):
        pack_bots("toothpicks", [f"{folder / 'bot.py'}:strategy", "random"], 1 << 20)


@pytest.mark.parametrize("swapped", ["link", "FIFO"])
def test_a_file_swapped_after_the_look_is_still_never_followed_or_read(tmp_path, monkeypatch, swapped):
    """The walk looks at an entry without following it, then opens it with ``O_NOFOLLOW`` (and
    ``O_NONBLOCK``) and checks the descriptor: a regular file that became a link or a FIFO in
    between is refused all the same."""
    folder = spy_folder(tmp_path)
    secret = tmp_path / "grades.xlsx"
    secret.write_text("SECRET GRADES")
    if swapped == "link":
        (folder / "notes.py").symlink_to(secret)
    else:
        os.mkfifo(folder / "notes.py")
    real = os.stat
    regular = real(folder / "spy.py", follow_symlinks=False)

    def lying(path, *args, **kwargs):  # the look sees a regular file: the swap came after it
        return regular if path == "notes.py" else real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", lying)
    source = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with pytest.raises(BundleError, match=f"notes.py is a {'symbolic link' if swapped == 'link' else 'FIFO'}"):
            encode(source)
    finally:
        os.close(source)


def test_a_big_folder_is_refused_once_the_cap_is_read_never_read_whole(tmp_path, monkeypatch):
    folder = spy_folder(tmp_path)
    with open(folder / "weights.bin", "wb") as handle:  # 20 MiB
        handle.write(os.urandom(1 << 20) * 20)
    read = []
    real = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: (lambda data: read.append(len(data)) or data)(real(fd, n)))
    with pytest.raises(TournamentError, match=r"weights\.bin takes the bot's folder past 2 MiB"):
        pack_bots("toothpicks", [spec(folder), "random"], 2 << 20)
    assert sum(read) <= 3 << 20  # what was read before the refusal: the cap and one chunk at most


def test_a_file_that_grows_while_read_stops_at_the_cap(tmp_path, monkeypatch):
    """The size a file had when looked at does not bound what is read: the bytes read count."""
    folder = spy_folder(tmp_path)
    (folder / "log.txt").write_bytes(b"x")
    real = os.read
    read = []

    def growing(fd, n):  # log.txt never ends, as a file another process keeps writing
        endless = os.readlink(f"/proc/self/fd/{fd}").endswith("log.txt")
        data = b"y" * n if endless else real(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", growing)
    with pytest.raises(TournamentError, match=r"log\.txt takes the bot's folder past 1 MiB"):
        pack_bots("toothpicks", [spec(folder), "random"], 1 << 20)
    assert sum(read) <= 2 << 20


def test_too_many_files_or_folders_too_deep_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(bundles, "ENTRIES", 20)
    monkeypatch.setattr(bundles, "DEPTH", 6)
    many = spy_folder(tmp_path, "many")
    for i in range(25):
        (many / f"f{i:02}.txt").write_text(str(i))
    with pytest.raises(TournamentError, match="past 20 files and folders or 6 folders deep"):
        pack_bots("toothpicks", [spec(many), "random"], 1 << 20)
    deep = spy_folder(tmp_path, "deep")
    (deep / "a" / "b" / "c" / "d" / "e" / "f").mkdir(parents=True)  # 6 deep, counting the bot's folder
    with pytest.raises(TournamentError, match=r"deep/a/b/c/d/e/f takes the bot's folder past"):
        pack_bots("toothpicks", [spec(deep), "random"], 1 << 20)


def test_the_command_refuses_before_it_reaches_the_cluster_or_writes_the_record(tmp_path):
    """One line, exit 2, before a bot runs, a scheduler is reached (here none would answer) or the
    record is made; ``--bundle-cap`` sets the cap."""
    folder = spy_folder(tmp_path)
    record = tmp_path / "record.jsonl"
    (folder / "notes.py").symlink_to("/proc/self/fd/3")
    base = [*CLI, "tournament", "toothpicks", spec(folder), "random", "--games", "2", "--seed", "5",
            "--record", str(record), "--cluster", "tcp://127.0.0.1:9"]
    done = subprocess.run(base, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "notes.py is a symbolic link" in done.stderr
    assert not record.exists()
    (folder / "notes.py").unlink()
    with open(folder / "weights.bin", "wb") as handle:
        handle.truncate(3 << 20)
    done = subprocess.run([*base, "--bundle-cap", "2"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "weights.bin takes the bot's folder past 2 MiB" in done.stderr
    done = subprocess.run([*base, "--bundle-cap", "0"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "--bundle-cap must be at least 1" in done.stderr
    done = subprocess.run([*base, "--bundle-cap", "4"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "cannot reach the Dask scheduler" in done.stderr  # the folder passed


def test_the_record_is_never_inherited_by_a_process_the_coordinator_starts(tmp_path):
    with RecordLog(tmp_path / "record.jsonl", {"kind": "tournament", "seed": 977}) as record:
        assert not os.get_inheritable(record.handle.fileno())


# -- content addressed, checked on the worker ----------------------------------------------------

def packed(folder: Path) -> bundles.Bundle:
    return pack_bots("toothpicks", [spec(folder)], bundles.DEFAULT_CAP)[0]


def tree(entry: Path) -> dict[str, bytes]:
    return {str(p.relative_to(entry)): p.read_bytes() if p.is_file() else b"/"
            for p in sorted(entry.rglob("*"))}


def test_a_bundle_keeps_the_folders_files_and_its_name(tmp_path, cache):
    folder = spy_folder(tmp_path, "pkg")
    (folder / "__init__.py").write_text("")
    (folder / "lib" / "empty").mkdir(parents=True)
    (folder / "lib" / "moves.py").write_text("TAKE = 1\n")
    (folder / "weights.bin").write_bytes(bytes(range(256)))
    bundle = packed(folder)
    assert bundle.spec == "pkg/spy.py:strategy" and bundle.digest == digest_of(bundle.data)
    entry = materialise(bundle.digest, bundle.data)
    assert entry == cache / bundle.digest
    assert tree(entry / "pkg") == tree(folder)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    again = tmp_path / "copy" / "pkg"  # the same files elsewhere: the same name
    shutil.copytree(folder, again)
    assert packed(again).digest == bundle.digest
    (again / "weights.bin").write_bytes(bytes(range(255)))
    assert packed(again).digest != bundle.digest


@pytest.mark.parametrize("planted", ["other code", "an extra file", "a link to elsewhere", "a file", "half"])
def test_a_planted_cache_entry_is_never_run(tmp_path, cache, planted):
    folder = spy_folder(tmp_path)
    bundle = packed(folder)
    entry = cache / bundle.digest
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(folder, elsewhere / "alice")
    (elsewhere / "alice" / "spy.py").write_text("def strategy(left):\n    raise SystemExit('POISON')\n")
    if planted == "a link to elsewhere":
        entry.symlink_to(elsewhere)
    elif planted == "a file":
        entry.write_text("POISON")
    else:
        shutil.copytree(elsewhere if planted == "other code" else folder, entry if planted == "other code"
                        else entry / "alice")
        if planted == "an extra file":
            (entry / "alice" / "sitecustomize.py").write_text("POISON = 1\n")
        if planted == "half":
            (entry / "alice" / "spy.py").write_bytes(SPY.read_bytes()[:100])
    got = materialise(bundle.digest, bundle.data)
    assert got == entry and not entry.is_symlink()
    assert tree(entry / "alice") == tree(folder) and "POISON" not in str(tree(entry))
    assert "POISON" in (elsewhere / "alice" / "spy.py").read_text()  # what the link led to is left alone
    assert sorted(os.listdir(cache)) == [bundle.digest]  # nothing half written or moved aside left


def test_bytes_that_are_not_what_their_name_says_are_not_run(tmp_path, cache):
    bundle = packed(spy_folder(tmp_path))
    with pytest.raises(BundleError, match="do not hash to their name"):
        materialise(bundle.digest, bundle.data.replace(b"return 1", b"return 2"))
    assert os.listdir(cache) == []


def test_a_cache_folder_someone_else_could_write_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(bundles, "_ROOT", None)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    squatted = tmp_path / f"contest-arcade-bots-{os.geteuid()}"
    squatted.mkdir(mode=0o777)
    squatted.chmod(0o777)
    root = bundles.cache_root()
    assert root != squatted and stat.S_IMODE(os.stat(root).st_mode) == 0o700
    monkeypatch.setattr(bundles, "_ROOT", None)
    squatted.rmdir()
    squatted.symlink_to(tmp_path)
    assert bundles.cache_root() not in (squatted, tmp_path)


NAMES = st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=12).filter(
    lambda name: name not in (".", ".."))
TREES = st.recursive(st.binary(max_size=300), lambda inner: st.dictionaries(NAMES, inner, max_size=4), max_leaves=12)


def _make(where: Path, node) -> None:
    if isinstance(node, bytes):
        where.write_bytes(node)
        return
    where.mkdir()
    for name, child in node.items():
        _make(where / name, child)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(node=st.dictionaries(NAMES, TREES, max_size=5))
def test_any_folder_of_files_travels_whole_and_reads_back_to_its_name(node, monkeypatch):
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        _make(base / "bot", node)
        root = base / "cache"
        root.mkdir(mode=0o700)
        monkeypatch.setattr(bundles, "_ROOT", root)
        source = os.open(base / "bot", os.O_RDONLY | os.O_DIRECTORY)
        try:
            data = encode(source, top="bot")
        finally:
            os.close(source)
        assert [kind for kind, _, _ in entries(data)][0] == b"d"
        entry = materialise(digest_of(data), data)
        assert tree(entry / "bot") == tree(base / "bot")
        assert materialise(digest_of(data), data) == entry  # the entry, read again, holds it


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200), st.binary(max_size=200).map(lambda b: bundles.MAGIC + b)))
def test_any_bytes_are_a_bundle_or_a_bundle_error(data, cache):
    try:
        list(entries(data))
    except BundleError:
        pass
    try:
        materialise(digest_of(data), data)
    except BundleError:
        pass
    assert all(not name.endswith((".part", ".gone")) for name in os.listdir(cache))


# -- on a cluster ---------------------------------------------------------------------------------


def _payloads(monkeypatch) -> list[bytes]:
    """Everything the coordinator hands the cluster (each ``submit``'s function and arguments,
    pickled as they travel, the cluster's futures as their keys)."""
    from distributed import Future

    sent: list[bytes] = []
    real = runner.connect

    def spying(address):
        client = real(address)
        submit = client.submit

        def recording(fn, *args, **kwargs):
            plain = [a.key if isinstance(a, Future) else a for a in args]
            sent.append(pickle.dumps((fn, plain, {k: v for k, v in kwargs.items() if k != "key"})))
            return submit(fn, *args, **kwargs)

        client.submit = recording
        return client

    monkeypatch.setattr(runner, "connect", spying)
    return sent


@pytest.mark.xdist_group("processes")
def test_on_a_cluster_only_the_bot_travels_and_the_secret_stays(tmp_path, monkeypatch):
    """A tournament with the spy (it looks for the open record, the instructor's environment and
    files everywhere it can reach), a bot whose helper module and data sit in subfolders, and a
    poisoned cache entry planted under that bot's name on the workers' machine: on a 2-worker
    cluster and locally, the same standings, no leak, no poison; the tournament's seed in nothing
    sent to the cluster (each pair's seed is)."""
    if PROBLEM is not None and not os.environ.get("ARCADE_REQUIRE_SANDBOX"):
        pytest.skip(f"the bwrap sandbox cannot run here: {PROBLEM}")
    import distributed

    from arcade.seeds import pair_seed, secret

    monkeypatch.setenv("SECRET_TOKEN", "instructor-token-55")  # the coordinator's and workers' environment
    spy = spy_folder(tmp_path)
    helper = tmp_path / "bob"
    (helper / "lib").mkdir(parents=True)
    (helper / "data").mkdir()
    (helper / "lib" / "moves.py").write_text(
        "from pathlib import Path\n\n"
        "DATA = Path(__file__).parent.parent / 'data'\n"
        "assert len((DATA / 'book.bin').read_bytes()) == 3 << 20  # past the bot's own 1 MiB file size\n"
        "TAKE = int((DATA / 'take.txt').read_text())\n")
    (helper / "data" / "take.txt").write_text("2\n")
    (helper / "data" / "book.bin").write_bytes(os.urandom(3 << 20))
    (helper / "bot.py").write_text("from lib.moves import TAKE\n\n\ndef strategy(left):\n    return min(TAKE, left)\n")
    bots = [spec(spy), f"{helper / 'bot.py'}:strategy", "always_1", "perfect"]
    poisoned = [b for b in pack_bots("toothpicks", bots, bundles.DEFAULT_CAP) if "bob" in b.name][0]
    planted = bundles.cache_root() / poisoned.digest
    shutil.rmtree(planted, ignore_errors=True)
    shutil.copytree(helper, planted / "bob")
    (planted / "bob" / "bot.py").write_text("def strategy(left):\n    raise RuntimeError('POISON')\n")
    seed = secret()
    local = run_tournament("toothpicks", bots, games=6, seed=seed, jobs=1, record=tmp_path / "local.jsonl")
    sent = _payloads(monkeypatch)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        remote = run_tournament("toothpicks", bots, games=6, seed=seed, cluster=cluster.scheduler_address,
                                record=tmp_path / "cluster.jsonl")
    reasons = [r.reason for p in remote.pairs + local.pairs for r in p.records if r.forfeit is not None]
    assert reasons == [], reasons[:3]  # the spy found nothing; the poison never ran
    assert remote.as_json() == local.as_json()
    assert (planted / "bob" / "bot.py").read_text() == (helper / "bot.py").read_text()
    assert json.loads((tmp_path / "cluster.jsonl").read_text().splitlines()[0])["seed"] == seed
    forms = [str(seed).encode(), hex(seed).encode(), seed.to_bytes(8, "big"), seed.to_bytes(8, "little")]
    assert sent and not [form for form in forms for payload in sent if form in payload]
    one = pair_seed(seed, "round robin", bots[0], bots[1])
    assert any(one.to_bytes(8, "little") in payload for payload in sent)  # as a pickled int is: the search works


def test_a_worker_runs_a_file_bot_only_from_its_checked_bundle(tmp_path, cache):
    """A file bot whose bundle did not come with the task is not looked for on the worker's disk
    (where a file of that path may be anything); bytes that are not what their name says are not
    written or run."""
    from arcade.tournament.cluster import run_cluster_task
    from arcade.tournament.worker import Setup, Task

    folder = spy_folder(tmp_path)
    bundle = packed(folder)
    task = Task(0, bundle.name, "always_1", seed=1, first=1, games=1)
    with pytest.raises(BundleError, match="its files did not come with the task"):
        run_cluster_task(Setup("toothpicks", {}), task, None, None)
    setup = Setup("toothpicks", {}, bundles=((bundle.name, bundle.spec, bundle.digest),))
    with pytest.raises(BundleError, match="do not hash to their name"):
        run_cluster_task(setup, task, bundle.data + b"\0", None)
    assert os.listdir(cache) == []
