/*
 * test_fast_tech.c — "fast+T[,T...]": the fused kernel with techniques on its own board
 * (src/kernel/kernel_tech.h). Against the DLX oracle and plain "fast" on the sample corpora
 * (17-clue, hardest 11+, several-solution puzzles), at every SIMD level this CPU runs; the
 * guesses of one spec are the same at every level; every application keeps the solution's
 * digits and removes exactly what the registry's rule removes on that board (a check hook on
 * the internal entries; the generic sb_technique_step, or for the tuples a brute force over
 * each house's subsets); hand-made positions where each technique must fire and must not
 * (kernel_tech.h's sbt_run on hand-made planes, counters checked); specs outside the native
 * set are refused.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../src/internal.h"
/* The techniques themselves, for the hand-made positions: sbt_run on planes made here (the
 * kernel hooks only sbt_stall uses are never called). */
#define SBK_PLANES(b, w) memset((w), 0, SBT_WORDS * sizeof *(w))
#define SBK_ELIM(b, el) 0
#include "../src/kernel/kernel_tech.h"
#include "dlx.h"
#include "reference.h"
#include "test_util.h"

/* Puzzles per corpus: enough for every technique to fire many times (TU_SAMPLE of them in the
 * slow builds). NPUZ bounds the arrays. */
enum { PER_CORPUS = 100, NPUZ = 3 * PER_CORPUS };

/* Every native technique alone (nt and ht: the three sizes), then combinations. */
static const char *const specs[] = {"fast+xw",  "fast+sf",  "fast+jf", "fast+sky",
                                    "fast+kite", "fast+xy", "fast+xyz", "fast+ww",
                                    "fast+col", "fast+xc", "fast+nt",  "fast+ht",
                                    "fast+xw,sf,jf,sky,kite,xy,xyz,ww", "fast+nt2,ht2,col,xc",
                                    "fast+nt,ht,xw,sf,jf,sky,kite,xy,xyz,ww,col,xc"};
enum { NSPECS = sizeof specs / sizeof specs[0] };

/* The test corpus with its oracle answers. */
typedef struct corpus {
    int n;
    uint8_t cells[NPUZ][SB_CELLS];
    uint8_t first[NPUZ][SB_CELLS]; /* the oracle's first solution */
    uint64_t count[NPUZ];          /* the oracle's count, limit 2 */
} corpus;

/* Appends up to max puzzles of path to c. */
static void load(corpus *c, const char *path, int max)
{
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    char line[256];
    for (int k = 0; k < max && fgets(line, sizeof line, in);) {
        sb_grid gr;
        if (sb_parse_line(line, strcspn(line, "\r\n"), &gr, NULL, NULL) != SB_LINE_PUZZLE)
            continue;
        memcpy(c->cells[c->n++], gr.cell, SB_CELLS);
        k++;
    }
    fclose(in);
}

/* The three corpora, each puzzle counted by DLX (limit 2). */
static corpus *build(void)
{
    corpus *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    load(c, "datasets/samples/17_clue_2000.txt", TU_SAMPLE(PER_CORPUS));
    load(c, "datasets/samples/hardest_11plus_1000.txt", TU_SAMPLE(PER_CORPUS));
    load(c, "datasets/multi/multi_2000_seed1.txt", TU_SAMPLE(PER_CORPUS));
    cr_assert_eq(c->n, 3 * TU_SAMPLE(PER_CORPUS));
    int houses[27 * 9];
    ref_sudoku_houses(houses);
    for (int i = 0; i < c->n; i++)
        c->count[i] = dlx_count(SB_CELLS, 9, 27, houses, c->cells[i], 2, c->first[i]);
    return c;
}

/* A solver for spec at level, search mode m (limit 2). */
static sb_solver *solver(const char *spec, int level, int m)
{
    sb_options o;
    sb_options_default(&o);
    o.simd = level;
    o.search = m;
    cr_assert_eq(sb_options_pipeline(&o, spec), SB_OK, "%s", spec);
    sb_solver *s = NULL;
    cr_assert_eq(sb_solver_new(&s, &o), SB_OK, "%s", spec);
    return s;
}

/* Solutions and counts equal the oracle's (depth- and breadth-first); guesses equal across
 * levels; the techniques save guesses over the corpus; their counters move. */
