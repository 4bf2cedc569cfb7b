/*
 * solve.c — the `solve` and `validate` commands over the batch engine (batch.c): records in
 * input order whatever the thread count, one solver context per thread. Each record leaves
 * a tag (its status and guesses) that the engine commits once the record is written, so the
 * summaries count exactly the records written, interrupted or not.
 *
 * One path for every geometry: records come from sb_reader on the run's geometry and are
 * solved by its engine (9x9 a chunk at a time, sb_engine_solve_many). --all streams every
 * solution as it is found, straight to the output, one puzzle at a time (a puzzle may have
 * millions of solutions; a window of them would not fit in memory).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

#include "cli.h"

/* What a run counted over the records written. */
typedef struct tally {
    unsigned long long n[3];    /* puzzles per sb_verdict */
    unsigned long long invalid; /* invalid lines */
    unsigned long long guesses; /* total guesses */
    unsigned long long errors;  /* puzzles the solver could not finish (BFS cap, memory) */
    unsigned long long budget;  /* puzzles whose search ran out of --max-guesses */
} tally;

/* Kinds of a record's tag beyond the three sb_verdict values. */
enum { TAG_INVALID = 3, TAG_ERROR = 4, TAG_BUDGET = 5 };

/* What one record leaves for the tally (cli_batch.tag_size bytes). */
typedef struct tag {
    uint64_t guesses; /* its guesses */
    uint8_t kind;     /* an sb_verdict or TAG_* */
} tag;

/* One solve or validate run: options shared read-only by the workers, totals after. */
typedef struct run {
    const sb_geometry *g; /* the geometry */
    sb_options opt;   /* every worker's solver options */
    cli_format format; /* solve: record format */
    tally total;      /* the committed tags, summed */
    cli_checkpoint *cp; /* validate --resume: where the totals are checkpointed, else NULL */
} run;

enum { TALLY_COUNTS = 7 }; /* the fields of a tally, in the order of tally_counts */

/* Copies t's fields to c (to_counts) or back (a checkpoint, resume.c). @return the records
 * the tally covers: every record leaves exactly one kind. */
static uint64_t tally_counts(tally *t, uint64_t *c, int to_counts)
{
    unsigned long long *const f[TALLY_COUNTS] = {&t->n[0],  &t->n[1],  &t->n[2], &t->invalid,
                                                 &t->guesses, &t->errors, &t->budget};
    for (int i = 0; i < TALLY_COUNTS; i++) {
        if (to_counts)
            c[i] = *f[i];
        else
            *f[i] = c[i];
    }
    return t->n[0] + t->n[1] + t->n[2] + t->invalid + t->errors + t->budget;
}

/* One thread's worker: the record solver (src/app/) of the run's geometry (which solves a
 * chunk's 9x9 puzzles together: sb_solve_many is faster than one sb_solve per puzzle). */
typedef struct worker {
    sb_rsolver *rs;           /* this thread's record solver */
    const sb_geometry *g;     /* copy of run.g */
    int nine;                 /* g is the 9x9 grid: its records' own formatter */
    cli_format format;        /* copy of run.format, read on every record */
    const sb_options *opt;    /* run.opt (its plug-in names a failure) */
} worker;

