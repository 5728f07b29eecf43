"""The CS4341 referee and player over files (``arcade.cs4341_referee``): player processes under
the referee, and the referee's endings."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arcade.cli import main
from arcade.cs4341_referee import check_move, last_line, move_line, run_player, run_referee
from bots.othello import BOTS
from games.othello import PASS, Othello, parse_square
from tests.paths import ROOT

FAST = dict(poll=0.005, read_delay=0.01)


def start_player(name: str, folder: Path, bot: str = "random", extra: tuple[str, ...] = ()) -> subprocess.Popen:
    code = "import sys; from arcade.cli import main; sys.exit(main())"
    return subprocess.Popen(
        [sys.executable, "-c", code, "othello-player", name, "--bot", bot, "--dir", str(folder), "--poll", "0.005",
         "--seed", "1", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def referee_in_thread(folder: Path, names=("alpha", "beta"), seed=0, time_limit=5.0):
    lines: list[str] = []
    box: dict = {}

    def work():
        box["outcome"] = run_referee(*names, time_limit=time_limit, directory=folder, rng=random.Random(seed),
                                     out=lines.append, **FAST)
        box["message"] = box["outcome"].message

    thread = threading.Thread(target=work)
    thread.start()
    return thread, box, lines


def wait_for(path: Path, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < end, f"{path.name} never appeared"
        time.sleep(0.005)


def colours(seed: int, names=("alpha", "beta")) -> tuple[str, str]:
    """Blue and orange as the referee draws them with ``random.Random(seed)``."""
    return (names[1], names[0]) if random.Random(seed).choice([True, False]) else names


def refereed_game(folder: Path, bots: tuple[str, str], head_start: float,
                  ready: str = "") -> tuple[bool, str, list[str], list[str]]:
    """Player processes alpha and beta started ``head_start`` seconds before the referee (seed 3),
    and not before each has written a line with ``ready`` (a loaded machine may take longer than
    the head start to start a Python process): whether both were still waiting then, the end
    message, the referee's lines, the players' outputs."""
    names = ("alpha", "beta")
    players = [start_player(name, folder, bot) for name, bot in zip(names, bots)]
    said: list[list[str]] = [[], []]

    def read(player: subprocess.Popen, lines: list[str]) -> None:
        for line in player.stdout:
            lines.append(line)

    readers = [threading.Thread(target=read, args=pair, daemon=True) for pair in zip(players, said)]
    for reader in readers:
        reader.start()
    try:
        time.sleep(head_start)
        end = time.monotonic() + 60
        while ready and not all(any(ready in line for line in lines) for lines in said):
            assert time.monotonic() < end, f"the players never said {ready!r}: {said}"
            time.sleep(0.01)
        waiting = all(p.poll() is None for p in players)
        # a minute a move: a player process that a busy machine starts late still answers in time
        thread, box, lines = referee_in_thread(folder, seed=3, time_limit=60.0)
        thread.join(120)
        for player, reader in zip(players, readers):
            player.wait(timeout=30)
            reader.join(30)
    finally:
        for p in players:
            p.kill()
    return waiting, box["message"], lines, ["".join(lines) for lines in said]


def test_two_player_processes_finish_a_game_under_the_referee(tmp_path):
    _, message, lines, outputs = refereed_game(tmp_path, ("greedy", "alphabeta-0.1s"), 0.3)
    assert (tmp_path / "end_game").read_text() == message
    assert message == "Match TIED!" or message.endswith("The winning player has more discs on the board!"), (
        lines[-4:], outputs)
    assert "WINS!" in message or message == "Match TIED!"
    assert lines[0].startswith("Initial Board:\n8  *  *")
    assert any(line.startswith("Move: ") for line in lines)
    assert lines[-2] == f"Game Over: {message}" and lines[-1].startswith("Final Board:")
    for name, output in zip(("alpha", "beta"), outputs):
        assert message in output, output
        assert f"{name} played" in output
    # both players end up with the same final count, which decides the message
    finals = [out.strip().splitlines()[-1].split("discs: ")[1] for out in outputs]
    assert finals[0] == finals[1]
    blue_count = int(finals[0].split(",")[0].split()[1])
    orange_count = int(finals[0].split(",")[1].split()[1])
    blue, orange = colours(3)
    if blue_count != orange_count:
        winner = blue if blue_count > orange_count else orange
        assert message.startswith(f"{winner} WINS!")


def test_referee_removes_only_its_own_files(tmp_path):
    for name in ("algo.py", "mongo.txt", "alpha.go", "end_game", "move_file"):
        (tmp_path / name).write_text("x")
    thread, box, _ = referee_in_thread(tmp_path, time_limit=0.1)
    thread.join(60)
    assert (tmp_path / "algo.py").read_text() == "x" and (tmp_path / "mongo.txt").exists()
    assert box["message"].endswith("Time out!")


def test_time_out_ends_as_the_course_referee_ends_it(tmp_path):
    # nobody answers: blue times out and orange wins
    thread, box, lines = referee_in_thread(tmp_path, seed=5, time_limit=0.2)
    thread.join(60)
    blue, orange = colours(5)
    assert box["message"] == f"{orange} WINS! {blue} LOSES! Time out!"
    assert (tmp_path / "end_game").read_text() == box["message"]
    assert (tmp_path / f"{blue}.go").exists() and (tmp_path / f"{orange}.go").exists()


def test_out_of_order_move_ends_as_the_course_referee_ends_it(tmp_path):
    thread, box, lines = referee_in_thread(tmp_path, seed=2)
    blue, orange = colours(2)
    wait_for(tmp_path / f"{blue}.go")
    (tmp_path / "move_file").write_text(f"{orange} E 3\n")  # written under the opponent's name
    thread.join(60)
    assert box["message"] == f"{blue} WINS! {orange} LOSES! Out-of-order move!"


@pytest.mark.parametrize("line", ["{me} A 1", "{me} D 4", "{me} P 1", "{me} e 3", "{me} Z 9", "{me}"])
def test_invalid_moves_lose_under_the_referee(tmp_path, line):
    thread, box, lines = referee_in_thread(tmp_path, seed=2)
    blue, orange = colours(2)
    wait_for(tmp_path / f"{blue}.go")
    (tmp_path / "move_file").write_text(line.format(me=blue))
    thread.join(60)
    assert box["message"] == f"{orange} WINS! {blue} LOSES! Invalid move!"


def test_referee_prints_the_board_after_each_move(tmp_path):
    # The seed's example: blue E 3, orange F 3; then blue never answers.
    thread, box, lines = referee_in_thread(tmp_path, seed=2, time_limit=1.0)
    blue, orange = colours(2)
    wait_for(tmp_path / f"{blue}.go")
    (tmp_path / "move_file").write_text(f"{blue} E 3")
    wait_for(tmp_path / f"{orange}.go")
    (tmp_path / "move_file").write_text(f"{orange} F 3\n\nignored after a blank line\n")
    wait_for(tmp_path / f"{blue}.go")
    thread.join(60)
    assert lines.count("Move: " + f"{blue} E 3") == 1
    board_after_f3 = lines[lines.index(f"Move: {orange} F 3") + 1]
    assert board_after_f3.startswith("Board:\n")
    assert "3  *  *  *  *  B  O  *  *  " in board_after_f3
    assert box["message"] == f"{orange} WINS! {blue} LOSES! Time out!"


@pytest.mark.parametrize(
    "move,reason",
    [("A 1", "no trap"), ("D 4", "space occupied"), ("Z 9", "off the board"), ("A 9", "off the board"),
     ("P 1", "pass while a move exists")],
)
def test_player_names_an_invalid_opponent_move_and_stops(tmp_path, move, reason):
    (tmp_path / "move_file").write_text(f"opp {move}\n")
    (tmp_path / "me.go").touch()
    lines: list[str] = []
    code = run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append)
    assert code == 1
    assert lines == [f"Invalid move by opp: {move} ({reason})"]
    assert (tmp_path / "move_file").read_text() == f"opp {move}\n"  # nothing written


def test_players_started_before_the_referee_wait_out_an_earlier_games_files(tmp_path):
    # the folder of a finished game: its end_game, both .go files, and a last move that would be a
    # legal opening for blue (a player that took it would start a game of its own)
    (tmp_path / "end_game").write_text("beta WINS! alpha LOSES! The winning player has more discs on the board!")
    (tmp_path / "move_file").write_text("beta C 4\n")
    for name in ("end_game", "move_file", "alpha.go", "beta.go"):
        (tmp_path / name).touch()
        os.utime(tmp_path / name, (time.time() - 60, time.time() - 60))
    waiting, message, lines, outputs = refereed_game(tmp_path, ("greedy", "random"), 1.0,  # old files first
                                                     ready="the files of an earlier game are in")
    assert waiting, outputs
    assert message == "Match TIED!" or message.endswith("The winning player has more discs on the board!"), (
        lines[-4:], outputs)
    for name, output in zip(("alpha", "beta"), outputs):
        assert f"{name}: the files of an earlier game are in " in output, output
        assert message in output and f"{name} played " in output, output


def test_player_started_on_an_earlier_games_files_says_so_and_stops(tmp_path):
    (tmp_path / "move_file").write_text("me P 1\n")  # the last game's: our pass, then its end
    (tmp_path / "me.go").touch()
    lines: list[str] = []
    assert run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append) == 1
    assert lines == ["me: move_file holds our own move 'me P 1' on our turn (left from an unfinished earlier "
                     "game? start the referee first: it clears them); stopping"]


def test_player_moves_first_on_an_empty_move_file_and_stops_on_end_game(tmp_path):
    (tmp_path / "move_file").write_text("")
    (tmp_path / "me.go").touch()
    lines: list[str] = []

    def finish_later():
        while not (tmp_path / "move_file").read_text():
            time.sleep(0.005)
        (tmp_path / "end_game").write_text("opp WINS! me LOSES! Time out!")

    helper = threading.Thread(target=finish_later)
    helper.start()
    code = run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append)
    helper.join()
    assert code == 0
    written = (tmp_path / "move_file").read_text()
    group, col, row = written.split()
    assert group == "me" and Othello().parse_move(Othello().initial_state(), col + row) is not None
    assert "\n" not in written
    assert "opp WINS! me LOSES! Time out!" in lines


def test_protocol_helpers():
    assert last_line("a E 3\nb F 4\n\nc G 5\n") == "b F 4\n"
    assert last_line("") == ""
    assert move_line("me", PASS) == "me P 1"
    assert move_line("me", parse_square("E3")) == "me E 3"
    state = Othello().initial_state()
    assert check_move(state, "x", "e", "3").move == parse_square("E3")  # our player is lenient
    assert check_move(state, "x", "E", "three").problem == "off the board"


def test_cli_rejects_bad_arguments(capsys, tmp_path):
    assert main(["othello-referee", "same", "same", "--dir", str(tmp_path)]) == 2
    assert "different names" in capsys.readouterr().err
    assert main(["othello-player", "me", "--bot", "nope", "--dir", str(tmp_path)]) == 2
    assert "valid bots" in capsys.readouterr().err
    assert main(["othello-player", "me", "--time-limit", "0", "--dir", str(tmp_path)]) == 2
    assert main(["othello-player", "me", "--dir", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_external_program_side_plays_a_program_through_the_files(tmp_path):
    from bots.base import Context
    from bots.othello.cs4341_program import ExternalProgramBot, ExternalProgramError

    player = start_player("student", tmp_path, "greedy")
    try:
        game = Othello(time_limit=5)
        bot = ExternalProgramBot(game, name="student", directory=tmp_path, poll=0.005, read_delay=0.01)
        state = game.initial_state()
        state = game.play(state, parse_square("E3"))  # the human plays blue
        move = bot.choose(state, Context())
        assert move in game.legal_moves(state)
        assert (tmp_path / "move_file").read_text().startswith("student ")
        state = game.play(state, move)
        # the human's answer goes to the program, which answers again
        state = game.play(state, game.legal_moves(state)[0])
        move = bot.choose(state, Context())
        assert move in game.legal_moves(state)
    finally:
        player.kill()
        player.communicate()
    # an invalid answer forfeits with the reason named
    state = game.initial_state()
    try:
        bot.check(state, "student A 1")
    except ExternalProgramError as exc:
        assert "no trap" in str(exc) and "Invalid move!" in str(exc)
    else:
        raise AssertionError("A1 is not a legal first move")
    with pytest.raises(ExternalProgramError, match="Out-of-order"):
        bot.check(state, "someone E 3")
    # a silent program times out
    silent = ExternalProgramBot(Othello(), name="silent", directory=tmp_path, poll=0.005, read_delay=0.01)
    with pytest.raises(ExternalProgramError, match="Time out"):
        silent.choose(Othello().initial_state(), Context(time_limit=0.1))


def test_player_waits_for_end_game_to_be_written_not_just_created(tmp_path):
    """A referee's ``end_game`` exists for a moment before its text is in it: the player takes
    the end from the text, not from an empty file."""
    (tmp_path / "move_file").write_text("")
    (tmp_path / "me.go").touch()
    lines: list[str] = []

    def finish_slowly():
        while not (tmp_path / "move_file").read_text():
            time.sleep(0.005)
        with open(tmp_path / "end_game", "w") as handle:
            handle.flush()
            time.sleep(0.2)  # created, still empty
            handle.write("opp WINS! me LOSES! Time out!")

    helper = threading.Thread(target=finish_slowly)
    helper.start()
    code = run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append)
    helper.join()
    assert code == 0 and "opp WINS! me LOSES! Time out!" in lines and "" not in lines


def test_the_player_waits_out_a_move_file_emptied_by_a_write_under_way(tmp_path):
    """A referee that writes ``move_file`` by truncating it first (the course's ``open(..., 'w')``)
    shows it empty for a moment; a player that looked at its ``.go`` just before sees that empty
    file on what seems its turn. It waits for the line (at load 10 it once stopped instead)."""
    game = Othello()
    state = game.initial_state()
    opening = game.legal_moves(state)[0]
    (tmp_path / "move_file").write_text(move_line("opp", opening))
    (tmp_path / "me.go").touch()
    thread, box, lines = player_in_thread(tmp_path)
    deadline = time.monotonic() + 60
    while not (tmp_path / "move_file").read_text().startswith("me "):
        assert thread.is_alive() and time.monotonic() < deadline, lines
        time.sleep(0.005)
    ours = last_line((tmp_path / "move_file").read_text()).split()
    state = game.play(game.play(state, opening), check_move(game.play(state, opening), *ours).move)
    (tmp_path / "move_file").write_text("")  # the write under way, with our .go still there
    time.sleep(0.3)  # sixty of the player's looks
    assert thread.is_alive() and (tmp_path / "move_file").read_text() == "", lines
    (tmp_path / "move_file").write_text(move_line("opp", game.legal_moves(state)[0]))
    while not (tmp_path / "move_file").read_text().startswith("me "):
        assert thread.is_alive() and time.monotonic() < deadline, lines
        time.sleep(0.005)
    (tmp_path / "end_game").write_text("Match TIED!")
    thread.join(60)
    assert box["code"] == 0 and "Match TIED!" in lines, lines


def test_the_arcade_never_shows_a_program_an_emptied_move_file(tmp_path):
    """Whatever moment a program reads ``move_file`` during a game against the arcade, it finds a
    whole line (after the first), never the empty file of a write under way: a reader that looks
    without pause through a whole game."""
    from arcade.match import play_out
    from bots.base import FunctionBot
    from bots.othello import greedy
    from bots.othello.cs4341_program import ExternalProgramBot

    game = Othello(time_limit=60)
    program = ExternalProgramBot(game, name="me", directory=tmp_path, poll=0.002, read_delay=0.002)
    thread, box, lines = player_in_thread(tmp_path)
    seen, done = {"reads": 0, "empty": 0}, threading.Event()

    def spy():
        while not done.is_set():
            try:
                text = (tmp_path / "move_file").read_text()
            except FileNotFoundError:
                continue
            if text.strip():
                seen["reads"] += 1
            elif seen["reads"]:
                seen["empty"] += 1

    watcher = threading.Thread(target=spy)
    watcher.start()
    try:
        outcome = play_out(game, (FunctionBot(game, greedy), program), random.Random(3),
                           (random.Random(3), random.Random(4)))
    finally:
        done.set()
        watcher.join()
        thread.join(60)
    assert outcome.forfeit is None and outcome.state.over, lines
    assert seen["reads"] > 100 and seen["empty"] == 0, seen


def test_end_game_is_written_whole(tmp_path):
    from bots.othello.cs4341_program import write_whole

    write_whole(tmp_path / "end_game", "Match TIED!")
    assert (tmp_path / "end_game").read_text() == "Match TIED!"
    assert [f.name for f in tmp_path.iterdir()] == ["end_game"]  # no part file left behind


def test_external_program_is_told_the_end_whoever_ends_the_game(tmp_path):
    """A game played against a program through the files ends with ``end_game`` and the program
    stops, whichever side's move ended it: a whole match game with a real player process."""
    from arcade.match import play_out
    from bots.base import FunctionBot
    from bots.othello import greedy
    from bots.othello.cs4341_program import ExternalProgramBot

    enders = set()  # whose move ended each game: 0 is the arcade's side (told by ``game_over``)
    for seed in range(8):
        if enders == {0, 1}:
            break
        for name in ("move_file", "end_game", "student.go"):
            (tmp_path / name).unlink(missing_ok=True)
        player = start_player("student", tmp_path, "random")
        try:
            game = Othello(time_limit=60)  # generous: a busy machine may start the player process late
            program = ExternalProgramBot(game, name="student", directory=tmp_path, poll=0.005, read_delay=0.01)
            outcome = play_out(game, (FunctionBot(game, greedy), program), random.Random(seed),
                               (random.Random(seed), random.Random(seed + 1)))
            if outcome.forfeit is not None:  # what the program said (at load 10 it once did not answer)
                player.kill()
                said, _ = player.communicate()
                raise AssertionError(f"seed {seed}: {outcome.result.reason}; the program said:\n{said}")
            assert outcome.state.over
            blue, orange = outcome.state.counts()
            text = (tmp_path / "end_game").read_text()
            if blue == orange:
                assert text == "Match TIED!"
            else:
                winner, loser = ("arcade", "student") if blue > orange else ("student", "arcade")
                assert text == f"{winner} WINS! {loser} LOSES! The winning player has more discs on the board!"
            out, _ = player.communicate(timeout=20)  # it read end_game and stopped by itself
            assert player.returncode == 0 and text in out
            # the program's board took the last move, whoever made it: its count is the arcade's
            assert f"student played orange; discs: blue {blue}, orange {orange}" in out, out
            enders.add(outcome.state.event.side)
        finally:
            if player.poll() is None:
                player.kill()
                player.communicate()
    assert 0 in enders


def test_external_program_is_told_it_lost_by_an_invalid_move(tmp_path):
    from bots.base import Context
    from bots.othello.cs4341_program import ExternalProgramBot, ExternalProgramError

    bot = ExternalProgramBot(Othello(), name="student", directory=tmp_path, poll=0.005, read_delay=0.01)

    def student() -> None:
        wait_for(tmp_path / "student.go")
        (tmp_path / "move_file").write_text("student A 1\n")

    thread = threading.Thread(target=student)
    thread.start()
    with pytest.raises(ExternalProgramError, match="no trap"):
        bot.choose(Othello().initial_state(), Context(time_limit=5))
    thread.join()
    assert (tmp_path / "end_game").read_text() == "arcade WINS! student LOSES! Invalid move!"
    assert (tmp_path / "student.go").exists()  # so that the program reads end_game


def test_a_game_with_a_program_refuses_undo_and_its_faults_say_their_kind(tmp_path):
    """The program keeps its own board: an undo would leave it out of step, so the session refuses
    it and nothing changes; a silent program forfeits on time, in the referee's words."""
    from arcade.session import CannotUndo, Session
    from bots.othello.cs4341_program import ExternalProgramBot
    from games.base import Termination

    game = Othello(time_limit=0.1)
    program = ExternalProgramBot(game, name="silent", directory=tmp_path, poll=0.005, read_delay=0.01)
    session = Session(game, {1: program})
    session.play(game.parse_move(session.state, "E3"))
    with pytest.raises(CannotUndo, match="Orange's bot cannot take moves back"):
        session.undo()
    assert len(session.history) == 2
    result = session.apply(session.ask())
    assert result.termination is Termination.TIME and result.winner == 0
    assert result.reason.startswith("Orange silent did not move within 0.1 s (Time out!)")
    assert (tmp_path / "end_game").read_text() == "arcade WINS! silent LOSES! Time out!"


# -- hostile files: every case ends with a named reason, never a traceback -------------------------

def sabotage(folder: Path, how: str, outside: Path) -> None:
    """Do to ``move_file`` (or the folder) what a hostile or broken program might."""
    import shutil

    moves = folder / "move_file"

    def replace_with(data: bytes) -> None:  # in one step: a reader never sees it empty
        (folder / "part").write_bytes(data)
        os.replace(folder / "part", moves)

    if how == "binary":
        replace_with(b"\xff\xfe\x00\x9b2J binary \xc3")
    elif how == "directory":
        moves.unlink()
        moves.mkdir()
    elif how == "symlink":
        (folder / "part").symlink_to(outside)
        os.replace(folder / "part", moves)
    elif how == "fifo":
        os.mkfifo(folder / "part")
        os.replace(folder / "part", moves)
    elif how == "deleted":
        moves.unlink()
    elif how == "folder":
        shutil.rmtree(folder)
    elif how == "huge":
        replace_with(b"x" * (1 << 17))
    else:  # pragma: no cover
        raise ValueError(how)


REFEREE_CASES = {
    "binary": "move_file holds bytes that are not UTF-8 text",
    "directory": "move_file is a directory, not a file",
    "symlink": "move_file is a symbolic link, not followed",
    "fifo": "move_file is a named pipe, not a file",
    "deleted": "move_file is gone (deleted)",
    "folder": "is gone",
    "huge": "move_file holds more than 64 KiB",
}


@pytest.mark.parametrize("how", sorted(REFEREE_CASES))
def test_the_referee_ends_a_game_whose_files_fail_with_a_named_reason(tmp_path, how):
    folder = tmp_path / "game"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    blue, orange = colours(2)
    outside.write_text(f"{blue} E 3\n")  # a valid move: a link to it must still not be followed
    # the limit only has to outlast a slow machine's step from seeing blue.go to the sabotage:
    # every case but "deleted" ends as soon as the referee looks
    thread, box, lines = referee_in_thread(folder, seed=2, time_limit=2.0)
    wait_for(folder / f"{blue}.go")
    sabotage(folder, how, outside)
    thread.join(60)
    outcome = box["outcome"]
    reason = REFEREE_CASES[how]
    assert outcome.message == f"{orange} WINS! {blue} LOSES! Invalid move!"
    assert reason in outcome.broken and outcome.reason == f"{blue} could not be refereed ({outcome.broken})"
    assert f"Reason: {outcome.reason}" in lines and f"Game Over: {outcome.message}" in lines
    assert outside.read_text() == f"{blue} E 3\n"  # never followed, never written
    if how == "folder":
        assert not folder.exists()  # nothing recreated it; the players could not be told
        assert any(line.startswith("The players were not told the end: the folder") for line in lines)
    else:
        assert (folder / "end_game").read_text() == outcome.message
        assert (folder / f"{orange}.go").exists()


def test_a_move_file_replaced_within_the_same_clock_tick_is_seen(tmp_path):
    # A file's times come from a coarse clock: a program that replaces move_file a few ms after
    # the referee looked leaves the same mtime (this failed CI once, as a time out). Here the
    # times are made equal on purpose; the new inode must still count as a move.
    blue, orange = colours(2)
    thread, box, lines = referee_in_thread(tmp_path, seed=2, time_limit=1.0)
    wait_for(tmp_path / f"{blue}.go")
    moves = tmp_path / "move_file"
    before = os.lstat(moves)
    part = tmp_path / "part"
    part.write_text(f"{blue} E 3\n")
    os.utime(part, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(part, moves)
    assert os.lstat(moves).st_mtime_ns == before.st_mtime_ns
    thread.join(60)
    outcome = box["outcome"]
    assert f"Move: {blue} E 3" in lines
    assert outcome.message == f"{blue} WINS! {orange} LOSES! Time out!"  # orange never moved
    assert outcome.reason.startswith(f"{orange} did not move in time")


def test_a_move_written_in_two_steps_is_read_when_it_is_whole(tmp_path):
    # A program's open truncates move_file before its write; when the two are further apart than
    # the read delay (a busy machine), the referee reads again rather than judge an empty line.
    blue, orange = colours(2)
    thread, box, lines = referee_in_thread(tmp_path, seed=2, time_limit=1.0)
    wait_for(tmp_path / f"{blue}.go")
    with open(tmp_path / "move_file", "w") as moves:  # emptied now,
        moves.flush()
        time.sleep(0.2)  # 20 read delays later
        moves.write(f"{blue} E 3\n")  # the move
    thread.join(60)
    assert f"Move: {blue} E 3" in lines and "Move: " not in lines
    assert box["outcome"].reason.startswith(f"{orange} did not move in time")
    # emptied and never written: a time out that says so
    again = tmp_path / "again"
    again.mkdir()
    thread, box, lines = referee_in_thread(again, seed=2, time_limit=0.5)
    wait_for(again / f"{blue}.go")
    time.sleep(0.05)
    (again / "move_file").write_text("\n")
    thread.join(60)
    outcome = box["outcome"]
    assert outcome.message == f"{orange} WINS! {blue} LOSES! Time out!"
    assert outcome.reason == f"{blue} did not move in time (move_file was emptied but no move written within 0.5 s)"


def test_the_referee_says_when_end_game_cannot_be_written(tmp_path):
    thread, box, lines = referee_in_thread(tmp_path, seed=2, time_limit=0.3)
    blue, orange = colours(2)
    wait_for(tmp_path / f"{blue}.go")
    (tmp_path / "end_game").mkdir()
    thread.join(60)
    outcome = box["outcome"]
    assert outcome.message.endswith("Time out!") and outcome.reason.startswith(f"{blue} did not move in time")
    assert outcome.broken == "end_game not written: end_game is a directory, not a file"
    assert "The players were not told the end: end_game is a directory, not a file" in lines


def test_the_referee_does_not_touch_a_go_file_through_a_symbolic_link(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    victim = tmp_path / "victim"
    thread, box, lines = referee_in_thread(folder, seed=2, time_limit=2.0)
    blue, orange = colours(2)
    wait_for(folder / f"{blue}.go")
    (folder / f"{orange}.go").symlink_to(victim)  # a trap for the referee's next .go
    (folder / "move_file").write_text(f"{blue} E 3")
    thread.join(60)
    outcome = box["outcome"]
    assert not victim.exists()
    assert outcome.reason == f"{orange} could not be refereed ({orange}.go is a symbolic link, not followed)"
    assert outcome.message == f"{blue} WINS! {orange} LOSES! Invalid move!"


def test_the_referee_prints_a_move_line_without_its_escape_sequences(tmp_path):
    thread, box, lines = referee_in_thread(tmp_path, seed=2, time_limit=2.0)
    blue, orange = colours(2)
    wait_for(tmp_path / f"{blue}.go")
    (tmp_path / "move_file").write_text(f"{blue} E 3 \x1b]0;owned\x07\x1b[2J\x9b1m\x07")
    thread.join(60)
    assert f"Move: {blue} E 3 " in lines
    assert not any(ch in "".join(lines) for ch in "\x1b\x07\x9b")
    assert box["outcome"].message.endswith("Time out!")  # E 3 was played; orange never answered


def run_cli(*args: str, timeout: float = 60) -> subprocess.Popen:
    code = "import sys; from arcade.cli import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("how", ["binary", "directory", "symlink", "deleted", "folder"])
def test_the_referee_command_exits_1_with_the_reason_and_no_traceback(tmp_path, how):
    folder = tmp_path / "game"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("untouched")
    blue, orange = colours(2)
    proc = run_cli("othello-referee", "alpha", "beta", "--dir", str(folder), "--seed", "2", "--time-limit", "2",
                   "--poll", "0.005", "--read-delay", "0.01")
    try:
        wait_for(folder / f"{blue}.go")
        sabotage(folder, how, outside)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in err + out
    assert f"Reason: {blue} could not be refereed ({REFEREE_CASES[how]}" in out or (
        how == "folder" and f"Reason: {blue} could not be refereed (the folder" in out)
    assert f"Game Over: {orange} WINS! {blue} LOSES! Invalid move!" in out
    assert err.startswith("arcade: othello-referee: the game's files failed: ") and len(err.splitlines()) == 1
    assert outside.read_text() == "untouched"


def test_the_referee_command_cannot_start_on_a_directory_named_end_game(tmp_path):
    (tmp_path / "end_game").mkdir()
    proc = run_cli("othello-referee", "alpha", "beta", "--dir", str(tmp_path), "--time-limit", "0.2")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and "Traceback" not in err
    assert err == "arcade: othello-referee: cannot start the game: end_game is a directory, not a file\n"
    assert out == ""


def player_in_thread(folder: Path, name: str = "me", time_limit: float = 1.0):
    lines: list[str] = []
    box: dict = {}

    def work():
        box["code"] = run_player(name, BOTS["greedy"], time_limit, folder, poll=0.005, out=lines.append)

    thread = threading.Thread(target=work)
    thread.start()
    return thread, box, lines


def hand_back(folder: Path, how: str, outside: Path) -> None:
    """The player's turn again, with its files sabotaged while it was not its turn (as a referee
    would: ``.go`` removed, then given back)."""
    (folder / "me.go").unlink()
    time.sleep(0.05)  # past the player's last look at its .go
    sabotage(folder, how, outside)
    (folder / "me.go").touch()


PLAYER_CASES = {
    "binary": "me: move_file holds bytes that are not UTF-8 text; stopping",
    "directory": "me: move_file is a directory, not a file; stopping",
    "symlink": "me: move_file is a symbolic link, not followed; stopping",
    "fifo": "me: move_file is a named pipe, not a file; stopping",
    "deleted": "me: move_file is gone (deleted); stopping",
    "huge": "me: move_file holds more than 64 KiB; stopping",
}


@pytest.mark.parametrize("how", sorted(PLAYER_CASES))
def test_the_player_stops_with_a_named_reason_when_move_file_fails(tmp_path, how):
    """The player has moved (so a missing move_file is no first move); then its turn comes
    with a move_file it cannot use."""
    outside = tmp_path / "outside.txt"
    outside.write_text("opp D 3\n")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "move_file").write_text("")
    (folder / "me.go").touch()
    thread, box, lines = player_in_thread(folder)
    end = time.monotonic() + 10
    while not (folder / "move_file").read_text():
        assert time.monotonic() < end
        time.sleep(0.005)
    hand_back(folder, how, outside)
    thread.join(60)
    assert box["code"] == 1 and lines[-1] == PLAYER_CASES[how]
    assert outside.read_text() == "opp D 3\n"


def test_the_player_stops_when_its_folder_is_deleted(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    thread, box, lines = player_in_thread(folder)
    time.sleep(0.05)
    sabotage(folder, "folder", tmp_path)
    thread.join(60)
    assert box["code"] == 1 and lines == [f"me: the folder {folder} is gone; stopping"]


@pytest.mark.parametrize("how", ["binary", "directory", "symlink"])
def test_the_player_stops_with_a_named_reason_when_end_game_fails(tmp_path, how):
    outside = tmp_path / "outside.txt"
    outside.write_text("opp WINS! me LOSES! Time out!")
    end = tmp_path / "end_game"
    if how == "binary":
        end.write_bytes(b"\xff\xfe\xfd")
    elif how == "directory":
        end.mkdir()
    else:
        end.symlink_to(outside)
    lines: list[str] = []
    assert run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append) == 1
    wanted = {"binary": "end_game holds bytes that are not UTF-8 text", "directory": "end_game is a directory, not a file",
              "symlink": "end_game is a symbolic link, not followed"}[how]
    assert lines == [f"me: {wanted}; stopping"]


def test_the_player_prints_end_game_and_moves_without_escape_sequences(tmp_path):
    (tmp_path / "move_file").write_text("o\x1b[2Jpp Z\x1b[0m 9\x9b1m\n")
    (tmp_path / "me.go").touch()
    lines: list[str] = []
    assert run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append) == 1
    assert lines == ["Invalid move by opp: Z 9 (off the board)"]
    (tmp_path / "move_file").write_text("")
    (tmp_path / "end_game").write_text("opp WINS!\x1b]0;owned\x07 me LOSES!\x1b[31m Time out!")
    lines.clear()
    assert run_player("me", BOTS["greedy"], 1.0, tmp_path, poll=0.005, out=lines.append) == 0
    assert lines == ["opp WINS! me LOSES! Time out!"]


@pytest.mark.parametrize("how", ["binary", "directory", "symlink", "deleted"])
def test_the_player_command_exits_1_with_the_reason_and_no_traceback(tmp_path, how):
    outside = tmp_path / "outside.txt"
    outside.write_text("untouched")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "move_file").write_text("")
    (folder / "me.go").touch()
    proc = run_cli("othello-player", "me", "--bot", "greedy", "--dir", str(folder), "--poll", "0.005")
    try:
        end = time.monotonic() + 20
        while not (folder / "move_file").read_text():
            assert time.monotonic() < end
            time.sleep(0.005)
        hand_back(folder, how, outside)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 1 and "Traceback" not in err + out and err == ""
    assert out.splitlines()[-1] == PLAYER_CASES[how]
    assert outside.read_text() == "untouched"


