/*
 * reference.c — the tests' independent brute-force Sudoku reference (see reference.h).
 *
 * Written for obviousness, not speed: a 9x9 int array, digits checked by scanning the row,
 * the column and the box, and a recursive search that branches on the blank cell with the
 * fewest legal digits (found by naive counting). No part of libsudokubench is used.
 */
#include "reference.h"

#include <string.h>

/* ---- PRNG --------------------------------------------------------------------------------- */

void ref_rng_seed(ref_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t ref_rng_next(ref_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int ref_rng_below(ref_rng *r, int n)
{
    /* Rejection sampling keeps it exactly uniform; n is tiny so the loop rarely repeats. */
    uint64_t un = (uint64_t)n;
    uint64_t bound = UINT64_MAX - UINT64_MAX % un;
    uint64_t x;
    do {
        x = ref_rng_next(r);
    } while (x >= bound);
    return (int)(x % un);
}

void ref_shuffle(ref_rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = ref_rng_below(r, i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ---- rules -------------------------------------------------------------------------------- */

typedef int board[9][9];

static void to_board(const uint8_t cells[81], board g)
{
    for (int i = 0; i < 81; i++)
        g[i / 9][i % 9] = cells[i];
}

/* 1 if d appears in row r, column c or the box of (r, c), ignoring (r, c) itself. */
static int seen(board g, int r, int c, int d)
{
    for (int k = 0; k < 9; k++) {
        if (k != c && g[r][k] == d)
            return 1;
        if (k != r && g[k][c] == d)
            return 1;
    }
    int br = r - r % 3, bc = c - c % 3;
    for (int i = br; i < br + 3; i++)
        for (int j = bc; j < bc + 3; j++)
            if ((i != r || j != c) && g[i][j] == d)
                return 1;
    return 0;
}

int ref_digit_fits(const uint8_t cells[81], int cell, int digit)
{
    board g;
    to_board(cells, g);
    return !seen(g, cell / 9, cell % 9, digit);
}

int ref_has_conflict(const uint8_t cells[81])
{
    board g;
    to_board(cells, g);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            if (g[r][c] != 0 && seen(g, r, c, g[r][c]))
                return 1;
    return 0;
}

int ref_is_valid_solution(const uint8_t puzzle[81], const uint8_t sol[81])
{
    /* Every cell a digit, every given kept. */
    for (int i = 0; i < 81; i++) {
        if (sol[i] < 1 || sol[i] > 9)
            return 0;
        if (puzzle[i] != 0 && puzzle[i] != sol[i])
            return 0;
    }
    /* Every row, column and box holds each of 1..9 (nine cells, no repeats => all nine). */
    for (int u = 0; u < 9; u++) {
        int row[10] = {0}, col[10] = {0}, box[10] = {0};
        for (int k = 0; k < 9; k++) {
            int rc = sol[9 * u + k];
            int cc = sol[9 * k + u];
            int bx = sol[9 * (3 * (u / 3) + k / 3) + 3 * (u % 3) + k % 3];
            if (row[rc]++ || col[cc]++ || box[bx]++)
                return 0;
        }
    }
    return 1;
}

/* ---- search ------------------------------------------------------------------------------- */

typedef struct search {
    board g;
    int limit;           /* 0 = count all */
    int found;
    int have_first;
    uint8_t first[81];
    ref_rng *rng;        /* non-NULL: try digits in random order (grid generation) */
    const uint16_t *allow; /* non-NULL: cell i may only hold the digits d with bit d-1 of
                              allow[i] set (ref_count_marks) */
} search;

/* Marks in used[1..9] the digits present in row r, column c and the box of (r, c). */
static void used_digits(board g, int r, int c, int used[10])
{
    memset(used, 0, 10 * sizeof used[0]);
    for (int k = 0; k < 9; k++) {
        used[g[r][k]] = 1;
        used[g[k][c]] = 1;
    }
    int br = r - r % 3, bc = c - c % 3;
    for (int i = br; i < br + 3; i++)
        for (int j = bc; j < bc + 3; j++)
            used[g[i][j]] = 1;
}

/* Finds the blank cell with the fewest legal digits. Returns 0 when the grid is full,
 * 1 with (*best_r, *best_c) and legal[] filled otherwise (possibly with no legal digit). */
static int pick_cell(search *s, int *best_r, int *best_c, int legal[10], int *nlegal)
{
    int best = 10;
    int any = 0;
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            if (s->g[r][c] != 0)
                continue;
            int used[10];
            used_digits(s->g, r, c, used);
            for (int d = 1; d <= 9 && s->allow; d++)
                used[d] |= !(s->allow[9 * r + c] >> (d - 1) & 1);
            int n = 0;
            for (int d = 1; d <= 9; d++)
                n += !used[d];
            if (!any || n < best) {
                any = 1;
                best = n;
                *best_r = r;
                *best_c = c;
                for (int d = 1; d <= 9; d++)
                    legal[d] = !used[d];
                if (n <= 1)
                    goto done;
            }
        }
    }
done:
    *nlegal = best;
    return any;
}

static int done(const search *s)
{
    return s->limit > 0 && s->found >= s->limit;
}

static void solve_rec(search *s)
{
    int r = 0, c = 0, legal[10], n = 0;
    if (!pick_cell(s, &r, &c, legal, &n)) {
        if (!s->have_first) {
            for (int i = 0; i < 81; i++)
                s->first[i] = (uint8_t)s->g[i / 9][i % 9];
            s->have_first = 1;
        }
        s->found++;
        return;
    }
    if (n == 0)
        return;
    int order[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    if (s->rng)
        ref_shuffle(s->rng, order, 9);
    for (int k = 0; k < 9 && !done(s); k++) {
        int d = order[k];
        if (!legal[d])
            continue;
        s->g[r][c] = d;
        solve_rec(s);
        s->g[r][c] = 0;
    }
}

int ref_count(const uint8_t cells[81], int limit, uint8_t first_solution[81])
{
    search s;
    memset(&s, 0, sizeof s);
    s.limit = limit;
    if (first_solution)
        memset(first_solution, 0, 81);
    for (int i = 0; i < 81; i++)
        if (cells[i] > 9)
            return 0;
    if (ref_has_conflict(cells))
        return 0;
    to_board(cells, s.g);
    solve_rec(&s);
    if (first_solution && s.have_first)
        memcpy(first_solution, s.first, 81);
    return s.found;
}

/* ---- generators --------------------------------------------------------------------------- */

int ref_count_marks(const uint16_t cand[81], int limit, uint8_t first_solution[81])
{
    search s;
    memset(&s, 0, sizeof s);
    s.limit = limit;
    s.allow = cand;
    if (first_solution)
        memset(first_solution, 0, 81);
    solve_rec(&s); /* an empty board: every cell is searched within its candidates */
    if (first_solution && s.have_first)
        memcpy(first_solution, s.first, 81);
    return s.found;
}

void ref_random_full_grid(ref_rng *r, uint8_t out[81])
{
    search s;
    memset(&s, 0, sizeof s);
    s.limit = 1;
    s.rng = r;
    solve_rec(&s); /* the empty grid always has a solution */
    memcpy(out, s.first, 81);
}

void ref_random_puzzle(ref_rng *r, const uint8_t full[81], int clues, uint8_t out[81])
{
    int order[81];
    for (int i = 0; i < 81; i++)
        order[i] = i;
    ref_shuffle(r, order, 81);
    memset(out, 0, 81);
    for (int i = 0; i < clues && i < 81; i++)
        out[order[i]] = full[order[i]];
}

int ref_unique_puzzle(ref_rng *r, const uint8_t full[81], int target, uint8_t out[81])
{
    int order[81];
    int clues = 81;
    for (int i = 0; i < 81; i++)
        order[i] = i;
    ref_shuffle(r, order, 81);
    memcpy(out, full, 81);
    for (int i = 0; i < 81 && clues > target; i++) {
        int cell = order[i];
        uint8_t keep = out[cell];
        out[cell] = 0;
        if (ref_count(out, 2, NULL) == 1)
            clues--;
        else
            out[cell] = keep;
    }
    return clues;
}

int ref_clues(const uint8_t cells[81])
{
    int n = 0;
    for (int i = 0; i < 81; i++)
        n += cells[i] != 0;
    return n;
}

int ref_naked_singles(const uint8_t p[81], uint8_t out[81])
{
    memcpy(out, p, 81);
    for (int progress = 1; progress;) {
        progress = 0;
        for (int c = 0; c < 81; c++) {
            if (out[c])
                continue;
            int n = 0, last = 0;
            for (int d = 1; d <= 9; d++)
                if (ref_digit_fits(out, c, d)) {
                    n++;
                    last = d;
                }
            if (n == 1) {
                out[c] = (uint8_t)last;
                progress = 1;
            }
        }
    }
    return ref_clues(out) == 81;
}

/* ---- geometry ------------------------------------------------------------------------------ */

int ref_symmetry_image(int sym, int r, int c)
{
    switch (sym) {
    case 1: return 9 * (8 - r) + (8 - c);
    case 2: return 9 * c + (8 - r);
    case 3: return 9 * r + (8 - c);
    case 4: return 9 * c + r;
    default: return 9 * r + c;
    }
}

void ref_sudoku_houses(int houses[27 * 9])
{
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            houses[i * 9 + j] = 9 * i + j;
            houses[(9 + i) * 9 + j] = 9 * j + i;
            houses[(18 + i) * 9 + j] = 9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3;
        }
}
