/*
 * batch.c — the batch engine: multi-million-record runs over all cores with output that is
 * byte-for-byte the same for any thread count, in bounded memory, with progress and clean
 * interrupts.
 *
 * Data layout and flow. Two windows alternate. A window holds up to `window` records read
 * in input order (sb_record, 424 bytes each with a pencilmark's candidates, written by the
 * reader in place), split into chunks of CHUNK records; each chunk owns an output buffer
 * and a stderr buffer. One round:
 *
 *     master thread:   write window k-1's buffers in order, then read window k+1
 *     every thread:    handle the chunks of window k (dynamic schedule, one worker each)
 *
 * so reading and writing (the serial parts) overlap the parallel work. Chunks are formatted
 * independently and written in chunk order, which is what makes the bytes independent of the
 * thread count and of which thread took which chunk. Memory is two windows whatever the input
 * size. Workers (one sb_solver each, say) belong to a thread for the whole run and keep their
 * own statistics: the hot path shares nothing but the chunk counter and, once per chunk, the
 * progress counter.
 *
 * Streaming. A read on a pipe or terminal can block for ever; before any read that could
 * block while records are waiting, the engine handles and writes what it has (poll() with a
 * zero timeout before each record on such inputs; regular files never block, so they skip
 * it). Interactive use therefore sees each answer as soon as its line is in.
 *
 * Interrupts. SIGINT/SIGTERM set a flag (the handler can safely do nothing else). Workers
 * check it before each record, so a round stops within one record per thread; the writer then
 * emits every chunk up to the first unfinished one, and that one's finished records: the
 * output is a prefix of the full output, ending on a record boundary. Blocking reads happen
 * only on the calling thread, which is the only thread with the signals unblocked, so the
 * signal interrupts the read (the handler is installed without SA_RESTART).
 *
 * Segments (MPI, src/cli/mpi.c). The engine calls the MPI layer (cli_mpi_records/items)
 * and hands it a cli_batch_ops, so mpi.c never calls batch.c by name (no circle between
 * the two files). Its segment runs the same engine over one piece of one input (a line-aligned byte
 * range; its items: the items from item_base on), with its line numbers shifted to the
 * input's, and hands what write_window would write and commit to a cli_sink instead; its
 * sink_write (cli_sink_write) later writes and commits a sink with the same guarantees, so
 * rank 0 can emit every rank's segments in input order.
 */
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum {
    CHUNK = 256,             /* records per chunk: the scheduling and output-buffer unit */
    WINDOW_MIN = 8192,       /* records per window with few threads (2 MiB of records: the
                                window stays cache-near on the single-thread path) */
    WINDOW_MAX = 1 << 16,    /* records per window at most (16 MiB of records) */
    WINDOW_PER_THREAD = 4096, /* window grows with threads so every round has ~16 chunks a thread */
    WINDOW_BYTES = 16 << 20, /* records of a window at most, bytes (a source's large ones) */
    PROGRESS_MS = 250,       /* at most four progress updates a second */
    PROGRESS_WIDTH = 100     /* longest progress line */
};

/* One window: a slice of the run's records (or generated items) and their formatted output. */
typedef struct window {
    sb_record *rec;     /* records in input order (record runs; NULL for item runs) */
    uint32_t *input;    /* for each record, its input's index in engine.inputs */
    size_t n;           /* items held */
    uint64_t first;     /* run-wide index of the first item */
    cli_buf *out;       /* per chunk: the chunk's output records */
    cli_buf *err;       /* per chunk: the chunk's stderr text */
    size_t *done;       /* per chunk: items finished (less than the chunk only if stopped) */
    int *halt;          /* per chunk: the exit code a handler ended the run with, else 0 */
    unsigned char *tags; /* per item: tag_size bytes of statistics for commit */
    cli_buf trailer;    /* input-level messages (cannot open, read error), printed after the
                           window's records so stderr keeps input order */
} window;

