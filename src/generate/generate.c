/*
 * generate.c — the puzzle generator: random full grids dug down to puzzles with exactly one
 * solution, optionally minimal, symmetric, bounded in clues or in guesses.
 *
 * Every puzzle is a pure function of (seed, index, options): its random stream is
 * sb_rng stream `index` of the seed, so any thread may make any index. The uniqueness oracle
 * is the library's own solver (limit 2); see the method note at sb_gen_options in the
 * public header. Clues are removed one symmetry orbit at a time (1, 2 or 4 cells), several
 * orbits per check while checks succeed, so most puzzles take a dozen or two checks.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    ORBIT_MAX = 4,    /* cells in the largest orbit (rot90) */
    BANDS = 3,        /* bands (and stacks) of the grid */
    UA_MAX = 198      /* room for the unavoidable sets find_unavoidable looks for: at most
                       * 4 per pair of digits (cycles of 2 to 8 rows) and 3 per pair of lines
                       * in a band or stack (cycles of 3 to 8 cells a line) */
};
enum { UA_WORDS = (UA_MAX + 63) / 64 }; /* 64-bit words of a set of unavoidable sets */

/* Symmetry names, indexed by sb_symmetry. */
static const char *const symmetry_names[SB_SYM_COUNT] = {"none", "rot180", "rot90", "mirror",
                                                         "diagonal"};

struct sb_generator {
    sb_gen_options opt;                 /* the options it was made with */
    sb_solver *check;                   /* "fast" depth-first: uniqueness checks (a drop
                                         * search, or a count to 2) and the guess count */
    int norbits;                        /* orbits of the symmetry */
    uint8_t orbit[SB_CELLS][ORBIT_MAX]; /* the cells of each orbit */
    uint8_t orbit_size[SB_CELLS];       /* cells in each orbit (1, 2 or 4) */
    uint8_t nth[1u << SB_DIGITS][SB_DIGITS]; /* nth[m][k]: the index of the k-th set bit of m,
                                              * so a random candidate is one read */
};

/* A puzzle being dug, with the digit sets that let cheap proofs decide most removals
 * without the solver. House h is row h (0..8), column h - 9 or box h - 18, as in
 * sb_peer_tables. A band word holds the 27 cells of a band: bit 9*i + j is row 3k + i,
 * column j of band k. */
typedef struct dig_state {
    sb_grid puzzle;                /* the clues so far (0 = blank) */
    const sb_grid *solution;       /* the full grid being dug */
    uint16_t house[SB_HOUSES];     /* digits given in each house (bit d-1 for digit d) */
    uint32_t where[SB_DIGITS + 1]; /* houses holding a clue of each digit (bit h for house h):
                                    * house[] transposed, so that the cells a digit's clues
                                    * see are a few table reads (single_forced) */
    uint32_t blank[BANDS];         /* the blank cells, one band word a band */
    uint16_t blank_col[SB_DIGITS]; /* the same by column (bit r: row r), so that a column's
                                    * open cells are one word (single_forced) */
    int nua;                       /* unavoidable sets found in the solution */
    uint32_t ua[UA_MAX][BANDS];    /* each as band words like blank[]; a puzzle without a
                                    * clue in one of them has several solutions */
    uint64_t ua_at[SB_CELLS][UA_WORDS]; /* the sets holding each cell (bit i: ua[i]), so a
                                         * removal looks only at the sets it can empty */
} dig_state;

const char *sb_symmetry_name(int sym)
{
    return sym >= 0 && sym < SB_SYM_COUNT ? symmetry_names[sym] : "?";
}

int sb_symmetry_parse(const char *name)
{
    for (int s = 0; name && s < SB_SYM_COUNT; s++)
        if (!strcmp(name, symmetry_names[s]))
            return s;
    return SB_ERR_ARG;
}

void sb_gen_options_default(sb_gen_options *opt)
{
    if (!opt)
        return;
    opt->seed = 0;
    opt->minimal = 0;
    opt->max_clues = SB_CELLS;
    opt->symmetry = SB_SYM_NONE;
    opt->min_guesses = 0;
    opt->max_guesses = UINT64_MAX;
    opt->max_attempts = 100000;
    opt->simd = SB_SIMD_AUTO;
}