static const char solve_help[] =
    "Usage: " CLI_NAME " solve [OPTIONS] [FILE...|-]\n"
    "Solve (count) every puzzle of the inputs (stdin when none) and write one record per\n"
    "input puzzle, invalid lines included, in input order (the same bytes for any -t).\n\n"
    "  -s, --pipeline NAME  propagation pipeline, a name or a custom spec ORDER:T1,T2,...\n"
    "                       (orders list, array, restart; techniques ns hs lc nt2 nt3 nt4\n"
    "                       ht2 ht3 ht4 xw sf jf xy xyz ww sky kite col xc, nt, ht; see\n"
    "                       docs/strategies.md), or fast+T1,T2,... (9x9: the fused kernel\n"
    "                       with those T on its own board), or a --plugin's name (default\n"
    "                       %s):%s\n"
    "      --plugin FILE    load a plug-in (a shared object: docs/plugins.md; repeatable): a\n"
    "                       solver, -s NAME solves with it, every answer checked as a\n"
    "                       built-in's; a technique, NAME is a technique of -s (fast+NAME,\n"
    "                       restart:ns,hs,lc,NAME)\n"
    "      --search MODE    dfs or bfs (default dfs)\n"
    "      --bfs-cap N      most boards the BFS frontier may hold (default %d)\n"
    "  -l, --limit N        stop counting at N solutions: 1 first, 2 uniqueness, 0 all\n"
    "                       (default %llu)\n"
    "  -t, --threads N      worker threads (%s)\n"
    "  -o, --output FILE    write standard output to FILE (records in order, as -t any)\n"
    "      --resume         with -o FILE: continue an interrupted run after FILE's last whole\n"
    "                       record (FILE.resume says which run made it: one started with\n"
    "                       --resume too, the same arguments but -t, --simd and --progress,\n"
    "                       and the same inputs); a finished FILE is left as it is\n"
    "  -f, --format FMT     solution, tdoku, csv, json, pretty (default %s)\n"
    "      --grid SPEC      geometry: RxC (4x4, 5x5, ...), latin:N, cube:K, x:RxC (default:\n"
    "                       from the first puzzle line's cell count, 81 = 9x9; docs/geometry.md);\n"
    "                       -s works there too (fast: the general solver; lc is skipped where\n"
    "                       no two houses meet in 2+ cells, as on latin:N)\n"
    "      --geometry FILE  geometry from a file (jigsaw N / houses CELLS N)\n"
    "      --all            write each puzzle's solutions as they are found, then its count\n"
    "                       record (-l caps them, default no cap; one thread; 9x9 through\n"
    "                       the general solver, whose counts and order are solve's)\n"
    "      --simd LEVEL     auto, scalar, sse4, avx2, avx512bw, avx512, neon (default auto:\n"
    "                       $SUDOKUBENCH_SIMD, else the best this CPU supports); on 16-digit\n"
    "                       boxed grids it picks the kernel, scalar the per-cell engine\n"
    "      --progress WHEN  progress line on stderr: auto (when stderr is a terminal),\n"
    "                       always, never (default auto)\n"
    "      --max-guesses N  guess budget per puzzle: a search that needs more stops and its\n"
    "                       record says 'budget' (default no budget)\n"
    "      --stats          print a summary line to stderr at the end\n"
    "  -h, --help           show this help\n\n"
    "With several FILEs, csv records start with a file column.\n"
    "SIGINT/SIGTERM stop the run with every finished record written (exit 130).\n"
    "Exit: 0 every line was a puzzle, 1 some lines were invalid, 2 usage or I/O error,\n"
    "130 interrupted.\n";

/* Writes the pipeline list of the help text into buf: the registry's rows, then the fast+T
 * form with the techniques its parser accepts (asked of it, so the list follows the
 * library). */
static void print_pipelines(char *buf, size_t len)
{
    size_t n, nt, used = 0;
    const sb_pipeline_info *p = sb_pipelines(&n);
    const sb_technique_info *t = sb_techniques(&nt);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "\n                         %-8s %s",
                                 p[i].name, p[i].description);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "\n                         %-8s %s",
                                 "fast+T", "fast, then T when its propagation stalls, before a "
                                 "guess (9x9); T:");
    for (size_t i = 0; i < nt && used < len; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "fast+%s", t[i].name);
        if (sb_pipeline_check(spec) == SB_OK)
            used += (size_t)snprintf(buf + used, len - used, " %s", t[i].name);
    }
}

/* Reports status st of a plug-in's solve of rec (SB_ERR_PLUGIN: a broken answer; SB_ERR_ARG:
 * pencilmarks, which plug-ins do not take) to err. @return CLI_EXIT_USAGE: the run stops,
 * as bench does for a wrong answer. */
static int plugin_failed(const sb_options *opt, sb_buf *err, const cli_input *in,
                         const sb_record *rec, int st)
{
    sb_buf_printf(err, CLI_NAME ": %s:%llu: plug-in '%s' %s\n", in->msg_name,
                  (unsigned long long)rec->line, sb_plugin_name(opt->plugin),
                  st == SB_ERR_ARG ? "takes givens, not pencilmarks"
                                   : "broke its contract (a solution that breaks the rules or "
                                     "the givens, a count above the limit, guesses beyond the "
                                     "budget or a code it may not return)");
    return CLI_EXIT_USAGE;
}

/* Creates a worker with its own solver (cli_batch.worker_new). */
static int worker_new(void *ctx, void **out)
{
    const run *r = ctx;
    worker *w = cli_alloc_lines(sizeof *w);
    if (!w)
        return cli_oom();
    *out = w;
    w->g = r->g;
    w->nine = r->g == sb_geometry_9x9();
    w->format = r->format;
    w->opt = &r->opt;
    const int st = sb_rsolver_new(r->g, &r->opt, NULL, &w->rs);
    if (st != SB_OK)
        return cli_solver_error(r->format == FMT_COUNT ? "validate" : "solve", st, r->opt.simd);
    return 0;
}

/* Frees a worker (cli_batch.worker_end). */
static void worker_end(void *ctx, void *wp)
{
    (void)ctx;
    worker *w = wp;
    if (w)
        sb_rsolver_free(w->rs);
    free(w);
}

/* Solves the puzzles among a chunk's records together (cli_batch.chunk); their results wait
 * for the record handler. */
