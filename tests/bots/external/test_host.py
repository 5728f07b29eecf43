"""The file-bot wire's two ends without processes: the host (``FileBotSource``, ``Host``) over
a ``MemoryTransport`` that plays the bot's process from a script on a clock of its own, and the
child's handlers (``Child``) called directly. Every outcome becomes the right forfeit, in the
course's order, and a time-out takes no time."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from arcade.catalog import load
from bots.base import Context, Forfeit
from bots.external import DEFAULT_MEMORY, ExternalBot
from bots.external.child import MAX_DETAIL, Child, serve
from bots.external.host import BATCH_BYTES, LOAD_TIMEOUT, WINDOW, FileBotSource, Host, batches
from bots.external.wire import (PART, Exited, Failed, Invalid, Load, Loaded, Move, MoveMany, Moved, MovedMany, NewGame,
                                OutOfMemory, ProtocolError, Seed, Started, encode)
from bots.external.transport import MemoryTransport
from bots.limits import Limits
from games.base import Termination
from tests.paths import TESTS

GOOD = TESTS / "fault_bots" / "toothpicks_faults.py"


class Bench:
    """A toothpicks file bot whose processes are ``MemoryTransport``s playing ``script``."""

    def __init__(self, script, time_limit: float = 0.2, exit_text: str = "its process exited with status 0",
                 lag: float = 0.0):
        self.transports: list[MemoryTransport] = []
        self.script = script
        self.exit_text = exit_text
        self.lag = lag
        self.source = FileBotSource("toothpicks", f"{GOOD}:good", Limits(time=time_limit, sandbox="none"), connect=self.connect,
                                    clock=self.clock)
        self.game = load("toothpicks")()

    def connect(self, launch) -> MemoryTransport:
        transport = MemoryTransport(self.script, self.exit_text, lag=self.lag)
        if self.transports:
            transport.now = self.transports[-1].now
        self.transports.append(transport)
        return transport

    def clock(self) -> float:
        return self.transports[-1].now if self.transports else 0.0

    def ask(self, ctx: Context | None = None, seed: int | None = None):
        return self.source.ask(self.game, self.game.initial_state(), ctx or Context(), seed)

    def forfeit(self, ctx: Context | None = None) -> Forfeit:
        with pytest.raises(Forfeit) as caught:
            self.ask(ctx)
        return caught.value


def answering(*move_steps):
    """A script that loads, starts each game, and answers each move with ``move_steps``."""
    def script(request):
        if isinstance(request, Load):
            return [Loaded()]
        if isinstance(request, NewGame):
            return [Started()]
        if isinstance(request, Move):
            return list(move_steps)
        return []
    return script


def test_a_move_goes_out_as_the_adapters_request_and_comes_back_a_move():
    bench = Bench(answering(Moved(2)))
    assert bench.ask(seed=7) == 2
    transport = bench.transports[0]
    load_message, seed, move = transport.sent
    assert load_message == Load(path=str(GOOD), function="good", game="toothpicks", memory=DEFAULT_MEMORY, processes=None)
    assert seed == Seed(7) and move == Move([bench.game.initial_state().left, bench.game.max_take])
    assert bench.ask() == 2 and len(bench.transports) == 1  # one process serves every move


def test_the_bwrap_sandbox_loads_the_file_from_bot_and_caps_processes():
    """No memory cgroup holds a test's transport: in the sandbox the cap is split over
    ``cgroups.SPLIT`` processes (``RLIMIT_NPROC`` counts bwrap's first process too)."""
    from bots.external import cgroups

    bench = Bench(answering(Moved(1)))
    bench.source.limits = bench.source.limits.with_sandbox("bwrap")
    bench.ask()
    assert bench.transports[0].sent[0] == Load(path=f"/bot/{GOOD.name}", function="good", game="toothpicks",
                                               memory=DEFAULT_MEMORY // 3, processes=4)
    assert cgroups.SPLIT == 3


def test_a_memory_cgroup_gives_each_process_the_whole_cap_and_a_split_cap_is_said():
    """Where the bot's memory cgroup holds all of its processes, each gets the cap and the
    sandbox's process count; without one, a memory forfeit names the share a process."""
    from types import SimpleNamespace

    from bots.external import cgroups
    from bots.external.host import cap_text

    held = SimpleNamespace(memory=Path("/sys/fs/cgroup/x"))
    assert cgroups.process_caps(160 << 20, True, held) == (160 << 20, cgroups.PROCESSES)
    assert cgroups.process_caps(160 << 20, True, SimpleNamespace(memory=None)) == ((160 << 20) // 3, 4)
    assert cgroups.process_caps(160 << 20, False, None) == (160 << 20, None)  # none: nothing counts them
    assert cgroups.process_caps(None, True, None) == (None, cgroups.PROCESSES)
    assert cap_text(150 << 20, split=True) == "50 MiB a process, 150 MiB over 3"
    assert cap_text(150 << 20) == "150 MiB"


def test_a_late_answer_forfeits_on_the_arcades_clock_not_the_bots():
    bench = Bench(answering(0.35, Moved(1)))
    forfeit = bench.forfeit()
    assert str(forfeit) == "strategy took >200ms to return a move (350 ms)" and forfeit.kind == Termination.TIME
    assert bench.source.host is None and bench.transports[0].closed  # the next game starts clean


@pytest.mark.parametrize("lag", [0.0, 0.5, 3.0])
def test_the_arcade_coming_late_to_read_an_answer_is_not_the_bots_time(lag):
    """A busy arcade (a screen drawing, a thread holding the GIL) reads the answer ``lag`` seconds
    after it came: the bot is charged its own round trip, from the request written to its answer's
    arrival, and the context and the session get those seconds."""
    bench = Bench(answering(0.01, Moved(1)), lag=lag)
    ctx = Context()
    assert bench.ask(ctx) == 1 and ctx.took == pytest.approx(0.01)
    late = Bench(answering(0.25, Moved(1)), lag=lag)  # a slow bot is slow however soon it is read
    assert str(late.forfeit()) == "strategy took >200ms to return a move (250 ms)"


def test_the_session_keeps_a_file_bots_own_round_trip():
    from arcade.session import Session

    bench = Bench(answering(0.03, Moved(1)), lag=0.4)
    session = Session(bench.game, {0: ExternalBot(bench.game, bench.source)})
    answer = session.ask()
    assert answer.forfeit is None and answer.seconds == pytest.approx(0.03)
    session.apply(answer)
    assert session.slowest[0] == pytest.approx(0.03) and session.times == [pytest.approx(0.03)]


def test_cpu_time_counts_when_it_is_more_than_the_round_trip():
    bench = Bench(None)

    def script(request):
        if isinstance(request, Move):
            bench.transports[-1].cpu += 0.5  # threads burning CPU while the answer is instant
            return [Moved(1)]
        return [Loaded()] if isinstance(request, Load) else []

    bench.script = script
    assert "took >200ms" in str(bench.forfeit())


def test_no_answer_is_stopped_after_the_grace_and_takes_no_real_time():
    bench = Bench(answering())
    forfeit = bench.forfeit()
    assert str(forfeit) == "strategy took >200ms to return a move (no answer after 0.7s; stopped)"
    assert bench.transports[0].now == pytest.approx(0.7) and bench.source.host is None


@pytest.mark.parametrize("steps, words, kind, kept", [
    ([Failed("ValueError: deliberate bug")], "strategy produced an error (ValueError: deliberate bug)",
     Termination.ERROR, True),
    ([Exited("it called exit(3)")], "strategy produced an error (it called exit(3))", Termination.ERROR, False),
    ([OutOfMemory()], "strategy exceeded the memory cap (1 GiB)", Termination.MEMORY, False),
    ([Invalid("'one' is not a whole number")], "strategy returned an invalid move ('one' is not a whole number)",
     Termination.INVALID, True),
    ([Moved(99)], "strategy returned an invalid move (taking 99", Termination.INVALID, True),
    ([Moved({"a": [1]})], "strategy returned an invalid move", Termination.INVALID, True),
    ([None], "strategy produced an error (its process crashed (SIGSEGV))", Termination.CRASH, False),
    ([b'"cancelled"\n'], "strategy produced an error (the bot's process garbled its answer (a message that is not "
                         "a JSON object))", Termination.ERROR, True),
    ([b"x" * (5 << 20)], "strategy produced an error (the bot's process sent over 4 MiB without an end of line)",
     Termination.ERROR, True),
    ([Loaded()], "strategy produced an error (the bot's process garbled its answer (an unexpected loaded))",
     Termination.ERROR, True),
    ([encode(Seed(1))], "strategy produced an error (the bot's process garbled its answer (a seed request))",
     Termination.ERROR, True),
    ([0.5, Failed("late and wrong")], "strategy produced an error (late and wrong)", Termination.ERROR, True),
])
def test_each_outcome_is_its_forfeit_in_the_courses_order(steps, words, kind, kept):
    bench = Bench(answering(*steps), exit_text="its process crashed (SIGSEGV)")
    forfeit = bench.forfeit()
    assert str(forfeit).startswith(words) and forfeit.kind == kind
    assert (bench.source.host is not None) == kept


def test_a_process_that_faulted_is_replaced_for_the_next_move():
    answers = iter([[Exited("it called exit(0)")], [Moved(1)]])
    bench = Bench(lambda request: [Loaded()] if isinstance(request, Load) else next(answers)
                  if isinstance(request, Move) else [])
    bench.forfeit()
    assert bench.ask() == 1 and len(bench.transports) == 2 and bench.transports[0].closed


def test_a_cancelled_request_discards_the_process_and_the_bot_plays_any_legal_move():
    bench = Bench(answering(5.0, Moved(1)))
    bot = ExternalBot(bench.game, bench.source)
    state = bench.game.initial_state()
    move = bot.choose(state, Context(rng=random.Random(0), cancelled=lambda: True))
    assert move == bench.game.legal_moves(state)[0]
    assert bench.source.host is None and bench.transports[0].closed


def test_a_seed_that_cannot_be_sent_is_a_crash():
    bench = Bench(answering(Moved(1)))
    bench.ask()
    bench.transports[0].write = lambda data: False  # it died after the last move: its pipe is closed
    with pytest.raises(Forfeit) as caught:
        bench.source.ask(bench.game, bench.game.initial_state(), Context(), seed=1)
    assert caught.value.kind == Termination.CRASH and bench.source.host is None


@pytest.mark.parametrize("steps, words", [
    ([], f"could not load toothpicks_faults.py within {LOAD_TIMEOUT:g}s"),
    ([Failed("SyntaxError: invalid syntax (x.py, line 1)")], "SyntaxError: invalid syntax (x.py, line 1)"),
    ([OutOfMemory("MemoryError")], "strategy exceeded the memory cap (1 GiB, reached while loading "
                                   "toothpicks_faults.py: MemoryError; raise the cap with --memory MIB (0: no cap))"),
    ([OutOfMemory("ImportError: libopenblas.so: failed to map segment from shared object")],
     "strategy exceeded the memory cap (1 GiB, reached while loading toothpicks_faults.py: ImportError: "
     "libopenblas.so: failed to map segment from shared object; raise the cap with --memory MIB (0: no cap))"),
    ([None], "could not load toothpicks_faults.py: its process exited with status 3"),
    ([b"garbage\n"], "could not load toothpicks_faults.py: the bot's process garbled its answer (a line that is not "
                     "JSON)"),
    ([Moved(1)], "could not load toothpicks_faults.py: the bot's process garbled its answer (an unexpected moved)"),
])
def test_a_load_that_fails_is_one_reason_and_no_process(steps, words):
    bench = Bench(lambda request: steps if isinstance(request, Load) else [], exit_text="its process exited with "
                                                                                         "status 3")
    why = bench.source.probe(bench.game)
    assert why is not None and words in why and str(bench.source.log_path) in why
    assert bench.source.host is None and bench.transports[0].closed


# -- the child's handlers, in this process ---------------------------------------------------------

def child_with(fn, game_id: str = "toothpicks") -> tuple[Child, list]:
    from bots.adapters import adapter_for

    sent: list = []
    child = Child(sent.append)
    child.fn, child.adapter = fn, adapter_for(game_id)
    return child, sent


def raises(error: BaseException):
    def fn(*args):
        raise error
    return fn


@pytest.mark.parametrize("fn, answer", [
    (lambda left: 2, Moved(2)),
    (lambda left: 2.0, Moved(2)),
    (lambda left: "one", Invalid("'one' (a str) is not a whole number")),
    (raises(ValueError("deliberate bug")), Failed("ValueError: deliberate bug")),
    (raises(MemoryError()), OutOfMemory()),
    (raises(OSError(12, "Cannot allocate memory")), OutOfMemory()),
    (raises(OSError(2, "No such file")), Failed("FileNotFoundError: [Errno 2] No such file")),
    (raises(KeyboardInterrupt()), Failed("KeyboardInterrupt")),
])
def test_the_move_handler_answers_the_move_or_the_fault(fn, answer, capsys):
    child, sent = child_with(fn)
    assert child.handle(Move([7])) is True
    assert sent == [answer]


def memory_error():
    raise MemoryError


@pytest.mark.parametrize("fn, answer", [
    (lambda s, o: "one" if s == 3 else 1, Invalid("'one' (a str) is not a whole number")),
    (lambda s, o: 1 // (s - 3), Failed("ZeroDivisionError: integer division or modulo by zero")),
    (lambda s, o: memory_error() if s == 3 else 1, OutOfMemory()),
])
def test_a_table_request_is_answered_in_parts_and_a_fault_ends_it(fn, answer, capsys):
    """``MoveMany`` (Hog's table): the answers in order, in parts of about ``PART`` bytes; at a
    fault the part so far, then the fault, and the positions after it are never called."""
    called = []
    child, sent = child_with(lambda s, o: called.append(s) or fn(s, o), "hog")
    assert child.handle(MoveMany([[5, 0], [4, 0], [3, 0], [2, 0]])) is True
    assert called == [5, 4, 3] and sent[-1] == answer
    assert [move for part in sent[:-1] for move in part.moves] == [fn(5, 0), fn(4, 0)]
    child, sent = child_with(lambda s, o: (s + o) % 11, "hog")
    child.handle(MoveMany([[s, o] for s in range(100) for o in range(100)] * 2))
    assert all(isinstance(part, MovedMany) for part in sent) and len(sent) > 1
    assert [move for part in sent for move in part.moves] == [(s + o) % 11 for s in range(100) for o in range(100)] * 2
    assert all(len(encode(part)) <= PART + 64 for part in sent)


def test_a_strategy_that_calls_exit_ends_the_process(capsys):
    child, sent = child_with(raises(SystemExit(3)))
    assert child.handle(Move([7])) is False
    assert sent == [Exited("it called exit(3)")]
    child, sent = child_with(lambda s, o: 1 if s > 5 else exit(3), "hog")
    assert child.handle(MoveMany([[7, 0], [6, 0], [5, 0], [4, 0]])) is False
    assert sent == [MovedMany([1, 1]), Exited("it called exit(3)")]


def test_a_huge_detail_is_cut_and_a_huge_answer_is_invalid(capsys):
    child, sent = child_with(raises(ValueError("x" * 10 ** 6)))
    child.handle(Move([7]))
    assert isinstance(sent[0], Failed) and len(sent[0].detail) == MAX_DETAIL + 1
    child, sent = child_with(lambda board, player: "E" * (5 << 20), "othello")
    child.handle(Move([[["*"] * 8] * 8, "B"]))
    assert isinstance(sent[0], Invalid) and "over 4 MiB" in sent[0].detail


def test_no_function_loaded_is_an_error_and_the_seed_seeds_random():
    child, sent = child_with(None)
    child.handle(Move([7]))
    assert sent == [Failed("no function loaded")]
    child.handle(Seed(42))
    first = random.random()
    random.seed(42)
    assert first == random.random() and sent == [Failed("no function loaded")]  # a seed has no answer


def test_an_answer_sent_to_the_child_is_a_protocol_error():
    child, _ = child_with(lambda left: 1)
    with pytest.raises(ProtocolError):
        child.handle(Loaded())


def test_the_load_handler_loads_the_function_or_says_why(tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setattr("bots.external.child.set_caps", lambda memory, processes: None)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setitem(sys.modules, "arcade_bot_mine", None)  # the loaded module is gone afterwards
    bot = tmp_path / "mine.py"
    bot.write_text("def strategy(left):\n    return 1\n\ndef helper():\n    pass\n")
    sent: list = []
    child = Child(sent.append)
    child.handle(Load(str(bot), "strategy", "toothpicks"))
    child.handle(Move([5]))
    child.handle(Load(str(bot), "missing", "toothpicks"))
    assert sent == [Loaded(), Moved(1), Failed("mine.py has no function 'missing'; its functions: strategy, helper")]
    assert child.fn is None


@pytest.mark.parametrize("source, sign", [
    # numpy's own words when the loader cannot map its C extension under the cap
    ("raise ImportError('IMPORTANT: PLEASE READ THIS\\n\\nOriginal error was: libscipy_openblas64_.so: "
     "failed to map segment from shared object')",
     "ImportError: Original error was: libscipy_openblas64_.so: failed to map segment from shared object"),
    ("raise OSError(12, 'Cannot allocate memory')", "OSError: [Errno 12] Cannot allocate memory"),
    ("try:\n    raise MemoryError\nexcept MemoryError as e:\n    raise ImportError('cannot import mylib') from e",
     "MemoryError"),
    ("raise MemoryError", "MemoryError"),
])
def test_a_library_that_runs_out_of_memory_while_loading_is_the_memory_cap(tmp_path, monkeypatch, capsys, source,
                                                                            sign):
    """Issue 33, item 4: a large library loaded under the cap fails in its own words ("failed to
    map segment from shared object" inside an ``ImportError``); the bot's process answers that
    the memory cap was reached, with those words, not a plain load failure."""
    import sys

    monkeypatch.setattr("bots.external.child.set_caps", lambda memory, processes: None)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setitem(sys.modules, "arcade_bot_heavy", None)
    bot = tmp_path / "heavy.py"
    bot.write_text(source + "\n\ndef strategy(left):\n    return 1\n")
    sent: list = []
    Child(sent.append).handle(Load(str(bot), "strategy", "toothpicks", memory=1 << 30))
    assert sent == [OutOfMemory(sign)]


def test_serve_answers_a_stream_of_requests_until_it_ends(capsys):
    child, sent = child_with(lambda left: min(left, 2))
    stream = io.BytesIO(encode(Seed(1)) + encode(Move([5])) + encode(Move([1])))
    serve(child, stream)
    assert sent == [Moved(2), Moved(1)]


def test_both_ends_together_in_memory(capsys):
    """The host over a transport whose script is the real child's handlers: a whole game."""
    from arcade.match import run_match
    from bots.base import BotEntry, random_move

    child, sent = child_with(lambda left: 1)

    def script(request):
        if isinstance(request, Load):
            return [Loaded()]
        sent.clear()
        child.handle(request)
        return list(sent)

    bench = Bench(script, time_limit=1.0)
    entry = BotEntry(name="mem", description="", factory=lambda game: ExternalBot(game, bench.source))
    summary = run_match(bench.game, (entry, BotEntry.function("random", "", random_move)), games=2, seed=3)
    assert summary.forfeits == [0, 0] and sum(summary.wins) + summary.draws == 2


def test_a_bots_cpu_time_is_read_to_the_microsecond_not_in_clock_ticks():
    """The arcade reads a bot's CPU time from its process's CPU clock: a process that has used
    N.5 clock ticks of CPU (by its own clock) reads N.5 ticks, not N or N + 1 (``/proc/PID/stat``
    counts whole ticks of 10 ms: a trivial bot's slowest move read exactly "10.0 ms")."""
    import os
    import subprocess
    import sys

    from bots.external.transport import _tree_cpu

    tick = 1 / os.sysconf("SC_CLK_TCK")
    spin = ("import sys, time\n"
            f"tick = {tick!r}\n"
            "while not (time.process_time() > 3 * tick and 0.45 < time.process_time() / tick % 1 < 0.55):\n"
            "    pass\n"
            "print(time.process_time(), flush=True)\n"
            "sys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", spin], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        own = float(proc.stdout.readline())  # the process now waits: its CPU time stands still
        read = _tree_cpu(proc.pid)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert abs(read - own) < 0.2 * tick, (read, own)  # the print and the read: well under a tick


# -- many positions in one turn (Hog's exact scoring asks a strategy its whole table) -------------

def taking(left: int) -> int:
    return 1 if left % 3 == 1 else min(2, left)


def positions(game, lefts):
    from dataclasses import replace

    return [replace(game.initial_state(), left=left) for left in lefts]


def one_move_each():
    """Play the R strategy's way: its process takes one ``Move`` at a time (``Host.warm`` false)."""
    from unittest import mock

    return mock.patch.object(Host, "warm", new=property(lambda self: False))


def asked_args(sent) -> list:
    """The positions' arguments sent, in order, whichever way they went."""
    return [args for m in sent for args in (m.args if isinstance(m, MoveMany) else [m.args] if isinstance(m, Move)
                                            else [])]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 10), max_size=3 * WINDOW), st.floats(0, 0.01), st.integers(0, 2**62), st.booleans())
def test_many_positions_go_out_in_one_thawed_turn_and_come_back_in_order(lefts, pause, seed, batched):
    from contextlib import nullcontext

    bench = Bench(lambda request: [Loaded()] if isinstance(request, Load) else
                  [pause, Moved(taking(request.args[0]))] if isinstance(request, Move) else [])
    with nullcontext() if batched else one_move_each():
        moves, took = bench.source.ask_many(bench.game, positions(bench.game, lefts), 5.0, seed=seed)
    assert moves == [taking(left) for left in lefts]
    assert took == pytest.approx(bench.transports[0].arrived if lefts else 0)  # the turn: to the last answer's arrival
    sent = bench.transports[0].sent
    assert isinstance(sent[1], Seed) and sent[1].seed == seed and [args[0] for args in asked_args(sent)] == lefts
    assert all(isinstance(m, MoveMany if batched else Move) for m in sent[2:])
    assert bench.transports[0].sent_frozen == [] and bench.transports[0].frozen  # thawed for the turn, then frozen


def test_a_python_bot_is_asked_a_table_in_batches_answered_in_parts():
    """20,000 positions: a few ``MoveMany`` of at most ``BATCH_BYTES`` each (two in flight, so
    the pipe never fills), their answers in ``MovedMany`` parts of about ``PART`` bytes."""
    lefts = [1 + i % 10 for i in range(20_000)]
    bench = Bench(answering(Moved(1)))
    moves, _ = bench.source.ask_many(bench.game, positions(bench.game, lefts), 5.0)
    assert moves == [1] * len(lefts)
    sent = [m for m in bench.transports[0].sent if isinstance(m, MoveMany)]
    assert len(sent) > 2 and asked_args(sent) == [[left, 2] for left in lefts]
    assert all(len(encode(m)) <= BATCH_BYTES + 64 for m in sent)
    cut = batches([[left, 2] for left in lefts])
    assert [m.args for m in sent] == cut and sum(map(len, cut)) == len(lefts)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-5, 99), max_size=40), max_size=300))
