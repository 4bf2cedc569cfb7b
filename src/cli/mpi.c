/*
 * mpi.c — the same commands on MPI ranks (build/sudokubench-mpi, built by `make mpi` from
 * the same CLI sources with -DSB_MPI), with output byte-identical to one process.
 *
 * Sharding. A regular input file is cut into segments of SEGMENT bytes (the last one
 * shorter), each moved forward to the next line start, so every line lies in exactly one
 * segment (sb_segment_* of src/app/ find the cuts, count the lines and read a segment;
 * this file does the MPI calls). Segments are dealt round-robin: in round k, rank r handles segment k*R + r, read
 * with pread from its own descriptor (a rank reads only its segments, plus the bytes up to
 * the next newline that fix where a segment starts). Round-robin rather than R contiguous
 * ranges: rank 0 can then write round k's segments in rank order as soon as the round ends,
 * so nothing waits for the end of another rank's range and memory stays one segment of
 * output per rank, whatever the file size.
 *
 * Line numbers. Before handling its segment, a rank reads it (once, into memory) and counts
 * its lines; an MPI_Allgather of the round's counts gives each segment its global first
 * line, which the engine adds to every record (cli_batch.line_base): messages and records
 * carry the line of the whole file.
 *
 * One engine, called one way. The batch engine calls this layer (cli_mpi_records/items) and
 * hands it its own operations (cli_batch_ops), so this file never calls batch.c by name.
 * Each segment runs through the ordinary batch engine (cli_batch_ops.segment, with the
 * rank's -t threads, its windows and chunks) with a sink (sb_stream_sink) instead of the output: the segment's
 * records, stderr text and statistic tags. Rank 0 receives the sinks in rank order and
 * writes each as the engine would (cli_batch_ops.sink_write: stderr text, then records, then
 * the tags to the command's commit), so the command's summaries on rank 0 count every
 * rank's records and need no MPI code of their own. Within a segment stderr text keeps its
 * place before its records; across segments all of a segment's text precedes its records.
 *
 * Direct mode. When -o FILE is a regular file that every rank can write, the records skip
 * rank 0: an MPI_Allgather of the round's record bytes gives each segment its offset (the
 * prefix sum), rank 0 still writes the stderr text and commits the tags, and once it has
 * said which segments stand each rank writes its records at that offset: on rank 0's node
 * (same device and inode) with pwrite in a writer thread while it goes on with its next
 * segment, across nodes with MPI-IO (MPI_File_write_at, after checking that every rank
 * opened the same file). A writer's failure travels with the next round's byte counts; at
 * the end rank 0 cuts the file back to the first segment not wholly written, so the file
 * never ends inside a record.
 *
 * Status. After writing a round, rank 0 broadcasts whether to go on: a write error on rank
 * 0 (one message, exit 2; the output ends on a record boundary), a failed or halted segment
 * (generate's give-up, an interrupt, running out of memory) ends the run after that
 * segment, exactly where one process would have stopped. Every rank then returns the same
 * code, and cli_mpi_end makes every rank exit with rank 0's.
 *
 * Standard input and other inputs that cannot be read at an offset (pipes, terminals) are
 * read by rank 0 in line-aligned pieces of SEGMENT bytes, dealt round-robin the same way.
 * Another geometry (one record per line) may be cut after any line.
 * Item runs (generate, augment) deal ranges of ITEMS indices round-robin likewise.
 *
 * bench (cli_batch_shard: cli_mpi_records with local set) loads its puzzles through the same
 * rounds, but each rank commits its own segments' records (it benches its share) and rank 0
 * writes only their text (the messages of invalid lines, in order); bench.c then combines the ranks' figures with
 * cli_mpi_reduce / cli_mpi_gather / cli_mpi_bcast, which are no-ops for one process.
 *
 * --resume (resume.c: rank 0 cuts -o FILE after its last whole record and every rank learns
 * how many input records that is): those records lie in the first segments, one rank's after
 * another's, so while some are left each round first counts its segments' records (the
 * engine reading and dropping them) and each rank then drops its share (skip_count).
 *
 * A lost rank or host (a node dying, its link down) ends the job through Open MPI's runtime,
 * which kills every rank: nothing here can cut -o FILE back then. In direct mode with MPI-IO
 * the file then holds every round before the lost one, and of that round whatever the ranks
 * had written: a lost rank's segment may be missing while a later rank's was written, a hole
 * of NUL bytes. resume.c cuts FILE at its first NUL byte, so --resume continues it exactly.
 *
 * Ranks above 0 print nothing themselves: their standard output and error go to /dev/null
 * (everything they produce reaches rank 0 through the sinks), so a command's own lines
 * (csv header, summary) appear once.
 */
#include <string.h>

#include "cli.h"

#ifndef SB_MPI

int cli_mpi_rank(void)
{
    return 0;
}

int cli_mpi_size(void)
{
    return 0;
}

void cli_mpi_reduce(uint64_t *v, int n, cli_mpi_op op)
{
    (void)v, (void)n, (void)op; /* one process: its values are the totals */
}

void cli_mpi_gather(const void *mine, void *all, size_t size)
{
    memcpy(all, mine, size);
}

void cli_mpi_bcast(void *p, size_t size, int root)
{
    (void)p, (void)size, (void)root;
}

#else

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <mpi.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    SEGMENT_DEFAULT = 1 << 21, /* bytes per segment: ~25,000 puzzle lines, so a segment
                                  dwarfs the round's messages and stays a few MB of output */
    ITEMS_DEFAULT = 1 << 14,   /* items per segment of generate/augment */
    PHASE_BATCH = 1,           /* what the ranks are about to do (sync_phase) */
    PHASE_END = 2
};

