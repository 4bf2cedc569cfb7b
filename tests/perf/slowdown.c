/*
 * slowdown.c — test-only: a deliberately slowed sb_solve for tests/perf/real_check.sh.
 *
 * The Makefile renames the library's sb_solve to sb_solve_unslowed in a copy of the archive
 * (objcopy --redefine-sym, under build/perf-test/) and links this file in its place, so the
 * function the gate measures really does more work while no shipped source carries a test
 * hook. $PERF_TEST_SLOWDOWN sets how many empty loop turns each call burns (default 0).
 */
#include <stdlib.h>

#include "sudokubench.h"

int sb_solve_unslowed(sb_solver *s, const sb_grid *puzzle, sb_result *res);

/* Burns the configured number of loop turns, then solves as the library does. */
int sb_solve(sb_solver *s, const sb_grid *puzzle, sb_result *res)
{
    /* Read once: a getenv per call would add its own cost to every measurement. */
    static long turns = -1;
    if (turns < 0) {
        const char *env = getenv("PERF_TEST_SLOWDOWN");
        turns = env ? atol(env) : 0;
    }
    for (volatile long i = 0; i < turns; i++)
        ;
    return sb_solve_unslowed(s, puzzle, res);
}
