/*
 * rate.c — the `rate` command: per puzzle, the weakest technique set that solves it without
 * guessing (singles -> +hidden singles -> +locked candidates -> +tuples -> +fish -> +wings ->
 * +chains -> +each technique plug-in of --plugin, a rung apiece -> needs search), with what
 * each technique did, and a per-file summary of the classes. Runs on the batch engine: any
 * -t gives the same bytes.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Formats rate writes. */
enum { RATE_CSV, RATE_JSON };

/* A plug-in rung's class in tags and tallies: SB_CLASS_COUNT + k for plug-in k, after the
 * built-in classes (sb_class). */
enum { CLASS_SLOTS = SB_CLASS_COUNT + SB_TECH_PLUGINS };

/* What one input file held. */
typedef struct file_tally {
    unsigned long long cls[CLASS_SLOTS];    /* proper puzzles per class */
    unsigned long long verdict[3];          /* puzzles per sb_verdict */
    unsigned long long invalid;             /* invalid lines */
} file_tally;

/* One rate run: options read by the workers, per-file totals after. */
typedef struct rate_run {
    const sb_geometry *g;   /* the geometry */
    sb_options opt;         /* the uniqueness check's solver options */
    sb_options ropt;        /* the rater's: its technique plug-ins, a rung each */
    int format;             /* RATE_CSV or RATE_JSON */
    int nfiles;             /* inputs (1 for stdin alone) */
    char *const *files;     /* their names as given ("-" = stdin) */
    file_tally *total;      /* nfiles tallies of the records written */
    unsigned char *opened;  /* nfiles flags: the input could be opened (it gets a summary) */
} rate_run;

/* One thread's state. */
typedef struct rate_worker {
    sb_rsolver *rs;         /* its record solver and rater (src/app/, any geometry) */
    const rate_run *run;    /* the shared, read-only run */
} rate_worker;

/* What one record leaves for the tally (cli_batch.tag_size bytes). */
typedef struct rate_tag {
    uint8_t status; /* an sb_verdict, or TAG_INVALID */
    uint8_t cls;    /* its class when status is SB_SOLVED (CLASS_SLOTS) */
} rate_tag;

enum { TAG_INVALID = 3 /* after the sb_verdict values */ };

static const char rate_help[] =
    "Usage: " CLI_NAME " rate [OPTIONS] [FILE...|-]\n"
    "Rate every puzzle of the inputs (stdin when none): the weakest technique set that solves\n"
    "it without guessing, from the givens, cheapest technique first:\n"
    "  singles (ns) < hidden (+hs) < locked (+lc) < tuples (+nt2-4, ht2-4)\n"
    "  < fish (+xw, sf, jf) < wings (+xy, xyz, ww) < chains (+sky, kite, col, xc)%s < search\n"
    "with the candidates each technique eliminated at that level. Puzzles that are not\n"
    "proper (no solution, several) get that status and no class. A summary per file goes\n"
    "to stderr (none for a file that could not be opened or read).\n\n"
    "  -f, --format FMT     csv or json (default csv)\n"
    "  -t, --threads N      worker threads (%s)\n"
    "  -o, --output FILE    write standard output to FILE (records in order, as -t any)\n"
    "      --resume         with -o FILE: continue an interrupted run after FILE's last whole\n"
    "                       record (FILE.resume says which run made it: one started with\n"
    "                       --resume too, the same arguments but -t, --simd and --progress,\n"
    "                       and the same inputs); a finished FILE is left as it is\n"
    "      --progress WHEN  progress line on stderr: auto, always, never (default auto)\n"
    "      --simd LEVEL     auto, scalar, sse4, avx2, avx512bw, avx512, neon for the uniqueness\n"
    "                       check (default auto)\n"
    "      --grid SPEC      another geometry (default: from the first line's cell count); the\n"
    "                       same classes, columns and counters (locked needs houses meeting in\n"
    "                       2+ cells: never on latin:N; fish, sky and kite need rows and\n"
    "                       columns)\n"
    "      --geometry FILE  a geometry from a file, as --grid\n"
    "      --plugin FILE    a technique plug-in (docs/plugins.md; repeatable, at most %d): a\n"
    "                       rung of its own after chains, in the order given, named after it\n"
    "                       (give it before --help to see its rung), and a column of its\n"
    "                       eliminations after the built-in ones\n"
    "  -h, --help           show this help\n\n"
    "Exit: 0 every line was a puzzle, 1 some lines were invalid, 2 usage or I/O error,\n"
    "130 interrupted.\n";

