/*
 * source.c — the start of an input (app.h, "A look ahead at an input"), part of the programs'
 * layer: a look at the start of an input that consumes nothing, for picking the geometry
 * before the input is read (sb_geometry_detect), which decodes a compressed input's start
 * (unpack.c); and the opening of an input told by that look (sb_input_open).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "app.h"

/* ---- looking at the start of an input ---- */

/* How far a look has passed over the lines every reader skips at the start of an input. */
typedef struct skim {
    uint64_t lines; /* lines passed over whole */
    int in_comment; /* inside a comment line whose end has not come yet */
} skim;

/* Passes over the lines at the start of s (n bytes, continuing k; end: the input ends there)
 * that every reader skips whatever their length: comment lines ('#' first after spaces or tabs,
 * within the line's first SB_MAX_LINE bytes: the 9x9 path's rule, which the other geometries'
 * path takes in) and blank lines (spaces, tabs, '\r') of at most SB_MAX_LINE bytes (a longer
 * one is "line too long" to the 9x9 reader, so it is read). A UTF-8 BOM opening line 1 is part
 * of the line. @return the bytes passed over; *found is 1 when a line that is read starts
 * there, 0 when s ends before that is known (in a comment line, or a short line of blanks). */
static size_t skim_lines(const char *s, size_t n, int end, skim *k, int *found)
{
    size_t i = 0;
    *found = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        const size_t e = nl ? (size_t)(nl - s) : n; /* the line's end, or what is in of it */
        if (k->in_comment) {
            if (!nl)
                return n;
            k->in_comment = 0;
            k->lines++;
            i = e + 1;
            continue;
        }
        const size_t j =
            i + (k->lines == 0 && e - i >= 3 && !memcmp(s + i, "\xEF\xBB\xBF", 3) ? 3 : 0);
        size_t c = j; /* the first byte that is no space or tab */
        while (c < e && (s[c] == ' ' || s[c] == '\t'))
            c++;
        if (c < e && c - j < SB_MAX_LINE && s[c] == '#') {
            k->in_comment = 1; /* the next round finds its end */
            continue;
        }
        size_t b = c; /* the first byte that is not blank */
        while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r'))
            b++;
        if (b < e || e - j > SB_MAX_LINE) {
            *found = 1;
            return i;
        }
        if (!nl && !end)
            return i; /* blanks so far: the line may go on */
        k->lines++;
        i = nl ? e + 1 : e;
    }
    return i;
}

/* Reads up to cap bytes of fd from offset at. @return the bytes read (fewer than cap only at
 * the end of the file), or -1 (errno set). */
