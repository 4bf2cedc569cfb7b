/*
 * rate.c — the `rate` command: per puzzle, the weakest technique set that solves it without
 * guessing (singles -> +hidden singles -> +locked candidates -> +tuples -> needs search),
 * with what each technique did, and a per-file summary of the classes.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"

/* Formats rate writes. */
enum { RATE_CSV, RATE_JSON };

/* State of one rate run. */
typedef struct rate_run {
    sb_solver *solver;                       /* uniqueness check before rating */
    int format;                              /* RATE_CSV or RATE_JSON */
    const char *file;                        /* input the per-file counts belong to */
    unsigned long long cls[SB_CLASS_COUNT];  /* this file: proper puzzles per class */
    unsigned long long verdict[3];           /* this file: puzzles per sb_verdict */
    unsigned long long invalid;              /* this file: invalid lines */
    int any_invalid;                         /* some input had an invalid line */
} rate_run;

static const char rate_help[] =
    "Usage: " CLI_NAME " rate [OPTIONS] [FILE...|-]\n"
    "Rate every puzzle of the inputs (stdin when none): the weakest technique set that solves\n"
    "it without guessing, from the givens, cheapest technique first:\n"
    "  singles (ns) < hidden (+hs) < locked (+lc) < tuples (+nt2-4, ht2-4) < search\n"
    "with the candidates each technique eliminated at that level. Puzzles that are not\n"
    "proper (no solution, several) get that status and no class. A summary per file goes\n"
    "to stderr.\n\n"
    "  -f, --format FMT     csv or json (default csv)\n"
    "      --simd LEVEL     auto, scalar, avx2, avx512 for the uniqueness check (default auto)\n"
    "  -h, --help           show this help\n\n"
    "Exit: 0 every line was a puzzle, 1 some lines were invalid, 2 usage or I/O error.\n";

/* Prints the per-file class summary to stderr and zeroes the per-file counts. */
static void summarize(rate_run *r)
{
    if (!r->file)
        return;
    const unsigned long long proper = r->verdict[SB_SOLVED];
    fprintf(stderr, "rate: %s: %llu puzzles:", r->file,
            r->verdict[0] + r->verdict[1] + r->verdict[2]);
    for (int c = 0; c < SB_CLASS_COUNT; c++)
        fprintf(stderr, "%s %s %llu (%.1f%%)", c ? "," : "", sb_class_name(c), r->cls[c],
                proper ? 100.0 * (double)r->cls[c] / (double)proper : 0.0);
    fprintf(stderr, "; unsolvable %llu, multiple %llu, invalid lines %llu\n",
            r->verdict[SB_UNSOLVABLE], r->verdict[SB_MULTIPLE], r->invalid);
    memset(r->cls, 0, sizeof r->cls);
    memset(r->verdict, 0, sizeof r->verdict);
    r->invalid = 0;
}

/* Writes the json "counts" object of a rating. */
static void write_counts_json(const sb_rating *rt)
{
    size_t nt;
    const sb_technique_info *t = sb_techniques(&nt);
    fputs("{", stdout);
    for (size_t i = 0; i < nt; i++)
        printf("%s\"%s\":{\"applications\":%llu,\"placements\":%llu,\"eliminations\":%llu}",
               i ? "," : "", t[i].name, (unsigned long long)rt->counts[i].applications,
               (unsigned long long)rt->counts[i].placements,
               (unsigned long long)rt->counts[i].eliminations);
    fputs("}", stdout);
}

/* Record callback: check, rate, write one record. */
static int rate_record(void *ctx, const char *name, const sb_record *rec)
{
    rate_run *r = ctx;
    const unsigned long long line = (unsigned long long)rec->line;
    size_t nt;
    sb_techniques(&nt);
    if (!r->file || strcmp(r->file, name) != 0) {
        summarize(r);
        r->file = name;
    }
    const char *status = "invalid";
    sb_rating rt;
    int rated = 0;
    if (rec->kind == SB_LINE_INVALID) {
        r->invalid++;
        r->any_invalid = 1;
    } else {
        sb_result res;
        sb_solve(r->solver, &rec->grid, &res);
        const sb_verdict v = sb_result_verdict(&res);
        static const char *const names[] = {"unsolvable", "solved", "multiple"};
        status = names[v];
        r->verdict[v]++;
        if (v == SB_SOLVED) {
            sb_rate(&rec->grid, &rt);
            r->cls[rt.cls]++;
            rated = 1;
        }
    }
    if (r->format == RATE_CSV) {
        printf("%llu,%s,%s", line, status, rated ? sb_class_name(rt.cls) : "");
        for (size_t i = 0; i < nt; i++)
            if (rated)
                printf(",%llu", (unsigned long long)rt.counts[i].eliminations);
            else
                fputs(",", stdout);
        putchar('\n');
        return 0;
    }
    fputs("{\"file\":", stdout);
    cli_json_string(stdout, name);
    printf(",\"line\":%llu,\"status\":\"%s\"", line, status);
    if (rated) {
        printf(",\"class\":\"%s\",\"counts\":", sb_class_name(rt.cls));
        write_counts_json(&rt);
    }
    fputs("}\n", stdout);
    return 0;
}

int cli_rate(int argc, char **argv)
{
    static const struct option longopts[] = {{"format", required_argument, 0, 'f'},
                                             {"simd", required_argument, 0, 'S'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    sb_options opt;
    sb_options_default(&opt);
    rate_run r = {.format = RATE_CSV};
    int ch;
    optind = 1;
    opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
    while ((ch = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'f':
            if (!strcmp(optarg, "csv"))
                r.format = RATE_CSV;
            else if (!strcmp(optarg, "json"))
                r.format = RATE_JSON;
            else
                return cli_usage_error("rate", "unknown format '%s' (csv, json)", optarg);
            break;
        case 'S':
            if (cli_parse_simd("rate", optarg, &opt.simd))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(rate_help, stdout); return CLI_EXIT_OK;
        default: return cli_getopt_error("rate", ch, argv);
        }
    }
    const int st = sb_solver_new(&r.solver, &opt);
    if (st != SB_OK)
        return cli_solver_error(st, opt.simd);
    if (r.format == RATE_CSV) {
        size_t nt;
        const sb_technique_info *t = sb_techniques(&nt);
        fputs("line,status,class", stdout);
        for (size_t i = 0; i < nt; i++)
            printf(",%s", t[i].name);
        putchar('\n');
    }
    const int rc = cli_for_each_record(argv + optind, argc - optind, rate_record, &r);
    summarize(&r);
    sb_solver_free(r.solver);
    if (fflush(stdout) != 0) {
        fprintf(stderr, CLI_NAME ": write error on standard output\n");
        return CLI_EXIT_USAGE;
    }
    if (rc)
        return rc;
    return r.any_invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