/* The state of one run. */
typedef struct engine {
    const cli_batch *job;   /* what to run */
    int threads;            /* worker threads */
    int team;               /* threads of the last round's team (1 before any): the OpenMP
                               runtime keeps them, so only a larger team starts threads (as
                               counted inside the region: the runtime may give fewer) */
    void **workers;         /* one worker per thread, indexed by OpenMP thread number */
    size_t window;          /* records per window */
    window win[2];          /* handled and filled alternately */
    int out_fd;             /* descriptor of job->out */
    sigset_t stop_set;      /* SIGINT and SIGTERM, blocked in the worker threads */
    const volatile sig_atomic_t *stop; /* the stop flag (stop.c), raised by those signals */
    /* record runs */
    cli_input *inputs;      /* every input, names precomputed */
    int ninputs;            /* entries in inputs */
    char *const *files;     /* the command line's inputs ("-" = stdin) */
    int next_input;         /* index of the next input to open */
    int end_input;          /* inputs before this index are read (ninputs; a segment: one) */
    int cur;                /* index of the open input */
    FILE *in;               /* the open input, NULL between inputs */
    void *reader;           /* its reader: an sb_reader, or job->source's */
    size_t rec_size;        /* bytes per record: sizeof(sb_record), or job->source's */
    int fd;                 /* its descriptor */
    FILE *given;            /* segment runs: the already open stream of input next_input */
    int in_regular;         /* it is a regular file: reads never block, size is known */
    int inputs_done;        /* every input has been read to its end */
    /* item runs */
    uint64_t items;         /* items to make */
    uint64_t item_base;     /* run-wide index of item 0 (job->item_base) */
    /* totals */
    uint64_t read;          /* records read (items made) so far */
    uint64_t skipped;       /* records read and dropped for --resume (cli_batch.skip) */
    uint64_t written;       /* records whose output has been written */
    uint64_t done_items;    /* records handled (for progress; added once per chunk) */
    int last_input;         /* input of the last written record, -1 before any */
    uint64_t last_line;     /* its line */
    int rc;                 /* CLI_EXIT_USAGE once an input failed, else 0 */
    int fatal;              /* a write failed or memory ran out: stop the run */
    uint64_t halt_at;       /* run-wide index of the earliest item a handler ended the run on
                               (UINT64_MAX: none); workers skip the items after it */
    int halt_rc;            /* that exit code, from the first halted chunk written */
    /* progress */
    int progress;           /* show the progress line */
    int drawn;              /* a progress line has been drawn */
    int always;             /* --progress always: draw the final line even if no tick came */
    double t0;              /* run start (monotonic seconds) */
    double last_shown;      /* when the progress line was last drawn */
    int shown_len;          /* characters of the progress line on screen, 0 if none */
    uint64_t bytes_total;   /* bytes of all inputs when all are regular files, else 0 */
    uint64_t bytes_prior;   /* bytes of the inputs already read to their end */
} engine;

/* Record i of window w: records are e->rec_size bytes apart. */
static inline sb_record *rec_at(const engine *e, const window *w, size_t i)
{
    return (sb_record *)((char *)w->rec + i * e->rec_size);
}

int cli_default_threads(void)
{
    const int t = omp_get_max_threads();
    return t < 1 ? 1 : t > 1024 ? 1024 : t;
}

void *cli_alloc_lines(size_t size)
{
    const size_t padded = (size + CLI_CACHE_LINE - 1) / CLI_CACHE_LINE * CLI_CACHE_LINE;
    void *p = aligned_alloc(CLI_CACHE_LINE, padded ? padded : CLI_CACHE_LINE);
    if (p)
        memset(p, 0, padded);
    return p;
}

/* Points standard output at path (truncated unless b->resume). @return 0, or
 * CLI_EXIT_USAGE after a message. */
static int output_redirect(const char *cmd, const cli_batch *b, const char *path)
{
    /* --resume keeps what an interrupted run wrote (resume.c cuts and counts it) */
    const int fd = open(path, O_WRONLY | O_CREAT | (b->resume ? 0 : O_TRUNC) | O_CLOEXEC, 0666);
    if (fd < 0)
        return cli_usage_error(cmd, "cannot open '%s' for -o: %s", path, strerror(errno));
    fflush(stdout);
    const int ok = dup2(fd, STDOUT_FILENO) >= 0;
    const int e = errno;
    close(fd);
    if (!ok)
        return cli_usage_error(cmd, "cannot redirect output to '%s': %s", path, strerror(e));
    /* Buffered by what stdout is now (main chose by what it was: a terminal under mpirun).
     * A line-buffered FILE would fail inside printf, where the command's fflush no longer
     * sees the error; fully buffered, the failure and its message are one process's. */
    setvbuf(stdout, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, 0);
    return 0;
}

/* Standard output goes to -o FILE, so the records, a header and a summary all go there in
 * the order they are written. Opened only once the inputs are known (not when the option is
 * read): a FILE that is also an input must be refused before O_TRUNC empties it. */
