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

#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PROBES 8
#define TABLE_PROBES 32
#define VALUE (1ULL << 63)
#define STOPPED (-1)
#define CLOCK_EVERY 256

typedef struct {
    uint64_t *slots;
    uint64_t mask;
    int shift;
    int size;
    uint32_t full;
    uint64_t nodes;
    uint64_t stored;
    /* how a full probe run is met: replace the home slot (a proof's solve), or keep every entry
     * already there and drop the new one (a table whose proofs must stay: the bot's) */
    int replace;
    int probes;
    uint64_t dropped;
    /* a budget: stop (STOPPED) after ``limit`` positions, or once the monotonic clock passes
     * ``deadline`` (0: none) */
    uint64_t limit;
    double deadline;
    int stopped;
    /* the slots filled, so that a lightly used table empties quickly (``logged`` > ``log_cap``:
     * too many, the whole table is emptied) */
    uint32_t *log;
    uint64_t logged, log_cap;
} Search;

static unsigned char REV[256];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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

/* the stored value of a position: 1 won, 0 lost, -1 not in the table */
static int lookup(const Search *s, uint64_t key) {
    uint64_t i = slot_of(key, s->shift);
    for (int p = 0; p < s->probes; p++, i = (i + 1) & s->mask) {
        uint64_t e = s->slots[i];
        if ((e & ~VALUE) == key)
            return (e & VALUE) != 0;
        if (!e)
            break;
    }
    return -1;
}

static void store(Search *s, uint64_t key, int result) {
    uint64_t entry = key | (result ? VALUE : 0);
    uint64_t home = slot_of(key, s->shift), i = home;
    for (int p = 0; p < s->probes; p++, i = (i + 1) & s->mask) {
        if (!s->slots[i]) {
            s->slots[i] = entry;
            s->stored++;
            if (s->log) {
                if (s->logged < s->log_cap)
                    s->log[s->logged] = (uint32_t)i;
                s->logged++;
            }
            return;
        }
    }
    if (s->replace)
        s->slots[home] = entry;
    else
        s->dropped++;
}

/* whether the side to move wins: 1, 0, or STOPPED when the budget ran out (nothing of an
 * unfinished position is stored: every entry is exact) */
static int wins(Search *s, uint32_t m, uint32_t o) {
    uint64_t key = (uint64_t)m << 32 | o;
    int known = lookup(s, key);
    if (known >= 0)
        return known;
    s->nodes++;
    if (s->limit && s->nodes > s->limit) {
        s->stopped = 1;
        return STOPPED;
    }
    if (s->deadline > 0 && (s->nodes % CLOCK_EVERY) == 0 && now() > s->deadline) {
        s->stopped = 1;
        return STOPPED;
    }
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
            int r = wins(s, flip(no, s->size), flip(nm, s->size));
            if (r == STOPPED)
                return STOPPED;
            if (!r)
                result = 1;
        }
        if (!result) {
            uint32_t steps = m & (empty >> 1);
            uint32_t fm = flip(o, s->size);
            while (steps && !result) {
                uint32_t bit = steps & -steps;
                steps ^= bit;
                uint32_t nm = m ^ bit ^ (bit << 1);
                int r = wins(s, fm, flip(nm, s->size));
                if (r == STOPPED)
                    return STOPPED;
                if (!r)
                    result = 1;
            }
        }
    }
    store(s, key, result);
    return result;
}

/* the first winning move in the reference's order (jumps from the front, then steps from the
 * back) as its from-bit, 0 if the position is lost, STOPPED if the budget ran out */
static long first_winning(Search *s, uint32_t m, uint32_t o) {
    uint32_t empty = s->full & ~(m | o);
    uint32_t jumps = m & (o >> 1) & (empty >> 2);
    while (jumps) {
        uint32_t bit = 1u << (31 - __builtin_clz(jumps));
        jumps ^= bit;
        uint32_t nm = m ^ bit ^ (bit << 2), no = o ^ (bit << 1);
        int r = wins(s, flip(no, s->size), flip(nm, s->size));
        if (r == STOPPED)
            return STOPPED;
        if (!r)
            return (long)bit;
    }
    uint32_t steps = m & (empty >> 1);
    uint32_t fm = flip(o, s->size);
    while (steps) {
        uint32_t bit = steps & -steps;
        steps ^= bit;
        uint32_t nm = m ^ bit ^ (bit << 1);
        int r = wins(s, fm, flip(nm, s->size));
        if (r == STOPPED)
            return STOPPED;
        if (!r)
            return (long)bit;
    }
    return 0;
}

/* every move of the side to move in the reference's order (jumps from the front, then steps from
 * the back): its from-bit and the position after it, mirrored (the other side to move) */
