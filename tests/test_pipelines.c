/*
 * test_pipelines.c — property tests over the pipeline registry: every pipeline, in both
 * search modes, against the fast kernel and the independent reference (reference.c); custom
 * specs; the technique counters; BFS limits and caps; and the rating classes against the
 * solver's guess counts.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* the kernels' entries, called directly against the reference */
#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static const char *const SEARCH_NAME[2] = {"dfs", "bfs"};

/* The BFS cap used by the corpus runs: well above what the selected puzzles need. */
enum { TEST_BFS_CAP = 1 << 14 };

/* Creates a solver for a registry index (spec NULL) or a custom spec (pipeline ignored). */
static sb_solver *mk_solver(int pipeline, const char *spec, int search, uint64_t limit,
                            size_t cap)
{
    sb_options opt;
    sb_options_default(&opt);
    opt.limit = limit;
    opt.search = search;
    opt.bfs_cap = cap;
    if (spec) {
        cr_assert_eq(sb_options_pipeline(&opt, spec), SB_OK, "spec %s refused", spec);
    } else {
        opt.pipeline = pipeline;
    }
    sb_solver *s = NULL;
    const int rc = sb_solver_new(&s, &opt);
    cr_assert_eq(rc, SB_OK, "sb_solver_new(pipeline %d, spec %s, %s) = %d (%s)", pipeline,
                 spec ? spec : "-", SEARCH_NAME[search], rc, sb_strerror(rc));
    cr_assert_not_null(s);
    return s;
}

/* Solves, returning the status (the result is filled in any case). */
static int solve_rc(sb_solver *s, const uint8_t cells[81], sb_result *res)
{
    sb_grid g = tu_from_cells(cells);
    memset(res, 0xA5, sizeof *res);
    return sb_solve(s, &g, res);
}

/* One fused kernel's entries, called without a solver. */
typedef struct kernel_fns {
    sb_dfs_fn dfs;
    sb_bfs_fn bfs;
} kernel_fns;

/* The cell-major reference kernel (kernel_scalar.c), which every level is checked against. */
static const kernel_fns REF_KERNEL = {sb_kernel_dfs_scalar, sb_kernel_bfs_scalar};

/* A kernel's search state: its DFS stack and BFS frontier, as a solver context owns them. */
typedef struct kernel_state {
    sb_board *stack; /* SB_STACK_DEPTH boards, 64-byte aligned */
    sb_board *ring;  /* BFS frontier, grown by the kernel */
    size_t ring_len;
} kernel_state;

/* A fresh kernel state (no frontier yet). */
static kernel_state kernel_state_new(void)
{
    kernel_state k = {aligned_alloc(64, SB_STACK_DEPTH * sizeof(sb_board)), NULL, 0};
    cr_assert_not_null(k.stack);
    return k;
}

/* Frees what kernel_state_new and the BFS runs allocated. */
static void kernel_state_free(kernel_state *k)
{
    free(k->stack);
    free(k->ring);
}

/* Runs kernel f's DFS or BFS entry (search) on cells to limit, as sb_solve would with no
 * budget. @return the status; *res gets the result. */
static int kernel_solve(kernel_fns f, kernel_state *k, int search, const uint8_t cells[81],
                        uint64_t limit, sb_result *res)
{
    sb_search_run run = {.max_guesses = UINT64_MAX, .stop = NULL, .status = SB_OK};
    const sb_grid g = tu_from_cells(cells);
    memset(&run.res, 0xA5, sizeof run.res);
    int st;
    if (search == SB_SEARCH_DFS) {
        f.dfs(k->stack, &g, limit, &run);
        st = run.status;
    } else {
        st = f.bfs(&k->ring, &k->ring_len, TEST_BFS_CAP, &g, limit, &run);
    }
    *res = run.res;
    return st;
}

/* Asserts that got (status rc) is the reference's want (status want_rc): status, count,
 * guesses and first solution. */
static void assert_same_result(int rc, const sb_result *got, int want_rc, const sb_result *want,
                               const char *what, const uint8_t cells[81])
{
    char pt[82];
    tu_text(cells, pt);
    cr_assert_eq(rc, want_rc, "%s: status %d vs the reference's %d on %s", what, rc, want_rc, pt);
    cr_assert_eq(got->count, want->count, "%s: count %llu vs the reference's %llu on %s", what,
                 (unsigned long long)got->count, (unsigned long long)want->count, pt);
    cr_assert_eq(got->guesses, want->guesses, "%s: guesses %llu vs the reference's %llu on %s",
                 what, (unsigned long long)got->guesses, (unsigned long long)want->guesses, pt);
    if (want->count)
        cr_assert_arr_eq(got->solution.cell, want->solution.cell, 81,
                         "%s: first solution differs from the reference's on %s", what, pt);
}

static const char *pipeline_name(int p)
{
    size_t np = 0;
    return sb_pipelines(&np)[p].name;
}

static int pipeline_count(void)
{
    size_t np = 0;
    sb_pipelines(&np);
    return (int)np;
}

/* Removes k random clues. */
static void remove_clues(ref_rng *r, uint8_t p[81], int k)
{
    for (int removed = 0; removed < k && ref_clues(p) > 0;) {
        const int c = ref_rng_below(r, 81);
        if (p[c]) {
            p[c] = 0;
            removed++;
        }
    }
}

/* Writes into a random blank a digit other than the solution's: one that fits the givens
 * (fits = 1: no direct conflict, yet no solution) or one that repeats a given (fits = 0).
 * Returns 0 if none was found. */
static int add_bad_clue(ref_rng *r, const uint8_t full[81], uint8_t p[81], int fits)
{
    for (int tries = 0; tries < 5000; tries++) {
        const int c = ref_rng_below(r, 81), d = 1 + ref_rng_below(r, 9);
        if (p[c] || d == full[c] || ref_digit_fits(p, c, d) != fits)
            continue;
        p[c] = (uint8_t)d;
        return 1;
    }
    return 0;
}

/* 1 when repeatedly filling cells with exactly one legal digit completes the grid. */
static int naked_singles_complete(const uint8_t p[81])
{
    uint8_t g[81];
    return ref_naked_singles(p, g);
}

/* ------------------------------------------------------------------------------------------ */
/* Corpus                                                                                     */
/* ------------------------------------------------------------------------------------------ */

enum kind { K_UNIQUE, K_REMOVED, K_WRONG, K_CONFLICT, K_KINDS };
static const char *const KIND_NAME[K_KINDS] = {"unique", "clues-removed", "wrong-clue",
                                               "conflict"};

typedef struct pz {
    uint8_t p[81];   /* the puzzle */
    uint8_t sol[81]; /* the reference's first solution (zeros when none) */
    int ref;         /* reference count, limit 2 */
    int kind;        /* enum kind */
    int bfs_ok;      /* 1: cheap enough for BFS with every pipeline (see corpus_build) */
} pz;

typedef struct corpus {
    pz *items;
    int n;
} corpus;

/* nbase unique puzzles (26..33 target clues) dug from random full grids, each with three
 * variants: 1..3 clues removed (usually several solutions), a wrong clue that fits the givens
 * (no solution) and a clue repeating a given (conflicting givens). Every item is labelled by
 * the reference. Multiple-solution puzzles can make BFS expensive (it must bring every open
 * branch to full depth before it finds two solutions): those whose BFS frontier under the
 * "none" pipeline outgrows 64 boards are marked !bfs_ok and left to DFS and the fast BFS. */
