/*
 * resume.c — `-o FILE --resume` (issue 16, docs/reliability.md): a run killed part-way
 * continues after the last whole record of FILE, and the finished FILE is byte-identical to
 * an uninterrupted run.
 *
 * A side file FILE.resume, written before the first record, identifies the run: the command,
 * every argument but --resume, and each input's path, size and modification time. Resuming
 * compares it line for line (a mismatch is refused: FILE came from another input or other
 * options), cuts FILE after its last '\n' (a record torn by the kill), counts the whole
 * records in it (lines, less the format's header lines) and has the batch engine read and
 * drop that many input records before it handles any (cli_batch.skip). A run that ends with
 * exit 0 or 1 appends "done RC" to the side file: resuming it again does nothing.
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
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char side_suffix[] = ".resume";
static const char side_magic[] = "sudokubench resume 1\n";

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

/* Appends the identity of the run to b: magic, command, arguments, inputs. @return 0, or -1
 * after a usage message (standard input, or an input that cannot be examined). */
static int identity(const char *cmd, int argc, char **argv, char *const *files, int nfiles,
                    cli_buf *id)
{
    cli_buf_printf(id, "%scommand %s\n", side_magic, cmd);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--resume"))
            cli_buf_printf(id, "arg %s\n", argv[i]); /* a '\n' inside stays: compared whole */
    if (nfiles == 0)
        return cli_usage_error(cmd, "--resume needs named input files, not standard input"), -1;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        if (!strcmp(files[i], "-"))
            return cli_usage_error(cmd, "--resume needs named input files, not standard input"),
                   -1;
        if (stat(files[i], &st) != 0)
            return cli_usage_error(cmd, "--resume: cannot examine '%s': %s", files[i],
                                   strerror(errno)),
                   -1;
        cli_buf_printf(id, "input %s size %lld mtime %lld.%09ld\n", files[i],
                       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                       st.st_mtim.tv_nsec);
    }
    return id->oom ? -1 : 0;
}

/* Reads a whole small file into b (NUL-terminated). @return 0, or -1 (errno set). */
static int slurp(const char *path, cli_buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        cli_buf_put(b, chunk, n);
    const int bad = ferror(f) || b->oom;
    fclose(f);
    cli_buf_put(b, "", 1);
    return bad || b->oom ? -1 : 0;
}

/* Writes len bytes to path through a temporary file renamed over it, so a kill leaves the
 * old side file or the new one, never half of one. @return 0, or -1. */
static int write_side(const char *path, const char *data, size_t len)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return -1;
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    const int ok = fwrite(data, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
    if (fclose(f) != 0 || !ok)
        return -1;
    return rename(tmp, path);
}

/* The side file's path for b->out_name into side (4096 bytes). @return 0, or -1 when too long. */
static int side_path(const cli_batch *b, char *side)
{
    return (size_t)snprintf(side, 4096, "%s%s", b->out_name, side_suffix) >= 4096 ? -1 : 0;
}

/* What side_check found. */
enum { SIDE_FRESH = 100, SIDE_RESUME, SIDE_DONE }; /* apart from the exit codes */

/* The checks every resumed run starts with: -o FILE, a regular file; then the side
 * file of a fresh run is written (FILE must be empty), or the existing one compared with the
 * identity id (filled here). old gets the side file's text (NUL-terminated) and *tail the
 * offset of what follows the identity: "" (nothing checkpointed), "at ..." then maybe
 * "done RC". @return SIDE_*, or CLI_EXIT_USAGE after a message; on SIDE_DONE, *done_rc is
 * the finished run's exit code. */
