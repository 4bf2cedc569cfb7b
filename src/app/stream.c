/*
 * stream.c — the stream engine (app.h, "Streams"), part of the programs' layer: the batch
 * engine of the sudokubench program, multi-million-record runs over all cores with output
 * that is byte-for-byte the same for any thread count, in bounded memory, with clean stops.
 * It prints nothing: output, messages, commits and progress go to the job's callbacks (the
 * CLI's batch.c renders them).
 *
 * Data layout and flow. Two windows alternate. A window holds up to `window` records read
 * in input order, written by the reader in place: an array of sb_record, an array of their
 * cells (a row of the geometry's cells each) and, when pencilmarks are on, an array of their
 * candidates (a row of uint64_t masks each, written only for a pencilmark line). It is split
 * into chunks of CHUNK records; each chunk owns an output buffer and a message buffer. One
 * round:
 *
 *     calling thread:  write window k-1's buffers in order, then read window k+1
 *     every thread:    handle the chunks of window k (dynamic schedule, one worker each)
 *
 * so reading and writing (the serial parts) overlap the parallel work. Chunks are formatted
 * independently and written in chunk order, which is what makes the bytes independent of the
 * thread count and of which thread took which chunk. Memory is two windows whatever the input
 * size. Workers belong to a thread for the whole run and keep their own statistics: the hot
 * path shares nothing but the chunk counter and, once per chunk, the done counter.
 *
 * Streaming. A read on a pipe or terminal can block for ever; before any read that could
 * block while records are waiting, the engine handles and writes what it has (poll() with a
 * zero timeout before each record on such inputs; regular files never block, so they skip
 * it). Interactive use therefore sees each answer as soon as its line is in.
 *
 * Stops. Workers check the stop flag before each record, so a round stops within one record
 * per thread; the writer then emits every chunk up to the first unfinished one, and that
 * one's finished records: the output is a prefix of the full output, ending on a record
 * boundary. Blocking reads happen only on the calling thread, the only one of the team with
 * SIGINT/SIGTERM unblocked, so a signal handler installed without SA_RESTART interrupts them.
 */
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"

enum {
    CHUNK = 256,             /* records per chunk: the scheduling and output-buffer unit */
    WINDOW_MIN = 8192,       /* records per window with few threads (2 MiB of records: the
                                window stays cache-near on the single-thread path) */
    WINDOW_MAX = 1 << 16,    /* records per window at most (16 MiB of records) */
    WINDOW_PER_THREAD = 4096, /* window grows with threads so every round has ~16 chunks a thread */
    WINDOW_BYTES = 16 << 20  /* records of a window at most, bytes (large grids: fewer) */
};

/* One window: a slice of the run's records (or items) and their formatted output. */
typedef struct window {
    sb_record *rec;     /* records in input order (record runs; NULL for item runs) */
    uint8_t *cells;     /* row i (ncells bytes): record i's cells */
    uint64_t *cand;     /* row i (ncells masks): record i's candidates (NULL: no marks) */
    uint32_t *input;    /* for each record, its input's index */
    size_t n;           /* items held */
    uint64_t first;     /* run-wide index of the first item */
    sb_buf *out;        /* per chunk: the chunk's output */
    sb_buf *err;        /* per chunk: the chunk's messages */
    size_t *done;       /* per chunk: items finished (less than the chunk only if stopped) */
    int *halt;          /* per chunk: the code a handler ended the run with, else 0 */
    unsigned char *tags; /* per item: tag_size bytes of statistics for commit */
    sb_buf trailer;     /* input-level messages (cannot open, read error), emitted after the
                           window's records so messages keep input order */
} window;

