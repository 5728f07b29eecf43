/* The compiled Othello search core: bots.othello._core.
 *
 * A line-by-line translation of the pure-Python engine (bots/othello/search.py, bitboard.py and the
 * learned evaluation of patterns.py), which stays the reference: the same move generation and
 * flips, the same pattern evaluation (the weights handed over from Python), the same negascout
 * with the same move ordering (transposition-table move, killers, history, fastest first), the
 * same Multi-ProbCut arithmetic (Python's float floor division included), and the same exact
 * endgame solver. A fixed-depth search therefore visits the same tree in the same order and
 * returns the same score and move as the Python engine (tests/bots/othello/test_compiled.py checks it).
 *
 * The midgame transposition table keeps the Python dict's behaviour exactly (an entry per
 * position; when it holds ``tt_limit`` positions, only its deepest entries, at most half of them,
 * are kept), which is what keeps the ordering identical; the endgame's bounds table is a fixed-size table that may lose entries
 * (exact values do not depend on it).
 *
 * The search runs without the GIL (the app's interface thread keeps answering keys) and takes it
 * back only to ask the ``cancelled`` callback, or a clock other than time.perf_counter or
 * time.process_time (read natively here), every few thousand nodes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define INF (1 << 30)
#define PASS 64
#define WIN 10000
#define HEURISTIC_MAX (WIN - 1000)
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define SHALLOW 5
#define EVAL_ORDER_EMPTIES 18
#define ETC_EMPTIES 8
#define FASTEST_DEPTH 4
#define MAX_PLY 128
#define CHECK_EVERY 4096
#define TT_DEPTHS 128 /* the depths a midgame table entry may hold (int8_t, none negative) */
#define MAX_FEATURES 64
#define FULL 0xFFFFFFFFFFFFFFFFULL

static inline int popcount(u64 x) { return __builtin_popcountll(x); }
static inline int lowest(u64 x) { return __builtin_ctzll(x); }

/* -- move generation and flips ---------------------------------------------------------------- */

static u64 get_moves(u64 P, u64 O)
{
    u64 mO = O & 0x7E7E7E7E7E7E7E7EULL;
    u64 moves = 0, f, pre;
#define GEN(SH, MASK)                                 \
    f = MASK & (P << SH);                             \
    f |= MASK & (f << SH);                            \
    pre = MASK & (MASK << SH);                        \
    f |= pre & (f << (2 * SH));                       \
    f |= pre & (f << (2 * SH));                       \
    moves |= f << SH;                                 \
    f = MASK & (P >> SH);                             \
    f |= MASK & (f >> SH);                            \
    pre = MASK & (MASK >> SH);                        \
    f |= pre & (f >> (2 * SH));                       \
    f |= pre & (f >> (2 * SH));                       \
    moves |= f >> SH;
    GEN(1, mO)
    GEN(7, mO)
    GEN(9, mO)
    GEN(8, O)
#undef GEN
    return moves & ~(P | O);
}

/* rays from each square: up (increasing square numbers) and down, 0 where a ray is empty */
static u64 RAY_UP[64][4], RAY_DOWN[64][4];
static u64 NEIGHBOURS[64];

static void init_rays(void)
{
    static const int dirs[8][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}};
    for (int sq = 0; sq < 64; sq++) {
        int r = sq / 8, c = sq % 8;
        for (int d = 0; d < 8; d++) {
            u64 ray = 0;
            int rr = r + dirs[d][0], cc = c + dirs[d][1];
            while (rr >= 0 && rr < 8 && cc >= 0 && cc < 8) {
                ray |= 1ULL << (rr * 8 + cc);
                rr += dirs[d][0];
                cc += dirs[d][1];
            }
            if (d < 4)
                RAY_UP[sq][d] = ray;
            else
                RAY_DOWN[sq][d - 4] = ray;
        }
        u64 n = 0;
        for (int r2 = r - 1; r2 <= r + 1; r2++)
            for (int c2 = c - 1; c2 <= c + 1; c2++)
                if (r2 >= 0 && r2 < 8 && c2 >= 0 && c2 < 8 && (r2 != r || c2 != c))
                    n |= 1ULL << (r2 * 8 + c2);
        NEIGHBOURS[sq] = n;
    }
}

/* The discs of O flipped by P playing sq (0 when the move is not legal there). */
static inline u64 flips(u64 P, u64 O, int sq)
{
    u64 f = 0, notO = ~O;
    for (int d = 0; d < 4; d++) {
        u64 ray = RAY_UP[sq][d];
        u64 b = ray & notO;
        u64 low = b & (0 - b);
        if (low & P)
            f |= ray & (low - 1);
    }
    for (int d = 0; d < 4; d++) {
        u64 ray = RAY_DOWN[sq][d];
        u64 b = ray & notO;
        if (b) {
            u64 high = 1ULL << (63 - __builtin_clzll(b));
            if (high & P)
                f |= ray & ~((high << 1) - 1);
        }
    }
    return f;
}

/* A position, the side to move first. */
typedef struct {
    u64 p, o;
} Board;

/* The position after the mover of (p, o) plays sq flipping f, the opponent to move: the one place a
 * move is made. */
static inline Board after(u64 p, u64 o, int sq, u64 f)
{
    Board c = {o ^ f, p | f | (1ULL << sq)};
    return c;
}

static inline Board play(u64 p, u64 o, int sq) { return after(p, o, sq, flips(p, o, sq)); }

static u64 perft(u64 P, u64 O, int depth, int passed)
{
    if (depth == 0)
        return 1;
    u64 moves = get_moves(P, O);
    if (!moves) {
        if (passed || !(FULL ^ (P | O)))
            return 1;
        return perft(O, P, depth - 1, 1);
    }
    if (depth == 1)
        return (u64)popcount(moves);
    u64 total = 0;
    while (moves) {
        int sq = lowest(moves);
        moves &= moves - 1;
        Board c = play(P, O, sq);
        total += perft(c.p, c.o, depth - 1, 0);
    }
    return total;
}

/* -- square values, quadrants, stability ------------------------------------------------------ */

static const int PRIOR[64] = {
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
};
static int PRIOR_DIV10[64]; /* Python's PRIOR[sq] // 10 (floor) */
static u64 PRIOR_GROUPS[64]; /* the squares of each PRIOR value, the highest value first */
static int PRIOR_GROUP_COUNT;
static u64 QUADRANT_OF[64];
static int QUADRANT_ID[64];

static const int STABILITY_ALPHA[65] = {
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
    44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
};

static unsigned char EDGE_STABLE[65536];
static int edge_ready = 0;
static u64 UNPACK_A[256];
static u64 LINE_MASKS[4][15];
static int LINE_COUNT[4];
#define COL_A 0x0101010101010101ULL
#define GATHER 0x0102040810204080ULL
#define CENTRAL 0x007E7E7E7E7E7E00ULL

static void init_tables(void)
{
    static const u64 quadrants[4] = {0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL, 0x0F0F0F0F00000000ULL,
                                     0xF0F0F0F000000000ULL};
    for (int sq = 0; sq < 64; sq++) {
        int v = PRIOR[sq];
        PRIOR_DIV10[sq] = v >= 0 ? v / 10 : -((-v + 9) / 10);
        for (int q = 0; q < 4; q++)
            if (quadrants[q] >> sq & 1) {
                QUADRANT_OF[sq] = quadrants[q];
                QUADRANT_ID[sq] = 1 << q;
                break;
            }
    }
    PRIOR_GROUP_COUNT = 0;
    for (u64 left = FULL; left;) { /* the highest value left, and every square of it */
        int top = lowest(left);
        for (u64 b = left; b; b &= b - 1)
            if (PRIOR[lowest(b)] > PRIOR[top])
                top = lowest(b);
        u64 group = 0;
        for (u64 b = left; b; b &= b - 1)
            if (PRIOR[lowest(b)] == PRIOR[top])
                group |= 1ULL << lowest(b);
        PRIOR_GROUPS[PRIOR_GROUP_COUNT++] = group;
        left &= ~group;
    }
    for (int b = 0; b < 256; b++) {
        u64 x = 0;
        for (int r = 0; r < 8; r++)
            if (b >> r & 1)
                x |= 1ULL << (8 * r);
        UNPACK_A[b] = x;
    }
    for (int r = 0; r < 8; r++)
        LINE_MASKS[0][r] = 0xFFULL << (8 * r);
    for (int c = 0; c < 8; c++)
        LINE_MASKS[1][c] = COL_A << c;
    LINE_COUNT[0] = LINE_COUNT[1] = 8;
    for (int k = 0; k < 15; k++) { /* d7: r + c == k; d9: c - r == k - 7 */
        u64 d7 = 0, d9 = 0;
        for (int r = 0; r < 8; r++) {
            if (k - r >= 0 && k - r < 8)
                d7 |= 1ULL << (r * 8 + k - r);
            int c = r + k - 7;
            if (c >= 0 && c < 8)
                d9 |= 1ULL << (r * 8 + c);
        }
        LINE_MASKS[2][k] = d7;
        LINE_MASKS[3][k] = d9;
    }
    LINE_COUNT[2] = LINE_COUNT[3] = 15;
}

