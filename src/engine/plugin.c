/*
 * plugin.c — solver plug-ins (sudokubench_plugin.h): loading and checking a shared object,
 * and the calls the engine's plug-in row makes through it (engine.c).
 *
 * Everything a plug-in says is checked once at sb_plugin_open (ABI, name, calls), and every
 * answer at each call (the count against the limit, the guesses against the budget, the code
 * against the ones the ABI defines), so a broken plug-in shows up as SB_ERR_PLUGIN naming
 * itself, never as a wrong row. Whether its solutions and counts are right is the harness's
 * check (sb_bench_warm, the CLI's verdict cross-check), as for every built-in.
 *
 * The only state outside the caller's objects is a thread-local pointer to the plug-in whose
 * call runs on that thread (sb_plugin_running): a signal handler has no other way to learn
 * that the fault it caught happened inside a plug-in.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sudokubench_plugin.h"

_Static_assert(sizeof(sig_atomic_t) == sizeof(int), "sb_plugin_call.stop is the stop flag");

enum { NAME_MAX_LEN = 31 };

struct sb_plugin {
    void *dl;                      /* dlopen's handle */
    const sb_plugin_solver *def;   /* a solver plug-in's description (its static data), or NULL */
    const sb_plugin_technique *tech; /* a technique plug-in's, or NULL */
    /* What both kinds declare, read once from whichever description it is. */
    const char *name, *about;
    uint32_t flags;
    int (*accepts)(const sb_plugin_geometry *g);
    void *(*create)(const sb_plugin_geometry *g);
    void (*destroy)(void *state);
    uint16_t nine[SB_HOUSES * SB_DIGITS]; /* the 9x9 houses as sb_plugin_geometry lists them */
};

/* The plug-in whose call runs on this thread (NULL: none). */
static _Thread_local const sb_plugin *running;

/* @return whether name is 1..NAME_MAX_LEN of [a-z0-9_-]. */
static int good_name(const char *name)
{
    const size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > NAME_MAX_LEN)
        return 0;
    return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* Looks up sym in dl and calls it (the entry returns static data). @return its answer; NULL
 * when the symbol is missing (*found 0) or the entry returned NULL (*found 1). */
static const void *entry_of(void *dl, const char *sym, int *found)
{
    const void *(*entry)(void);
    void *at = dlsym(dl, sym);
    memcpy(&entry, &at, sizeof entry); /* ISO C has no object-to-function cast */
    *found = entry != NULL;
    return entry ? entry() : NULL;
}

/* Checks what both kinds declare and copies it into p. @return SB_OK or SB_ERR_PLUGIN with
 * why. */
static int take_common(sb_plugin *p, uint32_t abi, char *why, size_t cap)
{
    if (abi != SB_PLUGIN_ABI)
        return sb_why(SB_ERR_PLUGIN, why, cap, "built for plug-in ABI %u, this program speaks %d",
                      (unsigned)abi, SB_PLUGIN_ABI);
    if (!good_name(p->name))
        return sb_why(SB_ERR_PLUGIN, why, cap, "bad name (1-%d of a-z, 0-9, '_', '-')",
                      NAME_MAX_LEN);
    if (sb_pipeline_find(p->name) >= 0 || strncmp(p->name, "fast", 4) == 0)
        return sb_why(SB_ERR_PLUGIN, why, cap, "name '%s' is a built-in pipeline's", p->name);
    for (int t = 0; t < SB_TECH_COUNT; t++)
        if (!strcmp(p->name, sb_techniques(NULL)[t].name) || !strcmp(p->name, "nt") ||
            !strcmp(p->name, "ht"))
            return sb_why(SB_ERR_PLUGIN, why, cap, "name '%s' is a built-in technique's",
                          p->name);
    if (p->flags & ~(uint32_t)SB_PLUGIN_ONE_THREAD)
        return sb_why(SB_ERR_PLUGIN, why, cap, "'%s' sets flags 0x%x this program does not know",
                      p->name, (unsigned)(p->flags & ~(uint32_t)SB_PLUGIN_ONE_THREAD));
    return SB_OK;
}