def test_writing_a_protocol_file_never_follows_a_symbolic_link(tmp_path):
    from bots.othello.cs4341_program import FileTrouble, touch, write_whole

    victim = tmp_path / "victim"
    victim.write_text("precious")
    for name in ("move_file", ".end_game.part", "me.go", "link", ".link.part"):
        (tmp_path / name).symlink_to(victim)
    write_whole(tmp_path / "move_file", "arcade E 3")  # the arcade's move: the link is replaced
    assert not (tmp_path / "move_file").is_symlink() and (tmp_path / "move_file").read_text() == "arcade E 3"
    write_whole(tmp_path / "end_game", "Match TIED!")  # its part file's link is removed, not followed
    assert (tmp_path / "end_game").read_text() == "Match TIED!"
    write_whole(tmp_path / "link", "me E 3")  # a player's move: the link itself is replaced
    assert not (tmp_path / "link").is_symlink() and (tmp_path / "link").read_text() == "me E 3"
    with pytest.raises(FileTrouble, match="me.go is a symbolic link"):
        touch(tmp_path / "me.go")
    assert victim.read_text() == "precious"


@pytest.mark.parametrize("how", ["binary", "directory", "symlink", "deleted", "folder"])
def test_the_external_program_side_forfeits_with_a_named_reason_when_its_files_fail(tmp_path, how):
    from bots.base import Context
    from bots.othello.cs4341_program import ExternalProgramBot, ExternalProgramError

    folder = tmp_path / "game"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("student E 3\n")
    bot = ExternalProgramBot(Othello(), name="student", directory=folder, poll=0.005, read_delay=0.01)

    def student() -> None:
        wait_for(folder / "student.go")
        sabotage(folder, how, outside)

    thread = threading.Thread(target=student)
    thread.start()
    with pytest.raises(ExternalProgramError) as caught:
        bot.choose(Othello().initial_state(), Context(time_limit=2.0))
    thread.join()
    wanted = {**REFEREE_CASES, "folder": f"the folder {folder} is gone"}[how]
    assert str(caught.value) == f"student's files failed: {wanted} (Invalid move!)"
    assert caught.value.reason == "INVALID"
    assert outside.read_text() == "student E 3\n"
    if how != "folder":
        assert (folder / "end_game").read_text() == "arcade WINS! student LOSES! Invalid move!"