static void solve_chunk(void *wp, const sb_record *recs, const uint8_t *cells, size_t n)
{
    sb_rsolver_ahead(((worker *)wp)->rs, recs, cells, n);
}

/* Appends the record of rec's result res with status (cli_format_record on 9x9; on another
 * geometry its cells and the engine's first solution). */
static inline void put_result(const worker *w, cli_buf *out, const cli_input *in,
                              const sb_record *rec, const uint8_t *cells, const uint64_t *cand,
                              const sb_gresult *res, int status)
{
    if (w->nine) {
        cli_format_record(out, w->format, in, rec, cells, cand, res, sb_rsolver_solution(w->rs),
                          status);
        return;
    }
    const cli_grids v = {.g = w->g, .form = rec->form, .puzzle = cells,
                         .solution = sb_rsolver_solution(w->rs)};
    cli_format_grids(out, w->format, in, rec, &v, res->count, res->guesses, status, 0);
}

/* Adds the tags of written records to the run's tally (cli_batch.commit). */
static void commit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    run *r = ctx;
    const tag *t = (const tag *)tags;
    (void)input;
    for (size_t i = 0; i < n; i++) {
        switch (t[i].kind) {
        case TAG_INVALID: r->total.invalid++; break;
        case TAG_ERROR: r->total.errors++; break;
        case TAG_BUDGET: r->total.budget++; break;
        default: r->total.n[t[i].kind]++; break;
        }
        r->total.guesses += t[i].guesses;
    }
    if (r->cp) { /* validate --resume: the totals over the records written so far */
        uint64_t c[TALLY_COUNTS];
        const uint64_t records = tally_counts(&r->total, c, 1);
        cli_resume_checkpoint(r->cp, records, c, TALLY_COUNTS, 0);
    }
}

/* Solves one record and formats it (cli_batch.record of solve). */
static int solve_record(void *wp, const cli_input *in, const sb_record *rec,
                        const uint8_t *cells, const uint64_t *cand, cli_buf *out, cli_buf *err,
                        void *tp)
{
    worker *w = wp;
    tag *t = tp;
    t->guesses = 0;
    if (rec->kind == SB_LINE_INVALID) {
        t->kind = TAG_INVALID;
        cli_format_record(out, w->format, in, rec, cells, NULL, NULL, NULL, 0);
        return CLI_DONE;
    }
    sb_gresult res;
    const int st = sb_rsolver_solve(w->rs, rec, cells, cand, &res);
    if (st == SB_ERR_STOPPED)
        return CLI_STOPPED;
    t->guesses = res.guesses;
    if (st == SB_ERR_BUDGET) {
        t->kind = TAG_BUDGET;
        put_result(w, out, in, rec, cells, cand, &res, CLI_STATUS_BUDGET);
        return CLI_DONE;
    }
    if ((st == SB_ERR_PLUGIN || st == SB_ERR_ARG) && w->opt->plugin)
        return plugin_failed(w->opt, err, in, rec, st);
    if (st == SB_ERR_PLUGIN)
        return cli_technique_failed(w->rs, err, in, rec);
    if (st != SB_OK && !w->nine) { /* the engine's one failure: memory */
        sb_buf_printf(err, CLI_NAME ": %s:%llu: out of memory\n", in->msg_name,
                      (unsigned long long)rec->line);
        return CLI_EXIT_USAGE;
    }
    if (st != SB_OK) {
        /* No honest count exists: the record carries the reason instead of a verdict. A
         * frontier over its cap wants a larger cap; memory running out, a smaller one. */
        sb_record failed = *rec;
        failed.kind = SB_LINE_INVALID;
        failed.col = 0;
        snprintf(failed.why, sizeof failed.why, "%s (%s --bfs-cap)", sb_strerror(st),
                 st == SB_ERR_FRONTIER ? "raise" : "lower");
        sb_buf_printf(err, CLI_NAME ": %s:%llu: %s\n", in->msg_name,
                      (unsigned long long)rec->line, failed.why);
        t->kind = TAG_ERROR;
        cli_format_record(out, w->format, in, &failed, cells, NULL, NULL, NULL, 0);
        return CLI_DONE;
    }
    t->kind = (uint8_t)sb_count_verdict(res.count);
    put_result(w, out, in, rec, cells, cand, &res, t->kind);
    return CLI_DONE;
}

/* --all holds solution records back at most this long (seconds) once a later one is found,
 * so a fast listing is written in large blocks and a slow one line by line as found. */
#define ALL_HOLD 0.05

enum { ALL_FLUSH = 1 << 16 /* --all writes its buffer out past this many bytes */ };

/* One --all run's output and the puzzle being listed. Records go out through the batch
 * engine's writer (cli_sink_write), whole records at a time: a full disk or a file size limit
 * cuts the file back to whole records with one message naming the output. */