/* Reads the description dl exports (either entry) into p. @return SB_OK or SB_ERR_PLUGIN. */
static int describe(sb_plugin *p, char *why, size_t cap)
{
    int solver, technique;
    p->def = entry_of(p->dl, SB_PLUGIN_ENTRY, &solver);
    p->tech = solver ? NULL : entry_of(p->dl, SB_PLUGIN_TECHNIQUE_ENTRY, &technique);
    if (!solver && !technique)
        return sb_why(SB_ERR_PLUGIN, why, cap, "no symbol '%s' or '%s' (a plug-in exports "
                      "one: sudokubench_plugin.h)", SB_PLUGIN_ENTRY, SB_PLUGIN_TECHNIQUE_ENTRY);
    if (!p->def && !p->tech)
        return sb_why(SB_ERR_PLUGIN, why, cap, "%s() returned NULL",
                      solver ? SB_PLUGIN_ENTRY : SB_PLUGIN_TECHNIQUE_ENTRY);
    if (p->def) {
        const sb_plugin_solver *d = p->def;
        p->name = d->name, p->about = d->about, p->flags = d->flags;
        p->accepts = d->accepts, p->create = d->create, p->destroy = d->destroy;
        const int st = take_common(p, d->abi, why, cap);
        if (st == SB_OK && (!d->create || !d->destroy || !d->solve))
            return sb_why(SB_ERR_PLUGIN, why, cap, "'%s' lacks create, destroy or solve",
                          d->name);
        return st;
    }
    const sb_plugin_technique *d = p->tech;
    p->name = d->name, p->about = d->about, p->flags = d->flags;
    p->accepts = d->accepts, p->create = d->create, p->destroy = d->destroy;
    const int st = take_common(p, d->abi, why, cap);
    if (st == SB_OK && (!d->step || !d->create != !d->destroy))
        return sb_why(SB_ERR_PLUGIN, why, cap, "'%s' lacks step, or has only one of create and "
                      "destroy", d->name);
    return st;
}

int sb_plugin_open(const char *path, sb_plugin **out, char *why, size_t cap)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return SB_ERR_ARG;
    sb_plugin *p = calloc(1, sizeof *p);
    if (!p)
        return sb_why(SB_ERR_NOMEM, why, cap, "out of memory");
    /* RTLD_LOCAL: two plug-ins may define the same helper names without meeting. */
    p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!p->dl) {
        const char *e = dlerror();
        free(p);
        return sb_why(SB_ERR_PLUGIN, why, cap, "%s", e ? e : "cannot load");
    }
    const int st = describe(p, why, cap);
    if (st != SB_OK) {
        dlclose(p->dl);
        free(p);
        return st;
    }
    const sb_peer_tables *t = sb_tables();
    for (int h = 0; h < SB_HOUSES; h++)
        for (int i = 0; i < SB_DIGITS; i++)
            p->nine[h * SB_DIGITS + i] = t->house_cells[h][i];
    *out = p;
    return SB_OK;
}

void sb_plugin_close(sb_plugin *p)
{
    if (!p)
        return;
    dlclose(p->dl);
    free(p);
}

const char *sb_plugin_name(const sb_plugin *p)
{
    return p ? p->name : NULL;
}

const char *sb_plugin_about(const sb_plugin *p)
{
    return p ? p->about ? p->about : "" : NULL;
}

int sb_plugin_one_thread(const sb_plugin *p)
{
    return p && (p->flags & SB_PLUGIN_ONE_THREAD);
}

int sb_plugin_is_technique(const sb_plugin *p)
{
    return p && p->tech;
}

const char *sb_plugin_running(void)
{
    const sb_plugin *p = running;
    return p ? p->name : NULL;
}