/* A subset of the discs of P that can never flip (bots.othello.search.stable_discs). */
static u64 stable_discs(u64 p, u64 o)
{
    u64 filled = p | o, full[4];
    for (int fam = 0; fam < 4; fam++) {
        u64 fl = 0;
        for (int i = 0; i < LINE_COUNT[fam]; i++) {
            u64 line = LINE_MASKS[fam][i];
            if ((filled & line) == line)
                fl |= line;
        }
        full[fam] = fl;
    }
    u64 fh = full[0], fv = full[1], fd7 = full[2], fd9 = full[3];
    u64 st = (u64)EDGE_STABLE[(p & 0xFF) << 8 | (o & 0xFF)]
             | (u64)EDGE_STABLE[(p >> 56) << 8 | (o >> 56)] << 56
             | UNPACK_A[EDGE_STABLE[(((p & COL_A) * GATHER) >> 56 & 0xFF) << 8 | (((o & COL_A) * GATHER) >> 56 & 0xFF)]]
             | UNPACK_A[EDGE_STABLE[(((p >> 7 & COL_A) * GATHER) >> 56 & 0xFF) << 8
                                    | (((o >> 7 & COL_A) * GATHER) >> 56 & 0xFF)]] << 7;
    u64 inner = p & CENTRAL;
    st |= inner & fh & fv & fd7 & fd9;
    inner &= ~st;
    while (inner) {
        u64 nw = (inner & (fh | st >> 1 | st << 1) & (fv | st >> 8 | st << 8)
                  & (fd7 | st >> 7 | st << 7) & (fd9 | st >> 9 | st << 9));
        if (!nw)
            break;
        st |= nw;
        inner ^= nw;
    }
    return st;
}

static inline int utility(u64 p, u64 o)
{
    int diff = popcount(p) - popcount(o);
    if (diff > 0)
        return WIN + 100 * diff;
    if (diff < 0)
        return -WIN + 100 * diff;
    return 0;
}

/* Python's float floor division (Objects/floatobject.c, float_floor_div), to the last bit. */
static double py_floordiv(double vx, double wx)
{
    double mod = fmod(vx, wx);
    double div = (vx - mod) / wx;
    if (mod) {
        if ((wx < 0) != (mod < 0)) {
            mod += wx;
            div -= 1.0;
        }
    }
    double floordiv;
    if (div) {
        floordiv = floor(div);
        if (div - floordiv > 0.5)
            floordiv += 1.0;
    } else {
        floordiv = copysign(0.0, vx / wx);
    }
    return floordiv;
}

/* -- the engine ------------------------------------------------------------------------------- */

typedef struct {
    u64 p, o;
    int32_t value;
    int8_t depth, flag, move;
    uint32_t gen;
} TTEntry;

typedef struct {
    u64 p, o;
    int8_t lo, hi, move;
    uint8_t empties;
    uint32_t gen;
} ETEntry;

typedef struct {
    int shallow;
    double a, b;
    double sigma[65];
} ProbCut;

enum { CLOCK_PYTHON, CLOCK_MONO, CLOCK_CPU };

/* A node's pattern indices, as its mover sees it (mine) and as the other side does (theirs). */
typedef struct {
    int32_t mine[MAX_FEATURES], theirs[MAX_FEATURES];
} Features;

typedef struct {
    PyObject_HEAD
    /* evaluation */
    int16_t *weights; /* STAGES x stage_size */
    int stages, stage_size;
    int nfeat;
    int feat_offset[MAX_FEATURES];
    int sq_count[64];
    unsigned char sq_feat[64][16];
    int32_t sq_pow[64][16];
    int mob_off, omob_off, par_off;
    /* probcut */
    ProbCut *probcut[65]; /* by depth, NULL when none */
    double probcut_t;
    /* midgame table: a dict's behaviour (cleared when full) */
    TTEntry *tt, *tt_spare; /* tt_spare: a table of tt's size that thinning moves into (or NULL) */
    u64 tt_mask;
    long tt_limit, tt_count;
    uint32_t tt_gen;
    /* endgame bounds table */
    ETEntry *et;
    u64 et_mask;
    uint32_t et_gen;
    /* ordering */
    int killers[MAX_PLY][2];
    Features feat[MAX_PLY + 2]; /* by ply: the path's pattern indices (set_features, child_features) */
    long long history[65];
    /* counters and time */
    long long nodes, check_at;
    long long rehashed_at; /* nodes when the midgame table was last thinned (-1: never) */
    double thin_seconds;   /* the last thinning's time on the search's clock (an estimate before one) */
    double deadline, next_python_check;
    int clock_kind;
    PyObject *clock, *cancelled; /* borrowed during a call */
    PyThreadState *tstate;
    jmp_buf stop;
    int failed;   /* a callback raised: its exception is pending */
    int busy;
    int partial_best, partial_move, has_partial;
} Core;

static PyObject *Timeout = NULL;
static PyObject *PerfCounter = NULL, *ProcessTime = NULL;

