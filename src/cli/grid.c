/*
 * grid.c — solve and validate on any geometry (issue 13; docs/geometry.md "Command line").
 *
 * The 9x9 fast path (sb_reader, sb_solve) is untouched: this file runs only when --grid or
 * --geometry is given, when the first puzzle line is not a 9x9 one, or for solve --all.
 * Records come from the library's reader of any geometry (sb_greader: parsed, clashing givens
 * refused, bounded lines), wrapped as a cli_source of the batch engine, so the engine's
 * windows, threads, ordered output and interrupts hold as on 9x9; each record is written back
 * in the form it came in (characters or separated integers). The geometry of an input
 * without --grid is sb_geometry_detect's answer on its first bytes; rate is sb_grater_rate.
 *
 * --all streams: every solution is written as it is found, straight to stdout, one puzzle at
 * a time (a puzzle may have millions of solutions; a window of them would not fit in memory).
 *
 * The solver is the general one (sb_gsolver, pipeline "fast") unless solve -s or bench
 * --pipelines name another pipeline: then the generic engine runs it (sb_gpipeline).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grid.h"

/* One record of the geometry source: the engine's header, then the puzzle. */
typedef struct grec {
    sb_record head;   /* line, kind, why, col, text (grid unused) */
    int form;         /* sb_gform the line was written in */
    uint8_t cells[];  /* the puzzle, sb_geometry_cells bytes */
} grec;

/* Record bytes for geometry g (a multiple of 8, so records stay aligned). */
static size_t grec_size(const sb_geometry *g)
{
    return (offsetof(grec, cells) + (size_t)sb_geometry_cells(g) + 7) / 8 * 8;
}

/* cli_source.open of the geometry source, for augment's and bench's loaders. */
static int greader_open(void *ctx, FILE *in, void **out)
{
    cli_source src;
    cli_gsource_init(&src, *(const sb_geometry *const *)ctx);
    return src.open(ctx, in, out);
}

/* cli_source.next of the geometry source (as input.c's, until bench and augment leave). */
static int greader_next(void *r, sb_record *rec)
{
    grec *gr = (grec *)rec;
    sb_grecord g;
    const int st = sb_greader_next(r, &g, gr->cells);
    if (st == SB_ERR_STOPPED) {
        errno = EINTR;
        return SB_ERR_IO;
    }
    if (st != 1)
        return st;
    rec->line = g.line;
    rec->kind = g.kind;
    rec->col = g.col;
    memcpy(rec->why, g.why, sizeof rec->why);
    memcpy(rec->text, g.text, sizeof rec->text);
    gr->form = g.form;
    return 1;
}

/* cli_source.close of the geometry source. */
static void greader_close(void *r)
{
    sb_greader_close(r);
}

static void put_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    cli_put_gcells(b, g, cells, form);
}
static void put_csv_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    cli_put_gcsv_cells(b, g, cells, form);
}
static void put_pretty(cli_buf *b, const sb_geometry *g, const uint8_t *l, const uint8_t *r)
{
    cli_put_gpretty(b, g, l, r);
}
/* ------------------------------------------------------------------------------------------ */
/* generate --grid                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* One generate run on a geometry, shared read-only by the workers. */
typedef struct gen_run {
    const sb_geometry *g;    /* the geometry (first member, as grun's) */
    const cli_grid_gen *opt; /* what was asked */
    int form;                /* sb_gform of the output */
    unsigned long long made, clues, guesses; /* totals of written puzzles (commit) */
} gen_run;

/* One thread's generator state. */
typedef struct gen_worker {
    const gen_run *run;  /* the run */
    sb_ggenerator *gen;  /* this thread's generator (the library's) */
    uint8_t *puzzle;     /* the puzzle, cells bytes */
    uint8_t *grid;       /* its solution, cells bytes */
} gen_worker;

/* What one generated puzzle leaves for the totals. */
typedef struct gen_tag {
    uint64_t clues;   /* its givens */
    uint64_t guesses; /* guesses of its final uniqueness check */
} gen_tag;

