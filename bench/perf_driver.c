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
 *        perf_driver --plugin PLUGIN N FILE
 *        perf_driver --plugin-verify PLUGIN N FILE
 *        perf_driver --plugin-name PLUGIN
 *        perf_driver --list
 *   PIPELINE  a registry name (sb_pipelines()) or a custom spec
 *   SIMD      scalar, sse4, avx2, avx512bw, avx512 or neon (never auto: the measured level must be explicit)
 *   N         puzzles to take from the start of FILE (0: all)
 *   PLUGIN    a solver plug-in (docs/plugins.md), run as the library's engine row: sb_engine_new
 *             with sb_options.plugin, then sb_engine_solve per puzzle at limit 2, the function
 *             whose instructions the gate counts (the harness and the plug-in). Every solution
 *             is checked against the givens and the rules. --plugin-verify also solves each
 *             puzzle with the library's own "fast" and fails on a count that differs: the gate
 *             runs it natively before any counting. --plugin-name prints {"plugin":NAME} once
 *             the plug-in has loaded as a solver for 9x9.
 * Environment: SB_PERF_MANY unset: one sb_solve per puzzle; 1: sb_solve_many in blocks of 64
 *   with the pair policy forced on (the gate of the paired kernel); auto: the same blocks
 *   under SB_PAIR_AUTO, what bench runs (make compare-ir).
 * Output: {"pipeline":P,"simd":S,"puzzles":N,"solved":A,"unsolvable":B,"multiple":C,
 *          "guesses":G}; exit 0, or 2 on a usage error, an unreadable file, a wrong answer.
 *          For a plug-in P is its name and S is "plugin".
 * --list prints the registries the scripts iterate, one JSON line each:
 *   {"pipeline":NAME,"generic":0|1}   generic: a spec of the portable engine, which runs the
 *                                     same code at every SIMD level
 *   {"simd":NAME,"supported":0|1}     as sb_simd_supported() sees this CPU (under valgrind:
 *                                     the CPU valgrind emulates)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sudokubench.h"

enum { MANY_BLOCK = 64 }; /* puzzles per sb_solve_many call with SB_PERF_MANY (the CLI's
                             bench block) */