static double now_native(int kind)
{
    struct timespec ts;
    clock_gettime(kind == CLOCK_CPU ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The deadline and the cancel callback, every CHECK_EVERY nodes; leaves by longjmp. */
static void check(Core *e)
{
    e->check_at = e->nodes + CHECK_EVERY;
    int stop = 0;
    double t = 0;
    if (e->clock_kind != CLOCK_PYTHON) {
        t = now_native(e->clock_kind);
        if (t > e->deadline)
            stop = 1;
    }
    if (!stop && (e->clock_kind == CLOCK_PYTHON || t >= e->next_python_check)) {
        e->next_python_check = t + 0.01;
        PyEval_RestoreThread(e->tstate);
        if (e->clock_kind == CLOCK_PYTHON) {
            PyObject *r = PyObject_CallNoArgs(e->clock);
            if (r == NULL) {
                e->failed = 1;
                stop = 1;
            } else {
                double v = PyFloat_AsDouble(r);
                Py_DECREF(r);
                if (v == -1.0 && PyErr_Occurred()) {
                    e->failed = 1;
                    stop = 1;
                } else if (v > e->deadline) {
                    stop = 1;
                }
            }
        }
        if (!stop && e->cancelled != Py_None) {
            PyObject *r = PyObject_CallNoArgs(e->cancelled);
            if (r == NULL) {
                e->failed = 1;
                stop = 1;
            } else {
                int yes = PyObject_IsTrue(r);
                Py_DECREF(r);
                if (yes < 0)
                    e->failed = 1;
                if (yes != 0)
                    stop = 1;
            }
        }
        e->tstate = PyEval_SaveThread();
    }
    if (stop)
        longjmp(e->stop, 1);
}

/* idx[f] += digit * the square's power in feature f, for every square of bits and every feature
 * it is in: a pattern index's digits are 0 empty, 1 the mover's disc, 2 the other's. */
static inline void add_squares(const Core *e, int32_t *idx, u64 bits, int digit)
{
    while (bits) {
        int sq = lowest(bits);
        bits &= bits - 1;
        for (int k = 0; k < e->sq_count[sq]; k++)
            idx[e->sq_feat[sq][k]] += digit * e->sq_pow[sq][k];
    }
}

/* The learned evaluation of (p, o) for the mover, its pattern indices given (patterns.py's
 * evaluate, whose indices it computes from the discs: evaluate below). */
static int evaluate_indexed(const Core *e, u64 p, u64 o, const int32_t *idx)
{
    u64 mp = get_moves(p, o), mo = get_moves(o, p);
    if (!mp && !mo)
        return utility(p, o);
    int n = popcount(p | o);
    int stage = (n - 4) / 4;
    if (stage < 0)
        stage = 0;
    if (stage > e->stages - 1)
        stage = e->stages - 1;
    const int16_t *w = e->weights + (size_t)stage * e->stage_size;
    int v = w[e->mob_off + popcount(mp)] + w[e->omob_off + popcount(mo)] + w[e->par_off + (n & 1)];
    for (int f = 0; f < e->nfeat; f++)
        v += w[idx[f]];
    if (v > HEURISTIC_MAX)
        return HEURISTIC_MAX;
    if (v < -HEURISTIC_MAX)
        return -HEURISTIC_MAX;
    return v;
}

/* Into idx, the pattern indices of (p, o) as p's side sees it, from every disc. */
static void indices_of(const Core *e, u64 p, u64 o, int32_t *idx)
{
    memcpy(idx, e->feat_offset, sizeof(int32_t) * e->nfeat);
    add_squares(e, idx, p, 1);
    add_squares(e, idx, o, 2);
}

static int evaluate(const Core *e, u64 p, u64 o)
{
    int32_t idx[MAX_FEATURES];
    indices_of(e, p, o, idx);
    return evaluate_indexed(e, p, o, idx);
}

/* -- the pattern indices along the search path ------------------------------------------------- */

/* The midgame search keeps each node's pattern indices (e->feat[ply]) and makes a child's from its
 * parent's and the squares the move changed, instead of from all the discs at every evaluation:
 * mine, the indices as the mover sees the position (what evaluate reads); theirs, as the other
 * side sees it (the digits 1 and 2 swapped), which become the child's mine. The values are
 * evaluate's, to the unit (the parity tests compare whole trees with the Python engine's). */
static void set_features(Core *e, int ply, u64 p, u64 o)
{
    indices_of(e, p, o, e->feat[ply].mine);
    indices_of(e, o, p, e->feat[ply].theirs);
}

/* Into idx, the mover's indices after the parent at ply plays sq flipping flipped (the child's
 * mine): the parent's theirs with the new disc and the flipped ones now the other side's (2). */
static inline void child_mine(const Core *e, int ply, int sq, u64 flipped, int32_t *idx)
{
    memcpy(idx, e->feat[ply].theirs, sizeof(int32_t) * e->nfeat);
    add_squares(e, idx, 1ULL << sq, 2);
    add_squares(e, idx, flipped, 1); /* 1 (the child's mover's) -> 2 */
}

/* e->feat[ply + 1]: the node at ply after sq flipping flipped, or after a pass (sq PASS). */
static void child_features(Core *e, int ply, int sq, u64 flipped)
{
    Features *child = &e->feat[ply + 1];
    const Features *parent = &e->feat[ply];
    if (sq == PASS) {
        memcpy(child->mine, parent->theirs, sizeof(int32_t) * e->nfeat);
        memcpy(child->theirs, parent->mine, sizeof(int32_t) * e->nfeat);
        return;
    }
    child_mine(e, ply, sq, flipped, child->mine);
    memcpy(child->theirs, parent->mine, sizeof(int32_t) * e->nfeat);
    add_squares(e, child->theirs, 1ULL << sq, 1);
    add_squares(e, child->theirs, flipped, -1); /* 2 (the parent's opponent's) -> 1 */
}

static inline u64 hash_pair(u64 p, u64 o)
{
    u64 h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 32;
    return h;
}

static TTEntry *tt_find(Core *e, u64 p, u64 o)
{
    u64 i = hash_pair(p, o) & e->tt_mask;
    for (;;) {
        TTEntry *t = &e->tt[i];
        if (t->gen != e->tt_gen)
            return NULL;
        if (t->p == p && t->o == o)
            return t;
        i = (i + 1) & e->tt_mask;
    }
}

/* The next generation: every entry of the tables (tt and tt_spare) is then empty. */
static void tt_next_gen(Core *e)
{
    e->tt_gen++;
    if (e->tt_gen == 0) { /* wrapped: really clear */
        memset(e->tt, 0, sizeof(TTEntry) * (e->tt_mask + 1));
        if (e->tt_spare != NULL)
            memset(e->tt_spare, 0, sizeof(TTEntry) * (e->tt_mask + 1));
        e->tt_gen = 1;
    }
}

static void tt_clear(Core *e)
{
    tt_next_gen(e);
    e->tt_count = 0;
}

/* Thinning: move this generation's entries of depth ``from`` or more into the spare table, the rest
 * dropped, and keep the old table as the next spare; 0 when there is no memory for the spare
 * (made here the first time, unless ``prepare_spare`` made it ahead), the table unchanged.
 *
 * The entries move under the next generation, so the spare's old ones read as empty and nothing
 * is allocated, zeroed or unmapped after the first time (a fresh 64 MB table's page faults and the
 * old one's unmapping took tens of milliseconds inside a timed search). The table keeps its size
 * from the start (make_tables). A search that thins looks at the clock at its next node
 * (check_at). */
static int tt_thin(Core *e, int from)
{
    u64 cap = e->tt_mask + 1;
    TTEntry *table = e->tt_spare != NULL ? e->tt_spare : calloc(cap, sizeof(TTEntry));
    if (table == NULL)
        return 0;
    uint32_t old = e->tt_gen;
    TTEntry *from_table = e->tt;
    e->tt = table;
    e->tt_spare = from_table;
    tt_next_gen(e); /* clears both tables when the generation wraps */
    if (old == UINT32_MAX) { /* wrapped: both tables were cleared */
        e->tt_count = 0;
        return 1;
    }
    long count = 0;
    for (u64 i = 0; i < cap; i++) {
        const TTEntry *t = &from_table[i];
        if (t->gen != old || t->depth < from)
            continue;
        u64 j = hash_pair(t->p, t->o) & (cap - 1);
        while (table[j].gen == e->tt_gen)
            j = (j + 1) & (cap - 1);
        table[j] = *t;
        table[j].gen = e->tt_gen;
        count++;
    }
    e->tt_count = count;
    return 1;
}

/* The depth from which a full table's entries are kept: the lowest that keeps at most half of
 * tt_limit (the Python engine's ``_thinned`` chooses the same). */
static int tt_keep_from(const Core *e)
{
    long count[TT_DEPTHS] = {0}, kept = 0;
    for (u64 i = 0; i <= e->tt_mask; i++)
        if (e->tt[i].gen == e->tt_gen)
            count[e->tt[i].depth < 0 ? 0 : e->tt[i].depth]++;
    int from = TT_DEPTHS;
    while (from > 0 && kept + count[from - 1] <= e->tt_limit / 2)
        kept += count[--from];
    return from;
}

/* A thinning's seconds before one is timed: 20 ns a slot (about 40 ms for the 2 M slots of the
 * bots' table; 36-43 ms measured). */
static double thin_estimate(const Core *e) { return (double)(e->tt_mask + 1) * 2e-8; }

static void tt_store(Core *e, u64 p, u64 o, int depth, int flag, int value, int move)
{
    /* Full: keep the deepest entries (at most half of tt_limit), so that the moves of the upper
     * tree (the iteration under way) keep ordering the search; the table, twice tt_limit from the
     * start (make_tables), is then never over half full. Without memory for the spare table, the
     * table is cleared: the one way the tree can differ from the Python engine's. */
    if (e->tt_count >= e->tt_limit) {
        /* A thinning is two passes over the table with no node visited (36-43 ms for the 1 s
         * level's table): one started nearer the deadline than that would end past it (moves of
         * 0.881-0.891 s of CPU against a 0.88 s budget at 1 s). The search stops instead: it was
         * about to. Python clocks (called with the GIL) keep the old way; untimed searches (an
         * infinite deadline, the parity tests') always thin. */
        double before = 0;
        if (e->clock_kind != CLOCK_PYTHON) {
            before = now_native(e->clock_kind);
            if (before + e->thin_seconds > e->deadline)
                longjmp(e->stop, 1);
        }
        if (!tt_thin(e, tt_keep_from(e)))
            tt_clear(e);
        if (e->clock_kind != CLOCK_PYTHON) {
            /* at most four times the estimate: a thinning the scheduler interrupted (a wall clock
             * on a busy machine) must not make every later search stop far from its deadline */
            double took = now_native(e->clock_kind) - before, most = 4 * thin_estimate(e);
            e->thin_seconds = took < most ? took : most;
        }
        e->check_at = e->rehashed_at = e->nodes; /* the deadline may have passed meanwhile: look at the next node */
    }
    u64 i = hash_pair(p, o) & e->tt_mask;
    for (;;) {
        TTEntry *t = &e->tt[i];
        if (t->gen != e->tt_gen) {
            t->p = p;
            t->o = o;
            t->gen = e->tt_gen;
            e->tt_count++;
            break;
        }
        if (t->p == p && t->o == o)
            break;
        i = (i + 1) & e->tt_mask;
    }
    TTEntry *t = &e->tt[i];
    t->depth = (int8_t)depth;
    t->flag = (int8_t)flag;
    t->value = value;
    t->move = (int8_t)move;
}

static ETEntry *et_find(Core *e, u64 p, u64 o)
{
    u64 i = hash_pair(p, o) & e->et_mask;
    ETEntry *a = &e->et[i], *b = &e->et[i ^ 1];
    if (a->gen == e->et_gen && a->p == p && a->o == o)
        return a;
    if (b->gen == e->et_gen && b->p == p && b->o == o)
        return b;
    return NULL;
}

static void et_store(Core *e, u64 p, u64 o, int lo, int hi, int move, int empties)
{
    u64 i = hash_pair(p, o) & e->et_mask;
    ETEntry *a = &e->et[i], *b = &e->et[i ^ 1], *t;
    if (a->gen == e->et_gen && a->p == p && a->o == o)
        t = a;
    else if (b->gen == e->et_gen && b->p == p && b->o == o)
        t = b;
    else if (a->gen != e->et_gen)
        t = a;
    else if (b->gen != e->et_gen)
        t = b;
    else
        t = a->empties <= b->empties ? a : b; /* keep the bigger subtree */
    t->p = p;
    t->o = o;
    t->gen = e->et_gen;
    t->lo = (int8_t)lo;
    t->hi = (int8_t)hi;
    t->move = (int8_t)move;
    t->empties = (uint8_t)empties;
}

/* Sort squares by (key, square) ascending: insertion sort, the lists are short. The one sort of
 * the core: moves, empty squares and children are all ordered by it. */
static void sort_keyed(long long *keys, int *sqs, int n)
{
    for (int i = 1; i < n; i++) {
        long long k = keys[i];
        int s = sqs[i];
        int j = i - 1;
        while (j >= 0 && (keys[j] > k || (keys[j] == k && sqs[j] > s))) {
            keys[j + 1] = keys[j];
            sqs[j + 1] = sqs[j];
            j--;
        }
        keys[j + 1] = k;
        sqs[j + 1] = s;
    }
}

/* -- a node's children ------------------------------------------------------------------------ */

/* A node's moves in search order, with the child positions made so far (by square: made's bit
 * set) and, in the endgame, the children's own moves where ordering computed them (known's bit). */
typedef struct {
    int n;
    int sq[64];
    u64 made, known;
    Board child[64];
    u64 replies[64];
} Children;

/* How the children of a node are searched: by negamax (their depth and ply) or solved exactly
 * (their empties). */
typedef struct {
    int endgame, depth, ply, empties;
} Step;

/* A node's outcome over the children searched so far: the best value, its move, the raised alpha. */
typedef struct {
    int best, move, alpha;
} Best;

static int negamax(Core *e, u64 p, u64 o, int depth, int alpha, int beta, int ply, int passed);
static int solve(Core *e, u64 p, u64 o, int alpha, int beta, int empties, int passed, u64 moves, int known);

static inline Board child_of(Children *cs, u64 p, u64 o, int sq)
{
    if (!(cs->made >> sq & 1)) {
        cs->child[sq] = play(p, o, sq);
        cs->made |= 1ULL << sq;
    }
    return cs->child[sq];
}

/* The value of the child reached by sq, for the mover, searched with the window (alpha, beta). */
static int child_value(Core *e, Children *cs, u64 p, u64 o, int sq, int alpha, int beta, const Step *s)
{
    Board c = child_of(cs, p, o, sq);
    if (s->endgame) {
        int known = (int)(cs->known >> sq & 1);
        return -solve(e, c.p, c.o, -beta, -alpha, s->empties, 0, known ? cs->replies[sq] : 0, known);
    }
    child_features(e, s->ply - 1, sq, c.o ^ p ^ (1ULL << sq));
    return -negamax(e, c.p, c.o, s->depth, -beta, -alpha, s->ply, 0);
}

/* The child step of the principal-variation search, the same at the root, in the midgame and in
 * the endgame: the first child searched with the whole window, every other with a null window,
 * searched again with the rest of the window when it falls inside. */
static int child_step(Core *e, Children *cs, u64 p, u64 o, int sq, int first, int alpha, int beta, const Step *s)
{
    if (first)
        return child_value(e, cs, p, o, sq, alpha, beta, s);
    int value = child_value(e, cs, p, o, sq, alpha, alpha + 1, s);
    if (alpha < value && value < beta)
        value = child_value(e, cs, p, o, sq, value, beta, s);
    return value;
}

/* The children from..to-1 in order, raising r (the first one of the node gets the whole window).
 * Stops at a cut-off (alpha >= beta) and returns 1, unless scores is given: the root, where every
 * move is searched, its score kept and the best so far published as the partial result. */
static int search_children(Core *e, u64 p, u64 o, Children *cs, int from, int to, int beta, const Step *s, Best *r,
                           int *scores)
{
    for (int i = from; i < to; i++) {
        int sq = cs->sq[i];
        int value = child_step(e, cs, p, o, sq, r->best == -INF, r->alpha, beta, s);
        if (value > r->best) {
            r->best = value;
            r->move = sq;
            if (value > r->alpha) {
                r->alpha = value;
                if (value >= beta && scores == NULL)
                    return 1;
            }
        }
        if (scores != NULL) {
            scores[i] = value;
            e->partial_best = r->best;
            e->partial_move = r->move;
            e->has_partial = 1;
        }
    }
    return 0;
}

/* -- the midgame ------------------------------------------------------------------------------ */

/* Engine._ordered: the moves in search order, into cs (the children made where ordering made them). */
static void ordered(Core *e, u64 p, u64 o, u64 moves, int depth, int ply, int tt_move, Children *cs)
{
    int n = 0;
    cs->made = cs->known = 0;
    while (moves) {
        cs->sq[n++] = lowest(moves);
        moves &= moves - 1;
    }
    cs->n = n;
    if (n == 1)
        return;
    long long keys[64];
    int k0 = e->killers[ply][0], k1 = e->killers[ply][1];
    for (int i = 0; i < n; i++) {
        int sq = cs->sq[i], killer = sq == k0 || sq == k1;
        if (depth < FASTEST_DEPTH) {
            keys[i] = -(e->history[sq] + PRIOR[sq] * 8 + (sq == tt_move ? 1 << 20 : 0) + (killer ? 1 << 16 : 0));
        } else if (sq == tt_move) {
            keys[i] = -1000000000LL;
        } else { /* fastest first: fewest opponent replies, corners and killers as tie-breaks */
            Board c = child_of(cs, p, o, sq);
            keys[i] = (long long)popcount(get_moves(c.p, c.o)) * 100 - PRIOR[sq] - (killer ? 50 : 0);
        }
    }
    sort_keyed(keys, cs->sq, n);
}

/* Engine._frontier's order: best squares first (PRIOR descending, then by square: the order its
 * sort gives, read group by group without a sort), the killer first of all. */
static int frontier_order(Core *e, u64 moves, int ply, int *sqs)
{
    int n = 0;
    for (int g = 0; g < PRIOR_GROUP_COUNT; g++)
        for (u64 b = moves & PRIOR_GROUPS[g]; b; b &= b - 1)
            sqs[n++] = lowest(b);
    if (n > 1) {
        int k0 = e->killers[ply][0];
        for (int i = 1; i < n; i++)
            if (sqs[i] == k0) {
                memmove(sqs + 1, sqs, sizeof(int) * i);
                sqs[0] = k0;
                break;
            }
    }
    return n;
}

static inline void add_killer(Core *e, int ply, int sq)
{
    int *k = e->killers[ply];
    if (k[0] != sq) {
        k[1] = k[0];
        k[0] = sq;
    }
}

/* Engine._frontier: a node one ply from the leaves, its children evaluated in order until one
 * reaches beta (fail-soft; the children count as nodes). */
static int frontier(Core *e, u64 p, u64 o, u64 moves, int beta, int ply)
{
    int sqs[64];
    int n = frontier_order(e, moves, ply, sqs);
    int best = -INF, count = 0;
    int32_t idx[MAX_FEATURES];
    for (int i = 0; i < n; i++) {
        u64 f = flips(p, o, sqs[i]);
        Board c = after(p, o, sqs[i], f);
        child_mine(e, ply, sqs[i], f, idx);
        int value = -evaluate_indexed(e, c.p, c.o, idx);
        count++;
        if (value > best) {
            best = value;
            if (value >= beta) {
                add_killer(e, ply, sqs[i]);
                e->history[sqs[i]] += 1;
                break;
            }
        }
    }
    e->nodes += count;
    return best;
}

/* The midgame table's entry for (p, o): its move into *tt_move; 1 with *value when it decides the
 * node at this depth, else the window narrowed by its bound. */
static int tt_probe(Core *e, u64 p, u64 o, int depth, int *alpha, int *beta, int *tt_move, int *value)
{
    TTEntry *entry = tt_find(e, p, o);
    if (entry == NULL)
        return 0;
    *tt_move = entry->move;
    if (entry->depth < depth)
        return 0;
    int v = *value = entry->value;
    if (entry->flag == EXACT)
        return 1;
    if (entry->flag == LOWER) {
        if (v >= *beta)
            return 1;
        if (v > *alpha)
            *alpha = v;
    } else if (v <= *alpha) {
        return 1;
    } else if (v < *beta) {
        *beta = v;
    }
    return 0;
}

/* Multi-ProbCut at a null-window node: a shallow null-window search predicts the deep one (deep ~
 * a * shallow + b, residual sigma by disc count); 1 with *value (beta or alpha) when it is
 * confident the node fails high or low. The bounds are Python's float floor divisions. */
static int probcut(Core *e, u64 p, u64 o, int depth, int alpha, int beta, int ply, int passed, int *value)
{
    if (beta - alpha != 1 || alpha <= -HEURISTIC_MAX || beta >= HEURISTIC_MAX || depth > 64 || !e->probcut[depth])
        return 0;
    const ProbCut *cut = e->probcut[depth];
    double margin = e->probcut_t * cut->sigma[popcount(p | o)];
    double x = (double)beta + margin;
    x = x - cut->b;
    int bound = (int)(-py_floordiv(-x, cut->a)); /* ceil: the shallow value that predicts >= beta */
    if (bound < HEURISTIC_MAX && negamax(e, p, o, cut->shallow, bound - 1, bound, ply, passed) >= bound) {
        *value = beta;
        return 1;
    }
    x = (double)alpha - margin;
    x = x - cut->b;
    bound = (int)py_floordiv(x, cut->a); /* floor: the shallow value that predicts <= alpha */
    if (bound > -HEURISTIC_MAX && negamax(e, p, o, cut->shallow, bound, bound + 1, ply, passed) <= bound) {
        *value = alpha;
        return 1;
    }
    return 0;
}

static int negamax(Core *e, u64 p, u64 o, int depth, int alpha, int beta, int ply, int passed)
{
    e->nodes++;
    if (e->nodes >= e->check_at)
        check(e);
    if (depth <= 0)
        return evaluate_indexed(e, p, o, e->feat[ply].mine);
    u64 moves = get_moves(p, o);
    if (!moves) {
        if (passed || !get_moves(o, p))
            return utility(p, o);
        child_features(e, ply, PASS, 0);
        return -negamax(e, o, p, depth, -beta, -alpha, ply + 1, 1);
    }
    if (depth == 1)
        return frontier(e, p, o, moves, beta, ply);
    int tt_move = -1, value;
    if (tt_probe(e, p, o, depth, &alpha, &beta, &tt_move, &value))
        return value;
    if (probcut(e, p, o, depth, alpha, beta, ply, passed, &value))
        return value;
    Children cs;
    ordered(e, p, o, moves, depth, ply, tt_move, &cs);
    Step step = {0, depth - 1, ply + 1, 0};
    Best r = {-INF, -1, alpha};
    if (search_children(e, p, o, &cs, 0, cs.n, beta, &step, &r, NULL)) {
        add_killer(e, ply, r.move);
        e->history[r.move] += (long long)depth * depth;
    }
    int flag = (alpha < r.best && r.best < beta) ? EXACT : (r.best >= beta ? LOWER : UPPER);
    tt_store(e, p, o, depth, flag, r.best, r.move);
    return r.best;
}

/* -- the exact endgame ------------------------------------------------------------------------ */

static int last_one(u64 p, u64 o, int sq)
{
    u64 f = flips(p, o, sq);
    if (f)
        return 2 * (popcount(p) + popcount(f)) - 62;
    f = flips(o, p, sq);
    if (f)
        return 62 - 2 * (popcount(o) + popcount(f));
    return popcount(p) - popcount(o);
}

/* After a move to c (the opponent to play) with one empty square sq left: the final margin of the
 * side that moved (the opponent plays sq if it can, else the mover, else nobody). */
static inline int last_reply(Board c, int sq)
{
    u64 g = (NEIGHBOURS[sq] & c.o) ? flips(c.p, c.o, sq) : 0;
    if (g)
        return 62 - 2 * (popcount(c.p) + popcount(g));
    u64 h = (NEIGHBOURS[sq] & c.p) ? flips(c.o, c.p, sq) : 0;
    if (h)
        return 2 * (popcount(c.o) + popcount(h)) - 62;
    return popcount(c.o) - popcount(c.p);
}

static int last_two(u64 p, u64 o, int alpha, int beta, int a, int b, int passed)
{
    int best = -INF;
    u64 f;
    if ((NEIGHBOURS[a] & o) && (f = flips(p, o, a))) {
        best = last_reply(after(p, o, a, f), b);
        if (best >= beta)
            return best;
    }
    if ((NEIGHBOURS[b] & o) && (f = flips(p, o, b))) {
        int value = last_reply(after(p, o, b, f), a);
        if (value > best)
            best = value;
    }
    if (best == -INF) {
        if (passed)
            return popcount(p) - popcount(o);
        return -last_two(o, p, -beta, -alpha, a, b, 1);
    }
    return best;
}

/* An upper bound of the mover's final margin by the opponent's stable discs, INF where this
 * alpha makes it not worth computing. */
static inline int stability_bound(u64 p, u64 o, int alpha, int empties)
{
    if (alpha < STABILITY_ALPHA[empties] || 64 - 2 * popcount(o) > alpha)
        return INF;
    return 64 - 2 * popcount(stable_discs(o, p));
}

/* The order of the last SHALLOW empties (ems, by square value): squares of odd quadrants (parity's
 * bits) first, into idx (indices in ems). */
static void shallow_order(const int *ems, int n, int parity, int *idx)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (QUADRANT_ID[ems[i]] & parity)
            idx[k++] = i;
    for (int i = 0; i < n; i++)
        if (!(QUADRANT_ID[ems[i]] & parity))
            idx[k++] = i;
}

static int shallow(u64 p, u64 o, int alpha, int beta, const int *ems, int n, int parity, int passed)
{
    if (n >= 4) {
        int bound = stability_bound(p, o, alpha, n);
        if (bound <= alpha)
            return bound;
    }
    int best = -INF, idx[SHALLOW + 1], rest[SHALLOW + 1];
    shallow_order(ems, n, parity, idx);
    for (int t = 0; t < n; t++) {
        int i = idx[t], sq = ems[i];
        u64 f;
        if (!(NEIGHBOURS[sq] & o) || !(f = flips(p, o, sq)))
            continue;
        int m = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                rest[m++] = ems[j];
        Board c = after(p, o, sq, f);
        int value = n == 3 ? -last_two(c.p, c.o, -beta, -alpha, rest[0], rest[1], 0)
                           : -shallow(c.p, c.o, -beta, -alpha, rest, m, parity ^ QUADRANT_ID[sq], 0);
        if (value > best) {
            best = value;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta)
                    return best;
            }
        }
    }
    if (best == -INF) {
        if (passed)
            return popcount(p) - popcount(o);
        return -shallow(o, p, -beta, -alpha, ems, n, parity, 1);
    }
    return best;
}