static int side_check(const char *cmd, const cli_batch *b, int argc, char **argv,
                      char *const *files, int nfiles, cli_buf *id, cli_buf *old, size_t *tail,
                      int *done_rc)
{
    char side[4096];
    if (!b->out_name)
        return cli_usage_error(cmd, "--resume needs -o FILE");
    if (side_path(b, side) != 0)
        return cli_usage_error(cmd, "--resume: output path too long");
    if (identity(cmd, argc, argv, files, nfiles, id) != 0)
        return CLI_EXIT_USAGE;
    struct stat st;
    if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, CLI_NAME ": --resume: '%s' is not a regular file\n", b->out_name);
        return CLI_EXIT_USAGE;
    }
    if (slurp(side, old) != 0) {
        if (errno != ENOENT) {
            fprintf(stderr, CLI_NAME ": --resume: cannot read '%s': %s\n", side, strerror(errno));
            return CLI_EXIT_USAGE;
        }
        if (st.st_size > 0) {
            fprintf(stderr,
                    CLI_NAME ": --resume: '%s' holds output but no side file '%s' says what "
                             "made it: not resuming over it\n",
                    b->out_name, side);
            return CLI_EXIT_USAGE;
        }
        if (write_side(side, id->data, id->len) != 0) { /* a fresh run: identify it first */
            fprintf(stderr, CLI_NAME ": --resume: cannot write '%s': %s\n", side,
                    strerror(errno));
            return CLI_EXIT_USAGE;
        }
        return SIDE_FRESH;
    }
    const char *rest = old->len - 1 < id->len ? NULL : old->data + id->len;
    if (!rest || memcmp(old->data, id->data, id->len) ||
        (*rest && strncmp(rest, "at ", 3) && strncmp(rest, "done ", 5) &&
         strcmp(rest, "broken\n"))) {
        fprintf(stderr,
                CLI_NAME ": --resume: '%s' was written by another command, other options or "
                         "other input (see '%s'); not resuming\n",
                b->out_name, side);
        return CLI_EXIT_USAGE;
    }
    *tail = id->len;
    if (!strcmp(rest, "broken\n") || strstr(rest, "\nbroken\n")) { /* cli_resume_broken */
        fprintf(stderr,
                CLI_NAME ": --resume: an input of the run that wrote '%s' failed part-way, so "
                         "its records after the failure do not line up with the input; not "
                         "resuming (run it again without --resume)\n",
                b->out_name);
        return CLI_EXIT_USAGE;
    }
    const char *done = !strncmp(rest, "done ", 5) ? rest : strstr(rest, "\ndone ");
    if (done) { /* "done RC": finished, nothing to do */
        fprintf(stderr, CLI_NAME ": '%s' is complete: nothing to resume\n", b->out_name);
        *done_rc = atoi(done + (*done == '\n') + 5);
        return SIDE_DONE;
    }
    return SIDE_RESUME;
}