static int children(const Search *s, uint32_t m, uint32_t o, uint32_t *bits, uint32_t *cm, uint32_t *co) {
    int k = 0;
    uint32_t empty = s->full & ~(m | o);
    uint32_t jumps = m & (o >> 1) & (empty >> 2);
    while (jumps) {
        uint32_t bit = 1u << (31 - __builtin_clz(jumps));
        jumps ^= bit;
        bits[k] = bit;
        cm[k] = flip(o ^ (bit << 1), s->size);
        co[k] = flip(m ^ bit ^ (bit << 2), s->size);
        k++;
    }
    uint32_t steps = m & (empty >> 1);
    while (steps) {
        uint32_t bit = steps & -steps;
        steps ^= bit;
        bits[k] = bit;
        cm[k] = flip(o, s->size);
        co[k] = flip(m ^ bit ^ (bit << 1), s->size);
        k++;
    }
    return k;
}

/* the move leaving the opponent the smallest fraction of winning replies (the first on ties), as
 * its from-bit; 0 if the side to move has no move, STOPPED if the budget ran out */
static long fewest_winning_replies(Search *s, uint32_t m, uint32_t o) {
    uint32_t bits[32], cm[32], co[32], rbits[32], rm[32], ro[32];
    int count = children(s, m, o, bits, cm, co);
    long best = 0;
    int best_good = 1, best_of = 0; /* the score good / of; 1/0 stands for "none yet" */
    for (int i = 0; i < count; i++) {
        int replies = children(s, cm[i], co[i], rbits, rm, ro);
        int good = 0;
        for (int j = 0; j < replies; j++) {
            int r = wins(s, rm[j], ro[j]);
            if (r == STOPPED)
                return STOPPED;
            good += !r;
        }
        if (!replies)
            good = 0, replies = 1;
        /* good / replies < best_good / best_of, in integers */
        if (!best || (long)good * best_of < (long)best_good * replies) {
            best = (long)bits[i];
            best_good = good;
            best_of = replies;
        }
    }
    return best;
}

/* -- Table: a search table kept between calls --------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Search s;
    int busy;
    int bits;
} TableObject;

static int check_position(unsigned long long m, unsigned long long o, uint32_t full) {
    if ((m | o) & ~(unsigned long long)full || (m & o)) {
        PyErr_SetString(PyExc_ValueError, "m and o must be disjoint squares of the board");
        return 0;
    }
    return 1;
}

static int Table_init(TableObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"size", "bits", NULL};
    int size, bits = 22;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i|i", kwlist, &size, &bits))
        return -1;
    if (size < 3 || size > 31) {
        PyErr_SetString(PyExc_ValueError, "size must be 3..31 squares");
        return -1;
    }
    if (bits < 10 || bits > 32) {
        PyErr_SetString(PyExc_ValueError, "bits must be 10..32");
        return -1;
    }
    if (self->s.slots) {
        PyErr_SetString(PyExc_RuntimeError, "a Table is made once");
        return -1;
    }
    Search *s = &self->s;
    s->mask = (1ULL << bits) - 1;
    s->shift = 64 - bits;
    s->size = size;
    s->full = (uint32_t)((1ULL << size) - 1);
    s->replace = 0;
    s->probes = TABLE_PROBES;
    /* every page mapped now (MAP_POPULATE: in one call, zeroed), not at a search's first touch of
     * it (a page fault a new entry, 3 us: 200,000 positions of a fresh 32 MiB table took 59 ms,
     * 9 ms once mapped) */
    size_t bytes = ((size_t)1 << bits) * sizeof(uint64_t);
    void *mapped = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    s->slots = mapped == MAP_FAILED ? NULL : (uint64_t *)mapped;
    s->log_cap = ((uint64_t)1 << bits) / 4;
    s->log = malloc((size_t)s->log_cap * sizeof(uint32_t));
    if (!s->slots || !s->log) {
        if (s->slots)
            munmap(s->slots, bytes);
        free(s->log);
        s->slots = NULL;
        s->log = NULL;
        PyErr_NoMemory();
        return -1;
    }
    self->bits = bits;
    return 0;
}

