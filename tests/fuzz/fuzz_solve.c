/*
 * fuzz_solve.c — libFuzzer target: the solver differential.
 *
 * The input's first 81 bytes make a puzzle (fuzz_grid). It is counted with limit 2 by the
 * fast pipeline at every SIMD level this CPU supports, depth- and breadth-first, by every
 * other registry pipeline, and by the dancing-links oracle of tests/dlx.c (no library code).
 * Invariants: every configuration that finishes within the guess budget gives the oracle's
 * count; every reported solution passes the rules check and keeps the givens; a unique
 * puzzle's solution is the oracle's. A configuration over its budget (deterministic, so the
 * slow reference pipelines cannot stall the fuzzer) or BFS over its frontier cap is left out
 * of that input's comparison, having found no more solutions than exist.
 */
#include "dlx.h"
#include "fuzz_util.h"
#include "reference.h"

enum {
    MAX_CONFIGS = 16,    /* solver configurations */
    BUDGET = 20000,      /* guesses per solve of the fast pipeline */
    SLOW_BUDGET = 8,     /* ... of the generic pipelines: a guess costs them 100 to 1000 times more */
    BFS_CAP = 1 << 12    /* frontier boards of the breadth-first configuration */
};

/* The solvers, made once: levels x fast DFS, fast BFS, then each other pipeline. */
static sb_solver *solvers[MAX_CONFIGS];
static int nsolvers;
static int houses[SB_HOUSES * SB_DIGITS];

/* Makes one solver into the table. */
static void add(int pipeline, int simd, int search, uint64_t budget)
{
    sb_options o;
    sb_options_default(&o);
    o.pipeline = pipeline;
    o.simd = simd;
    o.search = search;
    o.bfs_cap = BFS_CAP;
    o.max_guesses = budget;
    FUZZ_CHECK(sb_solver_new(&solvers[nsolvers], &o) == SB_OK, "solver %d/%d", pipeline, simd);
    nsolvers++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int best = SB_SIMD_SCALAR;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l)) {
            add(0, l, SB_SEARCH_DFS, BUDGET);
            best = l;
        }
    add(0, best, SB_SEARCH_BFS, BUDGET);
    size_t n;
    sb_pipelines(&n);
    for (size_t p = 1; p < n && nsolvers < MAX_CONFIGS; p++)
        add((int)p, SB_SIMD_SCALAR, SB_SEARCH_DFS, SLOW_BUDGET);
    ref_sudoku_houses(houses);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_grid g;
    fuzz_grid(data, size, &g);
    uint8_t first[SB_CELLS];
    const uint64_t want = dlx_count(SB_CELLS, SB_DIGITS, SB_HOUSES, houses, g.cell, 2, first);
    for (int k = 0; k < nsolvers; k++) {
        sb_result res;
        const int st = sb_solve(solvers[k], &g, &res);
        if (st == SB_ERR_BUDGET || st == SB_ERR_FRONTIER) {
            FUZZ_CHECK(res.count <= want, "config %d stopped with %llu solutions, oracle %llu",
                       k, (unsigned long long)res.count, (unsigned long long)want);
            continue;
        }
        FUZZ_CHECK(st == SB_OK, "config %d: %s", k, sb_strerror(st));
        FUZZ_CHECK(res.count == want, "config %d counts %llu, oracle %llu", k,
                   (unsigned long long)res.count, (unsigned long long)want);
        if (want >= 1)
            FUZZ_CHECK(sb_solution_check(&g, &res.solution), "config %d: bad solution", k);
        if (want == 1)
            FUZZ_CHECK(!memcmp(res.solution.cell, first, SB_CELLS),
                       "config %d: another solution to a unique puzzle", k);
    }
    return 0;
}
