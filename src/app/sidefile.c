/*
 * sidefile.c — the side file of a resumable output (app.h, "Resumable outputs"), part of the
 * programs' layer: FILE.resume names the run that writes FILE (its command, arguments and
 * inputs), so a run killed part-way can be continued after FILE's last whole record, and
 * records how the run ended or, for a run whose output is a summary, the counts at its last
 * checkpoint. Every rewrite goes through a temporary file renamed over the old one, so a kill
 * leaves the old side file or the new one, never half of one. The caller prints; this file
 * never does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"

static const char side_suffix[] = ".resume";
static const char side_magic[] = "sudokubench resume 1\n";

int sb_side_path(const char *out, char path[SB_SIDE_PATH])
{
    if (!out || !path)
        return SB_ERR_ARG;
    return (size_t)snprintf(path, SB_SIDE_PATH, "%s%s", out, side_suffix) >= SB_SIDE_PATH
               ? SB_ERR_ARG
               : SB_OK;
}

/* Reads the whole file at path into b, NUL-terminated (the NUL counted in b->len).
 * @return SB_OK; SB_ERR_IO or SB_ERR_NOMEM (errno set). */
static int file_read(const char *path, sb_buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return SB_ERR_IO;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_buf_put(b, chunk, n);
    const int bad = ferror(f);
    fclose(f);
    sb_buf_put(b, "", 1);
    if (b->oom)
        errno = ENOMEM;
    return bad ? SB_ERR_IO : b->oom ? SB_ERR_NOMEM : SB_OK;
}

/* Replaces the file at path by len bytes of data through a new temporary beside it
 * (path.XXXXXX.tmp from mkstemps: a new name, never an input's), synced and renamed over it; a
 * failed write removes the temporary, so nothing torn is left. The file keeps its mode, or
 * gets fresh_mode when it is new. @return SB_OK; SB_ERR_IO
 * (errno set); SB_ERR_ARG when the temporary's name is too long. */
static int file_replace(const char *path, const char *data, size_t len, mode_t fresh_mode)
{
    char tmp[SB_SIDE_PATH + 12];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX.tmp", path) >= sizeof tmp)
        return SB_ERR_ARG;
    const int fd = mkstemps(tmp, 4);
    if (fd < 0)
        return SB_ERR_IO;
    struct stat st; /* mkstemps made it 0600 */
    const mode_t mode = stat(path, &st) == 0 ? st.st_mode & 07777 : fresh_mode;
    int ok = fchmod(fd, mode) == 0;
    while (ok && len > 0) { /* write(2) itself: a short write is retried, a failure seen */
        const ssize_t k = write(fd, data, len);
        if (k < 0 && errno == EINTR)
            continue;
        ok = k > 0;
        if (ok)
            data += k, len -= (size_t)k;
    }
    ok = ok && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok)
        ok = 0, e = errno;
    if (ok && rename(tmp, path) != 0)
        ok = 0, e = errno;
    if (!ok) {
        unlink(tmp);
        errno = e;
        return SB_ERR_IO;
    }
    return SB_OK;
}

/* Arguments that take no value (every other option does: "-X V", "-XV", "--NAME V" or
 * "--NAME=V"), so that the walk in identity() knows which tokens are values. An option
 * missing here is walked as one with a value: its next token stays in the identity, never
 * out of it. */
static const char *const no_value[] = {"--resume", "--help", "-h", "--stats", "--minimal",
                                       "--all"};

/* Options left out of the identity with their values: they change how a run goes (threads,
 * the SIMD level, the progress line on stderr), never the bytes of FILE, so a run killed at
 * -t 64 may go on at -t 2 or on a machine with another level. */
static const char *const no_bytes[] = {"-t", "--threads", "--simd", "--progress"};

/* @return 1 when the first len bytes of arg are one of the n names in list. */
static int listed(const char *arg, size_t len, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && !strncmp(arg, list[i], len))
            return 1;
    return 0;
}

/* @return 1 when option arg is one of no_bytes: 2 with its value inside ("-t4",
 * "--simd=avx2"), 1 with its value in the next token, 0 when it is another. */
static int no_bytes_option(const char *arg)
{
    const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
    const size_t len = eq ? (size_t)(eq - arg) : arg[1] == '-' ? strlen(arg) : 2;
    if (!listed(arg, len, no_bytes, sizeof no_bytes / sizeof *no_bytes))
        return 0;
    return eq || (arg[1] != '-' && arg[2]) ? 2 : 1;
}