int sb_symmetry_image(int sym, int n, int cell)
{
    if (n < 1 || n > SB_GEO_MAX_DIGITS || cell < 0 || cell >= n * n)
        return SB_ERR_ARG;
    const int r = cell / n, c = cell % n, last = n - 1;
    switch (sym) {
    case SB_SYM_ROT180: return n * (last - r) + (last - c);
    case SB_SYM_ROT90: return n * c + (last - r);
    case SB_SYM_MIRROR: return n * r + (last - c);
    case SB_SYM_DIAGONAL: return n * c + r;
    default: return cell;
    }
}

/* Splits the 81 cells into the orbits of the generator's symmetry. */
static void build_orbits(sb_generator *g)
{
    uint8_t seen[SB_CELLS] = {0};
    g->norbits = 0;
    for (int cell = 0; cell < SB_CELLS; cell++) {
        if (seen[cell])
            continue;
        const int o = g->norbits++;
        int size = 0;
        for (int x = cell; !seen[x]; x = sb_symmetry_image(g->opt.symmetry, SB_DIGITS, x)) {
            seen[x] = 1;
            g->orbit[o][size++] = (uint8_t)x;
        }
        g->orbit_size[o] = (uint8_t)size;
    }
}

int sb_generator_new(sb_generator **out, const sb_gen_options *opt)
{
    if (!out || !opt)
        return SB_ERR_ARG;
    *out = NULL;
    if (opt->max_clues < SB_MIN_CLUES || opt->max_clues > SB_CELLS ||
        opt->min_guesses > opt->max_guesses || opt->max_attempts == 0 || opt->symmetry < 0 ||
        opt->symmetry >= SB_SYM_COUNT)
        return SB_ERR_ARG;
    sb_generator *g = calloc(1, sizeof *g);
    if (!g)
        return SB_ERR_NOMEM;
    g->opt = *opt;
    sb_options so;
    sb_options_default(&so); /* limit 2 on pipeline 0: the guess count the options promise */
    so.simd = opt->simd;
    const int st = sb_solver_new(&g->check, &so);
    if (st != SB_OK) {
        sb_generator_free(g);
        return st;
    }
    build_orbits(g);
    for (unsigned m = 0; m < 1u << SB_DIGITS; m++)
        for (unsigned b = 0, k = 0; b < SB_DIGITS; b++)
            if (m >> b & 1)
                g->nth[m][k++] = (uint8_t)b;
    *out = g;
    return SB_OK;
}

void sb_generator_free(sb_generator *g)
{
    if (!g)
        return;
    sb_solver_free(g->check);
    free(g);
}

/* Where each cell lies: its band word (as dig_state's), its bit and the bits of its row and
 * box there, and its row, column and stack. */
typedef struct cell_place {
    uint32_t row, box;              /* its row's and box's cells in its band word */
    uint8_t band, bit, r, j, stack; /* band, bit in it; row, column, stack (column / 3) */
} cell_place;
#define PLACE(c)                                                                               \
    {0x1FFu << 9 * ((c) / 9 % 3), 0x1C0E07u << 3 * ((c) % 9 / 3), (c) / 27, (c) % 27,        \
     (c) / 9, (c) % 9, (c) % 9 / 3}
#define PLACE9(r)                                                                              \
    PLACE(9 * (r)), PLACE(9 * (r) + 1), PLACE(9 * (r) + 2), PLACE(9 * (r) + 3),                \
        PLACE(9 * (r) + 4), PLACE(9 * (r) + 5), PLACE(9 * (r) + 6), PLACE(9 * (r) + 7),        \
        PLACE(9 * (r) + 8)
static const cell_place places[SB_CELLS] = {PLACE9(0), PLACE9(1), PLACE9(2), PLACE9(3), PLACE9(4),
                                            PLACE9(5), PLACE9(6), PLACE9(7), PLACE9(8)};
#undef PLACE9
#undef PLACE

/* Shuffles n bytes uniformly (Fisher-Yates). */
static void shuffle(sb_rng *rng, uint8_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)sb_rng_draw_below(rng, (uint64_t)i + 1);
        const uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Makes a random full grid by a randomized search of its own: cells in row-major order, each
 * trying its remaining candidates in random order, stepping back when one has none. Not the
 * library solver: which grid a seed gives must not change when the solver's search order
 * does, or corpora made from a seed would not be reproducible across versions. The search
 * keeps each cell's digit as a bit and writes the grid once at the end: every step is a few
 * table reads, one draw and three mask updates. */
