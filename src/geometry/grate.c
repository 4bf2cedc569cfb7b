/*
 * grate.c — rating puzzles of any geometry (docs/geometry.md "Reading and rating any
 * geometry"): the classes and technique counters of sb_rate on any geometry, one puzzle
 * (sb_grater, sb_grate) or a whole array on every core (sb_grate_batch).
 *
 * A class is the weakest technique set whose fixpoint from the givens completes the grid;
 * each set is one generic pipeline on the geometry (sb_gpipeline) with the 9x9 rating's
 * restart plan (sb_class_spec), so on the 3x3 geometry the classes and counters are sb_rate's, and on every
 * geometry they are what the same plans do there. A NULL geometry is 9x9: sb_rate itself.
 *
 * Propagation to a fixpoint removes candidates only, and each technique can only remove more
 * from a smaller candidate set, so the fixpoint is the same whichever order the techniques
 * run in: the general solver's technique sets under a guess budget of 0 reach the same
 * classes (the tests check it), here with counters.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    RATE_CHUNK = 8 /* puzzles a thread takes at once in sb_grate_batch (a 25x25 takes ms) */
};

struct sb_grater {
    const sb_geometry *g;                     /* the geometry; NULL: 9x9, sb_rate */
    sb_gpipeline *plan[SB_CLASS_SEARCH];      /* one pipeline per class below search */
};

int sb_grater_new(const sb_geometry *g, sb_grater **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!g)
        return SB_ERR_ARG;
    g = sb_geo_in(g); /* NULL: sb_rate's 9x9 rater */
    sb_grater *r = calloc(1, sizeof *r);
    if (!r)
        return SB_ERR_NOMEM;
    r->g = g;
    for (int c = 0; g && c < SB_CLASS_SEARCH; c++) {
        const int st = sb_gpipeline_new(g, sb_class_spec(c), &r->plan[c]);
        if (st != SB_OK) {
            sb_grater_free(r);
            return st;
        }
    }
    *out = r;
    return SB_OK;
}

void sb_grater_free(sb_grater *r)
{
    if (!r)
        return;
    for (int c = 0; c < SB_CLASS_SEARCH; c++)
        sb_gpipeline_free(r->plan[c]);
    free(r);
}

int sb_grater_rate(sb_grater *r, const uint8_t *cells, sb_rating *out)
{
    if (!r || !cells || !out)
        return SB_ERR_ARG;
    if (!r->g)
        return sb_rate((const sb_grid *)(const void *)cells, out);
    memset(out, 0, sizeof *out);
    /* The largest set first: when it cannot complete the grid no smaller one can (its
     * fixpoint holds fewer candidates), so a puzzle that needs search, the common case of
     * hard corpora, costs one run; its counters are what sb_rate reports for search. */
    int c = SB_CLASS_CHAINS;
    sb_gpipeline_counts_reset(r->plan[c]);
    const int top = sb_gpipeline_root(r->plan[c], cells);
    if (top < 0)
        return top; /* a cell above N: nothing rated */
    if (top == 1)
        for (c = 0; c < SB_CLASS_CHAINS; c++) {
            sb_gpipeline_counts_reset(r->plan[c]);
            if (sb_gpipeline_root(r->plan[c], cells) == 1)
                break; /* else c ends at chains, whose run's counters stand */
        }
    out->cls = top == 1 ? (sb_class)c : SB_CLASS_SEARCH;
    sb_gpipeline_counts(r->plan[c], out->counts);
    return SB_OK;
}

int sb_grate(const sb_geometry *g, const uint8_t *cells, sb_rating *out)
{
    if (!g || !cells || !out)
        return SB_ERR_ARG;
    sb_grater *r;
    int st = sb_grater_new(g, &r);
    if (st == SB_OK)
        st = sb_grater_rate(r, cells, out);
    sb_grater_free(r);
    return st;
}

/* Notes the first error a row met in *shared (SB_OK is ignored; which one is kept when
 * several threads meet one depends on timing: the caller only learns that one did). */
static void note_error(int *shared, int st)
{
    if (st != SB_OK) {
#pragma omp atomic write
        *shared = st;
    }
}

int sb_grate_batch(const sb_geometry *g, const uint8_t *cells, size_t n, int threads,
                   int8_t *classes, uint64_t *eliminations, const volatile sig_atomic_t *stop)
{
    if (!g || ((!cells || !classes) && n))
        return SB_ERR_ARG;
    const size_t nc = (size_t)sb_geometry_cells(g);
    if (n > SIZE_MAX / nc || (eliminations && n > SIZE_MAX / (SB_TECH_COUNT * sizeof(uint64_t))))
        return SB_ERR_ARG; /* the arrays' sizes would wrap */
    int team = threads > 0 ? threads : omp_get_max_threads();
    if ((size_t)team > n)
        team = n ? (int)n : 1;
    int err = sb_threads_check(team, NULL, 0), stopped = 0;
    if (err != SB_OK)
        return err;
#pragma omp parallel num_threads(team)
    {
        sb_grater *r = NULL;
        const int made = sb_grater_new(g, &r);
        note_error(&err, made);
#pragma omp for schedule(dynamic, 1)
        for (size_t lo = 0; lo < n; lo += RATE_CHUNK) {
            const size_t hi = n - lo < RATE_CHUNK ? n : lo + RATE_CHUNK;
            for (size_t i = lo; i < hi && made == SB_OK; i++) {
                if (stop && *stop) {
#pragma omp atomic write
                    stopped = 1;
                    break;
                }
                sb_rating rt;
                const int st = sb_grater_rate(r, cells + i * nc, &rt);
                note_error(&err, st);
                classes[i] = st == SB_OK ? (int8_t)rt.cls : (int8_t)-1;
                for (int t = 0; eliminations && t < SB_TECH_COUNT; t++)
                    eliminations[i * SB_TECH_COUNT + t] = st == SB_OK ? rt.counts[t].eliminations : 0;
            }
        }
        sb_grater_free(r);
    }
    if (err == SB_ERR_NOMEM)
        return err;
    return stopped ? SB_ERR_STOPPED : err;
}