/* cli_resume_begin on one process (rank 0 under MPI). */
static int resume_begin(const char *cmd, cli_batch *b, int argc, char **argv,
                        char *const *files, int nfiles, int header_lines, int *has_header)
{
    *has_header = 0;
    cli_buf id = {0}, old = {0};
    size_t tail = 0;
    int done_rc = 0, rc = CLI_EXIT_USAGE;
    const int st = side_check(cmd, b, argc, argv, files, nfiles, &id, &old, &tail, &done_rc);
    if (st == SIDE_FRESH || st == SIDE_DONE)
        rc = st == SIDE_FRESH ? 0 : -1 - done_rc; /* done: the finished run's exit code */
    if (st != SIDE_RESUME)
        goto out;
    /* Cut a torn last record and count the whole ones. */
    cli_buf content = {0};
    if (slurp(b->out_name, &content) != 0) {
        fprintf(stderr, CLI_NAME ": --resume: cannot read '%s': %s\n", b->out_name,
                strerror(errno));
        cli_buf_free(&content);
        goto out;
    }
    size_t whole = 0;
    uint64_t lines = 0;
    /* A NUL byte is a hole no record wrote: an MPI rank lost with its host before writing its
     * segment while a later rank wrote its own (mpi.c). The records end before it. */
    for (size_t i = 0; i + 1 < content.len && content.data[i]; i++)
        if (content.data[i] == '\n') {
            whole = i + 1;
            lines++;
        }
    cli_buf_free(&content);
    if (lines < (uint64_t)header_lines) { /* not even the header: start again */
        whole = 0;
        lines = 0;
    }
    if (ftruncate(STDOUT_FILENO, (off_t)whole) != 0 ||
        lseek(STDOUT_FILENO, 0, SEEK_END) < 0) {
        fprintf(stderr, CLI_NAME ": --resume: cannot cut '%s': %s\n", b->out_name,
                strerror(errno));
        goto out;
    }
    *has_header = header_lines > 0 && lines >= (uint64_t)header_lines;
    b->skip = lines - (lines ? (uint64_t)header_lines : 0);
    rc = 0;
out:
    cli_buf_free(&id);
    cli_buf_free(&old);
    return rc;
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
    cli_buf old = {0};
    size_t tail = 0;
    int done_rc = 0, rc = CLI_EXIT_USAGE;
    memset(cp, 0, sizeof *cp);
    memset(counts, 0, (size_t)ncounts * sizeof *counts);
    const int st = side_check(cmd, b, argc, argv, files, nfiles, &cp->id, &old, &tail, &done_rc);
    if (st == SIDE_DONE)
        rc = -1 - done_rc;
    if (st == SIDE_RESUME && old.data[tail]) { /* "at RECORDS C1 .. Cn\n": the checkpoint */
        char *p = old.data + tail + 3, *q;
        int ok = 1;
        errno = 0;
        b->skip = strtoull(p, &q, 10);
        for (int i = 0; i < ncounts && ok; i++) {
            ok = q > p && *q == ' ';
            p = q + 1;
            counts[i] = strtoull(p, &q, 10);
        }
        if (!ok || q == p || *q != '\n' || q[1] || errno) {
            fprintf(stderr, CLI_NAME ": --resume: '%s%s' is damaged: not resuming\n",
                    b->out_name, side_suffix);
            goto out;
        }
    }
    if (st == SIDE_FRESH || st == SIDE_RESUME) {
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
        cp->out_name = b->out_name;
        cp->active = 1;
        rc = 0;
    }
out:
    if (rc)
        cli_buf_free(&cp->id);
    cli_buf_free(&old);
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

void cli_resume_checkpoint(cli_checkpoint *cp, uint64_t records, const uint64_t *counts,
                           int ncounts, int force)
{
    if (!cp->active)
        return;
    const double now = cli_now_seconds();
    if (!force && now - cp->last < cp->every)
        return;
    cp->last = now;
    char side[4096];
    cli_buf text = {0};
    /* An input failed (cli_resume_broken): the counts no longer match a record count */
    if ((size_t)snprintf(side, sizeof side, "%s%s", cp->out_name, side_suffix) < sizeof side &&
        slurp(side, &text) == 0 && text.len > cp->id.len &&
        strstr(text.data + cp->id.len, "broken\n")) {
        cp->active = 0;
        cli_buf_free(&text);
        return;
    }
    text.len = 0;
    cli_buf_put(&text, cp->id.data, cp->id.len);
    cli_buf_printf(&text, "at %llu", (unsigned long long)records);
    for (int i = 0; i < ncounts; i++)
        cli_buf_printf(&text, " %llu", (unsigned long long)counts[i]);
    cli_buf_put(&text, "\n", 1);
    /* A checkpoint that cannot be written costs only work on a resume: said, not fatal. */
    if ((size_t)snprintf(side, sizeof side, "%s%s", cp->out_name, side_suffix) < sizeof side &&
        (text.oom || write_side(side, text.data, text.len) != 0) && !cp->warned) {
        fprintf(stderr, CLI_NAME ": --resume: cannot update '%s': %s\n", side,
                text.oom ? strerror(ENOMEM) : strerror(errno));
        cp->warned = 1;
    }
    cli_buf_free(&text);
}

/* Appends line to b's side file, unless it holds line already (after a '\n') when once. */
static void side_append(const cli_batch *b, const char *line, int once)
{
    char side[4096], seen[32];
    cli_buf old = {0};
    if (!b->out_name || side_path(b, side) != 0)
        return;
    snprintf(seen, sizeof seen, "\n%s", line);
    if (slurp(side, &old) == 0 && !(once && strstr(old.data, seen))) {
        old.len--; /* drop the NUL slurp added */
        cli_buf_put(&old, line, strlen(line));
        if (!old.oom && write_side(side, old.data, old.len) != 0)
            fprintf(stderr, CLI_NAME ": --resume: cannot update '%s': %s\n", side,
                    strerror(errno));
    }
    cli_buf_free(&old);
}

void cli_resume_broken(const cli_batch *b)
{
    side_append(b, "broken\n", 1);
}

void cli_checkpoint_free(cli_checkpoint *cp)
{
    cli_buf_free(&cp->id);
    cp->active = 0;
}

void cli_resume_end(const cli_batch *b, int rc)
{
    if (!b->resume || !b->out_name || (rc != CLI_EXIT_OK && rc != CLI_EXIT_INVALID) ||
        cli_mpi_rank() != 0) /* MPI: rank 0 holds FILE and its side file */
        return;
    char line[32];
    fflush(stdout);
    fsync(STDOUT_FILENO); /* the records are on disk before the side file says so */
    snprintf(line, sizeof line, "done %d\n", rc);
    side_append(b, line, 0);
}
