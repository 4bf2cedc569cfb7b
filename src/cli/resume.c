/*
 * resume.c — `-o FILE --resume` (docs/reliability.md): a run killed part-way
 * continues after the last whole record of FILE, and the finished FILE is byte-identical to
 * an uninterrupted run.
 *
 * A side file FILE.resume, written before the first record, identifies the run: the command,
 * every argument but --resume, -t, --simd and --progress (the bytes are the same for any of
 * those: a run killed at -t 64 goes on at -t 2), and each input's path, size and
 * modification time. Resuming
 * compares it line for line (a mismatch is refused: FILE came from another input or other
 * options), cuts FILE after its last '\n' (a record torn by the kill), counts the whole
 * records in it (lines, less the format's header lines) and has the batch engine read and
 * drop that many input records before it handles any (cli_batch.skip). A run that ends with
 * exit 0 or 1 appends "done RC" to the side file: resuming it again does nothing.
 *
 * The side file itself (its identity, checkpoints, the cut after the last whole record) is
 * kept by the programs' layer (sb_side_*, src/app/sidefile.c); this file says what each
 * refusal means, times the checkpoints and shares the outcome with the MPI ranks.
 *
 * Only formats with one line per record can be counted this way; `-f pretty`, `solve --all`
 * (a puzzle's solutions, many lines) and standard input (no identity) are refused with
 * --resume. The geometry does not matter: the engine skips records of any record source
 * (cli_batch.skip), and every geometry's record is one output line, as a 9x9 one is.
 *
 * A run whose output is only a summary at the end (validate) has no records in FILE to count.
 * Its side file carries a checkpoint instead, "at RECORDS C1 .. Cn": the running counts over
 * the first RECORDS input records, written (atomically, fsync'ed) as the records are
 * committed, at most once per CHECKPOINT_MS and once more when the batch ends. Resuming
 * empties FILE, restores the counts and skips RECORDS input records; the summary and the exit
 * code then cover the whole input, as in an uninterrupted run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Default milliseconds between two checkpoints of a counting run (validate): at most this
 * much work is redone after a SIGKILL, and one fsync a second costs nothing measurable.
 * $SUDOKUBENCH_CHECKPOINT_MS overrides it (the kill test checkpoints far more often). */
enum { CHECKPOINT_MS = 1000 };

int cli_resume_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--resume"))
            return 1;
    return 0;
}

/* Options that change how a run goes (threads, the SIMD level, the progress line), never
 * the bytes of FILE, and --resume itself: left out of the run's identity, so a run killed
 * at -t 64 may go on at -t 2 or on a machine with another level. */
static const char *const no_bytes[] = {"threads", "simd", "progress", "resume"};

/* One option of a run by meaning: its long name (or "-c" when it has none) and its value. */
typedef struct {
    const char *name, *value;
} canon_opt;

/* The canonical name of short option c: the long option with the same code, else "-c". */
static const char *short_name(const struct option *lo, int c, char *own)
{
    for (; lo && lo->name; lo++)
        if (lo->val == c && !lo->flag)
            return lo->name;
    own[0] = '-', own[1] = (char)c, own[2] = 0;
    return own;
}

/* The long option that word (after "--", up to '=') names: exact, else a unique prefix as
 * getopt_long takes it. @return it, or NULL. */
static const struct option *long_named(const struct option *lo, const char *word, size_t len)
{
    const struct option *hit = NULL;
    int hits = 0;
    for (; lo && lo->name; lo++) {
        if (strncmp(lo->name, word, len))
            continue;
        if (strlen(lo->name) == len)
            return lo;
        hit = lo, hits++;
    }
    return hits == 1 ? hit : NULL;
}

/* Rewrites the options of argv (argv[1..optind-1], as getopt left them) into argv-like
 * tokens that depend on their meaning only: each option under its long name as "--NAME"
 * and its value as the next token, sorted by name (a repeated option keeps its order), the
 * no_bytes options left out, then "--" and the inputs. "--output=F", "-o F" and "-oF" are
 * one option; "-t 2 -l 5" and "-l 5 -t 3" one run. @return the token count (argv[0] kept
 * first), the tokens in *out and their bytes in *arena (free both), or -1 when memory ran
 * out. */