static void random_solution(const sb_generator *g, sb_rng *rng, sb_grid *out)
{
    uint16_t used[SB_HOUSES] = {0}; /* digits placed in each house */
    uint16_t left[SB_CELLS];        /* candidates of each cell not tried yet */
    uint16_t bit[SB_CELLS];         /* the digit placed in each cell, as a bit */
    const uint8_t(*houses)[3] = sb_peer_tables_data.cell_houses;
    int cell = 0;
    left[0] = SB_ALL_DIGITS;
    for (;;) {
        const uint16_t bits = left[cell];
        if (!bits) { /* a dead end: back to the cell before, its digit taken out again */
            const uint8_t *h = houses[--cell]; /* cell 0 never runs dry: every first digit
                                                * completes to a grid */
            used[h[0]] ^= bit[cell], used[h[1]] ^= bit[cell], used[h[2]] ^= bit[cell];
            continue;
        }
        /* The k-th candidate, k drawn: one table read (a loop of k steps mispredicted its
         * exit). */
        const uint64_t k = sb_rng_draw_below(rng, sb_popcount9[bits]);
        const uint16_t b = (uint16_t)(1u << g->nth[bits][k]);
        const uint8_t *h = houses[cell];
        left[cell] &= (uint16_t)~b;
        bit[cell] = b;
        used[h[0]] |= b, used[h[1]] |= b, used[h[2]] |= b;
        if (++cell == SB_CELLS)
            break;
        h = houses[cell];
        left[cell] = (uint16_t)(SB_ALL_DIGITS & ~(used[h[0]] | used[h[1]] | used[h[2]]));
    }
    for (int c = 0; c < SB_CELLS; c++)
        out->cell[c] = (uint8_t)(__builtin_ctz(bit[c]) + 1);
}

/* Makes cell a clue again (on != 0, the solution's digit) or a blank, keeping the digit
 * sets and counts in step. Written with masks, not branches on `on`: phase 1 of dig passes
 * it a coin toss (whether the cell was forced). Making a clue a clue (or a blank a blank)
 * again changes nothing. */
static void set_cell(dig_state *s, int cell, int on)
{
    const uint8_t *h = sb_peer_tables_data.cell_houses[cell];
    const cell_place *q = &places[cell];
    const int v = s->solution->cell[cell];
    const uint32_t keep = (uint32_t)0 - (on != 0); /* all ones when cell is a clue */
    const uint16_t bit = (uint16_t)(1u << (v - 1)), set = (uint16_t)(bit & keep);
    /* A grid has one cell of each digit in a house, so cell's houses hold a clue v exactly
     * while cell is one. */
    const uint32_t houses = sb_cell_house_bits[cell], bband = 1u << q->bit;
    s->puzzle.cell[cell] = (uint8_t)(v & keep);
    for (int i = 0; i < 3; i++)
        s->house[h[i]] = (uint16_t)((s->house[h[i]] & ~bit) | set);
    s->where[v] = (s->where[v] & ~houses) | (houses & keep);
    s->blank[q->band] = (s->blank[q->band] & ~bband) | (bband & ~keep);
    const uint16_t brow = (uint16_t)(1u << q->r);
    s->blank_col[q->j] = (uint16_t)((s->blank_col[q->j] & ~brow) | (brow & ~keep));
}

/* The state of the full grid: every cell a clue. */
static void dig_start(dig_state *s, const sb_grid *solution)
{
    s->puzzle = *solution;
    s->solution = solution;
    for (int h = 0; h < SB_HOUSES; h++)
        s->house[h] = SB_ALL_DIGITS;
    for (int d = 0; d <= SB_DIGITS; d++)
        s->where[d] = d ? (1u << SB_HOUSES) - 1 : 0;
    for (int k = 0; k < BANDS; k++)
        s->blank[k] = 0;
    memset(s->blank_col, 0, sizeof s->blank_col);
    s->nua = 0;
}

/* Adds the set in band words to s's unavoidable sets. */
static void ua_add(dig_state *s, const uint32_t set[BANDS])
{
    if (s->nua == UA_MAX)
        return;
    const int i = s->nua++;
    memcpy(s->ua[i], set, sizeof s->ua[0]);
    for (int k = 0; k < BANDS; k++)
        for (uint32_t w = set[k]; w; w &= w - 1)
            s->ua_at[27 * k + __builtin_ctz(w)][i / 64] |= 1ull << i % 64;
}

