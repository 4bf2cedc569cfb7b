/*
 * box16_kernel.h — the general solver's whole-board kernel for 16-digit boxed grids: "RxC" with
 * R*C = 16 and R, C >= 2 (4x4, 2x8, 8x2), the 16x16 Sudoku of exact-cover benchmarks.
 * Written once, compiled per instruction set: src/box16/box16.c (the baseline: SSE2 on
 * x86-64, NEON on aarch64) and kernel_box16_avx2.c; the includer defines B16_SEARCH, the name
 * of its entry point.
 *
 * Board layout: 16 rows of 16 uint16_t candidate masks (bit d-1 = digit d), 32 bytes per row,
 * so cell 16*r + c is row r, lane c; a board is 512 bytes and a guess copies it whole. A row
 * is one AVX2 vector, or two 128-bit halves elsewhere (GCC and clang lower 256-bit generic
 * vector shuffles element by element without AVX, so the halves are explicit). Boxes are R
 * rows (a band) by C lanes (a group).
 *
 * Every rule works on the whole board at once instead of walking peer lists. A house is
 * reduced to a pair (once, twice): the digits seen in it, and those seen at least twice.
 * Columns reduce down the rows, rows across the lanes by butterfly lane swaps, boxes down a
 * band then across a group. On that:
 *   naked singles   the digits of single cells leave every other cell of their houses; a digit
 *                   single in two cells of a house is a contradiction;
 *   hidden singles  a digit seen once in a house is placed there; a digit not seen in a house,
 *                   or a cell that is the only place for two digits, is a contradiction;
 *   locked cands    every box-row and box-column pair, both directions, from one snapshot
 *                   (what a side holds outside the pair is "once of the others", exactly:
 *                   (once & ~own) | twice).
 * The rules repeat until none changes a candidate: the fixpoint general.c's queue-driven rules
 * reach (the eliminations are monotone, so it is unique, or a contradiction either way). The
 * branching rule is general.c's (fewest candidates, then its branch score, then cell order;
 * digits lowest first), so the search tree, the guess count and the order of solutions are
 * the general solver's exactly: the tests run both on the same puzzles and compare all three.
 */
#include <string.h>

#include "box16_stamps.h"

typedef uint16_t b16_v16 __attribute__((vector_size(32)));  /* 16 lanes of 16 bits */
typedef uint16_t b16_v8 __attribute__((vector_size(16)));   /* 8 lanes of 16 bits */
typedef uint32_t b16_v4d __attribute__((vector_size(16)));  /* 4 lanes of 32 bits */
typedef uint64_t b16_v2q __attribute__((vector_size(16)));  /* 2 lanes of 64 bits */

enum {
    B16_ROWS = 16,            /* rows = lanes = digits */
    B16_DEPTH = 16 * 16 + 1   /* boards on the stack: each level assigns at least one more cell */
};

/* Fully unrolls the loop that follows (the row loops: 16 or fewer constant trips). */
#define B16_UNROLL _Pragma("GCC unroll 16")

/* What propagate found. */
enum { B16_DEAD = 0, B16_OPEN = 1, B16_SOLVED = 2 };

/* One thread's kernel state (the same in every stamp; the stack holds rows of 32 bytes). */
struct sb_box16 {
    int C;                      /* lanes per box (a group); R = 16 / C rows per box (a band) */
    b16_v16 *stack;             /* B16_DEPTH boards of 16 rows */
    int bcell[B16_DEPTH];       /* per level: the cell of the alternative left below */
    uint16_t bdigit[B16_DEPTH]; /* per level: the digit that alternative must drop */
    int ncells;                 /* 256: the cells of a solution (srch_space.ncells) */
    uint8_t sol[256];           /* scratch: the solution handed to callbacks */
    uint64_t poll_at;           /* the running search's next poll bound (gsearch.h); in
                                   memory rather than in two more registers the search loop
                                   would keep live */
};

#ifdef __AVX2__
typedef b16_v16 row; /* one row in one register */