static corpus corpus_build(uint64_t seed, int nbase)
{
    corpus c;
    c.items = calloc((size_t)nbase * K_KINDS, sizeof *c.items);
    cr_assert_not_null(c.items);
    c.n = 0;
    ref_rng r;
    ref_rng_seed(&r, seed);
    for (int b = 0; b < nbase; b++) {
        uint8_t full[81], base[81], q[81];
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 26 + ref_rng_below(&r, 8), base);
        memcpy(c.items[c.n].p, base, 81);
        c.items[c.n++].kind = K_UNIQUE;
        memcpy(q, base, 81);
        remove_clues(&r, q, 1 + ref_rng_below(&r, 3));
        memcpy(c.items[c.n].p, q, 81);
        c.items[c.n++].kind = K_REMOVED;
        memcpy(q, base, 81);
        if (add_bad_clue(&r, full, q, 1)) {
            memcpy(c.items[c.n].p, q, 81);
            c.items[c.n++].kind = K_WRONG;
        }
        memcpy(q, base, 81);
        if (add_bad_clue(&r, full, q, 0)) {
            memcpy(c.items[c.n].p, q, 81);
            c.items[c.n++].kind = K_CONFLICT;
        }
    }
    sb_solver *probe = mk_solver(sb_pipeline_find("none"), NULL, SB_SEARCH_BFS, 2, 64);
    for (int i = 0; i < c.n; i++) {
        pz *it = &c.items[i];
        it->ref = ref_count(it->p, 2, it->sol);
        if (it->kind == K_UNIQUE)
            cr_assert_eq(it->ref, 1, "generator: base puzzle not unique");
        if (it->kind == K_WRONG || it->kind == K_CONFLICT)
            cr_assert_eq(it->ref, 0, "generator: %s puzzle has a solution", KIND_NAME[it->kind]);
        it->bfs_ok = 1;
        if (it->ref >= 2) {
            sb_result res;
            it->bfs_ok = solve_rc(probe, it->p, &res) == SB_OK;
        }
    }
    sb_solver_free(probe);
    return c;
}

/* Checks one result against the reference (limit > 0). */
static void check_ref(const pz *it, int rc, const sb_result *res, uint64_t limit,
                      const char *where)
{
    char pt[82], st[82];
    tu_text(it->p, pt);
    tu_text(res->solution.cell, st);
    cr_assert_eq(rc, SB_OK, "%s: %s (%s): sb_solve = %d (%s)", where, pt, KIND_NAME[it->kind], rc,
                 sb_strerror(rc));
    const uint64_t want = (uint64_t)it->ref < limit ? (uint64_t)it->ref : limit;
    cr_assert_eq(res->count, want, "%s: %s (%s): count %llu, reference %llu", where, pt,
                 KIND_NAME[it->kind], (unsigned long long)res->count, (unsigned long long)want);
    if (res->count == 0) {
        const uint8_t zero[81] = {0};
        cr_assert_arr_eq(res->solution.cell, zero, 81, "%s: %s: no solution but solution %s",
                         where, pt, st);
        return;
    }
    cr_assert(ref_is_valid_solution(it->p, res->solution.cell), "%s: %s: invalid solution %s",
              where, pt, st);
    if (it->ref == 1) {
        char want_t[82];
        tu_text(it->sol, want_t);
        cr_assert_arr_eq(res->solution.cell, it->sol, 81, "%s: %s: solution %s, reference %s",
                         where, pt, st, want_t);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Registry                                                                                   */
/* ------------------------------------------------------------------------------------------ */

Test(pipelines, registry_names_and_specs)
{
    static const char *const want[] = {"fast", "list", "array", "restart", "singles", "none"};
    enum { NWANT = sizeof want / sizeof want[0] };
    size_t np = 0;
    const sb_pipeline_info *pl = sb_pipelines(&np);
    cr_assert_not_null(pl);
    cr_assert_eq(np, (size_t)NWANT, "registry has %zu pipelines, expected %d", np, NWANT);
    int seen[NWANT] = {0};
    for (size_t i = 0; i < np; i++) {
        cr_assert_not_null(pl[i].name);
        cr_assert_not_null(pl[i].description);
        cr_assert_not_null(pl[i].spec);
        cr_assert_not_null(pl[i].source);
        cr_assert_gt(strlen(pl[i].description), 0, "%s: no description", pl[i].name);
        cr_assert_gt(strlen(pl[i].source), 0, "%s: no source", pl[i].name);
        int found = -1;
        for (int k = 0; k < NWANT; k++)
            if (!strcmp(pl[i].name, want[k]))
                found = k;
        cr_assert_geq(found, 0, "unexpected pipeline name %s", pl[i].name);
        cr_assert_eq(seen[found]++, 0, "pipeline %s listed twice", pl[i].name);
        cr_assert_eq(sb_pipeline_find(pl[i].name), (int)i);

        /* A name selects its registry row. */
        sb_options opt;
        sb_options_default(&opt);
        cr_assert_eq(sb_options_pipeline(&opt, pl[i].name), SB_OK, "%s", pl[i].name);
        cr_assert_eq(opt.pipeline, (int)i, "%s", pl[i].name);

        if (!strcmp(pl[i].name, "fast"))
            continue; /* the kernel: its "spec" names no technique list */
        cr_assert_eq(sb_pipeline_check(pl[i].spec), SB_OK, "%s: spec %s rejected", pl[i].name,
                     pl[i].spec);
        /* The spec starts with one of the generic orders. */
        cr_assert(!strncmp(pl[i].spec, "list:", 5) || !strncmp(pl[i].spec, "array:", 6) ||
                      !strncmp(pl[i].spec, "restart:", 8),
                  "%s: spec %s", pl[i].name, pl[i].spec);
    }
    cr_assert_eq(sb_pipeline_find("fast"), 0, "fast must stay the default pipeline 0");
}

Test(pipelines, custom_specs_accepted)
{
    static const char *const good[] = {
        "array:ns,hs,lc,nt", "list:hs", "restart:ns,ht", "restart:", "list:", "array:",
        "list:ns,hs,lc,nt2,nt3,nt4,ht2,ht3,ht4", "array:ht4,ht3,ht2,nt4,nt3,nt2,lc,hs,ns",
        "restart:lc", "list:nt,ht", "restart:ns,ns,ns"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_assert_eq(sb_pipeline_check(good[i]), SB_OK, "spec %s rejected", good[i]);
        sb_options opt;
        sb_options_default(&opt);
        cr_assert_eq(sb_options_pipeline(&opt, good[i]), SB_OK, "spec %s refused", good[i]);
        cr_assert_eq(opt.pipeline, SB_PIPELINE_CUSTOM, "spec %s", good[i]);
        cr_assert_not_null(opt.spec);
        cr_assert_str_eq(opt.spec, good[i]);
        sb_solver *s = NULL;
        cr_assert_eq(sb_solver_new(&s, &opt), SB_OK, "spec %s", good[i]);
        sb_solver_free(s);
    }
    /* At most SB_SPEC_MAX steps; a group token counts as its three steps. */
    char spec[512];
    strcpy(spec, "list:ns");
    for (int k = 1; k < SB_SPEC_MAX; k++)
        strcat(spec, ",hs");
    cr_assert_eq(sb_pipeline_check(spec), SB_OK, "%d steps rejected", SB_SPEC_MAX);
    strcat(spec, ",lc");
    cr_assert_eq(sb_pipeline_check(spec), SB_ERR_PIPELINE, "%d steps accepted", SB_SPEC_MAX + 1);
    strcpy(spec, "restart:nt");
    int steps = 3;
    for (; steps + 3 <= SB_SPEC_MAX; steps += 3)
        strcat(spec, ",ht");
    for (; steps < SB_SPEC_MAX; steps++)
        strcat(spec, ",ns");
    cr_assert_eq(sb_pipeline_check(spec), SB_OK, "%s rejected", spec);
    strcat(spec, ",ns");
    cr_assert_eq(sb_pipeline_check(spec), SB_ERR_PIPELINE, "%s accepted", spec);
}

Test(pipelines, bad_specs_rejected)
{
    static const char *const bad[] = {
        "bogus", "list", "list:xx", "array:ns,", "fast:ns", "", "LIST:ns", "list:NS",
        "list:ns,,hs", "list:,ns", "list: ns", "list:ns ", ":ns", "list:ns;hs",
        "list:ns:hs", "restart:ns,ht,x", "restart:nt5", "restart:n", "none:", "fast:",
        "list:nt1", "array:ht1", "lists:ns", "list:ns,hs,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(sb_pipeline_check(bad[i]), SB_ERR_PIPELINE, "spec \"%s\" accepted", bad[i]);
        sb_options opt;
        sb_options_default(&opt);
        /* "list" is a registry name, so sb_options_pipeline takes it as one. */
        if (sb_pipeline_find(bad[i]) < 0)
            cr_assert_eq(sb_options_pipeline(&opt, bad[i]), SB_ERR_PIPELINE,
                         "sb_options_pipeline(\"%s\") accepted", bad[i]);
        /* Given to the solver directly, a bad custom spec is refused too. */
        sb_options_default(&opt);
        opt.pipeline = SB_PIPELINE_CUSTOM;
        opt.spec = bad[i];
        sb_solver *s = NULL;
        cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_PIPELINE, "solver took spec \"%s\"",
                     bad[i]);
        cr_assert_null(s);
    }
    /* Registry indices out of range. */
    const int bad_index[] = {pipeline_count(), pipeline_count() + 5, -2, -100};
    for (size_t i = 0; i < sizeof bad_index / sizeof bad_index[0]; i++) {
        sb_options opt;
        sb_options_default(&opt);
        opt.pipeline = bad_index[i];
        sb_solver *s = NULL;
        cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_PIPELINE, "pipeline index %d",
                     bad_index[i]);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Every pipeline x search against the fast DFS and the reference                              */
/* ------------------------------------------------------------------------------------------ */

Test(pipelines, every_pipeline_and_search_against_reference)
{
    corpus c = corpus_build(UINT64_C(0x9199E11E), 150);
    int by_ref[3] = {0}, bfs_multi = 0;
    for (int i = 0; i < c.n; i++) {
        by_ref[c.items[i].ref]++;
        bfs_multi += c.items[i].ref == 2 && c.items[i].bfs_ok;
    }
    cr_assert_geq(by_ref[0], 250, "only %d unsolvable puzzles", by_ref[0]);
    cr_assert_geq(by_ref[1], 150, "only %d unique puzzles", by_ref[1]);
    cr_assert_geq(by_ref[2], 100, "only %d multiple-solution puzzles", by_ref[2]);
    cr_assert_geq(bfs_multi, 50, "only %d multiple-solution puzzles cheap enough for BFS",
                  bfs_multi);

    /* The fast DFS first: it is the baseline the others must match. */
    sb_result *fast = calloc((size_t)c.n, sizeof *fast);
    cr_assert_not_null(fast);
    sb_solver *f = mk_solver(0, NULL, SB_SEARCH_DFS, 2, SB_BFS_CAP);
    for (int i = 0; i < c.n; i++) {
        const int rc = solve_rc(f, c.items[i].p, &fast[i]);
        check_ref(&c.items[i], rc, &fast[i], 2, "fast/dfs limit 2");
    }
    sb_solver_free(f);

    const int np = pipeline_count();
    for (int p = 0; p < np; p++)
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++)
            for (uint64_t limit = 1; limit <= 2; limit++) {
                sb_solver *s = mk_solver(p, NULL, m, limit, TEST_BFS_CAP);
                char where[96];
                snprintf(where, sizeof where, "%s/%s limit %llu", pipeline_name(p),
                         SEARCH_NAME[m], (unsigned long long)limit);
                for (int i = 0; i < c.n; i++) {
                    const pz *it = &c.items[i];
                    if (m == SB_SEARCH_BFS && p != 0 && !it->bfs_ok)
                        continue;
                    sb_result res;
                    const int rc = solve_rc(s, it->p, &res);
                    check_ref(it, rc, &res, limit, where);
                    if (limit == 2) {
                        cr_assert_eq(res.count, fast[i].count, "%s: count differs from fast",
                                     where);
                        if (res.count == 1)
                            cr_assert_arr_eq(res.solution.cell, fast[i].solution.cell, 81,
                                             "%s: solution differs from fast", where);
                    }
                }
                sb_solver_free(s);
            }
    free(fast);
    free(c.items);
}

