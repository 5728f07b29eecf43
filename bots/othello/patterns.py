"""A learned pattern evaluation in the Logistello/Edax tradition: ``PatternEvaluator``.

The value of a position (for the side to move, in hundredths of a disc: the expected final disc
margin) is a sum of weights looked up by the configuration of squares of each pattern, in the
table of the game's stage (every four discs: 15 stages):

========  ======  =========  =====================================================
pattern   cells   instances  squares (the first instance; the others are its
                             images by the board's symmetries and share its weights)
========  ======  =========  =====================================================
edge+2X   10      4          row 1 and the X-squares B2, G2
corner2x5 10      8          A1–E1 and A2–E2 (and the transposed block)
corner3x3 9       4          A1–C3
line2     8       4          row 2 (and rows/columns B, G, 7)
line3     8       4          row 3
line4     8       4          row 4
diag8     8       2          A1–H8
diag7     7       4          B1–H7
diag6     6       4          C1–H6
diag5     5       4          D1–H5
diag4     4       4          E1–H4
========  ======  =========  =====================================================

plus the mover's and the opponent's mobility (a weight per number of moves) and the parity of
the empties (who is due the last square). A configuration is a base-3 number (0 empty, 1 the
mover's, 2 the opponent's) of the cells in the pattern's order; the evaluator gathers each
instance's cells from row, column and diagonal bytes of the two bitboards (multiply-gathers)
and turns a byte of bits into its base-3 digits by a table, so one evaluation is a few hundred
integer operations and 49 array look-ups per stage, no loops (the code is generated once at
import from the pattern table below).

The weights, per stage, are one flat array of int16 (hundredths of a disc), stored zlib-packed
in ``patterns.bin`` beside this module (``load``/``save``); ``bots.othello.train`` makes them.
On a finished board the evaluation is the exact ``utility``.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from pathlib import Path

from bots.othello.eval import HEURISTIC_MAX, utility
from games.othello import FULL, legal_pair

WEIGHTS_FILE = Path(__file__).with_name("patterns.bin")
MAGIC = b"OTPW1\n"
STAGES = 15
"""Stage of a position with ``n`` discs: ``(n - 4) // 4`` (the finished board is never looked up)."""

_COL_A = 0x0101010101010101
_GATHER_COL = 0x0102040810204080
_GATHER_DIAG = 0x0101010101010101


