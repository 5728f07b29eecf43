"""``arcade bot install DIR``: a bot folder's ``requirements.txt`` installed into ``DIR/.deps``
(wheels only, from a wheel made here: no network), found by the bot in and out of the sandbox;
a package that cannot be found, a requirement that could build code, a missing file: one clear
line each, and the last good ``.deps`` kept."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from packaging.requirements import Requirement

from bots.external import deps

from bots.external import sandbox
from bots.external.deps import GRAMMAR, InstallError, requirements_of

PROBLEM = sandbox.bwrap_problem()
if PROBLEM is not None and os.environ.get("ARCADE_REQUIRE_SANDBOX"):
    raise RuntimeError(f"ARCADE_REQUIRE_SANDBOX is set and the sandbox cannot run: {PROBLEM}")
MODES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
    PROBLEM is not None, reason=f"the bwrap sandbox cannot run here: {PROBLEM}"))]

BOT = '''"""A Robot Ludo entry that needs a package from PyPI (here, one made by the test)."""
from arcadetiny import pick
import arcadetiny


def engine(board, turn, roll):
    from state import getmoves
    assert arcadetiny.__file__.startswith(ARCADE_DEPS), arcadetiny.__file__
    return pick(getmoves(board, turn, roll))
'''


def make_wheel(folder: Path, name: str = "arcadetiny", version: str = "1.0", requires: str = "") -> Path:
    """A pure-Python wheel of a one-module package, made by hand (a wheel is a zip with its
    metadata and a RECORD of hashes): no build tool, no network. ``requires``: a
    ``Requires-Dist`` line's value."""
    files = {
        f"{name}/__init__.py": "def pick(moves):\n    return moves[-1]\n",
        f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                                + (f"Requires-Dist: {requires}\n" if requires else ""),
        f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                                             "Tag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{name}-{version}.dist-info/RECORD,,")
    files[f"{name}-{version}.dist-info/RECORD"] = "\n".join(record) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def arcade(cwd: Path, *args: str, umask: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull}  # the machine's pip settings play no part
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd, env=env, umask=umask or -1)


@pytest.fixture
def bot(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    folder = tmp_path / "students" / "needs_pkg"
    folder.mkdir(parents=True)
    (folder / "requirements.txt").write_text("# what my engine needs\narcadetiny>=1.0  # the picker\n")
    make_wheel(tmp_path / "wheels")
    return folder


@pytest.mark.parametrize("mode", MODES)
def test_installed_requirements_are_found_by_the_bot_in_and_out_of_the_sandbox(bot, tmp_path, mode):
    done = arcade(tmp_path, "bot", "install", str(bot), "--no-index", "--find-links", str(tmp_path / "wheels"),
                  umask=0o077)  # an installer's private umask: the sandbox's nobody must still read it
    assert done.returncode == 0, done.stderr
    assert "Installing 1 requirement of" in done.stderr and "(pip, Python 3." in done.stderr
    assert done.stdout.startswith("Installed arcadetiny-1.0 into") and "MiB)" in done.stdout
    assert (bot / ".deps" / "arcadetiny" / "__init__.py").is_file()
    assert (bot / ".deps" / "arcadetiny" / "__init__.py").stat().st_mode & 0o444 == 0o444
    assert not (bot / ".deps.installing").exists()
    deps = "/bot/.deps/" if mode == "bwrap" else str(bot / ".deps") + "/"
    (bot / "engine.py").write_text(BOT.replace("ARCADE_DEPS", repr(deps)))
    played = arcade(tmp_path, "match", "ludo", "students/needs_pkg/engine.py", "random", "--games", "2",
                    "--seed", "3", "--sandbox", mode, "--json")
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]


def test_without_the_install_the_bot_cannot_load(bot, tmp_path):
    (bot / "engine.py").write_text(BOT.replace("ARCADE_DEPS", "''"))
    played = arcade(tmp_path, "match", "ludo", "students/needs_pkg/engine.py", "random", "--games", "2",
                    "--sandbox", "none", "--json")
    assert played.returncode != 0 and "No module named 'arcadetiny'" in played.stderr


