"""Records are evidence (``arcade.records``): one reader that checks every line against the schema
and reads only regular files line by line; ``arcade replay`` of any malformed file is one line
naming the file and the line; resuming plays every recorded game again through the rules, never
deletes or rewrites a line, and ``--repair`` moves damaged lines aside."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arcade.cli import main
from arcade.match import GameRecord, run_match
from arcade.records import schema
from arcade.records.log import RecordLog
from arcade.records.reader import RecordReader, describe, read_games, recorded_seed
from arcade.records.referee import Referee, make_game
from arcade.records.schema import FORMAT, GAME_FIELDS, GAME_OPTIONAL, RecordError, game_record
from arcade.seeds import pair_seed
from arcade.tournament.runner import run_tournament
from bots.base import BotEntry
from games.base import CHANCE

HOG = ["always_roll_4", "always_roll_6", "optimal"]
RUN = ["tournament", "hog", *HOG, "--games", "4", "--seed", "2", "--jobs", "1"]
"""The run every record here comes from (``arcade tournament``'s arguments)."""
ESCAPES = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x9b31m"
MARKUP = "[link=https://x]click[/link] [/] [blink red]x"

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""JSON values of any shape (NaN and infinities included: Python's json writes them)."""


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(tmp_path / "logs"))


@pytest.fixture(scope="module")
def hog_record(tmp_path_factory) -> Path:
    """A real record: a Hog round robin of three bots, four games a pair (dice in every game)."""
    path = tmp_path_factory.mktemp("records") / "hog.jsonl"
    assert main(RUN + ["--record", str(path), "--json"]) == 0
    return path


def copy_of(record: Path, tmp_path: Path, name: str = "run.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(record.read_bytes())
    return path


def run_header(record: Path) -> dict:
    """The header a run writes (what ``RecordLog`` is given to resume ``record``)."""
    header = json.loads(record.read_bytes().split(b"\n")[0])
    return {key: value for key, value in header.items() if key != "record"}


def resume(path: Path, header: dict, **options) -> RecordLog:
    """``path`` opened as ``run_tournament`` opens a record of ``RUN`` (seed 2)."""
    return RecordLog(path, header, pair_seed=lambda stage, a, b: pair_seed(2, stage, a, b), **options)


def game_lines(record: Path) -> list[dict]:
    return [json.loads(line) for line in record.read_bytes().split(b"\n")[1:] if line.strip()]


def write(path: Path, header: dict | bytes, *games: dict | bytes) -> Path:
    rows = [row if isinstance(row, bytes) else json.dumps(row).encode() for row in (header, *games)]
    path.write_bytes(b"\n".join(rows) + b"\n")
    return path


def one_line_error(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arcade: error: "), captured.err
    assert "Traceback" not in captured.err and "\x1b" not in captured.err
    return lines[0]


# -- the one reader -------------------------------------------------------------------------------

def test_the_schema_knows_every_field_of_a_game_record():
    """A field added to ``GameRecord`` must be added to the schema (else its lines are refused)."""
    fields = {f.name for f in dataclasses.fields(GameRecord)} | {"stage", "pair", "pair_seed"}
    assert set(GAME_FIELDS) | set(GAME_OPTIONAL) == fields
    assert not set(GAME_FIELDS) & set(GAME_OPTIONAL)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_random_bytes_give_only_record_errors(data, hog_record, tmp_path):
    header = hog_record.read_bytes().split(b"\n")[0]
    for raw in (data, header + b"\n" + data, header + b"\n" + data + b"\n"):
        path = tmp_path / "random.jsonl"
        path.write_bytes(raw)
        try:
            _header, games = read_games(path)
        except RecordError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
            continue
        assert all(isinstance(game_record(line), GameRecord) for line in games)


@st.composite
def wrong_lines(draw, base: dict) -> dict:
    """A game line with one field changed to any JSON value, removed, or one field added."""
    line = dict(base)
    key = draw(st.sampled_from(sorted(line)) | st.text(max_size=8))
    if draw(st.booleans()) and key in line:
        del line[key]
    else:
        line[key] = draw(JSON)
    return line


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_wrong_json_is_a_record_error_naming_its_line_or_a_well_typed_game(data, hog_record, tmp_path):
    header, first, *_ = [json.loads(row) for row in hog_record.read_bytes().split(b"\n") if row.strip()]
    line = data.draw(wrong_lines(first))
    path = write(tmp_path / "wrong.jsonl", header, first, line)
    try:
        _header, games = read_games(path)
    except RecordError as exc:
        assert f"{path} line 3: " in str(exc) and "\n" not in str(exc)
        return
    record = game_record(games[1])
    assert isinstance(record.number, int) and record.number >= 1 and record.first in (0, 1)
    assert all(isinstance(move, str) for move in record.moves) and isinstance(describe(games[1]), str)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["record", "kind", "game", "options", "bots", "seed", "games_per_pair",
                              "time_limit", "memory"]),
       value=JSON)
def test_a_wrong_header_is_a_record_error_or_a_well_typed_header(field, value, hog_record, tmp_path):
    header, first, *_ = [json.loads(row) for row in hog_record.read_bytes().split(b"\n") if row.strip()]
    path = write(tmp_path / "header.jsonl", {**header, field: value}, first)
    try:
        with RecordReader(path) as reader:
            found = reader.header
            make_game(found, reader.name)
    except RecordError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)
        return
    assert isinstance(found["game"], str) and isinstance(found["options"], dict)