static int shallow_entry(u64 p, u64 o, int alpha, int beta, int passed)
{
    u64 m = FULL ^ (p | o);
    int ems[64], n = 0, parity = 0;
    long long keys[64];
    while (m) {
        int sq = lowest(m);
        m &= m - 1;
        keys[n] = -PRIOR[sq];
        ems[n++] = sq;
        parity ^= QUADRANT_ID[sq];
    }
    if (n == 0)
        return popcount(p) - popcount(o);
    if (n == 1)
        return last_one(p, o, ems[0]);
    if (n == 2)
        return last_two(p, o, alpha, beta, ems[0], ems[1], passed);
    sort_keyed(keys, ems, n);
    return shallow(p, o, alpha, beta, ems, n, parity, passed);
}

/* The endgame table's bounds on (p, o) into *lo, *hi and its move into *tt_move; 1 with *value
 * when they decide the node, else the window narrowed to them. */
static int et_probe(Core *e, u64 p, u64 o, int *alpha, int *beta, int *lo, int *hi, int *tt_move, int *value)
{
    ETEntry *entry = et_find(e, p, o);
    if (entry == NULL)
        return 0;
    *lo = entry->lo;
    *hi = entry->hi;
    *tt_move = entry->move;
    if (*lo >= *beta || *hi <= *alpha) {
        *value = *lo >= *beta ? *lo : *hi;
        return 1;
    }
    if (*lo > *alpha)
        *alpha = *lo;
    if (*hi < *beta)
        *beta = *hi;
    if (*alpha >= *beta) {
        *value = *alpha;
        return 1;
    }
    return 0;
}