void sb_plugin_geometry_of(const sb_plugin *p, const sb_geometry *g, sb_plugin_geometry *out)
{
    if (!g) {
        *out = (sb_plugin_geometry){SB_CELLS, SB_DIGITS, SB_HOUSES, 3, 3, p->nine};
        return;
    }
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    const int boxed = sb_geometry_kind_of(g) == SB_GEO_BOXED;
    *out = (sb_plugin_geometry){(uint32_t)sb_geometry_cells(g), (uint32_t)sb_geometry_digits(g),
                                (uint32_t)sb_geometry_houses(g),
                                boxed ? (uint32_t)l.box_rows : 0,
                                boxed ? (uint32_t)l.box_cols : 0, sb_geometry_house(g, 0)};
}

int sb_plugin_accepts(const sb_plugin *p, const sb_geometry *g)
{
    if (!p || !g)
        return 0;
    sb_plugin_geometry pg;
    sb_plugin_geometry_of(p, sb_geo_in(g), &pg);
    /* Without accepts the plug-in solves 9x9 Sudoku only (a 3x3 geometry is that grid). */
    if (!p->accepts)
        return pg.cells == SB_CELLS && pg.box_rows == 3 && pg.box_cols == 3;
    running = p;
    const int yes = p->accepts(&pg) == 1;
    running = NULL;
    return yes;
}

void *sb_plugin_state_new(const sb_plugin *p, const sb_plugin_geometry *g)
{
    if (!p->create)
        return NULL;
    running = p;
    void *s = p->create(g);
    running = NULL;
    return s;
}

void sb_plugin_state_free(const sb_plugin *p, void *state)
{
    if (!state)
        return;
    running = p;
    p->destroy(state);
    running = NULL;
}

