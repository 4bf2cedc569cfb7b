/*
 * solve.c — the `solve` and `validate` commands: stream records in input order, one solver
 * context, one output record per input puzzle.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* State of one solve or validate run. */
typedef struct run {
    sb_solver *solver;        /* the one solver context */
    cli_format format;        /* solve: record format */
    FILE *out;                /* where records go */
    unsigned long long n[3];  /* puzzles per sb_verdict */
    unsigned long long invalid; /* invalid lines */
    unsigned long long conflicts; /* validate: puzzles with conflicting givens */
    unsigned long long guesses; /* total guesses */
} run;

static const char solve_help[] =
    "Usage: " CLI_NAME " solve [OPTIONS] [FILE...|-]\n"
    "Solve (count) every puzzle of the inputs (stdin when none) and write one record per\n"
    "input puzzle, invalid lines included, in input order.\n\n"
    "  -s, --pipeline NAME  propagation pipeline (default %s):%s\n"
    "  -l, --limit N        stop counting at N solutions: 1 first, 2 uniqueness, 0 all\n"
    "                       (default %llu)\n"
    "  -t, --threads N      worker threads (default 1; the batch engine is single-threaded\n"
    "                       for now, so N > 1 runs one thread)\n"
    "  -f, --format FMT     solution, tdoku, csv, json, pretty (default %s)\n"
    "      --simd LEVEL     auto, scalar, avx2, avx512 (default auto: $SUDOKUBENCH_SIMD,\n"
    "                       else the best this CPU supports)\n"
    "      --stats          print a summary line to stderr at the end\n"
    "  -h, --help           show this help\n\n"
    "Exit: 0 every line was a puzzle, 1 some lines were invalid, 2 usage or I/O error.\n";

/* Prints a help text whose first %s is the default pipeline, second the pipeline list. */
static void print_pipelines(char *buf, size_t len)
{
    size_t n, used = 0;
    const sb_pipeline_info *p = sb_pipelines(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "\n                         %-8s %s",
                                 p[i].name, p[i].description);
}

/* Record callback of solve: solve, count, write. */
static int solve_record(void *ctx, const char *name, const sb_record *rec)
{
    run *r = ctx;
    if (rec->kind == SB_LINE_INVALID) {
        r->invalid++;
        cli_write_record(r->out, r->format, name, rec, NULL);
        return 0;
    }
    sb_result res;
    sb_solve(r->solver, &rec->grid, &res);
    r->n[sb_result_verdict(&res)]++;
    r->guesses += res.guesses;
    cli_write_record(r->out, r->format, name, rec, &res);
    return 0;
}