int cli_output_open(const char *cmd, cli_batch *b, char *const *files, int nfiles,
                    const char *extra)
{
    const char *path = b->out_name;
    if (!path)
        return 0;
    /* every rank checks, so all of them refuse together */
    if (cli_output_refuse(cmd, "-o", path, files, nfiles, extra))
        return CLI_EXIT_USAGE;
    /* Rank 0 writes every rank's output, so it alone opens FILE; every rank then returns its
     * answer, so a FILE that cannot be opened ends all of them here together, with rank 0's
     * one message and exit code, as one process ends (no rank goes on into the batch). */
    int rc = cli_mpi_rank() == 0 ? output_redirect(cmd, b, path) : 0;
    cli_mpi_bcast(&rc, sizeof rc, 0);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Output                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Writes all n bytes to fd, retrying after signals and on non-blocking descriptors (a
 * terminal shared with a program that set O_NONBLOCK). @return 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        const ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd pf = {.fd = fd, .events = POLLOUT};
                poll(&pf, 1, -1);
                continue;
            }
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Erases the progress line so a message can take its place (redrawn at the next tick). */
static void progress_clear(engine *e)
{
    if (!e->shown_len)
        return;
    char blank[PROGRESS_WIDTH + 2];
    blank[0] = '\r';
    memset(blank + 1, ' ', (size_t)e->shown_len);
    blank[e->shown_len + 1] = '\r';
    write_all(STDERR_FILENO, blank, (size_t)e->shown_len + 2);
    e->shown_len = 0;
}

/* Writes text to stderr, erasing the progress line first (the next tick redraws it). */
static void write_err(engine *e, const char *p, size_t n)
{
    if (n == 0)
        return;
    if (e->job->sink) {
        cli_buf_put(&e->job->sink->err, p, n);
        return;
    }
    progress_clear(e);
    write_all(STDERR_FILENO, p, n);
}

