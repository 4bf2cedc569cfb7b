/*
 * plugins.c — the solver plug-ins of one run (--plugin FILE): loaded once, found by name by
 * -s, --pipelines and --pipeline, kept loaded until the process ends; and the fault handler that names a plug-in
 * which crashes the process (the isolation docs/plugins.md describes: in-process calls, so a
 * plug-in's row costs what the solver costs, and a crash that names its culprit); and the one
 * message of a technique plug-in that broke its contract on a record (solve, validate, rate).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { MAX_PLUGINS = 16 };

static sb_plugin *loaded[MAX_PLUGINS];
static const char *paths[MAX_PLUGINS]; /* each one's --plugin argument */
static int nloaded;

/* Writes s to stderr with write(2), which a signal handler may call. */
static void say(const char *s)
{
    for (size_t n = strlen(s); n;) {
        const ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w, n -= (size_t)w;
    }
}

/* A fault inside a plug-in's call is that plug-in's: named, exit 2. Elsewhere the default
 * action runs (SA_RESETHAND), as without plug-ins. */
static void on_fault(int sig)
{
    const char *name = sb_plugin_running();
    if (!name)
        return; /* the fault comes again with the default action, or abort() raises again */
    const char *what = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS"
                     : sig == SIGILL  ? "SIGILL"  : sig == SIGFPE ? "SIGFPE" : "SIGABRT";
    say(CLI_NAME ": plug-in '");
    say(name);
    say("' crashed (");
    say(what);
    say(") during its call: its answers stop here\n");
    _exit(CLI_EXIT_USAGE);
}

static void faults_watch(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

int cli_plugin_load(const char *cmd, const char *path)
{
    char why[SB_PLUGIN_WHY];
    sb_plugin *p;
    if (nloaded == MAX_PLUGINS)
        return cli_usage_error(cmd, "more than %d --plugin", MAX_PLUGINS);
    int ntech = 0;
    for (int i = 0; i < nloaded; i++)
        ntech += sb_plugin_is_technique(loaded[i]);
    if (sb_plugin_open(path, &p, why, sizeof why) != SB_OK) {
        char *name = cli_msg_dup(path);
        const int rc = cli_usage_error(cmd, "--plugin '%s': %s", name ? name : path, why);
        free(name);
        return rc;
    }
    for (int i = 0; i < nloaded; i++)
        if (!strcmp(sb_plugin_name(loaded[i]), sb_plugin_name(p))) {
            const int rc = cli_usage_error(cmd, "--plugin '%s': a plug-in named '%s' is "
                                           "loaded already", path, sb_plugin_name(p));
            sb_plugin_close(p);
            return rc;
        }
    if (sb_plugin_is_technique(p) && ntech == SB_TECH_PLUGINS) {
        const int rc = cli_usage_error(cmd, "--plugin '%s': more than %d technique plug-ins",
                                       path, SB_TECH_PLUGINS);
        sb_plugin_close(p);
        return rc;
    }
    if (!nloaded)
        faults_watch();
    paths[nloaded] = path;
    loaded[nloaded++] = p;
    return 0;
}

const sb_plugin *cli_plugin_find(const char *name)
{
    for (int i = 0; i < nloaded; i++)
        if (!sb_plugin_is_technique(loaded[i]) && !strcmp(sb_plugin_name(loaded[i]), name))
            return loaded[i];
    return NULL;
}

void cli_plugin_techniques(sb_options *opt)
{
    static const sb_plugin *techs[SB_TECH_PLUGINS];
    size_t n = 0;
    for (int i = 0; i < nloaded; i++)
        if (sb_plugin_is_technique(loaded[i]) && n < SB_TECH_PLUGINS)
            techs[n++] = loaded[i];
    opt->techniques = n ? techs : NULL;
    opt->ntechniques = n;
}

int cli_plugin_techniques_ready(const char *cmd, const sb_options *opt, const sb_geometry *g,
                                int *threads)
{
    for (size_t k = 0; k < opt->ntechniques; k++) {
        if (cli_plugin_check(cmd, opt->techniques[k], g))
            return CLI_EXIT_USAGE;
        cli_plugin_threads(cmd, opt->techniques[k], threads);
    }
    return 0;
}

const char *cli_plugin_path(int i)
{
    return i >= 0 && i < nloaded ? paths[i] : NULL;
}

int cli_plugin_count(void)
{
    return nloaded;
}

const sb_plugin *cli_plugin_at(int i)
{
    return i >= 0 && i < nloaded ? loaded[i] : NULL;
}

void cli_plugin_threads(const char *cmd, const sb_plugin *p, int *threads)
{
    if (!sb_plugin_one_thread(p) || *threads == 1)
        return;
    fprintf(stderr, CLI_NAME ": %s: plug-in '%s' keeps global state: the run uses 1 thread, "
            "not %d\n", cmd, sb_plugin_name(p), *threads);
    *threads = 1;
}

int cli_plugin_check(const char *cmd, const sb_plugin *p, const sb_geometry *g)
{
    if (sb_plugin_accepts(p, g))
        return 0;
    return cli_usage_error(cmd, "plug-in '%s' does not %s %s grids", sb_plugin_name(p),
                           sb_plugin_is_technique(p) ? "work on" : "solve",
                           g == sb_geometry_9x9() ? "9x9" : sb_geometry_name(g));
}

int cli_technique_failed(const sb_rsolver *rs, cli_buf *err, const cli_input *in,
                         const sb_record *rec)
{
    const char *why = sb_rsolver_plugin_why(rs);
    sb_buf_printf(err, CLI_NAME ": %s:%llu: %s\n", in->msg_name, (unsigned long long)rec->line,
                  why ? why : "a technique plug-in broke its contract");
    return CLI_EXIT_USAGE;
}