/* The state of one run. */
struct sb_stream {
    const sb_stream_job *job; /* what to run */
    int threads;            /* worker threads */
    int team;               /* threads of the last round's team (1 before any): the OpenMP
                               runtime keeps them, so only a larger team starts threads (as
                               counted inside the region: the runtime may give fewer) */
    void **workers;         /* one worker per thread, indexed by OpenMP thread number */
    size_t window;          /* records per window */
    window win[2];          /* handled and filled alternately */
    sigset_t stop_set;      /* SIGINT and SIGTERM, blocked in the worker threads */
    const volatile sig_atomic_t *stop; /* the stop flag (a never-raised one when none) */
    /* record runs */
    int records;            /* a record run (job->files set) */
    int next_input;         /* index of the next input to open */
    int end_input;          /* inputs before this index are read (nfiles; given: one) */
    int cur;                /* index of the open input */
    FILE *in;               /* the open input, NULL between inputs */
    sb_reader *reader;      /* its reader */
    const sb_geometry *geo; /* the records' geometry */
    size_t ncells;          /* its cells: bytes per row of cells */
    int fd;                 /* its descriptor */
    FILE *given;            /* the already open stream of input next_input, if any */
    int in_regular;         /* it is a regular file: reads never block, size is known */
    int inputs_done;        /* every input has been read to its end */
    /* totals */
    uint64_t read;          /* records read (items made) so far */
    uint64_t skipped;       /* records read and dropped for job->skip */
    uint64_t skipped_invalid; /* invalid lines among them */
    uint64_t written;       /* items whose output has been written */
    uint64_t done_items;    /* items handled (added once per chunk) */
    int last_input;         /* input of the last written record, -1 before any */
    uint64_t last_line;     /* its line */
    int failed;             /* inputs that failed */
    int fatal;              /* 0, or the SB_ERR_* that stopped the run (write, memory) */
    uint64_t halt_at;       /* run-wide index of the earliest item a handler ended the run on
                               (UINT64_MAX: none); workers skip the items after it */
    int halt_rc;            /* that code, from the first halted chunk written */
    uint64_t bytes_total;   /* bytes of all inputs when all are regular files, else 0 */
    uint64_t bytes_prior;   /* bytes of the inputs already read to their end */
};

/* The flag of a job without one: never raised. */
static const volatile sig_atomic_t never_stop;

/* ------------------------------------------------------------------------------------------ */
/* Buffers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

char *sb_buf_reserve(sb_buf *b, size_t n)
{
    if (!b)
        return NULL;
    if (b->cap - b->len >= n) /* a buffer never grown has no data: no offset from NULL */
        return b->data ? b->data + b->len : NULL;
    if (b->oom)
        return NULL;
    if (n > SIZE_MAX / 2 - b->len) { /* the doubling below would wrap */
        b->oom = 1;
        return NULL;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->oom = 1;
        return NULL;
    }
    b->data = d;
    b->cap = cap;
    return d + b->len;
}

void sb_buf_printf(sb_buf *b, const char *fmt, ...)
{
    if (!b || !fmt)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = n >= 0 ? sb_buf_reserve(b, (size_t)n + 1) : NULL;
    if (!p)
        return;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n; /* the NUL vsnprintf needs is not part of the text */
}

void sb_stream_sink_clear(sb_stream_sink *s)
{
    if (!s)
        return;
    s->out.len = s->err.len = s->tags.len = s->input.len = 0;
    s->n = 0;
}

void sb_stream_sink_free(sb_stream_sink *s)
{
    if (!s)
        return;
    sb_buf_free(&s->out);
    sb_buf_free(&s->err);
    sb_buf_free(&s->tags);
    sb_buf_free(&s->input);
    s->n = 0;
}

void sb_buf_free(sb_buf *b)
{
    if (!b)
        return;
    free(b->data);
    *b = (sb_buf){0};
}

/* ------------------------------------------------------------------------------------------ */
/* Output                                                                                     */
/* ------------------------------------------------------------------------------------------ */

void sb_buf_put(sb_buf *b, const void *p, size_t n)
{
    char *d = n && p ? sb_buf_reserve(b, n) : NULL;
    if (d) {
        memcpy(d, p, n);
        b->len += n;
    }
}

/* Emits messages through the job, or into its sink (nothing when empty). */
static void emit(const sb_stream *s, const char *p, size_t n)
{
    if (n && s->job->sink)
        sb_buf_put(&s->job->sink->err, p, n);
    else if (n)
        s->job->message(s->job->ctx, p, n);
}

