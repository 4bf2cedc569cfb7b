/*
 * input.c — what a run reads, on any geometry (docs/geometry.md "Command line"): the geometry
 * options, the geometry picked from --grid, --geometry or the first puzzle line
 * (sb_geometry_detect on bytes looked at ahead without consuming them), and the record source
 * of the batch engine over the library's reader of any geometry (sb_greader), so the
 * engine's windows, threads, ordered output and interrupts hold on every geometry.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { PEEK_MAX = 1 << 16 /* bytes looked at ahead to find the first puzzle line */ };

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

/* cli_source.next: the next puzzle or invalid line as a cli_grec. @return 1, 0 at the end,
 * SB_ERR_IO (errno set; EINTR also when the stop flag cut a skip short: every caller then
 * looks at the flag and calls again). */
static int greader_next(void *r, sb_record *rec)
{
    cli_grec *gr = (cli_grec *)rec;
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
    rec->marks = 0; /* the 9x9 reader's pencilmarks: none here */
    rec->col = g.col;
    memcpy(rec->why, g.why, sizeof rec->why);
    memcpy(rec->text, g.text, sizeof rec->text);
    gr->form = g.form;
    return 1;
}

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
        char *name = cli_msg_dup(strcmp(path, "-") ? path : "<stdin>");
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

void cli_gsource_init(cli_source *s, const sb_geometry *g)
{
    /* a multiple of 8 bytes, so records in an array stay aligned */
    s->rec_size = (offsetof(cli_grec, cells) + (size_t)sb_geometry_cells(g) + 7) / 8 * 8;
    s->open = greader_open;
    s->next = greader_next;
    s->close = greader_close;
}

int cli_batch_geometry(const char *cmd, cli_batch *b, const sb_geometry *g, cli_source *src,
                       const sb_options *opt)
{
    if (!g)
        return 0;
    cli_gsource_init(src, g);
    b->source = src;
    b->chunk = NULL; /* the 9x9 solve's chunks of sb_records */
    b->marks = 0;
    return cli_engine_check(cmd, g, opt);
}

int cli_engine_check(const char *cmd, const sb_geometry *g, const sb_options *opt)
{
    size_t np;
    sb_engine *e;
    const int st = sb_engine_new(g, opt, &e);
    if (st == SB_ERR_ARG && opt->search == SB_SEARCH_BFS)
        return cli_usage_error(cmd, "--search bfs is for 9x9, not %s", sb_geometry_name(g));
    if (st != SB_OK)
        return cli_solver_error(cmd, st, opt->simd);
    if (sb_engine_skipped(e) & (1u << SB_TECH_LOCKED))
        fprintf(stderr, CLI_NAME ": %s: note: %s skips lc on %s: locked candidates need two "
                        "houses meeting in 2 or more cells, and it has none\n",
                cmd, opt->pipeline == SB_PIPELINE_CUSTOM ? opt->spec
                                                         : sb_pipelines(&np)[opt->pipeline].name,
                sb_geometry_name(g));
    const unsigned lineless = sb_engine_skipped(e) & ~(1u << SB_TECH_LOCKED);
    if (lineless) { /* fish, sky, kite: the techniques that need rows and columns */
        size_t nt;
        const sb_technique_info *t = sb_techniques(&nt);
        fprintf(stderr, CLI_NAME ": %s: note: %s skips", cmd,
                opt->pipeline == SB_PIPELINE_CUSTOM ? opt->spec
                                                    : sb_pipelines(&np)[opt->pipeline].name);
        for (size_t k = 0; k < nt; k++)
            if (lineless >> k & 1)
                fprintf(stderr, " %s", t[k].name);
        fprintf(stderr, " on %s: they need rows and columns (two families of lines crossing "
                        "once), and it has none\n", sb_geometry_name(g));
    }
    sb_engine_free(e);
    return 0;
}