Test(fast_tech, equals_fast_and_dlx_at_every_level)
{
    corpus *c = build();
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    uint64_t fast_guesses = 0;
    sb_solver *f = solver("fast", SB_SIMD_SCALAR, SB_SEARCH_DFS);
    for (int i = 0; i < c->n; i++) {
        sb_result r;
        const sb_grid g = tu_from_cells(c->cells[i]);
        cr_assert_eq(sb_solve(f, &g, &r), SB_OK);
        cr_assert_eq(r.count, c->count[i]);
        fast_guesses += r.guesses;
    }
    sb_solver_free(f);
    uint64_t guesses[NPUZ];
    for (int sp = 0; sp < NSPECS; sp++) {
        uint64_t total = 0;
        for (int li = 0; li < nl; li++) {
            const char *lv = sb_simd_name(levels[li]);
            for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
                sb_solver *s = solver(specs[sp], levels[li], m);
                for (int i = 0; i < c->n; i++) {
                    const sb_grid g = tu_from_cells(c->cells[i]);
                    sb_result r;
                    char t[82];
                    tu_text(c->cells[i], t);
                    cr_assert_eq(sb_solve(s, &g, &r), SB_OK);
                    cr_assert_eq(r.count, c->count[i], "%s %s puzzle %d %s: count %llu, DLX %llu",
                                 specs[sp], lv, i, t, (unsigned long long)r.count,
                                 (unsigned long long)c->count[i]);
                    if (r.count)
                        cr_assert(ref_is_valid_solution(c->cells[i], r.solution.cell),
                                  "%s %s puzzle %d %s: invalid solution", specs[sp], lv, i, t);
                    if (r.count == 1)
                        cr_assert_eq(memcmp(r.solution.cell, c->first[i], SB_CELLS), 0);
                    if (m != SB_SEARCH_DFS)
                        continue;
                    if (li == 0) {
                        guesses[i] = r.guesses;
                        total += r.guesses;
                    }
                    cr_assert_eq(r.guesses, guesses[i], "%s puzzle %d: %s %llu guesses, %s %llu",
                                 specs[sp], i, lv, (unsigned long long)r.guesses,
                                 sb_simd_name(levels[0]), (unsigned long long)guesses[i]);
                }
                sb_technique_counts k[SB_TECH_COUNT];
                sb_solver_counts(s, k);
                uint64_t apps = 0;
                for (int t = 0; t < SB_TECH_COUNT; t++) {
                    apps += k[t].applications;
                    /* an X-chain application is a pair of chain ends, and many pairs often
                     * remove the same candidates: it removes something, no more */
                    if (t == SB_TECH_XCHAIN)
                        cr_assert(!k[t].applications || k[t].eliminations, "%s %s", specs[sp], lv);
                    else
                        cr_assert_geq(k[t].eliminations, k[t].applications, "%s %s", specs[sp],
                                      lv);
                    cr_assert_leq(k[t].placements, k[t].eliminations, "%s %s", specs[sp], lv);
                }
                cr_assert_gt(apps, 0, "%s %s: never applied on the corpus", specs[sp], lv);
                sb_solver_free(s);
            }
        }
        /* Sound techniques only remove what a branch would have had to refute: over this
         * corpus each saves guesses (a measured property of these samples, not a theorem:
         * another board can change the branching cell). */
        cr_assert_leq(total, fast_guesses, "%s: %llu guesses, fast %llu", specs[sp],
                      (unsigned long long)total, (unsigned long long)fast_guesses);
    }
    free(c);
}

/* The check hook's state: the solution every board on the solution path keeps. */
typedef struct sound_ctx {
    const uint8_t *sol;
    uint64_t checked;  /* applications on a board holding the solution */
    uint64_t compared; /* applications compared with the registry's rule */
} sound_ctx;

/* The candidate masks (bit d: digit d+1) of planes w (kernel_tech.h's layout). */
static void cands_of(const uint32_t *w, uint16_t cand[SB_CELLS])
{
    for (int c = 0; c < SB_CELLS; c++) {
        cand[c] = 0;
        for (int d = 0; d < SB_DIGITS; d++)
            cand[c] |= (uint16_t)((w[4 * d + c / 27] >> (c % 27) & 1u) << d);
    }
}

/* Planes (kernel_tech.h's layout) of candidate masks. */
static void planes_of(const uint16_t cand[SB_CELLS], uint32_t w[SBT_WORDS])
{
    memset(w, 0, SBT_WORDS * sizeof *w);
    for (int c = 0; c < SB_CELLS; c++)
        for (int d = 0; d < SB_DIGITS; d++)
            w[4 * d + c / 27] |= (uint32_t)(cand[c] >> d & 1u) << (c % 27);
}

/* technique.h's tuple rule on every house of cand by brute force over all k-subsets of the
 * members (bit sets, not the kernel's recursion), all houses reading cand: the candidates
 * left into out. @return the houses where a tuple removes something, or -1 when some k
 * members cover fewer than k. */
static int ref_tuples(const uint16_t cand[SB_CELLS], int k, int hidden, uint16_t out[SB_CELLS])
{
    int apps = 0;
    int houses[27 * 9];
    ref_sudoku_houses(houses);
    memcpy(out, cand, SB_CELLS * sizeof *out);
    for (int h = 0; h < 27; h++) {
        const int *hc = houses + 9 * h;
        uint16_t set[9], known = 0;
        int member[9], m = 0;
        for (int i = 0; i < 9; i++)
            if (__builtin_popcount(cand[hc[i]]) == 1)
                known |= cand[hc[i]];
        for (int v = 0; v < 9; v++) { /* v: a digit (hidden) or a position (naked) */
            uint16_t s = 0;
            if (hidden && !(known >> v & 1))
                for (int i = 0; i < 9; i++)
                    if (__builtin_popcount(cand[hc[i]]) > 1 && (cand[hc[i]] >> v & 1))
                        s |= (uint16_t)(1u << i);
            if (hidden ? !(known >> v & 1) : __builtin_popcount(cand[hc[v]]) > 1) {
                member[m] = v;
                set[m++] = hidden ? s : cand[hc[v]];
            }
        }
        if (m <= k)
            continue;
        int found = 0;
        for (unsigned sub = 0; sub < 1u << m; sub++) {
            if (__builtin_popcount(sub) != k)
                continue;
            uint16_t cover = 0, mine = 0;
            for (int i = 0; i < m; i++)
                if (sub >> i & 1) {
                    cover |= set[i];
                    mine |= (uint16_t)(1u << member[i]);
                }
            if (__builtin_popcount(cover) < k)
                return -1;
            if (__builtin_popcount(cover) > k)
                continue;
            for (int i = 0; i < 9; i++) {
                const int c = hc[i];
                const uint16_t keep = hidden && (cover >> i & 1) ? mine /* the tuple's cells */
                                      : !hidden && __builtin_popcount(cand[c]) > 1 &&
                                              !(mine >> i & 1)
                                          ? (uint16_t)~cover /* the other unknown cells */
                                          : 0x1FF;
                found |= (cand[c] & ~keep) != 0;
                out[c] &= keep;
            }
        }
        apps += found;
    }
    return apps;
}