def test_a_missing_package_is_one_clear_line_and_the_last_good_install_stays(bot, tmp_path):
    assert arcade(tmp_path, "bot", "install", str(bot), "--no-index", "--find-links",
                  str(tmp_path / "wheels")).returncode == 0
    (bot / "requirements.txt").write_text("arcadetiny\nno-such-package-arcade==9.9\n")
    done = arcade(tmp_path, "bot", "install", str(bot), "--no-index", "--find-links", str(tmp_path / "wheels"))
    assert done.returncode == 1 and done.stdout == ""
    errors = [line for line in done.stderr.splitlines() if line.startswith("arcade: error:")]
    assert len(errors) == 1 and done.stderr.strip().splitlines()[-1] == errors[0]
    assert f"pip could not install {bot / 'requirements.txt'}" in errors[0]
    assert "no-such-package-arcade==9.9" in errors[0] and "only wheels are installed" in errors[0]
    assert (bot / ".deps" / "arcadetiny" / "__init__.py").is_file()  # the last good one
    assert not (bot / ".deps.installing").exists()


REFUSED = ["--no-binary :all:", "-e .", "-r ../other.txt", "pkg @ file:///tmp/pkg", "./pkg",
           "git+https://example.org/pkg.git", "pkg.tar.gz", "--index-url http://example.org/simple",
           "numpy --config-settings=x=y", "evil.tbz", "evil.txz", "evil.tlz", "evil.tar.lz", "evil.tar.lzma",
           "EVIL.ZIP", "../up/a-1.0-py3-none-any.whl", "/abs/a-1.0-py3-none-any.whl", "a.whl", "-c c.txt",
           "https://example.org/a-1.0-py3-none-any.whl", "pkg\\", "numpy ${HOME}"]


@pytest.mark.parametrize("line", REFUSED)
def test_a_line_outside_the_grammar_is_refused_before_pip(bot, tmp_path, line):
    (bot / "requirements.txt").write_text(f"numpy>=1.26\n{line}\n")
    done = arcade(tmp_path, "bot", "install", str(bot))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines == [f"arcade: error: {bot / 'requirements.txt'}, line 2: {line!r} is not {GRAMMAR}: nothing "
                     "else is installed (archives, folders, URLs and options may run code as you); "
                     "--build allows them"]
    assert requirements_of(bot, build=True) == ["numpy>=1.26", line]


def test_plain_requirements_pass_and_a_missing_file_or_folder_is_one_line(tmp_path):
    (tmp_path / "requirements.txt").write_text('numpy>=1.26,<2\nscipy; python_version >= "3.11"\n\n'
                                               "Pkg[extra] ~= 1.0\n")
    assert requirements_of(tmp_path) == ["numpy>=1.26,<2", 'scipy; python_version >= "3.11"', "Pkg[extra] ~= 1.0"]
    with pytest.raises(InstallError, match="nowhere is not a folder"):
        requirements_of(tmp_path / "nowhere")
    for target, message in ((tmp_path / "empty", "requirements.txt does not exist"),
                            (tmp_path / "missing", "is not a folder")):
        if target.name == "empty":
            target.mkdir()
        done = arcade(tmp_path, "bot", "install", str(target))
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


def _in_sandbox(folder: Path, script: str) -> subprocess.CompletedProcess:
    staged = sandbox.Staged(folder / "b.py")
    try:
        return subprocess.run(staged.argv([sys.executable, "-I", "-c", script]), capture_output=True, text=True,
                              timeout=60, env=sandbox.ENVIRONMENT, pass_fds=staged.pass_fds)
    finally:
        staged.close()