typedef struct all_ctx {
    cli_grids v;          /* the puzzle being listed (its solution: the one just found); first:
                             its geometry is what the reader's open takes (input.c) */
    const cli_batch *b;   /* the run: output and its name, the tally's commit */
    const worker *w;      /* the one worker: its engine and limit */
    sb_stream_sink sink;  /* records not written yet, their stderr text and tags */
    double last;          /* when the sink was last written out (cli_now_seconds) */
    int failed;           /* a write failed (reported once): the run ends with exit 2 */
    cli_format f;         /* record format */
    const cli_input *in;  /* the input */
    uint64_t line;        /* its line */
    uint8_t *first;       /* its first solution, for the count record */
} all_ctx;

/* Writes the sink out (stderr text, records, tags to the tally) and empties it.
 * @return 0, or -1 once a write has failed (reported the first time only). */
static int all_write(all_ctx *a)
{
    if (!a->failed && cli_sink_write(a->b, &a->sink) != 0)
        a->failed = 1;
    sb_stream_sink_clear(&a->sink);
    a->last = cli_now_seconds();
    return a->failed ? -1 : 0;
}

/* sb_engine_each callback of --all: one solution record, written out with those held back
 * when the buffer is full or the last write is ALL_HOLD old. @return non-zero to stop (a
 * write failed, or Ctrl-C). */
static int all_one(const uint8_t *sol, uint64_t index, void *user)
{
    all_ctx *a = user;
    if (index == 0)
        memcpy(a->first, sol, (size_t)sb_geometry_cells(a->v.g));
    a->v.solution = sol;
    cli_format_solution(&a->sink.out, a->f, a->in, a->line, &a->v, index + 1);
    if (a->sink.out.len > ALL_FLUSH || cli_now_seconds() - a->last >= ALL_HOLD)
        all_write(a);
    return a->failed || cli_stop_requested();
}

/* cli_record_fn of --all over the input a->in (cli_read_stream reports an invalid line):
 * for a puzzle its solutions in DFS order, written as they are found, then its count record
 * (the count is known only at the end). @return 0 (also when Ctrl-C cut the listing: the
 * solutions so far stand, the puzzle gets no count, the reading ends on the flag), or
 * CLI_EXIT_USAGE after a failed write or out of memory (reported). */
static int all_record(void *ctx, const char *name, const sb_record *rec, const uint8_t *cells)
{
    (void)name; /* a->in names the input in every form */
    all_ctx *a = ctx;
    tag t = {.kind = TAG_INVALID};
    if (rec->kind == SB_LINE_INVALID) {
        cli_format_grids(&a->sink.out, a->f, a->in, rec, NULL, 0, 0, 0, 0);
    } else {
        sb_gresult res;
        a->v.form = rec->form;
        a->v.puzzle = cells;
        a->line = rec->line;
        const int sst = sb_rsolver_each(a->w->rs, cells, all_one, a, &res);
        if (a->failed)
            return CLI_EXIT_USAGE;
        if (sst == SB_ERR_STOPPED)
            return 0;
        if (sst != SB_OK && sst != SB_ERR_BUDGET) {
            all_write(a);
            fprintf(stderr, CLI_NAME ": %s:%llu: %s\n", a->in->msg_name,
                    (unsigned long long)rec->line, sb_strerror(sst));
            return CLI_EXIT_USAGE;
        }
        const int status =
            sst == SB_ERR_BUDGET ? CLI_STATUS_BUDGET : (int)sb_count_verdict(res.count);
        t.kind = status == CLI_STATUS_BUDGET ? TAG_BUDGET : (uint8_t)status;
        t.guesses = res.guesses;
        a->v.solution = a->first;
        cli_format_grids(&a->sink.out, a->f, a->in, rec, &a->v, res.count, res.guesses, status,
                         1);
    }
    sb_buf_put(&a->sink.tags, &t, sizeof t);
    a->sink.n++;
    return all_write(a) != 0 ? CLI_EXIT_USAGE : 0;
}

/* solve --all: the inputs in order on one thread, streaming through b (the run's batch with
 * the tally's commit and the geometry). @return the run's status (0, CLI_EXIT_USAGE,
 * CLI_EXIT_INTERRUPTED). */