/* Fails unless r (applications, or SBT_CONTRADICTION) and el are what the registry's rule
 * for t finds on planes w: the generic engine's step for the whole-board techniques (one
 * look, landing together), ref_tuples for the tuples (every house of the one board). r < 0
 * only needs the rule to find the board dead, or (col) something to remove: when both colours
 * of a cluster see themselves the kernel says so at once, the generic stamp wraps one. */
static void rule_check(int t, int r, const uint32_t *w, const uint32_t *el)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS], got[SB_CELLS];
    uint32_t after[SBT_WORDS];
    cands_of(w, cand);
    for (int i = 0; i < SBT_WORDS; i++)
        after[i] = w[i] & ~el[i];
    cands_of(after, got);
    memcpy(want, cand, sizeof want);
    int apps, dead;
    if (t >= SB_TECH_NAKED_PAIR && t <= SB_TECH_HIDDEN_QUAD) {
        const int hidden = t >= SB_TECH_HIDDEN_PAIR;
        apps = ref_tuples(cand, t - (hidden ? SB_TECH_HIDDEN_PAIR : SB_TECH_NAKED_PAIR) + 2,
                          hidden, want);
        dead = apps < 0;
    } else {
        sb_technique_counts k = {0};
        const int st = sb_technique_step(t, want, &k);
        apps = (int)k.applications;
        /* the rule's own contradiction lands nothing; one that empties a cell lands its
         * eliminations and is compared like the others */
        dead = st == SB_STEP_CONTRADICTION && !memcmp(want, cand, sizeof want);
        if (r < 0 && t == SB_TECH_COLOURING && st != SB_STEP_UNCHANGED)
            return;
    }
    if (r < 0) {
        cr_assert(dead, "technique %d: a contradiction the rule does not find", t);
        return;
    }
    cr_assert(!dead, "technique %d: the rule finds a contradiction, the kernel %d", t, r);
    cr_assert_eq(r, apps, "technique %d: %d applications, the rule %d", t, r, apps);
    for (int c = 0; c < SB_CELLS; c++)
        cr_assert_eq(got[c], want[c], "technique %d cell %d: kernel leaves %#x, the rule %#x", t,
                     c, got[c], want[c]);
}

/* The applications of technique t on planes w, as sbt_stall computes them: sbt_run again
 * (the hook sees its eliminations, not its count). */
static int apps_of(int t, const uint32_t *w)
{
    uint32_t el[SBT_WORDS];
    return sbt_run(t, w, el, NULL);
}

/* Fails when an application removes other candidates than the registry's rule does on that
 * board, or, on a board still holding the whole solution, removes one of its digits. */
static void sound_check(void *user, int t, const uint32_t *w, const uint32_t *el)
{
    sound_ctx *x = user;
    rule_check(t, apps_of(t, w), w, el);
    x->compared++;
    for (int c = 0; c < SB_CELLS; c++) {
        const int d = x->sol[c] - 1;
        if (!(w[4 * d + c / 27] >> (c % 27) & 1u))
            return; /* a board off the solution's path: anything may go */
    }
    x->checked++;
    for (int c = 0; c < SB_CELLS; c++) {
        const int d = x->sol[c] - 1;
        cr_assert_eq(el[4 * d + c / 27] >> (c % 27) & 1u, 0u,
                     "technique %d removed the solution's digit %d from cell %d", t, d + 1, c);
    }
}

/* After every application, the known solution's digits survive (the first oracle solution
 * of a several-solution puzzle too), in every stamp: each supported level's, plus the
 * baseline band stamp, which serves the scalar level where SSE2/NEON exist (solver.c) while
 * the cell-major reference serves it elsewhere. Every stamp makes the same guesses. */