@pytest.mark.skipif(PROBLEM is not None, reason=f"the bwrap sandbox cannot run here: {PROBLEM}")
def test_deps_are_bound_not_copied_so_their_size_is_no_limit_and_a_link_binds_nothing(tmp_path):
    """As root the bot's folder is copied within ``FOLDER_MAX`` (64 MiB), but ``.deps`` is bound
    on its own: numpy alone is over the cap. A ``.deps`` that is a link leads nowhere."""
    from bots.external import sandbox_launch

    folder = tmp_path / "bot"
    (folder / ".deps" / "big").mkdir(parents=True)
    (folder / "b.py").write_text("x = 1\n")
    with open(folder / ".deps" / "big" / "lib.so", "wb") as handle:
        handle.truncate(sandbox_launch.FOLDER_MAX + (1 << 20))  # sparse: costs no disk
    done = _in_sandbox(folder, "import os; print(os.path.getsize('/bot/.deps/big/lib.so'), sorted(os.listdir('/bot')))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == str(sandbox_launch.FOLDER_MAX + (1 << 20)) and "'.deps'" in done.stdout
    secret = tmp_path / "secret"
    secret.mkdir(mode=0o700)
    (secret / "grades.txt").write_text("SECRET GRADES")
    other = tmp_path / "linked"
    other.mkdir()
    (other / "b.py").write_text("x = 1\n")
    (other / ".deps").symlink_to(secret)
    assert "/bot/.deps" not in sandbox.command(["true"], other / "b.py")
    done = _in_sandbox(other, "import os\ntry:\n    print(open('/bot/.deps/grades.txt').read())\n"
                              "except OSError as exc:\n    print('refused', type(exc).__name__)\n")
    assert done.returncode == 0, done.stderr
    assert "SECRET" not in done.stdout and done.stdout.startswith("refused")


def test_a_wheel_in_the_folder_installs_from_a_copy_and_nothing_of_the_folder_runs(tmp_path):
    """``arcade bot install .`` in the student's folder: pip runs from an empty folder in
    isolated mode, so the student's own ``pip/`` package (first on ``sys.path`` for a plain
    ``python -m pip`` run there) never runs; the wheel named by its path is installed."""
    folder = tmp_path / "student"
    make_wheel(folder / "wheels")
    (folder / "requirements.txt").write_text("./wheels/arcadetiny-1.0-py3-none-any.whl\n")
    ran = tmp_path / "RAN"
    for name in ("pip/__init__.py", "pip/__main__.py", "sitecustomize.py", "usercustomize.py"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(f"open({str(ran)!r}, 'a').write({name!r})\n")
    done = arcade(folder, "bot", "install", ".", "--no-index", umask=0o077)
    assert done.returncode == 0, done.stderr
    assert not ran.exists()
    installed = folder / ".deps" / "arcadetiny" / "__init__.py"
    assert installed.is_file() and installed.stat().st_mode & 0o777 == 0o644
    assert (folder / ".deps").stat().st_mode & 0o777 == 0o755
    assert sorted(p.name for p in folder.iterdir()) == [".deps", "pip", "requirements.txt", "sitecustomize.py",
                                                        "usercustomize.py", "wheels"]


def test_a_wheel_naming_a_dependency_by_url_is_refused_before_pip(tmp_path):
    folder = tmp_path / "student"
    make_wheel(folder, requires="evil @ file:///tmp/evil.tbz")
    (folder / "requirements.txt").write_text("arcadetiny-1.0-py3-none-any.whl\n")
    with pytest.raises(InstallError, match=r"names a dependency by URL \(evil @ file:///tmp/evil.tbz\)"):
        deps.install(folder, no_index=True)
    assert not (folder / ".deps").exists()


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "instructor"
    secret.mkdir(mode=0o700)
    (secret / "token").write_text("INSTRUCTOR TOKEN")
    (secret / "token").chmod(0o600)
    return secret


@pytest.mark.parametrize("name", [".deps", ".deps.installing", ".deps.old"])
@pytest.mark.parametrize("kind", ["link", "fifo", "file"])
def test_a_deps_name_that_is_no_plain_folder_is_refused_and_nothing_through_it_changes(bot, tmp_path, name, kind):
    secret = _secret(tmp_path)
    target = bot / name
    if kind == "link":
        target.symlink_to(secret)
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("x")
    done = arcade(tmp_path, "bot", "install", str(bot), "--no-index", "--find-links", str(tmp_path / "wheels"))
    assert done.returncode == 1 and done.stdout == ""
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(f"arcade: error: {target} is ") and error.endswith(
        "not a folder: remove it first (nothing is installed through it)")
    assert sorted(p.name for p in secret.iterdir()) == ["token"]
    assert (secret / "token").stat().st_mode & 0o777 == 0o600 and secret.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("kind", ["link", "hard link"])
def test_requirements_that_are_a_link_are_refused_and_not_echoed(tmp_path, kind):
    secret = _secret(tmp_path)
    folder = tmp_path / "student"
    folder.mkdir()
    if kind == "link":
        (folder / "requirements.txt").symlink_to(secret / "token")
    else:
        os.link(secret / "token", folder / "requirements.txt")
    done = arcade(tmp_path, "bot", "install", str(folder))
    assert done.returncode == 2 and "TOKEN" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert ("a symbolic link" if kind == "link" else "a hard link") in done.stderr


@pytest.mark.parametrize("kind", ["link", "hard link", "fifo", "folder", "link in the path"])
def test_a_wheel_path_that_is_no_regular_file_of_the_folder_is_refused(tmp_path, kind):
    outside = tmp_path / "outside"
    wheel = make_wheel(outside)
    folder = tmp_path / "student"
    (folder / "w").mkdir(parents=True)
    name = "w/" + wheel.name
    if kind == "link":
        (folder / name).symlink_to(wheel)
    elif kind == "hard link":
        os.link(wheel, folder / name)
    elif kind == "fifo":
        os.mkfifo(folder / name)
    elif kind == "folder":
        (folder / name).mkdir()
    else:
        (folder / "w").rmdir()
        (folder / "w").symlink_to(outside)
    (folder / "requirements.txt").write_text(name + "\n")
    with pytest.raises(InstallError, match=r"requirements.txt, line 1: w/arcadetiny-1.0-py3-none-any.whl"):
        deps.install(folder, no_index=True)
    assert not (folder / ".deps").exists()


# -- the grammar, generated: nothing outside it reaches pip, nothing outside staging changes ------

NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9._-]{0,8}[A-Za-z0-9]", fullmatch=True)
SPECS = st.lists(st.tuples(st.sampled_from(["==", ">=", "<=", "~=", "!=", "<", ">", "==="]),
                           st.from_regex(r"[0-9]{1,2}(\.[0-9]{1,2}){0,2}", fullmatch=True)), max_size=2)
GOOD = st.builds(lambda n, extras, specs, marker: n + (f"[{','.join(extras)}]" if extras else "")
                 + ",".join(op + v for op, v in specs) + marker,
                 NAMES, st.lists(NAMES, max_size=2), SPECS,
                 st.sampled_from(["", '; python_version >= "3.8"', "; sys_platform == 'linux'"]))
WHEELS = st.builds(lambda d, n: d + n + "-1.0-py3-none-any.whl",
                   st.sampled_from(["", "./", "w/", "w/../", "../", "/tmp/", "sub/"]),
                   st.sampled_from(["tiny", "tiny.tbz", "ti..ny", "t"]))
HOSTILE = st.sampled_from(REFUSED + ["-r requirements.txt", "--pre numpy", "numpy -i x", "numpy @ https://x/y",
                                     "svn+https://x", "file:evil.tbz", "pkg.tar.bz2", "pkg.whl", ".", "..",
                                     "numpy==1.0 --hash=sha256:00", "numpy;python_version<'4' --pre", "pkg[x",
                                     "numpy\\", "numpy>=1; os.system('x')", "a@b", "~/x", "%PATH%"])
TEXT = st.text(st.sampled_from("ab1.-_[]<>=~!;@/\\ :'\"$%{}*+,"), min_size=1, max_size=20)
LINES = st.lists(st.one_of(GOOD, WHEELS, HOSTILE, TEXT), min_size=1, max_size=4)
SHAPES = st.sampled_from(["absent", "folder", "file", "link", "fifo", "hard link"])


def _make(path: Path, shape: str, secret: Path) -> None:
    if shape == "folder":
        path.mkdir(parents=True, exist_ok=True)
    elif shape == "file":
        make_wheel(path.parent, "tiny") if path.name.endswith(".whl") else path.write_text("x")
    elif shape == "link":
        path.symlink_to(secret / "token" if path.name.endswith(".whl") else secret)
    elif shape == "fifo":
        os.mkfifo(path)
    elif shape == "hard link":
        os.link(secret / "token", path)


def _snapshot(root: Path, leave_out: Path) -> dict:
    """Every name under ``root`` (``leave_out`` excepted): its kind, mode, links, size, time,
    contents (never read through a link or a FIFO)."""
    seen = {}
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(top) / name
            if path == leave_out or leave_out in path.parents:
                continue
            info = path.lstat()
            body = (path.read_bytes() if stat.S_ISREG(info.st_mode) else
                    os.readlink(path) if stat.S_ISLNK(info.st_mode) else None)
            seen[str(path.relative_to(root))] = (info.st_mode, info.st_nlink, info.st_size, info.st_mtime_ns, body)
    return seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=LINES, deps_shape=SHAPES, installing=SHAPES, wheel_shape=SHAPES)