/* The fast kernel's SIMD levels run different propagation engines (queue vs whole-board
 * rounds) that must reach the same fixpoint: DFS and BFS, limits 1, 2 and 5, give the same
 * status, count, guesses and solution on every level this CPU supports as on the scalar
 * reference, which is itself checked against the independent brute force. */
Test(pipelines, fast_every_level_and_search_identical)
{
    corpus c = corpus_build(UINT64_C(0x1E7E15), 80);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    const uint64_t limits[3] = {1, 2, 5};
    for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++)
        for (int li = 0; li < 3; li++) {
            sb_options opt;
            sb_options_default(&opt);
            opt.limit = limits[li];
            opt.search = m;
            opt.bfs_cap = TEST_BFS_CAP;
            sb_solver *s[SB_SIMD_LEVELS];
            for (int l = 0; l < nl; l++) {
                opt.simd = levels[l];
                cr_assert_eq(sb_solver_new(&s[l], &opt), SB_OK);
                cr_assert_eq(sb_solver_simd(s[l]), levels[l]);
            }
            char where[64];
            snprintf(where, sizeof where, "fast/%s/scalar limit %llu", SEARCH_NAME[m],
                     (unsigned long long)limits[li]);
            kernel_state ks = kernel_state_new();
            for (int i = 0; i < c.n; i++) {
                const pz *it = &c.items[i];
                sb_result ref;
                const int ref_rc = solve_rc(s[0], it->p, &ref);
                if (ref_rc == SB_OK && limits[li] <= 2)
                    check_ref(it, ref_rc, &ref, limits[li], where);
                /* The scalar level runs the band kernel where the baseline has vectors
                 * (solver.c): it, and through it every level, equals the reference kernel. */
                sb_result kref;
                const int kref_rc = kernel_solve(REF_KERNEL, &ks, m, it->p, limits[li], &kref);
                assert_same_result(ref_rc, &ref, kref_rc, &kref, where, it->p);
                for (int l = 1; l < nl; l++) {
                    sb_result res;
                    const int rc = solve_rc(s[l], it->p, &res);
                    char pt[82];
                    tu_text(it->p, pt);
                    cr_assert_eq(rc, ref_rc, "%s vs %s: status %d vs %d on %s", SEARCH_NAME[m],
                                 sb_simd_name(levels[l]), rc, ref_rc, pt);
                    cr_assert_eq(res.count, ref.count, "%s/%s limit %llu: count %llu vs %llu on %s",
                                 SEARCH_NAME[m], sb_simd_name(levels[l]),
                                 (unsigned long long)limits[li], (unsigned long long)res.count,
                                 (unsigned long long)ref.count, pt);
                    cr_assert_eq(res.guesses, ref.guesses, "%s/%s limit %llu: guesses %llu vs %llu on %s",
                                 SEARCH_NAME[m], sb_simd_name(levels[l]),
                                 (unsigned long long)limits[li], (unsigned long long)res.guesses,
                                 (unsigned long long)ref.guesses, pt);
                    if (ref.count)
                        cr_assert_arr_eq(res.solution.cell, ref.solution.cell, 81,
                                         "%s/%s: first solution differs on %s", SEARCH_NAME[m],
                                         sb_simd_name(levels[l]), pt);
                }
            }
            kernel_state_free(&ks);
            for (int l = 0; l < nl; l++)
                sb_solver_free(s[l]);
        }
    free(c.items);
}

/* The reference kernel's DFS entry with a drop at the root (sb_search_run's drop). */
static int kernel_solve_drop(kernel_state *k, const uint8_t cells[81], int c, uint16_t drop,
                             uint64_t limit, sb_result *res)
{
    sb_search_run run = {.max_guesses = UINT64_MAX, .drop_cell = c, .drop = drop};
    const sb_grid g = tu_from_cells(cells);
    memset(&run.res, 0xA5, sizeof run.res);
    REF_KERNEL.dfs(k->stack, &g, limit, &run);
    *res = run.res;
    return run.status;
}

/* A search with one cell barred from some digits (sb_solve_drop), at every level and in the
 * reference kernel, counts what the independent reference counts on the candidates that say
 * so (ref_count_marks): the same counts at limits 1 and 2, a first solution that keeps the
 * givens and rules and avoids the dropped digits, and the same guesses and solution at every
 * level. The drops: a given's solution digit with that given blanked (on a unique puzzle,
 * the generator's check: none left exactly when the puzzle less the given keeps one
 * solution), a random cell's solution digit, a given's own digit (none left), and random
 * sets. */
