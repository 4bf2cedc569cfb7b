/*
 * batch.c — the program's client of the stream engine (src/app/stream.c, app.h "Streams"): a
 * command's cli_batch becomes an sb_stream_job whose callbacks print. The engine reads, handles
 * and orders; this file writes: records to standard output (or -o FILE, cut back to a record
 * boundary when a write fails), stderr text with the progress line erased first, the progress
 * line itself, every message, and the exit codes.
 *
 * Interrupts. SIGINT/SIGTERM raise the stop flag (stop.c) while a run is under way; the
 * engine stops on a record boundary and this file reports "interrupted after N records".
 *
 * Segments (MPI, src/cli/mpi.c). This file calls the MPI layer (cli_mpi_records/items)
 * and hands it a cli_batch_ops, so mpi.c never calls batch.c by name (no circle between
 * the two files). Its segment runs the same engine over one piece of one input (a line-aligned byte
 * range; its items: the items from item_base on), with its line numbers shifted to the
 * input's, and hands what would be written and committed to a sink (sb_stream_sink) instead; its
 * sink_write (cli_sink_write) later writes and commits a sink with the same guarantees, so
 * rank 0 can emit every rank's segments in input order.
 */
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

enum {
    PROGRESS_MS = 250,       /* at most four progress updates a second */
    PROGRESS_WIDTH = 100     /* longest progress line */
};

/* What one run of the engine prints through: the stream job's context. */
typedef struct run {
    const cli_batch *job;   /* what to run */
    int out_fd;             /* descriptor of job->out */
    cli_input *inputs;      /* record runs: every input, names precomputed */
    int ninputs;            /* entries in inputs */
    /* progress */
    int progress;           /* show the progress line */
    int drawn;              /* a progress line has been drawn */
    int always;             /* --progress always: draw the final line even if no tick came */
    double t0;              /* run start (monotonic seconds) */
    double last_shown;      /* when the progress line was last drawn */
    int shown_len;          /* characters of the progress line on screen, 0 if none */
} run;

int cli_default_threads(void)
{
    const int t = omp_get_max_threads();
    return t < 1 ? 1 : t > 1024 ? 1024 : t;
}