def test_generated_requirements_and_folders_nothing_outside_the_grammar_reaches_pip(
        monkeypatch, lines, deps_shape, installing, wheel_shape):
    calls = []

    def fake_pip(argv, cwd, env, progress):
        calls.append(argv)
        if "bwrap" in Path(argv[0]).name:  # confined: the machine read-only, the staging folder bound
            argv = argv[argv.index("--") + 1:]
        assert os.listdir(cwd) == [] and env["PIP_CONFIG_FILE"] == os.devnull and "-I" in argv[:3]
        assert {"--isolated", "--only-binary", "--no-deps"} <= set(argv) and "-r" not in argv
        if argv[4] == "download":  # one requirement's one wheel, as the grammar wrote it
            (requirement,) = argv[argv.index("--") + 1:]
            wanted = deps.parse_line(requirement)
            assert wanted is not None and wanted.kind == "requirement" and wanted.text == requirement
            parsed = Requirement(requirement)
            version = next((v for v in ("1.0", "0.1", "99.0", "10.5", "3") if parsed.specifier.contains(v)), None)
            if version is None:
                return 1, ["ERROR: No matching distribution found for " + requirement]
            make_wheel(Path(argv[argv.index("--dest") + 1]), re.sub(r"[-_.]+", "_", parsed.name), version)
            return 0, ["Saved"]
        assert argv[4] == "install" and "--no-index" in argv
        staging = Path(argv[argv.index("--target") + 1]).parent
        assert staging.name.startswith("arcade-install-")
        for argument in argv[argv.index("--") + 1:]:  # exactly the checked wheels' files, no requirement
            assert argument.startswith((str(staging / "wheels") + "/", str(staging / "fetched") + "/"))
            assert Path(argument).is_file() and not Path(argument).is_symlink()
        (staging / "target" / "tiny").mkdir(parents=True)
        (staging / "target" / "tiny" / "__init__.py").write_text("x = 1\n")
        return 0, ["Successfully installed tiny-1.0"]

    monkeypatch.setattr(deps, "run_pip", fake_pip)
    with tempfile.TemporaryDirectory() as top:
        root = Path(top)
        secret = _secret(root)
        folder = root / "student"
        (folder / "w").mkdir(parents=True)
        (folder / "requirements.txt").write_text("\n".join(lines) + "\n")
        _make(folder / ".deps", deps_shape, secret)
        _make(folder / ".deps.installing", installing, secret)
        _make(folder / "w" / "tiny-1.0-py3-none-any.whl", wheel_shape, secret)
        before = _snapshot(root, root / "nothing")
        installed = False
        try:
            deps.install(folder)
        except InstallError as exc:
            assert "\n" not in str(exc)
            assert not calls or "pip" in str(exc) or "conflicts with" in str(exc)
        else:
            installed = True
            assert calls and (folder / ".deps" / "tiny" / "__init__.py").read_text() == "x = 1\n"
            assert (folder / ".deps" / "tiny" / "__init__.py").stat().st_mode & 0o777 == 0o644
        grammar = all(deps.parse_line(line) is not None for _number, line in deps._lines("\n".join(lines)))
        plain = deps_shape in ("absent", "folder") and installing in ("absent", "folder")
        if calls:
            assert grammar and plain
        event("pip ran" if calls else "refused before pip")
        after = _snapshot(root, root / "nothing")
        if installed:  # .deps is new (a plain folder left by a killed install is removed), the rest as it was
            assert (folder / ".deps").is_dir() and not (folder / ".deps").is_symlink()
            before, after = ({k: v for k, v in seen.items() if k != "student" and not k.startswith("student/.deps")}
                             for seen in (before, after))  # (the folder's own entry: a name more)
        assert after == before