/* A rank's own writes of its segments' records to -o FILE (direct mode): one segment at a
 * time through the segment writer (src/app/), in a thread so writing a segment overlaps
 * handling the next one (pwrite), or in place with MPI-IO (mpiio_write says why). */
typedef struct writer {
    int fd;                /* -o FILE: this rank's descriptor (rank 0's standard output) */
    int mpiio;             /* writes go through MPI-IO (fh, blocking) instead of pwrite (fd) */
    MPI_File fh;           /* mpiio: -o FILE opened on every rank */
    sb_segment_writer *sw; /* the writer: pwrite in a thread, or mpiio_write in place */
} writer;

/* The run's shape and its running state (one per cli_mpi_records/items call). */
typedef struct mpi_run {
    const cli_batch_ops *eng; /* the batch engine's operations (batch.c hands them in) */
    const cli_batch *b;  /* the command's job: rank 0 writes and commits through it */
    cli_batch seg;       /* the same job with the sink, for this rank's segments */
    sb_stream_sink sink;       /* this rank's segment of the round */
    sb_stream_sink recv;       /* rank 0: another rank's segment, received */
    cli_buf input;       /* this rank's segment of a regular file, read once (shard_file) */
    int rank, size;      /* this rank and the number of ranks */
    int rc;              /* the run's exit code so far (rank 0's view, broadcast) */
    int stop;            /* the run ends after this round */
    int local;           /* cli_batch_shard: each rank commits its own segments' tags */
    uint64_t written;    /* records written (rank 0; for the interrupt message) */
    int direct;          /* every rank writes its own records to -o FILE at their offset */
    writer w;            /* direct: this rank's writes */
    long long base;      /* direct: where the round's first segment goes in the file */
    long long *lens;     /* direct: per rank, its round's record bytes, its writer's first
                            failed offset and that errno (3 per rank) */
    int said;            /* direct: rank 0 has reported a write error */
    uint64_t skip_left;  /* --resume: input records still to drop (the same on every rank) */
    uint64_t skip_invalid; /* --resume: invalid lines among this rank's dropped records */
} mpi_run;

/* Where a rank's segment comes from, so it can be read twice (skip_count): bytes in memory,
 * or a range of a file read with pread. */
typedef struct seg_src {
    int has;          /* there is a segment (a round may have none for this rank) */
    char *data;       /* its bytes (NULL: a range of fd; NULL with fd < 0: memory ran out) */
    size_t len;
    int fd;           /* else [start, end) of fd */
    off_t start, end;
} seg_src;

/* A positive whole number from the environment variable name, else def. */
static uint64_t env_size(const char *name, uint64_t def)
{
    const char *s = getenv(name);
    unsigned long long v;
    return s && cli_parse_u64(s, &v) && v > 0 ? v : def;
}

/* query (MPI_Comm_rank or MPI_Comm_size) of the world once MPI is up, else 0. */
static int world(int (*query)(MPI_Comm, int *))
{
    int init = 0, v = 0;
    MPI_Initialized(&init);
    if (init)
        query(MPI_COMM_WORLD, &v);
    return v;
}

int cli_mpi_rank(void)
{
    return world(MPI_Comm_rank);
}

int cli_mpi_size(void)
{
    return world(MPI_Comm_size);
}

/* Checks that every rank is at the same point (a rank that failed before the batch while
 * the others entered it would leave them waiting for ever): on disagreement rank 0 says so
 * and the whole job aborts with exit 2. */
static void sync_phase(int phase)
{
    int mine[2] = {phase, -phase}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] != -all[1]) {
        if (cli_mpi_rank() == 0)
            fprintf(stderr, CLI_NAME ": mpi: the ranks took different paths (an input that "
                            "differs between ranks?)\n");
        MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_USAGE);
    }
}

int cli_mpi_begin(int *argc, char ***argv)
{
    int provided;
    /* Every segment sets up and frees the engine's windows (megabytes): kept in the heap
     * instead of mmap'ed and unmapped each time, they are reused without page faults (which
     * otherwise cost more than parsing: perf showed 20% of a run in the fault handler). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    /* Only the thread that called main talks to MPI (the engine's master thread). */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, CLI_NAME ": mpi: cannot initialise MPI\n");
        return CLI_EXIT_USAGE;
    }
    if (cli_mpi_rank() != 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
    }
    return 0;
}

