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
 *
 * Technique plug-ins (sb_grater_new_opt) add rungs between chains and search: rung k is
 * chains' set and then plug-ins 0..k. Only a puzzle the built-ins leave to search climbs
 * them, so every built-in class and its counters stay what they are without plug-ins. On 9x9
 * the rungs run on the 9x9 generic board (pipeline.c), which also starts from candidate
 * masks; elsewhere each rung is a generic pipeline with the plug-ins' states of its own.
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
    int nrungs;                               /* technique plug-ins: a rung each */
    sb_gpipeline *rung[SB_TECH_PLUGINS];      /* another geometry: rung k's pipeline, with
                                                 its own plug-in states */
    sb_plan plan9[SB_TECH_PLUGINS];           /* 9x9: rung k's plan, steps on ext */
    sb_tech_ext *ext;                         /* 9x9: the plug-ins' states */
    const char *why;                          /* the last rating's breach, or NULL */
};

/* The input of one rating: a geometry's cells, or 9x9 givens or candidate masks. */
typedef struct rate_in {
    const uint8_t *cells;   /* the puzzle (9x9: the givens behind the marks, when marks) */
    const uint16_t *marks;  /* 9x9 candidates to start from, or NULL */
} rate_in;

int sb_grater_new(const sb_geometry *g, sb_grater **out)
{
    sb_options none;
    sb_options_default(&none);
    return sb_grater_new_opt(g, &none, out);
}

/* Writes rung k's spec into buf (len bytes): chains' set, then plug-ins 0..k by name.
 * @return SB_OK, or SB_ERR_ARG when it does not fit. */
static int rung_spec(const sb_options *opt, int k, char *buf, size_t len)
{
    size_t at = (size_t)snprintf(buf, len, "%s", sb_class_spec(SB_CLASS_CHAINS));
    for (int j = 0; j <= k && at < len; j++)
        at += (size_t)snprintf(buf + at, len - at, ",%s", sb_plugin_name(opt->techniques[j]));
    return at < len ? SB_OK : SB_ERR_ARG;
}

/* Makes r's plug-in rungs from opt's technique plug-ins. @return SB_OK, SB_ERR_ARG (one is
 * not a technique or refuses r->g), SB_ERR_NOMEM. */
static int rungs_new(sb_grater *r, const sb_options *opt)
{
    const int n = (int)opt->ntechniques;
    if (!r->g) {
        const int st = sb_tech_ext_new(opt->techniques, (size_t)n, NULL, &r->ext);
        if (st != SB_OK)
            return st;
    }
    for (int k = 0; k < n; k++) {
        char spec[256];
        int st = rung_spec(opt, k, spec, sizeof spec);
        if (st == SB_OK && r->g)
            st = sb_gpipeline_new_opt(r->g, opt, spec, &r->rung[k]);
        else if (st == SB_OK && sb_plan_parse_opt(opt, spec, &r->plan9[k]) != SB_OK)
            st = SB_ERR_ARG;
        if (st != SB_OK)
            return st == SB_ERR_PIPELINE ? SB_ERR_ARG : st;
        r->plan9[k].ext = r->ext;
        r->nrungs = k + 1;
    }
    return SB_OK;
}

int sb_grater_new_opt(const sb_geometry *g, const sb_options *opt, sb_grater **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!g)
        return SB_ERR_ARG;
    g = sb_geo_in(g); /* NULL: sb_rate's 9x9 rater */
    if (!opt || opt->ntechniques > SB_TECH_PLUGINS || (opt->ntechniques && !opt->techniques))
        return SB_ERR_ARG;
    for (size_t k = 0; k < opt->ntechniques; k++)
        if (!sb_plugin_is_technique(opt->techniques[k]))
            return SB_ERR_ARG;
    sb_grater *r = calloc(1, sizeof *r);
    if (!r)
        return SB_ERR_NOMEM;
    r->g = g;
    int st = SB_OK;
    for (int c = 0; g && st == SB_OK && c < SB_CLASS_SEARCH; c++)
        st = sb_gpipeline_new(g, sb_class_spec(c), &r->plan[c]);
    if (st == SB_OK && opt->ntechniques)
        st = rungs_new(r, opt);
    if (st != SB_OK) {
        sb_grater_free(r);
        return st;
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
    for (int k = 0; k < SB_TECH_PLUGINS; k++)
        sb_gpipeline_free(r->rung[k]);
    sb_tech_ext_free(r->ext);
    free(r);
}