Test(pipelines, drop_search_against_reference)
{
    corpus c = corpus_build(UINT64_C(0xD809), TU_SAMPLE(60));
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    sb_solver *s[SB_SIMD_LEVELS];
    for (int l = 0; l < nl; l++)
        s[l] = tu_solver(2, 0, levels[l]);
    kernel_state ks = kernel_state_new();
    ref_rng r;
    ref_rng_seed(&r, 0xD809);
    int generator_checks = 0, unique_after = 0, emptied = 0;
    for (int i = 0; i < c.n; i++) {
        const pz *it = &c.items[i];
        for (int t = 0; t < 6; t++) {
            int cell = ref_rng_below(&r, 81);
            uint16_t drop = (uint16_t)(1 + ref_rng_below(&r, SB_ALL_DIGITS));
            if (t == 0 || t == 2) /* a given */
                for (int k = 0; k < 81; k++)
                    if (it->p[(cell + k) % 81]) {
                        cell = (cell + k) % 81;
                        break;
                    }
            if (t < 3 && it->ref >= 1) /* its solution's digit there (a given's own) */
                drop = (uint16_t)(1u << (it->sol[cell] - 1));
            uint8_t p[81];
            memcpy(p, it->p, 81);
            const int blanked = t == 0 && it->kind == K_UNIQUE;
            if (blanked)
                p[cell] = 0; /* the generator's check: this given removed */
            uint16_t cand[81];
            for (int k = 0; k < 81; k++)
                cand[k] = p[k] ? (uint16_t)(1u << (p[k] - 1)) : SB_ALL_DIGITS;
            cand[cell] &= (uint16_t)~drop;
            emptied += cand[cell] == 0;
            uint8_t want_sol[81];
            const int want = ref_count_marks(cand, 2, want_sol);
            if (blanked) {
                generator_checks++;
                const int after = ref_count(p, 2, NULL);
                unique_after += after == 1;
                cr_assert_eq(want == 0, after == 1, "the drop search and the count of the "
                             "puzzle less a given disagree");
            }
            char pt[82];
            tu_text(p, pt);
            for (uint64_t limit = 1; limit <= 2; limit++) {
                sb_result first;
                for (int l = 0; l < nl; l++) {
                    const sb_grid g = tu_from_cells(p);
                    sb_result res;
                    memset(&res, 0xA5, sizeof res);
                    const int rc = sb_solve_drop(s[l], &g, cell, drop, limit, &res);
                    char where[96];
                    snprintf(where, sizeof where, "%s, cell %d without 0x%03x, limit %llu",
                             sb_simd_name(levels[l]), cell, drop, (unsigned long long)limit);
                    cr_assert_eq(rc, SB_OK, "%s: status %d on %s", where, rc, pt);
                    const uint64_t w = (uint64_t)want < limit ? (uint64_t)want : limit;
                    cr_assert_eq(res.count, w, "%s: count %llu, reference %llu on %s", where,
                                 (unsigned long long)res.count, (unsigned long long)w, pt);
                    if (res.count) {
                        cr_assert(ref_is_valid_solution(p, res.solution.cell),
                                  "%s: invalid solution on %s", where, pt);
                        cr_assert_eq(drop >> (res.solution.cell[cell] - 1) & 1, 0,
                                     "%s: the solution keeps a dropped digit on %s", where, pt);
                    }
                    if (l == 0) {
                        first = res;
                        sb_result kref;
                        const int krc = kernel_solve_drop(&ks, p, cell, drop, limit, &kref);
                        assert_same_result(rc, &res, krc, &kref, where, p);
                    } else {
                        assert_same_result(rc, &res, SB_OK, &first, where, p);
                    }
                }
            }
        }
    }
    cr_assert_geq(generator_checks, TU_SAMPLE(60), "only %d generator checks", generator_checks);
    cr_assert(unique_after > 0 && unique_after < generator_checks,
              "the generator checks are all alike: %d of %d unique", unique_after,
              generator_checks);
    cr_assert_geq(emptied, TU_SAMPLE(60) / 2, "only %d drops empty their cell", emptied);
    kernel_state_free(&ks);
    for (int l = 0; l < nl; l++)
        sb_solver_free(s[l]);
    free(c.items);
}

/* sb_solve_drop runs the fused kernel depth-first only, on a cell of the grid, digits 1..9
 * and a valid grid. */
Test(pipelines, drop_search_refuses)
{
    const uint8_t empty[81] = {0};
    const sb_grid g = tu_from_cells(empty);
    sb_grid bad = g;
    bad.cell[40] = 10;
    sb_result res;
    sb_solver *fast = tu_solver(2, 0, SB_SIMD_SCALAR);
    sb_solver *bfs = mk_solver(0, NULL, SB_SEARCH_BFS, 2, TEST_BFS_CAP);
    sb_solver *list = mk_solver(sb_pipeline_find("list"), NULL, SB_SEARCH_DFS, 2, 0);
    cr_assert_eq(sb_solve_drop(fast, &g, 0, 1, 1, &res), SB_OK);
    cr_assert_eq(res.count, 1);
    cr_assert_neq(res.solution.cell[0], 1);
    cr_assert_eq(sb_solve_drop(bfs, &g, 0, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(list, &g, 0, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, &g, -1, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, &g, 81, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, &g, 0, 0x200, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, &bad, 0, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(NULL, &g, 0, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, NULL, 0, 1, 1, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_drop(fast, &g, 0, 1, 1, NULL), SB_ERR_ARG);
    sb_solver_free(fast);
    sb_solver_free(bfs);
    sb_solver_free(list);
}

/* Each registry row's spec, given as a custom spec, is that pipeline: same counts, guesses,
 * solutions and technique counters, in both search modes. */
Test(pipelines, registry_spec_equals_custom_spec)
{
    corpus c = corpus_build(UINT64_C(0x5BEC), 30);
    size_t np = 0;
    const sb_pipeline_info *pl = sb_pipelines(&np);
    for (size_t p = 1; p < np; p++)
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
            sb_solver *named = mk_solver((int)p, NULL, m, 2, TEST_BFS_CAP);
            sb_solver *custom = mk_solver(0, pl[p].spec, m, 2, TEST_BFS_CAP);
            for (int i = 0; i < c.n; i++) {
                if (m == SB_SEARCH_BFS && !c.items[i].bfs_ok)
                    continue;
                sb_result a, b;
                const int ra = solve_rc(named, c.items[i].p, &a);
                const int rb = solve_rc(custom, c.items[i].p, &b);
                cr_assert_eq(ra, SB_OK);
                cr_assert_eq(rb, SB_OK);
                cr_assert_eq(a.count, b.count, "%s vs %s", pl[p].name, pl[p].spec);
                cr_assert_eq(a.guesses, b.guesses, "%s vs %s: guesses", pl[p].name, pl[p].spec);
                cr_assert_arr_eq(a.solution.cell, b.solution.cell, 81, "%s vs %s", pl[p].name,
                                 pl[p].spec);
            }
            sb_technique_counts ca[SB_TECH_COUNT], cb[SB_TECH_COUNT];
            sb_solver_counts(named, ca);
            sb_solver_counts(custom, cb);
            cr_assert_arr_eq(ca, cb, sizeof ca, "%s vs %s: counters differ", pl[p].name,
                             pl[p].spec);
            sb_solver_free(named);
            sb_solver_free(custom);
        }
    free(c.items);
}

/* Custom specs are correct solvers; a group token is its three techniques. */
Test(pipelines, custom_specs_solve_correctly)
{
    static const char *const specs[] = {"array:ns,hs,lc,nt", "list:hs", "restart:ns,ht",
                                        "restart:", "list:lc", "array:ht4,nt2"};
    corpus c = corpus_build(UINT64_C(0xC057), 40);
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++)
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
            sb_solver *s = mk_solver(0, specs[k], m, 2, TEST_BFS_CAP);
            char where[96];
            snprintf(where, sizeof where, "spec %s/%s", specs[k], SEARCH_NAME[m]);
            for (int i = 0; i < c.n; i++) {
                if (m == SB_SEARCH_BFS && !c.items[i].bfs_ok)
                    continue;
                sb_result res;
                const int rc = solve_rc(s, c.items[i].p, &res);
                check_ref(&c.items[i], rc, &res, 2, where);
            }
            sb_solver_free(s);
        }
    /* "restart:" is "none", and nt / ht are nt2,nt3,nt4 / ht2,ht3,ht4. */
    const char *const same[][2] = {{"restart:", "none"},
                                   {"list:ns,nt,ht", "list:ns,nt2,nt3,nt4,ht2,ht3,ht4"},
                                   {"array:ht,hs", "array:ht2,ht3,ht4,hs"}};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
        sb_solver *a = mk_solver(0, same[k][0], SB_SEARCH_DFS, 2, SB_BFS_CAP);
        sb_solver *b = mk_solver(0, same[k][1], SB_SEARCH_DFS, 2, SB_BFS_CAP);
        for (int i = 0; i < c.n; i++) {
            sb_result ra, rb;
            cr_assert_eq(solve_rc(a, c.items[i].p, &ra), SB_OK);
            cr_assert_eq(solve_rc(b, c.items[i].p, &rb), SB_OK);
            cr_assert_eq(ra.count, rb.count, "%s vs %s", same[k][0], same[k][1]);
            cr_assert_eq(ra.guesses, rb.guesses, "%s vs %s", same[k][0], same[k][1]);
            cr_assert_arr_eq(ra.solution.cell, rb.solution.cell, 81);
        }
        sb_solver_free(a);
        sb_solver_free(b);
    }
    free(c.items);
}

