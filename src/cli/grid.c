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

enum {
    PEEK_MAX = 1 << 16,   /* bytes looked at ahead to find the first puzzle line */
    ALL_FLUSH = 1 << 16   /* --all writes its buffer out past this many bytes */
};

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

int cli_grid_option(cli_grid_opt *o, int ch, const char *arg)
{
    switch (ch) {
    case CLI_OPT_GRID: o->spec = arg; return 1;
    case CLI_OPT_GEOMETRY: o->file = arg; return 1;
    case CLI_OPT_ALL: o->all = 1; return 1;
    default: return 0;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The record source: the library's reader (sb_greader)                                      */
/* ------------------------------------------------------------------------------------------ */

/* cli_source.open: a reader over in for the run's geometry (the first member of ctx). */
static int greader_open(void *ctx, FILE *in, void **out)
{
    sb_greader *r = NULL;
    const int st = sb_greader_open(&r, ctx ? *(const sb_geometry *const *)ctx : NULL, in);
    sb_greader_set_stop(r, cli_stop_flag()); /* Ctrl-C ends the skip of an endless line */
    *out = r;
    return st;
}

/* cli_source.close. */
static void greader_close(void *r)
{
    sb_greader_close(r);
}

/* cli_source.next: the next puzzle or invalid line as a grec. @return 1, 0 at the end,
 * SB_ERR_IO (errno set; EINTR also when the stop flag cut a skip short: every caller then
 * looks at the flag and calls again). */
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

/* ------------------------------------------------------------------------------------------ */
/* Choosing the geometry                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* @return 1 when a line (no '\n') holds something to read: it is not blank, not a comment. */
static int has_content(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return s[i] != '#';
    return 0;
}

/* Reads up to cap bytes from the start of input path without consuming them from a pipe or
 * a redirected file (stdin). @return the bytes read, or -1 when the input cannot be looked
 * at ahead (a terminal, a socket, a missing file: the run reports it). */
static ssize_t peek_input(const char *path, char *buf, size_t cap)
{
    struct stat st;
    const int named = strcmp(path, "-") != 0;
    /* O_NONBLOCK: a named FIFO must not hold the open; only regular files are read ahead */
    const int fd = named ? open(path, O_RDONLY | O_NONBLOCK) : STDIN_FILENO;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (named && !S_ISREG(st.st_mode))) {
        if (named)
            close(fd);
        return -1;
    }
    if (S_ISREG(st.st_mode)) {
        const off_t at = named ? 0 : lseek(fd, 0, SEEK_CUR);
        size_t got = 0;
        ssize_t k = 0;
        while (at >= 0 && got < cap && (k = pread(fd, buf + got, cap - got, at + (off_t)got)) > 0)
            got += (size_t)k;
        if (named)
            close(fd);
        return at < 0 || k < 0 ? -1 : (ssize_t)got;
    }
    if (!S_ISFIFO(st.st_mode))
        return -1;
    /* A pipe: tee() copies what it holds into a pipe of ours without consuming it. Wait
     * until a whole puzzle line is there, the writer is done, or the pipe is full. */
    int p[2];
    if (pipe(p) != 0)
        return -1;
    ssize_t got = -1;
    for (;;) {
        const ssize_t k = tee(STDIN_FILENO, p[1], cap, SPLICE_F_NONBLOCK);
        if (k < 0 && errno != EAGAIN)
            break;
        size_t n = 0;
        ssize_t m;
        while (k > 0 && n < (size_t)k && (m = read(p[0], buf + n, (size_t)k - n)) > 0)
            n += (size_t)m;
        struct pollfd pf = {.fd = STDIN_FILENO, .events = POLLIN};
        const int ended = k == 0 || (poll(&pf, 1, 0) > 0 && (pf.revents & POLLHUP) &&
                                     !(pf.revents & POLLIN));
        int whole = 0; /* a puzzle line with its '\n' is in */
        for (size_t i = 0, s = 0; i < n && !whole; i++)
            if (buf[i] == '\n') {
                whole = has_content(buf + s, i - s);
                s = i + 1;
            }
        if (whole || ended || n >= cap || k == 0) {
            got = (ssize_t)n;
            break;
        }
        /* Part of a line: wait for more (a writer still typing), then look again. */
        poll(&pf, 1, -1);
        usleep(10000);
    }
    close(p[0]);
    close(p[1]);
    return got;
}

int cli_grid_pick(const char *cmd, const cli_grid_opt *o, char *const *files, int nfiles,
                  int need_geometry, sb_geometry **g)
{
    char why[SB_GEO_WHY_LEN];
    *g = NULL;
    if (o->spec && o->file)
        return cli_usage_error(cmd, "--grid and --geometry both given: say one");
    if (o->spec) {
        if (sb_geometry_parse(o->spec, g, why, sizeof why) != SB_OK)
            return cli_usage_error(cmd, "bad --grid: %s", why);
        return 0;
    }
    if (o->file) {
        const int st = sb_geometry_load(o->file, g, why, sizeof why);
        if (st != SB_OK)
            return cli_usage_error(cmd, "bad --geometry: %s", st == SB_ERR_NOMEM ? "out of memory" : why);
        return 0;
    }
    /* No option: the first puzzle line's cell count decides. */
    const char *path = nfiles > 0 ? files[0] : "-";
    char *buf = malloc(PEEK_MAX);
    if (!buf) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    ssize_t n = peek_input(path, buf, PEEK_MAX);
    if (!strcmp(path, "-")) { /* MPI: only rank 0 has standard input (mpirun gives the others
                                 /dev/null), so every rank picks from what it saw; one
                                 process: no-op */
        long long seen = n;
        cli_mpi_bcast(&seen, sizeof seen, 0);
        n = (ssize_t)seen;
        if (n > 0)
            cli_mpi_bcast(buf, (size_t)n, 0);
    }
    /* 9x9 (*g NULL) when nothing could be looked at: the 9x9 path reports the input */
    uint64_t lineno = 0;
    int rc = 0;
    const int st = n > 0 ? sb_geometry_detect(buf, (size_t)n, n == PEEK_MAX, g, &lineno, why,
                                              sizeof why)
                         : SB_OK;
    if (st == SB_ERR_NOMEM) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        rc = CLI_EXIT_USAGE;
    } else if (st != SB_OK) {
        char *name = malloc(4 * strlen(path) + 8);
        if (name)
            cli_msg_escape(name, strcmp(path, "-") ? path : "<stdin>");
        const char *say = strstr(why, "say "); /* "say cube:3" names the option's value */
        rc = cli_usage_error(cmd, "%s:%llu: cannot tell the geometry: %.*s%s%s",
                             name ? name : path, (unsigned long long)lineno,
                             say ? (int)(say - why + 4) : (int)strlen(why), why,
                             say ? "--grid " : " (say --grid SPEC or --geometry FILE)",
                             say ? say + 4 : "");
        free(name);
    }
    free(buf);
    if (!rc && !*g && need_geometry && sb_geometry_parse("3x3", g, why, sizeof why) != SB_OK)
        rc = cli_usage_error(cmd, "%s", why);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Records                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Appends cells as text in form (characters, or ',' between integers). */
static void put_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    const size_t room = 3 * (size_t)sb_geometry_cells(g) + 1;
    char *p = cli_buf_reserve(b, room);
    if (!p)
        return;
    const int n = sb_gformat(g, cells, form, p, room);
    if (n > 0)
        b->len += (size_t)n;
}

