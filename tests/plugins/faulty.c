/*
 * faulty.c — plug-ins that break the contract of sudokubench_plugin.h on purpose, one per
 * FAULT_* macro (mk/plugins.mk builds each into build/plugins/test-NAME.so), for
 * tests/cli/plugins.sh. Each fault is triggered by a point in the work (a call count, a
 * puzzle), never by time. Where a fault needs a real answer first, it comes from a plain
 * backtracking count over the 9x9 houses, written out below.
 *
 *   FAULT_WRONG      the first solution with two cells swapped
 *   FAULT_COUNT      says 1 where a puzzle has two or more solutions
 *   FAULT_CRASH      writes through NULL on its third call
 *   FAULT_SLOW       guesses without end, polling the stop flag and the budget; without a
 *                    budget it raises SIGINT on its own process at its first call, so the stop
 *                    comes mid-search from a known point
 *   FAULT_OVER       reports one guess more than the budget, with a count
 *   FAULT_ABI        built for an ABI version that does not exist
 *   FAULT_NOENTRY    has no entry symbol
 *   FAULT_NAME       calls itself "fast", a built-in pipeline's name
 *   FAULT_GEOMETRY   accepts 16x16 boxed grids only
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faulty.h"

typedef struct state {
    uint8_t g[81];
    uint8_t first[81];
    uint64_t count, limit, calls;
} state;

/* @return whether digit d may stand in cell c of s->g: no peer holds it. */
static int fits(const state *s, int c, uint8_t d)
{
    const int r = c / 9, k = c % 9, b = r / 3 * 3 * 9 + k / 3 * 3;
    for (int i = 0; i < 9; i++) {
        const int row = r * 9 + i, col = i * 9 + k, box = b + i / 3 * 9 + i % 3;
        if ((row != c && s->g[row] == d) || (col != c && s->g[col] == d) ||
            (box != c && s->g[box] == d))
            return 0;
    }
    return 1;
}

/* Counts the completions of s->g up to s->limit (0: all), keeping the first in s->first. */
static void count(state *s)
{
    int c = 0;
    while (c < 81 && s->g[c])
        c++;
    if (c == 81) {
        if (s->count++ == 0)
            memcpy(s->first, s->g, 81);
        return;
    }
    for (uint8_t d = 1; d <= 9; d++) {
        if (!fits(s, c, d))
            continue;
        s->g[c] = d;
        count(s);
        s->g[c] = 0;
        if (s->limit && s->count >= s->limit)
            return;
    }
}

static void *create(const sb_plugin_geometry *g)
{
    (void)g;
    return calloc(1, sizeof(state));
}

static void destroy(void *p)
{
    free(p);
}

static int64_t solve(void *p, sb_plugin_call *call)
{
    state *s = p;
    s->calls++;
#ifdef FAULT_CRASH
    if (s->calls == 3)
        *(volatile int *)(uintptr_t)call->solution = *(volatile int *)NULL;
#endif
#ifdef FAULT_SLOW
    if (s->calls == 1 && call->max_guesses == UINT64_MAX)
        kill(getpid(), SIGINT);
    for (uint64_t guesses = 0;; guesses++) {
        if (call->stop && *call->stop)
            return SB_PLUGIN_STOPPED;
        if (guesses == call->max_guesses) {
            call->guesses = guesses;
            return SB_PLUGIN_BUDGET;
        }
    }
#endif
    memcpy(s->g, call->cells, 81);
    s->count = 0;
    s->limit = call->limit;
    int clash = 0; /* givens that clash: no solution, and no search through an open grid */
    for (int c = 0; c < 81; c++)
        clash |= s->g[c] && !fits(s, c, s->g[c]);
    if (!clash)
        count(s);
    call->guesses = 0;
#ifdef FAULT_OVER
    call->guesses = call->max_guesses + 1;
#endif
    if (s->count && call->solution) {
        memcpy(call->solution, s->first, 81);
#ifdef FAULT_WRONG
        const uint8_t t = call->solution[0];
        call->solution[0] = call->solution[1];
        call->solution[1] = t;
#endif
    }
#ifdef FAULT_COUNT
    if (s->count > 1)
        return 1;
#endif
    return (int64_t)s->count;
}

/* Without the entry symbol the description is exported under a name the harness never asks
 * for, as a plug-in with a misspelt entry would. */
#ifdef FAULT_NOENTRY
#define ENTRY sb_plugin_entry_misspelt
#else
#define ENTRY sb_plugin_entry
#endif

const sb_plugin_solver *ENTRY(void);
SB_PLUGIN_EXPORT const sb_plugin_solver *ENTRY(void)
{
    static const sb_plugin_solver me = {
        .abi = FAULTY_ABI,
#ifdef FAULT_NAME
        .name = "fast",
#else
        .name = "faulty",
#endif
        .about = "a plug-in that breaks its contract on purpose (tests/plugins/faulty.c)",
        .accepts = ACCEPTS,
        .create = create,
        .destroy = destroy,
        .solve = solve,
    };
    return &me;
}
