/*
 * faulty_tech.c — technique plug-ins that break the contract of sudokubench_plugin.h on
 * purpose, one per FAULT_* macro (mk/plugins.mk builds each into
 * build/plugins/test-tech-NAME.so), for tests/cli/techniques.sh and tests/cli/rate_plugins.sh.
 * Each fault comes at a point in the work (a call count, the board it is given), never at a
 * time.
 *
 *   FAULT_LIE       removes the lowest candidate of the first open cell at every call: a
 *                   guess, not a deduction, so on a board that keeps the solution it removes
 *                   the solution's digit within a few calls
 *   FAULT_SILENT    removes the same candidate but reports no pattern
 *   FAULT_FAIL      returns SB_PLUGIN_FAILED at its second call
 *   FAULT_CRASH     writes through NULL at its third call
 *   FAULT_ABI       built for an ABI version that does not exist
 *   FAULT_NAME      calls itself "xw", a built-in technique's name
 *   FAULT_CLASSNAME calls itself "chains", a rating class's name (rate refuses it)
 *   FAULT_GEOMETRY  accepts 16x16 boxed grids only
 *
 * Every other call finds nothing, as an honest technique that knows no pattern would.
 */
#include <stdint.h>
#include <stdlib.h>

#include "faulty.h"

typedef struct state {
    uint32_t cells;
    uint64_t calls;
} state;

static void *create(const sb_plugin_geometry *g)
{
    state *s = calloc(1, sizeof *s);
    if (s)
        s->cells = g->cells;
    return s;
}

static void destroy(void *p)
{
    free(p);
}

static int64_t step(void *p, const uint64_t *cand, uint64_t *eliminate)
{
    state *s = p;
    s->calls++;
#ifdef FAULT_CRASH
    if (s->calls == 3)
        *(volatile int *)(uintptr_t)eliminate = *(volatile int *)NULL;
#endif
#ifdef FAULT_FAIL
    if (s->calls == 2)
        return SB_PLUGIN_FAILED;
#endif
#if defined(FAULT_LIE) || defined(FAULT_SILENT)
    for (uint32_t c = 0; c < s->cells; c++)
        if (cand[c] & (cand[c] - 1)) {
            eliminate[c] = cand[c] & -cand[c];
#ifdef FAULT_SILENT
            return 0;
#else
            return 1;
#endif
        }
#else
    (void)cand;
    (void)eliminate;
#endif
    return 0;
}

SB_PLUGIN_EXPORT const sb_plugin_technique *sb_plugin_technique_entry(void)
{
    static const sb_plugin_technique me = {
        .abi = FAULTY_ABI,
#ifdef FAULT_NAME
        .name = "xw",
#elif defined(FAULT_CLASSNAME)
        .name = "chains",
#else
        .name = "faulty",
#endif
        .about = "a technique plug-in that breaks its contract on purpose "
                 "(tests/plugins/faulty_tech.c)",
        .accepts = ACCEPTS,
        .create = create,
        .destroy = destroy,
        .step = step,
    };
    return &me;
}