/* Adds the sets one permutation of nine positions yields: position p holds the cells bits[p]
 * of band word band[p] and leads to next[p]; each cycle of min_len to 8 positions whose
 * boxes[] XOR to 0 is a set (the cycle of all nine is left to surely_multiple). */
static void add_cycles(dig_state *s, const uint8_t next[SB_DIGITS], const uint8_t band[SB_DIGITS],
                       const uint32_t bits[SB_DIGITS], const uint16_t boxes[SB_DIGITS],
                       int min_len)
{
    unsigned seen = 0;
    for (int p0 = 0; p0 < SB_DIGITS; p0++) {
        if (seen >> p0 & 1)
            continue;
        uint32_t set[BANDS] = {0, 0, 0};
        unsigned box = 0;
        int len = 0;
        for (int p = p0; !(seen >> p & 1); p = next[p], len++) {
            seen |= 1u << p;
            set[band[p]] |= bits[p];
            box ^= boxes[p];
        }
        if (len >= min_len && len < SB_DIGITS && !box)
            ua_add(s, set);
    }
}

/* Finds two families of the solution's unavoidable sets: cell sets whose digits can be
 * permuted among themselves into another valid grid, so a puzzle with no clue among them has
 * a second solution. Together they settle half of minimal digging's failing checks with no
 * solver call (the first family 41%; the second takes a sixth off the failures it leaves).
 *
 * Two digits a and b: follow row r to the row whose a stands in the column of r's b. Each
 * cycle of rows holds its a and b cells in the same columns, so swapping a and b there keeps
 * rows and columns valid, and boxes too when the boxes of the cycle's a cells are those of
 * its b cells (a box holds one a and one b, so their XOR is 0).
 *
 * Two rows of one band (or two columns of one stack): follow column x to the column where
 * the first row holds the second row's digit of x. Over each cycle the two rows hold the same
 * digits, so swapping the rows' cells there keeps rows valid, and columns and boxes too
 * (each swap stays in one column and one box). Cycles of two cells are the rectangles the
 * two-digit family has already found. */
static void find_unavoidable(dig_state *s)
{
    const uint8_t *g = s->solution->cell;
    uint8_t col_of[SB_DIGITS + 1][SB_DIGITS]; /* col_of[d][r]: the column of d in row r */
    uint8_t row_of[SB_DIGITS + 1][SB_DIGITS]; /* row_of[d][c]: the row of d in column c */
    uint32_t bit_of[SB_DIGITS + 1][SB_DIGITS]; /* the band-word bit of d's cell in row r */
    uint16_t box_of[SB_DIGITS + 1][SB_DIGITS]; /* the box of d's cell in row r, as a bit */
    for (int c = 0; c < SB_CELLS; c++) {
        const int r = c / SB_DIGITS, col = c % SB_DIGITS;
        col_of[g[c]][r] = (uint8_t)col;
        row_of[g[c]][col] = (uint8_t)r;
        bit_of[g[c]][r] = 1u << places[c].bit;
        box_of[g[c]][r] = (uint16_t)(1u << (r / 3 * 3 + col / 3));
    }
    s->nua = 0;
    memset(s->ua_at, 0, sizeof s->ua_at);
    uint8_t next[SB_DIGITS], band[SB_DIGITS];
    uint32_t bits[SB_DIGITS];
    uint16_t boxes[SB_DIGITS];
    for (int a = 1; a <= SB_DIGITS; a++)
        for (int b = a + 1; b <= SB_DIGITS; b++) {
            for (int r = 0; r < SB_DIGITS; r++) {
                next[r] = row_of[a][col_of[b][r]];
                band[r] = (uint8_t)(r / 3);
                bits[r] = bit_of[a][r] | bit_of[b][r];
                boxes[r] = (uint16_t)(box_of[a][r] ^ box_of[b][r]);
            }
            add_cycles(s, next, band, bits, boxes, 2);
        }
    memset(boxes, 0, sizeof boxes);
    for (int line = 0; line < 2; line++) /* rows, then columns */
        for (int l1 = 0; l1 < SB_DIGITS; l1++)
            for (int l2 = l1 + 1; l2 < l1 / 3 * 3 + 3; l2++) {
                for (int x = 0; x < SB_DIGITS; x++) {
                    const int c1 = line ? SB_DIGITS * x + l1 : SB_DIGITS * l1 + x;
                    const int c2 = line ? SB_DIGITS * x + l2 : SB_DIGITS * l2 + x;
                    next[x] = line ? row_of[g[c2]][l1] : col_of[g[c2]][l1];
                    band[x] = places[c1].band;
                    bits[x] = 1u << places[c1].bit | 1u << places[c2].bit;
                }
                add_cycles(s, next, band, bits, boxes, 3);
            }
}

