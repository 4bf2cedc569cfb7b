/*
 * recsolve.c — one thread's solver of stream records of any geometry (app.h, "Record solvers"),
 * part of the programs' layer: the records an sb_gsource gives, 9x9 sb_records (givens or
 * pencilmarks) through an sb_solver, solved ahead a chunk at a time with sb_solve_many, and
 * other geometries' sb_stream_grecs through the geometry's sb_engine; rating through an
 * sb_grater (sb_rate on 9x9), with technique plug-in rungs when asked. So a command solves,
 * validates and rates every geometry through one call, and never chooses an engine itself.
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"

struct sb_rsolver {
    const sb_geometry *g; /* NULL: 9x9 */
    sb_solver *solver;    /* 9x9 */
    sb_engine *eng;       /* another geometry, or a plug-in on any */
    sb_grater *rater;     /* the rating (made when asked for), with its plug-in rungs */
    uint64_t limit;       /* the options' limit (the engine takes it per call) */
    int plugin;           /* 1: eng runs a plug-in, whose every solution is checked */
    int techs;            /* 1: technique plug-ins run: puzzles are solved one at a time, so
                             a breach is read right after the solve it broke */
    uint8_t *sol;         /* with eng: the last first solution, the geometry's cells */
    size_t cap;           /* entries of the arrays below */
    size_t ready, next;   /* solved ahead: entries next .. ready-1 not yet handed out */
    const sb_record **rec; /* the record of each entry */
    sb_grid *grid;        /* its puzzle */
    sb_result *res;       /* its result */
    int *st;              /* its sb_solve status */
};

int sb_rsolver_new(const sb_geometry *g, const sb_options *opt, const sb_options *rate,
                   sb_rsolver **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!opt)
        return SB_ERR_ARG;
    sb_rsolver *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return SB_ERR_NOMEM;
    s->g = g;
    s->limit = opt->limit;
    const int eng = g || opt->plugin; /* a plug-in is an engine row on 9x9 too */
    s->plugin = opt->plugin != NULL;
    s->techs = opt->ntechniques > 0;
    if (eng && !(s->sol = malloc(g ? (size_t)sb_geometry_cells(g) : SB_CELLS)))
        return SB_ERR_NOMEM;
    int st = eng ? sb_engine_new(g, opt, &s->eng) : sb_solver_new(&s->solver, opt);
    if (st == SB_OK && rate)
        st = sb_grater_new_opt(g, rate, &s->rater);
    return st;
}

/* Frees the arrays of the puzzles solved ahead. */
static void ahead_free(sb_rsolver *s)
{
    free(s->rec);
    free(s->grid);
    free(s->res);
    free(s->st);
    s->cap = 0;
}

void sb_rsolver_free(sb_rsolver *s)
{
    if (!s)
        return;
    sb_solver_free(s->solver);
    sb_engine_free(s->eng);
    sb_grater_free(s->rater);
    free(s->sol);
    ahead_free(s);
    free(s);
}

void sb_rsolver_ahead(sb_rsolver *s, const sb_record *const *recs, size_t n)
{
    if (!s)
        return;
    s->ready = s->next = 0;
    /* nothing ahead on another geometry, for a solver that failed to be made, with technique
     * plug-ins, or for an array that cannot be there (its copies' sizes would wrap) */
    if (s->g || !s->solver || s->techs || !recs || n > SIZE_MAX / sizeof *s->res)
        return;
    if (n > s->cap) {
        ahead_free(s);
        s->rec = malloc(n * sizeof *s->rec);
        s->grid = malloc(n * sizeof *s->grid);
        s->res = malloc(n * sizeof *s->res);
        s->st = malloc(n * sizeof *s->st);
        s->cap = s->rec && s->grid && s->res && s->st ? n : 0;
        if (!s->cap)
            return; /* each record is solved when it is asked for */
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (recs[i] && recs[i]->kind == SB_LINE_PUZZLE && !recs[i]->marks) { /* marks: one at a time */
            s->rec[k] = recs[i];
            s->grid[k++] = recs[i]->grid;
        }
    sb_solve_many(s->solver, s->grid, k, s->res, s->st);
    s->ready = k;
}

int sb_rsolver_solve(sb_rsolver *s, const sb_record *rec, sb_result *res)
{
    if (!s || !rec || !res)
        return SB_ERR_ARG;
    if (s->eng) {
        if (!s->g && rec->marks)
            return SB_ERR_ARG; /* a plug-in takes givens, not pencilmarks */
        sb_gresult gr = {0, 0};
        const uint8_t *cells = s->g ? ((const sb_stream_grec *)rec)->cells : rec->grid.cell;
        int st = sb_engine_solve(s->eng, cells, s->limit, &gr, s->sol);
        /* a plug-in's solution is checked against the givens and the rules, as bench does */
        if (st == SB_OK && s->plugin && gr.count &&
            !(s->g ? sb_gsolution_check(s->g, cells, s->sol)
                   : sb_solution_check(&rec->grid, (const sb_grid *)(const void *)s->sol)))
            st = SB_ERR_PLUGIN;
        res->count = gr.count;
        res->guesses = gr.guesses;
        if (!s->g && gr.count)
            memcpy(res->solution.cell, s->sol, SB_CELLS);
        return st;
    }
    if (s->next < s->ready && s->rec[s->next] == rec) {
        *res = s->res[s->next];
        return s->st[s->next++];
    }
    return rec->marks ? sb_solve_candidates(s->solver, rec->cand, res)
                      : sb_solve(s->solver, &rec->grid, res);
}

const char *sb_rsolver_plugin_why(const sb_rsolver *s)
{
    if (!s)
        return NULL;
    const char *why = s->eng ? sb_engine_plugin_why(s->eng) : sb_solver_plugin_why(s->solver);
    return why ? why : sb_grater_plugin_why(s->rater);
}

const uint8_t *sb_rsolver_solution(const sb_rsolver *s, const sb_result *res)
{
    if (!s)
        return NULL;
    return s->eng ? s->sol : res ? res->solution.cell : NULL;
}

int sb_rsolver_rate(sb_rsolver *s, const sb_record *rec, const uint8_t *truth,
                    sb_ladder_rating *out)
{
    if (!s || !rec || !out || !s->rater)
        return SB_ERR_ARG;
    if (s->g)
        return sb_grater_ladder(s->rater, ((const sb_stream_grec *)rec)->cells, truth, out);
    /* a pencilmark record is rated from its candidates: its eliminations count as done */
    return rec->marks ? sb_grater_ladder_candidates(s->rater, rec->cand, truth, out)
                      : sb_grater_ladder(s->rater, rec->grid.cell, truth, out);
}

int sb_rsolver_each(sb_rsolver *s, const sb_record *rec, sb_gsolution_fn fn, void *user,
                    sb_gresult *res)
{
    if (!s || !rec || !s->g)
        return SB_ERR_ARG;
    return sb_engine_each(s->eng, ((const sb_stream_grec *)rec)->cells, s->limit, fn, user, res);
}