/* a | b, a & b, a & ~b, a ^ b lane by lane. */
static inline row or2(row a, row b) { return a | b; }
static inline row and2(row a, row b) { return a & b; }
static inline row andn(row a, row b) { return a & ~b; }
static inline row xor2(row a, row b) { return a ^ b; }
/* a + b and a - b lane by lane (counts). */
static inline row add2(row a, row b) { return a + b; }
static inline row sub2(row a, row b) { return a - b; }
/* v in every lane. */
static inline row splat(uint16_t v) { return (row){0} + v; }
/* a & (a - 1): each lane without its lowest candidate (0 for singles and empties). */
static inline row drop1(row a) { return a & (a - 1); }
/* All ones in the lanes where a is 0. */
static inline row eq0(row a) { return (row)(a == 0); }
/* The zero row. */
static inline row zero(void) { return (row){0}; }
/* 1 when any bit of a is set. */
static inline int any(row a)
{
    typedef uint64_t q4 __attribute__((vector_size(32)));
    const q4 q = (q4)a;
    return ((q[0] | q[1]) | (q[2] | q[3])) != 0;
}
/* Lane i swapped with lane i ^ s, s = 1, 2, 4 or 8 (one butterfly step). */
static inline __attribute__((always_inline)) row swp(row v, int s)
{
    switch (s) {
    case 1:
        return __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    case 2:
        return __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    case 4:
        return __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
    default:
        return __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    }
}
#else
typedef struct row {
    b16_v8 lo; /* lanes 0..7 */
    b16_v8 hi; /* lanes 8..15 */
} row;

/* As the AVX2 versions above, half by half. */
static inline row or2(row a, row b) { return (row){a.lo | b.lo, a.hi | b.hi}; }
static inline row and2(row a, row b) { return (row){a.lo & b.lo, a.hi & b.hi}; }
static inline row andn(row a, row b) { return (row){a.lo & ~b.lo, a.hi & ~b.hi}; }
static inline row xor2(row a, row b) { return (row){a.lo ^ b.lo, a.hi ^ b.hi}; }
static inline row add2(row a, row b) { return (row){a.lo + b.lo, a.hi + b.hi}; }
static inline row sub2(row a, row b) { return (row){a.lo - b.lo, a.hi - b.hi}; }
static inline row splat(uint16_t v) { return (row){(b16_v8){0} + v, (b16_v8){0} + v}; }
static inline row drop1(row a) { return (row){a.lo & (a.lo - 1), a.hi & (a.hi - 1)}; }
static inline row eq0(row a) { return (row){(b16_v8)(a.lo == 0), (b16_v8)(a.hi == 0)}; }
static inline row zero(void) { return (row){{0}, {0}}; }
static inline int any(row a)
{
    const b16_v2q q = (b16_v2q)(a.lo | a.hi);
    return (q[0] | q[1]) != 0;
}
/* One half's lanes swapped at distance s = 1, 2 or 4, through the wider lanes' moves (which
 * both compilers lower to one or two instructions, unlike a 16-bit lane shuffle). */
static inline __attribute__((always_inline)) b16_v8 swp8(b16_v8 v, int s)
{
    if (s == 1)
        return (b16_v8)(((b16_v4d)v >> 16) | ((b16_v4d)v << 16));
    if (s == 2) {
        const b16_v4d d = (b16_v4d)v;
        return (b16_v8)__builtin_shufflevector(d, d, 1, 0, 3, 2);
    }
    const b16_v2q q = (b16_v2q)v;
    return (b16_v8)__builtin_shufflevector(q, q, 1, 0);
}
static inline __attribute__((always_inline)) row swp(row v, int s)
{
    if (s == 8)
        return (row){v.hi, v.lo};
    return (row){swp8(v.lo, s), swp8(v.hi, s)};
}
#endif

/* Row r of the board at b. */
static inline row ld(const b16_v16 *b, int r)
{
    row v;
    memcpy(&v, b + r, sizeof v);
    return v;
}

/* Stores v as row r of the board at b. */
static inline void st(b16_v16 *b, int r, row v)
{
    memcpy(b + r, &v, sizeof v);
}

/* One butterfly step of a (once, twice) reduction: lanes i and i ^ s combine. */
static inline __attribute__((always_inline)) void ot_step(row *o, row *t, int s)
{
    const row o2 = swp(*o, s), t2 = swp(*t, s);
    *t = or2(*t, or2(t2, and2(*o, o2)));
    *o = or2(*o, o2);
}

/* (once, twice) of v across lanes by the steps from, 2*from, ... below to: with from = 1, each
 * lane ends with the pair of its group of `to` lanes; with from = C on a row whose groups of
 * C lanes hold one value each, each lane ends with the pair over the groups of `to` lanes. */
static inline __attribute__((always_inline)) void ot_lanes(row v, int from, int to, row *o, row *t)
{
    *o = v;
    *t = zero();
    for (int s = from; s < to; s <<= 1)
        ot_step(o, t, s);
}