/* Prints the usage line to stderr and returns the usage exit code (2). */
static int usage(void)
{
    fprintf(stderr, "usage: perf_driver PIPELINE scalar|avx2|avx512 N FILE | "
                    "--plugin|--plugin-verify PLUGIN N FILE | --plugin-name PLUGIN | --list\n");
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

/* Reads N (0: all) from arg into *want. @return 0, or the usage exit code. */
static int parse_count(const char *arg, unsigned long long *want)
{
    char *end;
    errno = 0;
    *want = strtoull(arg, &end, 10);
    return errno || *end || end == arg ? usage() : 0;
}

/* Opens the corpus at path for reading puzzles. @return 0 with *in and *reader set, or 2
 * with the reason on stderr and nothing left open. */
static int open_slice(const char *path, FILE **in, sb_reader **reader)
{
    *reader = NULL;
    *in = fopen(path, "r");
    if (!*in) {
        fprintf(stderr, "perf_driver: %s: %s\n", path, strerror(errno));
        return 2;
    }
    const int rc = sb_reader_open(reader, sb_geometry_9x9(), *in);
    if (rc != SB_OK) {
        fprintf(stderr, "perf_driver: %s\n", sb_strerror(rc));
        fclose(*in);
        *in = NULL;
        return 2;
    }
    return 0;
}

/* Reads the next valid puzzle (the slice skips every other record). @return 1 with *rec
 * and its 81 cells set, 0 at the end, or sb_reader_next's negative status. */
static int next_puzzle(sb_reader *reader, sb_record *rec, uint8_t *cells)
{
    int rc;
    while ((rc = sb_reader_next(reader, rec, cells, NULL)) == 1)
        if (rec->kind == SB_LINE_PUZZLE)
            return 1;
    return rc;
}

/* Prints the one JSON line of a run (see the file comment). */
static void print_figures(const char *pipeline, const char *simd, unsigned long long n,
                          const unsigned long long verdicts[3], unsigned long long guesses)
{
    printf("{\"pipeline\":\"%s\",\"simd\":\"%s\",\"puzzles\":%llu,\"solved\":%llu,"
           "\"unsolvable\":%llu,\"multiple\":%llu,\"guesses\":%llu}\n",
           pipeline, simd, n, verdicts[SB_SOLVED], verdicts[SB_UNSOLVABLE],
           verdicts[SB_MULTIPLE], guesses);
}

/* ---- Plug-in mode ---------------------------------------------------------------------- */

/* What a crash inside the plug-in's call says: its name and the puzzle, as the CLI names a
 * plug-in's crash, instead of a bare signal. Written before each call, since a signal
 * handler may only write(2) it. */
static char crash_text[4096];
static size_t crash_len;

/* Names a fault inside a plug-in's call and exits 2; elsewhere the fault comes again with
 * the default action. */
static void on_fault(int sig)
{
    if (sb_plugin_running()) {
        const ssize_t written = write(STDERR_FILENO, crash_text, crash_len);
        (void)written; /* nothing more to say if stderr is gone */
        _exit(2);
    }
    signal(sig, SIG_DFL);
}

/* Loads the solver plug-in at path for 9x9 grids. @return 0 with *out set, or 2 with the
 * reason on stderr. */
static int load_plugin(const char *path, sb_plugin **out)
{
    char why[SB_PLUGIN_WHY];
    if (sb_plugin_open(path, out, why, sizeof why) != SB_OK) {
        fprintf(stderr, "perf_driver: %s: %s\n", path, why);
        return 2;
    }
    const char *refusal = sb_plugin_is_technique(*out) ? "is a technique plug-in, not a solver"
                          : !sb_plugin_accepts(*out, sb_geometry_9x9()) ? "refuses 9x9 grids" : NULL;
    if (refusal) {
        fprintf(stderr, "perf_driver: %s: plug-in '%s' %s\n", path, sb_plugin_name(*out),
                refusal);
        sb_plugin_close(*out);
        *out = NULL;
        return 2;
    }
    return 0;
}

/* Runs the first N puzzles of FILE through the plug-in's engine row (--plugin), also
 * cross-checking each count with the library's own solver (--plugin-verify); see the file
 * comment. @return the exit code. */
static int plugin_main(int verify, const char *plugin_path, const char *count_arg,
                       const char *path)
{
    unsigned long long want;
    sb_plugin *plugin;
    if (parse_count(count_arg, &want))
        return 2;
    if (load_plugin(plugin_path, &plugin))
        return 2;
    const char *name = sb_plugin_name(plugin);
    sb_options opt;
    sb_options_default(&opt);
    opt.plugin = plugin;
    /* The plug-in row runs none of the library's kernels, but sb_engine_new checks the level:
     * scalar is one every CPU has, and so does valgrind's. */
    opt.simd = SB_SIMD_SCALAR;
    sb_engine *engine = NULL;
    sb_solver *library = NULL;
    FILE *in = NULL;
    sb_reader *reader = NULL;
    int status = 0;
    int rc = sb_engine_new(sb_geometry_9x9(), &opt, &engine);
    if (rc == SB_OK && verify) {
        sb_options own; /* "fast", limit 2: what the library itself answers */
        sb_options_default(&own);
        rc = sb_solver_new(&library, &own);
    }
    if (rc != SB_OK) {
        fprintf(stderr, "perf_driver: plug-in '%s': %s\n", name, sb_strerror(rc));
        status = 2;
    } else {
        status = open_slice(path, &in, &reader);
    }
    static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
        signal(faults[i], on_fault);
    unsigned long long n = 0, verdicts[3] = {0, 0, 0}, guesses = 0;
    sb_record rec;
    sb_grid grid;
    while (status == 0 && (want == 0 || n < want) &&
           (rc = next_puzzle(reader, &rec, grid.cell)) == 1) {
        sb_grid first = {{0}}; /* a count without a written solution fails the check */
        sb_gresult res;
        sb_result own;
        const int len = snprintf(crash_text, sizeof crash_text, "perf_driver: plug-in '%s' "
                                 "crashed during its call on %s:%llu\n", name, path,
                                 (unsigned long long)rec.line);
        crash_len = len < 0 ? 0 : (size_t)len < sizeof crash_text ? (size_t)len
                                                                  : sizeof crash_text - 1;
        const int st = sb_engine_solve(engine, grid.cell, opt.limit, &res, first.cell);
        if (st != SB_OK) {
            fprintf(stderr, "perf_driver: plug-in '%s': %s:%llu: %s\n", name, path,
                    (unsigned long long)rec.line, sb_strerror(st));
            status = 2;
        } else if (res.count >= 1 && !sb_solution_check(&grid, &first)) {
            /* A gate that counted instructions of wrong answers would bless them. */
            fprintf(stderr, "perf_driver: plug-in '%s': %s:%llu: wrong solution (it breaks "
                    "the givens or the rules)\n", name, path, (unsigned long long)rec.line);
            status = 2;
        } else if (verify && (rc = sb_solve(library, &grid, &own)) != SB_OK) {
            fprintf(stderr, "perf_driver: %s:%llu: the library's own solver: %s\n", path,
                    (unsigned long long)rec.line, sb_strerror(rc));
            status = 2;
        } else if (verify && own.count != res.count) {
            fprintf(stderr, "perf_driver: plug-in '%s': %s:%llu: counts %llu solution(s) at "
                    "limit %llu, the library's own solver %llu\n", name, path,
                    (unsigned long long)rec.line, (unsigned long long)res.count,
                    (unsigned long long)opt.limit, (unsigned long long)own.count);
            status = 2;
        } else {
            verdicts[res.count == 0 ? SB_UNSOLVABLE : res.count == 1 ? SB_SOLVED : SB_MULTIPLE]++;
            guesses += res.guesses;
            n++;
        }
    }
    if (status == 0 && rc < 0) {
        fprintf(stderr, "perf_driver: %s: %s\n", path, sb_strerror(rc));
        status = 2;
    }
    if (status == 0)
        print_figures(name, "plugin", n, verdicts, guesses);
    sb_reader_close(reader);
    if (in)
        fclose(in);
    sb_solver_free(library);
    sb_engine_free(engine);
    sb_plugin_close(plugin);
    return status;
}

/* Prints {"plugin":NAME} for the solver plug-in at path. @return the exit code. */
static int plugin_name(const char *path)
{
    sb_plugin *plugin;
    if (load_plugin(path, &plugin))
        return 2;
    printf("{\"plugin\":\"%s\"}\n", sb_plugin_name(plugin));
    sb_plugin_close(plugin);
    return 0;
}

/* ---- Pipeline mode --------------------------------------------------------------------- */

/* Runs one measurement, a plug-in's, or --list (see the file comment); returns the exit
 * code. */
int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list"))
        return list_registries();
    if (argc == 3 && !strcmp(argv[1], "--plugin-name"))
        return plugin_name(argv[2]);
    if (argc == 5 && (!strcmp(argv[1], "--plugin") || !strcmp(argv[1], "--plugin-verify")))
        return plugin_main(!strcmp(argv[1], "--plugin-verify"), argv[2], argv[3], argv[4]);
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
    /* SB_PERF_MANY=1: sb_solve_many's gate is the paired kernel's (sb_solve's gate,
     * baseline.json, holds the one-board search): SB_PAIR_AUTO would hand hard slices to one
     * board, and $SUDOKUBENCH_PAIR must not move a gate either. SB_PERF_MANY=auto counts what
     * bench runs, the pair policy's choice (make compare-ir, beside bench's timings). */
    const char *many_env = getenv("SB_PERF_MANY");
    const int many_auto = many_env && !strcmp(many_env, "auto");
    opt.pair = many_auto ? SB_PAIR_AUTO : SB_PAIR_ON;
    unsigned long long want;
    if (parse_count(argv[3], &want))
        return 2;
    FILE *in;
    sb_reader *reader;
    sb_solver *solver = NULL;
    int rc = sb_solver_new(&solver, &opt);
    if (rc != SB_OK) {
        fprintf(stderr, "perf_driver: %s\n", sb_strerror(rc));
        return 2;
    }
    if (open_slice(argv[4], &in, &reader)) {
        sb_solver_free(solver);
        return 2;
    }
    unsigned long long n = 0, verdicts[3] = {0, 0, 0}, guesses = 0;
    int status = 0;
    /* SB_PERF_MANY=1 or auto: the puzzles go through sb_solve_many in blocks of MANY_BLOCK,
     * as the CLI's solve does; with 1, perf-check gates sb_solve_many's instructions
     * (bench/baseline_many.json). */
    const size_t block = many_auto || (many_env && !strcmp(many_env, "1")) ? MANY_BLOCK : 1;
    sb_grid grid[MANY_BLOCK];
    unsigned long long line[MANY_BLOCK];
    sb_result res[MANY_BLOCK];
    int st[MANY_BLOCK];
    for (int more = 1; more && status == 0;) {
        size_t k = 0;
        sb_record rec;
        while (k < block && (want == 0 || n + k < want) &&
               (rc = next_puzzle(reader, &rec, grid[k].cell)) == 1) { /* the first N puzzles */
            line[k++] = rec.line;
        }
        more = k == block;
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
        print_figures(argv[1], sb_simd_name(sb_solver_simd(solver)), n, verdicts, guesses);
    sb_reader_close(reader);
    sb_solver_free(solver);
    fclose(in);
    return status;
}
