/* Othello's two bitboard primitives in C: the game API's legal squares and a move's flips.
 *
 * games/othello.py uses these where this optional extension was built (setup.py), else its own
 * pure-Python legal_bits and flip_bits, which are the reference: the same results on every pair
 * of bitboards (tests/games/test_othello.py compares them). A bitboard is an int of 64 bits, bit
 * (row - 1) * 8 + column set where a disc is (A1 = 0, H8 = 63); any int is read modulo 2**64, as
 * the Python versions mask theirs. The game's rules stay in Python; only these two loops, which
 * are most of a random playout's time there, are here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

#define INNER 0x7E7E7E7E7E7E7E7EULL /* columns B..G: a run along a row or a diagonal never wraps */

static u64 fill_up(u64 p, u64 mask, int s)
{
    u64 t = mask & (p << s);
    t |= mask & (t << s);
    t |= mask & (t << s);
    t |= mask & (t << s);
    t |= mask & (t << s);
    t |= mask & (t << s);
    return t << s;
}

static u64 fill_down(u64 p, u64 mask, int s)
{
    u64 t = mask & (p >> s);
    t |= mask & (t >> s);
    t |= mask & (t >> s);
    t |= mask & (t >> s);
    t |= mask & (t >> s);
    t |= mask & (t >> s);
    return t >> s;
}

static u64 legal(u64 p, u64 o)
{
    u64 oi = o & INNER;
    u64 moves = fill_up(p, oi, 1) | fill_down(p, oi, 1) | fill_up(p, o, 8) | fill_down(p, o, 8)
        | fill_up(p, oi, 9) | fill_down(p, oi, 9) | fill_up(p, oi, 7) | fill_down(p, oi, 7);
    return moves & ~(p | o);
}

static const int STEP_ROW[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int STEP_COLUMN[8] = {1, -1, 0, 1, -1, 1, 0, -1};

static u64 flips(u64 p, u64 o, int square)
{
    u64 all = 0;
    int row = square >> 3, column = square & 7;
    for (int d = 0; d < 8; d++) {
        u64 run = 0;
        int r = row + STEP_ROW[d], c = column + STEP_COLUMN[d];
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && (o >> (r * 8 + c) & 1)) {
            run |= 1ULL << (r * 8 + c);
            r += STEP_ROW[d];
            c += STEP_COLUMN[d];
        }
        if (run && r >= 0 && r < 8 && c >= 0 && c < 8 && (p >> (r * 8 + c) & 1))
            all |= run;
    }
    return all;
}

/* The two bitboards a call starts with, each a Python int taken modulo 2**64: 0, or -1 with the
   error set. */
static int bitboards(PyObject *const *args, u64 *p, u64 *o)
{
    *p = PyLong_AsUnsignedLongLongMask(args[0]);
    if (*p == (u64)-1 && PyErr_Occurred())
        return -1;
    *o = PyLong_AsUnsignedLongLongMask(args[1]);
    if (*o == (u64)-1 && PyErr_Occurred())
        return -1;
    return 0;
}

static PyObject *py_legal(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "legal(p, o) takes two bitboards");
        return NULL;
    }
    u64 p, o;
    if (bitboards(args, &p, &o) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(legal(p, o));
}

static PyObject *py_flips(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    if (n != 3) {
        PyErr_SetString(PyExc_TypeError, "flips(p, o, square) takes two bitboards and a square");
        return NULL;
    }
    u64 p, o;
    if (bitboards(args, &p, &o) < 0)
        return NULL;
    long square = PyLong_AsLong(args[2]);
    if (square == -1 && PyErr_Occurred())
        return NULL;
    if (square < 0 || square > 63) {
        PyErr_SetString(PyExc_IndexError, "a square is 0..63");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(flips(p, o, (int)square));
}

static PyMethodDef METHODS[] = {
    {"legal", (PyCFunction)(void (*)(void))py_legal, METH_FASTCALL,
     "legal(p, o): the squares where discs p can move against discs o (a bitboard)."},
    {"flips", (PyCFunction)(void (*)(void))py_flips, METH_FASTCALL,
     "flips(p, o, square): the discs of o that a disc of p on square flips."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "games._othello_bits",
    "Othello's legal squares and flips on 64-bit bitboards (games/othello.py uses them where built).",
    -1, METHODS,
};

PyMODINIT_FUNC PyInit__othello_bits(void)
{
    return PyModule_Create(&MODULE);
}
