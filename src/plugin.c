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
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sudokubench_plugin.h"

_Static_assert(sizeof(sig_atomic_t) == sizeof(int), "sb_plugin_call.stop is the stop flag");

enum { NAME_MAX_LEN = 31 };

struct sb_plugin {
    void *dl;                      /* dlopen's handle */
    const sb_plugin_solver *def;   /* the plug-in's description (its static data) */
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
    sb_plugin_entry_fn entry;
    void *sym = dlsym(p->dl, SB_PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* ISO C has no object-to-function cast */
    const sb_plugin_solver *d = entry ? entry() : NULL;
    int st = SB_OK;
    if (!entry)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "no symbol '%s' (a plug-in exports it: "
                    "sudokubench_plugin.h)", SB_PLUGIN_ENTRY);
    else if (!d)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "%s() returned NULL", SB_PLUGIN_ENTRY);
    else if (d->abi != SB_PLUGIN_ABI)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "built for plug-in ABI %u, this program speaks %d",
                    (unsigned)d->abi, SB_PLUGIN_ABI);
    else if (!good_name(d->name))
        st = sb_why(SB_ERR_PLUGIN, why, cap, "bad name (1-%d of a-z, 0-9, '_', '-')",
                    NAME_MAX_LEN);
    else if (sb_pipeline_find(d->name) >= 0 || strncmp(d->name, "fast", 4) == 0)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "name '%s' is a built-in pipeline's", d->name);
    else if (d->flags & ~(uint32_t)SB_PLUGIN_ONE_THREAD)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "'%s' sets flags 0x%x this program does not know",
                    d->name, (unsigned)(d->flags & ~(uint32_t)SB_PLUGIN_ONE_THREAD));
    else if (!d->create || !d->destroy || !d->solve)
        st = sb_why(SB_ERR_PLUGIN, why, cap, "'%s' lacks create, destroy or solve", d->name);
    if (st != SB_OK) {
        dlclose(p->dl);
        free(p);
        return st;
    }
    p->def = d;
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
    return p ? p->def->name : NULL;
}

const char *sb_plugin_about(const sb_plugin *p)
{
    return p ? p->def->about ? p->def->about : "" : NULL;
}

int sb_plugin_one_thread(const sb_plugin *p)
{
    return p && (p->def->flags & SB_PLUGIN_ONE_THREAD);
}

const char *sb_plugin_running(void)
{
    const sb_plugin *p = running;
    return p ? p->def->name : NULL;
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
    if (!p)
        return 0;
    sb_plugin_geometry pg;
    sb_plugin_geometry_of(p, g, &pg);
    /* Without accepts the plug-in solves 9x9 Sudoku only (a 3x3 geometry is that grid). */
    if (!p->def->accepts)
        return pg.cells == SB_CELLS && pg.box_rows == 3 && pg.box_cols == 3;
    running = p;
    const int yes = p->def->accepts(&pg) == 1;
    running = NULL;
    return yes;
}

void *sb_plugin_state_new(const sb_plugin *p, const sb_plugin_geometry *g)
{
    running = p;
    void *s = p->def->create(g);
    running = NULL;
    return s;
}

void sb_plugin_state_free(const sb_plugin *p, void *state)
{
    if (!state)
        return;
    running = p;
    p->def->destroy(state);
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
