/*
 * common.c — option helpers and input iteration shared by the commands.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, CLI_NAME ": ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "\nTry '" CLI_NAME " %s --help'.\n", cmd);
    else
        fprintf(stderr, "\nTry '" CLI_NAME " --help'.\n");
    return CLI_EXIT_USAGE;
}

void cli_inputs(char *const **files, int *nfiles)
{
    static char *const stdin_only[] = {"-"};
    if (*nfiles == 0) {
        *files = stdin_only;
        *nfiles = 1;
    }
}

void cli_sink_commit(const cli_batch *b, const sb_stream_sink *s)
{
    if (s->n && b->commit)
        b->commit(b->ctx, s->input.len ? (const uint32_t *)(const void *)s->input.data : NULL,
                  (const unsigned char *)s->tags.data, s->n);
}

int cli_oom(void)
{
    fprintf(stderr, CLI_NAME ": out of memory\n");
    return CLI_EXIT_USAGE;
}

int cli_getopt_error(const char *cmd, int ch, char **argv)
{
    /* Option strings start with ':' so a missing argument is told apart from an unknown
     * option; argv[optind - 1] is the word getopt was reading. */
    const char *word = argv[optind - 1];
    if (ch == ':')
        return cli_usage_error(cmd, "option '%s' requires an argument", word);
    if (optopt && strncmp(word, "--", 2) != 0)
        return cli_usage_error(cmd, "invalid option -- '%c'", optopt);
    return cli_usage_error(cmd, "unrecognized option '%s'", word);
}