/* 1 when blanking the n cells left one of the solution's unavoidable sets through them
 * without a clue. */
static int ua_uncovered(const dig_state *s, const uint8_t *cells, int n)
{
    if (!s->nua)
        return 0;
    /* The puzzle before blanking the cells had one solution, so only a set holding one of
     * them can have lost its last clue. */
    for (int w = 0; w < UA_WORDS; w++) {
        uint64_t sets = 0;
        for (int j = 0; j < n; j++)
            sets |= s->ua_at[cells[j]][w];
        for (; sets; sets &= sets - 1) {
            const uint32_t *ua = s->ua[64 * w + __builtin_ctzll(sets)];
            if (!((ua[0] & ~s->blank[0]) | (ua[1] & ~s->blank[1]) | (ua[2] & ~s->blank[2])))
                return 1;
        }
    }
    return 0;
}

/* Digits given among the three houses of cell. */
static uint16_t seen_from(const dig_state *s, int cell)
{
    const uint8_t *h = sb_peer_tables_data.cell_houses[cell];
    return (uint16_t)(s->house[h[0]] | s->house[h[1]] | s->house[h[2]]);
}

/* Band words: the rows (bit i: row i of the band) and the boxes (bit j: box j of the band)
 * of a 3-bit set, filled with their cells. */
#define ROWS_OF(m)                                                                             \
    (((m) & 1 ? 0x00001FFu : 0) | ((m) & 2 ? 0x003FE00u : 0) | ((m) & 4 ? 0x7FC0000u : 0))
#define BOXES_OF(m)                                                                            \
    (((m) & 1 ? 0x01C0E07u : 0) | ((m) & 2 ? 0x0E07038u : 0) | ((m) & 4 ? 0x70381C0u : 0))
static const uint32_t rows_of[8] = {ROWS_OF(0), ROWS_OF(1), ROWS_OF(2), ROWS_OF(3),
                                    ROWS_OF(4), ROWS_OF(5), ROWS_OF(6), ROWS_OF(7)};
static const uint32_t boxes_of[8] = {BOXES_OF(0), BOXES_OF(1), BOXES_OF(2), BOXES_OF(3),
                                     BOXES_OF(4), BOXES_OF(5), BOXES_OF(6), BOXES_OF(7)};
#undef ROWS_OF
#undef BOXES_OF

/* The cells of band k in a row or a box of the houses w (bit h: house h, as in where[]). */
static inline uint32_t band_rows_boxes(uint32_t w, int k)
{
    return rows_of[w >> 3 * k & 7] | boxes_of[w >> (18 + 3 * k) & 7];
}

/* 1 when cell's solution digit follows from the other clues by one naked or hidden single,
 * looking at the clues only: cell counts as blank whether it is a clue or not, so that a
 * removal can be tried without making it. Every test is computed and the results ORed, with
 * no early exit: which one holds is a coin toss for the branch predictor, and each miss cost
 * more than the tests it skipped. Inlined into the walk, which reads the same cell's tables
 * to update the state (4% of default digging's instructions). */