def test_the_external_program_side_sees_a_move_file_replaced_within_the_same_clock_tick(tmp_path):
    from bots.base import Context
    from bots.othello.cs4341_program import ExternalProgramBot

    bot = ExternalProgramBot(Othello(), name="student", directory=tmp_path, poll=0.005, read_delay=0.01)

    def student() -> None:  # answers at once, and the file keeps the time it had
        wait_for(tmp_path / "student.go")
        moves = tmp_path / "move_file"
        before = os.lstat(moves)
        (tmp_path / "part").write_text("student E 3\n")
        os.utime(tmp_path / "part", ns=(before.st_atime_ns, before.st_mtime_ns))
        os.replace(tmp_path / "part", moves)

    thread = threading.Thread(target=student)
    thread.start()
    move = bot.choose(Othello().initial_state(), Context(time_limit=1.0))
    thread.join()
    assert move == parse_square("E3")


def test_an_error_on_a_programs_turn_that_is_no_forfeit_is_named_and_printed(tmp_path, monkeypatch):
    """Anything else that fails on a program's turn (here an I/O error) is the session's forfeit
    (an error), and the referee ends it as the course's invalid move, with the reason printed."""
    import errno

    from arcade import cs4341_referee

    def broken_disk(self, state, ctx):
        raise OSError(errno.EIO, "Input/output error", str(tmp_path / "move_file"))

    monkeypatch.setattr(cs4341_referee.RefereedProgram, "_choose", broken_disk)
    lines: list[str] = []
    outcome = run_referee("alpha", "beta", 1.0, tmp_path, random.Random(2), lines.append, **FAST)
    blue, orange = colours(2)
    assert outcome.message == f"{orange} WINS! {blue} LOSES! Invalid move!"
    assert outcome.broken == outcome.reason.removeprefix(f"{blue} ")
    assert outcome.reason.startswith(f"{blue} strategy produced an error (OSError: [Errno 5] Input/output error")
    assert f"Reason: {outcome.reason}" in lines
    assert (tmp_path / "end_game").read_text() == outcome.message