def test_batches_keep_the_order_and_the_byte_cap(requests):
    cut = batches(requests)
    assert [args for batch in cut for args in batch] == requests and all(cut)
    for batch in cut:
        assert len(batch) == 1 or len(encode(MoveMany(batch))) <= BATCH_BYTES + 32


def test_a_part_with_more_answers_than_positions_asked_is_garbled():
    forged = Bench(answering(MovedMany([1] * 50)))  # the first position's call writes 50 answers
    with pytest.raises(Forfeit) as caught:
        forged.source.ask_many(forged.game, positions(forged.game, [5, 6, 7]), 5.0)
    assert "50 answers to 3 positions" in str(caught.value) and caught.value.kind == Termination.ERROR
    single = Bench(lambda request: [Loaded()] if isinstance(request, Load) else
                   [Moved(1)] if isinstance(request, MoveMany) else [])  # a Move's answer where none was asked
    single.source.connect = lambda launch: _scripted_raw(single, launch)
    with pytest.raises(Forfeit) as caught:
        single.source.ask_many(single.game, positions(single.game, [5, 6, 7]), 5.0)
    assert "an unexpected moved" in str(caught.value)


def _scripted_raw(bench, launch):
    """A transport whose script sees ``MoveMany`` itself (no playing of it position by position)."""
    transport = bench.connect(launch)
    transport.many = bench.script
    return transport