/* cli_batch.worker_new of generate. */
static int gen_worker_new(void *ctx, void **out)
{
    const gen_run *run = ctx;
    const size_t nc = (size_t)sb_geometry_cells(run->g);
    gen_worker *w = cli_alloc_lines(sizeof *w);
    *out = w;
    /* cli_grid_generate made a generator already: no full grid is not a reason left here. */
    if (!w || !(w->grid = malloc(nc)) || !(w->puzzle = malloc(nc)) ||
        sb_ggenerator_new(run->g, run->opt->seed, &w->gen, NULL, 0) != SB_OK) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    sb_ggenerator_stop(w->gen, cli_stop_flag());
    w->run = run;
    return 0;
}

/* cli_batch.worker_end of generate. */
static void gen_worker_end(void *ctx, void *wp)
{
    (void)ctx;
    gen_worker *w = wp;
    if (w) {
        sb_ggenerator_free(w->gen);
        free(w->grid);
        free(w->puzzle);
    }
    free(w);
}

/* cli_batch.item of generate: puzzle number first + index of the seed (sb_ggenerate: unique
 * and minimal, a function of the seed and that number only), formatted. */
static int gen_item(void *wp, uint64_t index, cli_buf *out, cli_buf *err, void *tp)
{
    gen_worker *w = wp;
    const gen_run *run = w->run;
    const sb_geometry *g = run->g;
    const uint64_t at = run->opt->first + index;
    gen_tag *t = tp;
    sb_ggenerated info;
    const int st = sb_ggenerate(w->gen, at, w->puzzle, w->grid, &info);
    if (st == SB_ERR_STOPPED)
        return CLI_STOPPED;
    if (st == SB_ERR_BUDGET) {
        cli_buf_printf(err, CLI_NAME ": generate: no full grid of %s found in 100000 random "
                            "fills: it likely has none\n", sb_geometry_name(g));
        return CLI_EXIT_USAGE;
    }
    if (st != SB_OK) {
        cli_buf_printf(err, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    t->clues = (uint64_t)info.clues;
    t->guesses = info.guesses;
    switch (run->opt->format) {
    case FMT_TDOKU:
        put_cells(out, g, w->puzzle, run->form);
        cli_buf_put(out, ":1:", 3);
        put_cells(out, g, w->grid, run->form);
        break;
    case FMT_CSV:
        cli_buf_printf(out, "%llu,", (unsigned long long)at);
        put_csv_cells(out, g, w->puzzle, run->form);
        cli_buf_printf(out, ",%llu,%llu,", (unsigned long long)t->clues,
                       (unsigned long long)t->guesses);
        put_csv_cells(out, g, w->grid, run->form);
        break;
    case FMT_JSON:
        cli_buf_printf(out, "{\"index\":%llu,\"puzzle\":\"", (unsigned long long)at);
        put_cells(out, g, w->puzzle, run->form);
        cli_buf_printf(out, "\",\"clues\":%llu,\"guesses\":%llu,\"solution\":\"",
                       (unsigned long long)t->clues, (unsigned long long)t->guesses);
        put_cells(out, g, w->grid, run->form);
        cli_buf_put(out, "\"}", 2);
        break;
    case FMT_PRETTY:
        cli_buf_printf(out, "# puzzle %llu (%llu clues)\n", (unsigned long long)at,
                       (unsigned long long)t->clues);
        put_pretty(out, g, w->puzzle, w->grid);
        break;
    default: put_cells(out, g, w->puzzle, run->form); break;
    }
    cli_buf_put(out, "\n", 1);
    return CLI_DONE;
}

/* cli_batch.commit of generate. */
static void gen_commit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    gen_run *run = ctx;
    const gen_tag *t = (const gen_tag *)tags;
    (void)input;
    for (size_t i = 0; i < n; i++) {
        run->made++;
        run->clues += t[i].clues;
        run->guesses += t[i].guesses;
    }
}

int cli_grid_generate(const sb_geometry *g, const cli_grid_gen *opt)
{
    /* A geometry with no full grid has no puzzle: say so before any output (the CSV header),
     * rather than draw fills forever. */
    char why[SB_GEO_WHY_LEN];
    sb_ggenerator *probe;
    const int made = sb_ggenerator_new(g, opt->seed, &probe, why, sizeof why);
    sb_ggenerator_free(probe);
    if (made != SB_OK) {
        fprintf(stderr, CLI_NAME ": generate: %s\n", made == SB_ERR_NOMEM ? "out of memory" : why);
        return CLI_EXIT_USAGE;
    }
    gen_run run = {.g = g, .opt = opt,
                   .form = sb_geometry_digits(g) <= 35 ? SB_GFORM_CHARS : SB_GFORM_INTS};
    cli_batch b = {.threads = opt->threads, .progress = CLI_PROGRESS_NEVER, .unit = "puzzles",
                   .out = opt->out, .ctx = &run, .tag_size = sizeof(gen_tag),
                   .worker_new = gen_worker_new, .worker_end = gen_worker_end,
                   .item = gen_item, .commit = gen_commit, .out_name = opt->out_name};
    if (opt->format == FMT_CSV)
        fputs("index,puzzle,clues,guesses,solution\n", opt->out);
    const double t0 = cli_now_seconds();
    const int rc = cli_batch_items(&b, opt->count);
    const double secs = cli_now_seconds() - t0;
    if (opt->stats && run.made)
        fprintf(stderr, "stats: %llu puzzles (%s), %.2f clues/puzzle, %.3f guesses/puzzle, "
                        "%d threads, %.3f s, %.1f puzzles/s\n",
                run.made, sb_geometry_name(g), (double)run.clues / (double)run.made,
                (double)run.guesses / (double)run.made, opt->threads, secs,
                secs > 0 ? (double)run.made / secs : 0.0);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* augment on a geometry                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The valid puzzles of augment's inputs, in input order. */
typedef struct aug_set {
    const sb_geometry *g; /* the geometry (first member: greader_open's ctx) */
    uint8_t *cells;       /* n puzzles of sb_geometry_cells bytes */
    int *form;            /* the text form of each */
    size_t n, cap;        /* puzzles held, room */
} aug_set;

/* What augment's items read. */
typedef struct aug_job {
    const aug_set *set; /* the puzzles */
    uint64_t seed;      /* --seed */
} aug_job;

/* One thread's scratch for augment. */
typedef struct aug_worker {
    const aug_job *job; /* the run */
    uint8_t *cells;     /* the transformed puzzle */
} aug_worker;

/* cli_batch.worker_new of augment. */
static int aug_worker_new(void *ctx, void **out)
{
    const aug_job *job = ctx;
    const size_t nc = (size_t)sb_geometry_cells(job->set->g);
    aug_worker *w = cli_alloc_lines(sizeof *w);
    *out = w;
    if (!w || !(w->cells = malloc(nc))) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    w->job = job;
    return 0;
}

/* cli_batch.worker_end of augment. */
static void aug_worker_end(void *ctx, void *wp)
{
    (void)ctx;
    aug_worker *w = wp;
    if (w)
        free(w->cells);
    free(w);
}

/* cli_batch.item of augment: output index is input puzzle index mod P under the transform
 * sb_gaugment draws from (seed, index). */
static int aug_item(void *wp, uint64_t index, cli_buf *out, cli_buf *err, void *tp)
{
    aug_worker *w = wp;
    const aug_set *set = w->job->set;
    const sb_geometry *g = set->g;
    (void)err;
    (void)tp;
    const size_t i = (size_t)(index % set->n);
    /* The set holds valid puzzles only, the one thing sb_gaugment refuses besides NULL. */
    sb_gaugment(g, w->job->seed, index, set->cells + i * (size_t)sb_geometry_cells(g), w->cells);
    put_cells(out, g, w->cells, set->form[i]);
    cli_buf_put(out, "\n", 1);
    return CLI_DONE;
}

/* Reads the valid puzzles of the inputs into set (invalid lines reported on stderr, *invalid
 * set), at most max of them (0: all). @return 0, or CLI_EXIT_USAGE after an I/O error or
 * running out of memory (what was read stays in set). */
static int load_set(aug_set *set, char *const *files, int nfiles, size_t max, int *invalid)
{
    static char *const stdin_only[] = {"-"};
    if (nfiles == 0) {
        files = stdin_only;
        nfiles = 1;
    }
    const size_t nc = (size_t)sb_geometry_cells(set->g);
    grec *r = malloc(grec_size(set->g));
    int rc = r ? 0 : CLI_EXIT_USAGE;
    for (int f = 0; f < nfiles && r; f++) {
        cli_input in;
        if (cli_input_init(&in, files[f]) != 0) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        const int is_stdin = !strcmp(files[f], "-");
        FILE *fin = is_stdin ? stdin : fopen(files[f], "rb");
        void *rd = NULL;
        if (!fin) {
            fprintf(stderr, CLI_NAME ": cannot open '%s': %s\n", in.msg_name, strerror(errno));
            rc = CLI_EXIT_USAGE;
        } else if (greader_open(set, fin, &rd) == SB_OK) {
            int st = 0;
            while ((!max || set->n < max) && (st = greader_next(rd, &r->head)) == 1) {
                if (r->head.kind == SB_LINE_INVALID) {
                    fprintf(stderr, CLI_NAME ": %s:%llu:%zu: invalid puzzle: %s\n", in.msg_name,
                            (unsigned long long)r->head.line, r->head.col, r->head.why);
                    *invalid = 1;
                    continue;
                }
                if (set->n == set->cap) {
                    set->cap = set->cap ? 2 * set->cap : 256;
                    uint8_t *c = realloc(set->cells, set->cap * nc);
                    int *fm = realloc(set->form, set->cap * sizeof *fm);
                    if (c)
                        set->cells = c;
                    if (fm)
                        set->form = fm;
                    if (!c || !fm) {
                        rc = CLI_EXIT_USAGE;
                        break;
                    }
                }
                memcpy(set->cells + set->n * nc, r->cells, nc);
                set->form[set->n++] = r->form;
            }
            if (st < 0) {
                fprintf(stderr, CLI_NAME ": %s: read error: %s\n", in.msg_name, strerror(errno));
                rc = CLI_EXIT_USAGE;
            }
            greader_close(rd);
        }
        if (fin && !is_stdin)
            fclose(fin);
        cli_input_free(&in);
    }
    free(r);
    return rc;
}

int cli_grid_augment(const sb_geometry *g, char *const *files, int nfiles, uint64_t count,
                     uint64_t seed, int stats, const char *out_name)
{
    aug_set set = {.g = g};
    int invalid = 0;
    int rc = load_set(&set, files, nfiles, 0, &invalid);
    if (!set.n && count > 0 && rc != CLI_EXIT_USAGE) {
        fprintf(stderr, CLI_NAME ": augment: no valid puzzle in the input\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_USAGE || set.n) {
        const aug_job job = {.set = &set, .seed = seed};
        cli_batch b = {.threads = 1, .progress = CLI_PROGRESS_NEVER, .unit = "puzzles",
                       .out = stdout, .ctx = (void *)&job, .worker_new = aug_worker_new,
                       .worker_end = aug_worker_end, .item = aug_item, .out_name = out_name};
        const double t0 = cli_now_seconds();
        const int brc = set.n ? cli_batch_items(&b, count) : 0;
        if (stats)
            fprintf(stderr, "stats: %llu puzzles from %zu inputs, %.3f s\n",
                    (unsigned long long)count, set.n, cli_now_seconds() - t0);
        if (brc)
            rc = brc;
    }
    free(set.cells);
    free(set.form);
    return rc ? rc : invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