/* The endgame node's children, every one made, the table's move first; from ETC_EMPTIES empties
 * a child whose stored upper bound already cuts ends the node (enhanced transposition cut-off):
 * 1 with *value, the bound stored. */
static int endgame_children(Core *e, u64 p, u64 o, u64 moves, int beta, int empties, int lo, int hi, int tt_move,
                            Children *cs, int *value)
{
    cs->made = moves;
    cs->known = 0;
    cs->n = 0;
    if (tt_move >= 0 && (moves >> tt_move & 1))
        cs->sq[cs->n++] = tt_move;
    for (u64 m = moves; m; m &= m - 1) {
        int sq = lowest(m);
        Board c = cs->child[sq] = play(p, o, sq);
        ETEntry *child = empties >= ETC_EMPTIES ? et_find(e, c.p, c.o) : NULL;
        if (child != NULL && -child->hi >= beta) {
            *value = -child->hi;
            et_store(e, p, o, lo > *value ? lo : *value, hi, sq, empties);
            return 1;
        }
        if (sq != tt_move)
            cs->sq[cs->n++] = sq;
    }
    return 0;
}

/* The endgame's child ordering of cs->sq[from..]: by the opponent's replies and the evaluation
 * from EVAL_ORDER_EMPTIES empties, by replies and the potential mobility further down, then by
 * the square's value with odd quadrants first. */
static void endgame_order(Core *e, u64 p, u64 o, Children *cs, int from, int empties)
{
    long long keys[64];
    int *sqs = cs->sq + from, n = cs->n - from;
    u64 empty = FULL ^ (p | o);
    for (int i = 0; i < n; i++) {
        int sq = sqs[i];
        Board c = cs->child[sq];
        if (empties <= SHALLOW + 1) {
            keys[i] = -PRIOR[sq] - 1000 * (popcount(QUADRANT_OF[sq] & empty) & 1);
            continue;
        }
        u64 replies = get_moves(c.p, c.o), mine = c.o; /* mine: the mover's discs after the move */
        cs->replies[sq] = replies;
        cs->known |= 1ULL << sq;
        if (empties >= EVAL_ORDER_EMPTIES) {
            keys[i] = (long long)popcount(replies) * 200 + evaluate(e, c.p, c.o);
        } else {
            u64 near = ((((mine << 1 | mine << 9 | mine >> 7) & 0xFEFEFEFEFEFEFEFEULL)
                         | ((mine >> 1 | mine >> 9 | mine << 7) & 0x7F7F7F7F7F7F7F7FULL) | mine << 8 | mine >> 8)
                        & ~(c.p | c.o));
            keys[i] = (long long)popcount(replies) * 16 + popcount(near) * 8 - PRIOR_DIV10[sq];
        }
    }
    sort_keyed(keys, sqs, n);
}

/* The endgame table's bounds after the node's search over the window (a0, b0) gave best. */
static void store_bounds(Core *e, u64 p, u64 o, const Best *r, int a0, int b0, int lo, int hi, int empties)
{
    if (r->best <= a0) {
        if (r->best < hi)
            hi = r->best;
    } else if (r->best >= b0) {
        if (r->best > lo)
            lo = r->best;
    } else {
        lo = hi = r->best;
    }
    et_store(e, p, o, lo, hi, r->move, empties);
}

static int solve(Core *e, u64 p, u64 o, int alpha, int beta, int empties, int passed, u64 moves, int known)
{
    e->nodes++;
    if (empties <= SHALLOW)
        return shallow_entry(p, o, alpha, beta, passed);
    if (e->nodes >= e->check_at)
        check(e);
    if (!known)
        moves = get_moves(p, o);
    if (!moves) {
        if (passed)
            return popcount(p) - popcount(o);
        return -solve(e, o, p, -beta, -alpha, empties, 1, 0, 0);
    }
    int bound = stability_bound(p, o, alpha, empties);
    if (bound <= alpha)
        return bound;
    if (bound < beta)
        beta = bound;
    int tt_move = -1, lo = -64, hi = 64, value;
    if (et_probe(e, p, o, &alpha, &beta, &lo, &hi, &tt_move, &value))
        return value;
    Children cs;
    if (endgame_children(e, p, o, moves, beta, empties, lo, hi, tt_move, &cs, &value))
        return value;
    Step step = {1, 0, 0, empties - 1};
    Best r = {-INF, -1, alpha};
    int first = cs.sq[0] == tt_move; /* the table's move alone first, before the others are ordered */
    if (!first || !search_children(e, p, o, &cs, 0, 1, beta, &step, &r, NULL)) {
        endgame_order(e, p, o, &cs, first, empties);
        search_children(e, p, o, &cs, first, cs.n, beta, &step, &r, NULL);
    }
    store_bounds(e, p, o, &r, alpha, beta, lo, hi, empties);
    return r.best;
}