/* Appends the identity of a run to s->id: magic, command, arguments but --resume and the
 * no_bytes options (argv as getopt left it: options and their values first, then "--", then
 * the operands), inputs with their size and modification time. @return SB_SIDE_FRESH when
 * done, else why not. */
static int identity(sb_side *s, const char *cmd, int argc, char *const *argv, char *const *files,
                    int nfiles)
{
    sb_buf_printf(&s->id, "%scommand %s\n", side_magic, cmd);
    int operands = 0; /* after "--": every token is kept as it is */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int option = !operands && a[0] == '-' && a[1];
        operands |= option && !strcmp(a, "--");
        const int skip = option ? no_bytes_option(a) : 0;
        if (skip) {
            i += skip == 1; /* its value too */
            continue;
        }
        if (option && !strcmp(a, "--resume"))
            continue;
        sb_buf_printf(&s->id, "arg %s\n", a); /* a '\n' inside stays: compared whole */
        /* The value of an option in the next token is kept as a value, never walked as an
         * option (an "-o -t" keeps its "-t") */
        const int valued = !listed(a, strlen(a), no_value, sizeof no_value / sizeof *no_value);
        if (option && !operands && valued && !strchr(a, '=') && (a[1] == '-' || !a[2]) &&
            i + 1 < argc)
            sb_buf_printf(&s->id, "arg %s\n", argv[++i]);
    }
    s->bad = -1;
    if (nfiles == 0)
        return SB_SIDE_STDIN;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        s->bad = i;
        if (!strcmp(files[i], "-"))
            return SB_SIDE_STDIN;
        if (stat(files[i], &st) != 0)
            return s->err = errno, SB_SIDE_EXAMINE;
        if (!S_ISREG(st.st_mode)) /* <(...), a FIFO: read once, gone on a resume */
            return SB_SIDE_UNSEEKABLE;
        sb_buf_printf(&s->id, "input %s size %lld mtime %lld.%09ld\n", files[i],
                      (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    }
    return s->id.oom ? SB_SIDE_NOMEM : SB_SIDE_FRESH;
}

int sb_side_open(sb_side *s, const char *out, int out_fd, const char *cmd, int argc,
                 char *const *argv, char *const *files, int nfiles)
{
    if (!s)
        return SB_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (!out || !cmd || argc < 0 || nfiles < 0 || (argc > 1 && !argv) || (nfiles && !files))
        return SB_ERR_ARG;
    for (int i = 1; i < argc; i++)
        if (!argv[i])
            return SB_ERR_ARG;
    for (int i = 0; i < nfiles; i++)
        if (!files[i])
            return SB_ERR_ARG;
    if (sb_side_path(out, s->path) != SB_OK)
        return SB_SIDE_LONG;
    int st = identity(s, cmd, argc, argv, files, nfiles);
    if (st != SB_SIDE_FRESH)
        return st;
    struct stat o;
    if (fstat(out_fd, &o) != 0 || !S_ISREG(o.st_mode))
        return SB_SIDE_IRREGULAR;
    if ((st = file_read(s->path, &s->old)) != SB_OK) {
        s->err = errno;
        if (s->err != ENOENT)
            return SB_SIDE_UNREADABLE;
        if (o.st_size > 0)
            return SB_SIDE_ORPHAN;
        /* identify it first, readable by whoever may read FILE */
        if (file_replace(s->path, s->id.data, s->id.len, o.st_mode & 0666) != SB_OK)
            return s->err = errno, SB_SIDE_UNWRITABLE;
        return SB_SIDE_FRESH;
    }
    const char *rest = s->old.len - 1 < s->id.len ? NULL : s->old.data + s->id.len;
    if (!rest || memcmp(s->old.data, s->id.data, s->id.len) ||
        (*rest && strncmp(rest, "at ", 3) && strncmp(rest, "done ", 5) &&
         strcmp(rest, "broken\n")))
        return SB_SIDE_OTHER;
    if (!strcmp(rest, "broken\n") || strstr(rest, "\nbroken\n"))
        return SB_SIDE_BROKEN;
    const char *done = !strncmp(rest, "done ", 5) ? rest : strstr(rest, "\ndone ");
    if (done) /* "done RC": finished, nothing to do */
        return s->done_rc = atoi(done + (*done == '\n') + 5), SB_SIDE_DONE;
    return SB_SIDE_RESUME;
}

