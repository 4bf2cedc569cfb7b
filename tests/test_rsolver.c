/*
 * test_rsolver.c — the record solver (sb_rsolver, src/app/): records of any geometry and
 * their cells, as sb_reader gives them, solved (a chunk of 9x9 ones ahead or one at a time),
 * rated and, off 9x9, enumerated. Counts are checked against independent counters
 * (tests/reference.c for 9x9, tests/dlx.c for the 4x4), solutions against the givens and the
 * rules.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "dlx.h"
#include "reference.h"

/* A unique puzzle, a puzzle with many solutions (its last givens removed) and one with
 * clashing givens (two 5s in row 1). */
static const char *const LINES9[] = {
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..",
    "..5..63........4..98.74...51...7.9....95.16....8.........................................",
    "55.......................................................................................",
};

/* Fills rec and its cells from an 81-character puzzle line (its first 81 characters). */
static void record9(sb_record *rec, uint8_t *cells, const char *line, uint64_t no)
{
    memset(rec, 0, sizeof *rec);
    rec->line = no;
    rec->kind = sb_parse_line(line, SB_CELLS, (sb_grid *)(void *)cells, rec->why, &rec->col);
    cr_assert_eq(rec->kind, SB_LINE_PUZZLE, "line %s: %s", line, rec->why);
}

Test(rsolver, nine_by_nine_ahead_and_one_at_a_time_agree_with_the_reference)
{
    sb_options opt;
    sb_options_default(&opt); /* limit 2: 0, 1 or 2 solutions */
    sb_rsolver *ahead, *single;
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &opt, &opt, &ahead), SB_OK);
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &opt, NULL, &single), SB_OK);
    sb_record recs[3];
    uint8_t cells[3][SB_CELLS];
    for (int i = 0; i < 3; i++)
        record9(&recs[i], cells[i], LINES9[i], (uint64_t)i + 1);
    sb_rsolver_ahead(ahead, recs, cells[0], 3);
    for (int i = 0; i < 3; i++) {
        sb_gresult a, b;
        uint8_t first[SB_CELLS];
        cr_assert_eq(sb_rsolver_solve(ahead, &recs[i], cells[i], NULL, &a), SB_OK);
        cr_assert_eq(sb_rsolver_solve(single, &recs[i], cells[i], NULL, &b), SB_OK);
        const int want = ref_count(cells[i], 2, first);
        cr_assert_eq(a.count, (uint64_t)want, "puzzle %d: %llu, reference %d", i,
                     (unsigned long long)a.count, want);
        cr_assert_eq(b.count, a.count);
        cr_assert_eq(b.guesses, a.guesses, "the same search ahead or not");
        if (want > 0) {
            const uint8_t *sol = sb_rsolver_solution(ahead);
            cr_assert(ref_is_valid_solution(cells[i], sol), "puzzle %d", i);
            cr_assert_eq(memcmp(sol, sb_rsolver_solution(single), SB_CELLS), 0,
                         "puzzle %d: the same first solution ahead or not", i);
        }
    }
    /* Rating: the unique puzzle rates as sb_rate rates it; a solver made without a rater
     * has none to ask, on 9x9 too. */
    sb_ladder_rating got;
    sb_rating want;
    cr_assert_eq(sb_rsolver_rate(ahead, cells[0], NULL, NULL, &got), SB_OK);
    cr_assert_eq(sb_rate((const sb_grid *)(const void *)cells[0], &want), SB_OK);
    cr_assert_eq(got.base.cls, want.cls);
    cr_assert(!memcmp(got.base.counts, want.counts, sizeof want.counts));
    cr_assert_eq(got.rung, -1);
    cr_assert_eq(sb_rsolver_rate(single, cells[0], NULL, NULL, &got), SB_ERR_ARG);
    /* 9x9 enumerates as the 3x3 geometry, not here */
    sb_gresult gr;
    cr_assert_eq(sb_rsolver_each(single, cells[0], NULL, NULL, &gr), SB_ERR_ARG);
    sb_rsolver_free(ahead);
    sb_rsolver_free(single);
    sb_rsolver_free(NULL);
}