Test(fast_tech, every_application_keeps_the_solution)
{
    typedef void (*tdfs)(sb_board *, const sb_grid *, uint64_t, sb_search_run *,
                         const sb_fast_tech *);
    static const tdfs entry[SB_SIMD_LEVELS] = {
        [SB_SIMD_SCALAR] = sb_tkernel_dfs_scalar, [SB_SIMD_SSE4] = sb_tkernel_dfs_sse4,
        [SB_SIMD_AVX2] = sb_tkernel_dfs_avx2,     [SB_SIMD_AVX512] = sb_tkernel_dfs_avx512,
        [SB_SIMD_NEON] = sb_tkernel_dfs_neon,     [SB_SIMD_AVX512BW] = sb_tkernel_dfs_avx512bw};
    corpus *c = build();
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    tdfs stamps[SB_SIMD_LEVELS + 1];
    const char *names[SB_SIMD_LEVELS + 1];
    for (int li = 0; li < nl; li++) {
        stamps[li] = entry[levels[li]];
        names[li] = sb_simd_name(levels[li]);
    }
    stamps[nl] = sb_tkernel_dfs_base;
    names[nl] = "base";
    sb_board *stack = aligned_alloc(64, 2 * SB_STACK_DEPTH * sizeof *stack);
    cr_assert_not_null(stack);
    uint64_t guesses[NPUZ];
    for (int sp = 0; sp < NSPECS; sp++)
        for (int k = 0; k <= nl; k++) {
            sb_fast_tech ft;
            cr_assert_eq(sb_fast_parse(NULL, specs[sp], &ft, NULL, 0), SB_OK);
            sound_ctx x = {0};
            ft.check = sound_check;
            ft.user = &x;
            for (int i = 0; i < c->n; i++) {
                if (!c->count[i])
                    continue;
                x.sol = c->first[i];
                const sb_grid g = tu_from_cells(c->cells[i]);
                sb_search_run run = {.max_guesses = UINT64_MAX};
                stamps[k](stack, &g, 2, &run, &ft);
                cr_assert_eq(run.res.count, c->count[i]);
                if (k == 0)
                    guesses[i] = run.res.guesses;
                cr_assert_eq(run.res.guesses, guesses[i], "%s puzzle %d: %s %llu guesses, %s %llu",
                             specs[sp], i, names[k], (unsigned long long)run.res.guesses,
                             names[0], (unsigned long long)guesses[i]);
            }
            cr_assert_gt(x.checked, 0, "%s %s: no application on a solution board", specs[sp],
                         names[k]);
            cr_assert_geq(x.compared, x.checked);
        }
    free(stack);
    free(c);
}

/* Candidates that say more than their givens go to the generic engine with the kernel's
 * techniques and the spec's (solver.c): counts equal the reference count of those marks and
 * the techniques are counted. */
Test(fast_tech, candidates_beyond_the_givens)
{
    corpus *c = build();
    static const char *const beyond[] = {"fast+xw,sky,xy", "fast+nt,ht,col,xc"};
    /* Each puzzle's marks: its candidates, then one more elimination (the first blank cell
     * loses its lowest candidate), with the reference's count of them. */
    static uint16_t cand[NPUZ][SB_CELLS];
    int want[NPUZ];
    for (int i = 0; i < c->n; i++) {
        const sb_grid g = tu_from_cells(c->cells[i]);
        sb_grid_candidates(&g, cand[i]);
        int at = 0;
        while (at < SB_CELLS && c->cells[i][at])
            at++;
        cr_assert_lt(at, SB_CELLS);
        cand[i][at] &= (uint16_t)(cand[i][at] - 1);
        want[i] = ref_count_marks(cand[i], 2, NULL);
    }
    for (size_t sp = 0; sp < sizeof beyond / sizeof beyond[0]; sp++) {
        sb_solver *s = solver(beyond[sp], SB_SIMD_SCALAR, SB_SEARCH_DFS);
        for (int i = 0; i < c->n; i++) {
            sb_result r;
            cr_assert_eq(sb_solve_candidates(s, cand[i], &r), SB_OK);
            cr_assert_eq(r.count, (uint64_t)want[i], "%s puzzle %d", beyond[sp], i);
        }
        sb_technique_counts k[SB_TECH_COUNT];
        sb_solver_counts(s, k);
        cr_assert_gt(k[SB_TECH_HIDDEN_SINGLE].applications, 0, "%s", beyond[sp]);
        if (sp == 1) /* the spec's own techniques ran there too */
            cr_assert_gt(k[SB_TECH_XCHAIN].applications, 0);
        sb_solver_free(s);
    }
    free(c);
}

/* fast+ takes the native techniques only, each token checked, with a reason. */
Test(fast_tech, specs_refused_with_a_reason)
{
    static const struct {
        const char *spec, *why;
    } bad[] = {{"fast+", "at least one technique"},
               {"fast+ns", "'ns' is not implemented on the fused kernel"},
               {"fast+hs", "'hs' is not implemented on the fused kernel"},
               {"fast+xw,lc", "'lc' is not implemented on the fused kernel"},
               {"fast+xw,", "empty technique name"},
               {"fast+bogus", "unknown technique 'bogus'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[256];
        cr_assert_eq(sb_pipeline_check(bad[i].spec), SB_ERR_PIPELINE, "%s", bad[i].spec);
        cr_assert_eq(sb_pipeline_explain(bad[i].spec, why, sizeof why), SB_ERR_PIPELINE);
        cr_assert_not_null(strstr(why, bad[i].why), "%s: %s", bad[i].spec, why);
        sb_options o;
        sb_options_default(&o);
        cr_assert_eq(sb_options_pipeline(&o, bad[i].spec), SB_ERR_PIPELINE);
    }
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_options_pipeline(&o, "fast+xw,sky"), SB_OK);
    for (const char *const *ok = (const char *const[]){"fast+col", "fast+xc", "fast+nt",
                                                       "fast+ht4,col,xc", NULL};
         *ok; ok++)
        cr_assert_eq(sb_pipeline_check(*ok), SB_OK, "%s", *ok);
    cr_assert_eq(o.pipeline, SB_PIPELINE_CUSTOM);
    /* Not a plan for the generic engine: other geometries cannot take it for one. */
    sb_plan plan;
    cr_assert_eq(sb_plan_parse("fast+xw", &plan), SB_ERR_PIPELINE);
}