/* Creates a worker with its own solver (cli_batch.worker_new). */
static int worker_new(void *ctx, void **out)
{
    const rate_run *r = ctx;
    rate_worker *w = cli_alloc_lines(sizeof *w);
    *out = w;
    if (!w)
        return cli_oom();
    w->run = r;
    const int st = sb_rsolver_new(r->g, &r->opt, &r->ropt, &w->rs);
    return st == SB_OK ? 0 : cli_solver_error("rate", st, r->opt.simd);
}

/* Frees a worker (cli_batch.worker_end). */
static void worker_end(void *ctx, void *wp)
{
    (void)ctx;
    rate_worker *w = wp;
    if (w)
        sb_rsolver_free(w->rs);
    free(w);
}

/* Adds written records to their file's tally (cli_batch.commit). */
static void commit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    rate_run *r = ctx;
    const rate_tag *t = (const rate_tag *)tags;
    for (size_t i = 0; i < n; i++) {
        file_tally *f = &r->total[input[i]];
        if (t[i].status == TAG_INVALID) {
            f->invalid++;
            continue;
        }
        f->verdict[t[i].status]++;
        if (t[i].status == SB_SOLVED)
            f->cls[t[i].cls]++;
    }
}

/* @return the name of class cls of a tag: a built-in class, or plug-in k's for
 * SB_CLASS_COUNT + k. */
static const char *class_name(const rate_run *r, int cls)
{
    return cls < SB_CLASS_COUNT ? sb_class_name(cls)
                                : sb_plugin_name(r->ropt.techniques[cls - SB_CLASS_COUNT]);
}

/* @return the class of rating rt as a tag holds it. */
static int ladder_class(const sb_ladder_rating *rt)
{
    return rt->rung >= 0 ? SB_CLASS_COUNT + rt->rung : (int)rt->base.cls;
}

/* Appends technique name's four counters c as one member of json's "counts" (sep before). */
static void json_counts(cli_buf *out, const char *sep, const char *name,
                        const sb_technique_counts *c)
{
    sb_buf_printf(out,
                  "%s\"%s\":{\"applications\":%llu,\"placements\":%llu,"
                  "\"eliminations\":%llu,\"calls\":%llu}",
                  sep, name, (unsigned long long)c->applications,
                  (unsigned long long)c->placements, (unsigned long long)c->eliminations,
                  (unsigned long long)c->calls);
}

/* Formats one record in the one layout of every geometry: csv [file,]line,status,class, the
 * eliminations of each registry technique, then the calls of each, then the eliminations of
 * each technique plug-in (empty unless rated), or json with the four counters of each
 * technique, plug-ins last; rt is NULL unless the puzzle was rated. */