/* -- the Python type -------------------------------------------------------------------------- */

static int get_u64(PyObject *obj, u64 *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    *out = v;
    return 1;
}

static int parse_board(PyObject *po, PyObject *oo, u64 *p, u64 *o)
{
    if (!get_u64(po, p) || !get_u64(oo, o))
        return 0;
    if (*p & *o) {
        PyErr_SetString(PyExc_ValueError, "the two bitboards overlap");
        return 0;
    }
    return 1;
}

static void Core_dealloc(Core *self)
{
    PyMem_RawFree(self->weights);
    for (int d = 0; d <= 64; d++)
        PyMem_RawFree(self->probcut[d]);
    free(self->tt);
    free(self->tt_spare);
    free(self->et);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* One pattern instance's squares (digit order) into the evaluation's per-square tables; its
 * largest index offset + 2 * (1 + 3 + 9 + ...) into *total. 0 with an exception when bad. */
static int add_instance(Core *self, int i, PyObject *squares, int32_t *total)
{
    PyObject *sq_seq = PySequence_Fast(squares, "squares: a sequence");
    if (sq_seq == NULL)
        return 0;
    Py_ssize_t cells = PySequence_Fast_GET_SIZE(sq_seq);
    int32_t power = 1;
    *total = 0;
    for (Py_ssize_t k = 0; k < cells; k++) {
        long sq = PyLong_AsLong(PySequence_Fast_GET_ITEM(sq_seq, k));
        if (sq < 0 || sq > 63 || self->sq_count[sq] >= 16 || cells > 12) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "bad pattern square");
            Py_DECREF(sq_seq);
            return 0;
        }
        self->sq_feat[sq][self->sq_count[sq]] = (unsigned char)i;
        self->sq_pow[sq][self->sq_count[sq]] = power;
        self->sq_count[sq]++;
        *total += 2 * power;
        power *= 3;
    }
    Py_DECREF(sq_seq);
    return 1;
}

/* instances: [(offset, [squares in digit order]), ...]; 0 with an exception when bad. */
static int set_instances(Core *self, PyObject *instances)
{
    PyObject *seq = PySequence_Fast(instances, "instances: a sequence");
    if (seq == NULL)
        return 0;
    Py_ssize_t ni = PySequence_Fast_GET_SIZE(seq);
    int ok = ni <= MAX_FEATURES;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "too many pattern instances");
    memset(self->sq_count, 0, sizeof(self->sq_count));
    self->nfeat = (int)ni;
    for (Py_ssize_t i = 0; ok && i < ni; i++) {
        int offset;
        int32_t total;
        PyObject *squares;
        ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iO", &offset, &squares)
             && add_instance(self, (int)i, squares, &total);
        if (ok && (offset < 0 || offset + total >= self->stage_size)) {
            PyErr_SetString(PyExc_ValueError, "pattern table outside a stage");
            ok = 0;
        }
        if (ok)
            self->feat_offset[i] = offset;
    }
    Py_DECREF(seq);
    return ok;
}

/* One depth's calibration (shallow, a, b, sigmas[65]) into a new ProbCut; NULL with an exception. */
static ProbCut *read_probcut(PyObject *value)
{
    int sh;
    double a, b;
    PyObject *sig;
    if (!PyArg_ParseTuple(value, "iddO", &sh, &a, &b, &sig))
        return NULL;
    PyObject *s = PySequence_Fast(sig, "sigmas: a sequence");
    if (s == NULL)
        return NULL;
    ProbCut *pc = PyMem_RawMalloc(sizeof(ProbCut));
    if (pc == NULL || PySequence_Fast_GET_SIZE(s) != 65) {
        if (pc == NULL)
            PyErr_NoMemory();
        else
            PyErr_SetString(PyExc_ValueError, "probcut: 65 sigmas expected");
        Py_DECREF(s);
        PyMem_RawFree(pc);
        return NULL;
    }
    pc->shallow = sh;
    pc->a = a;
    pc->b = b;
    for (int n = 0; n < 65; n++)
        pc->sigma[n] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(s, n));
    Py_DECREF(s);
    return pc;
}

/* probcut: {depth: (shallow, a, b, sigmas[65])} or None; 0 with an exception when bad. */
static int set_probcut(Core *self, PyObject *probcut)
{
    for (int d = 0; d <= 64; d++) {
        PyMem_RawFree(self->probcut[d]);
        self->probcut[d] = NULL;
    }
    if (probcut == Py_None)
        return 1;
    if (!PyDict_Check(probcut)) {
        PyErr_SetString(PyExc_TypeError, "probcut: a dict or None");
        return 0;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(probcut, &pos, &key, &value)) {
        long depth = PyLong_AsLong(key);
        if (PyErr_Occurred())
            return 0;
        if (depth < 0 || depth > 64) {
            PyErr_SetString(PyExc_ValueError, "probcut depth out of range");
            return 0;
        }
        PyMem_RawFree(self->probcut[depth]);
        self->probcut[depth] = read_probcut(value);
        if (self->probcut[depth] == NULL || PyErr_Occurred())
            return 0;
    }
    return 1;
}

/* The tables (calloc'd pages are only touched as they fill), killers and history, fresh. The
 * midgame table has its full size, twice tt_limit, from the start: growing it inside a search
 * (a bigger table allocated and filled in one pass, 64 MB at the last step) made the first
 * searched moves of a game run tens of milliseconds past their deadline; pages touched as the
 * table fills cost the same in all but come in small steps between the clock's readings. */
static int make_tables(Core *self, long tt_limit, int et_bits)
{
    u64 cap = 1;
    while (cap < (u64)tt_limit * 2)
        cap <<= 1;
    free(self->tt);
    free(self->tt_spare);
    self->tt_spare = NULL;
    self->tt = calloc(cap, sizeof(TTEntry));
    self->tt_mask = cap - 1;
    self->tt_limit = tt_limit;
    self->tt_count = 0;
    self->tt_gen = 1;
    self->rehashed_at = -1;
    self->thin_seconds = thin_estimate(self);
    free(self->et);
    self->et = calloc((size_t)1 << et_bits, sizeof(ETEntry));
    self->et_mask = ((u64)1 << et_bits) - 1;
    self->et_gen = 1;
    if (self->tt == NULL || self->et == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    for (int i = 0; i < MAX_PLY; i++)
        self->killers[i][0] = self->killers[i][1] = -1;
    memset(self->history, 0, sizeof(self->history));
    return 1;
}

/* The arguments' ranges: 0 with an exception when one is out. */
static int init_ranges(Py_buffer *weights, int stages, int stage_size, int mob, int omob, int par, long tt_limit,
                       int et_bits)
{
    const char *bad = NULL;
    if (weights->len != (Py_ssize_t)stages * stage_size * 2 || stages < 1)
        bad = "weights: expected stages * stage_size int16 values";
    else if (mob < 0 || omob < 0 || par < 0 || mob + 64 >= stage_size || omob + 64 >= stage_size
             || par + 1 >= stage_size)
        bad = "mobility or parity offsets outside a stage";
    else if (tt_limit < 1 || tt_limit > (1L << 28) || et_bits < 4 || et_bits > 30)
        bad = "table sizes out of range";
    if (bad != NULL)
        PyErr_SetString(PyExc_ValueError, bad);
    return bad == NULL;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"weights", "stages", "stage_size", "instances", "mobility", "opponent_mobility",
                             "parity", "probcut", "tt_limit", "endgame_table_bits", NULL};
    Py_buffer weights;
    int stages, stage_size, mob, omob, par, et_bits = 20;
    long tt_limit;
    PyObject *instances, *probcut;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*iiOiiiOl|i", kwlist, &weights, &stages, &stage_size, &instances,
                                     &mob, &omob, &par, &probcut, &tt_limit, &et_bits))
        return -1;
    int ok = init_ranges(&weights, stages, stage_size, mob, omob, par, tt_limit, et_bits);
    if (ok) {
        PyMem_RawFree(self->weights);
        self->weights = PyMem_RawMalloc(weights.len);
        if (self->weights == NULL)
            ok = (PyErr_NoMemory(), 0);
    }
    if (ok) {
        memcpy(self->weights, weights.buf, weights.len);
        self->stages = stages;
        self->stage_size = stage_size;
        self->mob_off = mob;
        self->omob_off = omob;
        self->par_off = par;
        self->probcut_t = 1.5;
        ok = set_instances(self, instances) && set_probcut(self, probcut) && make_tables(self, tt_limit, et_bits);
    }
    PyBuffer_Release(&weights);
    return ok ? 0 : -1;
}