Test(rsolver, a_record_not_handed_ahead_is_solved_when_asked)
{
    sb_options opt;
    sb_options_default(&opt);
    sb_rsolver *s;
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &opt, 0, &s), SB_OK);
    sb_record a, b;
    uint8_t ca[SB_CELLS], cb[SB_CELLS];
    record9(&a, ca, LINES9[0], 1);
    record9(&b, cb, LINES9[1], 2);
    sb_rsolver_ahead(s, &a, ca, 1);
    sb_gresult res;
    /* b was not in the chunk: solved now, and a's result still waits for a */
    cr_assert_eq(sb_rsolver_solve(s, &b, cb, NULL, &res), SB_OK);
    cr_assert_eq(res.count, 2);
    cr_assert_eq(sb_rsolver_solve(s, &a, ca, NULL, &res), SB_OK);
    cr_assert_eq(res.count, 1);
    sb_rsolver_free(s);
}

/* Counts the solutions of a 4x4 puzzle with tests/dlx.c on g's houses. */
static uint64_t dlx4(const sb_geometry *g, const uint8_t *cells, uint64_t limit)
{
    const int nh = sb_geometry_houses(g), n = sb_geometry_digits(g);
    int houses[64];
    cr_assert(nh * n <= 64);
    for (int h = 0; h < nh; h++)
        for (int k = 0; k < n; k++)
            houses[h * n + k] = sb_geometry_house(g, h)[k];
    return dlx_count(sb_geometry_cells(g), n, nh, houses, cells, limit, NULL);
}

/* sb_gsolution_fn of the enumeration test: checks each solution and counts them. */
static int each_one(const uint8_t *sol, uint64_t index, void *user)
{
    uint64_t *seen = user;
    cr_assert_eq(index, *seen, "solutions are numbered in order");
    (*seen)++;
    cr_assert(sol != NULL);
    return 0;
}

Test(rsolver, another_geometry_solves_rates_and_lists_through_its_engine)
{
    sb_geometry *g;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse("2x2", &g, why, sizeof why), SB_OK);
    sb_options opt;
    sb_options_default(&opt);
    opt.limit = 0; /* every solution */
    sb_rsolver *s;
    cr_assert_eq(sb_rsolver_new(g, &opt, &opt, &s), SB_OK);
    sb_record rec = {0};
    uint8_t cells[16];
    static const uint8_t puzzles[3][16] = {
        {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* several solutions */
        {1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2}, /* counted by dlx */
        {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* clashing givens: none */
    };
    for (int i = 0; i < 3; i++) {
        rec.kind = SB_LINE_PUZZLE;
        rec.line = (uint64_t)i + 1;
        memcpy(cells, puzzles[i], 16);
        sb_rsolver_ahead(s, &rec, cells, 1); /* nothing ahead here */
        sb_gresult res;
        cr_assert_eq(sb_rsolver_solve(s, &rec, cells, NULL, &res), SB_OK);
        const uint64_t want = dlx4(g, puzzles[i], 0);
        cr_assert_eq(res.count, want, "puzzle %d: %llu, dlx %llu", i,
                     (unsigned long long)res.count, (unsigned long long)want);
        if (want > 0)
            cr_assert_eq(sb_gsolution_check(g, puzzles[i], sb_rsolver_solution(s)), 1,
                         "puzzle %d", i);
        uint64_t seen = 0;
        sb_gresult gr;
        cr_assert_eq(sb_rsolver_each(s, cells, each_one, &seen, &gr), SB_OK);
        cr_assert_eq(seen, want, "puzzle %d lists every solution", i);
        cr_assert_eq(gr.count, want);
    }
    /* Rating goes to the geometry's rater: the same as sb_grate. */
    memcpy(cells, puzzles[1], 16);
    sb_ladder_rating got;
    sb_rating want;
    cr_assert_eq(sb_rsolver_rate(s, cells, NULL, NULL, &got), SB_OK);
    cr_assert_eq(sb_grate(g, puzzles[1], &want), SB_OK);
    cr_assert_eq(got.base.cls, want.cls);
    sb_rsolver_free(s);
    /* Without rate there is no rater to ask. */
    cr_assert_eq(sb_rsolver_new(g, &opt, NULL, &s), SB_OK);
    cr_assert_eq(sb_rsolver_rate(s, cells, NULL, NULL, &got), SB_ERR_ARG);
    sb_rsolver_free(s);
    sb_geometry_free(g);
}