/* ------------------------------------------------------------------------------------------ */
/* Hand-made positions: each technique where it must fire and where it must not              */
/* ------------------------------------------------------------------------------------------ */

/* Takes digit d (1..9) out of the cells of cand listed as row*10+column, up to a negative
 * entry. */
static void hand_lack(uint16_t cand[SB_CELLS], int d, const int *rc)
{
    for (; *rc >= 0; rc++)
        cand[9 * (*rc / 10) + *rc % 10] &= (uint16_t)~(1u << (d - 1));
}

/* A hand-made board: every digit in every cell, then digit 1 out of the cells lack lists. */
static void hand_board(uint16_t cand[SB_CELLS], const int *lack)
{
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = 0x1FF;
    hand_lack(cand, 1, lack);
}

/* Runs technique t on cand (kernel_tech.h's sbt_run and its counting, as sbt_stall does) and
 * checks that it removes exactly the candidates gone (row*100 + column*10 + digit each, up to
 * a negative entry; none: it must not fire), with apps applications and placements cells
 * left with one candidate; when it fires, that the registry's rule removes the same. */
static void hand_expect(int t, const uint16_t cand[SB_CELLS], const int *gone, int apps,
                        int placements)
{
    uint32_t w[SBT_WORDS], el[SBT_WORDS], want[SBT_WORDS] = {0};
    sb_technique_counts k[SB_TECH_COUNT];
    size_t nt;
    const char *name = sb_techniques(&nt)[t].name;
    memset(k, 0, sizeof k);
    const sb_fast_tech ft = {.counts = k};
    planes_of(cand, w);
    uint64_t n = 0;
    for (; *gone >= 0; gone++, n++) {
        const int c = 9 * (*gone / 100) + *gone / 10 % 10, d = *gone % 10 - 1;
        cr_assert(cand[c] >> d & 1u, "%s: test error, %d is not a candidate", name, *gone);
        want[4 * d + c / 27] |= 1u << (c % 27);
    }
    const int r = sbt_run(t, w, el, NULL);
    cr_assert_eq(r, apps, "%s: %d applications, expected %d", name, r, apps);
    for (int i = 0; i < SBT_WORDS; i++)
        cr_assert_eq(el[i], want[i], "%s: word %d removes %#x, expected %#x", name, i, el[i],
                     want[i]);
    sbt_count(&ft, t, r, w, el);
    cr_assert_eq(k[t].applications, (uint64_t)apps, "%s", name);
    cr_assert_eq(k[t].eliminations, n, "%s", name);
    cr_assert_eq(k[t].placements, (uint64_t)placements, "%s", name);
    rule_check(t, r, w, el);
}

/* A -1 ended list of ints (cells row*10+column, or candidates row*100+column*10+digit). */
#define LIST(...) ((const int[]){__VA_ARGS__, -1})
#define NONE ((const int[]){-1})

/* Naked pair {1,2} in r0c0, r0c1: both digits leave row 0 and box 0 (r0c5 {1,2,3} is left
 * with 3: a placement); with r0c1 {1,3} there is no pair. A naked triple {1,2},{2,3},{1,3}
 * in row 0 (and box 0) is found by nt3, not by nt2 or nt4. */
Test(fast_tech, hand_naked_tuples)
{
    uint16_t cand[SB_CELLS];
    hand_board(cand, NONE);
    cand[0] = cand[1] = 0x3;
    cand[5] = 0x7;
    hand_expect(SB_TECH_NAKED_PAIR, cand,
                LIST(21, 22, 31, 32, 41, 42, 51, 52, 61, 62, 71, 72, 81, 82, 101, 102, 111, 112,
                     121, 122, 201, 202, 211, 212, 221, 222),
                2, 1);
    cand[1] = 0x5;
    hand_expect(SB_TECH_NAKED_PAIR, cand, NONE, 0, 0);
    cand[0] = 0x3, cand[1] = 0x6, cand[2] = 0x5, cand[5] = 0x1FF;
    hand_expect(SB_TECH_NAKED_PAIR, cand, NONE, 0, 0);
    hand_expect(SB_TECH_NAKED_QUAD, cand, NONE, 0, 0);
    hand_expect(SB_TECH_NAKED_TRIPLE, cand,
                LIST(31, 32, 33, 41, 42, 43, 51, 52, 53, 61, 62, 63, 71, 72, 73, 81, 82, 83, 101,
                     102, 103, 111, 112, 113, 121, 122, 123, 201, 202, 203, 211, 212, 213, 221,
                     222, 223),
                2, 0);
}

/* Hidden pair: digits 1 and 2 only in r0c0 and r0c1 of row 0, so those two cells keep only
 * {1,2}; with 2 also in r0c2 there is none. */
