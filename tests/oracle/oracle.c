/*
 * oracle.c — the large independent cross-check (`make check-oracle`, docs/reliability.md).
 *
 * Loads base puzzles from files (the standard corpora when ../shared/datasets is present, else
 * the committed samples) and derives from each a few mutants — givens removed (2+ solutions),
 * correct givens added (still one), a wrong but non-conflicting digit added (mostly none),
 * a given changed (conflicts or none), most givens removed (many solutions) — until the target
 * number of puzzles is reached. Every puzzle is counted with limit 2 by the dancing-links
 * oracle of tests/dlx.c, which shares no code with the library, and by:
 *   - the fast pipeline at every SIMD level this CPU supports (depth-first), and the fast
 *     pipeline breadth-first at the best level, on every puzzle;
 *   - every other registry pipeline (list, array, restart, singles, none: portable C, the
 *     same at every level) on every EVERY-th puzzle, since they are 100 to 1000 times slower;
 *     the plain backtracker of tests/reference.c checks the oracle itself on those too.
 * A run agrees when every count is the oracle's, every reported solution passes the rules
 * check (sb_solution_check) and, for a unique puzzle, is the oracle's solution.
 *
 * Usage: oracle [--target N] [--every K] [--seed S] FILE...
 * Prints the totals (puzzles by solution class and mutation, solves per configuration) and
 * every mismatch (the first 20 in full); exits 0 when there is none, 1 otherwise, 2 on a
 * usage or input error. Threads: OpenMP (OMP_NUM_THREADS), one set of solvers per thread.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlx.h"
#include "reference.h"
#include "sudokubench.h"

enum {
    MUTATIONS = 6,      /* kinds of puzzle below, the original included */
    MAX_CONFIGS = 16,   /* solver configurations per thread */
    SHOWN = 20,         /* mismatches printed in full */
    CHUNK = 64          /* puzzles per OpenMP work item */
};

/* How a puzzle was derived from its base. */
static const char *const mutation_name[MUTATIONS] = {
    "original", "removed 1-3 givens", "added 1-3 correct givens", "added a wrong digit",
    "changed a given", "sparse (10-20 givens)"};

/* One solver configuration checked against the oracle. */
typedef struct config {
    char name[48];   /* pipeline/level/search, for messages */
    int pipeline;    /* registry index */
    int simd;        /* sb_simd level */
    int search;      /* sb_search mode */
    int every;       /* runs on puzzles whose index is a multiple of this */
} config;

/* The BFS frontier cap of the breadth-first configuration: sparse puzzles outgrow any cap
 * (a documented refusal, SB_ERR_FRONTIER, counted apart), so a small one keeps that quick. */
enum { ORACLE_BFS_CAP = 1 << 12 };

/* Reads every puzzle line of path into *base (grown as needed). @return 0, or -1. */
static int load(const char *path, sb_grid **base, size_t *n, size_t *cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\n");
        sb_grid g;
        if (sb_parse_line(line, len, &g, NULL, NULL) != SB_LINE_PUZZLE)
            continue;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 4096;
            sb_grid *p = realloc(*base, *cap * sizeof *p);
            if (!p) {
                fclose(f);
                return -1;
            }
            *base = p;
        }
        (*base)[(*n)++] = g;
    }
    fclose(f);
    return 0;
}

/* Removes k random givens of g (fewer if it has fewer). */
static void remove_givens(ref_rng *r, uint8_t *g, int k)
{
    int cells[81], n = 0;
    for (int c = 0; c < 81; c++)
        if (g[c])
            cells[n++] = c;
    ref_shuffle(r, cells, n);
    for (int i = 0; i < k && i < n; i++)
        g[cells[i]] = 0;
}

/* Makes mutant `kind` of base into out, using houses for the base's first solution.
 * @return kind as made (an addition falls back to a removal when there is no solution). */