static void rate_format(const rate_run *r, const cli_input *in, const sb_record *rec,
                        const char *status, const sb_ladder_rating *rt, cli_buf *out)
{
    size_t nt;
    const sb_technique_info *tech = sb_techniques(&nt);
    const unsigned long long line = (unsigned long long)rec->line;
    const size_t np = r->ropt.ntechniques;
    if (r->format == RATE_CSV) {
        if (in->with_file) {
            sb_buf_put(out, in->csv_name, in->csv_len);
            sb_buf_put(out, ",", 1);
        }
        sb_buf_printf(out, "%llu,%s,%s", line, status, rt ? class_name(r, ladder_class(rt)) : "");
        for (size_t i = 0; i < 2 * nt + np; i++)
            if (!rt)
                sb_buf_put(out, ",", 1);
            else if (i < 2 * nt)
                sb_buf_printf(out, ",%llu",
                              (unsigned long long)(i < nt ? rt->base.counts[i].eliminations
                                                          : rt->base.counts[i - nt].calls));
            else
                sb_buf_printf(out, ",%llu",
                              (unsigned long long)rt->plugins[i - 2 * nt].eliminations);
        sb_buf_put(out, "\n", 1);
        return;
    }
    sb_buf_printf(out, "{\"file\":%s,\"line\":%llu,\"status\":\"%s\"", in->json_name, line,
                  status);
    if (rec->kind == SB_LINE_INVALID) { /* as solve -f json: why and where */
        char why[6 * SB_WHY_LEN + 3];
        cli_json_escape(why, rec->why);
        sb_buf_printf(out, ",\"error\":%s,\"column\":%zu", why, rec->col);
    }
    if (rt) {
        sb_buf_printf(out, ",\"class\":\"%s\",\"counts\":{", class_name(r, ladder_class(rt)));
        for (size_t i = 0; i < nt; i++)
            json_counts(out, i ? "," : "", tech[i].name, &rt->base.counts[i]);
        for (size_t k = 0; k < np; k++)
            json_counts(out, ",", sb_plugin_name(r->ropt.techniques[k]), &rt->plugins[k]);
        sb_buf_put(out, "}", 1);
    }
    sb_buf_put(out, "}\n", 2);
}

/* Checks, rates and formats one record (cli_batch.record). */
static int rate_record(void *wp, const cli_input *in, const sb_record *rec,
                       const uint8_t *cells, const uint64_t *cand, cli_buf *out, cli_buf *err,
                       void *tp)
{
    rate_worker *w = wp;
    rate_tag *t = tp;
    sb_ladder_rating rt;
    int rated = 0;
    t->status = TAG_INVALID;
    t->cls = 0;
    if (rec->kind == SB_LINE_PUZZLE) {
        sb_gresult res;
        const int st = sb_rsolver_solve(w->rs, rec, cells, cand, &res);
        if (st == SB_ERR_STOPPED)
            return CLI_STOPPED;
        if (st != SB_OK) { /* the engine's one failure: memory */
            sb_buf_printf(err, CLI_NAME ": %s:%llu: out of memory\n", in->msg_name,
                          (unsigned long long)rec->line);
            return CLI_EXIT_USAGE;
        }
        t->status = (uint8_t)sb_count_verdict(res.count);
        /* A proper puzzle's cells are in range: only a plug-in can fail the rating, and its
         * eliminations are held to the one solution the verdict found. */
        const int rst = t->status == SB_SOLVED
                            ? sb_rsolver_rate(w->rs, cells, cand, sb_rsolver_solution(w->rs),
                                              &rt)
                            : SB_ERR_ARG;
        if (rst == SB_ERR_PLUGIN)
            return cli_technique_failed(w->rs, err, in, rec);
        if (rst == SB_OK) {
            t->cls = (uint8_t)ladder_class(&rt);
            rated = 1;
        }
    }
    const char *word = t->status == TAG_INVALID ? "invalid" : cli_verdict_name(t->status);
    rate_format(w->run, in, rec, word, rated ? &rt : NULL, out);
    return CLI_DONE;
}

/* Prints the class summary of file f to stderr. @return 0, or -1 after "out of memory"
 * (the summary is part of the command's promise: its absence must fail the run). */
