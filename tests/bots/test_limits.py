"""A run's ``Limits`` (one encoding, built once) and ``bots.registry.admit`` (the one way in)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arcade.catalog import load
from arcade.commands.common import UsageError, add_memory_option, add_sandbox_option, limits_of
from arcade.session import Session
from bots import registry
from bots.external import sandbox
from bots.base import BotEntry, Bot, Context
from bots.limits import DEFAULT_MEMORY, Limits, LimitsError, move_time
from bots.registry import UnknownBot, admit, contain
from tests.paths import TESTS

FAULTS = TESTS / "fault_bots"
GOOD = f"{FAULTS / 'toothpicks_faults.py'}:good"


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))
    return tmp_path / "logs"


# -- one encoding ---------------------------------------------------------------------------------

def cli_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=None)
    add_memory_option(parser)
    add_sandbox_option(parser, "auto", "auto")
    return parser.parse_args(argv)


def test_the_command_lines_memory_in_mib_becomes_bytes_once_and_0_no_cap():
    assert limits_of(cli_args()) == Limits() and Limits().memory == DEFAULT_MEMORY == 1 << 30
    assert limits_of(cli_args("--memory", "0")).memory is None
    assert limits_of(cli_args("--memory", "5")).memory == 5 << 20
    assert limits_of(cli_args("--time-limit", "0.5", "--sandbox", "none")) == Limits(time=0.5, sandbox="none")
    with pytest.raises(UsageError, match="--memory must be 0"):
        limits_of(cli_args("--memory", "-1"))


@given(st.integers(min_value=0, max_value=1 << 20))
def test_from_cli_is_bytes_or_none_for_any_mib(mib):
    memory = Limits.from_cli(memory_mib=mib).memory
    assert memory is None if mib == 0 else memory == mib * 1024 * 1024


@pytest.mark.parametrize("bad", [dict(time=0), dict(time=float("nan")), dict(time=float("inf")), dict(grace=-1),
                                 dict(memory=0), dict(memory=-5), dict(sandbox="docker")])
def test_limits_that_make_no_sense_are_refused(bad):
    with pytest.raises(LimitsError):
        Limits(**bad)


def test_a_moves_time_is_the_runs_else_the_games_default():
    othello = load("othello")
    assert move_time(othello(time_limit=0.3)) == 0.3 == Limits().move_time(othello(time_limit=0.3))
    assert move_time(load("dfootball")()) == 0.1  # the contest's 100 ms
    assert move_time(load("hog")()) == move_time(load("ludo")()) == 1.0
    assert move_time(othello(), 2.5) == Limits(time=2.5).move_time(othello()) == 2.5


def test_the_grace_is_half_the_time_at_least_half_a_second_unless_set():
    assert Limits().grace_for(0.1) == 0.5 and Limits().grace_for(10) == 5
    assert Limits(grace=0.25).grace_for(10) == 0.25


def test_the_session_hands_the_time_to_every_bots_context():
    game = load("toothpicks")()
    seen = []

    class Watcher(Bot):
        def choose(self, state, ctx: Context):
            seen.append(ctx.time_limit)
            return 1

    Session(game, {0: Watcher(game), 1: Watcher(game)}, limits=Limits(time=0.7)).play_to_end()
    Session(game, {0: Watcher(game), 1: Watcher(game)}).play_to_end()
    assert set(seen) == {0.7, None}


def test_built_in_bots_say_their_own_time_a_move():
    from bots.registry import bots_for

    othello = load("othello")()
    bots = bots_for("othello")
    assert bots["alphabeta-0.1s"].make(othello).move_seconds() == 0.1
    assert bots["alphabeta"].make(othello).move_seconds() == 10.0  # the game's time_limit option
    assert bots["greedy"].make(othello).move_seconds() == 0.01  # keeps no clock
    assert bots_for("ludo")["expectimax"].make(load("ludo")()).move_seconds() == 0.1


# -- admit --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fake(BotEntry):
    problem: str | None = None
    closed: list = field(default_factory=list, compare=False)

    def probe(self, game):
        return self.problem

    def close(self):
        self.closed.append(self.name)


def test_admit_closes_every_entry_made_so_far_when_one_cannot_play(monkeypatch):
    closed: list[str] = []
    fakes = {name: Fake(name, "", lambda game: None, problem=f"{name} is broken" if name == "c" else None,
                        closed=closed) for name in "abcd"}
    made = []
    monkeypatch.setattr(registry, "resolve", lambda game_id, spec, limits: made.append(spec) or fakes[spec])
    with pytest.raises(UnknownBot, match="c is broken") as caught:
        admit(load("toothpicks")(), ["a", "b", "c", "d"])
    assert caught.value.index == 2 and made == ["a", "b", "c"] and closed == ["a", "b", "c"]
    admitted = admit(load("toothpicks")(), ["a", "b"])
    assert [e.name for e in admitted.entries] == ["a", "b"] and closed == ["a", "b", "c"]
    admitted.close()
    assert closed[-2:] == ["a", "b"]


def test_admit_closes_a_loaded_file_bot_when_the_next_cannot_load(monkeypatch):
    entries = []
    real = registry.resolve

    def resolve(game_id, spec, limits):
        entries.append(real(game_id, spec, limits))
        return entries[-1]

    monkeypatch.setattr(registry, "resolve", resolve)
    with pytest.raises(UnknownBot, match="cannot load bot") as caught:
        admit(load("toothpicks")(), [GOOD, str(FAULTS / "syntax_error.py")], Limits(sandbox="none"))
    assert caught.value.index == 1
    assert entries[0].source.host is None  # its process was started by the probe, and killed


def test_the_sandbox_admit_probes_in_is_the_one_it_hands_on(monkeypatch):
    seen = []
    monkeypatch.setattr(registry, "resolve", lambda game_id, spec, limits: seen.append(limits.sandbox) or
                        Fake(spec, "", lambda game: None))
    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: None)
    admitted = admit(load("toothpicks")(), ["perfect", GOOD], Limits(), required=True)
    assert seen == ["bwrap", "bwrap"] and admitted.limits.sandbox == "bwrap" and admitted.warning is None
    monkeypatch.setattr(sandbox, "bwrap_problem", lambda: "bwrap is not installed")
    fallback = admit(load("toothpicks")(), [GOOD], Limits())
    assert fallback.limits.sandbox == seen[-1] == "none" and "NOT contained" in fallback.warning
    with pytest.raises(sandbox.SandboxUnavailable):
        admit(load("toothpicks")(), [GOOD], Limits(), required=True)  # a tournament's: no fallback
    assert contain(["perfect", "random"], Limits(sandbox="bwrap")).limits.sandbox == "auto"  # nothing to contain


def test_admit_starts_a_file_bot_with_the_limits_given():
    admitted = admit(load("toothpicks")(), [GOOD], Limits(time=0.5, memory=256 << 20, sandbox="none"))
    try:
        source = admitted.entries[0].source
        assert source.limits == Limits(time=0.5, memory=256 << 20, sandbox="none")
        assert source.limit(load("toothpicks")()) == 0.5 and source.grace(0.5) == 0.5
        assert source.host is not None and source.host.alive  # probed: its file loaded
    finally:
        admitted.close()