static int mutate(ref_rng *r, const int *houses, const uint8_t *base, int kind, uint8_t *out)
{
    memcpy(out, base, 81);
    uint8_t sol[81];
    int blanks[81], nb = 0;
    for (int c = 0; c < 81; c++)
        if (!base[c])
            blanks[nb++] = c;
    ref_shuffle(r, blanks, nb);
    switch (kind) {
    case 1:
        remove_givens(r, out, 1 + ref_rng_below(r, 3));
        return kind;
    case 2:
    case 3:
        if (nb == 0 || dlx_count(81, 9, 27, houses, base, 1, sol) == 0)
            break;
        if (kind == 2) {
            const int k = 1 + ref_rng_below(r, 3);
            for (int i = 0; i < k && i < nb; i++)
                out[blanks[i]] = sol[blanks[i]];
            return kind;
        }
        for (int i = 0; i < nb; i++) { /* a digit its peers allow but the solution does not */
            const int c = blanks[i], d0 = 1 + ref_rng_below(r, 9);
            for (int t = 0; t < 9; t++) {
                const int d = 1 + (d0 - 1 + t) % 9;
                if (d != sol[c] && ref_digit_fits(out, c, d)) {
                    out[c] = (uint8_t)d;
                    return kind;
                }
            }
        }
        break;
    case 4: {
        int cells[81], n = 0;
        for (int c = 0; c < 81; c++)
            if (base[c])
                cells[n++] = c;
        if (n == 0)
            break;
        const int c = cells[ref_rng_below(r, n)];
        out[c] = (uint8_t)(1 + (out[c] + ref_rng_below(r, 8)) % 9); /* any other digit */
        return kind;
    }
    case 5: {
        const int keep = 10 + ref_rng_below(r, 11), have = 81 - nb;
        remove_givens(r, out, have > keep ? have - keep : 0);
        return kind;
    }
    default:
        return 0;
    }
    remove_givens(r, out, 1);
    return 1;
}

/* Prints one mismatch (while few have been shown). */
static void report(unsigned long long *shown, const char *cfg, const uint8_t *p,
                   uint64_t want, uint64_t got, const char *what)
{
    char text[82];
    for (int c = 0; c < 81; c++)
        text[c] = p[c] ? (char)('0' + p[c]) : '.';
    text[81] = '\0';
#pragma omp critical(oracle_report)
    {
        if (++*shown <= SHOWN)
            printf("MISMATCH %s: %s: oracle %llu, got %llu (%s)\n", cfg, text,
                   (unsigned long long)want, (unsigned long long)got, what);
    }
}

int main(int argc, char **argv)
{
    unsigned long long target = 200000, every = 40, seed = 1;
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1] == '-'; i += 2) {
        unsigned long long *v = !strcmp(argv[i], "--target") ? &target
                              : !strcmp(argv[i], "--every")  ? &every
                              : !strcmp(argv[i], "--seed")   ? &seed : NULL;
        if (!v) {
            fprintf(stderr, "oracle: unknown option %s\n", argv[i]);
            return 2;
        }
        *v = strtoull(argv[i + 1], NULL, 10);
    }
    if (i >= argc || target == 0 || every == 0) {
        fprintf(stderr, "usage: oracle [--target N] [--every K] [--seed S] FILE...\n");
        return 2;
    }
    sb_grid *base = NULL;
    size_t nbase = 0, cap = 0;
    for (; i < argc; i++)
        if (load(argv[i], &base, &nbase, &cap) != 0)
            return 2;
    if (nbase == 0) {
        fprintf(stderr, "oracle: no puzzles in the inputs\n");
        return 2;
    }
    /* V variants per base (at least 4, so every mutation appears), nb bases evenly spread. */
    const unsigned long long per = (target + nbase - 1) / nbase, V = per < 4 ? 4 : per;
    const unsigned long long nb = (target + V - 1) / V, total = nb * V;

    config cfg[MAX_CONFIGS];
    int ncfg = 0;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l)) {
            cfg[ncfg] = (config){.pipeline = 0, .simd = l, .search = SB_SEARCH_DFS, .every = 1};
            snprintf(cfg[ncfg].name, sizeof cfg[ncfg].name, "fast/%s/dfs", sb_simd_name(l));
            ncfg++;
        }
    /* The level auto picks (the numbering is not the preference: avx512bw came after neon). */
    const int auto_level = sb_simd_resolve(SB_SIMD_AUTO);
    const int best = auto_level == SB_ERR_SIMD ? SB_SIMD_SCALAR : auto_level;
    cfg[ncfg] = (config){.pipeline = 0, .simd = best, .search = SB_SEARCH_BFS, .every = 1};
    snprintf(cfg[ncfg].name, sizeof cfg[ncfg].name, "fast/%s/bfs", sb_simd_name(best));
    ncfg++;
    size_t npipes;
    const sb_pipeline_info *pipes = sb_pipelines(&npipes);
    for (size_t p = 1; p < npipes && ncfg < MAX_CONFIGS; p++) {
        cfg[ncfg] = (config){.pipeline = (int)p, .simd = SB_SIMD_SCALAR,
                             .search = SB_SEARCH_DFS, .every = (int)every};
        snprintf(cfg[ncfg].name, sizeof cfg[ncfg].name, "%s/dfs", pipes[p].name);
        ncfg++;
    }

    int houses[27 * 9];
    ref_sudoku_houses(houses);
    unsigned long long by_class[3] = {0}, by_kind[MUTATIONS] = {0}, solves[MAX_CONFIGS] = {0};
    unsigned long long mismatches = 0, shown = 0, ref_checked = 0, setup_failed = 0;
    unsigned long long frontier = 0;