static inline __attribute__((always_inline)) int single_forced(const dig_state *s, int cell)
{
    const cell_place *q = &places[cell];
    const int v = s->solution->cell[cell];
    /* Naked: the eight other digits are all seen. */
    const int naked = (seen_from(s, cell) | 1u << (v - 1)) == SB_ALL_DIGITS;
    /* Hidden: no other blank of one of cell's houses can take v, i.e. every other blank there
     * is covered (a house of its holds a clue v). The covered cells of a band are the rows
     * and boxes of the band holding a v, and the columns holding one. A grid has one v in
     * each house, so cell's houses hold a clue v only when cell is one: left out. */
    const uint32_t w = s->where[v] & ~sb_cell_house_bits[cell];
    const uint32_t cols = (w >> 9 & 0x1FFu) * 0x40201u;
    const int k = q->band;
    /* The blanks of cell's band that can take v, cell itself left out. */
    const uint32_t open = s->blank[k] & ~(band_rows_boxes(w, k) | cols | 1u << q->bit);
    /* The blanks of its column that can take v (bit r: row r): not in a row or a box of the
     * column's stack holding a v (the column itself holds none but cell), nor cell. The
     * stack's boxes are bits 18 + stack, +3, +6 of w, each spread over its three rows. */
    const uint32_t boxes = (w >> (18 + q->stack) & 0x49u) * 7u;
    const uint32_t col = s->blank_col[q->j] & ~(w | boxes | 1u << q->r) & 0x1FFu;
    return naked | !(open & q->row) | !(open & q->box) | !col;
}

/* For an orbit whose n cells (two or more) have just been blanked: 1 when singles on the
 * clues alone bring every one of them back (then the solutions are exactly those of the
 * puzzle before, so uniqueness is kept without a solver call), else 0. Leaves the cells
 * blank either way. */
static int orbit_forced(dig_state *s, const uint8_t *cells, int n)
{
    unsigned open = (1u << n) - 1, placed = 0;
    for (int progress = 1; open && progress;) {
        progress = 0;
        for (int i = 0; i < n; i++)
            if ((open >> i & 1) && single_forced(s, cells[i])) {
                set_cell(s, cells[i], 1);
                open &= ~(1u << i);
                placed |= 1u << i;
                progress = 1;
            }
    }
    for (int i = 0; i < n; i++)
        if (placed >> i & 1)
            set_cell(s, cells[i], 0);
    return open == 0;
}

/* 1 when the clue sets alone prove several solutions: two digits absent (swap them in any
 * solution), or two clue-free rows in one band or columns in one stack (swap those lines). */
static int surely_multiple(const dig_state *s)
{
    int absent = 0;
    for (int d = 1; d <= SB_DIGITS; d++)
        absent += s->where[d] == 0;
    if (absent >= 2)
        return 1;
    for (int b = 0; b < BANDS; b++) {
        const uint16_t *row = s->house + 3 * b, *col = s->house + SB_DIGITS + 3 * b;
        if (!row[0] + !row[1] + !row[2] >= 2 || !col[0] + !col[1] + !col[2] >= 2)
            return 1;
    }
    return 0;
}

/* Blanks (on = 0) or restores (on = 1) every cell of orbit o; returns its size. */
static int set_orbit(const sb_generator *g, dig_state *s, int o, int on)
{
    for (int j = 0; j < g->orbit_size[o]; j++)
        set_cell(s, g->orbit[o][j], on);
    return g->orbit_size[o];
}

/* Blanks orbit o when singles on the clues bring it back (orbit_forced), which keeps the
 * solutions. @return its size then, else 0 (it stays). */
static int orbit_remove(const sb_generator *g, dig_state *s, int o)
{
    const uint8_t *cells = g->orbit[o];
    const int n = g->orbit_size[o];
    if (n == 1) { /* one cell: one look, made before blanking it (single_forced) */
        const int forced = single_forced(s, cells[0]);
        set_cell(s, cells[0], !forced); /* no branch on a coin toss */
        return forced;
    }
    set_orbit(g, s, o, 0);
    if (orbit_forced(s, cells, n))
        return n;
    set_orbit(g, s, o, 1);
    return 0;
}

/* Whether s->puzzle, orbit o's cells just blanked, still has out->solution as its only
 * solution. One cell: any other solution differs from it there, so a search barred from its
 * digit in that cell must find none (sb_solve_drop to 1). Its tree is smaller than a count
 * to 2 of the puzzle, which finds the solution first and then goes on, and the drop helps
 * the root's propagation (generate --minimal: 15-17% fewer instructions, docs/performance.md).
 * Several cells: a count to 2, whose guesses go to *guesses (else *guesses is left). */
static int still_unique(const sb_generator *g, const dig_state *s, const sb_generated *out,
                        int o, uint64_t *guesses)
{
    sb_result res;
    res.count = 2; /* what an unexpected refusal says: not unique */
    if (g->orbit_size[o] == 1) {
        const int c = g->orbit[o][0];
        sb_solve_drop(g->check, &s->puzzle, c, (uint16_t)(1u << (out->solution.cell[c] - 1)),
                      1, &res);
        return res.count == 0;
    }
    sb_solve(g->check, &s->puzzle, &res);
    *guesses = res.guesses;
    return res.count == 1;
}