/* The house pairs of the columns (co, ct) and of each band's boxes (bo[k], bt[k], every lane
 * holding its box's pair) of the rows x[0..16), boxes 16/C rows by C lanes. */
static inline __attribute__((always_inline)) void cols_boxes(const row *x, const int C, row *co,
                                                             row *ct, row *bo, row *bt)
{
    const int R = B16_ROWS / C;
    *co = *ct = zero();
    for (int k = 0; k < B16_ROWS / R; k++) {
        row o = zero(), t = zero();
        for (int i = 0; i < R; i++) {
            t = or2(t, and2(o, x[k * R + i]));
            o = or2(o, x[k * R + i]);
        }
        *ct = or2(*ct, or2(and2(*co, o), t));
        *co = or2(*co, o);
        for (int s = 1; s < C; s <<= 1)
            ot_step(&o, &t, s);
        bo[k] = o;
        bt[k] = t;
    }
}

/* Naked singles to a fixpoint on the rows x, from the singles whose digits have not left
 * their peers yet: sd[r] holds their digits (the others 0), and every other single's digit
 * has left its peers already (so a new single cannot repeat it without a peer having
 * emptied, which the round that emptied it reports). Each round takes the rows holding a new
 * single: their digits leave the row (a digit twice among them is a contradiction), the
 * band's other rows in their boxes, and every other row in their columns, where a second
 * single of the same digit empties; later rows see those removals. Then the cells that
 * became single are the next round's. sd is consumed. @return B16_DEAD (a cell emptied),
 * B16_SOLVED (every cell single), else B16_OPEN. */
static inline __attribute__((always_inline)) int naked(row *x, row *sd, const int C)
{
    const int R = B16_ROWS / C;
    for (;;) {
        row old[B16_ROWS], bad = zero(), grew = zero(), multi = zero();
        B16_UNROLL
        for (int r = 0; r < B16_ROWS; r++)
            old[r] = x[r];
        for (int r = 0; r < B16_ROWS; r++) {
            if (!any(sd[r]))
                continue;
            row o, t, g = sd[r];
            ot_lanes(sd[r], 1, B16_ROWS, &o, &t);
            for (int s = 1; s < C; s <<= 1)
                g = or2(g, swp(g, s)); /* each box's new digits in all its lanes */
            bad = or2(bad, and2(sd[r], t));
            const row own = andn(x[r], andn(o, sd[r])); /* row r: every lane but the singles */
            for (int k = 0; k < B16_ROWS / R; k++) { /* the column, and the box in r's band */
                const row m = k == r / R ? g : sd[r];
                B16_UNROLL
                for (int i = 0; i < R; i++)
                    x[k * R + i] = andn(x[k * R + i], m);
            }
            x[r] = own;
        }
        B16_UNROLL
        for (int r = 0; r < B16_ROWS; r++) {
            const row n1 = drop1(x[r]);
            bad = or2(bad, eq0(x[r]));
            sd[r] = andn(and2(x[r], eq0(n1)), eq0(xor2(x[r], old[r]))); /* became single */
            grew = or2(grew, sd[r]);
            multi = or2(multi, n1);
        }
        if (any(bad))
            return B16_DEAD;
        if (!any(grew))
            return any(multi) ? B16_OPEN : B16_SOLVED;
    }
}

/* Hidden singles, one pass; sd[r] gets the digits placed in row r. @return B16_DEAD, or
 * B16_OPEN with *changed set when a cell was placed. */
static inline __attribute__((always_inline)) int hidden(row *x, row *sd, const int C, int *changed)
{
    const int R = B16_ROWS / C;
    row co, ct, bo[B16_ROWS / 2], bt[B16_ROWS / 2], chg = zero();
    cols_boxes(x, C, &co, &ct, bo, bt);
    row seen = co; /* AND of every house's once: all ones unless a digit has no place */
    for (int k = 0; k < B16_ROWS / R; k++)
        seen = and2(seen, bo[k]);
    row bad = zero();
    const row hc = andn(co, ct);
    for (int r = 0; r < B16_ROWS; r++) {
        row o, t;
        ot_lanes(x[r], 1, B16_ROWS, &o, &t);
        const int k = r / R;
        seen = and2(seen, o);
        const row h = and2(x[r], or2(andn(o, t), or2(hc, andn(bo[k], bt[k]))));
        bad = or2(bad, drop1(h)); /* the only place for two digits */
        const row nx = or2(h, and2(x[r], eq0(h)));
        sd[r] = andn(h, eq0(xor2(nx, x[r]))); /* placed: a lane that changed to its h */
        chg = or2(chg, sd[r]);
        x[r] = nx;
    }
    *changed = any(chg);
    return any(or2(bad, andn(eq0(zero()), seen))) ? B16_DEAD : B16_OPEN;
}