static int all_run(const cli_batch *b, char *const *files, int nfiles)
{
    const run *ru = b->ctx;
    cli_inputs(&files, &nfiles);
    void *wp = NULL;
    sb_record r;
    uint8_t *cells = malloc((size_t)sb_geometry_cells(ru->g));
    uint8_t *first = malloc((size_t)sb_geometry_cells(ru->g));
    /* made: non-zero when the worker could not be made (its message given): nothing runs */
    const int made = cells && first ? worker_new(b->ctx, &wp) : cli_oom();
    int rc = made;
    all_ctx a = {.v = {.g = ru->g}, .b = b, .w = wp, .f = ru->format, .last = cli_now_seconds(),
                 .first = first};
    cli_stop_state stop;
    cli_stop_begin(&stop);
    for (int i = 0; !rc || rc == CLI_EXIT_USAGE; i++) {
        if (i == nfiles || made || a.failed)
            break;
        cli_input in;
        if (cli_input_init(&in, files[i]) != 0) {
            rc = cli_oom();
            break;
        }
        in.with_file = nfiles > 1;
        FILE *f = NULL;
        fflush(b->out); /* a message that it cannot be read comes after the records before */
        if (cli_input_open(files[i], in.msg_name, &f) != 0) {
            rc = CLI_EXIT_USAGE;
        } else {
            a.in = &in;
            int st = cli_read_stream(ru->g, f, in.msg_name, &r, cells, all_record, &a);
            if (st == CLI_EXIT_INTERRUPTED && all_write(&a) != 0) /* what the cut puzzle listed */
                st = CLI_EXIT_USAGE;
            else if (st == CLI_EXIT_INTERRUPTED)
                fprintf(stderr, CLI_NAME ": interrupted (%s:%llu)\n", in.msg_name,
                        (unsigned long long)r.line);
            if (st)
                rc = st;
            if (f != stdin)
                fclose(f);
        }
        cli_input_free(&in);
    }
    cli_stop_end(&stop);
    sb_stream_sink_free(&a.sink);
    worker_end(b->ctx, wp);
    free(cells);
    free(first);
    return rc;
}

static int solve_run(run *rp, cli_batch *bp, const sb_geometry *geo, const cli_grid_opt *gopt,
                     int stats, int argc, char **argv);