/* ------------------------------------------------------------------------------------------ */
/* Guesses                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A full grid minus 5 cells that naked singles complete needs no guess anywhere. */
Test(pipelines, no_guess_on_nearly_full_grids)
{
    ref_rng r;
    ref_rng_seed(&r, 0x5E);
    const int np = pipeline_count();
    int tested = 0;
    for (int k = 0; k < 40; k++) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        memcpy(p, full, 81);
        remove_clues(&r, p, 5);
        if (!naked_singles_complete(p))
            continue; /* e.g. an unavoidable rectangle */
        tested++;
        char pt[82];
        tu_text(p, pt);
        for (int pi = 0; pi < np; pi++)
            for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++)
                for (uint64_t limit = 0; limit <= 2; limit++) {
                    sb_solver *s = mk_solver(pi, NULL, m, limit, SB_BFS_CAP);
                    sb_result res;
                    cr_assert_eq(solve_rc(s, p, &res), SB_OK);
                    cr_assert_eq(res.count, 1, "%s/%s: %s", pipeline_name(pi), SEARCH_NAME[m],
                                 pt);
                    cr_assert_eq(res.guesses, 0, "%s/%s limit %llu: %s: %llu guesses",
                                 pipeline_name(pi), SEARCH_NAME[m], (unsigned long long)limit,
                                 pt, (unsigned long long)res.guesses);
                    cr_assert_arr_eq(res.solution.cell, full, 81);
                    sb_solver_free(s);
                }
    }
    cr_assert_geq(tested, 30);
}

/* ------------------------------------------------------------------------------------------ */
/* BFS                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Limit 0 counts every solution: BFS, DFS and the reference agree on puzzles with up to 50
 * solutions (and on unique and unsolvable ones). */
Test(pipelines, limit0_counts_bfs_and_dfs)
{
    enum { MAX_SOL = 50, WANT = 40, EXTRA = 12 };
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0x11A0));
    uint8_t (*puz)[81] = calloc(WANT + EXTRA, sizeof *puz);
    int *cnt = calloc(WANT + EXTRA, sizeof *cnt);
    cr_assert_not_null(puz);
    cr_assert_not_null(cnt);
    sb_solver *probe = mk_solver(sb_pipeline_find("none"), NULL, SB_SEARCH_BFS, 0, 64);
    int n = 0, multi = 0, over10 = 0, attempts = 0;
    while (multi < WANT) {
        cr_assert_lt(++attempts, 2000, "too few countable puzzles");
        uint8_t full[81], base[81];
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 28 + ref_rng_below(&r, 6), base);
        if (attempts % 4 == 0 && n - multi + 2 <= EXTRA) {
            /* A few unique and unsolvable ones too. */
            memcpy(puz[n], base, 81);
            cnt[n++] = 1;
            if (add_bad_clue(&r, full, base, 1)) {
                memcpy(puz[n], base, 81);
                cnt[n++] = 0;
            }
            continue;
        }
        remove_clues(&r, base, 2 + ref_rng_below(&r, 5));
        const int k = ref_count(base, MAX_SOL + 1, NULL);
        if (k < 2 || k > MAX_SOL)
            continue;
        sb_result res;
        if (solve_rc(probe, base, &res) != SB_OK)
            continue; /* keep BFS cheap for the slowest pipelines */
        memcpy(puz[n], base, 81);
        cnt[n++] = k;
        multi++;
        over10 += k > 10;
    }
    sb_solver_free(probe);
    cr_assert_geq(over10, 5, "only %d puzzles with more than 10 solutions", over10);
    const int np = pipeline_count();
    for (int p = 0; p < np; p++)
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
            sb_solver *s = mk_solver(p, NULL, m, 0, TEST_BFS_CAP);
            for (int i = 0; i < n; i++) {
                sb_result res;
                char pt[82];
                tu_text(puz[i], pt);
                const int rc = solve_rc(s, puz[i], &res);
                cr_assert_eq(rc, SB_OK, "%s/%s limit 0: %s: %d (%s)", pipeline_name(p),
                             SEARCH_NAME[m], pt, rc, sb_strerror(rc));
                cr_assert_eq(res.count, (uint64_t)cnt[i], "%s/%s limit 0: %s: count %llu, ref %d",
                             pipeline_name(p), SEARCH_NAME[m], pt,
                             (unsigned long long)res.count, cnt[i]);
                if (cnt[i])
                    cr_assert(ref_is_valid_solution(puz[i], res.solution.cell));
            }
            sb_solver_free(s);
        }
    free(puz);
    free(cnt);
}

/* The empty grid: DFS finds two solutions with every pipeline. BFS has to widen every open
 * branch level by level, so under a small cap it may give up with SB_ERR_FRONTIER, keeping
 * what it found; if it completes, it finds two. */
Test(pipelines, empty_grid_every_pipeline)
{
    const uint8_t empty[81] = {0};
    const int np = pipeline_count();
    for (int p = 0; p < np; p++) {
        for (uint64_t limit = 1; limit <= 2; limit++) {
            sb_solver *s = mk_solver(p, NULL, SB_SEARCH_DFS, limit, SB_BFS_CAP);
            sb_result res;
            cr_assert_eq(solve_rc(s, empty, &res), SB_OK);
            cr_assert_eq(res.count, limit, "%s/dfs limit %llu: count %llu", pipeline_name(p),
                         (unsigned long long)limit, (unsigned long long)res.count);
            cr_assert(ref_is_valid_solution(empty, res.solution.cell), "%s", pipeline_name(p));
            sb_solver_free(s);
        }
        sb_solver *s = mk_solver(p, NULL, SB_SEARCH_BFS, 2, 256);
        sb_result res;
        const int rc = solve_rc(s, empty, &res);
        cr_assert(rc == SB_OK || rc == SB_ERR_FRONTIER, "%s/bfs: %d (%s)", pipeline_name(p), rc,
                  sb_strerror(rc));
        if (rc == SB_OK)
            cr_assert_eq(res.count, 2, "%s/bfs: count %llu", pipeline_name(p),
                         (unsigned long long)res.count);
        else
            cr_assert_lt(res.count, 2);
        if (res.count)
            cr_assert(ref_is_valid_solution(empty, res.solution.cell));
        sb_solver_free(s);
    }
}