/* Appends one cell of a pretty grid: width w, '.' for a blank. */
static void put_pretty_cell(cli_buf *b, int v, int w)
{
    static const char alphabet[] = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (w == 1)
        cli_buf_put(b, &alphabet[v], 1);
    else if (v)
        cli_buf_printf(b, "%*d", w, v);
    else
        cli_buf_printf(b, "%*s", w, ".");
}

/* Appends printed row r of a pretty grid (no line end): boxes drawn with '|' and '+--+'
 * rules when the geometry has them; for a cube the planes x = 1..K side by side. Rows are
 * numbered with the rules: with boxes of R rows, printed row r is a rule when r % (R+1) is 0. */
static void put_pretty_row(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int r)
{
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    const int n = sb_geometry_digits(g), w = n <= 35 ? 1 : 2, cube = sb_geometry_kind_of(g) == SB_GEO_CUBE;
    if (l.box_rows) {
        if (r % (l.box_rows + 1) == 0) {
            for (int c = 0; c < l.cols; c++) {
                if (c % l.box_cols == 0)
                    cli_buf_put(b, "+-", 2);
                for (int k = 0; k <= w; k++)
                    cli_buf_put(b, "-", 1);
            }
            cli_buf_put(b, "+", 1);
            return;
        }
        r -= r / (l.box_rows + 1) + 1;
    }
    for (int c = 0; c < l.cols; c++) {
        if (l.box_cols && c % l.box_cols == 0)
            cli_buf_put(b, "| ", 2);
        const int cell = cube ? l.rows * l.rows * (c / l.rows) + l.rows * r + c % l.rows
                              : r * l.cols + c;
        put_pretty_cell(b, cells[cell], w);
        if (c + 1 < l.cols || l.box_cols)
            cli_buf_put(b, " ", 1);
    }
    if (l.box_cols)
        cli_buf_put(b, "|", 1);
}

/* Appends the pretty picture of left, with right beside it when not NULL. */
static void put_pretty(cli_buf *b, const sb_geometry *g, const uint8_t *left,
                       const uint8_t *right)
{
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    const int rows = l.box_rows ? l.rows + l.rows / l.box_rows + 1 : l.rows;
    for (int r = 0; r < rows; r++) {
        put_pretty_row(b, g, left, r);
        if (right) {
            cli_buf_put(b, "   ", 3);
            put_pretty_row(b, g, right, r);
        }
        cli_buf_put(b, "\n", 1);
    }
}

/* Appends a csv field holding cells (quoted in the integer form, which has commas). */
static void put_csv_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    if (form == SB_GFORM_INTS)
        cli_buf_put(b, "\"", 1);
    put_cells(b, g, cells, form);
    if (form == SB_GFORM_INTS)
        cli_buf_put(b, "\"", 1);
}

/* Appends the start of a csv record: the file column when the run has several inputs, and
 * the line. */
static void put_csv_head(cli_buf *b, const cli_input *in, uint64_t line)
{
    if (in->with_file) {
        cli_buf_put(b, in->csv_name, in->csv_len);
        cli_buf_put(b, ",", 1);
    }
    cli_buf_printf(b, "%llu,", (unsigned long long)line);
}

