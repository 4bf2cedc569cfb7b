/*
 * registry.c — the technique and pipeline registries: the names, one-line descriptions and
 * specs the CLI, tests and benchmarks list (sb_techniques, sb_pipelines, sb_pipeline_find).
 * Plain tables that call nothing, so the spec parser (pipeline.c) and the plug-in loader
 * (plugin.c, which refuses a plug-in named as a built-in) both read them without calling
 * each other.
 */
#include <string.h>

#include "internal.h"

/* The technique registry, indexed by sb_technique. */
static const sb_technique_info technique_table[SB_TECH_COUNT] = {
    [SB_TECH_NAKED_SINGLE] = {"ns", "naked single: a known cell's digit leaves its house"},
    [SB_TECH_HIDDEN_SINGLE] = {"hs", "hidden single: a digit with one place in a house"},
    [SB_TECH_LOCKED] = {"lc", "locked candidates: pointing (box->line) and claiming (line->box)"},
    [SB_TECH_NAKED_PAIR] = {"nt2", "naked pair: two cells, two digits"},
    [SB_TECH_NAKED_TRIPLE] = {"nt3", "naked triple: three cells, three digits"},
    [SB_TECH_NAKED_QUAD] = {"nt4", "naked quad: four cells, four digits"},
    [SB_TECH_HIDDEN_PAIR] = {"ht2", "hidden pair: two digits confined to two cells"},
    [SB_TECH_HIDDEN_TRIPLE] = {"ht3", "hidden triple: three digits confined to three cells"},
    [SB_TECH_HIDDEN_QUAD] = {"ht4", "hidden quad: four digits confined to four cells"},
    [SB_TECH_XWING] = {"xw", "X-wing: a digit's places in 2 rows lie in 2 columns (or vice versa)"},
    [SB_TECH_SWORDFISH] = {"sf", "swordfish: a digit's places in 3 rows lie in 3 columns"},
    [SB_TECH_JELLYFISH] = {"jf", "jellyfish: a digit's places in 4 rows lie in 4 columns"},
    [SB_TECH_XY_WING] = {"xy", "XY-wing: pivot {x,y} seeing pincers {x,z} and {y,z}"},
    [SB_TECH_XYZ_WING] = {"xyz", "XYZ-wing: pivot {x,y,z} seeing pincers {x,z} and {y,z}"},
    [SB_TECH_W_WING] = {"ww", "W-wing: two {x,y} cells joined by a strong link on x"},
    [SB_TECH_SKYSCRAPER] = {"sky", "skyscraper: two parallel strong links, one end aligned"},
    [SB_TECH_KITE] = {"kite", "2-string kite: a row and a column strong link joined in a box"},
    [SB_TECH_COLOURING] = {"col", "simple colouring: colour trap and colour wrap on one digit"},
    [SB_TECH_XCHAIN] = {"xc", "X-chain: alternating strong/weak links on one digit (<= 15)"},
};

const sb_technique_info *sb_techniques(size_t *count)
{
    if (count)
        *count = SB_TECH_COUNT;
    return technique_table;
}

/* The pipeline registry: one row per pipeline. The CLI, tests and benchmarks iterate it;
 * every row but "fast" is a spec run by the generic engine (technique.h). */
static const sb_pipeline_info pipeline_table[] = {
    {"fast",
     "fused SIMD kernel: naked + hidden singles, locked candidates, triads at a root with 50+ "
     "open cells; the default",
     "fast", "tuned freely (tdoku-style levers on a cell-bitmask board)"},
    {"list", "technique-major; each sweep reads one snapshot, eliminations land together",
     "list:ns,hs,lc,nt,ht", "seed 000, list version (immutable rows, transposes)"},
    {"array", "technique-major, house by house in place through index tables",
     "array:ns,hs,lc,nt,ht", "seed 000, array version (array access indices)"},
    {"restart", "stages cheapest first; any change restarts from the first stage",
     "restart:ns,hs,lc,nt2,nt3", "seed 001 (staged human techniques)"},
    {"singles", "naked singles only, then search", "restart:ns",
     "seed 004 (singleton solver)"},
    {"none", "no propagation beyond consistency: search does everything", "restart:",
     "seeds 002/003 (contention map, lazy-stream search)"},
};
#define PIPELINE_COUNT (sizeof pipeline_table / sizeof pipeline_table[0])

const sb_pipeline_info *sb_pipelines(size_t *count)
{
    if (count)
        *count = PIPELINE_COUNT;
    return pipeline_table;
}

int sb_pipeline_find(const char *name)
{
    for (size_t i = 0; name && i < PIPELINE_COUNT; i++)
        if (!strcmp(pipeline_table[i].name, name))
            return (int)i;
    return SB_ERR_PIPELINE;
}
