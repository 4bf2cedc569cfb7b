/*
 * input.c — what a run reads, on any geometry (docs/geometry.md "Command line"): the geometry
 * options, the geometry picked from --grid, --geometry or the first puzzle line
 * (sb_geometry_detect on the bytes sb_input_pick_head finds ahead, from that line on, with
 * nothing of the input lost), and the batch engine pointed at the reader of that geometry, so
 * the engine's windows, threads, ordered output and interrupts hold on every geometry.
 */
#include <stdlib.h>

#include "cli.h"

/* bytes kept of an input from its first puzzle line on, for telling its geometry: the comment
 * and blank lines before that line are passed over, however many (sb_input_pick_head) */
enum { PEEK_MAX = 1 << 16 };

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
    sb_input_head head = {.fifo = -1};
    int64_t n = cli_mpi_rank() == 0 ? sb_input_pick_head((const char *const *)files, nfiles, buf,
                                                         PEEK_MAX, &head)
                                    : -1;
    const int fifo = head.fifo;
    if (n < 0 && fifo >= 0) { /* a FIFO is not looked at (sb_input_peek) and none decided */
        char *name = cli_msg_dup(files[fifo]);
        fprintf(stderr, CLI_NAME ": %s: note: '%s' is a FIFO, which can be read only once: "
                        "read as 9x9 (say --grid SPEC for another geometry)\n", cmd,
                name ? name : files[fifo]);
        free(name);
    }
    /* MPI: rank 0 looks (only it has standard input: mpirun gives the others /dev/null, and
     * a pipe by name is its own), every rank picks from what it saw; one process: no-op */
    cli_mpi_bcast(&n, sizeof n, 0);
    cli_mpi_bcast(&head, sizeof head, 0);
    if (n > 0)
        cli_mpi_bcast(buf, (size_t)n, 0);
    const char *path = nfiles > 0 ? files[head.at] : "-";
    /* 9x9 when nothing could be looked at: the 9x9 path reports the input */
    uint64_t lineno = 0;
    int rc = 0;
    const int st = n > 0 ? sb_geometry_detect(buf, (size_t)n, head.more, g, &lineno, why,
                                              sizeof why)
                         : SB_OK;
    lineno += lineno ? head.skipped : 0; /* buf starts after the lines skipped */
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
    if (!rc && n <= 0) /* the 9x9 grid: a constant, freed as any geometry (a no-op) */
        *g = (sb_geometry *)(uintptr_t)sb_geometry_9x9();
    if (!rc && *g == sb_geometry_9x9() && need_geometry &&
        sb_geometry_parse("3x3", g, why, sizeof why) != SB_OK)
        rc = cli_usage_error(cmd, "%s", why);
    return rc;
}

int cli_batch_ready(const char *cmd, cli_batch *b, const sb_geometry *g, const sb_options *opt,
                    char *const *files, int nfiles, const char *extra)
{
    b->g = g;
    if (g != sb_geometry_9x9()) {
        b->chunk = NULL; /* the 9x9 solve's chunks */
        b->marks = 0;
        if (cli_engine_check(cmd, g, opt))
            return CLI_EXIT_USAGE;
    } else if (sb_simd_resolve(opt->simd) < 0) { /* what sb_solver_new would refuse */
        return cli_solver_error(cmd, SB_ERR_SIMD, opt->simd);
    }
    return cli_output_open(cmd, b, files, nfiles, extra);
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