def test_program_names_must_be_printable(capsys, tmp_path):
    assert main(["othello-player", "me\x1b[2J", "--dir", str(tmp_path)]) == 2
    assert "one printable word" in capsys.readouterr().err
    assert main(["othello-referee", "alpha", "be\x07ta", "--dir", str(tmp_path)]) == 2
    with pytest.raises(Exception, match="printable"):
        run_referee("alpha", "be\x9bta", 1.0, tmp_path)


def test_the_player_command_stops_with_its_file_bots_fault_and_no_traceback(tmp_path):
    bad = tmp_path / "bad_bot.py"
    bad.write_text('def strategy(*args):\n    raise ValueError("\\x1b[2Jboom")\n')
    (tmp_path / "move_file").write_text("")
    (tmp_path / "me.go").touch()
    proc = run_cli("othello-player", "me", "--bot", f"{bad}:strategy", "--dir", str(tmp_path), "--poll", "0.005")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and err == "" and "\x1b" not in out
    assert out.splitlines()[-1] == "me: our bot strategy produced an error (ValueError: boom); stopping"
    (tmp_path / "bad_bot.py").write_text("raise ImportError('no such course module')\n")
    proc = run_cli("othello-player", "me", "--bot", f"{bad}:strategy", "--dir", str(tmp_path))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == "" and "Traceback" not in err
    assert err.startswith("arcade: error: cannot load bot") and "ImportError: no such course module" in err