def test_a_line_longer_than_the_cap_is_refused_without_reading_it_whole(hog_record, tmp_path, monkeypatch):
    monkeypatch.setattr(schema, "LINE_CAP", 4096)
    header, first, *_ = hog_record.read_bytes().split(b"\n")
    path = tmp_path / "long.jsonl"
    path.write_bytes(header + b"\n" + first + b"\n" + b'{"stage": "' + b"x" * 20_000 + b'"}\n')
    with pytest.raises(RecordError, match=r"line 3: longer than"):
        read_games(path)


@pytest.mark.parametrize("special", ["/dev/zero", "directory", "fifo"])
def test_only_a_regular_file_is_read(special, tmp_path, capsys):
    path = {"/dev/zero": Path("/dev/zero"), "directory": tmp_path, "fifo": tmp_path / "fifo"}[special]
    if special == "fifo":
        os.mkfifo(path)  # nobody writes to it: opening it must not wait
    with pytest.raises(RecordError, match="not a regular file"):
        RecordReader(path)
    assert recorded_seed(path) is None
    assert main(["replay", str(path)]) == 2
    assert str(path) in one_line_error(capsys)


@pytest.mark.parametrize("special", ["/dev/full", "directory", "fifo", "unwritable"])
def test_a_record_path_that_cannot_be_a_record_is_one_line_before_any_game(special, tmp_path, capsys):
    path = {"/dev/full": Path("/dev/full"), "directory": tmp_path, "fifo": tmp_path / "fifo",
            "unwritable": tmp_path / "no" / "such" / "folder.jsonl"}[special]
    if special == "fifo":
        os.mkfifo(path)
    with pytest.raises(RecordError, match="not a regular file|cannot write"):
        RecordLog(path, {"kind": "match"})
    assert main(["match", "toothpicks", "perfect", "always_1", "--games", "2", "--record", str(path)]) == 2
    assert str(path) in one_line_error(capsys)
    assert main(["tournament", "toothpicks", "perfect", "always_1", "--games", "2", "--jobs", "1",
                 "--record", str(path)]) == 2
    assert str(path) in one_line_error(capsys)


# -- arcade replay ---------------------------------------------------------------------------------

@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replay_of_any_file_is_a_listing_or_one_line_naming_the_file_and_line(data, hog_record, tmp_path, capsys):
    """Random bytes, or a real record with one line changed: ``arcade replay`` lists it or says in
    one line (exit 2) what is wrong and where; never a traceback, never an escape sequence."""
    header, first, second, *_ = [json.loads(row) for row in hog_record.read_bytes().split(b"\n") if row.strip()]
    path = tmp_path / "any.jsonl"
    if data.draw(st.booleans()):
        path.write_bytes(data.draw(st.binary(max_size=300)))
    elif data.draw(st.booleans()):
        write(path, header, data.draw(wrong_lines(first)), second)
    else:
        field = data.draw(st.sampled_from(["game", "options", "kind", "bots", "seed", "record"]))
        write(path, {**header, field: data.draw(JSON)}, first, second)
    capsys.readouterr()
    status = main(["replay", str(path)])
    if status == 0:
        out = capsys.readouterr().out
        assert "2 games: arcade replay" in out and "\x1b" not in out
    else:
        assert status == 2
        message = one_line_error(capsys)
        assert str(path) in message
        assert " line " in message or "not a record file" in message or "holds no finished game" in message


