/*
 * xwing.c — a technique plug-in written plainly: X-wing. When a digit's places in two rows
 * lie in the same two columns, the digit goes in those columns at those rows, so it leaves
 * the two columns' other cells; the same with rows and columns swapped. It works on any grid
 * whose first houses are its rows and then its columns (9x9, 16x16, jigsaw, ...).
 *
 *   cc -O2 -fPIC -shared $(pkg-config --cflags sudokubench) xwing.c -o xwing.so
 *   sudokubench bench --plugin ./xwing.so FILE                # rows fast and fast+xwing
 *   sudokubench solve --plugin ./xwing.so -s restart:ns,hs,lc,xwing FILE
 *
 * All patterns are found on the board as it was given and their eliminations land together,
 * as the built-in "xw" does, so "restart:ns,hs,lc,xwing" makes the same eliminations and
 * guesses as "restart:ns,hs,lc,xw" (the tests hold it to that).
 */
#include <stdint.h>
#include <stdlib.h>

#include <sudokubench_plugin.h>

typedef struct xwing {
    uint32_t n;        /* digits, also cells per row */
    uint64_t *places;  /* scratch: per line, the positions of one digit along it */
} xwing;

/* 1 when the houses start with the n rows, then the n columns, of an n x n grid. */
static int accepts(const sb_plugin_geometry *g)
{
    const uint32_t n = g->digits;
    if (n < 2 || n > 64 || g->cells != n * n || g->houses < 2 * n)
        return 0;
    for (uint32_t h = 0; h < n; h++)
        for (uint32_t i = 0; i < n; i++)
            if (g->house_cells[h * n + i] != h * n + i ||
                g->house_cells[(n + h) * n + i] != i * n + h)
                return 0;
    return 1;
}

static void *create(const sb_plugin_geometry *g)
{
    xwing *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->n = g->digits;
    s->places = malloc(g->digits * sizeof *s->places);
    if (!s->places) {
        free(s);
        return NULL;
    }
    return s;
}

static void destroy(void *state)
{
    xwing *s = state;
    free(s->places);
    free(s);
}

/* Cell at position i of line l: rows when cols is 0, columns when it is 1. */
static uint32_t cell_at(uint32_t n, int cols, uint32_t l, uint32_t i)
{
    return cols ? i * n + l : l * n + i;
}

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* X-wings of digit bit d with base lines of one family (cols 0: rows, 1: columns). */
static int64_t find(xwing *s, int cols, uint64_t d, const uint64_t *cand, uint64_t *eliminate)
{
    const uint32_t n = s->n;
    int64_t found = 0;
    for (uint32_t l = 0; l < n; l++) {
        uint64_t at = 0;
        for (uint32_t i = 0; i < n; i++)
            if (cand[cell_at(n, cols, l, i)] & d)
                at |= UINT64_C(1) << i;
        s->places[l] = at;
    }
    for (uint32_t a = 0; a < n; a++) {
        if (popcount(s->places[a]) != 2)
            continue;
        for (uint32_t b = a + 1; b < n; b++) {
            if (s->places[b] != s->places[a])
                continue;
            /* The two cover lines (the crossing family) lose d everywhere else. */
            int any = 0;
            for (uint64_t cover = s->places[a]; cover; cover &= cover - 1) {
                const uint32_t i = (uint32_t)__builtin_ctzll(cover);
                for (uint32_t l = 0; l < n; l++) {
                    const uint32_t c = cell_at(n, cols, l, i);
                    if (l != a && l != b && (cand[c] & d)) {
                        eliminate[c] |= d;
                        any = 1;
                    }
                }
            }
            found += any;
        }
    }
    return found;
}

static int64_t step(void *state, const uint64_t *cand, uint64_t *eliminate)
{
    xwing *s = state;
    int64_t found = 0;
    for (uint32_t d = 0; d < s->n; d++)
        for (int cols = 0; cols < 2; cols++)
            found += find(s, cols, UINT64_C(1) << d, cand, eliminate);
    return found;
}

SB_PLUGIN_EXPORT const sb_plugin_technique *sb_plugin_technique_entry(void)
{
    static const sb_plugin_technique me = {
        .abi = SB_PLUGIN_ABI,
        .name = "xwing",
        .about = "X-wing written plainly: two lines whose digit lies in the same two crossings",
        .accepts = accepts,
        .create = create,
        .destroy = destroy,
        .step = step};
    return &me;
}
