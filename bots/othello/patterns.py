"""A learned pattern evaluation in the Logistello/Edax tradition: ``PatternEvaluator``.

The value of a position (for the side to move, in hundredths of a disc: the expected final disc
margin) is a sum of weights looked up by the configuration of squares of each pattern, in the
table of the game's stage (every four discs: 15 stages):

=========  =====  =========  ====================================================
pattern    cells  instances  squares of the first instance (the others are its
                             images by the board's symmetries and share its table)
=========  =====  =========  ====================================================
edge+2X    10     4          row 1 and the X-squares B2, G2
corner2x5  10     8          A1-E1 and A2-E2 (and the transposed block)
corner3x3  9      4          A1-C3
line2      8      4          row 2 (and rows/columns B, G, 7)
line3      8      4          row 3
diag8      8      2          A1-H8
diag7      7      4          B1-H7
=========  =====  =========  ====================================================

plus the mover's and the opponent's mobility (a weight per number of moves) and the parity of
the empties (who is due the last square). ``ALL_PATTERNS`` also names the classic set's rows 4
and diagonals 4-6; they cost a third more time an evaluation and, measured, were not worth it.

A configuration is a base-3 number (digit ``k``: 0 empty, 1 the mover's, 2 the opponent's disc on
the instance's ``k``-th square). The evaluator never loops over squares: code generated once at
import reads each row, column and diagonal of both sides as one 16-bit key (rows and columns by
spreading the bytes of the two bitboards, and of their transposes, into 16-bit lanes; diagonals
by one multiply-gather of both sides packed into one integer) and looks the key up in a table
that holds that line's part of the base-3 index. An instance is one to three such look-ups and a
weight look-up; one evaluation is about 300 integer operations.

The weights, per stage, are one flat array of int16 (hundredths of a disc), stored zlib-packed
in ``patterns.bin`` beside this module (``load``/``save``); ``training.othello.train`` makes them.
On a finished board the evaluation is the exact ``utility``.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from itertools import repeat
from operator import add
from pathlib import Path

from bots.othello.eval import HEURISTIC_MAX, utility
from games.othello import FULL, legal_pair

WEIGHTS_FILE = Path(__file__).with_name("patterns.bin")
MAGIC = b"OTPW2\n"
STAGES = 15
"""Stage of a position with ``n`` discs: ``(n - 4) // 4`` (the finished board is never looked up)."""