const char *cli_threads_default(char *buf, size_t len)
{
    /* The help, and so the man pages made from it, names no machine's core count; only a
     * count the user set is shown, as it is the one a run would take. */
    const char *env = getenv("OMP_NUM_THREADS");
    if (!env || !*env)
        return "default: every core";
    snprintf(buf, len, "default %d, from $OMP_NUM_THREADS", cli_default_threads());
    return buf;
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
    /* Without -o the records go to standard output, which must not be an input either
     * (`solve F >> F` would read its own records back without end). --resume writes
     * FILE.resume too. Every rank checks, so all of them refuse together. */
    char side[SB_SIDE_PATH];
    cli_write w[2] = {{"-o", path}, {"--resume", side}};
    const int nw = !path ? 1 : 1 + (b->resume && sb_side_path(path, side) == SB_OK);
    if (cli_paths_refuse(cmd, w, nw, files, nfiles, extra))
        return CLI_EXIT_USAGE;
    if (b->resume && cli_resume_inputs(cmd, b, files, nfiles))
        return CLI_EXIT_USAGE;
    if (!path)
        return 0;
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

/* Erases the progress line so a message can take its place (redrawn at the next tick). */
static void progress_clear(run *r)
{
    if (!r->shown_len)
        return;
    char blank[PROGRESS_WIDTH + 2];
    blank[0] = '\r';
    memset(blank + 1, ' ', (size_t)r->shown_len);
    blank[r->shown_len + 1] = '\r';
    cli_write_all(STDERR_FILENO, blank, (size_t)r->shown_len + 2);
    r->shown_len = 0;
}

/* Writes text to stderr, erasing the progress line first (the next tick redraws it); a
 * segment keeps it in its sink. The engine's message callback. */
static void write_err(void *ctx, const char *p, size_t n)
{
    run *r = ctx;
    if (n == 0)
        return;
    if (r->job->sink) {
        sb_buf_put(&r->job->sink->err, p, n);
        return;
    }
    progress_clear(r);
    cli_write_all(STDERR_FILENO, p, n);
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

/* Draws the progress line of st at time now: counts, rate, and the ETA while the part done
 * is known (the elapsed time when final or unknown). */
static void progress_draw(run *r, const sb_stream_stats *st, double now, int final)
{
    r->last_shown = now;
    r->drawn = 1;
    const double secs = now - r->t0;
    const double rate = secs > 0 ? (double)st->done / secs : 0.0;
    const double frac = st->fraction;
    char when[64], line[PROGRESS_WIDTH + 1];
    if (frac > 0 && frac <= 1 && !final) {
        char eta[32];
        format_duration(eta, sizeof eta, secs * (1 - frac) / frac);
        snprintf(when, sizeof when, "%d%%, ETA %s", (int)(100 * frac), eta);
    } else {
        format_duration(when, sizeof when, secs); /* elapsed */
    }
    snprintf(line, sizeof line, "\r" CLI_NAME ": %llu %s, %.0f/s, %s",
             (unsigned long long)st->done, r->job->unit ? r->job->unit : "records", rate, when);
    int len = (int)strlen(line) - 1; /* without the '\r' */
    /* Pad over the tail of a longer previous line instead of relying on terminal escapes. */
    const int pad = r->shown_len > len ? r->shown_len - len : 0;
    memset(line + len + 1, ' ', (size_t)pad);
    cli_write_all(STDERR_FILENO, line, (size_t)(len + 1 + pad));
    r->shown_len = len;
}

/* The engine's progress callback (the calling thread, after each of its chunks): draws the
 * line when PROGRESS_MS have passed since the last one. */
static void progress_tick(void *ctx, const sb_stream *s)
{
    run *r = ctx;
    const double now = cli_now_seconds();
    if (now - r->last_shown < PROGRESS_MS / 1000.0)
        return;
    sb_stream_stats st;
    sb_stream_progress(s, &st);
    progress_draw(r, &st, now, 0);
}

/* Reports that a buffer could not grow (the run stops). */
static void oom(run *r)
{
    static const char msg[] = CLI_NAME ": out of memory formatting records\n";
    write_err(r, msg, sizeof msg - 1);
}

/* The engine's error callback: memory ran out formatting, or threads could not start. */
static void run_error(void *ctx, int status, const char *why)
{
    run *r = ctx;
    if (status == SB_ERR_NOMEM) {
        oom(r);
        return;
    }
    char msg[4 * SB_WHY_LEN];
    const int len = snprintf(msg, sizeof msg, CLI_NAME ": %s\n", why);
    write_err(r, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
}

/* Writes one chunk's n bytes of records to the job's output (the engine's write callback;
 * a segment's go to its sink). @return 0, or -1 after the "write error" message. */
static int write_out(void *ctx, const char *p, size_t n)
{
    run *r = ctx;
    const off_t at = lseek(r->out_fd, 0, SEEK_CUR); /* -1 on a pipe or terminal */
    if (cli_write_all(r->out_fd, p, n) != 0) {
        /* A full disk takes part of a chunk before it fails: cut a file back to the
         * chunk's start so it ends on a record boundary (a pipe fails only with EPIPE,
         * when no reader is left to see a torn record). */
        const int why = errno;
        if (at >= 0 && ftruncate(r->out_fd, at) == 0)
            lseek(r->out_fd, at, SEEK_SET);
        errno = why;
        char msg[160 + 4 * 256];
        const int len = snprintf(msg, sizeof msg, CLI_NAME ": write error: %.1024s: %s\n",
                                 r->job->out_name ? r->job->out_name : "standard output",
                                 strerror(errno));
        write_err(r, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
        return -1;
    }
    return 0;
}

/* Passes the tags of n written records to the job's commit (a segment's go to its sink: rank
 * 0 commits every rank's in input order). */
static void commit_tags(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    const run *r = ctx;
    if (r->job->commit)
        r->job->commit(r->job->ctx, input, tags, n);
}

/* An input could not be opened or read: its message goes after the records before it, the
 * run's exit code is 2, and the records after it no longer line up with the input, so a
 * --resume run's side file says so (resume.c). */
static void input_failed(void *ctx, int i, sb_stream_fail why, int status, int err,
                         sb_buf *msg)
{
    const run *r = ctx;
    const char *name = r->inputs[i].msg_name;
    if (why == SB_STREAM_OPEN)
        sb_buf_printf(msg, CLI_NAME ": cannot open '%s': %s\n", name, strerror(err));
    else if (why == SB_STREAM_READER)
        sb_buf_printf(msg, CLI_NAME ": %s: %s\n", name, sb_strerror(status));
    else if (why == SB_STREAM_KIND)
        cli_input_kind_msg(msg, name, (sb_input_kind)status);
    else
        sb_buf_printf(msg, CLI_NAME ": %s: read error: %s\n", name, sb_input_strerror(err));
    if (r->job->opened) /* not read to its end: no summary line (rate's) claims it was */
        r->job->opened[i] = 0;
    if (r->job->resume && !r->job->sink)
        cli_resume_broken(r->job);
}

/* ------------------------------------------------------------------------------------------ */
/* The command's handlers, called by the engine                                               */
/* ------------------------------------------------------------------------------------------ */

/* Makes one thread's worker (without worker_new: the command's shared state). */
static int worker_new(void *ctx, void **worker)
{
    const run *r = ctx;
    if (!r->job->worker_new)
        return *worker = r->job->ctx, 0;
    return r->job->worker_new(r->job->ctx, worker);
}

/* Frees one thread's worker. */
static void worker_end(void *ctx, void *worker)
{
    const run *r = ctx;
    if (r->job->worker_end)
        r->job->worker_end(r->job->ctx, worker);
}

/* Handles a record: an invalid line's message first, then the command's handler. */
static int handle_record(void *ctx, void *worker, uint32_t input, const sb_record *rec,
                         const uint8_t *cells, const uint64_t *cand, sb_buf *out, sb_buf *err,
                         void *tag)
{
    const run *r = ctx;
    const cli_input *in = &r->inputs[input];
    if (rec->kind == SB_LINE_INVALID)
        cli_format_invalid(err, in->msg_name, rec);
    return r->job->record(worker, in, rec, cells, cand, out, err, tag);
}

/* Hands a chunk's records to the command's chunk handler. */
static void handle_chunk(void *ctx, void *worker, const sb_record *recs, const uint8_t *cells,
                         size_t n)
{
    const run *r = ctx;
    r->job->chunk(worker, recs, cells, n);
}

/* Handles an item with the command's handler. */
static int handle_item(void *ctx, void *worker, uint64_t index, sb_buf *out, sb_buf *err,
                       void *tag)
{
    const run *r = ctx;
    return r->job->item(worker, index, out, err, tag);
}

/* ------------------------------------------------------------------------------------------ */
/* Runs                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Makes the stream job of r (its batch b) in *sj: every callback, the stop flag, and
 * whether the progress line shows. */
static void job_init(run *r, const cli_batch *b, sb_stream_job *sj)
{
    r->job = b;
    r->out_fd = fileno(b->out);
    r->progress = !b->sink && (b->progress == CLI_PROGRESS_ALWAYS ||
                               (b->progress == CLI_PROGRESS_AUTO && isatty(STDERR_FILENO)));
    r->always = b->progress == CLI_PROGRESS_ALWAYS;
    *sj = (sb_stream_job){.threads = b->threads, .ctx = r, .stop = cli_stop_flag(),
                          .g = b->g, .marks = b->marks,
                          .skip = b->skip, .line_base = b->line_base,
                          .item_base = b->item_base, .tag_size = b->tag_size,
                          .opened = b->opened, .sink = b->sink, .worker_new = worker_new,
                          .worker_end = worker_end, .record = b->record ? handle_record : NULL,
                          .chunk = b->chunk ? handle_chunk : NULL,
                          .item = b->item ? handle_item : NULL, .write = write_out,
                          .message = write_err, .commit = commit_tags,
                          .input_error = input_failed, .error = run_error};
}

/* Makes the stream of sj. @return 0, or an exit code after a message. */
static int stream_new(sb_stream **s, const sb_stream_job *sj)
{
    const int st = sb_stream_new(s, sj);
    if (st == SB_OK || st > 0)
        return st; /* a worker's code: its message is out */
    return cli_oom();
}

int cli_flush_out(const cli_batch *b)
{
    if (fflush(b->out) == 0)
        return 0;
    fprintf(stderr, CLI_NAME ": write error: %s: %s\n",
            b->out_name ? b->out_name : "standard output", strerror(errno));
    return CLI_EXIT_USAGE;
}

/* Runs s with the stop handlers in place, then reports how the run ended.
 * @return the run's exit code (see cli_batch_records). */
static int stream_run(run *r, sb_stream *s)
{
    const cli_batch *b = r->job;
    cli_stop_state stop;
    cli_stop_begin(&stop);
    /* What the command printed first (csv header), flushed only now: in a file or a pipe
     * (fully buffered), a first byte of output means a stop signal will be caught, the sign
     * tests/cli/signals.sh waits for. A segment writes nothing itself. */
    const int fatal = !b->sink && cli_flush_out(b) != 0;
    r->t0 = cli_now_seconds();
    r->last_shown = r->t0; /* the first line after PROGRESS_MS: short runs stay quiet */
    const int st = fatal ? SB_OK : sb_stream_run(s);
    cli_stop_end(&stop);
    sb_stream_stats ss;
    sb_stream_progress(s, &ss);
    if (b->skipped_all)
        *b->skipped_all += ss.skipped;
    if (b->skipped_invalid)
        *b->skipped_invalid += ss.skipped_invalid; /* the exit code still owes them a 1 */
    if (r->progress && (r->drawn || r->always)) {
        progress_draw(r, &ss, cli_now_seconds(), 1);
        cli_write_all(STDERR_FILENO, "\n", 1);
        r->shown_len = 0;
    }
    if (fatal || (st < 0 && st != SB_ERR_STOPPED))
        return CLI_EXIT_USAGE; /* write error, memory, threads: reported */
    if (st > 0)
        return st; /* the handler's reason is on stderr already */
    if (cli_stop_requested() && b->sink)
        return CLI_EXIT_INTERRUPTED; /* the MPI driver counts the records of every rank */
    if (cli_stop_requested()) {
        if (ss.last_input >= 0)
            fprintf(stderr, CLI_NAME ": interrupted after %llu records (%s:%llu)\n",
                    (unsigned long long)ss.written, r->inputs[ss.last_input].msg_name,
                    (unsigned long long)ss.last_line);
        else
            fprintf(stderr, CLI_NAME ": interrupted after %llu records\n",
                    (unsigned long long)ss.written);
        return CLI_EXIT_INTERRUPTED;
    }
    return ss.failed ? CLI_EXIT_USAGE : 0;
}

/* cli_batch_records over inputs first..nfiles-1, or with given only input first, read from
 * the stream given (which the engine closes); files NULL: items 0..items-1 instead. */
static int batch_run(const cli_batch *b, char *const *files, int nfiles, int first, FILE *given,
                     uint64_t items)
{
    run r = {.ninputs = nfiles};
    sb_stream_job sj;
    job_init(&r, b, &sj);
    sj.files = files;
    sj.nfiles = nfiles;
    sj.first = first;
    sj.given = given;
    sj.items = items;
    /* A terminal as input: the user is typing there; a progress line would garble it. */
    for (int i = 0; i < nfiles; i++)
        if (!strcmp(files[i], "-") && isatty(STDIN_FILENO) && b->progress == CLI_PROGRESS_AUTO)
            r.progress = 0;
    if (r.progress)
        sj.progress = progress_tick;
    sb_stream *s = NULL;
    int rc = stream_new(&s, &sj);
    if (!rc && files) {
        r.inputs = calloc((size_t)nfiles, sizeof *r.inputs);
        if (!r.inputs)
            rc = cli_oom();
    }
    /* Names in their printed forms once per input, not once per record. */
    for (int i = 0; !rc && i < nfiles; i++) {
        if (cli_input_init(&r.inputs[i], files[i]) != 0) {
            rc = cli_oom();
            break;
        }
        r.inputs[i].with_file = nfiles > 1;
    }
    if (!rc)
        rc = stream_run(&r, s);
    sb_stream_free(s);
    for (int i = 0; i < nfiles && r.inputs; i++)
        cli_input_free(&r.inputs[i]);
    free(r.inputs);
    return rc;
}

/* Items 0..count-1 of b on this process (b->item_base on): every item run, and the MPI
 * layer's segments (cli_batch_ops.items). */
static int batch_items(const cli_batch *b, uint64_t count)
{
    return batch_run(b, NULL, 0, 0, NULL, count);
}

#ifdef SB_MPI
/* A segment run for the MPI layer (cli_batch_ops.segment): input `input` of files read
 * from in, which the engine closes. */
static int batch_segment(const cli_batch *b, char *const *files, int nfiles, int input, FILE *in)
{
    return batch_run(b, files, nfiles, input, in, 0);
}

/* What the MPI layer may do with the engine: handed to it on every call, so mpi.c never
 * calls batch.c by name and the files' graph stays one way (batch.c -> mpi.c). */
static const cli_batch_ops mpi_ops = {.begin = cli_flush_out, .segment = batch_segment,
                                      .items = batch_items, .sink_write = cli_sink_write,
                                      .broken = cli_resume_broken};
#endif

int cli_batch_records(const cli_batch *b, char *const *files, int nfiles)
{
    cli_inputs(&files, &nfiles);
#ifdef SB_MPI
    if (!b->sink)
        return cli_mpi_records(&mpi_ops, b, files, nfiles, 0);
#endif
    return batch_run(b, files, nfiles, 0, NULL, 0);
}

int cli_batch_shard(const cli_batch *b, char *const *files, int nfiles)
{
#ifdef SB_MPI
    return cli_mpi_records(&mpi_ops, b, files, nfiles, 1);
#else
    return cli_batch_records(b, files, nfiles); /* one process holds every record */
#endif
}

int cli_sink_write(const cli_batch *b, const sb_stream_sink *s)
{
    run r = {.job = b, .out_fd = fileno(b->out)};
    if (s->err.oom || s->out.oom || s->tags.oom || s->input.oom) {
        oom(&r);
        return CLI_EXIT_USAGE;
    }
    if (cli_flush_out(b) != 0)
        return CLI_EXIT_USAGE;
    write_err(&r, s->err.data, s->err.len);
    if (write_out(&r, s->out.data, s->out.len) != 0)
        return CLI_EXIT_USAGE;
    cli_sink_commit(b, s);
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