/* A tiny cap on a puzzle with many open branches ends in SB_ERR_FRONTIER. */
Test(pipelines, bfs_tiny_cap_frontier_error)
{
    const uint8_t empty[81] = {0};
    uint8_t sparse[81];
    ref_rng r;
    ref_rng_seed(&r, 31);
    uint8_t full[81];
    ref_random_full_grid(&r, full);
    ref_random_puzzle(&r, full, 20, sparse);
    const int np = pipeline_count();
    for (int p = 0; p < np; p++)
        for (uint64_t limit = 0; limit <= 2; limit += 2) {
            sb_solver *s = mk_solver(p, NULL, SB_SEARCH_BFS, limit, 2);
            sb_result res;
            int rc = solve_rc(s, empty, &res);
            cr_assert_eq(rc, SB_ERR_FRONTIER, "%s cap 2 limit %llu, empty grid: %d (%s)",
                         pipeline_name(p), (unsigned long long)limit, rc, sb_strerror(rc));
            cr_assert_lt(res.count, 2);
            rc = solve_rc(s, sparse, &res);
            cr_assert_eq(rc, SB_ERR_FRONTIER, "%s cap 2 limit %llu, 20 clues: %d (%s)",
                         pipeline_name(p), (unsigned long long)limit, rc, sb_strerror(rc));
            if (res.count)
                cr_assert(ref_is_valid_solution(sparse, res.solution.cell));
            /* The solver stays usable after the error. */
            const uint8_t *again = full;
            rc = solve_rc(s, again, &res);
            cr_assert_eq(rc, SB_OK);
            cr_assert_eq(res.count, 1);
            sb_solver_free(s);
        }
}

/* bfs_cap is "the most boards the BFS frontier may hold". With a cap of 1 the frontier can
 * never hold the two live branches that any puzzle with two or more solutions must have at
 * once under limit 0, so every such solve must end in SB_ERR_FRONTIER. */
Test(pipelines, bfs_cap_is_a_hard_limit)
{
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0xCA9));
    const int np = pipeline_count();
    int tested = 0;
    for (int k = 0; k < 30 && tested < 8; k++) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        memcpy(p, full, 81);
        for (int c = 0; c < 18 + k % 5; c++)
            p[c] = 0; /* the top two rows and a bit: a handful of solutions */
        const int n = ref_count(p, 0, NULL);
        if (n < 2 || n > 50)
            continue;
        tested++;
        char pt[82];
        tu_text(p, pt);
        for (int pi = 0; pi < np; pi++) {
            sb_solver *s = mk_solver(pi, NULL, SB_SEARCH_BFS, 0, 1);
            sb_result res;
            const int rc = solve_rc(s, p, &res);
            sb_solver_free(s); /* before asserting: no leak report on failure */
            cr_assert_eq(rc, SB_ERR_FRONTIER,
                         "%s bfs_cap 1, limit 0, %s (%d solutions): sb_solve = %d (%s), "
                         "count %llu",
                         pipeline_name(pi), pt, n, rc, sb_strerror(rc),
                         (unsigned long long)res.count);
            cr_assert_lt(res.count, (uint64_t)n);
        }
    }
    cr_assert_geq(tested, 4);
}

/* ------------------------------------------------------------------------------------------ */
/* Technique counters                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Techniques a spec lists (tokens after ':'; nt and ht are groups). */
static void spec_techniques(const char *spec, int in[SB_TECH_COUNT])
{
    static const char *const names[] = {"ns", "hs", "lc",  "nt2", "nt3", "nt4", "ht2",
                                        "ht3", "ht4", "xw", "sf", "jf",  "xy",  "xyz",
                                        "ww", "sky", "kite", "col", "xc"};
    /* A technique added to the registry must be named here too (not a NULL to crash on). */
    _Static_assert(sizeof names / sizeof names[0] == SB_TECH_COUNT, "one name per technique");
    memset(in, 0, SB_TECH_COUNT * sizeof in[0]);
    const char *p = strchr(spec, ':');
    if (!p)
        return;
    p++;
    while (*p) {
        const size_t len = strcspn(p, ",");
        if (len == 2 && !strncmp(p, "nt", 2))
            in[3] = in[4] = in[5] = 1;
        else if (len == 2 && !strncmp(p, "ht", 2))
            in[6] = in[7] = in[8] = 1;
        else
            for (int t = 0; t < SB_TECH_COUNT; t++)
                if (strlen(names[t]) == len && !strncmp(p, names[t], len))
                    in[t] = 1;
        p += len;
        if (*p == ',')
            p++;
    }
}

static int counts_all_zero(const sb_technique_counts c[SB_TECH_COUNT])
{
    for (int t = 0; t < SB_TECH_COUNT; t++)
        if (c[t].applications || c[t].placements || c[t].eliminations)
            return 0;
    return 1;
}

Test(pipelines, technique_counters)
{
    /* A unique puzzle that naked singles alone do not complete. */
    ref_rng r;
    ref_rng_seed(&r, 4242);
    uint8_t p[81], full[81];
    do {
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 24, p);
    } while (naked_singles_complete(p));

    size_t np = 0;
    const sb_pipeline_info *pl = sb_pipelines(&np);
    const int list = sb_pipeline_find("list");
    cr_assert_geq(list, 0);
    sb_solver *s = mk_solver(list, NULL, SB_SEARCH_DFS, 2, SB_BFS_CAP);
    sb_technique_counts c0[SB_TECH_COUNT], c1[SB_TECH_COUNT], c2[SB_TECH_COUNT];
    sb_solver_counts(s, c0);
    cr_assert(counts_all_zero(c0), "a new solver has nonzero counters");
    sb_result res;
    cr_assert_eq(solve_rc(s, p, &res), SB_OK);
    cr_assert_eq(res.count, 1);
    sb_solver_counts(s, c1);
    cr_assert_gt(c1[SB_TECH_NAKED_SINGLE].eliminations, 0);
    cr_assert_gt(c1[SB_TECH_NAKED_SINGLE].applications, 0);
    cr_assert_gt(c1[SB_TECH_HIDDEN_SINGLE].eliminations, 0);
    cr_assert_gt(c1[SB_TECH_HIDDEN_SINGLE].placements, 0);
    cr_assert_gt(c1[SB_TECH_HIDDEN_SINGLE].applications, 0);
    /* Counters sum over solves: the same solve again doubles them. */
    cr_assert_eq(solve_rc(s, p, &res), SB_OK);
    sb_solver_counts(s, c2);
    for (int t = 0; t < SB_TECH_COUNT; t++) {
        cr_assert_eq(c2[t].applications, 2 * c1[t].applications, "technique %d", t);
        cr_assert_eq(c2[t].placements, 2 * c1[t].placements, "technique %d", t);
        cr_assert_eq(c2[t].eliminations, 2 * c1[t].eliminations, "technique %d", t);
    }
    sb_solver_counts_reset(s);
    sb_solver_counts(s, c0);
    cr_assert(counts_all_zero(c0), "reset left nonzero counters");
    cr_assert_eq(solve_rc(s, p, &res), SB_OK);
    sb_solver_counts(s, c2);
    cr_assert_arr_eq(c2, c1, sizeof c1, "after a reset, one solve counts as the first did");
    sb_solver_free(s);

    /* Every pipeline on a small corpus: techniques outside its spec stay at zero, fast keeps
     * all zeros, and the counters are consistent with each other. */
    corpus c = corpus_build(UINT64_C(0xC0C0), 20);
    for (size_t pi = 0; pi < np; pi++)
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
            sb_solver *ps = mk_solver((int)pi, NULL, m, 2, TEST_BFS_CAP);
            for (int i = 0; i < c.n; i++)
                if (m == SB_SEARCH_DFS || c.items[i].bfs_ok)
                    cr_assert_eq(solve_rc(ps, c.items[i].p, &res), SB_OK);
            sb_technique_counts tc[SB_TECH_COUNT];
            sb_solver_counts(ps, tc);
            if (pi == 0) {
                cr_assert(counts_all_zero(tc), "fast/%s has nonzero counters", SEARCH_NAME[m]);
            } else {
                int in[SB_TECH_COUNT];
                spec_techniques(pl[pi].spec, in);
                for (int t = 0; t < SB_TECH_COUNT; t++) {
                    if (!in[t])
                        cr_assert(!tc[t].applications && !tc[t].placements &&
                                      !tc[t].eliminations,
                                  "%s/%s: technique %d not in %s has counters", pl[pi].name,
                                  SEARCH_NAME[m], t, pl[pi].spec);
                    cr_assert_leq(tc[t].placements, tc[t].eliminations, "%s technique %d",
                                  pl[pi].name, t);
                    if (tc[t].eliminations)
                        cr_assert_gt(tc[t].applications, 0, "%s technique %d", pl[pi].name, t);
                }
                if (in[SB_TECH_NAKED_SINGLE])
                    cr_assert_gt(tc[SB_TECH_NAKED_SINGLE].eliminations, 0, "%s/%s",
                                 pl[pi].name, SEARCH_NAME[m]);
            }
            sb_solver_free(ps);
        }
    free(c.items);
}