static int canon_args(const cli_batch *b, char **argv, char *const *files, int nfiles,
                      const char ***out, char **arena)
{
    const int nopt = optind;
    size_t room = 0;
    for (int i = 1; i < nopt; i++)
        room += strlen(argv[i]) + 1;
    canon_opt *o = malloc((room + 1) * sizeof *o);
    const char **v = malloc((2 * room + (size_t)nfiles + 3) * sizeof *v);
    char *names = malloc(3 * room + 1); /* "-c" names of short options without a long one */
    if (!o || !v || !names) {
        free(o), free(v), free(names);
        return -1;
    }
    const char *opts = b->getopt_opts ? b->getopt_opts : "";
    const struct option *lo = b->getopt_longopts;
    size_t n = 0, used = 0;
    for (int i = 1; i < nopt; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--") || a[0] != '-' || !a[1]) {
            continue; /* the end of the options, or an operand getopt left among them */
        } else if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            const struct option *l = long_named(lo, a + 2, eq ? (size_t)(eq - a - 2)
                                                               : strlen(a + 2));
            canon_opt c = {l ? l->name : a, NULL};
            if (l && l->has_arg != no_argument)
                c.value = eq ? eq + 1 : l->has_arg == required_argument && i + 1 < nopt
                                            ? argv[++i] : NULL;
            o[n++] = c;
        } else {
            for (const char *p = a + 1; *p; p++) {
                const char *d = *p == ':' ? NULL : strchr(opts, *p);
                canon_opt c = {short_name(lo, *p, names + used), NULL};
                if (c.name == names + used)
                    used += 3;
                o[n++] = c;
                if (d && d[1] == ':') { /* the rest of the word, or the next one, is its value */
                    o[n - 1].value = p[1] ? p + 1 : i + 1 < nopt ? argv[++i] : NULL;
                    break;
                }
            }
        }
    }
    /* A stable insertion sort: few options, and a repeated one keeps its order. */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(o[j - 1].name, o[j].name) > 0; j--) {
            const canon_opt t = o[j];
            o[j] = o[j - 1], o[j - 1] = t;
        }
    size_t spell = 1; /* "--NAME" for each long name */
    for (size_t i = 0; i < n; i++)
        spell += strlen(o[i].name) + 3;
    char *dashed = malloc(spell), *at = dashed;
    if (!dashed) {
        free(o), free(v), free(names);
        return -1;
    }
    int k = 0;
    v[k++] = argv[0];
    for (size_t i = 0; i < n; i++) {
        int skip = 0;
        for (size_t q = 0; q < sizeof no_bytes / sizeof *no_bytes; q++)
            skip |= !strcmp(o[i].name, no_bytes[q]);
        if (skip)
            continue;
        if (o[i].name[0] == '-') { /* "-c" already, or a word getopt took that none names */
            v[k++] = o[i].name;
        } else {
            v[k++] = at;
            at += sprintf(at, "--%s", o[i].name) + 1;
        }
        v[k++] = o[i].value ? o[i].value : ""; /* every option has a value token: no token
                                                  can be taken for another's value */
    }
    v[k++] = "--";
    for (int i = 0; i < nfiles; i++)
        v[k++] = files[i];
    free(o);
    free(names);
    *out = v, *arena = dashed;
    return k;
}