/* Set up the deadline and callbacks of one search call; 0 (with an exception) if busy. */
static int begin(Core *e, double deadline, PyObject *clock, PyObject *cancelled)
{
    if (e->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this engine core is already searching");
        return 0;
    }
    if (e->tt == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine core not initialised");
        return 0;
    }
    e->busy = 1;
    e->deadline = deadline;
    e->clock = clock;
    e->cancelled = cancelled;
    e->clock_kind = clock == PerfCounter ? CLOCK_MONO : clock == ProcessTime ? CLOCK_CPU : CLOCK_PYTHON;
    e->next_python_check = 0;
    e->failed = 0;
    e->check_at = e->nodes + 1; /* check at once, as the Python engine does on its first node */
    return 1;
}

static PyObject *finish_stopped(Core *e)
{
    e->busy = 0;
    if (e->failed)
        return NULL; /* the callback's exception */
    PyErr_SetNone(Timeout);
    return NULL;
}

/* The root moves to search, in order: legal moves of (p, o); 0 with an exception otherwise. */
static int read_order(PyObject *order, u64 p, u64 o, int *out, int *n)
{
    PyObject *seq = PySequence_Fast(order, "order: a sequence of squares");
    if (seq == NULL)
        return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len < 1 || len > 64) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "order: 1 to 64 squares");
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long sq = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (sq < 0 || sq > 63) {
            Py_DECREF(seq);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "order: squares 0-63");
            return 0;
        }
        if (!(get_moves(p, o) >> sq & 1)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "order: an illegal move");
            return 0;
        }
        out[i] = (int)sq;
    }
    *n = (int)len;
    Py_DECREF(seq);
    return 1;
}

/* One search call at the root: the position, its moves in the order asked, the window, and what
 * the call found. */
typedef struct {
    u64 p, o;
    Children cs;
    int depth, alpha, beta, empties;
    int best, move, scores[64];
} Root;

/* The root prologue of every search call: the position and the root moves read (the order asked);
 * 0 with an exception otherwise. */
static int root_prologue(Root *r, PyObject *po, PyObject *oo, PyObject *order)
{
    if (!parse_board(po, oo, &r->p, &r->o) || !read_order(order, r->p, r->o, r->cs.sq, &r->cs.n))
        return 0;
    r->cs.made = r->cs.known = 0;
    r->best = -INF;
    r->move = r->cs.sq[0];
    return 1;
}

/* Run body over the root without the GIL, the deadline and the callbacks set up (begin); the
 * deadline or a cancel (check) leaves by longjmp to here. 0 with an exception when the core was
 * busy or the search was stopped. */
static int run_root(Core *e, void (*body)(Core *, Root *), Root *r, double deadline, PyObject *clock,
                    PyObject *cancelled)
{
    if (!begin(e, deadline, clock, cancelled))
        return 0;
    e->tstate = PyEval_SaveThread();
    if (setjmp(e->stop)) {
        PyEval_RestoreThread(e->tstate);
        finish_stopped(e);
        return 0;
    }
    body(e, r);
    PyEval_RestoreThread(e->tstate);
    e->busy = 0;
    return 1;
}

/* Engine._root: every root move searched (the child step), its score kept. */
static void root_search(Core *e, Root *r)
{
    Step step = {0, r->depth - 1, 1, 0};
    Best best = {-INF, r->move, r->alpha};
    e->has_partial = 0;
    set_features(e, 0, r->p, r->o);
    search_children(e, r->p, r->o, &r->cs, 0, r->cs.n, r->beta, &step, &best, r->scores);
    r->best = best.best;
    r->move = best.move;
}

/* Engine._solve_root: the root moves solved with the window (alpha, beta) until one reaches beta. */
static void root_solve(Core *e, Root *r)
{
    Step step = {1, 0, 0, r->empties - 1};
    for (int i = 0; i < r->cs.n; i++) {
        int sq = r->cs.sq[i];
        int value = child_value(e, &r->cs, r->p, r->o, sq, r->alpha, r->beta, &step);
        if (value > r->best) {
            r->best = value;
            r->move = sq;
            if (value >= r->beta)
                break;
        }
    }
}

/* root(p, o, depth, order, alpha, beta, deadline, clock, cancelled) -> (best, move, {move: score}) */
static PyObject *Core_root(Core *self, PyObject *args)
{
    PyObject *po, *oo, *order, *clock, *cancelled;
    double deadline;
    Root r;
    if (!PyArg_ParseTuple(args, "OOiOiidOO", &po, &oo, &r.depth, &order, &r.alpha, &r.beta, &deadline, &clock,
                          &cancelled))
        return NULL;
    if (r.depth < 1 || r.depth > 64) {
        PyErr_SetString(PyExc_ValueError, "depth: 1 to 64");
        return NULL;
    }
    if (!root_prologue(&r, po, oo, order) || !run_root(self, root_search, &r, deadline, clock, cancelled))
        return NULL;
    PyObject *dict = PyDict_New();
    for (int i = 0; dict != NULL && i < r.cs.n; i++) {
        PyObject *k = PyLong_FromLong(r.cs.sq[i]), *v = PyLong_FromLong(r.scores[i]);
        if (k == NULL || v == NULL || PyDict_SetItem(dict, k, v) < 0)
            Py_CLEAR(dict);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return dict == NULL ? NULL : Py_BuildValue("iiN", r.best, r.move, dict);
}

/* solve_root(p, o, order, alpha, beta, empties, deadline, clock, cancelled) -> (value, move) */
static PyObject *Core_solve_root(Core *self, PyObject *args)
{
    PyObject *po, *oo, *order, *clock, *cancelled;
    double deadline;
    Root r;
    if (!PyArg_ParseTuple(args, "OOOiiidOO", &po, &oo, &order, &r.alpha, &r.beta, &r.empties, &deadline, &clock,
                          &cancelled))
        return NULL;
    if (!root_prologue(&r, po, oo, order))
        return NULL;
    if (r.empties != popcount(FULL ^ (r.p | r.o))) {
        PyErr_SetString(PyExc_ValueError, "empties: not the position's");
        return NULL;
    }
    if (!run_root(self, root_solve, &r, deadline, clock, cancelled))
        return NULL;
    return Py_BuildValue("ii", r.best, r.move);
}

static PyObject *Core_new_solve(Core *self, PyObject *Py_UNUSED(ignored))
{
    self->et_gen++;
    if (self->et_gen == 0) {
        memset(self->et, 0, sizeof(ETEntry) * (self->et_mask + 1));
        self->et_gen = 1;
    }
    Py_RETURN_NONE;
}

static PyObject *Core_age_history(Core *self, PyObject *Py_UNUSED(ignored))
{
    for (int i = 0; i < 65; i++)
        self->history[i] /= 8; /* non-negative: Python's // 8 */
    Py_RETURN_NONE;
}

/* thin(): keep the midgame table's deepest entries now (what a full table does), between searches */
static PyObject *Core_thin(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this engine core is already searching");
        return NULL;
    }
    if (!tt_thin(self, tt_keep_from(self)))
        tt_clear(self);
    Py_RETURN_NONE;
}

/* prepare_spare(): make the table that thinning moves into, its pages touched, if not yet made:
 * the first thinning's fresh 64 MB took 80 ms of page faults inside a search. */
static PyObject *Core_prepare_spare(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this engine core is already searching");
        return NULL;
    }
    if (self->tt_spare == NULL) {
        size_t bytes = sizeof(TTEntry) * (self->tt_mask + 1);
        self->tt_spare = malloc(bytes);
        if (self->tt_spare == NULL)
            return PyErr_NoMemory();
        memset(self->tt_spare, 0, bytes); /* gen 0: empty in every generation */
    }
    Py_RETURN_NONE;
}

static PyObject *Core_evaluate(Core *self, PyObject *args)
{
    PyObject *po, *oo;
    u64 p, o;
    if (!PyArg_ParseTuple(args, "OO", &po, &oo) || !parse_board(po, oo, &p, &o))
        return NULL;
    return PyLong_FromLong(evaluate(self, p, o));
}

static PyObject *line_list(const int *line, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(line[i]));
    return list;
}

static PyObject *Core_ordered(Core *self, PyObject *args)
{
    PyObject *po, *oo, *mo;
    int depth, ply, tt_move;
    u64 p, o, moves;
    if (!PyArg_ParseTuple(args, "OOOiii", &po, &oo, &mo, &depth, &ply, &tt_move) || !parse_board(po, oo, &p, &o)
        || !get_u64(mo, &moves))
        return NULL;
    if (ply < 0 || ply >= MAX_PLY) {
        PyErr_SetString(PyExc_ValueError, "ply out of range");
        return NULL;
    }
    moves &= get_moves(p, o);
    if (!moves)
        return PyList_New(0);
    Children cs;
    ordered(self, p, o, moves, depth, ply, tt_move, &cs);
    return line_list(cs.sq, cs.n);
}

/* Follow a table's best moves from (p, o) into line[n..length) (passes included), as
 * bots.othello.bitboard.table_line does: the midgame table's (Engine.principal_line; the check
 * for a position seen before never fires, a line cannot meet one twice) or the endgame bounds
 * table's. Returns the line's new length. */