Test(fast_tech, hand_hidden_tuples)
{
    uint16_t cand[SB_CELLS];
    hand_board(cand, LIST(2, 3, 4, 5, 6, 7, 8));
    for (int c = 2; c < 9; c++)
        cand[c] &= (uint16_t)~2u;
    hand_expect(SB_TECH_HIDDEN_PAIR, cand,
                LIST(3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 17, 18, 19), 1, 0);
    hand_expect(SB_TECH_NAKED_PAIR, cand, NONE, 0, 0);
    cand[2] |= 2u;
    hand_expect(SB_TECH_HIDDEN_PAIR, cand, NONE, 0, 0);
}

/* Digit 1's strong links r0c0-r0c5 (row 0), r0c5-r7c5 (column 5), r7c5-r7c2 (row 7): the
 * colours {r0c0, r7c5} and {r0c5, r7c2}. Trap: r1c2, r2c2 (box 0, column 2) and r6c0, r8c0
 * (column 0, box 6) see both colours. Without those there is nothing; with column 2 a link
 * r7c2-r1c2 too, r1c2 and r0c0 share a colour and box 0: that colour (r0c0, r7c5, r1c2) loses
 * the digit (wrap). */
Test(fast_tech, hand_colouring)
{
    const int *links = LIST(1, 2, 3, 4, 6, 7, 8, 15, 25, 35, 45, 55, 65, 85, 70, 71, 73, 74, 76,
                            77, 78);
    uint16_t cand[SB_CELLS];
    hand_board(cand, links);
    hand_expect(SB_TECH_COLOURING, cand, LIST(121, 221, 601, 801), 1, 0);
    hand_lack(cand, 1, LIST(12, 22, 60, 80));
    hand_expect(SB_TECH_COLOURING, cand, NONE, 0, 0);
    hand_board(cand, links);
    hand_lack(cand, 1, LIST(22, 32, 42, 52, 62, 82));
    hand_expect(SB_TECH_COLOURING, cand, LIST(1, 121, 751), 1, 0);
}

/* Digit 1's strong links r0c0-r6c0 (column 0) and r6c4-r2c4 (column 4), r6c0 and r6c4 seeing
 * each other (row 6): the X-chain r0c0 = r6c0 - r6c4 = r2c4 puts 1 in r0c0 or r2c4, so
 * r0c3, r0c5 (row 0, box 1) and r2c1, r2c2 (box 0, row 2) lose it; simple colouring finds
 * nothing there (two clusters, no trap). With r7c4 for r6c4 (not seeing r6c0) no chain. */
Test(fast_tech, hand_xchain)
{
    const int *col0 = LIST(10, 20, 30, 40, 50, 70, 80);
    uint16_t cand[SB_CELLS];
    hand_board(cand, col0);
    hand_lack(cand, 1, LIST(4, 14, 34, 44, 54, 74, 84));
    hand_expect(SB_TECH_XCHAIN, cand, LIST(31, 51, 211, 221), 1, 0);
    hand_expect(SB_TECH_COLOURING, cand, NONE, 0, 0);
    hand_board(cand, col0);
    hand_lack(cand, 1, LIST(4, 14, 34, 44, 54, 64, 84));
    hand_expect(SB_TECH_XCHAIN, cand, NONE, 0, 0);
}

/* Random boards (not positions of a puzzle, so chains run long and tuples abound): col, xc
 * and the tuples find exactly the registry rule's applications and eliminations, xc with the
 * same cap. Each cell keeps at least one candidate, as a kernel board does. */
Test(fast_tech, random_boards_follow_the_rule)
{
    static const int techs[] = {SB_TECH_COLOURING,    SB_TECH_XCHAIN,       SB_TECH_NAKED_PAIR,
                                SB_TECH_NAKED_TRIPLE, SB_TECH_NAKED_QUAD,   SB_TECH_HIDDEN_PAIR,
                                SB_TECH_HIDDEN_TRIPLE, SB_TECH_HIDDEN_QUAD};
    uint64_t seed = 12345, fired[SB_TECH_COUNT] = {0};
    for (int n = 0; n < 3000; n++) {
        uint16_t cand[SB_CELLS];
        uint32_t w[SBT_WORDS], el[SBT_WORDS];
        /* one in three boards: one or two sparse digits over full ones (chains, colours);
         * else every digit at a density of 1/4 .. 5/8 (tuples) */
        const int sparse = n % 3 == 0, density = 2 + n % 4;
        for (int c = 0; c < SB_CELLS; c++) {
            cand[c] = 0;
            for (int d = 0; d < SB_DIGITS; d++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                const unsigned roll = (unsigned)(seed >> 40) % 8;
                if (sparse ? d > 1 || roll < 3 : roll < (unsigned)density)
                    cand[c] |= (uint16_t)(1u << d);
            }
            if (!cand[c])
                cand[c] = (uint16_t)(1u << (seed >> 33) % 9);
        }
        planes_of(cand, w);
        for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++) {
            const int r = sbt_run(techs[i], w, el, NULL);
            rule_check(techs[i], r, w, el);
            fired[techs[i]] += r > 0;
        }
    }
    for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++)
        cr_assert_gt(fired[techs[i]], 20, "technique %d fired on %llu boards", techs[i],
                     (unsigned long long)fired[techs[i]]);
}