/* ------------------------------------------------------------------------------------------ */
/* Rating                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The technique set of each class below SEARCH, as custom specs (restart order). */
static const char *const CLASS_SPEC[SB_CLASS_SEARCH] = {
    "restart:ns", "restart:ns,hs", "restart:ns,hs,lc", "restart:ns,hs,lc,nt,ht",
    "restart:ns,hs,lc,nt,ht,xw,sf,jf", "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww",
    "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc"};

/* The class that adds technique t (docs/strategies.md "Rating"). */
static int class_of_technique(int t)
{
    return t <= SB_TECH_LOCKED         ? t
           : t <= SB_TECH_HIDDEN_QUAD  ? SB_CLASS_TUPLES
           : t <= SB_TECH_JELLYFISH    ? SB_CLASS_FISH
           : t <= SB_TECH_W_WING       ? SB_CLASS_WINGS
                                       : SB_CLASS_CHAINS;
}

Test(rating, class_names_and_arguments)
{
    static const char *const want[SB_CLASS_COUNT] = {"singles", "hidden", "locked", "tuples",
                                                     "fish",    "wings",  "chains", "search"};
    cr_assert_eq(SB_CLASS_COUNT, 8);
    for (int k = 0; k < SB_CLASS_COUNT; k++)
        cr_assert_str_eq(sb_class_name(k), want[k]);
    cr_assert_str_eq(sb_class_name(-1), "?");
    cr_assert_str_eq(sb_class_name(SB_CLASS_COUNT), "?");
    cr_assert_str_eq(sb_class_name(1000), "?");
    sb_grid g;
    memset(&g, 0, sizeof g);
    sb_rating out;
    cr_assert_eq(sb_rate(NULL, &out), SB_ERR_ARG);
    cr_assert_eq(sb_rate(&g, NULL), SB_ERR_ARG);
    g.cell[40] = 10;
    cr_assert_eq(sb_rate(&g, &out), SB_ERR_ARG);
}

Test(rating, fixed_cases)
{
    ref_rng r;
    ref_rng_seed(&r, 808);
    uint8_t full[81], p[81];
    sb_rating out;
    int tested = 0;
    for (int k = 0; k < 20; k++) {
        ref_random_full_grid(&r, full);
        /* A full grid, and a full grid minus a few cells naked singles complete. */
        sb_grid g = tu_from_cells(full);
        cr_assert_eq(sb_rate(&g, &out), SB_OK);
        cr_assert_eq(out.cls, SB_CLASS_SINGLES);
        memcpy(p, full, 81);
        remove_clues(&r, p, 3 + k % 6);
        if (!naked_singles_complete(p))
            continue;
        tested++;
        g = tu_from_cells(p);
        memset(&out, 0xA5, sizeof out);
        cr_assert_eq(sb_rate(&g, &out), SB_OK);
        cr_assert_eq(out.cls, SB_CLASS_SINGLES, "full grid minus %d cells rated %s", 3 + k % 6,
                     sb_class_name((int)out.cls));
        for (int t = 1; t < SB_TECH_COUNT; t++)
            cr_assert(!out.counts[t].applications && !out.counts[t].placements &&
                      !out.counts[t].eliminations);
        /* Conflicting givens and the empty grid need search. */
        memcpy(p, full, 81);
        p[0] = full[1];
        p[1] = full[0];
        g = tu_from_cells(p);
        cr_assert_eq(sb_rate(&g, &out), SB_OK);
        cr_assert_eq(out.cls, SB_CLASS_SEARCH);
    }
    cr_assert_geq(tested, 15);
    sb_grid empty;
    memset(&empty, 0, sizeof empty);
    cr_assert_eq(sb_rate(&empty, &out), SB_OK);
    cr_assert_eq(out.cls, SB_CLASS_SEARCH);
}

/* Checks the rating of the unique puzzle p (solution full; NULL: unknown, the class solvers
 * must agree) against the class solvers: class c <=> the solver with the set of class c'
 * needs 0 guesses exactly when c' >= c; the rating's counters are those of that solver, and
 * only its set's techniques work, the newest needed. @return the class. */
static int check_rating(sb_solver *const cls_solver[SB_CLASS_SEARCH], const uint8_t *p,
                        const uint8_t *full)
{
    char pt[82];
    tu_text(p, pt);
    sb_grid g = tu_from_cells(p);
    sb_rating rt;
    uint8_t sol[81];
    cr_assert_eq(sb_rate(&g, &rt), SB_OK);
    cr_assert(rt.cls >= SB_CLASS_SINGLES && rt.cls <= SB_CLASS_SEARCH);
    for (int c = 0; c < SB_CLASS_SEARCH; c++) {
        sb_solver_counts_reset(cls_solver[c]);
        sb_result res;
        cr_assert_eq(solve_rc(cls_solver[c], p, &res), SB_OK);
        cr_assert_eq(res.count, 1);
        if (!full && c == 0)
            memcpy(sol, res.solution.cell, 81);
        cr_assert_arr_eq(res.solution.cell, full ? full : sol, 81);
        if ((int)rt.cls <= c)
            cr_assert_eq(res.guesses, 0, "%s rated %s, but %s needs %llu guesses", pt,
                         sb_class_name((int)rt.cls), CLASS_SPEC[c],
                         (unsigned long long)res.guesses);
        else
            cr_assert_gt(res.guesses, 0, "%s rated %s, but %s needs no guess", pt,
                         sb_class_name((int)rt.cls), CLASS_SPEC[c]);
        if ((int)rt.cls == c) {
            /* The solve's work is the rating's: its root is the rating's run, and the
             * cells it then takes without a guess find nothing more, though each runs the
             * techniques again (calls). */
            sb_technique_counts tc[SB_TECH_COUNT];
            sb_solver_counts(cls_solver[c], tc);
            for (int t = 0; t < SB_TECH_COUNT; t++) {
                cr_assert(tc[t].applications == rt.counts[t].applications &&
                              tc[t].placements == rt.counts[t].placements &&
                              tc[t].eliminations == rt.counts[t].eliminations,
                          "%s: rating counters of technique %d differ from the %s solver's",
                          pt, t, CLASS_SPEC[c]);
                cr_assert_geq(tc[t].calls, rt.counts[t].calls, "%s technique %d", pt, t);
            }
        }
    }
    /* Only the class's techniques worked, and its newest techniques were needed. */
    if (rt.cls < SB_CLASS_SEARCH) {
        int in[SB_TECH_COUNT];
        spec_techniques(CLASS_SPEC[rt.cls], in);
        uint64_t newest = 0;
        for (int t = 0; t < SB_TECH_COUNT; t++) {
            if (!in[t])
                cr_assert(!rt.counts[t].applications && !rt.counts[t].placements &&
                              !rt.counts[t].eliminations,
                          "%s: technique %d worked outside class %s", pt, t,
                          sb_class_name((int)rt.cls));
            if (class_of_technique(t) == (int)rt.cls)
                newest += rt.counts[t].eliminations;
        }
        /* (Not for SINGLES: assigning the givens alone may leave nothing for ns.) */
        if (rt.cls > SB_CLASS_SINGLES)
            cr_assert_gt(newest, 0, "%s rated %s without using its techniques", pt,
                         sb_class_name((int)rt.cls));
    }
    return (int)rt.cls;
}