def stage_of(discs: int) -> int:
    return min(STAGES - 1, max(0, (discs - 4) // 4))


def _diag_mask(d: int) -> int:
    """Squares with column - row == d."""
    return sum(1 << (r * 8 + r + d) for r in range(8) if 0 <= r + d < 8)


def _anti_mask(s: int) -> int:
    """Squares with row + column == s."""
    return sum(1 << (r * 8 + s - r) for r in range(8) if 0 <= s - r < 8)


def _rev(bits: int, n: int) -> int:
    return sum(1 << (n - 1 - k) for k in range(n) if bits >> k & 1)


REV = {n: tuple(_rev(b, n) for b in range(1 << n)) for n in range(4, 9)}
B3 = tuple(sum(3 ** k for k in range(10) if b >> k & 1) for b in range(1024))
B3X2 = tuple(2 * v for v in B3)


def _diag_exprs(length: int) -> list[str]:
    """The four (two for length 8) instances of a diagonal, as expressions of side ``X``."""
    m = 8 - length

    def gather(mask: int) -> str:
        return f"((X & {mask:#x}) * {_GATHER_DIAG:#x} >> 56 & 255)"

    out = [f"({gather(_diag_mask(m))} >> {m})" if m else gather(_diag_mask(0))]
    if m:
        out.append(gather(_diag_mask(-m)))
    out.append(f"R{length}[{gather(_anti_mask(length - 1))}]")
    if m:
        out.append(f"R{length}[{gather(_anti_mask(15 - length))} >> {m}]")
    return out


# (name, cells, instances as expressions of one side's bytes: Xr0..Xr7 rows, Xc0..Xc7 columns
# (bit k = row k + 1), XRr*/XRc* the same reversed, X the bitboard)
PATTERNS: tuple[tuple[str, int, list[str]], ...] = (
    ("edge+2X", 10, [
        "(Xr0 | (X >> 9 & 1) << 8 | (X >> 14 & 1) << 9)",
        "(Xr7 | (X >> 49 & 1) << 8 | (X >> 54 & 1) << 9)",
        "(Xc0 | (X >> 9 & 1) << 8 | (X >> 49 & 1) << 9)",
        "(Xc7 | (X >> 14 & 1) << 8 | (X >> 54 & 1) << 9)",
    ]),
    ("corner2x5", 10, [
        "((Xr0 & 31) | (Xr1 & 31) << 5)",
        "((XRr0 & 31) | (XRr1 & 31) << 5)",
        "((Xr7 & 31) | (Xr6 & 31) << 5)",
        "((XRr7 & 31) | (XRr6 & 31) << 5)",
        "((Xc0 & 31) | (Xc1 & 31) << 5)",
        "((XRc0 & 31) | (XRc1 & 31) << 5)",
        "((Xc7 & 31) | (Xc6 & 31) << 5)",
        "((XRc7 & 31) | (XRc6 & 31) << 5)",
    ]),
    ("corner3x3", 9, [
        "((Xr0 & 7) | (Xr1 & 7) << 3 | (Xr2 & 7) << 6)",
        "((XRr0 & 7) | (XRr1 & 7) << 3 | (XRr2 & 7) << 6)",
        "((Xr7 & 7) | (Xr6 & 7) << 3 | (Xr5 & 7) << 6)",
        "((XRr7 & 7) | (XRr6 & 7) << 3 | (XRr5 & 7) << 6)",
    ]),
    ("line2", 8, ["Xr1", "Xr6", "Xc1", "Xc6"]),
    ("line3", 8, ["Xr2", "Xr5", "Xc2", "Xc5"]),
    ("line4", 8, ["Xr3", "Xr4", "Xc3", "Xc4"]),
    ("diag8", 8, _diag_exprs(8)),
    ("diag7", 7, _diag_exprs(7)),
    ("diag6", 6, _diag_exprs(6)),
    ("diag5", 5, _diag_exprs(5)),
    ("diag4", 4, _diag_exprs(4)),
)
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


def _side_code(x: str) -> list[str]:
    lines = [f"{x}r{r} = {x} >> {8 * r} & 255" if r else f"{x}r0 = {x} & 255" for r in range(8)]
    lines[7] = f"{x}r7 = {x} >> 56"
    for c in range(8):
        shifted = f"{x} >> {c}" if c else x
        lines.append(f"{x}c{c} = (({shifted}) & {_COL_A:#x}) * {_GATHER_COL:#x} >> 56 & 255")
    for name in ("r0", "r1", "r2", "r5", "r6", "r7", "c0", "c1", "c6", "c7"):
        lines.append(f"{x}R{name} = R8[{x}{name}]")
    return lines


def _instance_terms() -> list[tuple[int, str, str]]:
    """(offset, expression for the mover ``p``, for the opponent ``o``) of every instance."""
    out = []
    for name, _cells, instances in PATTERNS:
        for expr in instances:
            out.append((OFFSETS[name], expr.replace("X", "p"), expr.replace("X", "o")))
    return out


def _source() -> str:
    """The source of ``make(W, ...)``: the evaluation closure and the feature indices."""
    body = _side_code("p") + _side_code("o")
    terms = [f"w[{off} + B3[{ep}] + B3X2[{eo}]]" for off, ep, eo in _instance_terms()]
    idx = [f"{off} + B3[{ep}] + B3X2[{eo}]" for off, ep, eo in _instance_terms()]
    mob = OFFSETS["mobility"]
    omob = OFFSETS["opponent mobility"]
    par = OFFSETS["parity"]
    ind = "        "
    return (
        "def make(W, pair, full, util, hmax, B3, B3X2, R8, R7, R6, R5, R4):\n"
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
        + "".join(f"{ind}     + {t}\n" for t in terms)
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
        + "".join(f"{ind}        {t},\n" for t in idx)
        + f"{ind}        ]\n"
        "    return evaluate, features\n"
    )


_namespace: dict = {}
exec(compile(_source(), "<bots.othello.patterns generated>", "exec"), _namespace)
_make = _namespace["make"]


def _bind(per_disc: list) -> tuple:
    return _make(per_disc, legal_pair, FULL, utility, HEURISTIC_MAX, B3, B3X2,
                 REV[8], REV[7], REV[6], REV[5], REV[4])


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


_CACHE: dict[str, list[array]] = {}


class PatternEvaluator:
    """The learned evaluation: ``evaluate(p, o)`` in hundredths of a disc for the mover."""

    def __init__(self, stages: list | None = None, path: Path | str | None = None) -> None:
        if stages is None:
            key = str(path or WEIGHTS_FILE)
            if key not in _CACHE:
                _CACHE[key] = load(key)
            stages = _CACHE[key]
        self.stages = stages
        per_disc = [stages[stage_of(n)] for n in range(65)]
        self.evaluate, self.features = _bind(per_disc)

    def evaluate(self, p: int, o: int) -> int:  # replaced per instance by the generated closure
        raise NotImplementedError