/* The wings follow the registry's rule on random boards rich in bivalue cells (xy, xyz, ww:
 * the boards above rarely hold two equal ones), and ww's strong houses kept across calls (the
 * search's sbt_links_memo, built only when a digit's plane changed) give the answers built
 * afresh give: the boards form walks (a few candidates dropped at a time, now and then back
 * to the walk's start), so most planes repeat from one call to the next. */
Test(fast_tech, wings_on_random_boards_follow_the_rule)
{
    static const int techs[] = {SB_TECH_XY_WING, SB_TECH_XYZ_WING, SB_TECH_W_WING};
    enum { NT = sizeof techs / sizeof techs[0] };
    static sbt_links_memo links;
    uint64_t seed = 4242, fired[NT] = {0};
    uint16_t start[SB_CELLS], cand[SB_CELLS];
    sbt_links_clear(&links);
    for (int n = 0; n < 4000; n++) {
        if (n % 20 == 0) /* a new walk: cells of two digits out of four, or of two..five */
            for (int c = 0; c < SB_CELLS; c++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                const unsigned roll = (unsigned)(seed >> 33);
                const int a = roll % 4, b = (a + 1 + roll / 4 % 3) % 4;
                start[c] = (uint16_t)(1u << (a + n / 20 % 6) | 1u << (b + n / 20 % 6));
                if (roll / 16 % 8 >= 5)
                    for (int k = 0; k < 3; k++)
                        start[c] |= (uint16_t)(1u << (roll >> (8 + 4 * k)) % 9);
            }
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        if (n % 20 == 0 || (seed >> 40) % 4 == 0)
            memcpy(cand, start, sizeof cand);
        else /* drop a candidate from a few cells that keep two or more */
            for (int k = 0; k < 3; k++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                const int c = (int)((seed >> 33) % SB_CELLS);
                const uint16_t m = cand[c];
                if (m & (m - 1))
                    cand[c] = (uint16_t)(m & ~(1u << __builtin_ctz(m)));
            }
        uint32_t w[SBT_WORDS] __attribute__((aligned(16))), el[SBT_WORDS], kept[SBT_WORDS];
        planes_of(cand, w);
        for (int i = 0; i < NT; i++) {
            const int r = sbt_run(techs[i], w, el, NULL);
            rule_check(techs[i], r, w, el);
            fired[i] += r > 0;
            if (techs[i] != SB_TECH_W_WING)
                continue;
            const int rk = sbt_run_memo(techs[i], w, NULL, kept, NULL, &links, 0);
            cr_assert_eq(rk, r, "board %d: ww with kept strong houses %d applications, %d "
                                "built afresh", n, rk, r);
            cr_assert(!memcmp(kept, el, sizeof el),
                      "board %d: ww with kept strong houses removes other candidates", n);
        }
    }
    for (int i = 0; i < NT; i++)
        cr_assert_gt(fired[i], 100, "technique %d fired on %llu boards", techs[i],
                     (unsigned long long)fired[i]);
}

/* The memo (sbt_memo) never changes an answer: along a walk of related boards (a few
 * candidates dropped at a time, now and then back to the walk's start, as a search descends
 * and backtracks, so most digit planes repeat; half the digits of a walk fill the board, the
 * others hold about 3/8 of the cells), every single-digit technique run with its memo finds
 * the same applications and eliminations as without one, and the memo skips digits. */
Test(fast_tech, memo_keeps_the_answers)
{
    static const int techs[] = {SB_TECH_XWING,      SB_TECH_SWORDFISH, SB_TECH_JELLYFISH,
                                SB_TECH_SKYSCRAPER, SB_TECH_KITE,      SB_TECH_COLOURING,
                                SB_TECH_XCHAIN};
    enum { NT = sizeof techs / sizeof techs[0] };
    static sbt_memo memo; /* one step per technique */
    const sb_fast_tech ft = {.nsteps = NT};
    uint64_t seed = 777, fired[NT] = {0}, skipped[NT] = {0};
    sbt_memo_clear(&memo, &ft);
    uint16_t start[SB_CELLS], cand[SB_CELLS];
    for (int n = 0; n < 4000; n++) {
        if (n % 40 == 0) /* a new walk */
            for (int c = 0; c < SB_CELLS; c++) {
                start[c] = 0;
                for (int d = 0; d < SB_DIGITS; d++) {
                    seed = seed * 6364136223846793005u + 1442695040888963407u;
                    if (((n / 40 + d) & 1) || (seed >> 40) % 8 < 3)
                        start[c] |= (uint16_t)(1u << d);
                }
                if (!start[c])
                    start[c] = (uint16_t)(1u << (seed >> 33) % 9);
            }
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        if (n % 40 == 0 || (seed >> 40) % 4 == 0)
            memcpy(cand, start, sizeof cand);
        else /* drop one candidate of a cell that keeps another */
            for (int tries = 0; tries < 8; tries++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                const int c = (int)((seed >> 33) % SB_CELLS), d = (int)((seed >> 20) % 9);
                if (cand[c] >> d & 1u && (cand[c] & (cand[c] - 1u))) {
                    cand[c] &= (uint16_t)~(1u << d);
                    break;
                }
            }
        uint32_t w[SBT_WORDS], el[SBT_WORDS], el0[SBT_WORDS];
        planes_of(cand, w);
        for (int i = 0; i < NT; i++) {
            for (int d = 0; d < SB_DIGITS; d++)
                skipped[i] += !memcmp(memo.plane[i] + 4 * d, w + 4 * d, 4 * sizeof *w);
            const int r0 = sbt_run(techs[i], w, el0, NULL);
            const int r = sbt_run(techs[i], w, el, memo.plane[i]);
            cr_assert_eq(r, r0, "technique %d board %d: %d applications with the memo, %d without",
                         techs[i], n, r, r0);
            cr_assert_arr_eq(el, el0, sizeof el, "technique %d board %d: other eliminations",
                             techs[i], n);
            fired[i] += r0 > 0;
        }
    }
    for (int i = 0; i < NT; i++) {
        cr_assert_gt(fired[i], 20, "technique %d fired on %llu boards", techs[i],
                     (unsigned long long)fired[i]);
        cr_assert_gt(skipped[i], 1000, "technique %d: the memo skipped %llu digits", techs[i],
                     (unsigned long long)skipped[i]);
    }
}

