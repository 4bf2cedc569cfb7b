/*
 * recsolve.c — one thread's solver of stream records of any geometry (app.h, "Record solvers"),
 * part of the programs' layer: the records sb_reader gives and their cells (9x9 givens or
 * pencilmarks, solved ahead a chunk at a time with sb_engine_solve_many, and every other
 * geometry's), all through the geometry's sb_engine; rating through an
 * sb_grater (sb_rate on 9x9), with technique plug-in rungs when asked. So a command solves,
 * validates and rates every geometry through one call, and never chooses an engine itself.
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"

struct sb_rsolver {
    const sb_geometry *g; /* the geometry */
    int nine;             /* g is the 9x9 grid: puzzles solved ahead, candidates as 9x9 masks */
    sb_engine *eng;       /* the geometry's engine (a plug-in's row, when one was given) */
    sb_grater *rater;     /* the rating (made when asked for), with its plug-in rungs */
    uint64_t limit;       /* the options' limit (the engine takes it per call) */
    int plugin;           /* 1: eng runs a plug-in, whose every solution is checked */
    int techs;            /* 1: technique plug-ins run: puzzles are solved one at a time, so
                             a breach is read right after the solve it broke */
    uint8_t *sol;         /* the first solution of a puzzle solved alone, the geometry's cells */
    const uint8_t *last;  /* the last solve's first solution: sol, or an entry of first */
    size_t cap;           /* entries of the arrays below */
    size_t ready, next;   /* solved ahead: entries next .. ready-1 not yet handed out */
    const sb_record **rec; /* the record of each entry */
    sb_grid *grid;        /* its puzzle */
    sb_gresult *res;      /* its count and guesses */
    sb_grid *first;       /* its first solution */
    int *st;              /* its solve's status */
};

int sb_rsolver_new(const sb_geometry *g, const sb_options *opt, const sb_options *rate,
                   sb_rsolver **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!opt || !g)
        return SB_ERR_ARG;
    sb_rsolver *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return SB_ERR_NOMEM;
    s->g = g;
    s->nine = g == sb_geometry_9x9();
    s->limit = opt->limit;
    s->plugin = opt->plugin != NULL;
    s->techs = opt->ntechniques > 0;
    if (!(s->sol = malloc((size_t)sb_geometry_cells(g))))
        return SB_ERR_NOMEM;
    s->last = s->sol;
    int st = sb_engine_new(g, opt, &s->eng);
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
    free(s->first);
    free(s->st);
    s->cap = 0;
}

void sb_rsolver_free(sb_rsolver *s)
{
    if (!s)
        return;
    sb_engine_free(s->eng);
    sb_grater_free(s->rater);
    free(s->sol);
    ahead_free(s);
    free(s);
}

void sb_rsolver_ahead(sb_rsolver *s, const sb_record *recs, const uint8_t *cells, size_t n)
{
    if (!s)
        return;
    s->ready = s->next = 0;
    /* nothing ahead on another geometry, for a plug-in (its every solution is checked as it
     * comes), for an engine that failed to be made, with technique plug-ins, or for an array
     * that cannot be there (its copies' sizes would wrap) */
    if (!s->nine || s->plugin || !s->eng || s->techs || !recs || !cells ||
        n > SIZE_MAX / sizeof *s->first)
        return;
    if (n > s->cap) {
        ahead_free(s);
        s->rec = malloc(n * sizeof *s->rec);
        s->grid = malloc(n * sizeof *s->grid);
        s->res = malloc(n * sizeof *s->res);
        s->first = malloc(n * sizeof *s->first);
        s->st = malloc(n * sizeof *s->st);
        s->cap = s->rec && s->grid && s->res && s->first && s->st ? n : 0;
        if (!s->cap)
            return; /* each record is solved when it is asked for */
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (recs[i].kind == SB_LINE_PUZZLE && !recs[i].marks) /* marks: one at a time */
            s->rec[k++] = &recs[i];
    /* a chunk of puzzles alone is solved where it lies; else its puzzles are gathered */
    const uint8_t *puzzles = cells;
    if (k < n) {
        for (size_t j = 0; j < k; j++)
            memcpy(s->grid[j].cell, cells + (size_t)(s->rec[j] - recs) * SB_CELLS, SB_CELLS);
        puzzles = s->grid[0].cell;
    }
    if (sb_engine_solve_many(s->eng, puzzles, k, s->limit, s->res, s->first[0].cell,
                             s->st) == SB_OK)
        s->ready = k; /* else each record is solved when it is asked for */
}

int sb_rsolver_solve(sb_rsolver *s, const sb_record *rec, const uint8_t *cells,
                     const uint64_t *cand, sb_gresult *res)
{
    if (!s || !rec || !cells || !res || !s->eng)
        return SB_ERR_ARG;
    sb_gresult gr = {0, 0};
    int st;
    s->last = s->sol;
    if (s->next < s->ready && s->rec[s->next] == rec) { /* solved ahead */
        gr = s->res[s->next];
        s->last = s->first[s->next].cell;
        st = s->st[s->next++];
    } else if (cand) { /* a pencilmark record: solved from its candidates */
        st = sb_engine_solve_candidates(s->eng, cand, s->limit, &gr, s->sol);
    } else {
        st = sb_engine_solve(s->eng, cells, s->limit, &gr, s->sol);
    }
    /* a plug-in's solution is checked against the givens and the rules, as bench does */
    if (st == SB_OK && s->plugin && gr.count &&
        !(s->nine ? sb_solution_check((const sb_grid *)(const void *)cells,
                                      (const sb_grid *)(const void *)s->sol)
                  : sb_gsolution_check(s->g, cells, s->sol)))
        st = SB_ERR_PLUGIN;
    *res = gr;
    return st;
}

const char *sb_rsolver_plugin_why(const sb_rsolver *s)
{
    if (!s)
        return NULL;
    const char *why = sb_engine_plugin_why(s->eng);
    return why ? why : sb_grater_plugin_why(s->rater);
}

const uint8_t *sb_rsolver_solution(const sb_rsolver *s)
{
    return s ? s->last : NULL;
}

int sb_rsolver_rate(sb_rsolver *s, const uint8_t *cells, const uint64_t *cand,
                    const uint8_t *truth, sb_ladder_rating *out)
{
    if (!s || !cells || !out || !s->rater)
        return SB_ERR_ARG;
    if (!cand)
        return sb_grater_ladder(s->rater, cells, truth, out);
    /* 9x9 pencilmarks are rated from their candidates: their eliminations count as done */
    uint16_t marks[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++) {
        if (!s->nine || cand[c] > SB_ALL_DIGITS)
            return SB_ERR_ARG;
        marks[c] = (uint16_t)cand[c];
    }
    return sb_grater_ladder_candidates(s->rater, marks, truth, out);
}

int sb_rsolver_each(sb_rsolver *s, const uint8_t *cells, sb_gsolution_fn fn, void *user,
                    sb_gresult *res)
{
    if (!s || !cells || s->nine)
        return SB_ERR_ARG;
    return sb_engine_each(s->eng, cells, s->limit, fn, user, res);
}