/* Locked candidates over every box-row and box-column pair, one pass from a snapshot: a digit
 * whose places in one side all lie in the cells it shares with the other leaves the other's
 * other cells. sd[r] gets the digits of row r's cells left single by it.
 * @return 1 if a candidate went, else 0. */
static inline __attribute__((always_inline)) int locked(row *x, row *sd, const int C)
{
    const int R = B16_ROWS / C, bands = B16_ROWS / R;
    row rem[B16_ROWS], cs[B16_ROWS / 2], p[B16_ROWS / 2];
    row po = zero(), pt = zero(), co = zero(), ct = zero(), chg = zero();
    for (int k = 0; k < bands; k++) {
        /* rows against boxes: seg[i] = the OR of row i's cells in each box, in all its lanes */
        row seg[B16_ROWS], q[B16_ROWS], so = zero(), st2 = zero(), qo = zero(), qt = zero();
        row cv = zero();
        for (int i = 0; i < R; i++) {
            row v = x[k * R + i];
            cv = or2(cv, v);
            for (int s = 1; s < C; s <<= 1)
                v = or2(v, swp(v, s));
            seg[i] = v;
            st2 = or2(st2, and2(so, v));
            so = or2(so, v);
        }
        for (int i = 0; i < R; i++) {
            row o, t;
            /* box -> row: in this box only on row i, so it leaves row i's other boxes */
            const row pb = andn(seg[i], st2);
            ot_lanes(pb, C, B16_ROWS, &o, &t);
            rem[k * R + i] = or2(andn(o, pb), t);
            /* row -> box: in row i only in this box, so it leaves the box's other rows */
            ot_lanes(seg[i], C, B16_ROWS, &o, &t);
            q[i] = andn(seg[i], t);
            qt = or2(qt, and2(qo, q[i]));
            qo = or2(qo, q[i]);
        }
        for (int i = 0; i < R; i++)
            rem[k * R + i] = or2(rem[k * R + i], or2(andn(qo, q[i]), qt));
        cs[k] = cv; /* each column's cells in this band */
        ct = or2(ct, and2(co, cv));
        co = or2(co, cv);
    }
    for (int k = 0; k < bands; k++) { /* box -> column: in this box only in one column */
        row o, t;
        ot_lanes(cs[k], 1, C, &o, &t);
        p[k] = andn(cs[k], t);
        pt = or2(pt, and2(po, p[k]));
        po = or2(po, p[k]);
    }
    for (int k = 0; k < bands; k++) {
        row o, t;
        const row qc = andn(cs[k], ct); /* column -> box: in the column only in this band */
        ot_lanes(qc, 1, C, &o, &t);
        const row rk = or2(or2(andn(po, p[k]), pt), or2(andn(o, qc), t));
        for (int i = 0; i < R; i++) {
            const int r = k * R + i;
            const row nx = andn(x[r], or2(rem[r], rk)), d = xor2(nx, x[r]);
            sd[r] = andn(and2(nx, eq0(drop1(nx))), eq0(d));
            chg = or2(chg, d);
            x[r] = nx;
        }
    }
    return any(chg);
}

/* Every rule to the joint fixpoint on the board at b, whose singles' digits have all left
 * their peers except, when cell >= 0, cell's (if it is single), or, when cell < 0, every
 * single's (the root). @return B16_DEAD, B16_OPEN or B16_SOLVED. */
static inline __attribute__((always_inline)) int propagate(b16_v16 *b, int cell, const int C)
{
    row x[B16_ROWS], sd[B16_ROWS];
    int ret;
    B16_UNROLL
    for (int r = 0; r < B16_ROWS; r++) {
        x[r] = ld(b, r);
        sd[r] = cell < 0 ? and2(x[r], eq0(drop1(x[r]))) : zero();
    }
    if (cell >= 0) {
        uint16_t m;
        memcpy(&m, (const uint16_t *)b + cell, sizeof m);
        if (!(m & (m - 1)))
            memcpy((uint16_t *)sd + cell, &m, sizeof m);
    }
    for (;;) {
        ret = naked(x, sd, C);
        if (ret != B16_OPEN)
            break;
        int changed;
        ret = hidden(x, sd, C, &changed);
        if (ret == B16_DEAD || (!changed && !locked(x, sd, C)))
            break;
    }
    B16_UNROLL
    for (int r = 0; r < B16_ROWS; r++)
        st(b, r, x[r]);
    return ret;
}