/* Appends the record of a solved (or counted) puzzle in format f, as docs/cli.md says for
 * 9x9 with the grids in the input's form; sol is the first solution (used when status is
 * solved). With count_only (--all, solution format) the record is the count alone. */
static void put_record(cli_buf *b, const sb_geometry *g, cli_format f, const cli_input *in,
                       const grec *r, const sb_gresult *res, int status, const uint8_t *sol,
                       int count_only)
{
    const char *word = cli_verdict_name((sb_verdict)status);
    const int solved = status == SB_SOLVED;
    switch (f) {
    case FMT_SOLUTION:
        if (count_only && status != CLI_STATUS_BUDGET)
            cli_buf_printf(b, "%llu", (unsigned long long)res->count);
        else if (solved)
            put_cells(b, g, sol, r->form);
        else
            cli_buf_printf(b, "%s", word);
        break;
    case FMT_TDOKU:
        put_cells(b, g, r->cells, r->form);
        if (status == CLI_STATUS_BUDGET)
            cli_buf_printf(b, ":%s:", word);
        else
            cli_buf_printf(b, ":%llu:", (unsigned long long)res->count);
        if (solved)
            put_cells(b, g, sol, r->form);
        break;
    case FMT_CSV:
        put_csv_head(b, in, r->head.line);
        cli_buf_printf(b, "%s,%llu,%llu,", word, (unsigned long long)res->count,
                       (unsigned long long)res->guesses);
        if (solved)
            put_csv_cells(b, g, sol, r->form);
        break;
    case FMT_JSON:
        cli_buf_printf(b, "{\"file\":%s,\"line\":%llu,\"status\":\"%s\",\"count\":%llu,"
                          "\"guesses\":%llu,\"puzzle\":\"", in->json_name,
                       (unsigned long long)r->head.line, word, (unsigned long long)res->count,
                       (unsigned long long)res->guesses);
        put_cells(b, g, r->cells, r->form);
        cli_buf_put(b, "\",\"solution\":", 13);
        if (solved) {
            cli_buf_put(b, "\"", 1);
            put_cells(b, g, sol, r->form);
            cli_buf_put(b, "\"}", 2);
        } else {
            cli_buf_put(b, "null}", 5);
        }
        break;
    case FMT_PRETTY:
        cli_buf_printf(b, "# %s:%llu %s (count %llu, guesses %llu)\n", in->msg_name,
                       (unsigned long long)r->head.line, word, (unsigned long long)res->count,
                       (unsigned long long)res->guesses);
        put_pretty(b, g, r->cells, solved ? sol : NULL);
        break;
    default: break;
    }
    cli_buf_put(b, "\n", 1);
}

