/*
 * perf_driver.c — the workload `make perf-check` measures under callgrind.
 *
 * Solves the first N valid puzzles of FILE with one registry pipeline at one fixed SIMD
 * level, on one thread, with the default limit (2: uniqueness check), and prints one JSON
 * line with what it did. It exists (rather than running `sudokubench solve`) so that the
 * measured process has no worker threads, no output formatting and no dependence on the
 * CLI's batch engine: callgrind counts are then a pure function of the library and the
 * slice. scripts/sbperf/measure.py counts the instructions inside sb_solve (inclusive) from the
 * callgrind profile; everything else here (reading, checking answers) is the "total" rest.
 *
 * Usage: perf_driver PIPELINE SIMD N FILE
 *        perf_driver --list
 *   PIPELINE  a registry name (sb_pipelines()) or a custom spec
 *   SIMD      scalar, sse4, avx2, avx512bw, avx512 or neon (never auto: the measured level must be explicit)
 *   N         puzzles to take from the start of FILE (0: all)
 * Output: {"pipeline":P,"simd":S,"puzzles":N,"solved":A,"unsolvable":B,"multiple":C,
 *          "guesses":G}; exit 0, or 2 on a usage error, an unreadable file, a wrong answer.
 * --list prints the registries the scripts iterate, one JSON line each:
 *   {"pipeline":NAME,"generic":0|1}   generic: a spec of the portable engine, which runs the
 *                                     same code at every SIMD level
 *   {"simd":NAME,"supported":0|1}     as sb_simd_supported() sees this CPU (under valgrind:
 *                                     the CPU valgrind emulates)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudokubench.h"

enum { MANY_BLOCK = 64 }; /* puzzles per sb_solve_many call with SB_PERF_MANY=1 (the CLI's
                             bench block) */

/* Prints the usage line to stderr and returns the usage exit code (2). */
static int usage(void)
{
    fprintf(stderr, "usage: perf_driver PIPELINE scalar|avx2|avx512 N FILE | --list\n");
    return 2;
}

/* Prints the pipeline and SIMD registries as JSON lines (see the file comment). */
static int list_registries(void)
{
    size_t count;
    const sb_pipeline_info *p = sb_pipelines(&count);
    for (size_t i = 0; i < count; i++)
        printf("{\"pipeline\":\"%s\",\"generic\":%d}\n", p[i].name,
               sb_pipeline_check(p[i].spec) == SB_OK);
    for (int level = 0; level < SB_SIMD_LEVELS; level++)
        printf("{\"simd\":\"%s\",\"supported\":%d}\n", sb_simd_name(level),
               sb_simd_supported(level));
    return 0;
}

/* Runs one measurement or --list (see the file comment); returns the exit code. */
int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list"))
        return list_registries();
    if (argc != 5)
        return usage();
    sb_options opt;
    sb_options_default(&opt);
    if (sb_options_pipeline(&opt, argv[1]) != SB_OK) {
        fprintf(stderr, "perf_driver: unknown pipeline '%s'\n", argv[1]);
        return 2;
    }
    /* auto would let $SUDOKUBENCH_SIMD or the CPU choose, and the counts would then depend
     * on the machine: a regression gate must name its level. */
    opt.simd = sb_simd_parse(argv[2]);
    if (opt.simd < 0) {
        fprintf(stderr, "perf_driver: SIMD level must be scalar, avx2 or avx512\n");
        return 2;
    }
    /* sb_solve_many's gate is the paired kernel's (sb_solve's gate, baseline.json, holds the
     * one-board search): SB_PAIR_AUTO would hand hard slices to one board after their first
     * block, and $SUDOKUBENCH_PAIR must not move a gate either. */
    opt.pair = SB_PAIR_ON;
    char *end;
    errno = 0;
    const unsigned long long want = strtoull(argv[3], &end, 10);
    if (errno || *end || end == argv[3])
        return usage();
    FILE *in = fopen(argv[4], "r");
    if (!in) {
        fprintf(stderr, "perf_driver: %s: %s\n", argv[4], strerror(errno));
        return 2;
    }
    sb_solver *solver = NULL;
    sb_reader *reader = NULL;
    int rc = sb_solver_new(&solver, &opt);
    if (rc == SB_OK)
        rc = sb_reader_open(&reader, in);
    if (rc != SB_OK) {
        fprintf(stderr, "perf_driver: %s\n", sb_strerror(rc));
        sb_solver_free(solver);
        fclose(in);
        return 2;
    }
    unsigned long long n = 0, verdicts[3] = {0, 0, 0}, guesses = 0;
    int status = 0;
    /* SB_PERF_MANY=1: the puzzles go through sb_solve_many in blocks of MANY_BLOCK, as the
     * CLI's solve does (the AVX2 kernel's paired search); perf-check then gates
     * sb_solve_many's instructions (bench/baseline_many.json). */
    const char *many_env = getenv("SB_PERF_MANY");
    const size_t block = many_env && !strcmp(many_env, "1") ? MANY_BLOCK : 1;
    sb_grid grid[MANY_BLOCK];
    unsigned long long line[MANY_BLOCK];
    sb_result res[MANY_BLOCK];
    int st[MANY_BLOCK];
    for (int more = 1; more && status == 0;) {
        size_t k = 0;
        sb_record rec;
        while (k < block && (want == 0 || n + k < want) &&
               (more = (rc = sb_reader_next(reader, &rec)) == 1))
            if (rec.kind == SB_LINE_PUZZLE) { /* the slice: the first N valid puzzles */
                grid[k] = rec.grid;
                line[k++] = rec.line;
            }
        if (k < block)
            more = 0;
        if (block == 1) {
            for (size_t j = 0; j < k; j++)
                st[j] = sb_solve(solver, &grid[j], &res[j]);
        } else {
            sb_solve_many(solver, grid, k, res, st);
        }
        for (size_t j = 0; j < k && status == 0; j++) {
            if (st[j] != SB_OK) {
                fprintf(stderr, "perf_driver: %s:%llu: solve failed\n", argv[4], line[j]);
                status = 2;
            } else if (res[j].count >= 1 && !sb_solution_check(&grid[j], &res[j].solution)) {
                /* A regression gate that counted instructions of wrong answers would bless
                 * them. */
                fprintf(stderr, "perf_driver: %s:%llu: wrong solution\n", argv[4], line[j]);
                status = 2;
            } else {
                verdicts[sb_result_verdict(&res[j])]++;
                guesses += res[j].guesses;
                n++;
            }
        }
    }
    if (rc < 0) {
        fprintf(stderr, "perf_driver: %s: %s\n", argv[4], sb_strerror(rc));
        status = 2;
    }
    if (status == 0)
        printf("{\"pipeline\":\"%s\",\"simd\":\"%s\",\"puzzles\":%llu,\"solved\":%llu,"
               "\"unsolvable\":%llu,\"multiple\":%llu,\"guesses\":%llu}\n",
               argv[1], sb_simd_name(sb_solver_simd(solver)), n, verdicts[SB_SOLVED],
               verdicts[SB_UNSOLVABLE], verdicts[SB_MULTIPLE], guesses);
    sb_reader_close(reader);
    sb_solver_free(solver);
    fclose(in);
    return status;
}