def test_replay_lists_escapes_and_markup_from_a_record_as_plain_text(hog_record, tmp_path, capsys):
    header, first, second, *_ = [json.loads(row) for row in hog_record.read_bytes().split(b"\n") if row.strip()]
    hostile = {**first, "reason": ESCAPES + MARKUP, "stage": ESCAPES + "[/]", "pair": [ESCAPES + "x.py", MARKUP]}
    path = write(tmp_path / "hostile.jsonl", header, hostile, second)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert MARKUP in out and "[/]" in out
    assert not any(ch in out for ch in "\x1b\x07\x9b")


TEXTS = st.text() | st.sampled_from([ESCAPES, MARKUP, "\u202eexe.txt", "a\udc80b", "[@click=app.quit]q[/]"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reason=TEXTS, stage=TEXTS, name=TEXTS, repeat=st.sampled_from([1, 3, 20_000]))
def test_replay_shows_any_text_of_a_record_plain_and_capped(reason, stage, name, repeat, hog_record, tmp_path, capsys):
    """Whatever text a record's reason, stage and players hold (any Unicode, escapes, bidi
    overrides, markup, megabytes): ``arcade replay`` lists it with no control character, each
    line capped, or refuses the line in one line."""
    header, first, second, *_ = [json.loads(row) for row in hog_record.read_bytes().split(b"\n") if row.strip()]
    hostile = {**first, "reason": reason * repeat, "stage": stage, "pair": [name + ".py", name * repeat or "x"]}
    path = write(tmp_path / "text.jsonl", header, hostile, second)
    capsys.readouterr()
    status = main(["replay", str(path)])
    captured = capsys.readouterr()
    controls = [chr(c) for c in range(32) if chr(c) not in "\n"] + ["\x7f", "\u202e"] + [chr(c) for c in range(0x80, 0xA0)]
    assert not any(ch in captured.out + captured.err for ch in controls)
    if status == 0:
        assert all(len(line.encode()) < 2000 for line in captured.out.splitlines())
    else:
        assert status == 2 and captured.err.count("\n") == 1 and len(captured.err.encode()) < 8000


def test_replay_of_a_malformed_line_names_it_even_past_the_game_asked_for(hog_record, tmp_path, capsys):
    rows = hog_record.read_bytes().split(b"\n")
    path = tmp_path / "late.jsonl"
    path.write_bytes(b"\n".join([*rows[:6], b'{"stage": "round robin", "pair": ["a"]}', *rows[6:]]))
    assert main(["replay", str(path), "1"]) == 2
    assert f"{path} line 7: its pair must be a list of two names" in one_line_error(capsys)


def test_replay_lists_a_record_whose_last_line_is_cut_short_and_says_so(hog_record, tmp_path, capsys):
    path = copy_of(hog_record, tmp_path)
    with open(path, "ab") as handle:
        handle.write(b'{"stage": "round robin", "pa')
    assert main(["replay", str(path)]) == 0
    captured = capsys.readouterr()
    assert "12 games: arcade replay" in captured.out and "line 14 is cut short" in captured.err


async def test_the_replay_screen_shows_record_texts_plain(tmp_path):
    from rich.text import Text
    from textual.widgets import DataTable, RichLog

    from arcade.catalog import CATALOG
    from arcade.screens.replay import ReplayScreen
    from tests.conftest import make_app, settle

    game = CATALOG["toothpicks"].load()()
    moves = ["1", "2", "2", "1", "2", "1", ESCAPES + MARKUP]
    app = make_app()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(CATALOG["toothpicks"], game, (ESCAPES + MARKUP, "[/]" + ESCAPES), moves,
                              "Replay of " + ESCAPES + MARKUP)
        await app.push_screen(screen)
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)
        panel = str(screen.query_one("#side-panel").render())
        log = "\n".join(line.text for line in screen.query_one("#commentary", RichLog).lines)
        table = screen.query_one("#moves", DataTable)
        cells = [table.get_cell_at((row, 2)) for row in range(table.row_count)]
        # the panel cuts a long name on the left (as the game screen does): its end, shown plain
        assert MARKUP[-16:] in panel and "[/]" in panel and MARKUP in log and "stops making sense at move 7" in log
        assert all(isinstance(cell, Text) for cell in cells)
        for text in (panel, log):
            assert not any(ch in text for ch in "\x1b\x07\x9b")


# -- resuming --------------------------------------------------------------------------------------