int cli_resume_inputs(const char *cmd, const cli_batch *b, char *const *files, int nfiles)
{
    if (!b->out_name)
        return cli_usage_error(cmd, "--resume needs -o FILE");
    if (!files || nfiles == 0)
        return cli_usage_error(cmd, "--resume needs named input files, not standard input");
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        if (!strcmp(files[i], "-"))
            return cli_usage_error(cmd, "--resume needs named input files, not standard input");
        if (stat(files[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            char *name = cli_msg_dup(files[i]);
            cli_usage_error(cmd, "--resume needs inputs that can be read again: '%s' is not a "
                                 "regular file (a pipe or a FIFO)",
                            name ? name : files[i]);
            free(name);
            return CLI_EXIT_USAGE;
        }
    }
    return 0;
}

/* The checks every resumed run starts with (sb_side_open of src/app/ on -o FILE, open as
 * standard output), each refusal said here. @return SB_SIDE_FRESH, SB_SIDE_RESUME or
 * SB_SIDE_DONE (*done_rc: the finished run's exit code), or -1 after a message (exit with
 * CLI_EXIT_USAGE); side is filled either way (free it). */
static int side_check(const char *cmd, const cli_batch *b, int argc, char **argv,
                      char *const *files, int nfiles, sb_side *side, int *done_rc)
{
    if (!b->out_name) {
        memset(side, 0, sizeof *side);
        return cli_usage_error(cmd, "--resume needs -o FILE"), -1;
    }
    const char *out = b->out_name, *path = side->path;
    const char **cargv;
    char *arena;
    (void)argc;
    const int cargc = canon_args(b, argv, files, nfiles, &cargv, &arena);
    if (cargc < 0) {
        memset(side, 0, sizeof *side);
        return cli_oom(), -1;
    }
    const int st = sb_side_open(side, out, STDOUT_FILENO, cmd, cargc, (char *const *)cargv,
                                files, nfiles);
    free(cargv);
    free(arena);
    const char *why = strerror(side->err);
    switch (st) {
    case SB_SIDE_FRESH:
    case SB_SIDE_RESUME: return st;
    case SB_SIDE_LONG: cli_usage_error(cmd, "--resume: output path too long"); break;
    case SB_SIDE_STDIN:
        cli_usage_error(cmd, "--resume needs named input files, not standard input");
        break;
    case SB_SIDE_EXAMINE:
        cli_usage_error(cmd, "--resume: cannot examine '%s': %s", files[side->bad], why);
        break;
    case SB_SIDE_NOMEM: cli_oom(); break;
    case SB_SIDE_UNSEEKABLE:
        cli_usage_error(cmd, "--resume needs inputs that can be read again: '%s' is not a "
                             "regular file (a pipe or a FIFO)",
                        files[side->bad]);
        break;
    case SB_SIDE_IRREGULAR:
        fprintf(stderr, CLI_NAME ": --resume: '%s' is not a regular file\n", out);
        break;
    case SB_SIDE_UNREADABLE:
        fprintf(stderr, CLI_NAME ": --resume: cannot read '%s': %s\n", path, why);
        break;
    case SB_SIDE_ORPHAN:
        fprintf(stderr,
                CLI_NAME ": --resume: '%s' holds output but no side file '%s' says what "
                         "made it: not resuming over it\n",
                out, path);
        break;
    case SB_SIDE_UNWRITABLE:
        fprintf(stderr, CLI_NAME ": --resume: cannot write '%s': %s\n", path, why);
        break;
    case SB_SIDE_OTHER:
        fprintf(stderr,
                CLI_NAME ": --resume: '%s' was written by another command, other options or "
                         "other input (see '%s'); not resuming\n",
                out, path);
        break;
    case SB_SIDE_BROKEN:
        fprintf(stderr,
                CLI_NAME ": --resume: an input of the run that wrote '%s' failed part-way, so "
                         "its records after the failure do not line up with the input; not "
                         "resuming (run it again without --resume)\n",
                out);
        break;
    default: /* SB_SIDE_DONE: finished, nothing to do */
        fprintf(stderr, CLI_NAME ": '%s' is complete: nothing to resume\n", out);
        *done_rc = side->done_rc;
        return st;
    }
    return -1;
}

/* cli_resume_begin on one process (rank 0 under MPI). */
static int resume_begin(const char *cmd, cli_batch *b, int argc, char **argv,
                        char *const *files, int nfiles, int header_lines, int *has_header)
{
    *has_header = 0;
    sb_side side;
    int done_rc = 0, rc = CLI_EXIT_USAGE;
    const int st = side_check(cmd, b, argc, argv, files, nfiles, &side, &done_rc);
    sb_side_free(&side);
    if (st == SB_SIDE_FRESH || st == SB_SIDE_DONE)
        return st == SB_SIDE_FRESH ? 0 : -1 - done_rc; /* done: the finished run's exit code */
    if (st != SB_SIDE_RESUME)
        return rc;
    /* Cut a torn last record and count the whole ones. */
    const int cut = sb_side_cut(b->out_name, STDOUT_FILENO, header_lines, &b->skip, has_header);
    if (cut != SB_OK)
        fprintf(stderr, CLI_NAME ": --resume: cannot %s '%s': %s\n", cut == SB_ERR_IO ? "read"
                                                                                    : "cut",
                b->out_name, strerror(errno));
    return cut == SB_OK ? 0 : rc;
}

int cli_resume_begin(const char *cmd, cli_batch *b, int argc, char **argv, char *const *files,
                     int nfiles, int header_lines, int *has_header)
{
    /* Under MPI rank 0 alone holds FILE (batch.c) and every rank learns its outcome. */
    long long v[3] = {0, 0, 0};
    if (cli_mpi_rank() == 0) {
        v[0] = resume_begin(cmd, b, argc, argv, files, nfiles, header_lines, has_header);
        v[1] = *has_header, v[2] = (long long)b->skip;
    }
    cli_mpi_bcast(v, sizeof v, 0);
    *has_header = (int)v[1], b->skip = (uint64_t)v[2];
    return (int)v[0];
}

/* cli_resume_counts_begin on one process (rank 0 under MPI). */
static int counts_begin(const char *cmd, cli_batch *b, int argc, char **argv,
                        char *const *files, int nfiles, cli_checkpoint *cp, uint64_t *counts,
                        int ncounts)
{
    int done_rc = 0, rc = CLI_EXIT_USAGE;
    const int st = side_check(cmd, b, argc, argv, files, nfiles, &cp->side, &done_rc);
    if (st == SB_SIDE_DONE)
        rc = -1 - done_rc;
    if (st == SB_SIDE_RESUME && sb_side_counts(&cp->side, &b->skip, counts, ncounts) != SB_OK) {
        fprintf(stderr, CLI_NAME ": --resume: '%s' is damaged: not resuming\n", cp->side.path);
        goto out;
    }
    if (st == SB_SIDE_FRESH || st == SB_SIDE_RESUME) {
        /* The output comes at the end only: whatever a killed run left (an interrupted run's
         * summary) goes; the counts carry the records before the checkpoint. */
        if (ftruncate(STDOUT_FILENO, 0) != 0 || lseek(STDOUT_FILENO, 0, SEEK_SET) < 0) {
            fprintf(stderr, CLI_NAME ": --resume: cannot cut '%s': %s\n", b->out_name,
                    strerror(errno));
            goto out;
        }
        const char *env = getenv("SUDOKUBENCH_CHECKPOINT_MS");
        cp->every = (env && *env ? atof(env) : CHECKPOINT_MS) / 1000.0;
        cp->last = cli_now_seconds();
        cp->active = 1;
        rc = 0;
    }
out:
    if (rc)
        sb_side_free(&cp->side);
    return rc;
}

int cli_resume_counts_begin(const char *cmd, cli_batch *b, int argc, char **argv,
                            char *const *files, int nfiles, cli_checkpoint *cp,
                            uint64_t *counts, int ncounts)
{
    /* Under MPI only rank 0 commits records, so only its checkpoints and counts count. */
    long long v[2] = {0, 0};
    memset(cp, 0, sizeof *cp);
    memset(counts, 0, (size_t)ncounts * sizeof *counts);
    if (cli_mpi_rank() == 0) {
        v[0] = counts_begin(cmd, b, argc, argv, files, nfiles, cp, counts, ncounts);
        v[1] = (long long)b->skip;
    }
    cli_mpi_bcast(v, sizeof v, 0);
    b->skip = (uint64_t)v[1];
    return (int)v[0];
}

int cli_resume_checkpoint(cli_checkpoint *cp, uint64_t records, const uint64_t *counts,
                          int ncounts, int force)
{
    if (!cp->active)
        return cp->failed ? -1 : 0;
    const double now = cli_now_seconds();
    if (!force && now - cp->last < cp->every)
        return 0;
    cp->last = now;
    const int st = sb_side_checkpoint(&cp->side, records, counts, ncounts);
    if (st == SB_ERR_STOPPED) { /* an input failed (cli_resume_broken): no count stands now */
        cp->active = 0;
    } else if (st != SB_OK) {
        fprintf(stderr, CLI_NAME ": --resume: write error: cannot update '%s': %s\n",
                cp->side.path, strerror(st == SB_ERR_NOMEM ? ENOMEM : errno));
        cp->active = 0, cp->failed = 1;
        return -1;
    }
    return 0;
}

/* Appends line to b's side file, unless it holds line already (after a '\n') when once.
 * @return 0, or -1 after a message. */
static int side_append(const cli_batch *b, const char *line, int once)
{
    char side[SB_SIDE_PATH];
    int st;
    if (!b->out_name || (st = sb_side_append(b->out_name, line, once)) == SB_OK)
        return 0;
    const int err = st == SB_ERR_NOMEM ? ENOMEM : errno;
    if (sb_side_path(b->out_name, side) == SB_OK)
        fprintf(stderr, CLI_NAME ": --resume: write error: cannot update '%s': %s\n", side,
                strerror(err));
    return -1;
}

void cli_resume_broken(const cli_batch *b)
{
    (void)side_append(b, "broken\n", 1); /* said; the failed input already makes it exit 2 */
}

void cli_checkpoint_free(cli_checkpoint *cp)
{
    sb_side_free(&cp->side);
    cp->active = 0;
}

int cli_resume_end(const cli_batch *b, int rc)
{
    if (!b->resume || !b->out_name || (rc != CLI_EXIT_OK && rc != CLI_EXIT_INVALID) ||
        cli_mpi_rank() != 0) /* MPI: rank 0 holds FILE and its side file */
        return rc;
    char line[32];
    fflush(stdout);
    fsync(STDOUT_FILENO); /* the records are on disk before the side file says so */
    snprintf(line, sizeof line, "done %d\n", rc);
    return side_append(b, line, 0) ? CLI_EXIT_USAGE : rc;
}