/* Formats seconds as m:ss or h:mm:ss. */
static void format_duration(char *out, size_t len, double s)
{
    const unsigned long t = s > 0 && s < 1e9 ? (unsigned long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(out, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%lu:%02lu", t / 60, t % 60);
}

/* Draws the progress line when PROGRESS_MS have passed since the last one (or always when
 * final). Runs only on the master thread, which also reads the input, so the reader's
 * position and counters are its own. */
static void progress_tick(engine *e, int final)
{
    const double now = cli_now_seconds();
    if (!final && now - e->last_shown < PROGRESS_MS / 1000.0)
        return;
    e->last_shown = now;
    e->drawn = 1;
    uint64_t done;
#pragma omp atomic read
    done = e->done_items;
    const double secs = now - e->t0;
    const double rate = secs > 0 ? (double)done / secs : 0.0;
    /* Fraction of the run done: items of a known total, or for records the input bytes
     * consumed scaled to records (bytes per record so far predict the rest). */
    double frac = -1;
    if (e->items && !e->inputs)
        frac = (double)done / (double)e->items;
    else if (e->bytes_total && e->read) {
        off_t pos = e->in && e->in_regular ? lseek(e->fd, 0, SEEK_CUR) : 0;
        const double bytes = (double)e->bytes_prior + (pos > 0 ? (double)pos : 0.0);
        if (bytes > 0)
            frac = (double)done / ((double)e->read * (double)e->bytes_total / bytes);
    }
    char when[64], line[PROGRESS_WIDTH + 1];
    if (frac > 0 && frac <= 1 && !final) {
        char eta[32];
        format_duration(eta, sizeof eta, secs * (1 - frac) / frac);
        snprintf(when, sizeof when, "%d%%, ETA %s", (int)(100 * frac), eta);
    } else {
        format_duration(when, sizeof when, secs); /* elapsed */
    }
    snprintf(line, sizeof line, "\r" CLI_NAME ": %llu %s, %.0f/s, %s", (unsigned long long)done,
             e->job->unit ? e->job->unit : "records", rate, when);
    int len = (int)strlen(line) - 1; /* without the '\r' */
    /* Pad over the tail of a longer previous line instead of relying on terminal escapes. */
    const int pad = e->shown_len > len ? e->shown_len - len : 0;
    memset(line + len + 1, ' ', (size_t)pad);
    write_all(STDERR_FILENO, line, (size_t)(len + 1 + pad));
    e->shown_len = len;
}

/* Reports that a buffer could not grow and stops the run. */
static void oom(engine *e)
{
    static const char msg[] = CLI_NAME ": out of memory formatting records\n";
    write_err(e, msg, sizeof msg - 1);
    e->fatal = 1;
}

/* Writes one chunk's n bytes of records to the job's output, or appends them to its sink.
 * @return 0, or -1 after the "write error" message. */
static int write_out(engine *e, const char *p, size_t n)
{
    if (e->job->sink) {
        cli_buf_put(&e->job->sink->out, p, n);
        return 0;
    }
    const off_t at = lseek(e->out_fd, 0, SEEK_CUR); /* -1 on a pipe or terminal */
    if (write_all(e->out_fd, p, n) != 0) {
        /* A full disk takes part of a chunk before it fails: cut a file back to the
         * chunk's start so it ends on a record boundary (a pipe fails only with EPIPE,
         * when no reader is left to see a torn record). */
        const int why = errno;
        if (at >= 0 && ftruncate(e->out_fd, at) == 0)
            lseek(e->out_fd, at, SEEK_SET);
        errno = why;
        char msg[160 + 4 * 256];
        const int len = snprintf(msg, sizeof msg, CLI_NAME ": write error: %.1024s: %s\n",
                                 e->job->out_name ? e->job->out_name : "standard output",
                                 strerror(errno));
        write_err(e, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
        return -1;
    }
    return 0;
}

/* Passes the tags of n written records to the job's commit, or appends them and their input
 * indices to its sink (rank 0 commits every rank's in input order). */
static void commit_tags(engine *e, const uint32_t *input, const unsigned char *tags, size_t n)
{
    cli_sink *s = e->job->sink;
    if (!s) {
        if (e->job->commit)
            e->job->commit(e->job->ctx, input, tags, n);
        return;
    }
    cli_buf_put(&s->tags, tags, n * e->job->tag_size);
    if (input)
        cli_buf_put(&s->input, input, n * sizeof *input);
    s->n += n;
}

/* Writes a handled window in order: each chunk's stderr text, then its records, up to the
 * first chunk the stop flag cut short (its finished records included); then the window's
 * input-level messages if it was finished. */
static void write_window(engine *e, window *w)
{
    const size_t nchunks = (w->n + CHUNK - 1) / CHUNK;
    for (size_t c = 0; c < nchunks && !e->fatal; c++) {
        const size_t size = c + 1 < nchunks ? CHUNK : w->n - c * CHUNK;
        if (w->out[c].oom || w->err[c].oom) {
            oom(e);
            return;
        }
        /* A chunk's messages go before its records, as when they were printed while
         * reading: with 2>&1 each message lands at most one chunk ahead of its record. */
        write_err(e, w->err[c].data, w->err[c].len);
        if (write_out(e, w->out[c].data, w->out[c].len) != 0) {
            e->fatal = 1;
            return;
        }
        const size_t k = w->done[c];
        if (k > 0 && w->rec) {
            const size_t last = c * CHUNK + k - 1;
            e->last_input = (int)w->input[last];
            e->last_line = rec_at(e, w, last)->line;
        }
        if (k > 0)
            commit_tags(e, w->input ? w->input + c * CHUNK : NULL,
                        w->tags + c * CHUNK * e->job->tag_size, k);
        e->written += k;
        if (k < size) {
            /* Stopped inside this chunk: later chunks must not follow a gap. */
            if (w->halt[c] && !e->halt_rc)
                e->halt_rc = w->halt[c];
            return;
        }
    }
    if (w->trailer.oom)
        oom(e);
    else
        write_err(e, w->trailer.data, w->trailer.len);
}

/* ------------------------------------------------------------------------------------------ */
/* Input                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* @return 1 if a read on fd would not block now (data, end of input or an error pending). */
static int readable(int fd)
{
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    return poll(&pf, 1, 0) > 0;
}

/* Ends the open input, adding its size to the bytes read. */
static void close_input(engine *e)
{
    struct stat st;
    if (e->in_regular && fstat(e->fd, &st) == 0)
        e->bytes_prior += (uint64_t)st.st_size;
    if (e->job->source)
        e->job->source->close(e->reader);
    else
        sb_reader_close(e->reader);
    if (e->in != stdin)
        fclose(e->in);
    e->reader = NULL;
    e->in = NULL;
}

/* An input could not be opened or read: the run's exit code is 2, and the records after it
 * no longer line up with the input, so a --resume run's side file says so (resume.c). */
static void input_failed(engine *e)
{
    e->rc = CLI_EXIT_USAGE;
    if (e->job->resume && !e->job->sink)
        cli_resume_broken(e->job);
}

/* Opens the next input. @return 1 when one is open, 0 when none is left, -1 after adding a
 * "cannot open" message to w's trailer (the caller then ends the window, to keep order). */
static int open_next(engine *e, window *w)
{
    if (e->next_input >= e->end_input)
        return 0;
    const int i = e->next_input++;
    const int is_stdin = !strcmp(e->files[i], "-") && !e->given;
    FILE *in = e->given ? e->given : is_stdin ? stdin : fopen(e->files[i], "rb");
    e->given = NULL; /* the reader's now: close_input closes it */
    if (!in) {
        cli_buf_printf(&w->trailer, CLI_NAME ": cannot open '%s': %s\n", e->inputs[i].msg_name,
                       strerror(errno));
        input_failed(e);
        return -1;
    }
    const cli_source *src = e->job->source;
    sb_reader *r = NULL;
    const int st = src ? src->open(e->job->ctx, in, &e->reader) : sb_reader_open(&r, in);
    if (st == SB_OK && !src) {
        sb_reader_set_stop(r, e->stop);
        sb_reader_set_marks(r, e->job->marks);
        e->reader = r;
    }
    if (st != SB_OK) {
        cli_buf_printf(&w->trailer, CLI_NAME ": %s: %s\n", e->inputs[i].msg_name,
                       sb_strerror(st));
        if (!is_stdin)
            fclose(in);
        input_failed(e);
        return -1;
    }
    struct stat sst;
    e->in = in;
    e->fd = fileno(in);
    /* A segment's stream (no descriptor) is a byte range or a buffer: it never blocks. */
    e->in_regular = e->fd < 0 || (fstat(e->fd, &sst) == 0 && S_ISREG(sst.st_mode));
    e->cur = i;
    if (e->job->opened)
        e->job->opened[i] = 1;
    return 1;
}

/* Fills w with the next records (or items). With may_block 0 it never waits for input: it
 * stops where a read could block. With 1 the first read may block (nothing is pending then),
 * later ones may not: a window is handed over as soon as the input pauses, so pipes and
 * terminals stream. Stops early at an input-level message or a stop request. */
static void fill(engine *e, window *w, int may_block)
{
    w->n = 0;
    w->first = e->item_base + e->read;
    w->trailer.len = 0;
    if (!e->inputs) {
        const uint64_t left = e->items - e->read;
        w->n = left < e->window ? (size_t)left : e->window;
        e->read += w->n;
        e->inputs_done = e->read == e->items;
        return;
    }
    while (w->n < e->window && !*e->stop && !e->inputs_done) {
        if (!e->reader) {
            const int st = open_next(e, w);
            if (st == 0)
                e->inputs_done = 1;
            if (st <= 0)
                break;
        }
        if (!e->in_regular && (w->n > 0 || !may_block) && !readable(e->fd))
            break;
        const int st = e->job->source ? e->job->source->next(e->reader, rec_at(e, w, w->n))
                                      : sb_reader_next(e->reader, &w->rec[w->n]);
        if (st == 1 && e->skipped < e->job->skip) {
            e->skipped++; /* --resume: its record is in the output already */
            if (e->job->skipped_all)
                (*e->job->skipped_all)++;
            if (e->job->skipped_invalid && rec_at(e, w, w->n)->kind == SB_LINE_INVALID)
                (*e->job->skipped_invalid)++; /* the exit code still owes it a 1 */
        } else if (st == 1) {
            rec_at(e, w, w->n)->line += e->job->line_base; /* a segment's lines: its input's */
            w->input[w->n++] = (uint32_t)e->cur;
            e->read++;
        } else if (st == 0) {
            close_input(e);
        } else if (st == SB_ERR_STOPPED) {
            break; /* a signal came while an endless line was being skipped */
        } else if (errno != EINTR) {
            cli_buf_printf(&w->trailer, CLI_NAME ": %s: read error: %s\n",
                           e->inputs[e->cur].msg_name, strerror(errno));
            input_failed(e);
            close_input(e);
            break;
        } /* EINTR: a signal came during a blocking read; the loop checks the stop flag */
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Rounds                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Handles chunk c of w with the calling thread's worker. */
static void run_chunk(engine *e, window *w, size_t c, void *worker)
{
    const cli_batch *job = e->job;
    /* Local copies: neighbouring chunks' buffer headers share cache lines, and another
     * thread is formatting the next chunk; the headers are written back once at the end. */
    cli_buf out = w->out[c], err = w->err[c];
    out.len = err.len = 0;
    const size_t lo = c * CHUNK, hi = lo + CHUNK < w->n ? lo + CHUNK : w->n;
    size_t i = lo;
    int st = CLI_DONE;
    uint64_t halt_at;
    /* Puzzles handled ahead by job->chunk are written even when the stop flag went up
     * meanwhile (the handler reports CLI_STOPPED at the first one the flag cut short); any
     * other record stops at the flag, as without a chunk handler. */
    const int ahead = job->chunk && w->rec && hi > lo;
    if (ahead) {
        const sb_record *recs[CHUNK];
        for (size_t k = lo; k < hi; k++)
            recs[k - lo] = rec_at(e, w, k);
        job->chunk(worker, recs, hi - lo);
    }
    for (; i < hi; i++) {
        if (*e->stop && !(ahead && rec_at(e, w, i)->kind == SB_LINE_PUZZLE))
            break;
#pragma omp atomic read
        halt_at = e->halt_at;
        if (w->first + i > halt_at)
            break; /* an earlier item ended the run: nothing after it is written */
        const size_t olen = out.len, elen = err.len;
        unsigned char *tag = w->tags + i * job->tag_size;
        if (w->rec) {
            const sb_record *rec = rec_at(e, w, i);
            const cli_input *in = &e->inputs[w->input[i]];
            if (rec->kind == SB_LINE_INVALID)
                cli_format_invalid(&err, in->msg_name, rec);
            st = job->record(worker, in, rec, &out, &err, tag);
        } else {
            st = job->item(worker, w->first + i, &out, &err, tag);
        }
        if (st != CLI_DONE) {
            out.len = olen; /* an unfinished record leaves nothing behind */
            if (st == CLI_STOPPED)
                err.len = elen;
            break;
        }
    }
    if (st > 0) {
#pragma omp critical(cli_batch_halt)
        if (w->first + i < e->halt_at) {
#pragma omp atomic write
            e->halt_at = w->first + i;
        }
    }
    w->halt[c] = st > 0 ? st : 0;
    w->out[c] = out;
    w->err[c] = err;
    w->done[c] = i - lo;
#pragma omp atomic
    e->done_items += i - lo;
}

/* One round: handles the chunks of cur on every thread while the master thread first writes
 * wout (the previous round's window, if any) and then refills wfill (if any) without
 * blocking. wout and wfill are the same window: it is written before it is reused. */
static void round_run(engine *e, window *cur, window *wout, window *wfill)
{
    const size_t nchunks = (cur->n + CHUNK - 1) / CHUNK;
    int nt = e->threads;
    if ((size_t)nt > nchunks)
        nt = nchunks ? (int)nchunks : 1;
    /* A team larger than the last one starts threads, and the runtime exits the process when
     * it cannot: check first (smaller teams reuse the runtime's threads). Past the first
     * round this needs the input to pause and then flow again, and memory to run out
     * between; the records written so far stay, the run ends with the message. */
    if (nt > e->team) {
        char why[2 * SB_WHY_LEN];
        if (sb_threads_check(nt, why, sizeof why) != SB_OK) {
            if (wout)
                write_window(e, wout);
            char msg[sizeof why + 32];
            const int len = snprintf(msg, sizeof msg, CLI_NAME ": %s\n", why);
            write_err(e, msg, (size_t)len);
            e->fatal = 1;
            cur->n = 0; /* nothing of it was handled: run() must not write it */
            return;
        }
    }
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        const int tid = omp_get_thread_num();
        if (tid != 0) /* keep SIGINT/SIGTERM for the master, whose reads they must interrupt */
            pthread_sigmask(SIG_BLOCK, &e->stop_set, NULL);
#pragma omp master
        {
            e->team = omp_get_num_threads();
            if (wout)
                write_window(e, wout);
            if (wfill && !e->fatal)
                fill(e, wfill, 0);
        }
        void *worker = e->workers[tid];
#pragma omp for schedule(dynamic, 1) nowait
        for (size_t c = 0; c < nchunks; c++) {
            run_chunk(e, cur, c, worker);
            if (tid == 0 && e->progress)
                progress_tick(e, 0);
        }
    }
}

/* The main loop shared by record and item runs: fill, handle, write, in rounds. */
static void run(engine *e)
{
    window *cur = &e->win[0], *other = &e->win[1];
    int pending = 0; /* other holds a handled window not yet written */
    fill(e, cur, 1);
    for (;;) {
        if (cur->n == 0 && cur->trailer.len == 0) { /* input done or stop requested */
            if (pending)
                write_window(e, other);
            break;
        }
        const int refill = !e->inputs_done && !*e->stop && e->halt_at == UINT64_MAX &&
                           cur->trailer.len == 0;
        round_run(e, cur, pending ? other : NULL, refill ? other : NULL);
        if (!refill)
            other->n = 0, other->trailer.len = 0;
        if (*e->stop || e->fatal || e->halt_at != UINT64_MAX) {
            write_window(e, cur);
            break;
        }
        if (other->n == 0 && other->trailer.len == 0) {
            /* Nothing read ahead: the input pauses or ends. Write what is done before a read
             * that may block, so interactive use sees every answer at once. */
            write_window(e, cur);
            if (e->fatal || e->inputs_done)
                break;
            fill(e, other, 1);
            pending = 0;
        } else {
            pending = 1;
        }
        window *t = cur;
        cur = other;
        other = t;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Setup and teardown                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Frees the windows and the workers (workers fold their statistics in, in thread order). */
static void engine_free(engine *e)
{
    for (int t = 0; t < e->threads && e->workers; t++)
        if (e->workers[t])
            e->job->worker_end(e->job->ctx, e->workers[t]);
    free(e->workers);
    for (int k = 0; k < 2; k++) {
        window *w = &e->win[k];
        const size_t nchunks = e->window / CHUNK;
        /* engine_init may have stopped between the two allocations */
        for (size_t c = 0; c < nchunks && w->out && w->err; c++) {
            cli_buf_free(&w->out[c]);
            cli_buf_free(&w->err[c]);
        }
        free(w->rec);
        free(w->input);
        free(w->out);
        free(w->err);
        free(w->done);
        free(w->halt);
        free(w->tags);
        cli_buf_free(&w->trailer);
    }
    for (int i = 0; i < e->ninputs && e->inputs; i++)
        cli_input_free(&e->inputs[i]);
    free(e->inputs);
}

/* Creates the workers and windows. @return 0, or an exit code after a message. */
static int engine_init(engine *e, const cli_batch *job, int records)
{
    e->job = job;
    e->threads = job->threads < 1 ? 1 : job->threads;
    e->stop = cli_stop_flag();
    e->team = 1;
    e->last_input = -1;
    e->halt_at = UINT64_MAX;
    size_t win = (size_t)e->threads * WINDOW_PER_THREAD;
    e->window = win < WINDOW_MIN ? WINDOW_MIN : win > WINDOW_MAX ? WINDOW_MAX : win;
    e->rec_size = job->source ? job->source->rec_size : sizeof(sb_record);
    if (e->window * e->rec_size > WINDOW_BYTES) /* large records (64x64 grids): fewer */
        e->window = WINDOW_BYTES / e->rec_size / CHUNK * CHUNK + CHUNK;
    e->workers = calloc((size_t)e->threads, sizeof *e->workers);
    if (!e->workers)
        goto oom;
    for (int t = 0; t < e->threads; t++) {
        const int rc = job->worker_new(job->ctx, &e->workers[t]);
        if (rc)
            return rc;
    }
    const size_t nchunks = e->window / CHUNK;
    for (int k = 0; k < 2; k++) {
        window *w = &e->win[k];
        w->out = calloc(nchunks, sizeof *w->out);
        w->err = calloc(nchunks, sizeof *w->err);
        w->done = calloc(nchunks, sizeof *w->done);
        w->halt = calloc(nchunks, sizeof *w->halt);
        w->tags = malloc(e->window * (job->tag_size ? job->tag_size : 1));
        if (!w->out || !w->err || !w->done || !w->halt || !w->tags)
            goto oom;
        if (records) {
            w->rec = malloc(e->window * e->rec_size);
            w->input = malloc(e->window * sizeof *w->input);
            if (!w->rec || !w->input)
                goto oom;
        }
    }
    e->out_fd = fileno(job->out);
    sigemptyset(&e->stop_set);
    sigaddset(&e->stop_set, SIGINT);
    sigaddset(&e->stop_set, SIGTERM);
    e->item_base = job->item_base;
    e->progress = !job->sink && (job->progress == CLI_PROGRESS_ALWAYS ||
                                 (job->progress == CLI_PROGRESS_AUTO && isatty(STDERR_FILENO)));
    e->always = job->progress == CLI_PROGRESS_ALWAYS;
    return 0;
oom:
    fprintf(stderr, CLI_NAME ": out of memory\n");
    return CLI_EXIT_USAGE;
}

/* Flushes what the command printed before the records (a csv header) so that they follow
 * it. @return 0, or CLI_EXIT_USAGE after the write error naming -o FILE. */
static int flush_first(const cli_batch *b)
{
    if (fflush(b->out) == 0)
        return 0;
    fprintf(stderr, CLI_NAME ": write error: %s: %s\n",
            b->out_name ? b->out_name : "standard output", strerror(errno));
    return CLI_EXIT_USAGE;
}

/* Runs the loop with the stop handlers in place, then reports how the run ended.
 * @return the run's exit code (see cli_batch_records). */
static int engine_run(engine *e)
{
    cli_stop_state stop;
    cli_stop_begin(&stop);
    /* what the command printed first (csv header); a segment writes nothing itself */
    if (!e->job->sink && flush_first(e->job) != 0)
        e->fatal = 1;
    e->t0 = cli_now_seconds();
    e->last_shown = e->t0; /* the first line after PROGRESS_MS: short runs stay quiet */
    if (!e->fatal)
        run(e);
    cli_stop_end(&stop);
    if (e->progress && (e->drawn || e->always)) {
        progress_tick(e, 1);
        write_all(STDERR_FILENO, "\n", 1);
        e->shown_len = 0;
    }
    if (e->fatal)
        return CLI_EXIT_USAGE;
    if (e->halt_rc)
        return e->halt_rc; /* the handler's reason is on stderr already */
    if (*e->stop && e->job->sink)
        return CLI_EXIT_INTERRUPTED; /* the MPI driver counts the records of every rank */
    if (*e->stop) {
        if (e->last_input >= 0)
            fprintf(stderr, CLI_NAME ": interrupted after %llu records (%s:%llu)\n",
                    (unsigned long long)e->written, e->inputs[e->last_input].msg_name,
                    (unsigned long long)e->last_line);
        else
            fprintf(stderr, CLI_NAME ": interrupted after %llu records\n",
                    (unsigned long long)e->written);
        return CLI_EXIT_INTERRUPTED;
    }
    return e->rc;
}

/* cli_batch_records over inputs first..nfiles-1, or with given only input first, read from
 * the stream given (which the engine closes). */
static int batch_records(const cli_batch *b, char *const *files, int nfiles, int first,
                         FILE *given)
{
    engine e = {.files = files, .ninputs = nfiles, .next_input = first,
                .end_input = given ? first + 1 : nfiles, .given = given};
    int rc = engine_init(&e, b, 1);
    e.inputs = calloc((size_t)nfiles, sizeof *e.inputs);
    if (!rc && !e.inputs) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        rc = CLI_EXIT_USAGE;
    }
    /* Names in their printed forms once per input, not once per record; sizes for the ETA
     * when every input is a regular file. */
    int sized = 1;
    for (int i = 0; !rc && i < nfiles; i++) {
        cli_input *in = &e.inputs[i];
        if (cli_input_init(in, files[i]) != 0) {
            fprintf(stderr, CLI_NAME ": out of memory\n");
            rc = CLI_EXIT_USAGE;
            break;
        }
        in->with_file = nfiles > 1;
        struct stat st;
        const int ok = strcmp(files[i], "-") ? stat(files[i], &st) == 0
                                             : fstat(STDIN_FILENO, &st) == 0;
        if (ok && S_ISREG(st.st_mode))
            e.bytes_total += (uint64_t)st.st_size;
        else
            sized = 0;
    }
    if (!sized)
        e.bytes_total = 0;
    /* A terminal as input: the user is typing there; a progress line would garble it. */
    for (int i = 0; i < nfiles; i++)
        if (!strcmp(files[i], "-") && isatty(STDIN_FILENO) && b->progress == CLI_PROGRESS_AUTO)
            e.progress = 0;
    if (!rc)
        rc = engine_run(&e);
    if (e.reader)
        close_input(&e);
    if (e.given) /* never opened: setup failed */
        fclose(e.given);
    engine_free(&e);
    return rc;
}

/* Items 0..count-1 of b on this process (b->item_base on): every item run, and the MPI
 * layer's segments (cli_batch_ops.items). */
static int batch_items(const cli_batch *b, uint64_t count)
{
    engine e = {.items = count, .inputs_done = count == 0};
    int rc = engine_init(&e, b, 0);
    if (!rc)
        rc = engine_run(&e);
    engine_free(&e);
    return rc;
}

#ifdef SB_MPI
/* A segment run for the MPI layer (cli_batch_ops.segment): input `input` of files read
 * from in, which the engine closes. */
static int batch_segment(const cli_batch *b, char *const *files, int nfiles, int input, FILE *in)
{
    return batch_records(b, files, nfiles, input, in);
}

/* What the MPI layer may do with the engine: handed to it on every call, so mpi.c never
 * calls batch.c by name and the files' graph stays one way (batch.c -> mpi.c). */
static const cli_batch_ops mpi_ops = {.begin = flush_first, .segment = batch_segment,
                                      .items = batch_items, .sink_write = cli_sink_write,
                                      .broken = cli_resume_broken};
#endif

int cli_batch_records(const cli_batch *b, char *const *files, int nfiles)
{
    static char *const stdin_only[] = {"-"};
    if (nfiles == 0) {
        files = stdin_only;
        nfiles = 1;
    }
#ifdef SB_MPI
    if (!b->sink)
        return cli_mpi_records(&mpi_ops, b, files, nfiles, 0);
#endif
    return batch_records(b, files, nfiles, 0, NULL);
}

int cli_batch_shard(const cli_batch *b, char *const *files, int nfiles)
{
#ifdef SB_MPI
    return cli_mpi_records(&mpi_ops, b, files, nfiles, 1);
#else
    return cli_batch_records(b, files, nfiles); /* one process holds every record */
#endif
}

int cli_sink_write(const cli_batch *b, const cli_sink *s)
{
    engine e = {.job = b, .out_fd = fileno(b->out)};
    if (s->err.oom || s->out.oom || s->tags.oom || s->input.oom) {
        oom(&e);
        return CLI_EXIT_USAGE;
    }
    if (flush_first(b) != 0)
        return CLI_EXIT_USAGE;
    write_err(&e, s->err.data, s->err.len);
    if (write_out(&e, s->out.data, s->out.len) != 0)
        return CLI_EXIT_USAGE;
    if (s->n && b->commit)
        b->commit(b->ctx, s->input.len ? (const uint32_t *)(const void *)s->input.data : NULL,
                  (const unsigned char *)s->tags.data, s->n);
    return 0;
}

int cli_batch_items(const cli_batch *b, uint64_t count)
{
#ifdef SB_MPI
    if (!b->sink)
        return cli_mpi_items(&mpi_ops, b, count);
#endif
    return batch_items(b, count);
}