int cli_solve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"pipeline", required_argument, 0, 's'}, {"limit", required_argument, 0, 'l'},
        {"threads", required_argument, 0, 't'},  {"format", required_argument, 0, 'f'},
        {"simd", required_argument, 0, 'S'},     {"stats", no_argument, 0, 'T'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    sb_options opt;
    sb_options_default(&opt);
    run r = {.format = FMT_SOLUTION, .out = stdout};
    int stats = 0, threads = 1, ch;
    char plist[1024];
    size_t np;
    optind = 1;
    opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
    while ((ch = getopt_long(argc, argv, ":s:l:t:f:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 's':
            opt.pipeline = sb_pipeline_find(optarg);
            if (opt.pipeline < 0)
                return cli_usage_error("solve", "unknown pipeline '%s'", optarg);
            break;
        case 'l':
            if (cli_parse_limit("solve", optarg, &opt.limit))
                return CLI_EXIT_USAGE;
            break;
        case 't':
            if (cli_parse_threads("solve", optarg, &threads))
                return CLI_EXIT_USAGE;
            break;
        case 'f':
            r.format = cli_format_find(optarg);
            if (r.format == FMT_COUNT)
                return cli_usage_error("solve", "unknown format '%s'", optarg);
            break;
        case 'S':
            if (cli_parse_simd("solve", optarg, &opt.simd))
                return CLI_EXIT_USAGE;
            break;
        case 'T': stats = 1; break;
        case 'h': {
            sb_options d;
            sb_options_default(&d);
            print_pipelines(plist, sizeof plist);
            printf(solve_help, sb_pipelines(&np)[d.pipeline].name, plist,
                   (unsigned long long)d.limit, cli_format_name(FMT_SOLUTION));
            return CLI_EXIT_OK;
        }
        default: return cli_getopt_error("solve", ch, argv);
        }
    }
    if (threads > 1)
        fprintf(stderr, CLI_NAME ": note: -t %d: the batch engine is single-threaded for now; "
                        "running 1 thread\n", threads);
    const int st = sb_solver_new(&r.solver, &opt);
    if (st != SB_OK)
        return cli_solver_error(st, opt.simd);
    const double t0 = cli_now_seconds();
    cli_write_header(r.out, r.format);
    int rc = cli_for_each_record(argv + optind, argc - optind, solve_record, &r);
    if (fflush(r.out) != 0) {
        fprintf(stderr, CLI_NAME ": write error on standard output\n");
        rc = CLI_EXIT_USAGE;
    }
    const double secs = cli_now_seconds() - t0;
    if (stats) {
        const unsigned long long total = r.n[0] + r.n[1] + r.n[2];
        fprintf(stderr,
                "stats: %llu puzzles (%llu solved, %llu unsolvable, %llu multiple), "
                "%llu invalid lines, %llu guesses, %.3f s, %.0f puzzles/s\n",
                total, r.n[SB_SOLVED], r.n[SB_UNSOLVABLE], r.n[SB_MULTIPLE], r.invalid,
                r.guesses, secs, secs > 0 ? (double)total / secs : 0.0);
    }
    sb_solver_free(r.solver);
    if (rc)
        return rc;
    return r.invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}

static const char validate_help[] =
    "Usage: " CLI_NAME " validate [OPTIONS] [FILE...|-]\n"
    "Check that every puzzle of the inputs (stdin when none) is proper: well-formed, no\n"
    "conflicting givens, exactly one solution. Problems go to stderr as FILE:LINE, a\n"
    "summary line to stdout.\n\n"
    "      --simd LEVEL     auto, scalar, avx2, avx512 (default auto)\n"
    "  -h, --help           show this help\n\n"
    "Exit: 0 every puzzle is proper, 1 otherwise, 2 usage or I/O error.\n";

/* Record callback of validate: diagnose every puzzle that is not proper. */
static int validate_record(void *ctx, const char *name, const sb_record *rec)
{
    run *r = ctx;
    const unsigned long long line = (unsigned long long)rec->line;
    if (rec->kind == SB_LINE_INVALID) {
        r->invalid++;
        return 0;
    }
    int a, b;
    if (sb_grid_conflict(&rec->grid, &a, &b)) {
        fprintf(stderr, CLI_NAME ": %s:%llu: conflicting givens: r%dc%d and r%dc%d are both %d\n",
                name, line, a / 9 + 1, a % 9 + 1, b / 9 + 1, b % 9 + 1, rec->grid.cell[a]);
        r->n[SB_UNSOLVABLE]++;
        return 0;
    }
    sb_result res;
    sb_solve(r->solver, &rec->grid, &res);
    const sb_verdict v = sb_result_verdict(&res);
    r->n[v]++;
    if (v == SB_UNSOLVABLE)
        fprintf(stderr, CLI_NAME ": %s:%llu: no solution\n", name, line);
    else if (v == SB_MULTIPLE)
        fprintf(stderr, CLI_NAME ": %s:%llu: multiple solutions\n", name, line);
    return 0;
}

int cli_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"simd", required_argument, 0, 'S'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    sb_options opt;
    sb_options_default(&opt);
    opt.limit = 2; /* proper = exactly one solution: counting to two decides it */
    run r = {.out = stdout};
    int ch;
    optind = 1;
    opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
    while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'S':
            if (cli_parse_simd("validate", optarg, &opt.simd))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(validate_help, stdout); return CLI_EXIT_OK;
        default: return cli_getopt_error("validate", ch, argv);
        }
    }
    const int st = sb_solver_new(&r.solver, &opt);
    if (st != SB_OK)
        return cli_solver_error(st, opt.simd);
    const int rc = cli_for_each_record(argv + optind, argc - optind, validate_record, &r);
    sb_solver_free(r.solver);
    printf("%llu puzzles: %llu unique, %llu multiple, %llu unsolvable, %llu invalid lines\n",
           r.n[0] + r.n[1] + r.n[2], r.n[SB_SOLVED], r.n[SB_MULTIPLE], r.n[SB_UNSOLVABLE],
           r.invalid);
    if (rc)
        return rc;
    return (r.invalid || r.n[SB_MULTIPLE] || r.n[SB_UNSOLVABLE]) ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
