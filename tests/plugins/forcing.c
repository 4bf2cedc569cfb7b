/*
 * forcing.c — a technique plug-in the built-in rating ladder lacks, for the tests of
 * `rate --plugin` (tests/cli/rate_plugins.sh): singles forcing. For every open cell c and
 * candidate d of it, suppose c holds d and propagate naked singles (a cell left with one
 * digit removes it from its peers); when that empties a cell, no solution puts d in c, so d
 * leaves c. Each elimination is one pattern. Every supposition starts from the board as
 * given, so the eliminations land together, as a built-in whole-board technique's do.
 *
 * Sound on any board: a supposition that leads to an empty cell by forced steps is false in
 * every solution. It works on any geometry whose houses it is given (peers are the cells
 * sharing a house), and keeps no state between calls but its scratch.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sudokubench_plugin.h>

typedef struct forcing {
    uint32_t cells;
    uint32_t *peer_at;  /* cells + 1 offsets into peers: cell c's are peer_at[c] .. [c+1]-1 */
    uint32_t *peers;    /* every cell's peers, each once */
    uint64_t *work;     /* cells masks: one supposition's board */
    uint32_t *queue;    /* cells: singles waiting to leave their peers */
    uint8_t *queued;    /* cells flags */
} forcing;

/* Any grid of up to 64 digits: the peers come from the houses it is given. */
static int accepts(const sb_plugin_geometry *g)
{
    return g->digits >= 2 && g->digits <= 64;
}

static void destroy(void *state)
{
    forcing *s = state;
    if (!s)
        return;
    free(s->peer_at);
    free(s->peers);
    free(s->work);
    free(s->queue);
    free(s->queued);
    free(s);
}

/* Lists each cell's peers: the other cells of its houses, each once. @return 0, or -1 when
 * memory ran out. */
static int find_peers(forcing *s, const sb_plugin_geometry *g)
{
    const uint32_t n = g->digits, nc = g->cells;
    uint32_t *mark = malloc(nc * sizeof *mark); /* the last cell that counted each as a peer */
    size_t total = 0, cap = 0;
    if (!mark)
        return -1;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        for (uint32_t c = 0; c < nc; c++)
            mark[c] = UINT32_MAX;
        total = 0;
        for (uint32_t c = 0; c < nc; c++) {
            if (pass)
                s->peer_at[c] = (uint32_t)total;
            for (uint32_t h = 0; h < g->houses; h++) {
                const uint16_t *house = g->house_cells + (size_t)h * n;
                int in = 0;
                for (uint32_t i = 0; i < n; i++)
                    in |= house[i] == c;
                for (uint32_t i = 0; in && i < n; i++)
                    if (house[i] != c && mark[house[i]] != c) {
                        mark[house[i]] = c;
                        if (pass)
                            s->peers[total] = house[i];
                        total++;
                    }
            }
        }
        if (!pass) {
            cap = total;
            s->peers = malloc((cap ? cap : 1) * sizeof *s->peers);
            if (!s->peers)
                break;
        }
    }
    if (s->peers)
        s->peer_at[nc] = (uint32_t)total;
    free(mark);
    return s->peers ? 0 : -1;
}

static void *create(const sb_plugin_geometry *g)
{
    forcing *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cells = g->cells;
    s->peer_at = malloc((g->cells + 1) * sizeof *s->peer_at);
    s->work = malloc(g->cells * sizeof *s->work);
    s->queue = malloc(g->cells * sizeof *s->queue);
    s->queued = malloc(g->cells);
    if (!s->peer_at || !s->work || !s->queue || !s->queued || find_peers(s, g)) {
        destroy(s);
        return NULL;
    }
    return s;
}

/* @return whether mask m holds exactly one digit. */
static int single(uint64_t m)
{
    return m && !(m & (m - 1));
}

/* Supposes cell c holds digit bit d on cand and propagates naked singles in s->work.
 * @return 1 when a cell is left with no digit (the supposition is false), else 0. */
static int refuted(forcing *s, const uint64_t *cand, uint32_t c, uint64_t d)
{
    uint32_t head = 0, tail = 0;
    memcpy(s->work, cand, s->cells * sizeof *s->work);
    memset(s->queued, 0, s->cells);
    s->work[c] = d;
    for (uint32_t x = 0; x < s->cells; x++)
        if (single(s->work[x])) {
            s->queue[tail++] = x;
            s->queued[x] = 1;
        }
    while (head < tail) {
        const uint32_t x = s->queue[head++];
        const uint64_t m = s->work[x];
        for (uint32_t i = s->peer_at[x]; i < s->peer_at[x + 1]; i++) {
            const uint32_t y = s->peers[i];
            if (!(s->work[y] & m))
                continue;
            s->work[y] &= ~m;
            if (!s->work[y])
                return 1;
            if (single(s->work[y]) && !s->queued[y]) {
                s->queue[tail++] = y;
                s->queued[y] = 1;
            }
        }
    }
    return 0;
}

static int64_t step(void *state, const uint64_t *cand, uint64_t *eliminate)
{
    forcing *s = state;
    int64_t found = 0;
    for (uint32_t c = 0; c < s->cells; c++) {
        if (!cand[c])
            return SB_PLUGIN_CONTRADICTION;
        if (single(cand[c]))
            continue;
        for (uint64_t m = cand[c]; m; m &= m - 1) {
            const uint64_t d = m & -m;
            if (refuted(s, cand, c, d)) {
                eliminate[c] |= d;
                found++;
            }
        }
    }
    return found;
}

SB_PLUGIN_EXPORT const sb_plugin_technique *sb_plugin_technique_entry(void)
{
    static const sb_plugin_technique me = {
        .abi = SB_PLUGIN_ABI,
        .name = "forcing",
        .about = "singles forcing: a digit whose placement empties a cell by naked singles "
                 "leaves its cell (tests/plugins/forcing.c)",
        .accepts = accepts,
        .create = create,
        .destroy = destroy,
        .step = step};
    return &me;
}