static int summarize(const rate_run *r, int f)
{
    const file_tally *t = &r->total[f];
    const char *path = r->files ? r->files[f] : "-";
    char *name = cli_msg_dup(strcmp(path, "-") ? path : "<stdin>");
    if (!name) {
        fprintf(stderr, CLI_NAME ": out of memory writing the summary\n");
        return -1;
    }
    const unsigned long long proper = t->verdict[SB_SOLVED];
    fprintf(stderr, "rate: %s: %llu puzzles:", name,
            t->verdict[0] + t->verdict[1] + t->verdict[2]);
    int order[CLASS_SLOTS], n = 0; /* the ladder's order: the plug-ins' rungs before search */
    for (int c = 0; c < SB_CLASS_SEARCH; c++)
        order[n++] = c;
    for (size_t k = 0; k < r->ropt.ntechniques; k++)
        order[n++] = SB_CLASS_COUNT + (int)k;
    order[n++] = SB_CLASS_SEARCH;
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s %s %llu (%.1f%%)", i ? "," : "", class_name(r, order[i]),
                t->cls[order[i]],
                proper ? 100.0 * (double)t->cls[order[i]] / (double)proper : 0.0);
    fprintf(stderr, "; unsolvable %llu, multiple %llu, invalid lines %llu\n",
            t->verdict[SB_UNSOLVABLE], t->verdict[SB_MULTIPLE], t->invalid);
    free(name);
    return 0;
}

static int rate_run_on(rate_run *rp, cli_batch *bp, const sb_geometry *geo,
                       const char *geometry_file, int argc, char **argv);

/* Prints rate's --help, the ladder with a rung for each plug-in loaded so far. */
static void rate_usage(void)
{
    char tbuf[64], rungs[SB_TECH_PLUGINS * 80] = "";
    size_t at = 0;
    for (int i = 0; i < cli_plugin_count() && at < sizeof rungs; i++) {
        const char *name = sb_plugin_name(cli_plugin_at(i));
        at += (size_t)snprintf(rungs + at, sizeof rungs - at, "\n  < %s (+%s)", name, name);
    }
    printf(rate_help, rungs, cli_threads_default(tbuf, sizeof tbuf), SB_TECH_PLUGINS);
}

/* Checks the plug-in --plugin path just loaded as a rung of the ladder: a technique, named
 * unlike any class. @return 0, or CLI_EXIT_USAGE after a one-line message. */
static int rung_check(const char *path)
{
    const sb_plugin *p = cli_plugin_at(cli_plugin_count() - 1);
    const char *name = sb_plugin_name(p);
    if (!sb_plugin_is_technique(p))
        return cli_usage_error("rate", "--plugin '%s': '%s' is a solver plug-in; rate takes "
                               "technique plug-ins (a rung of the ladder is a technique step)",
                               path, name);
    for (int c = 0; c < SB_CLASS_COUNT; c++)
        if (!strcmp(name, sb_class_name(c)))
            return cli_usage_error("rate", "--plugin '%s': technique '%s' is named as a class "
                                   "of the ladder, so its rung would read as that class",
                                   path, name);
    return 0;
}

