/* D-Football's exact solver in C (``bots.dfootball._solve``): the search of
 * ``bots/dfootball/solver.py`` (its reference, the same positions, moves, order and race rule),
 * for the boards the Python solver cannot finish (n = 12..15: up to 31 squares).
 *
 * A position is seen from the side to move: ``m`` the mover's pieces, ``o`` the opponent's, bit i
 * square i + 1, the mover moving towards higher bits; after a move the board is mirrored so that
 * the other side moves "up" again. ``wins`` answers whether the side to move wins with perfect
 * play: depth-first negamax over win/loss, jumps first (from the front), then steps (from the
 * back), cut by the race (once the teams cannot meet, the side with more steps left wins) and
 * by a transposition table.
 *
 * The table: 2^bits slots of one 64-bit word each, ``m << 32 | o`` with the value in bit 63
 * (m and o have at most 31 bits; no reachable position has both empty, so 0 is a free slot).
 * A position hashes to a slot and looks at the next ``PROBES``; when all are taken, it replaces
 * the one it hashed to. Every value stored is exact, so a replaced entry only costs its search
 * again: the answer never depends on the table's size, only the time does. The search releases
 * the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define PROBES 8
#define VALUE (1ULL << 63)

typedef struct {
    uint64_t *slots;
    uint64_t mask;
    int shift;
    int size;
    uint32_t full;
    uint64_t nodes;
    uint64_t stored;
} Search;

static unsigned char REV[256];

static uint32_t flip(uint32_t x, int size) {
    uint32_t r = (uint32_t)REV[x & 0xFF] << 24 | (uint32_t)REV[(x >> 8) & 0xFF] << 16 |
                 (uint32_t)REV[(x >> 16) & 0xFF] << 8 | (uint32_t)REV[x >> 24];
    return r >> (32 - size);
}

static int race(uint32_t m, uint32_t o, int size) {
    /* steps left: each piece walks to the far end, packed behind the ones ahead of it */
    long a = 0, b = 0;
    int k = 0;
    uint32_t x = m;
    while (x) {
        int top = 31 - __builtin_clz(x);
        x ^= 1u << top;
        a += (size - 1 - k) - top;
        k++;
    }
    k = 0;
    x = o;
    while (x) {
        int low = __builtin_ctz(x);
        x ^= 1u << low;
        b += low - k;
        k++;
    }
    return a > b;
}

static uint64_t slot_of(uint64_t key, int shift) {
    return (key * 0x9E3779B97F4A7C15ULL) >> shift; /* the product's top bits: every bit of the key counts */
}

static int wins(Search *s, uint32_t m, uint32_t o) {
    uint64_t key = (uint64_t)m << 32 | o;
    uint64_t home = slot_of(key, s->shift), i = home;
    for (int p = 0; p < PROBES; p++, i = (i + 1) & s->mask) {
        uint64_t e = s->slots[i];
        if ((e & ~VALUE) == key)
            return (e & VALUE) != 0;
        if (!e)
            break;
    }
    s->nodes++;
    int result;
    if (!o || !m || o < (m & -m)) {
        result = race(m, o, s->size);
    } else {
        uint32_t empty = s->full & ~(m | o);
        uint32_t jumps = m & (o >> 1) & (empty >> 2);
        result = 0;
        while (jumps && !result) {
            uint32_t bit = 1u << (31 - __builtin_clz(jumps));
            jumps ^= bit;
            uint32_t nm = m ^ bit ^ (bit << 2), no = o ^ (bit << 1);
            if (!wins(s, flip(no, s->size), flip(nm, s->size)))
                result = 1;
        }
        if (!result) {
            uint32_t steps = m & (empty >> 1);
            uint32_t fm = flip(o, s->size);
            while (steps && !result) {
                uint32_t bit = steps & -steps;
                steps ^= bit;
                uint32_t nm = m ^ bit ^ (bit << 1);
                if (!wins(s, fm, flip(nm, s->size)))
                    result = 1;
            }
        }
    }
    /* store: the first free slot of the probe run, else the home slot */
    uint64_t entry = key | (result ? VALUE : 0);
    i = home;
    for (int p = 0; p < PROBES; p++, i = (i + 1) & s->mask) {
        if (!s->slots[i]) {
            s->slots[i] = entry;
            s->stored++;
            return result;
        }
    }
    s->slots[home] = entry;
    return result;
}

PyDoc_STRVAR(solve_doc,
"solve(m, o, size, bits=22) -> (wins, nodes, stored)\n\n"
"Whether the side to move (pieces ``m``, the opponent's ``o``, on ``size`` squares, 3..31) wins\n"
"with perfect play, the positions searched and the table entries made (a table of 2**bits\n"
"slots, 10..34, 8 bytes each).");

static PyObject *solve(PyObject *self, PyObject *args) {
    unsigned long long m, o;
    int size, bits = 22;
    if (!PyArg_ParseTuple(args, "KKi|i", &m, &o, &size, &bits))
        return NULL;
    if (size < 3 || size > 31) {
        PyErr_SetString(PyExc_ValueError, "size must be 3..31 squares");
        return NULL;
    }
    if (bits < 10 || bits > 34) {
        PyErr_SetString(PyExc_ValueError, "bits must be 10..34");
        return NULL;
    }
    uint32_t full = (uint32_t)((1ULL << size) - 1);
    if ((m | o) & ~(unsigned long long)full || (m & o)) {
        PyErr_SetString(PyExc_ValueError, "m and o must be disjoint squares of the board");
        return NULL;
    }
    Search s = {0};
    s.mask = (1ULL << bits) - 1;
    s.shift = 64 - bits;
    s.size = size;
    s.full = full;
    s.slots = calloc((size_t)1 << bits, sizeof(uint64_t));
    if (!s.slots)
        return PyErr_NoMemory();
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = wins(&s, (uint32_t)m, (uint32_t)o);
    Py_END_ALLOW_THREADS
    free(s.slots);
    return Py_BuildValue("(OKK)", result ? Py_True : Py_False, (unsigned long long)s.nodes,
                         (unsigned long long)s.stored);
}

static PyMethodDef METHODS[] = {
    {"solve", solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_solve", "D-Football's exact solver in C (bots/dfootball/_solve.c).", -1, METHODS,
};

PyMODINIT_FUNC PyInit__solve(void) {
    for (int b = 0; b < 256; b++) {
        int r = 0;
        for (int i = 0; i < 8; i++)
            if (b >> i & 1)
                r |= 1 << (7 - i);
        REV[b] = (unsigned char)r;
    }
    return PyModule_Create(&MODULE);
}