/* A buffer could not grow: reports it and stops the run. */
static void oom(sb_stream *s)
{
    s->job->error(s->job->ctx, SB_ERR_NOMEM, NULL);
    s->fatal = SB_ERR_NOMEM;
}

/* Writes a handled window in order: each chunk's messages, then its records, up to the
 * first chunk the stop flag cut short (its finished records included); then the window's
 * input-level messages if it was finished. */
static void write_window(sb_stream *s, window *w)
{
    const sb_stream_job *job = s->job;
    const size_t nchunks = (w->n + CHUNK - 1) / CHUNK;
    for (size_t c = 0; c < nchunks && !s->fatal; c++) {
        const size_t size = c + 1 < nchunks ? CHUNK : w->n - c * CHUNK;
        if (w->out[c].oom || w->err[c].oom) {
            oom(s);
            return;
        }
        /* A chunk's messages go before its records, as when they were printed while
         * reading: with 2>&1 each message lands at most one chunk ahead of its record. */
        emit(s, w->err[c].data, w->err[c].len);
        if (job->sink) {
            sb_buf_put(&job->sink->out, w->out[c].data, w->out[c].len);
        } else if (job->write(job->ctx, w->out[c].data, w->out[c].len) != 0) {
            s->fatal = SB_ERR_IO;
            return;
        }
        const size_t k = w->done[c];
        if (k > 0 && w->rec) {
            const size_t last = c * CHUNK + k - 1;
            s->last_input = (int)w->input[last];
            s->last_line = w->rec[last].line;
        }
        if (k > 0 && job->sink) {
            sb_buf_put(&job->sink->tags, w->tags + c * CHUNK * job->tag_size, k * job->tag_size);
            if (w->input)
                sb_buf_put(&job->sink->input, w->input + c * CHUNK, k * sizeof *w->input);
            job->sink->n += k;
        } else if (k > 0 && job->commit) {
            job->commit(job->ctx, w->input ? w->input + c * CHUNK : NULL,
                        w->tags + c * CHUNK * job->tag_size, k);
        }
        s->written += k;
        if (k < size) {
            /* Stopped inside this chunk: later chunks must not follow a gap. */
            if (w->halt[c] && !s->halt_rc)
                s->halt_rc = w->halt[c];
            return;
        }
    }
    if (w->trailer.oom)
        oom(s);
    else
        emit(s, w->trailer.data, w->trailer.len);
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
static void close_input(sb_stream *s)
{
    struct stat st;
    if (s->in_regular && fstat(s->fd, &st) == 0)
        s->bytes_prior += (uint64_t)st.st_size;
    sb_reader_close(s->reader);
    if (s->in != stdin)
        fclose(s->in);
    s->reader = NULL;
    s->in = NULL;
}

/* Input i failed: the job appends its message to w's trailer. */
static void input_failed(sb_stream *s, window *w, int i, sb_stream_fail why, int status, int err)
{
    s->failed++;
    s->job->input_error(s->job->ctx, i, why, status, err, &w->trailer);
}

/* Opens the next input. @return 1 when one is open, 0 when none is left, -1 after a failure
 * reported into w's trailer (the caller then ends the window, to keep order). */
static int open_next(sb_stream *s, window *w)
{
    const sb_stream_job *job = s->job;
    if (s->next_input >= s->end_input)
        return 0;
    const int i = s->next_input++;
    /* a compressed input is read through a decompressing stream (sb_input_open) */
    FILE *in = s->given;
    sb_input_kind kind = SB_INPUT_TEXT;
    const int got = in ? 0 : sb_input_open(job->files[i], &in, &kind);
    s->given = NULL; /* the reader's now: close_input closes it */
    if (got != 0) {
        if (got > 0)
            input_failed(s, w, i, SB_STREAM_KIND, (int)kind, 0);
        else
            input_failed(s, w, i, SB_STREAM_OPEN, SB_ERR_IO, errno);
        return -1;
    }
    const int st = sb_reader_open(&s->reader, s->geo, in);
    sb_reader_set_stop(s->reader, s->stop); /* a stop ends the skip of an endless line */
    if (st != SB_OK) {
        if (in != stdin)
            fclose(in);
        input_failed(s, w, i, SB_STREAM_READER, st, 0);
        return -1;
    }
    struct stat sst;
    s->in = in;
    s->fd = fileno(in);
    /* A stream without a descriptor (fmemopen: a byte range or a buffer) never blocks. */
    s->in_regular = s->fd < 0 || (fstat(s->fd, &sst) == 0 && S_ISREG(sst.st_mode));
    s->cur = i;
    if (job->opened)
        job->opened[i] = 1;
    return 1;
}

/* Fills w with the next records (or items). With may_block 0 it never waits for input: it
 * stops where a read could block. With 1 the first read may block (nothing is pending then),
 * later ones may not: a window is handed over as soon as the input pauses, so pipes and
 * terminals stream. Stops early at an input-level message or a stop request. */
static void fill(sb_stream *s, window *w, int may_block)
{
    const sb_stream_job *job = s->job;
    w->n = 0;
    w->first = job->item_base + s->read;
    w->trailer.len = 0;
    if (!s->records) {
        const uint64_t left = job->items - s->read;
        w->n = left < s->window ? (size_t)left : s->window;
        s->read += w->n;
        s->inputs_done = s->read == job->items;
        return;
    }
    while (w->n < s->window && !*s->stop && !s->inputs_done) {
        if (!s->reader) {
            const int st = open_next(s, w);
            if (st == 0)
                s->inputs_done = 1;
            if (st <= 0)
                break;
        }
        if (!s->in_regular && (w->n > 0 || !may_block) && !readable(s->fd))
            break;
        sb_record *rec = &w->rec[w->n];
        const int st = sb_reader_next(s->reader, rec, w->cells + w->n * s->ncells,
                                      w->cand ? w->cand + w->n * s->ncells : NULL);
        if (st == 1 && s->skipped < job->skip) {
            s->skipped++; /* its output was written by an earlier run */
            if (rec->kind == SB_LINE_INVALID)
                s->skipped_invalid++;
        } else if (st == 1) {
            rec->line += job->line_base; /* a piece of an input: the whole input's lines */
            w->input[w->n++] = (uint32_t)s->cur;
            s->read++;
        } else if (st == 0) {
            close_input(s);
        } else if (st == SB_ERR_STOPPED) {
            break; /* the stop flag went up while an endless line was being skipped */
        } else if (errno != EINTR) {
            input_failed(s, w, s->cur, SB_STREAM_READ, st, errno);
            close_input(s);
            break;
        } /* EINTR: a signal came during a blocking read; the loop checks the stop flag */
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Rounds                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Handles chunk c of w with the calling thread's worker. */
static void run_chunk(sb_stream *s, window *w, size_t c, void *worker)
{
    const sb_stream_job *job = s->job;
    /* Local copies: neighbouring chunks' buffer headers share cache lines, and another
     * thread is formatting the next chunk; the headers are written back once at the end. */
    sb_buf out = w->out[c], err = w->err[c];
    out.len = err.len = 0;
    const size_t lo = c * CHUNK, hi = lo + CHUNK < w->n ? lo + CHUNK : w->n;
    size_t i = lo;
    int st = SB_OK;
    uint64_t halt_at;
    /* Puzzles handled ahead by job->chunk are written even when the stop flag went up
     * meanwhile (the handler reports SB_ERR_STOPPED at the first one the flag cut short);
     * any other record stops at the flag, as without a chunk handler. */
    const int ahead = job->chunk && w->rec && hi > lo;
    if (ahead)
        job->chunk(job->ctx, worker, w->rec + lo, w->cells + lo * s->ncells, hi - lo);
    for (; i < hi; i++) {
        if (*s->stop && !(ahead && w->rec[i].kind == SB_LINE_PUZZLE))
            break;
#pragma omp atomic read
        halt_at = s->halt_at;
        if (w->first + i > halt_at)
            break; /* an earlier item ended the run: nothing after it is written */
        const size_t olen = out.len, elen = err.len;
        unsigned char *tag = w->tags + i * job->tag_size;
        if (w->rec) {
            const sb_record *rec = &w->rec[i];
            const uint64_t *cand = rec->marks ? w->cand + i * s->ncells : NULL;
            st = job->record(job->ctx, worker, w->input[i], rec, w->cells + i * s->ncells, cand,
                             &out, &err, tag);
        } else
            st = job->item(job->ctx, worker, w->first + i, &out, &err, tag);
        if (st != SB_OK) {
            out.len = olen; /* an unfinished item leaves nothing behind */
            if (st == SB_ERR_STOPPED)
                err.len = elen;
            break;
        }
    }
    if (st > 0) {
#pragma omp critical(sb_stream_halt)
        if (w->first + i < s->halt_at) {
#pragma omp atomic write
            s->halt_at = w->first + i;
        }
    }
    w->halt[c] = st > 0 ? st : 0;
    w->out[c] = out;
    w->err[c] = err;
    w->done[c] = i - lo;
#pragma omp atomic
    s->done_items += i - lo;
}

/* One round: handles the chunks of cur on every thread while the calling thread first writes
 * wout (the previous round's window, if any) and then refills wfill (if any) without
 * blocking. wout and wfill are the same window: it is written before it is reused. */
static void round_run(sb_stream *s, window *cur, window *wout, window *wfill)
{
    const sb_stream_job *job = s->job;
    const size_t nchunks = (cur->n + CHUNK - 1) / CHUNK;
    int nt = s->threads;
    if ((size_t)nt > nchunks)
        nt = nchunks ? (int)nchunks : 1;
    /* A team larger than the last one starts threads, and the runtime exits the process when
     * it cannot: check first (smaller teams reuse the runtime's threads). Past the first
     * round this needs the input to pause and then flow again, and memory to run out
     * between; the records written so far stay, the run ends with the error. */
    if (nt > s->team) {
        char why[2 * SB_WHY_LEN];
        if (sb_threads_check(nt, why, sizeof why) != SB_OK) {
            if (wout)
                write_window(s, wout);
            job->error(job->ctx, SB_ERR_THREADS, why);
            s->fatal = SB_ERR_THREADS;
            cur->n = 0; /* nothing of it was handled: run() must not write it */
            return;
        }
    }
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        const int tid = omp_get_thread_num();
        if (tid != 0) /* keep SIGINT/SIGTERM for the caller, whose reads they must interrupt */
            pthread_sigmask(SIG_BLOCK, &s->stop_set, NULL);
#pragma omp master
        {
            s->team = omp_get_num_threads();
            if (wout)
                write_window(s, wout);
            if (wfill && !s->fatal)
                fill(s, wfill, 0);
        }
        void *worker = s->workers[tid];
#pragma omp for schedule(dynamic, 1) nowait
        for (size_t c = 0; c < nchunks; c++) {
            run_chunk(s, cur, c, worker);
            if (tid == 0 && job->progress)
                job->progress(job->ctx, s);
        }
    }
}

int sb_stream_run(sb_stream *s)
{
    if (!s)
        return SB_ERR_ARG;
    window *cur = &s->win[0], *other = &s->win[1];
    int pending = 0; /* other holds a handled window not yet written */
    fill(s, cur, 1);
    for (;;) {
        if (cur->n == 0 && cur->trailer.len == 0) { /* input done or stop requested */
            if (pending)
                write_window(s, other);
            break;
        }
        const int refill = !s->inputs_done && !*s->stop && s->halt_at == UINT64_MAX &&
                           cur->trailer.len == 0;
        round_run(s, cur, pending ? other : NULL, refill ? other : NULL);
        if (!refill)
            other->n = 0, other->trailer.len = 0;
        if (*s->stop || s->fatal || s->halt_at != UINT64_MAX) {
            write_window(s, cur);
            break;
        }
        if (other->n == 0 && other->trailer.len == 0) {
            /* Nothing read ahead: the input pauses or ends. Write what is done before a read
             * that may block, so interactive use sees every answer at once. */
            write_window(s, cur);
            if (s->fatal || s->inputs_done)
                break;
            fill(s, other, 1);
            pending = 0;
        } else {
            pending = 1;
        }
        window *t = cur;
        cur = other;
        other = t;
    }
    if (s->fatal)
        return s->fatal;
    if (s->halt_rc)
        return s->halt_rc;
    return *s->stop ? SB_ERR_STOPPED : SB_OK;
}

void sb_stream_progress(const sb_stream *s, sb_stream_stats *st)
{
    uint64_t done;
    if (!s || !st)
        return;
#pragma omp atomic read
    done = s->done_items;
    *st = (sb_stream_stats){.done = done, .written = s->written, .skipped = s->skipped,
                            .skipped_invalid = s->skipped_invalid, .failed = s->failed,
                            .last_input = s->last_input, .last_line = s->last_line,
                            .fraction = -1};
    /* Items of a known total, or for records the input bytes consumed scaled to records
     * (bytes per record so far predict the rest). */
    if (!s->records && s->job->items)
        st->fraction = (double)done / (double)s->job->items;
    else if (s->bytes_total && s->read) {
        const off_t pos = s->in && s->in_regular ? lseek(s->fd, 0, SEEK_CUR) : 0;
        const double bytes = (double)s->bytes_prior + (pos > 0 ? (double)pos : 0.0);
        if (bytes > 0)
            st->fraction = (double)done / ((double)s->read * (double)s->bytes_total / bytes);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Setup and teardown                                                                         */
/* ------------------------------------------------------------------------------------------ */

void sb_stream_free(sb_stream *s)
{
    if (!s)
        return;
    if (s->reader)
        close_input(s);
    if (s->given) /* never opened: the run did not start */
        fclose(s->given);
    for (int t = 0; t < s->threads && s->workers; t++)
        if (s->workers[t])
            s->job->worker_end(s->job->ctx, s->workers[t]);
    free(s->workers);
    for (int k = 0; k < 2; k++) {
        window *w = &s->win[k];
        const size_t nchunks = s->window / CHUNK;
        /* sb_stream_new may have stopped between the two allocations */
        for (size_t c = 0; c < nchunks && w->out && w->err; c++) {
            sb_buf_free(&w->out[c]);
            sb_buf_free(&w->err[c]);
        }
        free(w->rec);
        free(w->cells);
        free(w->cand);
        free(w->input);
        free(w->out);
        free(w->err);
        free(w->done);
        free(w->halt);
        free(w->tags);
        sb_buf_free(&w->trailer);
    }
    free(s);
}

/* The input sizes for the fraction done, when every input is a regular file of text (else 0:
 * a compressed one's decompressed size is not known ahead). */
static uint64_t inputs_size(const sb_stream_job *job)
{
    uint64_t total = 0;
    for (int i = 0; i < job->nfiles; i++) {
        struct stat st;
        const int named = strcmp(job->files[i], "-") != 0;
        if (!(named ? stat(job->files[i], &st) == 0 : fstat(STDIN_FILENO, &st) == 0) ||
            !S_ISREG(st.st_mode))
            return 0; /* opened only once it is known to be no FIFO */
        const int fd = named ? open(job->files[i], O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
        const int ok = fd >= 0;
        unsigned char head[SB_INPUT_SNIFF];
        const off_t at = ok && !named ? lseek(fd, 0, SEEK_CUR) : 0;
        const ssize_t n = ok && at >= 0 ? pread(fd, head, sizeof head, at) : 0;
        if (named && fd >= 0)
            close(fd);
        if (!ok || (n > 0 && sb_input_sniff(head, (size_t)n) != SB_INPUT_TEXT))
            return 0;
        total += (uint64_t)st.st_size;
    }
    return total;
}

/* @return whether job has what a stream calls and sizes that fit (sb_stream_new). */
static int job_usable(const sb_stream_job *job)
{
    const int records = job->files != NULL;
    if (!job->worker_new || !job->worker_end || !job->error)
        return 0;
    if (!job->sink && (!job->write || !job->message))
        return 0;
    if (records ? !job->record || !job->input_error || !job->g || job->nfiles < 0 ||
                      job->first < 0 || (!job->given && job->first > job->nfiles) ||
                      (job->given && job->first >= job->nfiles)
                : job->items && !job->item)
        return 0;
    for (int i = job->first; records && i < job->nfiles; i++)
        if (!job->files[i])
            return 0;
    return job->tag_size <= WINDOW_BYTES;
}

int sb_stream_new(sb_stream **out, const sb_stream_job *job)
{
    if (!out || !job || !job_usable(job)) {
        if (out)
            *out = NULL;
        if (job && job->given) /* closed by the stream, even when it cannot be made */
            fclose(job->given);
        return SB_ERR_ARG;
    }
    *out = NULL;
    sb_stream *s = calloc(1, sizeof *s);
    if (!s) {
        if (job->given)
            fclose(job->given);
        return SB_ERR_NOMEM;
    }
    s->job = job;
    s->given = job->given;
    s->threads = job->threads < 1 ? 1 : job->threads;
    s->stop = job->stop ? job->stop : &never_stop;
    s->team = 1;
    s->last_input = -1;
    s->halt_at = UINT64_MAX;
    s->records = job->files != NULL;
    s->next_input = job->first;
    s->end_input = job->given ? job->first + 1 : job->nfiles;
    s->inputs_done = !s->records && job->items == 0;
    size_t win = (size_t)s->threads * WINDOW_PER_THREAD;
    s->window = win < WINDOW_MIN ? WINDOW_MIN : win > WINDOW_MAX ? WINDOW_MAX : win;
    s->geo = job->g;
    s->ncells = s->records ? (size_t)sb_geometry_cells(s->geo) : 0;
    const int marks = s->records && job->marks;
    const size_t rec_bytes =
        sizeof(sb_record) + s->ncells + (marks ? s->ncells * sizeof(uint64_t) : 0);
    if (s->window * rec_bytes > WINDOW_BYTES) /* large records (64x64 grids): fewer */
        s->window = WINDOW_BYTES / rec_bytes / CHUNK * CHUNK + CHUNK;
    sigemptyset(&s->stop_set);
    sigaddset(&s->stop_set, SIGINT);
    sigaddset(&s->stop_set, SIGTERM);
    s->workers = calloc((size_t)s->threads, sizeof *s->workers);
    if (!s->workers)
        goto oom;
    for (int t = 0; t < s->threads; t++) {
        const int rc = job->worker_new(job->ctx, &s->workers[t]);
        if (rc) {
            sb_stream_free(s);
            return rc;
        }
    }
    const size_t nchunks = s->window / CHUNK;
    for (int k = 0; k < 2; k++) {
        window *w = &s->win[k];
        w->out = calloc(nchunks, sizeof *w->out);
        w->err = calloc(nchunks, sizeof *w->err);
        w->done = calloc(nchunks, sizeof *w->done);
        w->halt = calloc(nchunks, sizeof *w->halt);
        w->tags = malloc(s->window * (job->tag_size ? job->tag_size : 1));
        if (!w->out || !w->err || !w->done || !w->halt || !w->tags)
            goto oom;
        if (s->records) {
            w->rec = malloc(s->window * sizeof *w->rec);
            w->cells = malloc(s->window * s->ncells);
            w->cand = marks ? malloc(s->window * s->ncells * sizeof *w->cand) : NULL;
            w->input = malloc(s->window * sizeof *w->input);
            if (!w->rec || !w->cells || (marks && !w->cand) || !w->input)
                goto oom;
        }
    }
    if (s->records)
        s->bytes_total = inputs_size(job);
    *out = s;
    return SB_OK;
oom:
    sb_stream_free(s);
    return SB_ERR_NOMEM;
}
