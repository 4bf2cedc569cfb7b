/*
 * gcheck.c — the independent checker of the geometry CLI tests (tests/cli/geometry.sh).
 * Counts come from the dancing-links oracle (tests/dlx.c), rule checks are written out here
 * over the geometry's house list; the library only parses the geometry and the grid text.
 *
 *   gcheck solve SPEC PUZZLES < OUTPUT   OUTPUT is `solve -f solution -l 2` of PUZZLES: each
 *                                        record must be the oracle's verdict, and a solution
 *                                        must keep the givens and fill every house
 *   gcheck all SPEC PUZZLES [CAP] < OUT    OUTPUT is `solve --all` of PUZZLES: for each, as many
 *                                        valid, distinct solutions as the oracle counts (with
 *                                        CAP: up to CAP, as `-l CAP`), then its count record,
 *                                        which must be that count
 *   gcheck clean SPEC < LINES            writes the lines of LINES whose givens do not clash
 *                                        (no digit twice in a house) to stdout, the others to
 *                                        stderr
 *   gcheck bench general|dlx|fast SPEC PUZZLES [ROUNDS]
 *                                        counts every puzzle to 2 with the general solver,
 *                                        the oracle or (3x3 only) sb_solve, and prints the
 *                                        time per puzzle, the least of ROUNDS runs (default 1;
 *                                        for callgrind: the work is all in bench_all,
 *                                        --toggle-collect=bench_all)
 *   gcheck half SPEC COUNT SEED PERCENT  writes COUNT puzzles: a random full grid (random
 *                                        fitting digits on a quarter of the cells, solved by
 *                                        the general solver, as `generate` fills), each cell
 *                                        kept with probability PERCENT/100 (the benchmark's
 *                                        25x25 "about half given" puzzles)
 * SPEC is a built-in spec or @FILE (a geometry file). PUZZLES holds puzzle lines only.
 * Prints one line per problem; exits 1 if there was any, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../dlx.h"
#include "sudokubench.h"

/* The geometry as a plain house list, for the oracle and the rule check. */
typedef struct geo {
    sb_geometry *g; /* parsed geometry (for the grid text only) */
    int ncells;     /* cells */
    int n;          /* digits */
    int nhouses;    /* houses */
    int *houses;    /* nhouses * n cell indices */
} geo;

/* Reads one line into buf without its '\n'. @return 1, or 0 at the end. */
static int get_line(FILE *f, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, f))
        return 0;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

/* @return 1 when sol keeps every given of puzzle and every house holds 1..n once. */
static int rules_ok(const geo *G, const uint8_t *puzzle, const uint8_t *sol)
{
    for (int c = 0; c < G->ncells; c++)
        if (sol[c] < 1 || sol[c] > G->n || (puzzle[c] && puzzle[c] != sol[c]))
            return 0;
    for (int h = 0; h < G->nhouses; h++) {
        int seen[65] = {0};
        for (int i = 0; i < G->n; i++)
            if (seen[sol[G->houses[h * G->n + i]]]++)
                return 0;
    }
    return 1;
}

/* Counts each of the n puzzles (ncells bytes each) to 2 with solver which ('g' general,
 * 'd' oracle, 'f' sb_solve). @return the sum of the counts. */
__attribute__((noinline)) static uint64_t bench_all(const geo *G, char which, const uint8_t *p,
                                                    size_t n)
{
    uint64_t total = 0;
    sb_gsolver *s = NULL;
    sb_solver *fast = NULL;
    sb_options o;
    sb_options_default(&o);
    o.limit = 2;
    if (which == 'g')
        sb_gsolver_new(G->g, &s);
    if (which == 'f')
        sb_solver_new(&fast, &o);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *cells = p + i * (size_t)G->ncells;
        if (which == 'g') {
            sb_gresult r;
            sb_gsolve(s, cells, 2, &r, NULL);
            total += r.count + (r.guesses << 32);
        } else if (which == 'd') {
            total += dlx_count(G->ncells, G->n, G->nhouses, G->houses, cells, 2, NULL);
        } else {
            sb_grid grid;
            sb_result r;
            memcpy(grid.cell, cells, SB_CELLS);
            sb_solve(fast, &grid, &r);
            total += r.count + (r.guesses << 32);
        }
    }
    sb_gsolver_free(s);
    sb_solver_free(fast);
    return total;
}

/* The next value of a xorshift64* generator (any state but 0). */
static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