/* The built-in ladder (sb_grater_rate without plug-in rungs). */
static int builtin_rate(sb_grater *r, const uint8_t *cells, sb_rating *out)
{
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

/* Runs rung k from the puzzle of in, its plug-ins held to truth (may be NULL), its work into
 * counts (SB_TECH_SLOTS, reset first). @return 1 when it completes the grid, 0 when not,
 * SB_ERR_PLUGIN after a breach (r->why says which). */
static int rung_run(sb_grater *r, int k, const rate_in *in, const uint8_t *truth,
                    sb_technique_counts *counts)
{
    int done;
    sb_tech_ext *x;
    memset(counts, 0, SB_TECH_SLOTS * sizeof *counts);
    if (!r->g) {
        x = r->ext;
        x->truth = truth;
        x->fault = SB_OK;
        sb_board b;
        done = sb_generic_root(&r->plan9[k], counts, (const sb_grid *)(const void *)in->cells,
                               in->marks, &b) == 1;
    } else {
        x = sb_gpipeline_ext(r->rung[k]);
        x->truth = truth;
        x->fault = SB_OK;
        sb_gpipeline_counts_reset(r->rung[k]);
        done = sb_gpipeline_root(r->rung[k], in->cells) == 1;
        sb_gpipeline_counts(r->rung[k], counts);
        sb_gpipeline_plugin_counts(r->rung[k], counts + SB_TECH_COUNT);
    }
    x->truth = NULL;
    if (x->fault) {
        r->why = x->why;
        return x->fault;
    }
    return done;
}

/* The ladder above the built-in rating in out->base (already SB_CLASS_SEARCH): the top rung
 * first, as the built-in rating runs chains first, then the lower ones only when it
 * completes the grid. @return SB_OK or SB_ERR_PLUGIN. */
static int climb(sb_grater *r, const rate_in *in, const uint8_t *truth, sb_ladder_rating *out)
{
    sb_technique_counts top[SB_TECH_SLOTS], low[SB_TECH_SLOTS];
    const sb_technique_counts *got = top;
    const int last = r->nrungs - 1;
    int st = rung_run(r, last, in, truth, top);
    if (st < 0)
        return st;
    if (st == 1) {
        out->rung = last;
        for (int k = 0; k < last; k++) {
            st = rung_run(r, k, in, truth, low);
            if (st < 0)
                return st;
            if (st == 1) {
                out->rung = k, got = low;
                break;
            }
        }
    }
    memcpy(out->base.counts, got, sizeof out->base.counts);
    memcpy(out->plugins, got + SB_TECH_COUNT, (size_t)r->nrungs * sizeof *out->plugins);
    return SB_OK;
}

/* sb_grater_ladder and its candidates form: base holds the built-in rating's status. */
static int ladder(sb_grater *r, int base, const rate_in *in, const uint8_t *truth,
                  sb_ladder_rating *out)
{
    r->why = NULL;
    out->rung = -1;
    memset(out->plugins, 0, sizeof out->plugins);
    if (base != SB_OK || out->base.cls != SB_CLASS_SEARCH || !r->nrungs)
        return base;
    return climb(r, in, truth, out);
}

int sb_grater_rate(sb_grater *r, const uint8_t *cells, sb_rating *out)
{
    if (!r || !cells || !out)
        return SB_ERR_ARG;
    if (!r->nrungs)
        return builtin_rate(r, cells, out);
    sb_ladder_rating lr;
    const int st = sb_grater_ladder(r, cells, NULL, &lr);
    if (st == SB_OK)
        *out = lr.base;
    return st;
}

int sb_grater_ladder(sb_grater *r, const uint8_t *cells, const uint8_t *solution,
                     sb_ladder_rating *out)
{
    if (!r || !cells || !out)
        return SB_ERR_ARG;
    const rate_in in = {cells, NULL};
    return ladder(r, builtin_rate(r, cells, &out->base), &in, solution, out);
}

int sb_grater_ladder_candidates(sb_grater *r, const uint16_t cand[SB_CELLS],
                                const uint8_t *solution, sb_ladder_rating *out)
{
    if (!r || !cand || !out || r->g)
        return SB_ERR_ARG;
    /* As sb_rate_candidates: candidates that keep all their givens allow are that puzzle. */
    sb_grid givens;
    const rate_in in = {givens.cell, sb_candidates_givens(cand, &givens) ? NULL : cand};
    return ladder(r, sb_rate_candidates(cand, &out->base), &in, solution, out);
}

const char *sb_grater_plugin_why(const sb_grater *r)
{
    return r ? r->why : NULL;
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