def stage_of(discs: int) -> int:
    return min(STAGES - 1, max(0, (discs - 4) // 4))


def _squares(names: str) -> list[int]:
    """``"A1 B1"`` -> ``[0, 1]`` (square = 8 * row + column, A1 = 0)."""
    return [(int(s[1]) - 1) * 8 + "ABCDEFGH".index(s[0]) for s in names.split()]


ALL_PATTERNS: dict[str, list[int]] = {
    "edge+2X": _squares("A1 B1 C1 D1 E1 F1 G1 H1 B2 G2"),
    "corner2x5": _squares("A1 B1 C1 D1 E1 A2 B2 C2 D2 E2"),
    "corner3x3": _squares("A1 B1 C1 A2 B2 C2 A3 B3 C3"),
    "line2": _squares("A2 B2 C2 D2 E2 F2 G2 H2"),
    "line3": _squares("A3 B3 C3 D3 E3 F3 G3 H3"),
    "line4": _squares("A4 B4 C4 D4 E4 F4 G4 H4"),
    "diag8": _squares("A1 B2 C3 D4 E5 F6 G7 H8"),
    "diag7": _squares("B1 C2 D3 E4 F5 G6 H7"),
    "diag6": _squares("C1 D2 E3 F4 G5 H6"),
    "diag5": _squares("D1 E2 F3 G4 H5"),
    "diag4": _squares("E1 F2 G3 H4"),
}
"""The classic pattern set, each by its first instance's squares in digit order."""

USED = ("edge+2X", "corner2x5", "corner3x3", "line2", "line3", "diag8", "diag7")
"""The patterns this evaluation uses (and ``patterns.bin`` holds weights for)."""


def symmetry(t: int, sq: int) -> int:
    """The image of square ``sq`` by the board symmetry ``t`` (0-7: mirror columns, rows, transpose)."""
    r, c = divmod(sq, 8)
    if t & 1:
        c = 7 - c
    if t & 2:
        r = 7 - r
    if t & 4:
        r, c = c, r
    return r * 8 + c


def instances(first: list[int]) -> list[list[int]]:
    """The distinct images of a pattern's first instance (same squares = same instance)."""
    out, seen = [], set()
    for t in range(8):
        image = [symmetry(t, sq) for sq in first]
        if frozenset(image) not in seen:
            seen.add(frozenset(image))
            out.append(image)
    return out


PATTERNS: tuple[tuple[str, int, list[list[int]]], ...] = tuple(
    (name, len(ALL_PATTERNS[name]), instances(ALL_PATTERNS[name])) for name in USED)
"""``(name, cells, instances)``: every instance as its squares in digit order."""

MOBILITY_SIZE = 64
OFFSETS: dict[str, int] = {}
_size = 0
for _name, _cells, _ in PATTERNS:
    OFFSETS[_name] = _size
    _size += 3 ** _cells
OFFSETS["mobility"] = _size
OFFSETS["opponent mobility"] = _size + MOBILITY_SIZE
OFFSETS["parity"] = _size + 2 * MOBILITY_SIZE
STAGE_SIZE = _size + 2 * MOBILITY_SIZE + 2
"""Weights in one stage's flat array."""
FEATURES = sum(len(instances) for _, _, instances in PATTERNS) + 3
"""Weights summed in one evaluation (one per pattern instance, two mobilities, the parity)."""

# -- the generated evaluation ---------------------------------------------------------------------
_KINDS = ("row", "col", "diag", "anti")


def _lines_through(sq: int) -> list[tuple[tuple[str, int], int]]:
    """The lines through ``sq`` with its bit in each line's key (rows: the column; columns: the
    row; diagonals (column - row) and anti-diagonals (row + column): the column)."""
    r, c = divmod(sq, 8)
    return [(("row", r), c), (("col", c), r), (("diag", c - r), c), (("anti", r + c), c)]


def decompose(instance: list[int]) -> list[tuple[tuple[str, int], tuple[tuple[int, int], ...]]]:
    """The instance as parts ``(line, ((bit, digit), ...))``: fewest lines, rows first."""
    left = {sq: digit for digit, sq in enumerate(instance)}
    parts = []
    while left:
        found: dict = {}
        for sq, digit in left.items():
            for line, bit in _lines_through(sq):
                found.setdefault(line, []).append((bit, digit, sq))
        line = min(found, key=lambda ln: (-len(found[ln]), _KINDS.index(ln[0]), ln[1]))
        parts.append((line, tuple(sorted((bit, digit) for bit, digit, _ in found[line]))))
        for _, _, sq in found[line]:
            del left[sq]
    return parts


def _part_table(mapping: tuple[tuple[int, int], ...], offset: int = 0) -> list[int]:
    """A line's part of the base-3 index, plus ``offset``, for every key ``mover byte | opponent
    byte << 8`` (the entries share one int object per value: a table is 65,536 pointers)."""
    mine = [sum(3 ** d for b, d in mapping if m >> b & 1) for m in range(256)]
    values = list(range(offset, offset + 3 * max(mine) + 1))
    get = values.__getitem__
    out: list[int] = []
    for b in mine:
        out += map(get, map(add, mine, repeat(2 * b, 256)))
    return out


_M32 = 0x00000000FFFFFFFF00000000FFFFFFFF
_M16 = 0x0000FFFF0000FFFF0000FFFF0000FFFF
_M8 = 0x00FF00FF00FF00FF00FF00FF00FF00FF
_T1 = 0x5500550055005500 | 0x5500550055005500 << 128
_T2 = 0x3333000033330000 | 0x3333000033330000 << 128
_T4 = 0x0F0F0F0F00000000 | 0x0F0F0F0F00000000 << 128
_GATHER = 0x0101010101010101


def _line_mask(kind: str, k: int) -> int:
    return sum(1 << sq for sq in range(64) if (sq % 8 - sq // 8 if kind == "diag" else sq // 8 + sq % 8) == k)


def _source(patterns=PATTERNS, offsets=OFFSETS) -> tuple[str, list]:
    """The source of ``make(...)`` and the part tables it takes (``K0``, ``K1``, ...)."""
    tables: dict[tuple, int] = {}
    terms = []
    used: set = set()
    for name, _cells, insts in patterns:
        for inst in insts:
            looks = []
            for i, (line, mapping) in enumerate(decompose(inst)):
                t = tables.setdefault((mapping, 0 if i else offsets[name]), len(tables))
                used.add(line)
                looks.append(f"K{t}[{_key_name(line)}]")
            terms.append(" + ".join(looks))
    body = []
    rows = sorted(k for kind, k in used if kind == "row")
    cols = sorted(k for kind, k in used if kind == "col")
    diags = sorted((kind, k) for kind, k in used if kind in ("diag", "anti"))

    def spread(x: str, out: str) -> list[str]:
        return [f"{out} = ({x} | {x} << 32) & {_M32:#x}",
                f"{out} = ({out} | {out} << 16) & {_M16:#x}",
                f"{out} = ({out} | {out} << 8) & {_M8:#x}"]

    if rows:
        body += spread("p", "sp") + spread("o", "so") + ["R = sp | so << 8"]
        body += [f"{_key_name(('row', r))} = R >> {16 * r} & 65535" if r else "row0 = R & 65535" for r in rows]
    if cols or diags:
        body.append("z = p | o << 128")
    if cols:
        body += ["t = z", f"u = {_T4:#x} & (t ^ (t << 28))", "t ^= u ^ (u >> 28)",
                 f"u = {_T2:#x} & (t ^ (t << 14))", "t ^= u ^ (u >> 14)",
                 f"u = {_T1:#x} & (t ^ (t << 7))", "t ^= u ^ (u >> 7)",
                 f"tp = t & {FULL:#x}", "to = t >> 128"]
        body += spread("tp", "sp") + spread("to", "so") + ["C = sp | so << 8"]
        body += [f"{_key_name(('col', c))} = C >> {16 * c} & 65535" if c else "col0 = C & 65535" for c in cols]
    for kind, k in diags:
        m = _line_mask(kind, k)
        body += [f"x = (z & {m | m << 128:#x}) * {_GATHER:#x}",
                 f"{_key_name((kind, k))} = (x >> 56 & 255) | (x >> 176 & 65280)"]
    mob, omob, par = offsets["mobility"], offsets["opponent mobility"], offsets["parity"]
    ind = "        "
    names = ", ".join(f"K{i}" for i in range(len(tables)))
    src = (
        f"def make(W, pair, full, util, hmax, {names}):\n"
        "    def evaluate(p, o):\n"
        "        both = pair(p, o)\n"
        "        mp = (both & full).bit_count()\n"
        "        mo = (both >> 128).bit_count()\n"
        "        if not mp and not mo:\n"
        "            return util(p, o)\n"
        "        n = (p | o).bit_count()\n"
        "        w = W[n]\n"
        + "".join(f"{ind}{line}\n" for line in body)
        + f"{ind}v = (w[{mob} + mp] + w[{omob} + mo] + w[{par} + (n & 1)]\n"
        + "".join(f"{ind}     + w[{t}]\n" for t in terms)
        + f"{ind}     )\n"
        f"{ind}if v > hmax:\n{ind}    return hmax\n"
        f"{ind}if v < -hmax:\n{ind}    return -hmax\n"
        f"{ind}return v\n"
        "    def features(p, o):\n"
        "        both = pair(p, o)\n"
        "        mp = (both & full).bit_count()\n"
        "        mo = (both >> 128).bit_count()\n"
        "        n = (p | o).bit_count()\n"
        + "".join(f"{ind}{line}\n" for line in body)
        + f"{ind}return [{mob} + mp, {omob} + mo, {par} + (n & 1),\n"
        + "".join(f"{ind}        {t},\n" for t in terms)
        + f"{ind}        ]\n"
        "    return evaluate, features\n"
    )
    return src, [_part_table(mapping, offset) for mapping, offset in tables]


def _key_name(line: tuple[str, int]) -> str:
    kind, k = line
    return f"{kind}{k}" if k >= 0 else f"{kind}_{-k}"


def build(patterns=PATTERNS, offsets=OFFSETS):
    """``bind(per_disc) -> (evaluate, features)`` for a pattern set (``PATTERNS`` by default)."""
    source, tables = _source(patterns, offsets)
    namespace: dict = {}
    exec(compile(source, "<bots.othello.patterns generated>", "exec"), namespace)
    make = namespace["make"]

    def bind(per_disc: list) -> tuple:
        return make(per_disc, legal_pair, FULL, utility, HEURISTIC_MAX, *tables)

    return bind


_bind = build()
_features = _bind([None] * 65)[1]


def features(p: int, o: int) -> list[int]:
    """The indices (within the stage's flat array) of the weights the evaluation sums."""
    return _features(p, o)


def save(stages: list, path: Path | str = WEIGHTS_FILE) -> None:
    """Write the weights: ``STAGES`` sequences of ``STAGE_SIZE`` ints (hundredths of a disc)."""
    assert len(stages) == STAGES
    raw = array("h")
    for stage in stages:
        assert len(stage) == STAGE_SIZE
        try:
            raw.extend(array("h", stage))
        except OverflowError:
            raw.extend(max(-32767, min(32767, int(v))) for v in stage)
    if raw.itemsize != 2:
        raise RuntimeError("int16 arrays expected")
    data = raw.tobytes() if struct.pack("=h", 1) == struct.pack("<h", 1) else _swapped(raw)
    Path(path).write_bytes(MAGIC + struct.pack("<II", STAGES, STAGE_SIZE) + zlib.compress(data, 9))


def _swapped(raw: array) -> bytes:
    copy = array("h", raw)
    copy.byteswap()
    return copy.tobytes()


def load(path: Path | str = WEIGHTS_FILE) -> list[array]:
    """The weights file's stages (``array('h')`` each); a file of another layout is an error."""
    blob = Path(path).read_bytes()
    if not blob.startswith(MAGIC):
        raise ValueError(f"{path}: not an Othello pattern weights file")
    stages, size = struct.unpack_from("<II", blob, len(MAGIC))
    if (stages, size) != (STAGES, STAGE_SIZE):
        raise ValueError(f"{path}: {stages} stages of {size} weights, expected {STAGES} of {STAGE_SIZE}")
    raw = array("h")
    raw.frombytes(zlib.decompress(blob[len(MAGIC) + 8:]))
    if struct.pack("=h", 1) != struct.pack("<h", 1):
        raw.byteswap()
    return [raw[i * size:(i + 1) * size] for i in range(stages)]


def probcut_path(weights: Path | str) -> Path:
    """Where the Multi-ProbCut calibration of a weights file lives: ``patterns.bin`` ->
    ``patterns.probcut.json``."""
    return Path(weights).with_suffix(".probcut.json")


def load_probcut(weights: Path | str) -> dict | None:
    """The engine's Multi-ProbCut table for a weights file, ``{depth: (shallow, a, b, sigma by
    disc count)}``, or None when there is no calibration or it was made for other weights."""
    import hashlib
    import json

    path = probcut_path(weights)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        if data.get("weights_sha256") != hashlib.sha256(Path(weights).read_bytes()).hexdigest():
            return None
        groups = data["groups"]
        table = {}
        for depth, c in data["depths"].items():
            by_discs = tuple(float(c["sigma"][sum(n >= g for g in groups)]) for n in range(65))
            table[int(depth)] = (int(c["shallow"]), float(c["a"]), float(c["b"]), by_discs)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None  # a damaged calibration: the engine searches without ProbCut
    return table


_CACHE: dict[str, list[list[int]]] = {}
_PROBCUT_CACHE: dict[str, dict | None] = {}
"""Per weights file, read once: its stages as lists, and its ProbCut calibration."""


def _as_lists(stages: list[array]) -> list[list[int]]:
    """The stages as lists sharing one int object per value: a look-up then returns an existing
    object where an array makes a new one (measured: the evaluation 14 % faster; 19 MB)."""
    ints = list(range(-32768, 32768))
    return [list(map(ints.__getitem__, map((32768).__add__, stage))) for stage in stages]


class PatternEvaluator:
    """The learned evaluation: ``evaluate(p, o)`` in hundredths of a disc for the mover.

    ``probcut`` is the Multi-ProbCut calibration the engine uses with it (``load_probcut``);
    ``probcut=False`` leaves it out."""

    def __init__(self, stages: list | None = None, path: Path | str | None = None, probcut: bool = True) -> None:
        self.probcut = None
        if stages is None:
            key = str(path or WEIGHTS_FILE)
            if key not in _CACHE:
                _CACHE[key] = _as_lists(load(key))
                _PROBCUT_CACHE[key] = load_probcut(key)
            stages = _CACHE[key]
            if probcut:
                self.probcut = _PROBCUT_CACHE[key]
        self.stages = stages
        per_disc = [stages[stage_of(n)] for n in range(65)]
        self.evaluate, self.features = _bind(per_disc)

    def evaluate(self, p: int, o: int) -> int:  # replaced per instance by the generated closure
        raise NotImplementedError