/* gcheck half: see the header comment. @return the exit status. */
static int half(const char *spec, long count, uint64_t seed, long percent)
{
    sb_geometry *g;
    char why[SB_GEO_WHY_LEN];
    if (sb_geometry_parse(spec, &g, why, sizeof why) != SB_OK)
        return 2;
    const int n = sb_geometry_digits(g), nc = sb_geometry_cells(g);
    uint8_t *p = calloc((size_t)nc, 1), *full = malloc((size_t)nc);
    char *line = malloc((size_t)nc * 4 + 2);
    sb_gsolver *s;
    if (!p || !full || !line || sb_gsolver_new(g, &s) != SB_OK)
        return 2;
    sb_gsolver_budget(s, 1000);
    uint64_t rng = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    for (long t = 0; t < count; t++) {
        sb_gresult r = {0};
        do { /* a random full grid: random digits that fit on a quarter of the cells, solved */
            memset(p, 0, (size_t)nc);
            for (int i = 0; i < nc / 4; i++) {
                const int c = (int)(rng_next(&rng) % (uint64_t)nc), d = 1 + (int)(rng_next(&rng) % (uint64_t)n);
                int np, fits = 1;
                const uint16_t *peer = sb_geometry_peers(g, c, &np);
                for (int k = 0; k < np; k++)
                    fits &= p[peer[k]] != d;
                if (fits)
                    p[c] = (uint8_t)d;
            }
        } while (sb_gsolve(s, p, 1, &r, full) != SB_OK || r.count != 1);
        for (int c = 0; c < nc; c++)
            p[c] = (int)(rng_next(&rng) % 100) < percent ? full[c] : 0;
        if (sb_gformat(g, p, n > 35 ? SB_GFORM_INTS : SB_GFORM_CHARS, line, (size_t)nc * 4 + 2) < 0)
            return 2;
        puts(line);
    }
    sb_gsolver_free(s);
    sb_geometry_free(g);
    free(p);
    free(full);
    free(line);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && !strcmp(argv[1], "half"))
        return half(argv[2], strtol(argv[3], NULL, 10), strtoull(argv[4], NULL, 10),
                    strtol(argv[5], NULL, 10));
    if ((argc == 5 || argc == 6) && !strcmp(argv[1], "bench")) {
        geo G = {0};
        char why[SB_GEO_WHY_LEN];
        if (sb_geometry_parse(argv[3], &G.g, why, sizeof why) != SB_OK)
            return 2;
        G.ncells = sb_geometry_cells(G.g);
        G.n = sb_geometry_digits(G.g);
        G.nhouses = sb_geometry_houses(G.g);
        G.houses = malloc(sizeof(int) * (size_t)(G.nhouses * G.n));
        for (int h = 0; h < G.nhouses; h++)
            for (int i = 0; i < G.n; i++)
                G.houses[h * G.n + i] = sb_geometry_house(G.g, h)[i];
        FILE *f = fopen(argv[4], "r");
        static char line[40000];
        size_t n = 0;
        uint8_t *p = NULL;
        while (f && get_line(f, line, sizeof line)) {
            p = realloc(p, (n + 1) * (size_t)G.ncells);
            if (sb_gparse(G.g, line, strlen(line), p + n * (size_t)G.ncells, NULL, why,
                          sizeof why, NULL) == SB_OK)
                n++;
        }
        const long rounds = argc == 6 ? strtol(argv[5], NULL, 10) : 1;
        uint64_t total = 0;
        double secs = 0;
        for (long r = 0; r < (rounds > 0 ? rounds : 1); r++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            total = bench_all(&G, argv[2][0], p, n);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            const double t = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            if (r == 0 || t < secs)
                secs = t;
        }
        printf("%s %s: %zu puzzles, counts %llu, guesses %llu, %.1f us/puzzle\n", argv[2],
               argv[3], n, (unsigned long long)(total & 0xffffffffu),
               (unsigned long long)(total >> 32), n ? 1e6 * secs / (double)n : 0.0);
        return 0;
    }
    const int clean = argc == 3 && !strcmp(argv[1], "clean");
    if (!clean && (argc < 4 || argc > 5 || (strcmp(argv[1], "solve") && strcmp(argv[1], "all")))) {
        fprintf(stderr, "usage: gcheck solve|all SPEC|@FILE PUZZLES [CAP] < OUTPUT\n"
                        "       gcheck clean SPEC|@FILE < LINES\n");
        return 2;
    }
    geo G = {0};
    char why[SB_GEO_WHY_LEN];
    const int st = argv[2][0] == '@' ? sb_geometry_load(argv[2] + 1, &G.g, why, sizeof why)
                                     : sb_geometry_parse(argv[2], &G.g, why, sizeof why);
    FILE *pf = clean ? stdin : fopen(argv[3], "r");
    if (st != SB_OK || !pf) {
        fprintf(stderr, "gcheck: %s\n", st != SB_OK ? why : "cannot open PUZZLES");
        return 2;
    }
    G.ncells = sb_geometry_cells(G.g);
    G.n = sb_geometry_digits(G.g);
    G.nhouses = sb_geometry_houses(G.g);
    G.houses = malloc(sizeof(int) * (size_t)(G.nhouses * G.n));
    for (int h = 0; h < G.nhouses; h++)
        for (int i = 0; i < G.n; i++)
            G.houses[h * G.n + i] = sb_geometry_house(G.g, h)[i];
    const int all = !strcmp(argv[1], "all");
    static char line[40000], out[40000];
    uint8_t *puzzle = malloc((size_t)G.ncells), *sol = malloc((size_t)G.ncells);
    int bad = 0, lineno = 0;
    const uint64_t cap = argc == 5 ? strtoull(argv[4], NULL, 10) : 0;
    while (clean && get_line(stdin, line, sizeof line)) {
        int clash = sb_gparse(G.g, line, strlen(line), puzzle, NULL, why, sizeof why, NULL);
        for (int h = 0; h < G.nhouses && !clash; h++) {
            int seen[65] = {0};
            for (int i = 0; i < G.n; i++) {
                const int d = puzzle[G.houses[h * G.n + i]];
                clash |= d && seen[d]++;
            }
        }
        fprintf(clash ? stderr : stdout, "%s\n", line);
    }
    while (get_line(pf, line, sizeof line)) {
        lineno++;
        if (sb_gparse(G.g, line, strlen(line), puzzle, NULL, why, sizeof why, NULL) != SB_OK) {
            printf("PUZZLES:%d: not a puzzle: %s\n", lineno, why);
            bad = 1;
            continue;
        }
        const uint64_t want = dlx_count(G.ncells, G.n, G.nhouses, G.houses, puzzle,
                                        all ? cap : 2, NULL);
        if (!all && !get_line(stdin, out, sizeof out)) {
            printf("puzzle %d: output ended\n", lineno);
            return 1;
        }
        if (!all) {
            const char *expect = want == 0 ? "unsolvable" : want >= 2 ? "multiple" : NULL;
            if (expect ? strcmp(out, expect) != 0
                       : sb_gparse(G.g, out, strlen(out), sol, NULL, why, sizeof why, NULL) != SB_OK ||
                             !rules_ok(&G, puzzle, sol)) {
                printf("puzzle %d: got '%.60s', oracle count %llu\n", lineno, out,
                       (unsigned long long)want);
                bad = 1;
            }
            continue;
        }
        /* The solutions come first, as found; the count record after them. */
        const unsigned long long got = want;
        uint8_t *seen = malloc((size_t)G.ncells * (size_t)(got ? got : 1));
        for (unsigned long long k = 0; k < got; k++) {
            if (!get_line(stdin, out, sizeof out) ||
                sb_gparse(G.g, out, strlen(out), seen + k * (size_t)G.ncells, NULL, why,
                          sizeof why, NULL) != SB_OK) {
                printf("puzzle %d: solution %llu missing or unreadable\n", lineno, k + 1);
                return 1;
            }
            const uint8_t *s = seen + k * (size_t)G.ncells;
            if (!rules_ok(&G, puzzle, s)) {
                printf("puzzle %d: solution %llu breaks the rules: %s\n", lineno, k + 1, out);
                bad = 1;
            }
            for (unsigned long long j = 0; j < k; j++)
                if (!memcmp(seen + j * (size_t)G.ncells, s, (size_t)G.ncells)) {
                    printf("puzzle %d: solution %llu repeats solution %llu\n", lineno, k + 1,
                           j + 1);
                    bad = 1;
                }
        }
        free(seen);
        if (!get_line(stdin, out, sizeof out) || strtoull(out, NULL, 10) != want ||
            strspn(out, "0123456789") != strlen(out)) {
            printf("puzzle %d: count record '%.60s', oracle %llu\n", lineno, out,
                   (unsigned long long)want);
            return 1;
        }
    }
    if (get_line(stdin, out, sizeof out)) {
        printf("output goes on after the last puzzle: '%.60s'\n", out);
        bad = 1;
    }
    fclose(pf);
    free(puzzle);
    free(sol);
    free(G.houses);
    sb_geometry_free(G.g);
    return bad;
}