/* Appends solution number index (1-based) of --all in format f (docs/cli.md "--all"). */
static void put_solution(cli_buf *b, const sb_geometry *g, cli_format f, const cli_input *in,
                         const grec *r, const uint8_t *sol, uint64_t index)
{
    switch (f) {
    case FMT_CSV:
        put_csv_head(b, in, r->head.line);
        cli_buf_printf(b, "solution,%llu,,", (unsigned long long)index);
        put_csv_cells(b, g, sol, r->form);
        break;
    case FMT_JSON:
        cli_buf_printf(b, "{\"file\":%s,\"line\":%llu,\"status\":\"solution\",\"index\":%llu,"
                          "\"solution\":\"", in->json_name, (unsigned long long)r->head.line,
                       (unsigned long long)index);
        put_cells(b, g, sol, r->form);
        cli_buf_put(b, "\"}", 2);
        break;
    case FMT_PRETTY:
        cli_buf_printf(b, "# %s:%llu solution %llu\n", in->msg_name,
                       (unsigned long long)r->head.line, (unsigned long long)index);
        put_pretty(b, g, sol, NULL);
        break;
    default: put_cells(b, g, sol, r->form); break;
    }
    cli_buf_put(b, "\n", 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Runs                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* One thread's solver on a geometry: the general solver ("fast", the default), or the generic
 * engine running a pipeline of -s (sb_gpipeline). */
typedef struct gengine {
    sb_gsolver *gs;   /* the general solver, or NULL */
    sb_gpipeline *gp; /* the generic pipeline, or NULL */
} gengine;

/* 1 when pipeline names the general solver: none given, or "fast". */
static int is_fast(const char *pipeline)
{
    return !pipeline || !strcmp(pipeline, "fast");
}

/* Makes e for g and pipeline (checked by cli_parse_pipeline), the general solver at SIMD
 * level simd, polling the CLI's stop flag (raised only while a command's handlers are in), so
 * Ctrl-C ends a search on any geometry: its solves then return SB_ERR_STOPPED.
 * @return SB_OK, or what the constructor or sb_gsolver_simd returned (e is then empty). */
static int gengine_new(const sb_geometry *g, const char *pipeline, int simd, gengine *e)
{
    e->gs = NULL;
    e->gp = NULL;
    if (!is_fast(pipeline)) {
        const int rc = sb_gpipeline_new(g, pipeline, &e->gp);
        if (rc == SB_OK)
            sb_gpipeline_stop(e->gp, cli_stop_flag());
        return rc;
    }
    int rc = sb_gsolver_new(g, &e->gs);
    if (rc == SB_OK && (rc = sb_gsolver_simd(e->gs, simd)) != SB_OK) {
        sb_gsolver_free(e->gs);
        e->gs = NULL;
    }
    if (rc == SB_OK)
        sb_gsolver_stop(e->gs, cli_stop_flag());
    return rc;
}

/* Frees e's solver. */
static void gengine_free(gengine *e)
{
    sb_gsolver_free(e->gs);
    sb_gpipeline_free(e->gp);
    e->gs = NULL;
    e->gp = NULL;
}

/* Sets e's guess budget. */
static void gengine_budget(gengine *e, uint64_t max_guesses)
{
    if (e->gs)
        sb_gsolver_budget(e->gs, max_guesses);
    else
        sb_gpipeline_budget(e->gp, max_guesses);
}

/* Counts as sb_gsolve does, with e's solver. */
static int gengine_solve(gengine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                         uint8_t *first)
{
    return e->gs ? sb_gsolve(e->gs, cells, limit, res, first)
                 : sb_gpipeline_solve(e->gp, cells, limit, res, first);
}

/* Enumerates as sb_gsolve_each does, in the DFS order of e's solver. */
static int gengine_each(gengine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                        void *user, sb_gresult *res)
{
    return e->gs ? sb_gsolve_each(e->gs, cells, limit, fn, user, res)
                 : sb_gpipeline_each(e->gp, cells, limit, fn, user, res);
}

/* Writes to stderr, once per run, that pipeline skips a technique on g: locked candidates
 * where no two houses meet in 2..N-1 cells (a latin square). @return 0, or CLI_EXIT_USAGE
 * when the pipeline cannot be made (out of memory). */
static int note_skipped(const char *cmd, const sb_geometry *g, const char *pipeline)
{
    gengine e;
    if (is_fast(pipeline))
        return 0;
    if (gengine_new(g, pipeline, SB_SIMD_AUTO, &e) != SB_OK) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    if (sb_gpipeline_skipped(e.gp) & (1u << SB_TECH_LOCKED))
        fprintf(stderr, CLI_NAME ": %s: note: %s skips lc on %s: locked candidates need two "
                        "houses meeting in 2 or more cells, and it has none\n",
                cmd, pipeline, sb_geometry_name(g));
    gengine_free(&e);
    return 0;
}

/* Kinds of a record's tag beyond the three sb_verdict values (as solve.c's). */
enum { TAG_INVALID = 3, TAG_BUDGET = 4 };

/* What one record leaves for the tally. */
typedef struct gtag {
    uint64_t guesses; /* its guesses */
    uint8_t kind;     /* an sb_verdict or TAG_* */
    uint8_t cls;      /* rate: its sb_class when solved */
} gtag;

/* One run: the geometry first (greader_open reads it through ctx), then the job and the
 * tally of written records. */
typedef struct grun {
    const sb_geometry *g;    /* the geometry (first member: the source's ctx) */
    const cli_grid_job *job; /* what to do */
    unsigned long long n[5]; /* written records per tag kind */
    unsigned long long guesses; /* their guesses */
    FILE *out;               /* where records go (stdout, or -o FILE) */
    unsigned long long cls[SB_CLASS_COUNT]; /* rate: written solved puzzles per class */
} grun;

/* One thread's worker: its solvers and a solution buffer. */
typedef struct gworker {
    const grun *run;    /* the run */
    gengine eng;        /* this thread's solver for the counts (the job's pipeline) */
    sb_grater *rater;   /* rate: the library's rating (sb_grater_rate) */
    uint8_t *sol;       /* the first solution, sb_geometry_cells bytes */
} gworker;

/* cli_batch.worker_new. */
static int gworker_new(void *ctx, void **out)
{
    const grun *run = ctx;
    gworker *w = cli_alloc_lines(sizeof *w);
    *out = w;
    if (!w || !(w->sol = malloc((size_t)sb_geometry_cells(run->g))) ||
        gengine_new(run->g, run->job->pipeline, run->job->simd, &w->eng) != SB_OK ||
        (run->job->rate && sb_grater_new(run->g, &w->rater) != SB_OK)) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    w->run = run;
    gengine_budget(&w->eng, run->job->max_guesses);
    return 0;
}

/* cli_batch.worker_end. */
static void gworker_end(void *ctx, void *wp)
{
    (void)ctx;
    gworker *w = wp;
    if (w) {
        gengine_free(&w->eng);
        sb_grater_free(w->rater);
        free(w->sol);
    }
    free(w);
}

/* cli_batch.commit: adds written records' tags to the tally. */
static void gcommit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    grun *run = ctx;
    const gtag *t = (const gtag *)tags;
    (void)input;
    for (size_t i = 0; i < n; i++) {
        run->n[t[i].kind]++;
        run->guesses += t[i].guesses;
        if (run->job->rate && t[i].kind == SB_SOLVED)
            run->cls[t[i].cls]++;
    }
}

/* count_puzzle's answer when memory ran out (apart from the sb_verdicts, CLI_STATUS_BUDGET
 * and CLI_STOPPED). */
enum { COUNT_NOMEM = -2 };

/* Counts r's solutions up to the job's limit. @return the record's status (an sb_verdict or
 * CLI_STATUS_BUDGET), CLI_STOPPED when the stop flag cut the search short, or COUNT_NOMEM. */
static int count_puzzle(gworker *w, const grec *r, sb_gresult *res)
{
    const int st = gengine_solve(&w->eng, r->cells, w->run->job->limit, res, w->sol);
    if (st == SB_ERR_BUDGET)
        return CLI_STATUS_BUDGET;
    if (st == SB_ERR_STOPPED)
        return CLI_STOPPED;
    if (st != SB_OK)
        return COUNT_NOMEM; /* the only other failure: no count to report */
    return res->count == 0 ? SB_UNSOLVABLE : res->count == 1 ? SB_SOLVED : SB_MULTIPLE;
}

/* cli_batch.record of solve and validate on a geometry. */
static int grecord(void *wp, const cli_input *in, const sb_record *rec, cli_buf *out,
                   cli_buf *err, void *tp)
{
    gworker *w = wp;
    const cli_grid_job *job = w->run->job;
    const grec *r = (const grec *)rec;
    gtag *t = tp;
    t->guesses = 0;
    if (rec->kind == SB_LINE_INVALID) {
        t->kind = TAG_INVALID;
        if (job->rate && job->format == FMT_JSON)
            cli_buf_printf(out, "{\"file\":%s,\"line\":%llu,\"status\":\"invalid\",\"class\":null}\n",
                           in->json_name, (unsigned long long)rec->line);
        else if (job->rate) {
            put_csv_head(out, in, rec->line);
            cli_buf_printf(out, "invalid,\n");
        } else if (job->format != FMT_COUNT)
            cli_format_record(out, job->format, in, rec, NULL, 0);
        return CLI_DONE;
    }
    sb_gresult res;
    const int status = count_puzzle(w, r, &res);
    if (status == CLI_STOPPED)
        return CLI_STOPPED; /* Ctrl-C inside the search: the record is dropped */
    if (status == COUNT_NOMEM) {
        cli_buf_printf(err, CLI_NAME ": %s:%llu: out of memory\n", in->msg_name,
                       (unsigned long long)rec->line);
        return CLI_EXIT_USAGE;
    }
    t->guesses = res.guesses;
    t->kind = status == CLI_STATUS_BUDGET ? TAG_BUDGET : (uint8_t)status;
    if (job->rate) {
        sb_rating rt = {.cls = SB_CLASS_SEARCH};
        if (status == SB_SOLVED) /* the record's cells are in range: it cannot fail */
            sb_grater_rate(w->rater, r->cells, &rt);
        t->cls = (uint8_t)rt.cls;
        const char *word = cli_verdict_name((sb_verdict)status);
        const char *cls = status == SB_SOLVED ? sb_class_name(rt.cls) : "";
        if (job->format == FMT_JSON)
            cli_buf_printf(out, "{\"file\":%s,\"line\":%llu,\"status\":\"%s\",\"class\":%s%s%s}\n",
                           in->json_name, (unsigned long long)rec->line, word, *cls ? "\"" : "",
                           *cls ? cls : "null", *cls ? "\"" : "");
        else {
            put_csv_head(out, in, rec->line);
            cli_buf_printf(out, "%s,%s\n", word, cls);
        }
        return CLI_DONE;
    }
    if (job->format != FMT_COUNT)
        put_record(out, w->run->g, job->format, in, r, &res, status, w->sol, 0);
    else if (status == SB_UNSOLVABLE)
        cli_buf_printf(err, CLI_NAME ": %s:%llu: no solution\n", in->msg_name,
                       (unsigned long long)rec->line);
    else if (status == SB_MULTIPLE)
        cli_buf_printf(err, CLI_NAME ": %s:%llu: multiple solutions\n", in->msg_name,
                       (unsigned long long)rec->line);
    return CLI_DONE;
}

/* --all holds solution records back at most this long (seconds) once a later one is found,
 * so a fast listing is written in large blocks and a slow one line by line as found. */
#define ALL_HOLD 0.05

/* One --all run's output and the puzzle being listed. Records go out through the batch
 * engine's writer (cli_sink_write), whole records at a time: a full disk or a file size limit
 * cuts the file back to whole records with one message naming the output. */
typedef struct all_ctx {
    const cli_batch *b;   /* the run: output and its name, the tally's commit */
    cli_sink sink;        /* records not written yet, their stderr text and tags */
    double last;          /* when the sink was last written out (cli_now_seconds) */
    int failed;           /* a write failed (reported once): the run ends with exit 2 */
    const sb_geometry *g; /* the geometry */
    cli_format f;         /* record format */
    const cli_input *in;  /* the input */
    const grec *r;        /* the puzzle */
    uint8_t *first;       /* its first solution, for the count record */
} all_ctx;

/* Writes the sink out (stderr text, records, tags to the tally) and empties it.
 * @return 0, or -1 once a write has failed (reported the first time only). */
static int all_write(all_ctx *a)
{
    if (!a->failed && cli_sink_write(a->b, &a->sink) != 0)
        a->failed = 1;
    a->sink.out.len = a->sink.err.len = a->sink.tags.len = 0;
    a->sink.n = 0;
    a->last = cli_now_seconds();
    return a->failed ? -1 : 0;
}

/* sb_gsolve_each callback of --all: one solution record, written out with those held back
 * when the buffer is full or the last write is ALL_HOLD old. @return non-zero to stop (a
 * write failed, or Ctrl-C). */
static int all_one(const uint8_t *sol, uint64_t index, void *user)
{
    all_ctx *a = user;
    if (index == 0)
        memcpy(a->first, sol, (size_t)sb_geometry_cells(a->g));
    put_solution(&a->sink.out, a->g, a->f, a->in, a->r, sol, index + 1);
    if (a->sink.out.len > ALL_FLUSH || cli_now_seconds() - a->last >= ALL_HOLD)
        all_write(a);
    return a->failed || cli_stop_requested();
}

/* solve --all over one open input: for each puzzle its solutions in DFS order, written as
 * they are found, then its count record (the count is known only at the end). @return 0,
 * CLI_EXIT_USAGE after an I/O error (reported), or CLI_EXIT_INTERRUPTED. */
static int all_input(grun *run, gworker *w, FILE *fin, const cli_input *in, grec *r,
                     all_ctx *a)
{
    const cli_grid_job *job = run->job;
    void *rd;
    if (greader_open(run, fin, &rd) != SB_OK) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    a->in = in;
    a->r = r;
    int st, rc = 0;
    while (!rc && !cli_stop_requested() && (st = greader_next(rd, &r->head)) != 0) {
        if (st < 0) {
            if (errno == EINTR)
                continue; /* the loop looks at the stop flag */
            all_write(a);
            fprintf(stderr, CLI_NAME ": %s: read error: %s\n", in->msg_name, strerror(errno));
            rc = CLI_EXIT_USAGE;
            break;
        }
        gtag t = {.kind = TAG_INVALID};
        if (r->head.kind == SB_LINE_INVALID) {
            cli_format_invalid(&a->sink.err, in->msg_name, &r->head);
            cli_format_record(&a->sink.out, job->format, in, &r->head, NULL, 0);
        } else {
            sb_gresult res;
            const int sst = gengine_each(&w->eng, r->cells, job->limit, all_one, a, &res);
            if (a->failed) {
                rc = CLI_EXIT_USAGE;
                break;
            }
            if (sst == SB_ERR_STOPPED)
                break; /* Ctrl-C: the solutions so far stand, the puzzle gets no count */
            if (sst != SB_OK && sst != SB_ERR_BUDGET) {
                all_write(a);
                fprintf(stderr, CLI_NAME ": %s:%llu: out of memory\n", in->msg_name,
                        (unsigned long long)r->head.line);
                rc = CLI_EXIT_USAGE;
                break;
            }
            const int status = sst == SB_ERR_BUDGET ? CLI_STATUS_BUDGET
                               : res.count == 0     ? SB_UNSOLVABLE
                               : res.count == 1     ? SB_SOLVED
                                                    : SB_MULTIPLE;
            t.kind = status == CLI_STATUS_BUDGET ? TAG_BUDGET : (uint8_t)status;
            t.guesses = res.guesses;
            put_record(&a->sink.out, run->g, job->format, in, r, &res, status, a->first, 1);
        }
        cli_buf_put(&a->sink.tags, &t, sizeof t);
        a->sink.n++;
        if (all_write(a) != 0)
            rc = CLI_EXIT_USAGE;
    }
    greader_close(rd);
    if (!rc && cli_stop_requested()) {
        if (all_write(a) != 0) /* what the cut puzzle listed */
            return CLI_EXIT_USAGE;
        fprintf(stderr, CLI_NAME ": interrupted (%s:%llu)\n", in->msg_name,
                (unsigned long long)r->head.line);
        rc = CLI_EXIT_INTERRUPTED;
    }
    return rc;
}

/* solve --all: the inputs in order on one thread, streaming through b (the run's batch with
 * the tally's commit). @return the run's status (0, CLI_EXIT_USAGE, CLI_EXIT_INTERRUPTED). */
static int all_run(grun *run, const cli_batch *b, char *const *files, int nfiles)
{
    static char *const stdin_only[] = {"-"};
    if (nfiles == 0) {
        files = stdin_only;
        nfiles = 1;
    }
    void *wp = NULL;
    grec *r = malloc(grec_size(run->g));
    int rc = r ? gworker_new(run, &wp) : CLI_EXIT_USAGE;
    all_ctx a = {.b = b, .g = run->g, .f = run->job->format, .last = cli_now_seconds()};
    if (wp)
        a.first = ((gworker *)wp)->sol;
    cli_stop_state stop;
    cli_stop_begin(&stop);
    for (int i = 0; !rc || rc == CLI_EXIT_USAGE; i++) {
        if (i == nfiles || !r || !wp || a.failed)
            break;
        cli_input in;
        if (cli_input_init(&in, files[i]) != 0) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        in.with_file = nfiles > 1;
        const int is_stdin = !strcmp(files[i], "-");
        FILE *f = is_stdin ? stdin : fopen(files[i], "rb");
        if (!f) {
            fflush(run->out);
            fprintf(stderr, CLI_NAME ": cannot open '%s': %s\n", in.msg_name, strerror(errno));
            rc = CLI_EXIT_USAGE;
        } else {
            const int st = all_input(run, wp, f, &in, r, &a);
            if (st)
                rc = st;
            if (!is_stdin)
                fclose(f);
        }
        cli_input_free(&in);
    }
    cli_stop_end(&stop);
    cli_sink_free(&a.sink);
    gworker_end(run, wp);
    free(r);
    return rc;
}

int cli_grid_run(const sb_geometry *g, const cli_grid_job *job, const cli_batch *b,
                 char *const *files, int nfiles)
{
    if (sb_simd_resolve(job->simd) < 0)
        return cli_solver_error(job->cmd, SB_ERR_SIMD, job->simd);
    grun run = {.g = g, .job = job, .out = b->out};
    const cli_source src = {.rec_size = grec_size(g), .open = greader_open,
                            .next = greader_next, .close = greader_close};
    cli_batch bb = *b;
    bb.ctx = &run;
    bb.tag_size = sizeof(gtag);
    bb.worker_new = gworker_new;
    bb.worker_end = gworker_end;
    bb.record = grecord;
    bb.chunk = NULL; /* the 9x9 solve's chunk handler knows nothing of these workers */
    bb.commit = gcommit;
    bb.source = &src;
    if (note_skipped(job->cmd, g, job->pipeline))
        return CLI_EXIT_USAGE;
    const double t0 = cli_now_seconds();
    if (job->rate && job->format == FMT_CSV)
        fputs(nfiles > 1 ? "file,line,status,class\n" : "line,status,class\n", b->out);
    else if (job->format != FMT_COUNT && !job->rate)
        cli_write_header(b->out, job->format, nfiles > 1);
    const int rc = job->all ? all_run(&run, &bb, files, nfiles) : cli_batch_records(&bb, files, nfiles);
    const double secs = cli_now_seconds() - t0;
    const unsigned long long puzzles = run.n[0] + run.n[1] + run.n[2] + run.n[TAG_BUDGET];
    if (job->format == FMT_COUNT)
        printf("%llu puzzles: %llu unique, %llu multiple, %llu unsolvable, %llu invalid lines\n",
               run.n[0] + run.n[1] + run.n[2], run.n[SB_SOLVED], run.n[SB_MULTIPLE],
               run.n[SB_UNSOLVABLE], run.n[TAG_INVALID]);
    if (job->rate)
        fprintf(stderr, "rate: %llu puzzles: %llu singles, %llu hidden, %llu locked, %llu tuples, "
                        "%llu search; %llu multiple, %llu unsolvable, %llu invalid lines\n",
                run.n[0] + run.n[1] + run.n[2], run.cls[SB_CLASS_SINGLES], run.cls[SB_CLASS_HIDDEN],
                run.cls[SB_CLASS_LOCKED], run.cls[SB_CLASS_TUPLES], run.cls[SB_CLASS_SEARCH],
                run.n[SB_MULTIPLE], run.n[SB_UNSOLVABLE], run.n[TAG_INVALID]);
    if (job->stats) {
        char budget_text[48] = "";
        if (job->max_guesses != UINT64_MAX)
            snprintf(budget_text, sizeof budget_text, ", %llu over budget", run.n[TAG_BUDGET]);
        fprintf(stderr,
                "stats: %llu puzzles (%llu solved, %llu unsolvable, %llu multiple%s), "
                "%llu invalid lines, %llu guesses, %.3f s, %.0f puzzles/s\n",
                puzzles, run.n[SB_SOLVED], run.n[SB_UNSOLVABLE], run.n[SB_MULTIPLE],
                budget_text, run.n[TAG_INVALID], run.guesses, secs,
                secs > 0 ? (double)puzzles / secs : 0.0);
    }
    if (rc)
        return rc;
    if (job->format == FMT_COUNT && (run.n[SB_MULTIPLE] || run.n[SB_UNSOLVABLE]))
        return CLI_EXIT_INVALID;
    return run.n[TAG_INVALID] ? CLI_EXIT_INVALID : CLI_EXIT_OK;
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

/* ------------------------------------------------------------------------------------------ */
/* bench on a geometry                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Checks that bench_pass's team of threads can start (the OpenMP runtime exits the process
 * when it cannot). @return 0, or 1 after "cannot start N threads: WHY" on stderr. */
static int team_cannot_start(int threads)
{
    char why[2 * SB_WHY_LEN];
    if (sb_threads_check(threads, why, sizeof why) == SB_OK)
        return 0;
    fprintf(stderr, CLI_NAME ": %s\n", why);
    return 1;
}

/* One pass of pipeline's solver (the general solver at SIMD level simd) over set with threads
 * threads, counting each puzzle to limit. With verdict (the warm-up), each first solution is checked against the rules and
 * verdict[i] gets puzzle i's sb_verdict. @return the guesses, or UINT64_MAX when a check
 * failed or memory ran out. */
static uint64_t bench_pass(const aug_set *set, const char *pipeline, int simd, uint64_t limit,
                           int threads, uint8_t *verdict)
{
    uint64_t guesses = 0;
    int failed = 0;
    const int nc = sb_geometry_cells(set->g);
#pragma omp parallel num_threads(threads) reduction(+ : guesses) reduction(| : failed)
    {
        gengine e;
        uint8_t *sol = malloc((size_t)nc);
        const int made = gengine_new(set->g, pipeline, simd, &e) == SB_OK;
        failed |= !sol || !made;
#pragma omp for schedule(dynamic, 16)
        for (size_t i = 0; i < set->n; i++) {
            sb_gresult r;
            const uint8_t *p = set->cells + i * (size_t)nc;
            if (!made || !sol || cli_stop_requested())
                continue;
            const int st = gengine_solve(&e, p, limit, &r, sol);
            if (st == SB_ERR_STOPPED)
                continue; /* Ctrl-C: the run ends as interrupted, not as a failure */
            if (st != SB_OK)
                failed = 1;
            else if (verdict && r.count && !sb_gsolution_check(set->g, p, sol))
                failed = 1;
            else if (verdict)
                verdict[i] = (uint8_t)(r.count == 0 ? SB_UNSOLVABLE : r.count == 1 ? SB_SOLVED
                                                                                   : SB_MULTIPLE);
            guesses += r.guesses;
        }
        gengine_free(&e);
        free(sol);
    }
    return failed ? UINT64_MAX : guesses;
}

/* One row of bench on a geometry: pipeline (the general solver at SIMD level simd) on set
 * (file's valid puzzles), its warm-up
 * verdicts into verdict; when first is not NULL they must equal first's (the first row's of
 * the file, kept in want). @return 0, or CLI_EXIT_USAGE after a message. */
static int bench_row(const aug_set *set, const char *file, const char *pipeline,
                     const char *first, const uint8_t *want, uint8_t *verdict, int simd,
                     uint64_t limit, int threads, double seconds)
{
    if (team_cannot_start(threads)) /* now the file is loaded; later passes reuse the team */
        return CLI_EXIT_USAGE;
    if (bench_pass(set, pipeline, simd, limit, threads, verdict) == UINT64_MAX) { /* warm-up, checked */
        fprintf(stderr, CLI_NAME ": %s: %s: a solution broke the rules or memory ran out\n", file,
                pipeline);
        return CLI_EXIT_USAGE;
    }
    for (size_t i = 0; first && i < set->n && !cli_stop_requested(); i++)
        if (verdict[i] != want[i]) {
            char text[3 * 64 * 64 + 1];
            sb_gformat(set->g, set->cells + i * (size_t)sb_geometry_cells(set->g), set->form[i],
                       text, sizeof text);
            fprintf(stderr, CLI_NAME ": bench: pipelines disagree on puzzle %zu of %s: %s says "
                            "%s, %s says %s: %s\n", i + 1, file, first,
                    cli_verdict_name((sb_verdict)want[i]), pipeline,
                    cli_verdict_name((sb_verdict)verdict[i]), text);
            return CLI_EXIT_USAGE;
        }
    uint64_t passes = 0, guesses = 0;
    const double t0 = cli_now_seconds();
    double t = 0;
    do {
        guesses = bench_pass(set, pipeline, simd, limit, threads, NULL);
        passes++;
        t = cli_now_seconds() - t0;
    } while (t < seconds && !cli_stop_requested());
    const double done = (double)passes * (double)set->n;
    printf("%-32s %-10s %-24s %8zu %7llu %12.1f %11.2f %9.1f\n", file, sb_geometry_name(set->g),
           pipeline, set->n, (unsigned long long)passes, done / t, 1e6 * t / done,
           (double)guesses / (double)set->n);
    return 0;
}

int cli_grid_bench(const sb_geometry *g, char *const *files, int nfiles, uint64_t limit,
                   int threads, double seconds, size_t max, const char *const *pipes,
                   int npipes, int simd)
{
    if (sb_simd_resolve(simd) < 0)
        return cli_solver_error("bench", SB_ERR_SIMD, simd);
    static const char *const fast_only[] = {"fast"};
    int rc = 0;
    if (npipes == 0) {
        pipes = fast_only;
        npipes = 1;
    }
    for (int p = 0; p < npipes; p++)
        if (note_skipped("bench", g, pipes[p]))
            return CLI_EXIT_USAGE;
    if (team_cannot_start(threads)) /* before the header: no output */
        return CLI_EXIT_USAGE;
    cli_stop_state stop;
    cli_stop_begin(&stop);
    printf("%-32s %-10s %-24s %8s %7s %12s %11s %9s\n", "file", "geometry", "pipeline",
           "puzzles", "passes", "puzzles/s", "us/puzzle", "guesses");
    int some_invalid = 0; /* a file had invalid lines */
    for (int f = 0; f < nfiles && !cli_stop_requested(); f++) {
        aug_set set = {.g = g};
        int invalid = 0;
        uint8_t *verdict = NULL;
        const int lrc = load_set(&set, files + f, 1, max, &invalid);
        some_invalid |= invalid;
        if (lrc != 0 || !set.n) {
            rc = CLI_EXIT_USAGE;
        } else if (!(verdict = malloc(2 * set.n))) {
            fprintf(stderr, CLI_NAME ": out of memory\n");
            rc = CLI_EXIT_USAGE;
        } else {
            /* verdict[0..n): the first row's; verdict[n..2n): each later row's */
            for (int p = 0; p < npipes && !cli_stop_requested(); p++) {
                const int st = bench_row(&set, files[f], pipes[p], p ? pipes[0] : NULL, verdict,
                                         verdict + (p ? set.n : 0), simd, limit, threads,
                                         seconds);
                if (st) {
                    rc = st;
                    break;
                }
            }
        }
        free(verdict);
        free(set.cells);
        free(set.form);
    }
    cli_stop_end(&stop);
    if (cli_stop_requested())
        return CLI_EXIT_INTERRUPTED;
    /* as 9x9 bench: the rows stand, measured on the valid puzzles, and invalid lines give 1 */
    return rc ? rc : some_invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
