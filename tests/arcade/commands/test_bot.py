"""``arcade bot install DIR`` says where a bot finds what it installs: one rule, ``.deps`` in the
bot's own folder (a package's own folder for a bot in one), the same at load time and in the
sandbox; installing into a folder above a package is said to miss it, when installing and when
the bot then cannot import its package."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from bots.external import sandbox
from bots import DEPS_RULE, deps_folder
from bots.external.specs import deps_elsewhere
from tests.bots.external.test_deps import BOT, arcade, make_wheel

MODES = ["none", "bwrap"]


@pytest.mark.parametrize("mode", MODES)
def test_one_rule_for_a_bot_in_a_package_said_by_the_install_and_by_the_bot(tmp_path, monkeypatch, mode):
    if mode == "bwrap" and sandbox.bwrap_problem() is not None:
        assert not os.environ.get("ARCADE_REQUIRE_SANDBOX"), sandbox.bwrap_problem()
        pytest.skip(f"the bwrap sandbox cannot run here: {sandbox.bwrap_problem()}")
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    wheels = make_wheel(tmp_path / "wheels").parent
    repo = tmp_path / "students" / "repo"
    package = repo / "mybot"
    package.mkdir(parents=True)
    (repo / "requirements.txt").write_text("arcadetiny>=1.0\n")
    deps = "/bot/.deps/" if mode == "bwrap" else str(package / ".deps") + "/"
    (package / "__init__.py").write_text(BOT.replace("ARCADE_DEPS", repr(deps)))
    install = ("--no-index", "--find-links", str(wheels))

    # installed into the folder above the package: the install says the rule, and that it misses
    done = arcade(tmp_path, "bot", "install", str(repo), *install)
    assert done.returncode == 0, done.stderr
    assert f"Where: {DEPS_RULE}." in done.stderr
    assert (f"Note: {package} is a package: a bot in it finds {package / '.deps'}, not {repo / '.deps'}"
            in done.stderr)
    assert deps_folder(package / "__init__.py") == package / ".deps"
    assert deps_elsewhere(package / "__init__.py") == repo / ".deps"
    played = arcade(tmp_path, "match", "ludo", "students/repo/mybot:engine", "random", "--sandbox", mode)
    assert played.returncode == 2
    line, = played.stderr.strip().splitlines()
    assert "No module named 'arcadetiny'" in line
    assert f"({repo / '.deps'} is not this bot's: {DEPS_RULE}; run arcade bot install {package})" in line

    # installed as the rule says: the bot plays, in the sandbox too
    shutil.copy(repo / "requirements.txt", package)
    done = arcade(tmp_path, "bot", "install", str(package), *install)
    assert done.returncode == 0 and f"Where: {DEPS_RULE}." in done.stderr and "Note:" not in done.stderr
    assert deps_elsewhere(package / "__init__.py") is None
    played = arcade(tmp_path, "match", "ludo", "students/repo/mybot:engine", "random", "--games", "2",
                    "--sandbox", mode, "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["forfeits"] == [0, 0]