static int64_t read_from(int fd, char *buf, size_t cap, off_t at)
{
    size_t got = 0;
    while (got < cap) {
        const ssize_t k = pread(fd, buf + got, cap - got, at + (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (int64_t)got;
}

/* sb_input_pick_head on a regular file (fd, from offset at): passes over the lines skipped at
 * its start, however many (pread: nothing is consumed), then reads cap bytes from the first
 * line that is read. */
static int64_t head_file(int fd, off_t at, char *buf, size_t cap, sb_input_head *h)
{
    skim k = {0, 0};
    for (;;) {
        const int64_t got = read_from(fd, buf, cap, at);
        if (got < 0)
            return -1;
        const int end = (size_t)got < cap;
        int found;
        const size_t pass = skim_lines(buf, (size_t)got, end, &k, &found);
        at += (off_t)pass;
        if (found || end || pass == 0) /* pass 0: blanks as long as buf, never with a usual cap */
            break;
    }
    const int64_t got = read_from(fd, buf, cap, at);
    char next;
    h->skipped = k.lines;
    h->more = got == (int64_t)cap && pread(fd, &next, 1, at + (off_t)cap) == 1;
    return got;
}

/* The thread that gives an input's pipe back after a look read the start of it: it writes
 * into a pipe of ours, which takes the input's descriptor number, one empty line for each
 * comment or blank line read off (every reader skips an empty line as it does those, so
 * every later record and line number stays as it was), then the bytes read from the first
 * line that is read on, then moves everything else the input brings, to its end. */
typedef struct feeder {
    int from;       /* the input's pipe (a descriptor of the feeder's own) */
    int to;         /* the write end of the pipe put in its place */
    int out;        /* that pipe's read end, until it takes the input's number */
    uint64_t lines; /* the lines read off and skipped, set before go is posted */
    char *head;     /* the bytes read off from the first line that is read (cap bytes) */
    size_t n;       /* how many, set before go is posted */
    sem_t go;       /* posted when lines, head and n are set */
} feeder;

/* Writes n bytes of s to fd. @return 0, or -1 (the reader is gone: EPIPE, SIGPIPE blocked). */
static int put_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        const ssize_t k = write(fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

static void *feed(void *arg)
{
    feeder *f = arg;
    char nl[4096];
    memset(nl, '\n', sizeof nl);
    while (sem_wait(&f->go) != 0)
        ;
    int ok = 1;
    for (uint64_t left = f->lines; ok && left > 0;) {
        const size_t k = left < sizeof nl ? (size_t)left : sizeof nl;
        ok = put_all(f->to, nl, k) == 0;
        left -= k;
    }
    ok = ok && put_all(f->to, f->head, f->n) == 0;
    while (ok) { /* until the input ends, or its reader is gone */
        const ssize_t k = splice(f->from, NULL, f->to, NULL, 1 << 16, SPLICE_F_MOVE);
        if (k < 0 && errno == EAGAIN) { /* a descriptor opened non-blocking */
            struct pollfd pf = {.fd = f->from, .events = POLLIN};
            poll(&pf, 1, -1);
        } else {
            ok = k > 0 || (k < 0 && errno == EINTR);
        }
    }
    close(f->to);
    close(f->from);
    sem_destroy(&f->go);
    free(f->head);
    free(f);
    return NULL;
}

/* Starts the feeder of pipe descriptor target (holding up to cap bytes of it), waiting for
 * what to give back first (feeder_go), before a look reads anything off the pipe: once
 * something is read, nothing can fail. @return it, or NULL (then nothing may be read). */
static feeder *feeder_start(int target, size_t cap)
{
    feeder *f = calloc(1, sizeof *f);
    int q[2];
    if (!f || !(f->head = malloc(cap ? cap : 1)) || pipe2(q, O_CLOEXEC) != 0) {
        if (f)
            free(f->head);
        free(f);
        return NULL;
    }
    f->from = fcntl(target, F_DUPFD_CLOEXEC, 0);
    f->to = q[1];
    f->out = q[0];
    int e = f->from < 0 || sem_init(&f->go, 0, 0) != 0;
    if (!e) {
        /* every signal is blocked in the feeder: a stop request reaches the reading thread,
         * whose read() it must interrupt, and a reader gone is EPIPE, not SIGPIPE */
        sigset_t all, old;
        pthread_t t;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        e = pthread_create(&t, NULL, feed, f) != 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (!e)
            pthread_detach(t);
        else
            sem_destroy(&f->go);
    }
    if (e) {
        if (f->from >= 0)
            close(f->from);
        close(q[0]);
        close(q[1]);
        free(f->head);
        free(f);
        return NULL;
    }
    return f;
}

/* Lets the feeder go with the lines skipped and the n bytes of head read off, and puts its
 * pipe in place of target. */
static void feeder_go(feeder *f, int target, uint64_t lines, const char *head, size_t n)
{
    const int out = f->out;
    f->lines = lines;
    memcpy(f->head, head, n);
    f->n = n;
    sem_post(&f->go); /* f is the feeder's from here on */
    while (dup2(out, target) < 0 && (errno == EINTR || errno == EBUSY))
        ;
    close(out);
}

/* Reads the start of pipe fd, whose feeder f gives it back: passes over its comment and blank
 * lines, however many, keeping only their count, then reads into buf (cap bytes) from the
 * first line that is read until that line is whole, buf is full or the input ends. Reading
 * blocks as the readers' reads do; a descriptor opened non-blocking is polled. @return the
 * bytes in buf (h->skipped and h->more set). */
static int64_t read_head(int fd, feeder *f, int target, char *buf, size_t cap, sb_input_head *h)
{
    skim k = {0, 0};
    size_t n = 0;
    int ended = 0;
    for (;;) {
        int found;
        const size_t pass = skim_lines(buf, n, ended, &k, &found);
        memmove(buf, buf + pass, n - pass);
        n -= pass;
        if ((found && memchr(buf, '\n', n)) || ended || n == cap)
            break;
        const ssize_t got = read(fd, buf + n, cap - n);
        if (got > 0) {
            n += (size_t)got;
        } else if (got == 0) {
            ended = 1;
        } else if (errno == EAGAIN) {
            struct pollfd pf = {.fd = fd, .events = POLLIN};
            poll(&pf, 1, -1);
        } else if (errno != EINTR) {
            break; /* what was read is given back all the same */
        }
    }
    h->skipped = k.lines;
    h->more = !ended;
    feeder_go(f, target, k.lines, buf, n);
    return (int64_t)n;
}

/* The descriptor of this process that path names (/dev/stdin, /dev/fd/N, /proc/self/fd/N),
 * when it reads the pipe st describes: a look may take lines off that pipe and put a feeder
 * in its place. @return it, or -1 (another process's pipe: nothing is taken). */
static int own_fd(const char *path, const struct stat *st)
{
    const char *num = !strcmp(path, "/dev/stdin")              ? "0"
                      : !strncmp(path, "/dev/fd/", 8)          ? path + 8
                      : !strncmp(path, "/proc/self/fd/", 14) ? path + 14
                                                               : NULL;
    if (!num || *num < '0' || *num > '9')
        return -1;
    char *end;
    const long v = strtol(num, &end, 10);
    struct stat fs;
    if (*end || v > INT_MAX || fstat((int)v, &fs) != 0 || fs.st_dev != st->st_dev ||
        fs.st_ino != st->st_ino || (fcntl((int)v, F_GETFL) & O_ACCMODE) != O_RDONLY)
        return -1;
    return (int)v;
}

/* @return 1 when pipe fd has no room left (its writer, if writing, waits for a reader), so a
 * look at it cannot grow. Asked through a write end opened for the question (poll: POLLOUT
 * unset), since how many bytes fill a pipe depends on its writer's write sizes (a write that
 * does not fit the last page starts another); 0 when that cannot be asked. */
static int pipe_full(int fd)
{
    char path[48];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    const int w = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (w < 0)
        return 0;
    struct pollfd pf = {.fd = w, .events = POLLOUT};
    const int full = poll(&pf, 1, 0) == 0;
    close(w);
    return full;
}

/* A look at a pipe (fd): tee() copies what it holds into a pipe of ours without consuming
 * it. Waits until a whole line that is read is there (past the comment and blank lines that
 * open the input), the writer is done, or the look is full (cap bytes, or all the pipe can
 * hold). Without h (sb_input_peek) buf gets the bytes from the start. With h
 * (sb_input_pick_head) it gets them from the first line that is read; when the lines before
 * that line fill the look and target is this process's descriptor of the pipe (-1: none),
 * the pipe is read instead (read_head), and given back whole by a feeder put in target's
 * place. Memory: cap bytes (twice when read). */
static int64_t peek_pipe(int fd, int target, char *buf, size_t cap, sb_input_head *h)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    /* ours holds as much as the input's, so a full look is a full pipe */
    const int size = fcntl(fd, F_GETPIPE_SZ);
    if (size > 0)
        fcntl(p[1], F_SETPIPE_SZ, size);
    const int ours = fcntl(p[1], F_GETPIPE_SZ);
    size_t view = cap;
    if (size > 0 && (size_t)size < view)
        view = (size_t)size;
    if (ours > 0 && (size_t)ours < view)
        view = (size_t)ours;
    feeder *f = NULL;
    int64_t got = -1;
    for (;;) {
        const int stuck = pipe_full(fd); /* asked first: then the tee sees all it holds */
        const ssize_t k = tee(fd, p[1], view, SPLICE_F_NONBLOCK);
        if (k < 0 && errno != EAGAIN)
            break;
        size_t n = 0;
        ssize_t m;
        while (k > 0 && n < (size_t)k && (m = read(p[0], buf + n, (size_t)k - n)) > 0)
            n += (size_t)m;
        /* The writer is done when the pipe hangs up, whatever it still holds: tee() left the
         * bytes in it, so POLLIN stays set beside POLLHUP (a last line without '\n', or only
         * blank or comment lines, would otherwise be waited for forever). */
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        const int ended = k == 0 || (poll(&pf, 1, 0) > 0 && (pf.revents & POLLHUP));
        skim look = {0, 0};
        int found;
        const size_t pass = skim_lines(buf, n, ended, &look, &found);
        const int whole = found && memchr(buf + pass, '\n', n - pass); /* a line read is in */
        const int full = n >= view || stuck;
        if (h && full && !whole && !ended && pass > 0 && target >= 0 &&
            (f = feeder_start(target, cap)) != NULL)
            break; /* the look is full of lines skipped: read on past them */
        if (whole || ended || full) {
            if (h) {
                h->skipped = look.lines;
                h->more = !ended;
                memmove(buf, buf + pass, n - pass);
                n -= pass;
            }
            got = (int64_t)n;
            break;
        }
        /* Part of a line: wait for more (a writer still typing), then look again. */
        poll(&pf, 1, -1);
        usleep(10000);
    }
    close(p[0]);
    close(p[1]);
    return f ? read_head(fd, f, target, buf, cap, h) : got;
}

/* sb_input_pick_head on a compressed input, decoded by stream f: passes over the lines
 * skipped at its start, however many, then reads up to cap bytes from the first line that is
 * read. A decoding error (the look at a pipe holds only the start of the data) ends the bytes
 * known, with more set. */
static int64_t head_stream(FILE *f, char *buf, size_t cap, sb_input_head *h)
{
    skim k = {0, 0};
    size_t n = 0;
    int found = 0;
    for (;;) {
        n += fread(buf + n, 1, cap - n, f);
        const int end = n < cap;
        const size_t pass = skim_lines(buf, n, end, &k, &found);
        memmove(buf, buf + pass, n - pass);
        n -= pass;
        if (found || end || pass == 0)
            break;
    }
    n += fread(buf + n, 1, cap - n, f); /* a line that is read starts buf: fill the rest */
    h->skipped = k.lines;
    h->more = ferror(f) || (n == cap && fgetc(f) != EOF) || ferror(f);
    return (int64_t)n;
}

/* The look of sb_input_pick_head at an input whose first bytes (raw, n of them) say it is
 * compressed: decoded from regular file fd at offset at (pread: nothing consumed), or, for a
 * pipe (fd -1), from the start that a look by tee() gets of it (at most cap bytes). @return as
 * head_stream; -1 for no text this build reads (binary, or a decompressor not built in): the
 * input is then reported when it is opened for reading. */
static int64_t head_packed(sb_input_kind kind, int fd, off_t at, int pipe_fd, char *buf,
                           size_t cap, sb_input_head *h)
{
    if (!sb_input_readable(kind))
        return -1;
    char *raw = NULL;
    FILE *f;
    if (fd >= 0) {
        f = sb_unpack_fd(kind, fd, (long long)at, 0);
    } else {
        raw = malloc(cap);
        const int64_t n = raw ? peek_pipe(pipe_fd, -1, raw, cap, NULL) : -1;
        f = n >= 0 ? sb_unpack_mem(kind, raw, (size_t)n) : NULL;
    }
    const int64_t got = f ? head_stream(f, buf, cap, h) : -1;
    if (f)
        fclose(f);
    free(raw);
    return got;
}

/* A look at a pipe (fd) for sb_input_pick_head: its first bytes first, so that a compressed
 * input is decoded (head_packed) rather than read as text. */
static int64_t head_pipe(int fd, int target, char *buf, size_t cap, sb_input_head *h)
{
    char magic[SB_INPUT_SNIFF];
    const int64_t m = peek_pipe(fd, -1, magic, sizeof magic, NULL);
    const sb_input_kind kind = m > 0 ? sb_input_sniff(magic, (size_t)m) : SB_INPUT_TEXT;
    if (kind != SB_INPUT_TEXT)
        return head_packed(kind, -1, 0, fd, buf, cap, h);
    return peek_pipe(fd, target, buf, cap, h);
}

/* sb_input_peek (h NULL), or the look at one input of sb_input_pick_head. */
static int64_t look(const char *path, char *buf, size_t cap, sb_input_head *h)
{
    struct stat st;
    struct statfs fs;
    const int named = strcmp(path, "-") != 0;
    if (named && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        /* A pipe by name: an anonymous one (<(...), /dev/fd/N) opens again onto the same
         * pipe, which the name's holder keeps open, so a look by tee() takes nothing from it.
         * A FIFO's open would have to be kept for the reading: closed, what its writer
         * already left would go, and the reader's open would wait for a writer for ever. */
        if (statfs(path, &fs) != 0 || fs.f_type != PIPEFS_MAGIC)
            return -1;
        const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        const int64_t got = fd < 0 ? -1
                            : h    ? head_pipe(fd, own_fd(path, &st), buf, cap, h)
                                   : peek_pipe(fd, -1, buf, cap, NULL);
        if (fd >= 0)
            close(fd);
        return got;
    }
    /* O_NONBLOCK: a FIFO that appeared since the stat must not hold the open */
    const int fd = named ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : STDIN_FILENO;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (named && !S_ISREG(st.st_mode))) {
        if (named)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode))
        return !S_ISFIFO(st.st_mode) ? -1
               : h                   ? head_pipe(fd, STDIN_FILENO, buf, cap, h)
                                     : peek_pipe(fd, -1, buf, cap, NULL);
    const off_t at = named ? 0 : lseek(fd, 0, SEEK_CUR);
    char magic[SB_INPUT_SNIFF];
    const int64_t m = at >= 0 && h ? read_from(fd, magic, sizeof magic, at) : 0;
    const sb_input_kind kind = m > 0 ? sb_input_sniff(magic, (size_t)m) : SB_INPUT_TEXT;
    const int64_t got = at < 0                  ? -1
                        : kind != SB_INPUT_TEXT ? head_packed(kind, fd, at, -1, buf, cap, h)
                        : h                     ? head_file(fd, at, buf, cap, h)
                                                : read_from(fd, buf, cap, at);
    if (named)
        close(fd);
    return got;
}

int64_t sb_input_peek(const char *path, char *buf, size_t cap)
{
    if (!path || (!buf && cap)) {
        errno = EINVAL;
        return -1;
    }
    return look(path, buf, cap, NULL);
}

int64_t sb_input_pick(const char *const *paths, int n, char *buf, size_t cap, int *at,
                      int *fifo)
{
    if (!at || !fifo || (!paths && n > 0) || (!buf && cap)) {
        if (at)
            *at = 0;
        if (fifo)
            *fifo = -1;
        errno = EINVAL;
        return -1;
    }
    *at = 0;
    *fifo = -1;
    for (int i = 0; i < (n > 0 ? n : 1); i++) {
        const char *path = n > 0 ? paths[i] : "-";
        if (!path)
            continue; /* no input there: the next may tell */
        struct stat st;
        const int64_t k = sb_input_peek(path, buf, cap);
        if (k < 0 && *fifo < 0 && strcmp(path, "-") && !stat(path, &st) && S_ISFIFO(st.st_mode))
            *fifo = i;
        uint64_t line = 0;
        sb_geometry *g = NULL;
        /* the whole input seen (k < cap) and no puzzle line in it: the next decides */
        if (k < 0 || ((uint64_t)k < cap &&
                      sb_geometry_detect(buf, (size_t)k, 0, &g, &line, NULL, 0) == SB_OK &&
                      g == sb_geometry_9x9() && !line))
            continue;
        sb_geometry_free(g);
        *at = i;
        return k;
    }
    return -1;
}

int64_t sb_input_pick_head(const char *const *paths, int n, char *buf, size_t cap,
                           sb_input_head *h)
{
    if (!h || (!paths && n > 0) || (!buf && cap)) {
        if (h)
            *h = (sb_input_head){.fifo = -1};
        errno = EINVAL;
        return -1;
    }
    *h = (sb_input_head){.fifo = -1};
    for (int i = 0; i < (n > 0 ? n : 1); i++) {
        const char *path = n > 0 ? paths[i] : "-";
        sb_input_head one = {.fifo = -1};
        struct stat st;
        const int64_t k = path ? look(path, buf, cap, &one) : -1;
        if (k < 0 && h->fifo < 0 && path && strcmp(path, "-") && !stat(path, &st) &&
            S_ISFIFO(st.st_mode))
            h->fifo = i;
        uint64_t line = 0;
        sb_geometry *g = NULL;
        /* the whole input seen and no puzzle line in it: the next decides */
        if (k < 0 || (!one.more && sb_geometry_detect(buf, (size_t)k, 0, &g, &line, NULL, 0) ==
                                       SB_OK &&
                      g == sb_geometry_9x9() && !line))
            continue;
        sb_geometry_free(g);
        h->skipped = one.skipped;
        h->more = one.more;
        h->at = i;
        return k;
    }
    return -1;
}

/* ---- opening an input, compressed or not ---- */

int sb_input_open(const char *path, FILE **in, sb_input_kind *kind)
{
    if (!path || !in || !kind) {
        errno = EINVAL;
        return -1;
    }
    *in = NULL;
    *kind = SB_INPUT_TEXT;
    const int is_stdin = !strcmp(path, "-");
    unsigned char head[SB_INPUT_SNIFF];
    struct stat st;
    const int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    long long at = -1;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        at = is_stdin ? (long long)lseek(fd, 0, SEEK_CUR) : 0;
        while (at >= 0 && (n = pread(fd, head, sizeof head, (off_t)at)) < 0 && errno == EINTR)
            ;
    } else if (is_stdin || S_ISFIFO(st.st_mode)) {
        /* a pipe is looked at by tee(), nothing consumed; a FIFO, a terminal: not at all */
        n = (ssize_t)sb_input_peek(path, (char *)head, sizeof head);
    }
    *kind = n > 0 ? sb_input_sniff(head, (size_t)n) : SB_INPUT_TEXT;
    if (*kind == SB_INPUT_TEXT) {
        *in = is_stdin ? stdin : fdopen(fd, "rb");
        if (!*in) {
            close(fd);
            return -1;
        }
        return 0;
    }
    if (!sb_input_readable(*kind)) {
        if (!is_stdin)
            close(fd);
        return 1;
    }
    /* standard input is read from where it stands, and left open */
    *in = sb_unpack_fd(*kind, fd, -1, !is_stdin);
    if (!*in) {
        const int e = errno;
        if (!is_stdin)
            close(fd);
        errno = e;
        return -1;
    }
    return 0;
}