/* The class solvers of check_rating (freed with free_class_solvers). */
static void make_class_solvers(sb_solver *cls_solver[SB_CLASS_SEARCH])
{
    for (int k = 0; k < SB_CLASS_SEARCH; k++)
        cls_solver[k] = k == 0 ? mk_solver(sb_pipeline_find("singles"), NULL, SB_SEARCH_DFS, 2,
                                           SB_BFS_CAP)
                               : mk_solver(0, CLASS_SPEC[k], SB_SEARCH_DFS, 2, SB_BFS_CAP);
}

static void free_class_solvers(sb_solver *cls_solver[SB_CLASS_SEARCH])
{
    for (int k = 0; k < SB_CLASS_SEARCH; k++)
        sb_solver_free(cls_solver[k]);
}

/* The class of a unique puzzle is the first technique set whose solver needs no guess
 * (check_rating) on random puzzles, which reach every class up to tuples (the whole-board
 * classes are checked on top1465 below). Puzzles without exactly one solution rate SEARCH. */
Test(rating, class_matches_guess_free_solving)
{
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0x4A7E));
    sb_solver *cls_solver[SB_CLASS_SEARCH];
    make_class_solvers(cls_solver);
    int seen[SB_CLASS_COUNT] = {0};
    for (int k = 0; k < 320; k++) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        const int target = k % 4 == 0 ? 36 + ref_rng_below(&r, 20) : 22 + ref_rng_below(&r, 10);
        ref_unique_puzzle(&r, full, target, p);
        seen[check_rating(cls_solver, p, full)]++;
    }
    for (int c = 0; c < SB_CLASS_FISH; c++)
        cr_assert_gt(seen[c], 0, "no puzzle of class %s in the sample (%d %d %d %d)",
                     sb_class_name(c), seen[0], seen[1], seen[2], seen[3]);
    cr_assert_gt(seen[SB_CLASS_SEARCH], 0);
    free_class_solvers(cls_solver);

    /* Unsolvable and multiple-solution puzzles rate SEARCH. */
    corpus c = corpus_build(UINT64_C(0x4A7F), 40);
    for (int i = 0; i < c.n; i++) {
        if (c.items[i].ref == 1)
            continue;
        sb_grid g = tu_from_cells(c.items[i].p);
        sb_rating rt;
        cr_assert_eq(sb_rate(&g, &rt), SB_OK);
        char pt[82];
        tu_text(c.items[i].p, pt);
        cr_assert_eq(rt.cls, SB_CLASS_SEARCH, "%s (%d solutions) rated %s", pt, c.items[i].ref,
                     sb_class_name((int)rt.cls));
    }
    free(c.items);
}

/* The first n puzzles of a sample file into cells (81 each). @return how many. */
static size_t rating_samples(const char *path, uint8_t *cells, size_t n)
{
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    char line[256];
    size_t k = 0;
    while (k < n && fgets(line, sizeof line, in)) {
        sb_grid gr;
        if (sb_parse_line(line, strcspn(line, "\r\n"), &gr, NULL, NULL) == SB_LINE_PUZZLE)
            memcpy(cells + 81 * k++, gr.cell, 81);
    }
    fclose(in);
    return k;
}

/* The whole-board classes on a hard corpus: every puzzle of the first 440 of top1465 (which
 * hold all three: fish at puzzles 338 and 428) obeys check_rating, and each class appears. */
Test(rating, fish_wings_chains_on_top1465, .timeout = 600)
{
    enum { N = 440 };
    uint8_t *cells = malloc(81 * N);
    cr_assert_eq(rating_samples("datasets/samples/top1465.txt", cells, N), N);
    sb_solver *cls_solver[SB_CLASS_SEARCH];
    make_class_solvers(cls_solver);
    int seen[SB_CLASS_COUNT] = {0};
    for (int i = 0; i < N; i++)
        seen[check_rating(cls_solver, cells + 81 * i, NULL)]++;
    for (int c = SB_CLASS_FISH; c <= SB_CLASS_SEARCH; c++)
        cr_assert_gt(seen[c], 0, "no puzzle of class %s in top1465's first %d", sb_class_name(c),
                     N);
    free_class_solvers(cls_solver);
    free(cells);
}

/* One found puzzle per whole-board class (top1465 puzzles 338, 43 and 92, 0-based), each
 * needing exactly its class: the class before it stalls, the class itself completes. */
Test(rating, one_puzzle_per_whole_board_class)
{
    static const struct {
        const char *p;
        sb_class cls;
    } cases[] = {
        {"2..6.34..17.....9............64....59...................53..6...8..7..1.....1....",
         SB_CLASS_FISH},
        {"5.7....3.....61...1.8......62..4.......7...8...........1....6.43..5...........2..",
         SB_CLASS_WINGS},
        {"1.37....5...6.4...8...........81.....9....7...6.....9..2....4..5...3...........2.",
         SB_CLASS_CHAINS},
    };
    sb_solver *cls_solver[SB_CLASS_SEARCH];
    make_class_solvers(cls_solver);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_grid g;
        cr_assert_eq(sb_parse_line(cases[i].p, 81, &g, NULL, NULL), SB_LINE_PUZZLE);
        cr_assert_eq(check_rating(cls_solver, g.cell, NULL), (int)cases[i].cls, "%s",
                     cases[i].p);
    }
    free_class_solvers(cls_solver);
}

/* The band kernel stamped for the baseline (kernel_base.c), called directly so that it is
 * checked on every architecture whether or not the scalar level dispatches to it, and the
 * scalar level itself: the reference kernel's status, count, guesses and first solution on
 * the first puzzles of every sample corpus and the multi-solution one, DFS at limits 1 and 2
 * and BFS at limit 2. */
Test(pipelines, base_kernel_and_scalar_level_equal_the_reference_on_the_samples)
{
    enum { PER_FILE = 300, BFS_PER_FILE = 60 };
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/top1465.txt",
                                        "datasets/samples/hardest_11plus_1000.txt",
                                        "datasets/multi/multi_2000_seed1.txt"};
    const kernel_fns base = {sb_kernel_dfs_base, sb_kernel_bfs_base};
    uint8_t *cells = malloc(SB_CELLS * PER_FILE);
    cr_assert_not_null(cells);
    kernel_state kr = kernel_state_new(), kb = kernel_state_new();
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const size_t n = rating_samples(files[f], cells, PER_FILE);
        cr_assert_eq(n, PER_FILE, "%s: %zu puzzles", files[f], n);
        for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++)
            for (uint64_t limit = m == SB_SEARCH_DFS ? 1 : 2; limit <= 2; limit++) {
                sb_options opt;
                sb_options_default(&opt);
                opt.simd = SB_SIMD_SCALAR;
                opt.limit = limit;
                opt.search = m;
                opt.bfs_cap = TEST_BFS_CAP;
                sb_solver *s = NULL;
                cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
                char what[2][96];
                snprintf(what[0], sizeof what[0], "base kernel %s limit %llu, %s",
                         SEARCH_NAME[m], (unsigned long long)limit, files[f]);
                snprintf(what[1], sizeof what[1], "scalar level %s limit %llu, %s",
                         SEARCH_NAME[m], (unsigned long long)limit, files[f]);
                const size_t todo = m == SB_SEARCH_DFS ? n : BFS_PER_FILE;
                for (size_t i = 0; i < todo; i++) {
                    const uint8_t *p = cells + SB_CELLS * i;
                    sb_result want, got;
                    const int want_rc = kernel_solve(REF_KERNEL, &kr, m, p, limit, &want);
                    cr_assert_eq(want_rc, SB_OK, "%s: the reference failed", what[0]);
                    const int rc = kernel_solve(base, &kb, m, p, limit, &got);
                    assert_same_result(rc, &got, want_rc, &want, what[0], p);
                    const int lrc = solve_rc(s, p, &got);
                    assert_same_result(lrc, &got, want_rc, &want, what[1], p);
                }
                sb_solver_free(s);
            }
    }
    kernel_state_free(&kr);
    kernel_state_free(&kb);
    free(cells);
}