int cli_parse_u64(const char *s, unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    char *end;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

const char *cli_number_why(const char *s)
{
    /* All digits yet rejected: only the range can be at fault, and saying "a whole number"
     * of a whole number would mislead. */
    const int digits = s && *s && !s[strspn(s, "0123456789")];
    return digits ? "too large: at most 18446744073709551615" : "a whole number >= 0";
}

int cli_parse_whole(const char *cmd, const char *what, const char *arg, unsigned long long *out)
{
    return cli_parse_u64(arg, out)
               ? 0
               : cli_usage_error(cmd, "bad %s '%s' (%s)", what, arg, cli_number_why(arg));
}

int cli_parse_limit(const char *cmd, const char *arg, uint64_t *limit)
{
    unsigned long long v = 0;
    if (cli_parse_whole(cmd, "limit", arg, &v))
        return CLI_EXIT_USAGE;
    *limit = v;
    return 0;
}

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int cli_parse_pipeline(const char *cmd, const char *arg, sb_options *opt)
{
    char why[2 * SB_WHY_LEN + 64];
    /* the run's one parse of the spec: every engine made from opt reuses it */
    if (sb_options_pipeline(opt, arg) == SB_OK)
        return 0;
    sb_options_explain(opt, arg, why, sizeof why); /* the reason, for the message */
    if (strchr(arg, ':') || !strncmp(arg, "fast+", 5))
        return cli_usage_error(cmd, "bad pipeline spec '%s': %s", arg, why);
    for (size_t k = 0; k < opt->ntechniques; k++)
        if (!strcmp(arg, sb_plugin_name(opt->techniques[k])))
            return cli_usage_error(cmd, "'%s' is a technique plug-in, a step of a pipeline: "
                                   "name it in a spec (fast+%s, restart:ns,hs,lc,%s)", arg,
                                   arg, arg);
    /* Not a spec: a misspelt name, so list the names. */
    char names[256];
    return cli_usage_error(cmd, "unknown pipeline '%s' (%s; or a spec ORDER:T1,T2,...)", arg,
                           cli_pipeline_names(names, sizeof names));
}

const char *cli_pipeline_names(char *buf, size_t len)
{
    size_t n, used = 0;
    const sb_pipeline_info *p = sb_pipelines(&n);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", p[i].name);
    return buf;
}

/* Parses --simd LEVEL into *level. @return 0, or CLI_EXIT_USAGE after a message. */
static int parse_simd(const char *cmd, const char *arg, int *level)
{
    const int l = sb_simd_parse(arg);
    if (l == SB_ERR_SIMD)
        return cli_usage_error(cmd, "unknown SIMD level '%s' (auto, scalar, sse4, avx2, "
                                    "avx512bw, avx512, neon)", arg);
    *level = l;
    return 0;
}

/* Parses -t THREADS (1..1024) into *threads. @return 0, or CLI_EXIT_USAGE after a message. */
static int parse_threads(const char *cmd, const char *arg, int *threads)
{
    unsigned long long t;
    if (!cli_parse_u64(arg, &t) || t < 1 || t > 1024)
        return cli_usage_error(cmd, "bad thread count '%s' (1..1024)", arg);
    *threads = (int)t;
    return 0;
}

/* Handles ch if it is a geometry option. @return 1 when it was one, else 0. */
static int grid_option(cli_grid_opt *o, int ch, const char *arg)
{
    switch (ch) {
    case CLI_OPT_GRID: o->spec = arg; return 1;
    case CLI_OPT_GEOMETRY: o->file = arg; return 1;
    case CLI_OPT_ALL: o->all = 1; return 1;
    default: return 0;
    }
}

/* Parses --progress auto|always|never. @return 0 or CLI_EXIT_USAGE after a message. */
static int parse_progress(const char *cmd, const char *arg, cli_progress *mode)
{
    static const char *const names[] = {"auto", "always", "never"};
    for (int m = 0; m < 3; m++)
        if (!strcmp(arg, names[m])) {
            *mode = (cli_progress)m;
            return 0;
        }
    return cli_usage_error(cmd, "bad --progress '%s' (auto, always, never)", arg);
}

/* Handles ch if it is a shared option of s. @return 0 when it was one, 1 when it is the
 * command's own, -1 after a usage message (a bad value, or getopt's '?' or ':'). */
static int shared_option(const cli_shared *s, int ch, const char *arg, char **argv)
{
    if (ch == 't' && s->threads)
        return parse_threads(s->cmd, arg, s->threads) ? -1 : 0;
    if (ch == 'S' && s->simd)
        return parse_simd(s->cmd, arg, s->simd) ? -1 : 0;
    if (ch == 'o' && s->b) {
        s->b->out_name = arg; /* opened by cli_output_open */
        return 0;
    }
    if (ch == 'P' && s->b)
        return parse_progress(s->cmd, arg, &s->b->progress) ? -1 : 0;
    if ((ch == 'R' && s->b) || (s->grid && grid_option(s->grid, ch, arg)))
        return 0;
    if (ch == '?' || ch == ':')
        return cli_getopt_error(s->cmd, ch, argv), -1;
    return 1;
}

int cli_getopt(const cli_shared *s, int argc, char **argv, const char *opts,
               const struct option *longopts)
{
    if (s->b)
        s->b->getopt_opts = opts, s->b->getopt_longopts = longopts;
    for (;;) {
        opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
        const int ch = getopt_long(argc, argv, opts, longopts, NULL);
        const int own = ch == -1 ? 1 : shared_option(s, ch, optarg, argv);
        if (own)
            return own < 0 ? CLI_OPT_BAD : ch;
    }
}

int cli_solver_error(const char *cmd, int status, int simd)
{
    /* A level this CPU lacks is a usage error like an unknown one: same Try line. */
    if (status == SB_ERR_SIMD) {
        const char *env = getenv("SUDOKUBENCH_SIMD");
        if (simd == SB_SIMD_AUTO && env && *env)
            return cli_usage_error(cmd, "SUDOKUBENCH_SIMD=%s: unknown level or not supported "
                                        "by this CPU (scalar, sse4, avx2, avx512bw, avx512, "
                                        "neon)", env);
        return cli_usage_error(cmd, "SIMD level '%s' is not supported by this CPU",
                               sb_simd_name(simd));
    }
    fprintf(stderr, CLI_NAME ": cannot create solver: %s\n", sb_strerror(status));
    return CLI_EXIT_USAGE;
}

int cli_close_stdout(int rc)
{
    /* A full disk or a closed descriptor shows only here for what went through stdio
     * (summaries, --help): a run must not report success for output that was lost. */
    const int failed = fflush(stdout) != 0 || ferror(stdout);
    const int err = errno;
    if (fclose(stdout) != 0 || failed) {
        if (rc != CLI_EXIT_USAGE)
            fprintf(stderr, CLI_NAME ": write error: standard output: %s\n",
                    strerror(failed ? err : errno));
        return CLI_EXIT_USAGE;
    }
    return rc;
}

void cli_input_kind_msg(sb_buf *msg, const char *name, sb_input_kind kind)
{
    const char *lib = sb_input_kind_missing(kind);
    if (lib) { /* "gzip-compressed" -> "gzip" */
        const char *k = sb_input_kind_name(kind);
        sb_buf_printf(msg, CLI_NAME ": %s: %s, and this build reads no %.*s (built without %s)\n",
                      name, k, (int)(strchr(k, '-') - k), k, lib);
    } else if (kind == SB_INPUT_BINARY) {
        sb_buf_printf(msg, CLI_NAME ": %s: binary (a NUL byte in its first bytes), not puzzle "
                           "text\n", name);
    } else {
        sb_buf_printf(msg, CLI_NAME ": %s: %s, not puzzle text: unpack it first (gzip, zstd "
                           "and xz are read as they are)\n", name, sb_input_kind_name(kind));
    }
}

int cli_input_open(const char *path, const char *name, FILE **in)
{
    sb_input_kind kind;
    const int st = sb_input_open(path, in, &kind);
    if (st == 0)
        return 0;
    if (st < 0) {
        fprintf(stderr, CLI_NAME ": cannot open '%s': %s\n", name, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    sb_buf msg = {0};
    cli_input_kind_msg(&msg, name, kind);
    fwrite(msg.data, 1, msg.len, stderr);
    sb_buf_free(&msg);
    return CLI_EXIT_USAGE;
}

int cli_read_stream(const sb_geometry *g, FILE *in, const char *name, sb_record *rec,
                    uint8_t *cells, cli_record_fn fn, void *ctx)
{
    sb_reader *r = NULL;
    int st = sb_reader_open(&r, g, in);
    if (st != SB_OK) {
        fprintf(stderr, CLI_NAME ": %s: %s\n", name, sb_strerror(st));
        return CLI_EXIT_USAGE;
    }
    sb_reader_set_stop(r, cli_stop_flag()); /* a stop ends the skip of an endless line */
    cli_buf msg = {0};
    int stop = 0;
    while (!stop && !cli_stop_requested() && (st = sb_reader_next(r, rec, cells, NULL)) == 1) {
        if (rec->kind == SB_LINE_INVALID) {
            msg.len = 0;
            cli_format_invalid(&msg, name, rec);
            fwrite(msg.data, 1, msg.len, stderr);
        }
        stop = fn(ctx, name, rec, cells);
    }
    sb_buf_free(&msg);
    sb_reader_close(r);
    if (stop)
        return stop;
    if (cli_stop_requested())
        return CLI_EXIT_INTERRUPTED;
    if (st < 0) {
        fprintf(stderr, CLI_NAME ": %s: read error: %s\n", name, sb_input_strerror(errno));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_for_each_record(const sb_geometry *g, char *const *files, int nfiles,
                        cli_record_fn fn, void *ctx)
{
    cli_inputs(&files, &nfiles);
    sb_record rec;
    uint8_t *cells = malloc((size_t)sb_geometry_cells(g));
    if (!cells)
        return cli_oom();
    int rc = 0;
    for (int i = 0; i < nfiles; i++) {
        cli_input name;
        if (cli_input_init(&name, files[i]) != 0) {
            rc = cli_oom();
            break;
        }
        FILE *in = NULL;
        if (cli_input_open(files[i], name.msg_name, &in) != 0) {
            cli_input_free(&name);
            rc = CLI_EXIT_USAGE;
            continue;
        }
        const int st = cli_read_stream(g, in, name.msg_name, &rec, cells, fn, ctx);
        cli_input_free(&name);
        if (in != stdin)
            fclose(in);
        if (st == CLI_EXIT_USAGE)
            rc = CLI_EXIT_USAGE;
        else if (st) {
            rc = st;
            break;
        }
    }
    free(cells);
    return rc;
}