int cli_mpi_end(int rc)
{
    sync_phase(PHASE_END); /* rc is final: the command has closed its output */
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Rounds: every rank's segment to rank 0, in rank order                                      */
/* ------------------------------------------------------------------------------------------ */

/* Waits for rq, sleeping between polls. A rank that finished its segment first waits for
 * the others; Open MPI's blocking calls would spin on a core meanwhile, which on a shared
 * or oversubscribed node takes it from the ranks still solving. Segments last tens of
 * milliseconds, so 50 us naps cost nothing. */
static void wait_for(MPI_Request *rq)
{
    int done = 0;
    for (unsigned spins = 0;; spins++) {
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        if (spins > 64)
            nanosleep(&(struct timespec){.tv_nsec = 50000}, NULL);
    }
}

/* MPI_Send, waiting with wait_for. */
static void send_wait(const void *p, int n, MPI_Datatype t, int to, int tag)
{
    MPI_Request rq;
    MPI_Isend(p, n, t, to, tag, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

/* MPI_Recv, waiting with wait_for. */
static void recv_wait(void *p, int n, MPI_Datatype t, int from, int tag)
{
    MPI_Request rq;
    MPI_Irecv(p, n, t, from, tag, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

/* MPI_Bcast from rank 0, waiting with wait_for. */
static void bcast_wait(void *p, int n, MPI_Datatype t)
{
    MPI_Request rq;
    MPI_Ibcast(p, n, t, 0, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

void cli_mpi_reduce(uint64_t *v, int n, cli_mpi_op op)
{
    const MPI_Op mop = op == CLI_MPI_SUM ? MPI_SUM : op == CLI_MPI_MIN ? MPI_MIN : MPI_MAX;
    MPI_Request rq;
    MPI_Iallreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, mop, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

void cli_mpi_gather(const void *mine, void *all, size_t size)
{
    MPI_Request rq;
    MPI_Igather(mine, (int)size, MPI_BYTE, all, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

void cli_mpi_bcast(void *p, size_t size, int root)
{
    MPI_Request rq;
    MPI_Ibcast(p, (int)size, MPI_BYTE, root, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
}

/* cli_batch_shard: commits this rank's segment to its own command (the records stay on the
 * rank) and empties the sink's tags, so rank 0 writes only the segment's text. */
static void commit_local(mpi_run *m)
{
    sb_stream_sink *s = &m->sink;
    if (!s->n || s->tags.oom || s->input.oom)
        return; /* nothing, or memory ran out: rank 0 reports that from the sink */
    cli_sink_commit(m->b, s);
    s->tags.len = s->input.len = 0;
    s->n = 0;
}

/* Sends this rank's sink (sizes, then the four buffers) to rank 0; its records only when
 * with_out (in direct mode the rank writes them itself). */
static void send_sink(const sb_stream_sink *s, int rc, int with_out)
{
    const cli_buf *part[4] = {&s->out, &s->err, &s->tags, &s->input};
    long long hdr[6] = {0, 0, 0, 0, (long long)s->n, rc};
    for (int k = !with_out; k < 4; k++) {
        hdr[k] = (long long)part[k]->len;
        if (part[k]->oom || part[k]->len > INT_MAX)
            hdr[5] = -1; /* cannot be sent: rank 0 reports running out of memory */
    }
    send_wait(hdr, 6, MPI_LONG_LONG, 0, 0);
    for (int k = 0; k < 4 && hdr[5] >= 0; k++)
        if (hdr[k])
            send_wait(part[k]->data, (int)hdr[k], MPI_BYTE, 0, 1 + k);
}

/* Receives rank r's sink into s. @return its segment's rc (-1: it could not be sent). */
static int recv_sink(sb_stream_sink *s, int r)
{
    cli_buf *part[4] = {&s->out, &s->err, &s->tags, &s->input};
    long long hdr[6];
    recv_wait(hdr, 6, MPI_LONG_LONG, r, 0);
    s->n = (uint64_t)hdr[4];
    for (int k = 0; k < 4; k++) {
        part[k]->len = 0;
        if (hdr[5] < 0 || !hdr[k])
            continue;
        char *p = cli_buf_reserve(part[k], (size_t)hdr[k]);
        char dummy;
        /* Received even when memory ran out (into one byte, truncated), so the sender
         * is never left waiting; the sink's oom flag reports it. */
        recv_wait(p ? p : &dummy, p ? (int)hdr[k] : 1, MPI_BYTE, r, 1 + k);
        if (p)
            part[k]->len = (size_t)hdr[k];
    }
    return (int)hdr[5];
}

/* The errno that best describes MPI error code rc of a file operation, for one process's
 * message: from its class, or when the class is the generic MPI_ERR_IO, the errno the call
 * left (err; Open MPI's posix back end writes in the calling thread and leaves the failed
 * write's, e.g. EFBIG), else EIO. */
static int mpiio_errno(int rc, int err)
{
    int cls = MPI_ERR_OTHER;
    MPI_Error_class(rc, &cls);
    return cls == MPI_ERR_NO_SPACE    ? ENOSPC
           : cls == MPI_ERR_QUOTA     ? EDQUOT
           : cls == MPI_ERR_ACCESS    ? EACCES
           : cls == MPI_ERR_READ_ONLY ? EROFS
           : cls == MPI_ERR_NO_SUCH_FILE ? ENOENT
           : err                         ? err
                                         : EIO;
}

/* MPI-IO write of the segment writer (ctx: the writer): n bytes at p to offset at with
 * blocking writes (Open MPI 4.1's non-blocking MPI_File_iwrite_at crashes in MPI_Wait when
 * the write fails: the request's error handler has no file), so the rank writes between its
 * segments rather than alongside them. Standard error is closed meanwhile: Open MPI prints
 * its own line about a failed write there, and the run's one message is rank 0's. @return
 * 0, or the errno of the failure. */
static int mpiio_write(void *ctx, const char *p, size_t n, int64_t at)
{
    const writer *w = ctx;
    size_t done = 0;
    int err = 0;
    const int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    while (done < n) {
        MPI_Status st;
        errno = 0;
        int more = 0, rc = MPI_File_write_at(w->fh, (MPI_Offset)(at + (int64_t)done), p + done,
                                             (int)(n - done), MPI_BYTE, &st);
        if (rc == MPI_SUCCESS && (MPI_Get_count(&st, MPI_BYTE, &more) != MPI_SUCCESS || more <= 0))
            rc = MPI_ERR_IO; /* no progress */
        if (rc != MPI_SUCCESS) {
            err = mpiio_errno(rc, errno);
            break;
        }
        done += (size_t)more;
    }
    if (saved >= 0 && null >= 0)
        dup2(saved, STDERR_FILENO);
    if (saved >= 0)
        close(saved);
    if (null >= 0)
        close(null);
    return err;
}

/* Direct mode: the rank whose writer failed at the lowest offset (m->lens), -1 if none. */
static int direct_failed(const mpi_run *m)
{
    int first = -1;
    for (int r = 0; r < m->size; r++)
        if (m->lens[3 * r + 1] >= 0 && (first < 0 || m->lens[3 * r + 1] < m->lens[3 * first + 1]))
            first = r;
    return first;
}

/* Direct mode, at a round's end: every rank learns every rank's record bytes and what its
 * writer reported so far (m->lens); rank 0 reports the first write error once and stops
 * the run. */
static void direct_gather(mpi_run *m)
{
    int err;
    const long long bad = sb_segment_writer_failed(m->w.sw, &err);
    long long mine[3] = {(long long)m->sink.out.len, bad, err};
    MPI_Request rq;
    MPI_Iallgather(mine, 3, MPI_LONG_LONG, m->lens, 3, MPI_LONG_LONG, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
    const int first = direct_failed(m);
    if (first < 0 || m->said)
        return;
    if (m->rank == 0)
        fprintf(stderr, CLI_NAME ": write error: %.1024s: %s\n", m->b->out_name,
                strerror((int)m->lens[3 * first + 2]));
    m->said = 1;
    m->rc = CLI_EXIT_USAGE, m->stop = 1;
}

/* Direct mode, once the round's verdict is in: the first keep segments stand; this rank
 * writes its own if it is one of them, and the next round starts after them. */
static void direct_write(mpi_run *m, int keep)
{
    long long before = 0, all = 0;
    for (int r = 0; r < keep; r++) {
        if (r < m->rank)
            before += m->lens[3 * r];
        all += m->lens[3 * r];
    }
    if (m->rank < keep)
        sb_segment_writer_put(m->w.sw, &m->sink.out, m->base + before);
    m->base += all;
}

/* Ends a round: rank 0 writes every rank's segment in rank order (up to the first that
 * ended the run; in direct mode only their stderr text, each rank then writing its own
 * records) and tells all ranks whether to go on. tail is a message rank 0 prints after
 * segment tail_at (an input-level read error), NULL for none. */
static void round_end(mpi_run *m, int rc, const char *tail, int tail_at)
{
    int keep = 0; /* segments of the round whose records stand */
    if (m->local)
        commit_local(m);
    if (m->direct)
        direct_gather(m);
    if (m->rank != 0) {
        send_sink(&m->sink, rc, !m->direct);
    } else {
        for (int r = 0; r < m->size; r++) {
            const sb_stream_sink *s = &m->sink;
            int src = rc;
            if (r > 0) {
                src = recv_sink(&m->recv, r);
                s = &m->recv;
            }
            if (m->stop)
                continue; /* an earlier segment ended the run: drain, write nothing */
            if (src < 0) {
                fprintf(stderr, CLI_NAME ": out of memory formatting records\n");
                m->rc = CLI_EXIT_USAGE, m->stop = 1;
                continue;
            }
            sb_stream_sink text = *s; /* direct mode: the records are the rank's to write */
            if (m->direct)
                text.out.len = 0;
            if (m->eng->sink_write(m->b, &text) != 0) {
                m->rc = CLI_EXIT_USAGE, m->stop = 1;
                continue;
            }
            keep = r + 1;
            m->written += s->n;
            if (src) { /* failed, halted or interrupted: one process would stop here too */
                m->rc = src, m->stop = 1;
                continue;
            }
            if (tail && r == tail_at) {
                fputs(tail, stderr);
                m->rc = CLI_EXIT_USAGE;
            }
        }
    }
    int verdict[3] = {m->rc, m->stop, keep};
    bcast_wait(verdict, 3, MPI_INT);
    m->rc = verdict[0], m->stop = verdict[1];
    if (m->direct)
        direct_write(m, verdict[2]);
    sb_stream_sink_clear(&m->sink); /* buffers kept for the next round */
}

/* @return 1 when ok holds on every rank, else 0. Collective. */
static int every_rank(int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* Opens -o FILE (name) with MPI-IO on every rank, and checks that every rank opened the same
 * file: rank 0 writes a token at offset at, makes it visible (sync, barrier, sync: the
 * MPI-IO consistency rule for another process's writes) and every rank reads it back. A rank
 * on a node that sees another file of that name (no shared file system) fails the check.
 * The token is overwritten by the records, or cut off at the end (direct_end). @return 1 with
 * *fh open on every rank, else 0 with nothing open. Collective. */
static int mpiio_open(const mpi_run *m, const char *name, long long at, MPI_File *fh)
{
    char token[32] = "", seen[32] = "";
    int ok = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, fh) ==
             MPI_SUCCESS;
    if (!every_rank(ok)) {
        if (ok)
            MPI_File_close(fh);
        return 0;
    }
    if (m->rank == 0) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        snprintf(token, sizeof token, "sbmpi %d %lld.%09ld", (int)getpid(), (long long)t.tv_sec,
                 t.tv_nsec);
        ok = MPI_File_write_at(*fh, at, token, (int)sizeof token, MPI_BYTE, MPI_STATUS_IGNORE) ==
             MPI_SUCCESS;
    }
    MPI_Bcast(token, (int)sizeof token, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_File_sync(*fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(*fh);
    if (m->rank != 0) {
        MPI_Status st;
        int got = 0;
        ok = MPI_File_read_at(*fh, at, seen, (int)sizeof seen, MPI_BYTE, &st) == MPI_SUCCESS &&
             MPI_Get_count(&st, MPI_BYTE, &got) == MPI_SUCCESS && got == (int)sizeof seen &&
             !memcmp(seen, token, sizeof token);
    }
    if (!every_rank(ok)) {
        MPI_File_close(fh);
        return 0;
    }
    return 1;
}

/* Checks that every rank can open -o FILE (name) for writing, before MPI_File_open: Open
 * MPI's open is collective inside, so a rank whose open fails leaves the others waiting in it
 * for ever (seen across namespace hosts, one of them seeing the directory read-only). A rank
 * that does not find the file (ENOENT: no shared file system) only means rank 0 writes every
 * record; one that finds it but may not write it (permissions, a read-only mount) ends the
 * run: rank 0 names the file, the first such rank and its host (this rank's is host), exit 2.
 * @return 1 when every rank opened it. Collective. */
static int every_rank_opens(mpi_run *m, const char *name, const char *host)
{
    const int fd = open(name, O_RDWR | O_CLOEXEC), mine = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    int *errs = malloc((size_t)m->size * sizeof *errs), bad = -1, any = 0;
    char *hosts = m->rank == 0 ? malloc((size_t)m->size * MPI_MAX_PROCESSOR_NAME) : NULL;
    if (!every_rank(errs != NULL && (m->rank != 0 || hosts != NULL))) {
        free(errs);
        free(hosts);
        return 0; /* no memory for the check: rank 0 writes every record */
    }
    MPI_Allgather(&mine, 1, MPI_INT, errs, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
               0, MPI_COMM_WORLD);
    for (int r = 0; r < m->size; r++) {
        any |= errs[r] != 0;
        if (bad < 0 && errs[r] && errs[r] != ENOENT)
            bad = r;
    }
    if (bad >= 0) {
        if (m->rank == 0)
            fprintf(stderr, CLI_NAME ": cannot open '%.1024s' for -o on rank %d (host %s): %s\n",
                    name, bad, hosts + (size_t)bad * MPI_MAX_PROCESSOR_NAME,
                    strerror(errs[bad]));
        m->rc = CLI_EXIT_USAGE, m->stop = 1;
    }
    free(errs);
    free(hosts);
    return !any;
}

/* Decides whether the run writes in direct mode, where every rank writes its own records to
 * -o FILE (a regular file) at their offsets: with pwrite when every rank runs on rank 0's
 * node and opens the same file (same device and inode), else with MPI-IO when every rank
 * opens the same file through it (mpiio_open; SUDOKUBENCH_MPI_IO=1 uses it on one node too,
 * =0 never). A pipe or terminal, bench's shard runs, SUDOKUBENCH_MPI_DIRECT=0 and a file
 * that not every rank can reach leave every write to rank 0. */
static void direct_init(mpi_run *m)
{
    const cli_batch *b = m->b;
    long long id[5] = {0, 0, 0, 0, 0}; /* direct possible, st_dev, st_ino, records' offset,
                                          MPI-IO: -1 never, 0 when needed, 1 always */
    char host[MPI_MAX_PROCESSOR_NAME] = "", host0[MPI_MAX_PROCESSOR_NAME] = "";
    int len, fd = -1;
    MPI_Get_processor_name(host, &len);
    if (m->rank == 0) {
        const char *env = getenv("SUDOKUBENCH_MPI_DIRECT"), *io = getenv("SUDOKUBENCH_MPI_IO");
        struct stat st;
        fd = fileno(b->out);
        const off_t at = lseek(fd, 0, SEEK_CUR);
        /* A file that takes no positional writes (a regular file of /proc: ESPIPE) leaves
         * every write to rank 0, which fails as one process does, with its reason. */
        if (!m->local && b->out_name && !(env && !strcmp(env, "0")) && at >= 0 &&
            fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pwrite(fd, "", 0, at) == 0)
            id[0] = 1, id[1] = (long long)st.st_dev, id[2] = (long long)st.st_ino, id[3] = at;
        id[4] = !io ? 0 : !strcmp(io, "1") ? 1 : !strcmp(io, "0") ? -1 : 0;
        memcpy(host0, host, sizeof host);
    }
    MPI_Bcast(id, 5, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (!id[0])
        return;
    MPI_Bcast(host0, (int)sizeof host0, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (m->rank != 0 && !strcmp(host, host0) && id[4] < 1)
        fd = open(b->out_name, O_WRONLY | O_CLOEXEC);
    struct stat st;
    m->lens = malloc(3 * (size_t)m->size * sizeof *m->lens);
    const int all = every_rank(m->lens && fd >= 0 && fstat(fd, &st) == 0 &&
                               (long long)st.st_dev == id[1] && (long long)st.st_ino == id[2] &&
                               id[4] < 1);
    if (fd >= 0 && m->rank != 0 && !all)
        close(fd);
    m->w = (writer){.fd = all || m->rank == 0 ? fd : -1};
    if (!all) { /* not one node: MPI-IO, if every rank has the file and memory */
        m->w.mpiio = every_rank(m->lens != NULL) && id[4] >= 0 &&
                     every_rank_opens(m, b->out_name, host) &&
                     mpiio_open(m, b->out_name, id[3], &m->w.fh);
        if (!m->w.mpiio) {
            free(m->lens);
            m->lens = NULL;
            return;
        }
    }
    m->w.sw = m->w.mpiio ? sb_segment_writer_new(-1, mpiio_write, &m->w)
                         : sb_segment_writer_new(m->w.fd, NULL, NULL);
    if (!m->w.sw)
        MPI_Abort(MPI_COMM_WORLD, cli_oom());
    m->direct = 1;
    m->base = id[3];
}

/* Ends direct mode: waits for this rank's writes, reports a failure not yet reported, and
 * leaves rank 0's output after the records (what the command writes next goes there), or
 * cut back to the first segment not wholly written: never a torn record. */
static void direct_end(mpi_run *m)
{
    if (!m->direct)
        return;
    int err;
    sb_segment_writer_wait(m->w.sw, &err);
    m->sink.out.len = 0;
    direct_gather(m);
    const int first = direct_failed(m);
    if (m->w.mpiio)
        MPI_File_close(&m->w.fh); /* collective; every rank's writes are in the file after it */
    if (m->rank == 0) {
        const off_t end = first < 0 ? (off_t)m->base : (off_t)m->lens[3 * first + 1];
        /* MPI-IO: also cuts off mpiio_open's token when no record overwrote it */
        if ((first >= 0 || m->w.mpiio) && ftruncate(m->w.fd, end) != 0)
            fprintf(stderr, CLI_NAME ": cannot cut '%.1024s' back to a record boundary: %s\n",
                    m->b->out_name, strerror(errno));
        lseek(m->w.fd, end, SEEK_SET);
    } else if (m->w.fd >= 0) {
        close(m->w.fd);
    }
    sb_segment_writer_free(m->w.sw);
    free(m->lens);
    m->lens = NULL;
    m->direct = 0;
}

/* Sets up a run once every rank has reached it. */
static void run_init(mpi_run *m, const cli_batch_ops *eng, const cli_batch *b, int local)
{
    *m = (mpi_run){.eng = eng, .b = b, .seg = *b, .local = local, .skip_left = b->skip};
    m->seg.sink = &m->sink;
    m->seg.skip = 0; /* --resume's skip spans the ranks' segments: run_segment deals it */
    m->seg.skipped_invalid = m->seg.skipped_all = NULL;
    m->seg.progress = CLI_PROGRESS_NEVER;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    sync_phase(PHASE_BATCH);
    /* what the command printed first (csv header) goes first; if it cannot be written the run
     * ends before any input is opened, as one process's does */
    int failed = m->rank == 0 && eng->begin(b) != 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed)
        m->rc = CLI_EXIT_USAGE, m->stop = 1;
    else
        direct_init(m);
}

/* Frees a run's buffers and reports an interrupt as one process would. @return m->rc. */
static int run_end(mpi_run *m)
{
    direct_end(m);
    /* --resume: the invalid lines dropped on every rank still make the exit code 1 */
    cli_mpi_reduce(&m->skip_invalid, 1, CLI_MPI_SUM);
    if (m->rank == 0 && m->b->skipped_invalid)
        *m->b->skipped_invalid += m->skip_invalid;
    sb_stream_sink_free(&m->sink);
    sb_stream_sink_free(&m->recv);
    sb_buf_free(&m->input);
    if (m->rc == CLI_EXIT_INTERRUPTED && m->rank == 0 && !m->local)
        fprintf(stderr, CLI_NAME ": interrupted after %llu records\n",
                (unsigned long long)m->written);
    return m->rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Records: segments of regular files, pieces of streams                                      */
/* ------------------------------------------------------------------------------------------ */

/* Gathers every rank's line count for the round: returns the lines before this rank's
 * segment within the round, adds the round's total to *lines. A count of -1 (read error)
 * anywhere stops the run. */
static long long round_lines(mpi_run *m, long long mine, uint64_t *lines)
{
    long long *all = malloc((size_t)m->size * sizeof *all), before = 0, total = 0;
    long long fail = all ? 0 : 1, any;
    MPI_Request rq; /* non-blocking + wait_for: a rank waiting here naps instead of spinning */
    MPI_Iallreduce(&fail, &any, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
    if (any) {
        free(all);
        return -2;
    }
    MPI_Iallgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
    for (int r = 0; r < m->size; r++) {
        if (all[r] < 0)
            fail = 1;
        if (r < m->rank)
            before += all[r];
        total += all[r];
    }
    free(all);
    if (fail)
        return -1;
    *lines += (uint64_t)total;
    return before;
}

/* Opens a segment's source as a stream. @return NULL when memory ran out. */
static FILE *src_open(const seg_src *src)
{
    return src->data ? fmemopen(src->data, src->len, "r")
           : src->fd >= 0 ? sb_segment_open(src->fd, src->start, src->end)
                          : NULL;
}

/* --resume under MPI: the run's first m->skip_left input records are in FILE already, and
 * they lie in the segments of one rank after another. So while some are left, every rank
 * first counts the records of its segment of the round (the engine reading and dropping them
 * all), an MPI_Allgather of the counts says how many of its own each rank drops (all, some or
 * none), and the count left goes down by the round's. Collective. @return the records this
 * rank drops from its segment; *whole when that is all of them (nothing to run). */
static uint64_t skip_count(mpi_run *m, char *const *files, int nfiles, int i,
                           const seg_src *src, uint64_t line_base, int *whole)
{
    uint64_t n[2] = {0, 0}; /* records of this rank's segment, invalid lines among them */
    uint64_t *all = malloc(2 * (size_t)m->size * sizeof *all), before = 0, total = 0;
    FILE *in = src->has ? src_open(src) : NULL;
    if (!all || (src->has && !in))
        MPI_Abort(MPI_COMM_WORLD, cli_oom());
    if (in) {
        cli_batch count = m->seg;
        count.skip = UINT64_MAX, count.skipped_all = &n[0], count.skipped_invalid = &n[1];
        count.line_base = line_base;
        m->eng->segment(&count, files, nfiles, i, in);
        sb_stream_sink_clear(&m->sink); /* nothing of it is the run's output */
    }
    MPI_Request rq;
    MPI_Iallgather(n, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, MPI_COMM_WORLD, &rq);
    wait_for(&rq);
    for (int r = 0; r < m->size; r++) {
        if (r < m->rank)
            before += all[2 * r];
        total += all[2 * r];
    }
    free(all);
    const uint64_t left = m->skip_left;
    const uint64_t drop = before >= left ? 0 : left - before < n[0] ? left - before : n[0];
    m->skip_left = total >= left ? 0 : left - total;
    *whole = n[0] > 0 && drop == n[0];
    if (*whole)
        m->skip_invalid += n[1];
    return drop;
}

/* Runs this rank's segment of input i (src; it may have none) with its lines after
 * line_base, less the records --resume drops, then the round's end. */
static void run_segment(mpi_run *m, char *const *files, int nfiles, int i, const seg_src *src,
                        uint64_t line_base, const char *tail, int tail_at)
{
    int rc = 0, whole = 0;
    const uint64_t drop =
        m->skip_left ? skip_count(m, files, nfiles, i, src, line_base, &whole) : 0;
    if (src->has && !whole) {
        FILE *in = src_open(src);
        if (!in) {
            sb_buf_printf(&m->sink.err, CLI_NAME ": out of memory\n");
            rc = CLI_EXIT_USAGE;
        } else {
            m->seg.line_base = line_base;
            m->seg.skip = drop; /* the engine counts the invalid lines among them */
            m->seg.skipped_invalid = drop ? &m->skip_invalid : NULL;
            rc = m->eng->segment(&m->seg, files, nfiles, i, in);
            m->seg.skip = 0;
        }
    }
    round_end(m, rc, tail, tail_at);
}

/* Shards regular file i (fd, size bytes) over the ranks, round by round. */
static void shard_file(mpi_run *m, char *const *files, int nfiles, int i, int fd, off_t size,
                       const char *msg_name)
{
    const off_t seg = (off_t)env_size("SUDOKUBENCH_MPI_SEGMENT", SEGMENT_DEFAULT);
    const off_t nseg = (size + seg - 1) / seg;
    const int each = m->b->g != sb_geometry_9x9(); /* another geometry: a record a line */
    uint64_t lines = 0;
    for (off_t k = 0; k * m->size < nseg && !m->stop; k++) {
        const off_t j = k * m->size + m->rank;
        off_t start = size, end = size;
        long long mine = 0;
        int got = 0; /* the segment is in m->input */
        if (j < nseg) {
            start = sb_segment_cut(fd, j * seg, size, each);
            end = start < 0      ? -1
                  : j + 1 < nseg ? sb_segment_cut(fd, (j + 1) * seg, size, each)
                                 : size;
            got = end < 0 ? 0 : sb_segment_read(&m->input, fd, start, end, 2 * seg);
            mine = end < 0 || got < 0 ? -1
                   : got              ? (long long)sb_text_lines(m->input.data, m->input.len)
                                      : sb_segment_lines(fd, start, end);
        }
        const int why = errno;
        const uint64_t round_base = lines;
        const long long before = round_lines(m, mine, &lines);
        if (before < 0) {
            if (m->rank == 0)
                fprintf(stderr, CLI_NAME ": %s: %s\n", msg_name,
                        before == -2 ? "out of memory"
                                     : mine < 0 ? strerror(why) : "read error on another rank");
            m->rc = CLI_EXIT_USAGE, m->stop = 1;
            break;
        }
        const seg_src src = {.has = start < end, .data = got ? m->input.data : NULL,
                             .len = m->input.len, .fd = fd, .start = start, .end = end};
        run_segment(m, files, nfiles, i, &src, round_base + (uint64_t)before, NULL, 0);
    }
}

/* Rank 0 reads stream fd (input i) in line-aligned pieces and deals them round-robin;
 * every rank handles its piece as a segment. */
static void deal_stream(mpi_run *m, char *const *files, int nfiles, int i, int fd,
                        const char *msg_name)
{
    const size_t seg = (size_t)env_size("SUDOKUBENCH_MPI_SEGMENT", SEGMENT_DEFAULT);
    const int each = m->b->g != sb_geometry_9x9(); /* another geometry: a record a line */
    sb_segment_piece p = {0};
    char *mine = NULL;
    uint64_t lines = 0;
    for (int more = 1; more && !m->stop;) {
        size_t len = 0;
        uint64_t base = 0;
        char tail[256] = "";
        int tail_at = -1;
        if (m->rank == 0) {
            for (int r = 0; r < m->size; r++) {
                const size_t n = p.eof && !p.buf.len
                                     ? 0
                                     : sb_segment_fill(&p, fd, seg, each, cli_stop_flag());
                if (p.err && tail_at < 0 && p.buf.len == n) {
                    snprintf(tail, sizeof tail, CLI_NAME ": %s: read error: %s\n", msg_name,
                             strerror(p.err));
                    tail_at = r;
                }
                unsigned long long hdr[2] = {n, lines};
                if (r == 0) {
                    mine = malloc(n ? n : 1);
                    if (mine)
                        memcpy(mine, p.buf.data, n);
                    len = n, base = lines;
                } else {
                    send_wait(hdr, 2, MPI_UNSIGNED_LONG_LONG, r, 10);
                    if (n)
                        send_wait(p.buf.data, (int)n, MPI_BYTE, r, 11);
                }
                lines += sb_text_lines(p.buf.data, n);
                sb_segment_take(&p, n);
            }
            more = !(p.eof && !p.buf.len);
        } else {
            unsigned long long hdr[2];
            recv_wait(hdr, 2, MPI_UNSIGNED_LONG_LONG, 0, 10);
            len = (size_t)hdr[0], base = hdr[1];
            mine = malloc(len ? len : 1);
            if (len)
                recv_wait(mine ? mine : (char[1]){0}, mine ? (int)len : 1, MPI_BYTE, 0, 11);
        }
        const seg_src src = {.has = len > 0, .data = mine, .len = len, .fd = -1};
        run_segment(m, files, nfiles, i, &src, base, tail_at >= 0 ? tail : NULL, tail_at);
        free(mine);
        mine = NULL;
        if (tail_at >= 0)
            more = 0; /* as one process: a read error ends that input */
        bcast_wait(&more, 1, MPI_INT);
    }
    sb_buf_free(&p.buf);
}

int cli_mpi_records(const cli_batch_ops *eng, const cli_batch *b, char *const *files,
                    int nfiles, int local)
{
    mpi_run m;
    run_init(&m, eng, b, local);
    for (int i = 0; i < nfiles && !m.stop; i++) {
        cli_input name;
        if (cli_input_init(&name, files[i]) != 0)
            MPI_Abort(MPI_COMM_WORLD, cli_oom());
        /* Rank 0 opens first and says what the input is; the others open a regular file
         * too (each reads its own segments) and leave streams to rank 0. */
        const int is_stdin = !strcmp(files[i], "-");
        long long what[3] = {0, 0, 0}; /* opened, regular, size */
        int fd = -1, why = 0;
        sb_input_kind kind = SB_INPUT_TEXT;
        if (m.rank == 0) {
            fd = is_stdin ? STDIN_FILENO : open(files[i], O_RDONLY | O_CLOEXEC);
            why = errno;
            struct stat st;
            what[0] = fd >= 0;
            if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
                what[1] = 1, what[2] = (long long)st.st_size;
            /* Ranks shard an input by byte offsets, which a compressed stream has not: such
             * an input (told as sb_input_open tells it) is refused, not read as text. */
            char head[SB_INPUT_SNIFF];
            const off_t at = is_stdin && what[1] ? lseek(fd, 0, SEEK_CUR) : 0;
            const int64_t n = fd < 0      ? 0
                              : what[1] ? (int64_t)pread(fd, head, sizeof head, at < 0 ? 0 : at)
                                          : sb_input_peek(files[i], head, sizeof head);
            kind = n > 0 ? sb_input_sniff(head, (size_t)n) : SB_INPUT_TEXT;
            if (kind != SB_INPUT_TEXT)
                what[0] = 0;
        }
        MPI_Bcast(what, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        if (!what[0]) {
            if (m.rank == 0) {
                if (kind != SB_INPUT_TEXT)
                    fprintf(stderr, CLI_NAME ": %s: %s, and the MPI program reads no "
                                    "compressed or binary input: give it the text (e.g. zcat "
                                    "FILE | ... -)\n", name.msg_name, sb_input_kind_name(kind));
                else
                    fprintf(stderr, CLI_NAME ": cannot open '%s': %s\n", name.msg_name,
                            strerror(why));
                if (fd >= 0 && !is_stdin)
                    close(fd);
                if (b->resume) /* the records after it no longer line up with the input */
                    eng->broken(b);
            }
            m.rc = CLI_EXIT_USAGE;
        } else {
            if (b->opened)
                b->opened[i] = 1;
            if (m.rank != 0 && what[1])
                fd = open(files[i], O_RDONLY | O_CLOEXEC);
            if (!every_rank(fd >= 0 || !what[1] || m.rank == 0)) {
                if (m.rank == 0)
                    fprintf(stderr, CLI_NAME ": cannot open '%s' on every rank\n", name.msg_name);
                m.rc = CLI_EXIT_USAGE, m.stop = 1;
            } else if (what[1]) {
                shard_file(&m, files, nfiles, i, fd, (off_t)what[2], name.msg_name);
            } else {
                deal_stream(&m, files, nfiles, i, fd, name.msg_name);
            }
            if (fd >= 0 && !(is_stdin && m.rank == 0))
                close(fd);
        }
        cli_input_free(&name);
    }
    return run_end(&m);
}

int cli_mpi_items(const cli_batch_ops *eng, const cli_batch *b, uint64_t count)
{
    mpi_run m;
    run_init(&m, eng, b, 0);
    const uint64_t per = env_size("SUDOKUBENCH_MPI_ITEMS", ITEMS_DEFAULT);
    const uint64_t nseg = (count + per - 1) / per;
    for (uint64_t k = 0; k * (uint64_t)m.size < nseg && !m.stop; k++) {
        const uint64_t j = k * (uint64_t)m.size + (uint64_t)m.rank;
        int rc = 0;
        if (j < nseg) {
            m.seg.item_base = j * per;
            rc = m.eng->items(&m.seg, count - j * per < per ? count - j * per : per);
        }
        round_end(&m, rc, NULL, 0);
    }
    return run_end(&m);
}

#endif /* SB_MPI */