static void Table_dealloc(TableObject *self) {
    if (self->s.slots)
        munmap(self->s.slots, ((size_t)1 << self->bits) * sizeof(uint64_t));
    free(self->s.log);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int enter(TableObject *self) {
    if (!self->s.slots) {
        PyErr_SetString(PyExc_RuntimeError, "the Table was not made");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Table is searching in another thread");
        return 0;
    }
    return 1;
}

/* parse (m, o, budget=0, seconds=0.0) and set up the search; 0 on a bad argument */
static int begin(TableObject *self, PyObject *args, PyObject *kwds, uint32_t *m, uint32_t *o) {
    static char *kwlist[] = {"m", "o", "budget", "seconds", NULL};
    unsigned long long mm, oo, budget = 0;
    double seconds = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KK|Kd", kwlist, &mm, &oo, &budget, &seconds))
        return 0;
    if (!enter(self) || !check_position(mm, oo, self->s.full))
        return 0;
    if (seconds < 0) {
        PyErr_SetString(PyExc_ValueError, "seconds must not be negative");
        return 0;
    }
    *m = (uint32_t)mm;
    *o = (uint32_t)oo;
    self->s.nodes = 0;
    self->s.stopped = 0;
    self->s.limit = budget;
    self->s.deadline = seconds > 0 ? now() + seconds : 0.0;
    return 1;
}

static long wins_long(Search *s, uint32_t m, uint32_t o) {
    return wins(s, m, o);
}

/* one search of the table, the GIL released: ``search``'s answer, or -2 (an exception set) */
static long run(TableObject *self, PyObject *args, PyObject *kwds, long (*search)(Search *, uint32_t, uint32_t)) {
    uint32_t m, o;
    if (!begin(self, args, kwds, &m, &o))
        return -2;
    long r;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = search(&self->s, m, o);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    return r;
}

static PyObject *Table_wins(TableObject *self, PyObject *args, PyObject *kwds) {
    long r = run(self, args, kwds, wins_long);
    if (r == -2)
        return NULL;
    if (r == STOPPED)
        Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

static PyObject *Table_first_winning_move(TableObject *self, PyObject *args, PyObject *kwds) {
    long r = run(self, args, kwds, first_winning);
    return r == -2 ? NULL : PyLong_FromLong(r);
}

static PyObject *Table_fewest_winning_replies(TableObject *self, PyObject *args, PyObject *kwds) {
    long r = run(self, args, kwds, fewest_winning_replies);
    return r == -2 ? NULL : PyLong_FromLong(r);
}

static PyObject *Table_get(TableObject *self, PyObject *args) {
    unsigned long long m, o;
    if (!PyArg_ParseTuple(args, "KK", &m, &o))
        return NULL;
    if (!enter(self) || !check_position(m, o, self->s.full))
        return NULL;
    int r = lookup(&self->s, (uint64_t)m << 32 | o);
    if (r < 0)
        Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

static PyObject *Table_clear(TableObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!enter(self))
        return NULL;
    Search *s = &self->s;
    if (s->logged <= s->log_cap) {
        for (uint64_t k = 0; k < s->logged; k++)
            s->slots[s->log[k]] = 0;
    } else {
        memset(s->slots, 0, ((size_t)1 << self->bits) * sizeof(uint64_t));
    }
    s->logged = 0;
    s->stored = 0;
    s->dropped = 0;
    Py_RETURN_NONE;
}

static PyObject *Table_stats(TableObject *self, void *which) {
    const Search *s = &self->s;
    switch ((intptr_t)which) {
    case 0: return PyLong_FromUnsignedLongLong(s->stored);
    case 1: return PyLong_FromUnsignedLongLong(s->nodes);
    case 2: return PyLong_FromUnsignedLongLong(s->dropped);
    case 3: return PyLong_FromUnsignedLongLong(s->mask + 1);
    default: return PyLong_FromLong(s->size);
    }
}

static PyMethodDef TABLE_METHODS[] = {
    {"wins", (PyCFunction)(void (*)(void))Table_wins, METH_VARARGS | METH_KEYWORDS,
     "wins(m, o, budget=0, seconds=0.0) -> True, False, or None when the budget ran out first\n\n"
     "Whether the side to move wins, searched with what the table already holds; ``budget`` caps the\n"
     "new positions searched, ``seconds`` the wall-clock time (0: no cap). Every value stored is exact."},
    {"first_winning_move", (PyCFunction)(void (*)(void))Table_first_winning_move, METH_VARARGS | METH_KEYWORDS,
     "first_winning_move(m, o, budget=0, seconds=0.0) -> the from-bit of the first winning move in the\n"
     "reference's order (jumps from the front, then steps from the back), 0 if the position is lost,\n"
     "-1 if the budget ran out first."},
    {"fewest_winning_replies", (PyCFunction)(void (*)(void))Table_fewest_winning_replies, METH_VARARGS | METH_KEYWORDS,
     "fewest_winning_replies(m, o, budget=0, seconds=0.0) -> the from-bit of the move leaving the\n"
     "opponent the smallest fraction of winning replies (the first in the reference's order on ties),\n"
     "0 if there is no move, -1 if the budget ran out first."},
    {"get", (PyCFunction)Table_get, METH_VARARGS, "get(m, o) -> the stored value (True, False) or None"},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "clear() -> empty the table"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef TABLE_GETSET[] = {
    {"stored", (getter)Table_stats, NULL, "entries in the table", (void *)0},
    {"nodes", (getter)Table_stats, NULL, "positions the last search searched", (void *)1},
    {"dropped", (getter)Table_stats, NULL, "entries not stored since the last clear (a full probe run)", (void *)2},
    {"slots", (getter)Table_stats, NULL, "the table's slots", (void *)3},
    {"size", (getter)Table_stats, NULL, "the board's squares", (void *)4},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bots.dfootball._solve.Table",
    .tp_doc = PyDoc_STR(
        "Table(size, bits=22): exact win/loss values of one board's positions, kept between searches\n"
        "(2**bits slots of 8 bytes, at most 32 probes; an entry is never replaced, so a proof once\n"
        "found stays until ``clear``; a new entry that finds its probes full is dropped and counted)."),
    .tp_basicsize = sizeof(TableObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = TABLE_METHODS,
    .tp_getset = TABLE_GETSET,
};

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
    s.replace = 1;
    s.probes = PROBES;
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
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&MODULE);
    if (!module)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(module, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