/* propagate for each box width, out of line: the search calls it from three places. */
static __attribute__((noinline)) int propagate_c2(b16_v16 *b, int cell)
{
    return propagate(b, cell, 2);
}
static __attribute__((noinline)) int propagate_c4(b16_v16 *b, int cell)
{
    return propagate(b, cell, 4);
}
static __attribute__((noinline)) int propagate_c8(b16_v16 *b, int cell)
{
    return propagate(b, cell, 8);
}

/* propagate for boxes of C lanes (a constant where it is called). */
static inline __attribute__((always_inline)) int prop(b16_v16 *b, int cell, const int C)
{
    return C == 2 ? propagate_c2(b, cell) : C == 4 ? propagate_c4(b, cell) : propagate_c8(b, cell);
}

/* The number of candidates of each cell of the board at b into cnt[0..256). */
static inline void counts(const b16_v16 *b, uint16_t *cnt)
{
    for (int r = 0; r < B16_ROWS; r++) {
        b16_v16 v = b[r];
        v -= v >> 1 & 0x5555;
        v = (v & 0x3333) + (v >> 2 & 0x3333);
        v = (v + (v >> 4)) & 0x0f0f;
        v = (v + (v >> 8)) & 0x1f;
        memcpy(cnt + B16_ROWS * r, &v, sizeof v);
    }
}

/* Sums of v across lanes by the steps from, 2*from, ... below to (as ot_lanes). */
static inline __attribute__((always_inline)) row sum_lanes(row v, int from, int to)
{
    for (int s = from; s < to; s <<= 1)
        v = add2(v, swp(v, s));
    return v;
}

/* Cell c's branch score: general.c's branch_score (its unassigned peers that share a digit
 * with it, bivalue ones counted three times) from the weights w (3 bivalue, 1 more, 0
 * single) of the rows x, as sums: row + column + box - the row's and the column's cells in
 * the box (each counted twice) - c itself (counted once more than the peers in all). */
static inline __attribute__((always_inline)) int score(const row *x, const row *w, int c,
                                                       const int C)
{
    const int R = B16_ROWS / C, r0 = c / B16_ROWS, k0 = r0 / R;
    uint16_t out[B16_ROWS];
    const row mc = splat(((const uint16_t *)x)[c]);
    row col = zero(), band = zero();
    for (int k = 0; k < B16_ROWS / R; k++) {
        row bs = zero();
        B16_UNROLL
        for (int i = 0; i < R; i++)
            bs = add2(bs, andn(w[k * R + i], eq0(and2(x[k * R + i], mc))));
        col = add2(col, bs);
        if (k == k0)
            band = bs;
    }
    const row own = andn(w[r0], eq0(and2(x[r0], mc)));
    const row v = sub2(sub2(add2(add2(sum_lanes(own, 1, B16_ROWS), col), sum_lanes(band, 1, C)),
                            add2(sum_lanes(own, 1, C), band)),
                       own);
    memcpy(out, &v, sizeof out);
    return out[c % B16_ROWS];
}

/* The branching cell, as general.c's choose: the first cell with the fewest candidates (a 2
 * ends the hunt for fewer), then among the cells from there with as many, the best score. */
static inline __attribute__((always_inline)) int choose(const b16_v16 *b, const int C)
{
    uint16_t cnt[256];
    row x[B16_ROWS], w[B16_ROWS];
    counts(b, cnt);
    int best = -1, best_n = 17, best_p = -1;
    for (int c = 0; c < 256 && best_n > 2; c++)
        if (cnt[c] > 1 && cnt[c] < best_n) {
            best_n = cnt[c];
            best = c;
        }
    for (int r = 0; r < B16_ROWS; r++) {
        x[r] = ld(b, r);
        const row m1 = drop1(x[r]), bi = eq0(drop1(m1)); /* bi: at most two candidates */
        w[r] = andn(or2(and2(bi, splat(3)), andn(splat(1), bi)), eq0(m1));
    }
    for (int c = best; c < 256; c++)
        if (cnt[c] == best_n) {
            const int s = score(x, w, c, C);
            if (s > best_p) {
                best_p = s;
                best = c;
            }
        }
    return best;
}

/* A hook: inlined always, so the box width folds into it (GCC keeps choose out of line in
 * the baseline stamp otherwise: 11% more instructions on minimal 16x16 puzzles). */
#define B16_HOOK static inline __attribute__((always_inline))