static int follow(Core *e, u64 p, u64 o, int *line, int n, int length, int midgame)
{
    u64 seen_p[128], seen_o[128];
    int nseen = 0;
    while (n < length) {
        u64 moves = get_moves(p, o);
        if (!moves) {
            if (!get_moves(o, p))
                break;
            line[n++] = PASS;
            u64 t = p;
            p = o;
            o = t;
            continue;
        }
        int move = -1;
        if (midgame) {
            TTEntry *entry = tt_find(e, p, o);
            if (entry != NULL)
                move = entry->move;
        } else {
            ETEntry *entry = et_find(e, p, o);
            if (entry != NULL)
                move = entry->move;
        }
        if (move < 0 || !(moves >> move & 1))
            break;
        if (midgame) {
            int repeated = 0;
            for (int i = 0; i < nseen; i++)
                if (seen_p[i] == p && seen_o[i] == o)
                    repeated = 1;
            if (repeated)
                break;
            seen_p[nseen] = p;
            seen_o[nseen++] = o;
        }
        line[n++] = move;
        Board c = play(p, o, move);
        p = c.p;
        o = c.o;
    }
    return n;
}

/* principal_line(p, o, first, length): Engine.principal_line over the midgame table */
static PyObject *Core_principal_line(Core *self, PyObject *args)
{
    PyObject *po, *oo;
    int first, length;
    u64 p, o;
    if (!PyArg_ParseTuple(args, "OOii", &po, &oo, &first, &length) || !parse_board(po, oo, &p, &o))
        return NULL;
    if (first < 0 || first > 63) {
        PyErr_SetString(PyExc_ValueError, "first: a square");
        return NULL;
    }
    if (length > 128)
        length = 128;
    int line[128];
    line[0] = first;
    Board c = play(p, o, first);
    int n = follow(self, c.p, c.o, line, 1, length, 1);
    return line_list(line, n);
}

/* table_line(p, o, length): bots.othello.bitboard.table_line over the endgame bounds table */
static PyObject *Core_table_line(Core *self, PyObject *args)
{
    PyObject *po, *oo;
    int length;
    u64 p, o;
    if (!PyArg_ParseTuple(args, "OOi", &po, &oo, &length) || !parse_board(po, oo, &p, &o))
        return NULL;
    if (length > 128)
        length = 128;
    int line[128];
    return line_list(line, follow(self, p, o, line, 0, length, 0));
}

static PyObject *Core_get_nodes(Core *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

static int Core_set_nodes(Core *self, PyObject *value, void *closure)
{
    long long v = value ? PyLong_AsLongLong(value) : -1;
    if (v < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "nodes: a count");
        return -1;
    }
    self->nodes = v;
    return 0;
}

static PyObject *Core_get_partial(Core *self, void *closure)
{
    if (!self->has_partial)
        Py_RETURN_NONE;
    return Py_BuildValue("ii", self->partial_best, self->partial_move);
}

static PyObject *Core_get_probcut_t(Core *self, void *closure) { return PyFloat_FromDouble(self->probcut_t); }

static int Core_set_probcut_t(Core *self, PyObject *value, void *closure)
{
    double v = value ? PyFloat_AsDouble(value) : -1.0;
    if (v == -1.0 && (value == NULL || PyErr_Occurred())) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "probcut_t: a number");
        return -1;
    }
    self->probcut_t = v;
    return 0;
}

static PyObject *Core_get_tt_size(Core *self, void *closure) { return PyLong_FromLong(self->tt_count); }

static PyObject *Core_get_rehashed_at(Core *self, void *closure) { return PyLong_FromLongLong(self->rehashed_at); }

static PyObject *Core_get_thin_seconds(Core *self, void *closure) { return PyFloat_FromDouble(self->thin_seconds); }

static int Core_set_thin_seconds(Core *self, PyObject *value, void *closure)
{
    double v = value == NULL ? -1.0 : PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred())
        return -1;
    if (!(v >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "thin_seconds must be a number of seconds, 0 or more");
        return -1;
    }
    self->thin_seconds = v;
    return 0;
}

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, (setter)Core_set_nodes, "nodes searched (settable)", NULL},
    {"partial", (getter)Core_get_partial, NULL, "(best, move) of the root moves searched by the last root call", NULL},
    {"probcut_t", (getter)Core_get_probcut_t, (setter)Core_set_probcut_t, "Multi-ProbCut's confidence", NULL},
    {"tt_size", (getter)Core_get_tt_size, NULL, "positions in the midgame table", NULL},
    {"rehashed_at", (getter)Core_get_rehashed_at, NULL,
     "the node count when the midgame table was last thinned (-1: not yet)", NULL},
    {"thin_seconds", (getter)Core_get_thin_seconds, (setter)Core_set_thin_seconds,
     "the last thinning's time on the search's clock: a table that fills nearer the deadline than "
     "that stops the search instead (settable)", NULL},
    {NULL},
};

static PyMethodDef Core_methods[] = {
    {"root", (PyCFunction)Core_root, METH_VARARGS, "one iteration over the root moves (Engine._root)"},
    {"solve_root", (PyCFunction)Core_solve_root, METH_VARARGS, "one exact window over the root moves"},
    {"new_solve", (PyCFunction)Core_new_solve, METH_NOARGS, "forget the endgame bounds table"},
    {"age_history", (PyCFunction)Core_age_history, METH_NOARGS, "history scores // 8"},
    {"prepare_spare", (PyCFunction)Core_prepare_spare, METH_NOARGS,
     "make the table thinning moves into now, its memory touched (a search need not)"},
    {"thin", (PyCFunction)Core_thin, METH_NOARGS,
     "keep the midgame table's deepest entries (at most half its limit), as a full table does"},
    {"evaluate", (PyCFunction)Core_evaluate, METH_VARARGS, "the learned evaluation"},
    {"ordered", (PyCFunction)Core_ordered, METH_VARARGS, "Engine._ordered"},
    {"principal_line", (PyCFunction)Core_principal_line, METH_VARARGS, "the midgame table's line"},
    {"table_line", (PyCFunction)Core_table_line, METH_VARARGS, "the endgame table's line"},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bots.othello._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One engine's compiled search state: weights, tables, killers, history.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* -- module functions ------------------------------------------------------------------------- */

static PyObject *mod_legal(PyObject *m, PyObject *args)
{
    PyObject *po, *oo;
    u64 p, o;
    if (!PyArg_ParseTuple(args, "OO", &po, &oo) || !parse_board(po, oo, &p, &o))
        return NULL;
    return PyLong_FromUnsignedLongLong(get_moves(p, o));
}

/* Arguments (p, o, n) with lo <= n <= hi; 0 with an exception otherwise. */
static int parse_board_int(PyObject *args, u64 *p, u64 *o, int *n, int lo, int hi, const char *what)
{
    PyObject *po, *oo;
    if (!PyArg_ParseTuple(args, "OOi", &po, &oo, n) || !parse_board(po, oo, p, o))
        return 0;
    if (*n < lo || *n > hi) {
        PyErr_Format(PyExc_ValueError, "%s: %d to %d", what, lo, hi);
        return 0;
    }
    return 1;
}

static PyObject *mod_flips(PyObject *m, PyObject *args)
{
    int sq;
    u64 p, o;
    if (!parse_board_int(args, &p, &o, &sq, 0, 63, "square"))
        return NULL;
    return PyLong_FromUnsignedLongLong(flips(p, o, sq));
}

static PyObject *mod_perft(PyObject *m, PyObject *args)
{
    int depth;
    u64 p, o, n;
    if (!parse_board_int(args, &p, &o, &depth, 0, 64, "depth"))
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    n = perft(p, o, depth, 0);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *mod_stable(PyObject *m, PyObject *args)
{
    PyObject *po, *oo;
    u64 p, o;
    if (!PyArg_ParseTuple(args, "OO", &po, &oo) || !parse_board(po, oo, &p, &o))
        return NULL;
    if (!edge_ready) {
        PyErr_SetString(PyExc_RuntimeError, "set_edge_table first");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(stable_discs(p, o));
}

static PyObject *mod_set_edge_table(PyObject *m, PyObject *args)
{
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf))
        return NULL;
    if (buf.len != 65536) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "the edge table has 65536 bytes");
        return NULL;
    }
    memcpy(EDGE_STABLE, buf.buf, 65536);
    edge_ready = 1;
    PyBuffer_Release(&buf);
    Py_RETURN_NONE;
}

static PyObject *mod_set_timeout(PyObject *m, PyObject *exc)
{
    if (!PyExceptionClass_Check(exc)) {
        PyErr_SetString(PyExc_TypeError, "an exception class");
        return NULL;
    }
    Py_INCREF(exc);
    Py_XSETREF(Timeout, exc);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"legal", mod_legal, METH_VARARGS, "legal(p, o): the mover's legal squares as a bitboard"},
    {"flips", mod_flips, METH_VARARGS, "flips(p, o, square): the discs the move flips"},
    {"perft", mod_perft, METH_VARARGS, "perft(p, o, depth): leaves, passes counted as moves"},
    {"stable", mod_stable, METH_VARARGS, "stable(p, o): stable discs of p (stable_discs)"},
    {"set_edge_table", mod_set_edge_table, METH_VARARGS, "the edge stability table (65536 bytes)"},
    {"set_timeout", mod_set_timeout, METH_O, "the exception raised when the deadline passes"},
    {NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "bots.othello._core",
    "The compiled Othello search core (see bots.othello.compiled).", -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    init_rays();
    init_tables();
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *time = PyImport_ImportModule("time");
    if (time == NULL)
        return NULL;
    PerfCounter = PyObject_GetAttrString(time, "perf_counter");
    ProcessTime = PyObject_GetAttrString(time, "process_time");
    Py_DECREF(time);
    if (PerfCounter == NULL || ProcessTime == NULL)
        return NULL;
    Timeout = PyExc_TimeoutError;
    Py_INCREF(Timeout);
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