#pragma omp parallel
    {
        sb_solver *sv[MAX_CONFIGS] = {0};
        unsigned long long cls[3] = {0}, kinds[MUTATIONS] = {0}, runs[MAX_CONFIGS] = {0};
        unsigned long long bad = 0, refs = 0, capped = 0;
        int ok = 1;
        for (int k = 0; k < ncfg; k++) {
            sb_options o;
            sb_options_default(&o);
            o.pipeline = cfg[k].pipeline;
            o.simd = cfg[k].simd;
            o.search = cfg[k].search;
            o.bfs_cap = ORACLE_BFS_CAP;
            if (sb_solver_new(&sv[k], &o) != SB_OK)
                ok = 0;
        }
        if (!ok) {
#pragma omp atomic
            setup_failed++;
        }
#pragma omp for schedule(dynamic, CHUNK)
        for (unsigned long long j = 0; j < total; j++) {
            if (!ok)
                continue;
            const uint8_t *b = base[(size_t)((j / V) * nbase / nb)].cell;
            ref_rng r;
            ref_rng_seed(&r, seed * 0x9E3779B97F4A7C15ull + j);
            const int want_kind = j % V == 0 ? 0 : (int)(1 + (j / V + j % V) % (MUTATIONS - 1));
            sb_grid g;
            const int kind = mutate(&r, houses, b, want_kind, g.cell);
            kinds[kind]++;
            uint8_t first[81];
            const uint64_t want = dlx_count(81, 9, 27, houses, g.cell, 2, first);
            cls[want < 2 ? want : 2]++;
            if (j % every == 0) { /* the oracle checked by the plain backtracker */
                refs++;
                const int rc = ref_count(g.cell, 2, NULL);
                if ((uint64_t)rc != want) {
                    bad++;
                    report(&shown, "reference backtracker", g.cell, want, (uint64_t)rc,
                           "the two independent counters disagree");
                }
            }
            for (int k = 0; k < ncfg; k++) {
                if (j % (unsigned long long)cfg[k].every)
                    continue;
                sb_result res;
                const int st = sb_solve(sv[k], &g, &res);
                runs[k]++;
                if (st == SB_ERR_FRONTIER && cfg[k].search == SB_SEARCH_BFS &&
                    res.count <= want) {
                    capped++; /* refused, as documented, having found no more than exist */
                } else if (st != SB_OK) {
                    bad++;
                    report(&shown, cfg[k].name, g.cell, want, res.count, sb_strerror(st));
                } else if (res.count != want) {
                    bad++;
                    report(&shown, cfg[k].name, g.cell, want, res.count, "count");
                } else if (want >= 1 && !sb_solution_check(&g, &res.solution)) {
                    bad++;
                    report(&shown, cfg[k].name, g.cell, want, res.count,
                           "its solution breaks the rules or the givens");
                } else if (want == 1 && memcmp(res.solution.cell, first, 81)) {
                    bad++;
                    report(&shown, cfg[k].name, g.cell, want, res.count,
                           "a different solution to a unique puzzle");
                }
            }
        }
        for (int k = 0; k < ncfg; k++)
            sb_solver_free(sv[k]);
#pragma omp critical(oracle_totals)
        {
            for (int c = 0; c < 3; c++)
                by_class[c] += cls[c];
            for (int m = 0; m < MUTATIONS; m++)
                by_kind[m] += kinds[m];
            for (int k = 0; k < ncfg; k++)
                solves[k] += runs[k];
            mismatches += bad;
            ref_checked += refs;
            frontier += capped;
        }
    }
    if (setup_failed) {
        fprintf(stderr, "oracle: a solver could not be made\n");
        return 2;
    }
    printf("oracle: %llu puzzles from %llu base puzzles (of %zu loaded), %llu per base\n",
           total, nb, nbase, V);
    printf("oracle: solutions: %llu none, %llu one, %llu two or more\n", by_class[0],
           by_class[1], by_class[2]);
    for (int m = 0; m < MUTATIONS; m++)
        printf("oracle:   %-26s %llu\n", mutation_name[m], by_kind[m]);
    printf("oracle: dancing links (tests/dlx.c) on all, plain backtracker (tests/reference.c)"
           " on %llu\n", ref_checked);
    for (int k = 0; k < ncfg; k++)
        printf("oracle:   %-22s %llu solves\n", cfg[k].name, solves[k]);
    printf("oracle: breadth-first refused %llu (frontier over its cap of %d boards, as "
           "documented)\n", frontier, ORACLE_BFS_CAP);
    printf("oracle: %llu mismatches\n", mismatches);
    free(base);
    return mismatches ? 1 : 0;
}