/* Singles to a fixpoint on cand, as the kernel's propagation leaves a board before a
 * technique runs: a solved cell's digit leaves its peers, a digit with one place in a house
 * is placed there. @return 0 on a contradiction (an empty cell, a house without a digit). */
static int stable_of(uint16_t cand[SB_CELLS], const int houses[27 * 9])
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (int h = 0; h < 27; h++)
            for (int i = 0; i < 9; i++) {
                const int c = houses[9 * h + i];
                if (cand[c] & (cand[c] - 1u))
                    continue;
                for (int j = 0; j < 9; j++) {
                    const int p = houses[9 * h + j];
                    if (p != c && cand[p] & cand[c]) {
                        cand[p] &= (uint16_t)~cand[c];
                        if (!cand[p])
                            return 0;
                        changed = 1;
                    }
                }
            }
        for (int h = 0; h < 27; h++)
            for (int d = 0; d < 9; d++) {
                int n = 0, at = -1;
                for (int i = 0; i < 9; i++)
                    if (cand[houses[9 * h + i]] >> d & 1u)
                        n++, at = houses[9 * h + i];
                if (!n)
                    return 0;
                if (n == 1 && cand[at] != 1u << d) {
                    cand[at] = (uint16_t)(1u << d);
                    changed = 1;
                }
            }
    }
    return 1;
}

/* The fish's shortcut on stable boards (sbt_digits' idle: a digit with at most k + 1 open
 * rows is not searched) changes no answer: on stable boards made from random grids (25..40
 * givens kept, then a few non-solution candidates dropped and singles run again, so digits
 * have from none to all of their lines placed), xw, sf and jf find the same applications
 * and eliminations with the shortcut as the full search, and both the shortcut and the fish
 * are exercised. */
Test(fast_tech, fish_shortcut_on_stable_boards)
{
    static const int techs[] = {SB_TECH_XWING, SB_TECH_SWORDFISH, SB_TECH_JELLYFISH};
    int houses[27 * 9];
    ref_sudoku_houses(houses);
    ref_rng rng;
    ref_rng_seed(&rng, 2026);
    uint64_t boards = 0, idle[3] = {0}, fired[3] = {0};
    for (int n = 0; n < 1500; n++) {
        uint8_t full[SB_CELLS], puz[SB_CELLS];
        uint16_t cand[SB_CELLS];
        ref_random_full_grid(&rng, full);
        ref_random_puzzle(&rng, full, 25 + n % 16, puz);
        for (int c = 0; c < SB_CELLS; c++)
            cand[c] = puz[c] ? (uint16_t)(1u << (puz[c] - 1)) : 0x1FFu;
        for (int drops = 0; drops <= 12; drops += 4) {
            for (int i = 0; i < drops; i++) { /* a candidate the solution does not use */
                const int c = ref_rng_below(&rng, SB_CELLS), d = ref_rng_below(&rng, 9);
                if (d != full[c] - 1)
                    cand[c] &= (uint16_t)~(1u << d);
            }
            if (!stable_of(cand, houses))
                break; /* cannot happen: the solution's digits stay; stop this grid anyway */
            uint32_t w[SBT_WORDS], el[SBT_WORDS], el1[SBT_WORDS];
            planes_of(cand, w);
            boards++;
            for (int i = 0; i < 3; i++) {
                for (int d = 0; d < SB_DIGITS; d++)
                    idle[i] += sbt_open_rows(w + 4 * d) <= i + 3;
                const int r = sbt_run_memo(techs[i], w, NULL, el, NULL, NULL, 0);
                const int r1 = sbt_run_memo(techs[i], w, NULL, el1, NULL, NULL, 1);
                cr_assert_eq(r1, r, "fish %d board %d: %d applications with the shortcut, %d "
                             "without", i + 2, n, r1, r);
                cr_assert_arr_eq(el1, el, sizeof el, "fish %d board %d: other eliminations",
                                 i + 2, n);
                fired[i] += r > 0;
            }
        }
    }
    for (int i = 0; i < 3; i++) {
        cr_assert_gt(idle[i], boards, "fish %d: %llu idle digits on %llu boards", i + 2,
                     (unsigned long long)idle[i], (unsigned long long)boards);
        cr_assert_gt(fired[i], 20, "fish %d fired on %llu of %llu boards", i + 2,
                     (unsigned long long)fired[i], (unsigned long long)boards);
    }
}