int sb_plugin_solve(const sb_plugin *p, void *state, const uint8_t *cells, uint64_t limit,
                    const sb_options *opt, uint8_t *first, sb_gresult *res)
{
    sb_plugin_call call = {cells, limit, opt->max_guesses, (const volatile int *)opt->stop,
                           first, 0};
    running = p;
    const int64_t n = p->def->solve(state, &call);
    running = NULL;
    res->guesses = call.guesses;
    res->count = n > 0 ? (uint64_t)n : 0;
    if (n == SB_PLUGIN_STOPPED)
        return SB_ERR_STOPPED;
    if (n == SB_PLUGIN_BUDGET)
        return SB_ERR_BUDGET;
    /* Any other negative code, a count past the limit or guesses past the budget is the
     * plug-in breaking its contract: never a row's figure. */
    if (n < 0 || (limit && (uint64_t)n > limit) || call.guesses > opt->max_guesses)
        return SB_ERR_PLUGIN;
    return SB_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Technique plug-ins: one thread's set of them, as the pipelines' steps SB_TECH_COUNT + k     */
/* ------------------------------------------------------------------------------------------ */

int sb_tech_ext_new(const sb_plugin *const *techs, size_t n, const sb_geometry *g,
                    sb_tech_ext **out)
{
    *out = NULL;
    if (n == 0)
        return SB_OK;
    if (n > SB_TECH_PLUGINS || !techs)
        return SB_ERR_ARG;
    sb_tech_ext *x = calloc(1, sizeof *x);
    if (!x)
        return SB_ERR_NOMEM;
    x->ncells = g ? (size_t)sb_geometry_cells(g) : SB_CELLS;
    x->cand = calloc(2 * x->ncells, sizeof *x->cand);
    if (!x->cand) {
        free(x);
        return SB_ERR_NOMEM;
    }
    x->elim = x->cand + x->ncells;
    for (size_t k = 0; k < n; k++) {
        const sb_plugin *p = techs[k];
        if (!p || !p->tech || !sb_plugin_accepts(p, sb_geo_out(g))) {
            sb_tech_ext_free(x);
            return SB_ERR_ARG;
        }
        x->p[k] = p;
        sb_plugin_geometry_of(p, g, &x->pg[k]);
        x->n = (int)k + 1;
        if (p->create && !(x->state[k] = sb_plugin_state_new(p, &x->pg[k]))) {
            sb_tech_ext_free(x);
            return SB_ERR_NOMEM;
        }
    }
    *out = x;
    return SB_OK;
}

void sb_tech_ext_free(sb_tech_ext *x)
{
    if (!x)
        return;
    for (int k = 0; k < x->n; k++)
        sb_plugin_state_free(x->p[k], x->state[k]);
    free(x->cand);
    free(x);
}

/* Records x's first breach: the reason in x->why. @return -1 (the step's contradiction). */
static int breach(sb_tech_ext *x, int k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int breach(sb_tech_ext *x, int k, const char *fmt, ...)
{
    if (!x->fault) {
        x->fault = SB_ERR_PLUGIN;
        int at = snprintf(x->why, sizeof x->why, "technique plug-in '%s' ", x->p[k]->name);
        va_list ap;
        va_start(ap, fmt);
        if (at > 0 && (size_t)at < sizeof x->why)
            vsnprintf(x->why + at, sizeof x->why - (size_t)at, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* @return whether x->cand still allows x->truth (every cell keeps the solution's digit). */
static int allows_truth(const sb_tech_ext *x)
{
    for (size_t c = 0; c < x->ncells; c++)
        if (!(x->cand[c] >> (x->truth[c] - 1) & 1))
            return 0;
    return 1;
}

int sb_tech_ext_step(sb_tech_ext *x, int k)
{
    const sb_plugin *p = x->p[k];
    memset(x->elim, 0, x->ncells * sizeof *x->elim);
    running = p;
    const int64_t r = p->tech->step(x->state[k], x->cand, x->elim);
    running = NULL;
    uint64_t any = 0;
    for (size_t c = 0; c < x->ncells; c++)
        any |= x->elim[c] &= x->cand[c];
    if (r < 0 && r != SB_PLUGIN_CONTRADICTION)
        return breach(x, k, "failed (step returned %lld)", (long long)r);
    if (r == 0 && any)
        return breach(x, k, "eliminated candidates but reported no pattern");
    if (x->truth && allows_truth(x)) {
        if (r == SB_PLUGIN_CONTRADICTION)
            return breach(x, k, "reported a contradiction on a board that keeps a solution");
        for (size_t c = 0; c < x->ncells; c++)
            if (x->elim[c] >> (x->truth[c] - 1) & 1)
                return breach(x, k, "removed digit %d from cell %zu (row %zu, column %zu), "
                              "which fast's solution puts there", x->truth[c], c,
                              c / x->pg[k].digits + 1, c % x->pg[k].digits + 1);
    }
    return r == SB_PLUGIN_CONTRADICTION ? -1 : r > INT32_MAX ? INT32_MAX : (int)r;
}

int sb_fast_plugin_step(sb_tech_ext *x, int k, const uint32_t *w, uint32_t *el)
{
    /* The planes' layout (kernel_tech.h): digit d's band k is word 4d+k, bit 9i+j the cell
     * of row 3k+i, column j, so cell c is bit c % 27 of band c / 27. */
    memset(x->cand, 0, SB_CELLS * sizeof *x->cand);
    for (int d = 0; d < SB_DIGITS; d++) /* one step per candidate, not per (cell, digit) */
        for (int k = 0; k < 3; k++)
            for (uint32_t m = w[4 * d + k]; m; m &= m - 1)
                x->cand[27 * k + __builtin_ctz(m)] |= UINT64_C(1) << d;
    const int r = sb_tech_ext_step(x, k);
    memset(el, 0, 4 * SB_DIGITS * sizeof *el);
    for (int c = 0; r > 0 && c < SB_CELLS; c++)
        for (uint64_t m = x->elim[c]; m; m &= m - 1)
            el[4 * __builtin_ctzll(m) + c / 27] |= 1u << (c % 27);
    return r;
}