/* The search's hook context: the kernel, its box width (a constant where the loop is
 * called: search.h's entries are always inlined, so it folds into every hook) and what the
 * last propagation found. */
typedef struct b16_ctx {
    struct sb_box16 *k; /* the kernel: stack, branch records, poll bound */
    int C;              /* lanes per box */
    int state;          /* B16_DEAD, B16_OPEN or B16_SOLVED: the current board's */
} b16_ctx;

/* The search (src/search/search.h): boards of B16_ROWS rows, 16-bit masks. */
#define SB_SEARCH_CTX b16_ctx
#define SRCH_BOARD b16_v16
#define SRCH_MASK uint16_t
#include "search/search.h"

/* The search's hooks. The current board is solved when its propagation said so. */
B16_HOOK int srch_solved(b16_ctx *x, const b16_v16 *b)
{
    (void)b;
    return x->state == B16_SOLVED;
}

B16_HOOK int srch_choose(b16_ctx *x, const b16_v16 *b, uint64_t guesses)
{
    (void)guesses; /* the cell rule throughout */
    return choose(b, x->C);
}

B16_HOOK uint16_t srch_cell(b16_ctx *x, const b16_v16 *b, int c)
{
    uint16_t m;
    (void)x;
    memcpy(&m, (const uint16_t *)b + c, sizeof m);
    return m;
}

/* Cell c takes digit d (a copy of the board the guess was made on), then propagation.
 * @return 0 on a contradiction. */
/* The lowest digit first: on 16 digits the general solver's order (gsearch.h's
 * SB_GSEARCH_MOST_DIGITS). */
B16_HOOK uint16_t srch_first(b16_ctx *x, const b16_v16 *b, int c, uint16_t m)
{
    (void)x, (void)b, (void)c;
    return m & (uint16_t)-m;
}

B16_HOOK int srch_take(b16_ctx *x, b16_v16 *b, int c, uint16_t d)
{
    memcpy((uint16_t *)b + c, &d, sizeof d);
    x->state = prop(b, c, x->C);
    return x->state != B16_DEAD;
}

/* Digit d leaves cell c (the alternative below a guess), then propagation. @return 0 on a
 * contradiction. */
B16_HOOK int srch_drop(b16_ctx *x, b16_v16 *b, int c, uint16_t d)
{
    const uint16_t m = srch_cell(x, b, c) & (uint16_t)~d;
    memcpy((uint16_t *)b + c, &m, sizeof m);
    x->state = m ? prop(b, c, x->C) : B16_DEAD;
    return x->state != B16_DEAD;
}

/* The board of stack level depth: B16_ROWS rows each. */
B16_HOOK b16_v16 *srch_at(b16_ctx *x, size_t depth)
{
    return x->k->stack + depth * B16_ROWS;
}

/* Copies level depth's board to the level above (the stack has room for the deepest). */
B16_HOOK b16_v16 *srch_push(b16_ctx *x, size_t depth)
{
    b16_v16 *b = srch_at(x, depth);
    memcpy(b + B16_ROWS, b, B16_ROWS * sizeof *b);
    return b + B16_ROWS;
}

/* A solved board's 256 digits. */
B16_HOOK void srch_solution(b16_ctx *x, const b16_v16 *b, uint8_t *out)
{
    srch_cells_digits(x, b, B16_ROWS * B16_ROWS, out);
}

/* The stamp's entry (sb_box16_fn's contract): the root board (cand) propagated, then
 * search.h's geometry entry inlined once per box width, so every loop bound is a constant. */
int B16_SEARCH(struct sb_box16 *k, const uint16_t *cand, uint64_t limit, sb_gsolution_fn fn,
               void *user, sb_gresult *res, uint8_t *first, const sb_glimit *lim)
{
    memcpy(k->stack, cand, 256 * sizeof *cand);
    b16_ctx x = {.k = k, .state = prop(k->stack, -1, k->C)};
    const int ok = x.state != B16_DEAD;
    const srch_space sp = {k->ncells, k->bcell, k->bdigit, k->sol, &k->poll_at, lim};
    switch (k->C) {
    case 2:
        x.C = 2;
        return srch_dfs_each(&x, ok, limit, &sp, fn, user, res, first, 0);
    case 4:
        x.C = 4;
        return srch_dfs_each(&x, ok, limit, &sp, fn, user, res, first, 0);
    default:
        x.C = 8;
        return srch_dfs_each(&x, ok, limit, &sp, fn, user, res, first, 0);
    }
}
