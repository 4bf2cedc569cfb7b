/*
 * naive.c — a solver plug-in written plainly: recursive backtracking over candidate masks,
 * branching on the blank cell with the fewest candidates. It solves any grid of up to 32
 * digits whose houses the harness gives (9x9, 16x16, jigsaw, ...), so it is also the plug-in
 * the tests cross-check on every geometry.
 *
 *   cc -O2 -fPIC -shared $(pkg-config --cflags sudokubench) naive.c -o naive.so
 *   sudokubench bench --plugin ./naive.so --pipelines fast,naive FILE
 *
 * A guess here is a digit tried in a cell that had two or more candidates.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sudokubench_plugin.h>

typedef struct naive {
    uint32_t cells, digits;
    uint32_t *peer_n;   /* how many peers each cell has (jigsaw cells differ) */
    uint32_t maxp;      /* room per cell in peer */
    uint16_t *peer;     /* the peers of cell c: peer[c * maxp ..], peer_n[c] of them */
    uint8_t *grid;      /* the board being filled */
    uint8_t *first;     /* the first solution found */
    uint64_t count, limit, guesses, max_guesses;
    const volatile int *stop;
    int halt;           /* a negative SB_PLUGIN_* code once the search must end */
} naive;

static int accepts(const sb_plugin_geometry *g)
{
    return g->digits >= 1 && g->digits <= 32;
}

static void destroy(void *state)
{
    naive *s = state;
    if (!s)
        return;
    free(s->peer_n);
    free(s->peer);
    free(s->grid);
    free(s->first);
    free(s);
}

/* Adds b to a's peer list unless it is a itself or there already. */
static void add_peer(naive *s, uint32_t a, uint32_t b)
{
    uint16_t *p = s->peer + (size_t)a * s->maxp;
    if (a == b)
        return;
    for (uint32_t i = 0; i < s->peer_n[a]; i++)
        if (p[i] == b)
            return;
    p[s->peer_n[a]++] = (uint16_t)b;
}

static void *create(const sb_plugin_geometry *g)
{
    naive *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cells = g->cells;
    s->digits = g->digits;
    /* a cell lies in at most every house; each gives at most digits - 1 peers */
    s->maxp = g->houses * (g->digits - 1) < g->cells ? g->houses * (g->digits - 1) : g->cells;
    s->peer_n = calloc(g->cells, sizeof *s->peer_n);
    s->peer = malloc((size_t)g->cells * s->maxp * sizeof *s->peer);
    s->grid = malloc(g->cells);
    s->first = malloc(g->cells);
    if (!s->peer_n || !s->peer || !s->grid || !s->first) {
        destroy(s);
        return NULL;
    }
    for (uint32_t h = 0; h < g->houses; h++) {
        const uint16_t *hc = g->house_cells + (size_t)h * g->digits;
        for (uint32_t i = 0; i < g->digits; i++)
            for (uint32_t j = 0; j < g->digits; j++)
                add_peer(s, hc[i], hc[j]);
    }
    return s;
}

/* The digits cell c may take (bit d-1 for digit d). */
static uint32_t candidates(const naive *s, uint32_t c)
{
    uint32_t used = 0;
    const uint16_t *p = s->peer + (size_t)c * s->maxp;
    for (uint32_t i = 0; i < s->peer_n[c]; i++)
        if (s->grid[p[i]])
            used |= 1u << (s->grid[p[i]] - 1);
    const uint32_t all = s->digits == 32 ? 0xFFFFFFFFu : (1u << s->digits) - 1;
    return all & ~used;
}

/* Fills the blanks; stops once limit solutions are counted or halt is set. */
static void search(naive *s)
{
    if (s->stop && *s->stop)
        s->halt = SB_PLUGIN_STOPPED;
    if (s->halt || (s->limit && s->count >= s->limit))
        return;
    uint32_t best = s->cells, best_n = 64, best_mask = 0;
    for (uint32_t c = 0; c < s->cells; c++) {
        if (s->grid[c])
            continue;
        const uint32_t m = candidates(s, c);
        const uint32_t n = (uint32_t)__builtin_popcount(m);
        if (n < best_n) {
            best = c, best_n = n, best_mask = m;
            if (n <= 1)
                break;
        }
    }
    if (best == s->cells) { /* no blank left: a solution */
        if (s->count++ == 0)
            memcpy(s->first, s->grid, s->cells);
        return;
    }
    for (uint32_t m = best_mask; m; m &= m - 1) {
        if (best_n > 1 && ++s->guesses > s->max_guesses) {
            s->halt = SB_PLUGIN_BUDGET;
            s->guesses = s->max_guesses;
            return;
        }
        s->grid[best] = (uint8_t)(__builtin_ctz(m) + 1);
        search(s);
        if (s->halt || (s->limit && s->count >= s->limit))
            break;
    }
    s->grid[best] = 0;
}

static int64_t solve(void *state, sb_plugin_call *call)
{
    naive *s = state;
    memcpy(s->grid, call->cells, s->cells);
    s->count = s->guesses = 0;
    s->limit = call->limit;
    s->max_guesses = call->max_guesses;
    s->stop = call->stop;
    s->halt = 0;
    /* givens that clash have no solution; the search below only checks blanks */
    for (uint32_t c = 0; c < s->cells; c++) {
        const uint8_t d = s->grid[c];
        if (d) {
            s->grid[c] = 0;
            const int ok = d <= s->digits && (candidates(s, c) >> (d - 1) & 1);
            s->grid[c] = d;
            if (!ok)
                return 0;
        }
    }
    search(s);
    call->guesses = s->guesses;
    if (s->halt)
        return s->halt;
    if (s->count && call->solution) /* NULL: the caller wants the count alone */
        memcpy(call->solution, s->first, s->cells);
    return (int64_t)s->count;
}

SB_PLUGIN_EXPORT const sb_plugin_solver *sb_plugin_entry(void)
{
    static const sb_plugin_solver me = {
        .abi = SB_PLUGIN_ABI,
        .name = "naive",
        .about = "plain backtracking on the fewest-candidate cell (examples/plugins/naive.c)",
        .accepts = accepts,
        .create = create,
        .destroy = destroy,
        .solve = solve,
    };
    return &me;
}