@pytest.mark.parametrize("flag,value", [("--poll", "nan"), ("--poll", "0"), ("--read-delay", "inf"), ("--read-delay", "-1")])
def test_the_hidden_delays_are_checked_too(capsys, tmp_path, flag, value):
    command = ["othello-referee", "alpha", "beta"] if flag == "--read-delay" else ["othello-player", "me"]
    assert main([*command, "--dir", str(tmp_path), f"{flag}={value}"]) == 2
    assert capsys.readouterr().err.startswith("arcade: error: ")


@pytest.mark.parametrize("how", ["leave", "quit", "new_game"])
async def test_a_program_is_told_the_end_when_the_player_leaves_the_game_unfinished(tmp_path, monkeypatch, how):
    """Leaving a game with a program mid-game (q y, the app quitting, a new game) writes
    ``end_game`` in the referee's words: the program wins on the arcade's time-out, and stops."""
    from arcade.screens.game import GameScreen
    from tests.conftest import make_app, open_game, settle

    monkeypatch.setenv("ARCADE_OTHELLO_DIR", str(tmp_path))
    monkeypatch.setenv("ARCADE_OTHELLO_PROGRAM", "student")
    player = start_player("student", tmp_path, "random")
    try:
        app = make_app()
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await open_game(pilot, "othello", ("external", "human"), wait=False)
            for _ in range(200):  # the program (blue) opens the game from its own process
                await settle(pilot)
                if len(screen.history) > 1:
                    break
            assert len(screen.history) == 2 and screen.result is None
            assert not (tmp_path / "end_game").exists()
            if how == "leave":
                await pilot.press("q", "y")
                await settle(pilot)
                assert not isinstance(app.screen, GameScreen)
            elif how == "new_game":
                await pilot.press("n", "y")
                await settle(pilot)
                assert isinstance(app.screen, GameScreen) and len(app.screen.history) == 1
                app.screen.cancel_bot()  # the new game's program is the one that just stopped
            if how == "leave":
                assert (tmp_path / "end_game").read_text() == "student WINS! arcade LOSES! Time out!"
        out, _ = player.communicate(timeout=20)  # it read end_game and stopped by itself
        assert "student WINS! arcade LOSES! Time out!" in out and player.returncode == 0, out
    finally:
        if player.poll() is None:
            player.kill()
            player.communicate()