int cli_rate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, 0, 'f'},   {"simd", required_argument, 0, 'S'},
        {"threads", required_argument, 0, 't'},  {"progress", required_argument, 0, 'P'},
        {"help", no_argument, 0, 'h'},           CLI_OUTPUT_LONGOPT, CLI_GRID_LONGOPTS,
        {"resume", no_argument, 0, 'R'},         CLI_PLUGIN_LONGOPT, {0, 0, 0, 0}};
    rate_run r = {.format = RATE_CSV};
    sb_options_default(&r.opt);
    sb_options_default(&r.ropt);
    r.opt.stop = cli_stop_flag();
    cli_batch b = {.threads = cli_default_threads(), .progress = CLI_PROGRESS_AUTO,
                   .unit = "puzzles", .out = stdout, .ctx = &r, .tag_size = sizeof(rate_tag),
                   .worker_new = worker_new, .worker_end = worker_end, .record = rate_record,
                   .commit = commit, .marks = 1};
    int ch;
    cli_grid_opt gopt = {0};
    const cli_shared shared = {"rate", &b, &b.threads, &r.opt.simd, &gopt};
    b.resume = cli_resume_wanted(argc, argv); /* before -o opens FILE */
    while ((ch = cli_getopt(&shared, argc, argv, ":f:t:o:h", longopts)) != -1) {
        switch (ch) {
        case 'f':
            if (!strcmp(optarg, "csv"))
                r.format = RATE_CSV;
            else if (!strcmp(optarg, "json"))
                r.format = RATE_JSON;
            else
                return cli_usage_error("rate", "unknown format '%s' (csv, json)", optarg);
            break;
        case 'h': rate_usage(); return CLI_EXIT_OK;
        case CLI_OPT_PLUGIN:
            if (cli_plugin_load("rate", optarg) || rung_check(optarg))
                return CLI_EXIT_USAGE;
            break;
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    cli_plugin_techniques(&r.ropt);
    sb_geometry *geo;
    if (cli_grid_pick("rate", &gopt, argv + optind, argc - optind, 0, &geo))
        return CLI_EXIT_USAGE;
    if (cli_plugin_techniques_ready("rate", &r.ropt, geo, &b.threads)) {
        sb_geometry_free(geo);
        return CLI_EXIT_USAGE;
    }
    const int rc = rate_run_on(&r, &b, geo, gopt.file, argc, argv);
    sb_geometry_free(geo);
    return rc;
}

/* Runs rate over the inputs (argv from optind) on geometry geo once the options
 * are read; geometry_file: --geometry FILE, an input too (or NULL). @return the exit code. */
static int rate_run_on(rate_run *rp, cli_batch *bp, const sb_geometry *geo,
                       const char *geometry_file, int argc, char **argv)
{
    rate_run r = *rp;
    cli_batch b = *bp;
    b.ctx = &r;
    r.g = geo;
    if (cli_batch_ready("rate", &b, geo, &r.opt, argv + optind, argc - optind, geometry_file))
        return CLI_EXIT_USAGE;
    r.nfiles = argc - optind > 0 ? argc - optind : 1;
    r.files = argc - optind > 0 ? argv + optind : NULL;
    r.total = calloc((size_t)r.nfiles, sizeof *r.total);
    r.opened = calloc((size_t)r.nfiles, 1);
    b.opened = r.opened;
    if (!r.total || !r.opened) {
        free(r.total);
        free(r.opened);
        return cli_oom();
    }
    int has_header = 0;
    uint64_t skipped_invalid = 0;
    b.skipped_invalid = &skipped_invalid;
    if (b.resume) { /* resume.c: continue FILE after its last whole record */
        const int st = cli_resume_begin("rate", &b, argc, argv, argv + optind, argc - optind,
                                        r.format == RATE_CSV, &has_header);
        if (st) {
            free(r.total);
            free(r.opened);
            return st < 0 ? -1 - st : st;
        }
    }
    if (r.format == RATE_CSV && !has_header) { /* the records' columns (rate_format) */
        size_t nt;
        const sb_technique_info *t = sb_techniques(&nt);
        fputs(argc - optind > 1 ? "file,line,status,class" : "line,status,class", stdout);
        for (size_t i = 0; i < nt; i++)
            printf(",%s", t[i].name);
        for (size_t i = 0; i < nt; i++)
            printf(",%s_calls", t[i].name);
        for (size_t k = 0; k < r.ropt.ntechniques; k++)
            printf(",%s", sb_plugin_name(r.ropt.techniques[k]));
        putchar('\n');
    }
    int rc = cli_batch_records(&b, argv + optind, argc - optind);
    unsigned long long invalid = 0;
    for (int f = 0; f < r.nfiles; f++) {
        /* an input that could not be read has nothing to sum up */
        if (r.opened[f] && summarize(&r, f) != 0)
            rc = CLI_EXIT_USAGE;
        invalid += r.total[f].invalid;
    }
    free(r.total);
    free(r.opened);
    if (!rc && (invalid || skipped_invalid))
        rc = CLI_EXIT_INVALID;
    return cli_resume_end(&b, rc);
}
