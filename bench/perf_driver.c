/*
 * perf_driver.c — the workload `make perf-check` measures under callgrind.
 *
 * Solves the first N valid puzzles of FILE with one registry pipeline at one fixed SIMD
 * level, on one thread, with the default limit (2: uniqueness check), and prints one JSON
 * line with what it did. It exists (rather than running `sudokubench solve`) so that the
 * measured process has no worker threads, no output formatting and no dependence on the
 * CLI's batch engine: callgrind counts are then a pure function of the library and the
 * slice. scripts/perf_check.py counts the instructions inside sb_solve (inclusive) from the
 * callgrind profile; everything else here (reading, checking answers) is the "total" rest.
 *
 * Usage: perf_driver PIPELINE SIMD N FILE
 *        perf_driver --list
 *   PIPELINE  a registry name (sb_pipelines()) or a custom spec
 *   SIMD      scalar, sse4, avx2, avx512 or neon (never auto: the measured level must be explicit)
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
    sb_record rec;
    while ((want == 0 || n < want) && (rc = sb_reader_next(reader, &rec)) == 1) {
        if (rec.kind != SB_LINE_PUZZLE)
            continue; /* the slice is "the first N valid puzzles"; samples have no others */
        sb_result res;
        if (sb_solve(solver, &rec.grid, &res) != SB_OK) {
            fprintf(stderr, "perf_driver: %s:%llu: solve failed\n", argv[4],
                    (unsigned long long)rec.line);
            status = 2;
            break;
        }
        /* A regression gate that counted instructions of wrong answers would bless them. */
        if (res.count >= 1 && !sb_solution_check(&rec.grid, &res.solution)) {
            fprintf(stderr, "perf_driver: %s:%llu: wrong solution\n", argv[4],
                    (unsigned long long)rec.line);
            status = 2;
            break;
        }
        verdicts[sb_result_verdict(&res)]++;
        guesses += res.guesses;
        n++;
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