void sb_side_free(sb_side *s)
{
    if (!s)
        return;
    sb_buf_free(&s->id);
    sb_buf_free(&s->old);
}

int sb_side_cut(const char *out, int out_fd, int header_lines, uint64_t *records,
                int *has_header)
{
    if (!out || header_lines < 0 || !records || !has_header)
        return SB_ERR_ARG;
    FILE *f = fopen(out, "rb");
    if (!f)
        return SB_ERR_IO;
    /* A NUL byte is a hole no record wrote (a process lost before writing its part while a
     * later one wrote its own): the records end before it. */
    char chunk[4096];
    size_t n;
    uint64_t at = 0, whole = 0, lines = 0;
    int hole = 0;
    while (!hole && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        for (size_t i = 0; i < n && !(hole = !chunk[i]); i++)
            if (chunk[i] == '\n')
                whole = at + i + 1, lines++;
        at += n;
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad)
        return SB_ERR_IO;
    if (lines < (uint64_t)header_lines) /* not even the header: start again */
        whole = 0, lines = 0;
    if (ftruncate(out_fd, (off_t)whole) != 0 || lseek(out_fd, 0, SEEK_END) < 0)
        return 1;
    *has_header = header_lines > 0 && lines >= (uint64_t)header_lines;
    *records = lines - (lines ? (uint64_t)header_lines : 0);
    return SB_OK;
}

int sb_side_counts(const sb_side *s, uint64_t *records, uint64_t *counts, int ncounts)
{
    /* a side file that was read holds its identity and the NUL file_read adds, and after the
     * identity nothing or a checkpoint "at ..." */
    if (!s || !records || ncounts < 0 || (ncounts && !counts) ||
        (s->old.len && (s->old.len <= s->id.len ||
                        (s->old.data[s->id.len] && strncmp(s->old.data + s->id.len, "at ", 3)))))
        return SB_ERR_ARG;
    *records = 0;
    memset(counts, 0, (size_t)ncounts * sizeof *counts);
    if (!s->old.len || !s->old.data[s->id.len])
        return SB_OK; /* nothing checkpointed */
    char *p = s->old.data + s->id.len + 3, *q; /* "at RECORDS C1 .. Cn\n" */
    int ok = 1;
    errno = 0;
    *records = strtoull(p, &q, 10);
    for (int i = 0; i < ncounts && ok; i++) {
        ok = q > p && *q == ' ';
        p = q + 1;
        counts[i] = strtoull(p, &q, 10);
    }
    return !ok || q == p || *q != '\n' || q[1] || errno ? SB_ERR_ARG : SB_OK;
}

int sb_side_checkpoint(const sb_side *s, uint64_t records, const uint64_t *counts, int ncounts)
{
    if (!s || ncounts < 0 || (ncounts && !counts))
        return SB_ERR_ARG;
    sb_buf text = {0};
    /* An input failed (sb_side_append "broken"): the counts no longer match a record count */
    if (file_read(s->path, &text) == SB_OK && text.len > s->id.len &&
        strstr(text.data + s->id.len, "broken\n")) {
        sb_buf_free(&text);
        return SB_ERR_STOPPED;
    }
    text.len = 0;
    sb_buf_put(&text, s->id.data, s->id.len);
    sb_buf_printf(&text, "at %llu", (unsigned long long)records);
    for (int i = 0; i < ncounts; i++)
        sb_buf_printf(&text, " %llu", (unsigned long long)counts[i]);
    sb_buf_printf(&text, "\n");
    const int st = text.oom ? SB_ERR_NOMEM : file_replace(s->path, text.data, text.len, 0600);
    sb_buf_free(&text); /* free keeps errno (glibc 2.33 on, POSIX 2024) */
    return st;
}

int sb_side_append(const char *out, const char *line, int once)
{
    char path[SB_SIDE_PATH], seen[32];
    if (!out || !line)
        return SB_ERR_ARG;
    sb_buf old = {0};
    int st = sb_side_path(out, path);
    snprintf(seen, sizeof seen, "\n%s", line);
    if (st == SB_OK && file_read(path, &old) == SB_OK && !(once && strstr(old.data, seen))) {
        old.len--; /* the NUL file_read added */
        sb_buf_put(&old, line, strlen(line));
        st = old.oom ? SB_ERR_NOMEM : file_replace(path, old.data, old.len, 0600);
    }
    sb_buf_free(&old); /* free keeps errno (glibc 2.33 on, POSIX 2024) */
    return st;
}
