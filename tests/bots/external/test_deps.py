"""``arcade bot install DIR``: a bot folder's ``requirements.txt`` installed into ``DIR/.deps``
(wheels only, from a wheel made here: no network), found by the bot in and out of the sandbox;
a package that cannot be found, a requirement that could build code, a missing file: one clear
line each, and the last good ``.deps`` kept."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bots.external import sandbox
from bots.external.deps import InstallError, requirements_of

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


def make_wheel(folder: Path, name: str = "arcadetiny", version: str = "1.0") -> Path:
    """A pure-Python wheel of a one-module package, made by hand (a wheel is a zip with its
    metadata and a RECORD of hashes): no build tool, no network."""
    files = {
        f"{name}/__init__.py": "def pick(moves):\n    return moves[-1]\n",
        f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
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


@pytest.mark.parametrize("line", ["--no-binary :all:", "-e .", "-r ../other.txt", "pkg @ file:///tmp/pkg",
                                  "./pkg", "git+https://example.org/pkg.git", "pkg.tar.gz",
                                  "--index-url http://example.org/simple", "numpy --config-settings=x=y"])
def test_a_requirement_that_could_build_code_is_refused_without_build(bot, tmp_path, line):
    (bot / "requirements.txt").write_text(f"numpy>=1.26\n{line}\n")
    done = arcade(tmp_path, "bot", "install", str(bot))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert lines == [f"arcade: error: {bot / 'requirements.txt'}, line 2: {line!r} is not a plain requirement "
                     "(a name and versions): options, URLs and paths may build code as you; --build allows them"]
    assert requirements_of(bot, build=True) == ["numpy>=1.26", line]


def test_plain_requirements_pass_and_a_missing_file_or_folder_is_one_line(tmp_path):
    (tmp_path / "requirements.txt").write_text('numpy>=1.26,<2\nscipy; python_version >= "3.11"\n\n'
                                               "Pkg[extra] ~= 1.0\n")
    assert requirements_of(tmp_path) == ["numpy>=1.26,<2", 'scipy; python_version >= "3.11"', "Pkg[extra] ~= 1.0"]
    with pytest.raises(InstallError, match="does not exist"):
        requirements_of(tmp_path / "nowhere")
    for target, message in ((tmp_path / "empty", "requirements.txt does not exist"),
                            (tmp_path / "missing", "is not a folder")):
        if target.name == "empty":
            target.mkdir()
        done = arcade(tmp_path, "bot", "install", str(target))
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


def _in_sandbox(folder: Path, script: str) -> subprocess.CompletedProcess:
    argv = sandbox.command([sys.executable, "-I", "-c", script], folder / "b.py")
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=sandbox.ENVIRONMENT)


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
