/*
 * input.c — what a run reads, on any geometry (docs/geometry.md "Command line"): the geometry
 * options, the geometry picked from --grid, --geometry or the first puzzle line
 * (sb_geometry_detect on the bytes sb_input_peek looks at ahead without consuming them), and
 * the batch engine pointed at the library's record source of any geometry (sb_gsource), so
 * the engine's windows, threads, ordered output and interrupts hold on every geometry.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"

enum { PEEK_MAX = 1 << 16 /* bytes looked at ahead to find the first puzzle line */ };

/* Looks ahead at the inputs (rank 0 only) for the first puzzle line: an input that cannot be
 * looked at or opened, or that holds none (blank and comment lines only), passes the turn to
 * the next, as every input of a run has one geometry. A FIFO made by mkfifo is not looked at
 * (sb_input_peek): a note says so when no other input decides. @return the bytes of input
 * *at in buf (-1: none could be looked at, 9x9). */
static int64_t pick_input(const char *cmd, char *const *files, int nfiles, char *buf, int *at)
{
    int fifo = -1; /* the first FIFO passed over */
    *at = 0;
    for (int i = 0; cli_mpi_rank() == 0 && i < (nfiles > 0 ? nfiles : 1); i++) {
        const char *path = nfiles > 0 ? files[i] : "-";
        struct stat st;
        const int64_t k = sb_input_peek(path, buf, PEEK_MAX);
        if (k < 0 && fifo < 0 && strcmp(path, "-") && !stat(path, &st) && S_ISFIFO(st.st_mode))
            fifo = i;
        uint64_t line = 0;
        sb_geometry *g = NULL;
        /* the whole input seen (k < PEEK_MAX) and no puzzle line in it: the next decides */
        if (k < 0 || (k < PEEK_MAX && sb_geometry_detect(buf, (size_t)k, 0, &g, &line, NULL,
                                                         0) == SB_OK && !g && !line))
            continue;
        sb_geometry_free(g);
        *at = i;
        return k;
    }
    if (fifo >= 0) {
        char *name = cli_msg_dup(files[fifo]);
        fprintf(stderr, CLI_NAME ": %s: note: '%s' is a FIFO, which can be read only once: "
                        "read as 9x9 (say --grid SPEC for another geometry)\n", cmd,
                name ? name : files[fifo]);
        free(name);
    }
    return -1;
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
    char *buf = malloc(PEEK_MAX);
    if (!buf)
        return cli_oom();
    int at = 0;
    int64_t n = pick_input(cmd, files, nfiles, buf, &at);
    /* MPI: rank 0 looks (only it has standard input: mpirun gives the others /dev/null, and
     * a pipe by name is its own), every rank picks from what it saw; one process: no-op */
    cli_mpi_bcast(&n, sizeof n, 0);
    cli_mpi_bcast(&at, sizeof at, 0);
    if (n > 0)
        cli_mpi_bcast(buf, (size_t)n, 0);
    const char *path = nfiles > 0 ? files[at] : "-";
    /* 9x9 (*g NULL) when nothing could be looked at: the 9x9 path reports the input */
    uint64_t lineno = 0;
    int rc = 0;
    const int st = n > 0 ? sb_geometry_detect(buf, (size_t)n, n == PEEK_MAX, g, &lineno, why,
                                              sizeof why)
                         : SB_OK;
    if (st == SB_ERR_NOMEM) {
        rc = cli_oom();
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

int cli_batch_geometry(const char *cmd, cli_batch *b, const sb_geometry *g, sb_gsource *src,
                       const sb_options *opt)
{
    if (!g)
        return 0;
    sb_gsource_init(src, g, cli_stop_flag());
    b->source = &src->source;
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
    if (st == SB_ERR_PIPELINE && opt->spec && !strncmp(opt->spec, "fast+", 5))
        return cli_usage_error(cmd, "%s runs on the 9x9 fused kernel only, not %s: the same "
                                    "rules on any geometry are restart:ns,hs,lc,%s",
                               opt->spec, sb_geometry_name(g), opt->spec + 5);
    if (st != SB_OK)
        return cli_solver_error(cmd, st, opt->simd);
    const char *name = opt->pipeline == SB_PIPELINE_CUSTOM ? opt->spec
                                                           : sb_pipelines(&np)[opt->pipeline].name;
    if (sb_engine_skipped(e) & (1u << SB_TECH_LOCKED))
        fprintf(stderr, CLI_NAME ": %s: note: %s skips lc on %s: locked candidates need two "
                        "houses meeting in 2 or more cells, and it has none\n",
                cmd, name, sb_geometry_name(g));
    const unsigned lineless = sb_engine_skipped(e) & ~(1u << SB_TECH_LOCKED);
    if (lineless) { /* fish, sky, kite: the techniques that need rows and columns */
        size_t nt;
        const sb_technique_info *t = sb_techniques(&nt);
        fprintf(stderr, CLI_NAME ": %s: note: %s skips", cmd, name);
        for (size_t k = 0; k < nt; k++)
            if (lineless >> k & 1)
                fprintf(stderr, " %s", t[k].name);
        fprintf(stderr, " on %s: they need rows and columns (two families of lines crossing "
                        "once), and it has none\n", sb_geometry_name(g));
    }
    sb_engine_free(e);
    return 0;
}