def test_a_damaged_line_stops_the_run_naming_it_and_changes_nothing(hog_record, tmp_path, capsys):
    path = copy_of(hog_record, tmp_path)
    rows = path.read_bytes().split(b"\n")
    rows[4] = b'{"stage": "round robin", "pair": ["always_roll_4", "always_roll_6"], "number": "x"}'
    path.write_bytes(b"\n".join(rows))
    before = path.read_bytes()
    with pytest.raises(RecordError, match=r"line 5: no 'pair_seed'.*--repair"):
        resume(path, run_header(hog_record))
    assert main(RUN + ["--record", str(path)]) == 2
    assert f"{path} line 5: no 'pair_seed'; nothing was played" in one_line_error(capsys)
    assert path.read_bytes() == before and not Path(f"{path}.damaged").exists()


def test_repair_moves_damaged_lines_aside_and_keeps_every_good_one(hog_record, tmp_path, capsys):
    path = copy_of(hog_record, tmp_path)
    rows = path.read_bytes().split(b"\n")
    good = rows[:-1]  # the header and twelve games
    damaged = {5: b"\xff\xfe not a record \x1b[31m", 9: b'{"stage": 1}'}
    mixed = list(good)
    for number in sorted(damaged):
        mixed.insert(number - 1, damaged[number])
    path.write_bytes(b"\n".join(mixed) + b"\n")
    assert main(RUN + ["--record", str(path), "--json", "--repair"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["standings"] == run_tournament("hog", HOG, games=4, seed=2).as_json()["standings"]
    said, resumed = captured.err.strip().splitlines()
    assert "moved 2 damaged lines (5, 9) aside" in said and "\x1b" not in said
    assert resumed == f"arcade: {path}: 12 of the 12 games came from the record, none was played now"
    assert path.read_bytes() == b"\n".join(good) + b"\n"  # every good line, byte for byte, none played again
    side = Path(f"{path}.damaged").read_bytes().split(b"\n")
    assert side[0].startswith(b"# line 5 of ") and b"not UTF-8" in side[0] and side[1] == damaged[5]
    assert side[2].startswith(b"# line 9 of ") and b"its stage must be text" in side[2] and side[3] == damaged[9]


def test_a_last_line_cut_short_by_a_kill_is_moved_aside_and_said(hog_record, tmp_path, capsys):
    path = copy_of(hog_record, tmp_path)
    whole = path.read_bytes()
    rows = whole.split(b"\n")
    cut = rows[-2][:40]
    path.write_bytes(b"\n".join(rows[:-2]) + b"\n" + cut)  # the last game was being written
    assert main(RUN + ["--record", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    said, resumed = captured.err.strip().splitlines()
    assert "last line (13) was cut short" in said and str(path) in said
    assert resumed.startswith(f"arcade: {path}: 11 of the 12 games came from the record, 1 ")
    after = path.read_bytes().split(b"\n")
    assert after[:-2] == rows[:-2]  # the whole lines kept, byte for byte
    again, lost = json.loads(after[-2]), json.loads(rows[-2])  # the game played again: the same game
    assert {k: v for k, v in again.items() if "seconds" not in k and k != "times"} == \
        {k: v for k, v in lost.items() if "seconds" not in k and k != "times"}
    side = Path(f"{path}.damaged").read_bytes().split(b"\n")
    assert side[0].startswith(b"# line 13 of ") and side[1] == cut


def forge(line: dict, how: str) -> dict:
    """``line`` changed as a cheat would: its winner, its dice, its plies, its moves…"""
    line = json.loads(json.dumps(line))
    if how == "winner":
        line["winner"] = 1 - line["winner"]
    elif how == "dice":
        index = next(i for i, text in enumerate(line["moves"]) if "-" in text)  # Hog's dice: 6-5-2-3
        faces = line["moves"][index].split("-")
        faces[0] = "1" if faces[0] != "1" else "2"
        line["moves"][index] = "-".join(faces)
    elif how == "plies":
        line["plies"] += 2
    elif how == "moves cut":
        line["moves"] = line["moves"][:-2]
    elif how == "moves added":
        line["moves"] = [*line["moves"], "5", "1"]
    elif how == "colours":
        line["first"] = 1 - line["first"]
    elif how == "seed":
        line["pair_seed"] += 1
    elif how == "forfeit where the game was over":
        line.update(termination="time", forfeit=1 - line["winner"],
                    reason="Player 1 strategy took >100ms to return a move")
    elif how == "reason":
        line["reason"] = "Player 0 wins, 100–0"
    return line


@pytest.mark.parametrize("how", ["winner", "dice", "plies", "moves cut", "moves added", "colours", "seed",
                                 "forfeit where the game was over", "reason"])
def test_a_line_whose_moves_do_not_give_its_result_is_refused_as_forged(how, hog_record, tmp_path):
    path = copy_of(hog_record, tmp_path)
    rows = path.read_bytes().split(b"\n")
    rows[6] = json.dumps(forge(json.loads(rows[6]), how)).encode()
    path.write_bytes(b"\n".join(rows))
    with pytest.raises(RecordError, match=r"line 7: forged: "):
        resume(path, run_header(hog_record))
    assert Path(f"{path}.damaged").exists() is False


MOVES = st.lists(st.sampled_from(["1", "2", "5", "10", "0", "6-5-2-3", "1-1", "x", ""]) | st.text(max_size=6),
                 max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_resuming_over_wrong_lines_is_a_record_error_or_the_same_game(data, hog_record, tmp_path):
    """A line changed anyhow (any JSON in a field, or moves of any text): resuming refuses it with
    a ``RecordError`` naming its line, or it still is the game that was played."""
    rows = hog_record.read_bytes().split(b"\n")
    original = json.loads(rows[3])
    if data.draw(st.booleans()):
        line = data.draw(wrong_lines(original))
    else:
        line = {**original, "moves": data.draw(MOVES), "plies": data.draw(st.integers(0, 80))}
    path = tmp_path / "resume.jsonl"
    path.write_bytes(b"\n".join([*rows[:3], json.dumps(line).encode(), *rows[4:]]))
    try:
        with resume(path, run_header(hog_record)) as log:
            games = log.games
    except RecordError as exc:
        assert f"{path} line 4: " in str(exc) and "\n" not in str(exc)
        return
    kept = games[(original["stage"], *original["pair"], original["number"])]
    assert (kept.winner, kept.plies, kept.moves, kept.first) == (
        original["winner"], original["plies"], original["moves"], original["first"])


def test_a_game_recorded_twice_is_damage(hog_record, tmp_path):
    path = copy_of(hog_record, tmp_path)
    rows = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([*rows[:-1], rows[3], b""]))
    with pytest.raises(RecordError, match=r"line 14: game \d+ of .* is at line 4 already"):
        resume(path, run_header(hog_record))


def test_forfeits_resume_and_a_forged_one_is_refused(tmp_path):
    """Real forfeits (an error, an invalid move; either side, on either colour) pass the check;
    one put on the other player, turned into a win, or moved a move earlier does not."""
    from arcade.catalog import load

    def flaky(game, state, ctx):
        if state.ply >= 4 and state.ply % 2 == 0:
            raise RuntimeError("boom " + MARKUP)
        return 99 if state.ply >= 3 else 1

    game = load("toothpicks")()
    entries = (BotEntry.function("perfect-ish", "takes one", lambda g, s, c: 1), BotEntry.function("flaky", "", flaky))
    header = {"kind": "match", "game": "toothpicks", "options": dict(game.settings), "bots": ["a", "b"], "seed": 3}
    path = tmp_path / "forfeits.jsonl"
    with RecordLog(path, header) as log:
        summary = run_match(game, entries, games=6, seed=3, log=log)
    assert {r.termination.value for r in summary.records} >= {"error", "invalid"}
    with RecordLog(path, header) as log:
        assert len(log.games) == 6
    lines = game_lines(path)
    forfeit = lines[0]
    for forged in ({**forfeit, "forfeit": 1 - forfeit["forfeit"], "winner": forfeit["forfeit"]},  # the other one
                   {**forfeit, "termination": "normal", "forfeit": None},  # a win the moves do not give
                   {**forfeit, "moves": forfeit["moves"][:-1], "plies": forfeit["plies"] - 1}):  # a move earlier
        write(path, {"record": FORMAT, **header}, forged, *lines[1:])
        with pytest.raises(RecordError, match="line 2: forged"):
            RecordLog(path, header)


def test_checking_a_record_plays_its_dice_again(hog_record):
    """Each game's dice are drawn again from its seed: the record's match what the rules draw."""
    header, games = read_games(hog_record)
    referee = Referee(header, "hog.jsonl", lambda stage, a, b: pair_seed(2, stage, a, b))
    assert all(referee.problem(line) is None for line in games)
    game = referee.game
    state, rolls = game.initial_state(), 0
    for move in games[0]["moves"]:
        rolls += state.to_move == CHANCE
        state = game.play(state, game.parse_move(state, move))
    assert rolls > 5


def test_resuming_leaves_a_good_record_byte_for_byte(hog_record, tmp_path):
    path = copy_of(hog_record, tmp_path)
    before = path.read_bytes()
    assert main(RUN + ["--record", str(path), "--json"]) == 0
    assert path.read_bytes() == before and not Path(f"{path}.damaged").exists()