def test_a_fault_in_one_batch_discards_a_process_holding_the_next():
    lefts = [1 + i % 10 for i in range(20_000)]
    bench = Bench(lambda request: [Loaded()] if isinstance(request, Load) else
                  [Failed("ValueError: nope") if request.args[0] == 3 else Moved(1)] if isinstance(request, Move)
                  else [])
    with pytest.raises(Forfeit) as caught:
        bench.source.ask_many(bench.game, positions(bench.game, lefts), 5.0)
    assert str(caught.value) == "strategy produced an error (ValueError: nope; asked [3, 2])"
    assert bench.transports[0].closed  # the second batch was in its hands


def test_a_slow_first_answer_fits_a_turns_budget_however_short_a_moves_time():
    calls = []

    def script(request):
        if isinstance(request, Load):
            return [Loaded()]
        calls.append(request)
        return [4.0, Moved(1)] if len(calls) == 1 else [Moved(1)]  # builds its table at its first call

    bench = Bench(script, time_limit=0.2)
    moves, took = bench.source.ask_many(bench.game, positions(bench.game, [5] * 20), 6.0)
    assert moves == [1] * 20 and took == pytest.approx(4.0)
    calls.clear()
    with pytest.raises(Forfeit) as caught:
        bench.source.ask_many(bench.game, positions(bench.game, [5] * 20), 3.0)
    assert str(caught.value) == "strategy took >3s to answer 20 positions (0 answered)"
    assert caught.value.kind == Termination.TIME
    assert bench.transports[0].closed  # it held requests: the next ask starts a fresh process