int cli_solve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"pipeline", required_argument, 0, 's'}, {"limit", required_argument, 0, 'l'},
        {"threads", required_argument, 0, 't'},  {"format", required_argument, 0, 'f'},
        {"simd", required_argument, 0, 'S'},     {"stats", no_argument, 0, 'T'},
        {"progress", required_argument, 0, 'P'}, {"help", no_argument, 0, 'h'},
        CLI_OUTPUT_LONGOPT, {"resume", no_argument, 0, 'R'},
        {"search", required_argument, 0, 'B'},   {"bfs-cap", required_argument, 0, 'C'},
        {"max-guesses", required_argument, 0, 'G'}, CLI_GRID_LONGOPTS,
        {"all", no_argument, 0, CLI_OPT_ALL},    CLI_PLUGIN_LONGOPT, {0, 0, 0, 0}};
    run r = {.format = FMT_SOLUTION};
    const char *pipeline = NULL; /* -s: a plug-in's name or a pipeline, once all are loaded */
    unsigned long long cap, budget;
    sb_options_default(&r.opt);
    r.opt.stop = cli_stop_flag();
    cli_batch b = {.threads = cli_default_threads(), .progress = CLI_PROGRESS_AUTO,
                   .unit = "puzzles", .out = stdout, .ctx = &r, .tag_size = sizeof(tag),
                   .worker_new = worker_new, .worker_end = worker_end, .chunk = solve_chunk,
                   .record = solve_record, .commit = commit, .marks = 1};
    int stats = 0, ch;
    cli_grid_opt gopt = {0};
    const cli_shared shared = {"solve", &b, &b.threads, &r.opt.simd, &gopt};
    char plist[1024];
    size_t np;
    b.resume = cli_resume_wanted(argc, argv); /* before -o opens FILE */
    while ((ch = cli_getopt(&shared, argc, argv, ":s:l:t:f:o:h", longopts)) != -1) {
        switch (ch) {
        case 's': pipeline = optarg; break;
        case CLI_OPT_PLUGIN:
            if (cli_plugin_load("solve", optarg))
                return CLI_EXIT_USAGE;
            break;
        case 'G':
            if (cli_parse_whole("solve", "--max-guesses", optarg, &budget))
                return CLI_EXIT_USAGE;
            r.opt.max_guesses = budget;
            break;
        case 'B':
            if (strcmp(optarg, "dfs") && strcmp(optarg, "bfs"))
                return cli_usage_error("solve", "unknown search '%s' (dfs, bfs)", optarg);
            r.opt.search = strcmp(optarg, "dfs") ? SB_SEARCH_BFS : SB_SEARCH_DFS;
            break;
        case 'C':
            if (!cli_parse_u64(optarg, &cap) || cap < 1 || cap > ((size_t)1 << 32))
                return cli_usage_error("solve", "bad --bfs-cap '%s' (1..2^32)", optarg);
            r.opt.bfs_cap = (size_t)cap;
            break;
        case 'l':
            if (cli_parse_limit("solve", optarg, &r.opt.limit))
                return CLI_EXIT_USAGE;
            gopt.limit_given = 1;
            break;
        case 'f':
            r.format = cli_format_find(optarg);
            if (r.format == FMT_COUNT)
                return cli_usage_error("solve", "unknown format '%s'", optarg);
            break;
        case 'T': stats = 1; break;
        case 'h': {
            sb_options d;
            char tbuf[64];
            sb_options_default(&d);
            print_pipelines(plist, sizeof plist);
            printf(solve_help, sb_pipelines(&np)[d.pipeline].name, plist, (int)d.bfs_cap,
                   (unsigned long long)d.limit, cli_threads_default(tbuf, sizeof tbuf),
                   cli_format_name(FMT_SOLUTION));
            return CLI_EXIT_OK;
        }
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    cli_plugin_techniques(&r.opt);
    if (pipeline && !(r.opt.plugin = cli_plugin_find(pipeline)) &&
        cli_parse_pipeline("solve", pipeline, &r.opt))
        return CLI_EXIT_USAGE;
    sb_geometry *geo;
    if (cli_grid_pick("solve", &gopt, argv + optind, argc - optind, gopt.all, &geo))
        return CLI_EXIT_USAGE;
    if (cli_plugin_techniques_ready("solve", &r.opt, geo, &b.threads)) {
        sb_geometry_free(geo);
        return CLI_EXIT_USAGE;
    }
    if (r.opt.plugin) {
        const int bad = gopt.all || r.opt.search != SB_SEARCH_DFS
                            ? cli_usage_error("solve", "plug-in '%s': not with --all or --search "
                                              "bfs (a plug-in counts depth-first, it lists "
                                              "nothing)", sb_plugin_name(r.opt.plugin))
                            : cli_plugin_check("solve", r.opt.plugin, geo);
        if (bad) {
            sb_geometry_free(geo);
            return CLI_EXIT_USAGE;
        }
        cli_plugin_threads("solve", r.opt.plugin, &b.threads);
    }
    if (gopt.all && b.resume) { /* resume.c counts records: --all writes many per puzzle */
        sb_geometry_free(geo);
        return cli_usage_error("solve", "--resume: not with --all (FILE's lines are solutions, "
                                        "not one record per puzzle)");
    }
    const int rc = solve_run(&r, &b, geo, &gopt, stats, argc, argv);
    sb_geometry_free(geo);
    return rc;
}

/* Runs solve over the inputs (argv from optind) once the options are read: on geometry geo,
 * --all when gopt says so. @return the exit code. */
static int solve_run(run *rp, cli_batch *bp, const sb_geometry *geo, const cli_grid_opt *gopt,
                     int stats, int argc, char **argv)
{
    run r = *rp;
    cli_batch b = *bp;
    b.ctx = &r;
    if (gopt->all && !gopt->limit_given)
        r.opt.limit = 0; /* --all alone lists every solution */
    r.g = geo;
    if (cli_batch_ready("solve", &b, geo, &r.opt, argv + optind, argc - optind, gopt->file))
        return CLI_EXIT_USAGE;
    int has_header = 0;
    uint64_t skipped_invalid = 0;
    b.skipped_invalid = &skipped_invalid;
    if (b.resume) { /* resume.c: continue FILE after its last whole record */
        if (r.format == FMT_PRETTY)
            return cli_usage_error("solve", "--resume needs one line per record, not -f pretty");
        const int st = cli_resume_begin("solve", &b, argc, argv, argv + optind, argc - optind,
                                        r.format == FMT_CSV, &has_header);
        if (st)
            return st < 0 ? -1 - st : st;
    }
    const double t0 = cli_now_seconds();
    if (!has_header)
        cli_write_header(stdout, r.format, argc - optind > 1);
    const int rc = gopt->all ? all_run(&b, argv + optind, argc - optind)
                             : cli_batch_records(&b, argv + optind, argc - optind);
    const double secs = cli_now_seconds() - t0;
    if (stats) {
        const tally *t = &r.total;
        const unsigned long long total = t->n[0] + t->n[1] + t->n[2] + t->budget;
        char budget_text[48] = "";
        if (r.opt.max_guesses != UINT64_MAX)
            snprintf(budget_text, sizeof budget_text, ", %llu over budget", t->budget);
        fprintf(stderr,
                "stats: %llu puzzles (%llu solved, %llu unsolvable, %llu multiple%s), "
                "%llu invalid lines, %llu guesses, %.3f s, %.0f puzzles/s\n",
                total, t->n[SB_SOLVED], t->n[SB_UNSOLVABLE], t->n[SB_MULTIPLE], budget_text,
                t->invalid, t->guesses, secs, secs > 0 ? (double)total / secs : 0.0);
    }
    int final = rc;
    if (!final && r.total.errors)
        final = CLI_EXIT_USAGE;
    else if (!final && (r.total.invalid || skipped_invalid))
        final = CLI_EXIT_INVALID;
    return cli_resume_end(&b, final);
}

static const char validate_help[] =
    "Usage: " CLI_NAME " validate [OPTIONS] [FILE...|-]\n"
    "Check that every puzzle of the inputs (stdin when none) is proper: well-formed, no\n"
    "conflicting givens, exactly one solution. Problems go to stderr as FILE:LINE, in input\n"
    "order, a summary line to stdout.\n\n"
    "  -t, --threads N      worker threads (%s)\n"
    "  -o, --output FILE    write standard output (the summary line) to FILE\n"
    "      --resume         with -o FILE: continue an interrupted run from the counts of its\n"
    "                       last checkpoint in FILE.resume (written every second and at the\n"
    "                       end; $SUDOKUBENCH_CHECKPOINT_MS); FILE's summary and the exit code\n"
    "                       cover the whole input (the run: started with --resume too, the\n"
    "                       same arguments but -t, --simd and --progress); a finished FILE is\n"
    "                       left as it is\n"
    "      --simd LEVEL     auto, scalar, sse4, avx2, avx512bw, avx512, neon (default auto)\n"
    "      --progress WHEN  progress line on stderr: auto, always, never (default auto)\n"
    "      --grid SPEC      geometry (RxC, latin:N, cube:K, x:RxC; default from the cell count)\n"
    "      --geometry FILE  geometry from a file\n"
    "      --plugin FILE    count with a solver plug-in (docs/plugins.md) instead of the fast\n"
    "                       pipeline, its solutions checked against the givens and rules; or\n"
    "                       with fast+NAME for a technique plug-in (restart:ns,hs,lc,NAME on\n"
    "                       other geometries)\n"
    "  -h, --help           show this help\n\n"
    "A resumed run reports on stderr only the problems of the records after the checkpoint.\n"
    "Exit: 0 every puzzle is proper, 1 otherwise, 2 usage or I/O error, 130 interrupted.\n";

/* Diagnoses one record that is not a proper puzzle (cli_batch.record of validate). */
static int validate_record(void *wp, const cli_input *in, const sb_record *rec,
                           const uint8_t *cells, const uint64_t *cand, cli_buf *out,
                           cli_buf *err, void *tp)
{
    (void)out;
    worker *w = wp;
    tag *t = tp;
    const unsigned long long line = (unsigned long long)rec->line;
    t->guesses = 0;
    if (rec->kind == SB_LINE_INVALID) {
        t->kind = TAG_INVALID;
        return CLI_DONE;
    }
    int a, b;
    /* the other geometries' reader refuses clashes */
    if (w->nine && sb_grid_conflict((const sb_grid *)(const void *)cells, &a, &b)) {
        sb_buf_printf(err, CLI_NAME ": %s:%llu: conflicting givens: r%dc%d and r%dc%d are both %d\n",
                      in->msg_name, line, a / 9 + 1, a % 9 + 1, b / 9 + 1, b % 9 + 1, cells[a]);
        t->kind = SB_UNSOLVABLE;
        return CLI_DONE;
    }
    sb_gresult res;
    const int st = sb_rsolver_solve(w->rs, rec, cells, cand, &res);
    if (st == SB_ERR_STOPPED)
        return CLI_STOPPED;
    if ((st == SB_ERR_PLUGIN || st == SB_ERR_ARG) && w->opt->plugin)
        return plugin_failed(w->opt, err, in, rec, st);
    if (st == SB_ERR_PLUGIN)
        return cli_technique_failed(w->rs, err, in, rec);
    if (st != SB_OK && !w->nine) {
        sb_buf_printf(err, CLI_NAME ": %s:%llu: out of memory\n", in->msg_name, line);
        return CLI_EXIT_USAGE;
    }
    const sb_verdict v = sb_count_verdict(res.count);
    t->kind = (uint8_t)v;
    if (v == SB_UNSOLVABLE)
        sb_buf_printf(err, CLI_NAME ": %s:%llu: no solution\n", in->msg_name, line);
    else if (v == SB_MULTIPLE)
        sb_buf_printf(err, CLI_NAME ": %s:%llu: multiple solutions\n", in->msg_name, line);
    return CLI_DONE;
}

int cli_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"simd", required_argument, 0, 'S'},     {"threads", required_argument, 0, 't'},
        {"progress", required_argument, 0, 'P'}, {"help", no_argument, 0, 'h'},
        CLI_OUTPUT_LONGOPT,                      {"resume", no_argument, 0, 'R'},
        CLI_GRID_LONGOPTS,                       CLI_PLUGIN_LONGOPT, {0, 0, 0, 0}};
    cli_grid_opt gopt = {0};
    cli_checkpoint cp = {0};
    run r = {.format = FMT_COUNT}; /* no records: FMT_COUNT also names the command */
    sb_options_default(&r.opt);
    r.opt.limit = 2; /* proper = exactly one solution: counting to two decides it */
    r.opt.stop = cli_stop_flag();
    cli_batch b = {.threads = cli_default_threads(), .progress = CLI_PROGRESS_AUTO,
                   .unit = "puzzles", .out = stdout, .ctx = &r, .tag_size = sizeof(tag),
                   .worker_new = worker_new, .worker_end = worker_end, .chunk = solve_chunk,
                   .record = validate_record, .commit = commit, .marks = 1};
    const cli_shared shared = {"validate", &b, &b.threads, &r.opt.simd, &gopt};
    int ch;
    b.resume = cli_resume_wanted(argc, argv); /* before -o opens FILE */
    while ((ch = cli_getopt(&shared, argc, argv, ":t:o:h", longopts)) != -1) {
        switch (ch) {
        case 'h': {
            char tbuf[64];
            printf(validate_help, cli_threads_default(tbuf, sizeof tbuf));
            return CLI_EXIT_OK;
        }
        case CLI_OPT_PLUGIN:
            if (cli_plugin_count() == 1)
                return cli_usage_error("validate", "one --plugin: validate counts with one "
                                                   "solver");
            if (cli_plugin_load("validate", optarg))
                return CLI_EXIT_USAGE;
            r.opt.plugin = cli_plugin_at(0);
            if (sb_plugin_is_technique(r.opt.plugin)) /* counted by fast with it */
                r.opt.plugin = NULL;
            break;
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    sb_geometry *geo;
    if (cli_grid_pick("validate", &gopt, argv + optind, argc - optind, 0, &geo))
        return CLI_EXIT_USAGE;
    if (r.opt.plugin && cli_plugin_check("validate", r.opt.plugin, geo)) {
        sb_geometry_free(geo);
        return CLI_EXIT_USAGE;
    }
    /* A technique plug-in counts as a step of the pipeline: fast's kernel asks it at every
     * stall on 9x9, the restart order elsewhere (the fused kernel is 9x9's alone). */
    char tspec[64];
    cli_plugin_techniques(&r.opt);
    if (r.opt.ntechniques) {
        const char *tname = sb_plugin_name(r.opt.techniques[0]);
        const int nine = geo == sb_geometry_9x9();
        snprintf(tspec, sizeof tspec, nine ? "fast+%s" : "restart:ns,hs,lc,%s", tname);
        if (cli_plugin_techniques_ready("validate", &r.opt, geo, &b.threads) ||
            cli_parse_pipeline("validate", tspec, &r.opt)) {
            sb_geometry_free(geo);
            return CLI_EXIT_USAGE;
        }
    }
    if (r.opt.plugin)
        cli_plugin_threads("validate", r.opt.plugin, &b.threads);
    r.g = geo;
    if (cli_batch_ready("validate", &b, geo, &r.opt, argv + optind, argc - optind, gopt.file)) {
        sb_geometry_free(geo);
        return CLI_EXIT_USAGE;
    }
    if (b.resume) { /* resume.c: the counts of the last checkpoint, and skip what they cover */
        uint64_t c[TALLY_COUNTS];
        const int st = cli_resume_counts_begin("validate", &b, argc, argv, argv + optind,
                                               argc - optind, &cp, c, TALLY_COUNTS);
        if (st) {
            sb_geometry_free(geo);
            return st < 0 ? -1 - st : st;
        }
        tally_counts(&r.total, c, 0);
        r.cp = &cp;
    }
    const int rc = cli_batch_records(&b, argv + optind, argc - optind);
    sb_geometry_free(geo);
    tally *t = &r.total;
    int side_failed = 0;
    if (r.cp) { /* every record written is counted: a kill from here on redoes nothing */
        uint64_t c[TALLY_COUNTS];
        const uint64_t records = tally_counts(t, c, 1);
        side_failed = cli_resume_checkpoint(r.cp, records, c, TALLY_COUNTS, 1) != 0;
        cli_checkpoint_free(r.cp);
    }
    printf("%llu puzzles: %llu unique, %llu multiple, %llu unsolvable, %llu invalid lines\n",
           t->n[0] + t->n[1] + t->n[2], t->n[SB_SOLVED], t->n[SB_MULTIPLE], t->n[SB_UNSOLVABLE],
           t->invalid);
    if (cli_flush_out(&b)) /* named as a record's write error is: -o FILE or stdout */
        return CLI_EXIT_USAGE;
    if (rc)
        return rc;
    if (side_failed) /* reported when it failed: FILE.resume holds the last whole checkpoint */
        return CLI_EXIT_USAGE;
    const int final = (t->invalid || t->n[SB_MULTIPLE] || t->n[SB_UNSOLVABLE]) ? CLI_EXIT_INVALID
                                                                               : CLI_EXIT_OK;
    return cli_resume_end(&b, final); /* after the summary: fsync'ed, then "done" */
}