/* out->guesses, counted by a solve to 2 of out->puzzle when *known is 0 (a drop search left
 * it unknown), as sb_generated promises them. */
static uint64_t puzzle_guesses(const sb_generator *g, sb_generated *out, int *known)
{
    if (!*known) {
        sb_result res;
        sb_solve(g->check, &out->puzzle, &res);
        out->guesses = res.guesses;
        *known = 1;
    }
    return out->guesses;
}

/* Digs out->solution down to out->puzzle, one solution throughout. Phase 1 walks a random
 * orbit order and removes, free of charge, every orbit that singles on the clues bring
 * back. Phase 2 tries the rest, in the same order, one solver check each (batching checks
 * does not pay here: what phase 1 leaves mostly fails). Returns 1 when the result has at
 * most max_clues clues and at least min_guesses guesses, 0 when it has not; *known is 0
 * when out->guesses is not counted yet (puzzle_guesses), which only a 0 leaves. */
static int dig(sb_generator *g, sb_rng *rng, sb_generated *out, int *known)
{
    const int n = g->norbits, max_clues = g->opt.max_clues;
    uint8_t order[SB_CELLS], pending[SB_CELLS];
    for (int i = 0; i < n; i++)
        order[i] = (uint8_t)i;
    shuffle(rng, order, n);
    dig_state s;
    dig_start(&s, &out->solution);
    out->clues = SB_CELLS;
    int npending = 0;
    for (int i = 0; i < n; i++) {
        const int cells = orbit_remove(g, &s, order[i]);
        out->clues -= cells;
        pending[npending] = order[i];
        npending += !cells;
    }
    out->puzzle = s.puzzle;
    /* Phase 1's puzzle takes no guess: each orbit left when singles on the clues then left
     * brought it back, so singles on its clues bring the orbits back in reverse order, and
     * the check solver's settle (naked and hidden singles among its rules) solves it at the
     * root. Plain digging whose first check fails (three puzzles in ten) needs no solve to
     * say so. */
    out->guesses = 0;
    *known = 1; /* out->guesses is out->puzzle's (0 after a drop search) */
    int kept = 0;
    /* The sets pay off only when digging goes on past a failed check; plain default digging
     * stops at its first one. */
    s.nua = 0;
    if (g->opt.minimal || max_clues < SB_CELLS || g->opt.min_guesses > 0)
        find_unavoidable(&s);
    for (int i = 0; i < npending; i++) {
        const int cells = set_orbit(g, &s, pending[i], 0);
        uint64_t guesses = 0;
        if (!surely_multiple(&s) && !ua_uncovered(&s, g->orbit[pending[i]], cells) &&
            still_unique(g, &s, out, pending[i], &guesses)) {
            out->clues -= cells;
            out->puzzle = s.puzzle;
            out->guesses = guesses;
            *known = cells > 1;
            continue;
        }
        set_orbit(g, &s, pending[i], 1);
        /* The orbit is necessary now and for good: removing more clues only adds
         * solutions, so its removal can never become safe again. */
        kept += cells;
        if (kept > max_clues)
            return 0;
        if (g->opt.minimal || out->clues > max_clues)
            continue;
        /* Default digging stops here, once the bounds are met: the first necessary orbit
         * marks the point where further clues cost a solver call each. */
        if (puzzle_guesses(g, out, known) >= g->opt.min_guesses)
            break;
    }
    return out->clues <= max_clues && puzzle_guesses(g, out, known) >= g->opt.min_guesses;
}

int sb_generate(sb_generator *g, uint64_t index, sb_generated *out)
{
    if (!g || !out)
        return SB_ERR_ARG;
    sb_rng rng;
    sb_rng_seed(&rng, g->opt.seed, index);
    int known = 1;
    for (uint64_t attempt = 1; attempt <= g->opt.max_attempts; attempt++) {
        random_solution(g, &rng, &out->solution);
        out->attempts = attempt;
        if (dig(g, &rng, out, &known) && out->guesses <= g->opt.max_guesses)
            return 1;
    }
    puzzle_guesses(g, out, &known); /* the last attempt's puzzle, its guesses counted */
    return 0;
}