def test_a_fault_at_one_position_forfeits_naming_it():
    bench = Bench(lambda request: [Loaded()] if isinstance(request, Load) else
                  [Failed("ValueError: nope") if request.args[0] == 7 else Moved(1)] if isinstance(request, Move)
                  else [])
    with one_move_each(), pytest.raises(Forfeit) as caught:
        bench.source.ask_many(bench.game, positions(bench.game, [9, 8, 7, 6, 5]), 5.0)
    assert str(caught.value) == "strategy produced an error (ValueError: nope; asked [7, 2])"
    assert bench.transports[0].closed  # the requests after the fault were in its hands
    batched = Bench(bench.script)
    with pytest.raises(Forfeit) as caught:
        batched.source.ask_many(batched.game, positions(batched.game, [9, 8, 7, 6, 5]), 5.0)
    assert str(caught.value) == "strategy produced an error (ValueError: nope; asked [7, 2])"
    assert not batched.transports[0].closed  # one batch: the positions after the fault were never called
    invalid = Bench(answering(Moved(3)))
    with pytest.raises(Forfeit) as caught:
        invalid.source.ask_many(invalid.game, positions(invalid.game, [9, 2]), 5.0)
    assert caught.value.kind == Termination.INVALID and caught.value.detail.endswith("; asked [9, 2]")
