/*
 * app.h — the programs' layer: the plumbing that the sudokubench program and its MPI build
 * share (src/cli/), kept out of the library. A private static library ($(BUILD)/libsbapp.a)
 * linked into those programs and the unit tests; none of it is in libsudokubench.a or .so,
 * nor installed. It uses the library only through its public header (sudokubench.h): the
 * dependency runs CLI -> app -> library, never back.
 *
 * The conventions are the public header's: negative sb_status codes, SB_ERR_ARG for a NULL
 * or out-of-range argument, nothing printed, no exit.
 */
#ifndef SB_APP_H
#define SB_APP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sudokubench.h"

/* ------------------------------------------------------------------------------------------ */
/* Streams: a batch over whole inputs on every core, output in input order (stream.c)         */
/* ------------------------------------------------------------------------------------------ */

/* A multi-million-record job over files or a stream in bounded memory: records are read in
 * order into two alternating windows of chunks, every chunk is handled on some thread (one
 * worker each, dynamic schedule) into its own output and message buffers, and the chunks are
 * handed to the caller's write and message callbacks in input order. The bytes therefore do
 * not depend on the thread count. A read that could block (a pipe, a terminal) first hands
 * over what is done, so interactive input streams. A raised stop flag ends the run on a
 * record boundary: what was written is a prefix of the whole output. The stream never prints;
 * the callbacks do. */

/* A growable byte buffer: a chunk's output or messages, or any text a callback builds. */
typedef struct sb_buf {
    char *data; /* bytes, not NUL-terminated */
    size_t len; /* bytes used */
    size_t cap; /* bytes allocated */
    int oom;    /* an allocation failed: appends since then were dropped */
} sb_buf;

/* Makes room for n more bytes. @return where they go (commit with b->len += used), or NULL
 * (b->oom set) when memory ran out or the size would pass SIZE_MAX; NULL for NULL b, and for
 * n 0 on a buffer that holds no memory yet. */
char *sb_buf_reserve(sb_buf *b, size_t n);

/* Appends n bytes at p (b->oom set when memory ran out). NULL b or p: nothing. */
void sb_buf_put(sb_buf *b, const void *p, size_t n);

/* Appends formatted text. NULL b or fmt: nothing. */
void sb_buf_printf(sb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Frees b's memory and empties it (NULL b: nothing). */
void sb_buf_free(sb_buf *b);

/* Why an input failed (sb_stream_job.input_error). */
typedef enum sb_stream_fail {
    SB_STREAM_OPEN,   /* it could not be opened (errno) */
    SB_STREAM_READER, /* its reader could not be made (status) */
    SB_STREAM_READ,   /* reading it failed part-way (errno; EBADMSG: compressed data
                         truncated or corrupt, sb_input_strerror) */
    SB_STREAM_KIND    /* its first bytes say it is no text this build reads (status: its
                         sb_input_kind, sb_input_open) */
} sb_stream_fail;

/* What a handler returns besides SB_OK: SB_ERR_STOPPED (the stop flag cut it short: what it
 * appended is dropped, the run ends) or a positive code of its own (the run ends after the
 * items before this one, with this one's messages kept and its output dropped; sb_stream_run
 * returns the code). */

typedef struct sb_stream sb_stream;

/* Where a stream's output, messages and tags go instead of its callbacks when the job names
 * it (sb_stream_job.sink): a piece of a run done apart, written out later in its place (the
 * CLI's MPI ranks hand theirs to rank 0). */
typedef struct sb_stream_sink {
    sb_buf out;   /* output, in order */
    sb_buf err;   /* messages, in order */
    sb_buf tags;  /* tag_size bytes per item written */
    sb_buf input; /* records: each written record's input index (uint32_t) */
    uint64_t n;   /* items written */
} sb_stream_sink;

/* Empties a sink, keeping its memory and its oom flags (a dropped append stays known). NULL s:
 * nothing. */
void sb_stream_sink_clear(sb_stream_sink *s);

/* Frees a sink's memory and empties it (NULL s: nothing). */
void sb_stream_sink_free(sb_stream_sink *s);

/* A stream job: the callbacks and what they share. Fields left zero are unused. */
typedef struct sb_stream_job {
    int threads;            /* worker threads (< 1: 1) */
    void *ctx;              /* handed to every callback */
    const volatile sig_atomic_t *stop; /* stop flag polled before each item (NULL: none) */
    /* records: inputs files[first..nfiles-1] ("-" = stdin), or given alone (input `first`,
     * read from it and closed by the stream, even when sb_stream_new fails); NULL files and
     * items instead: items 0..items-1 */
    char *const *files;
    int nfiles;
    int first;
    FILE *given;
    uint64_t items;
    const sb_geometry *g;   /* the records' geometry, read by sb_reader (sb_geometry_9x9()
                               for 9x9; a record run needs one); must outlive the stream */
    int marks;              /* 9x9 pencilmark lines beyond their givens are records: their
                               candidates go to record (sb_reader_next's cand) */
    uint64_t skip;          /* records to read and drop before the first handled one */
    uint64_t line_base;     /* added to every record's line */
    uint64_t item_base;     /* index of item 0 as handlers and the item window see it */
    size_t tag_size;        /* bytes of per-item statistics handed to commit (0: none) */
    unsigned char *opened;  /* optional, per input: set to 1 once it is open */
    /* Makes one thread's worker. @return 0, or a positive code sb_stream_new returns. */
    int (*worker_new)(void *ctx, void **worker);
    /* Frees a worker (called in thread order, on the calling thread). */
    void (*worker_end)(void *ctx, void *worker);
    /* Handles one record (invalid lines too) of input `input` on the worker's thread (ctx
     * is shared: read it only), its cells (sb_geometry_cells bytes) and, for a pencilmark
     * record (rec->marks), its candidates (else NULL): appends its output to out, messages
     * to err, fills tag. @return SB_OK or see above. */
    int (*record)(void *ctx, void *worker, uint32_t input, const sb_record *rec,
                  const uint8_t *cells, const uint64_t *cand, sb_buf *out, sb_buf *err,
                  void *tag);
    /* Optional: a chunk's n records before record is called on each (work them together);
     * row i of cells (sb_geometry_cells bytes) belongs to recs[i]. */
    void (*chunk)(void *ctx, void *worker, const sb_record *recs, const uint8_t *cells,
                  size_t n);
    /* Handles item index like record. */
    int (*item)(void *ctx, void *worker, uint64_t index, sb_buf *out, sb_buf *err, void *tag);
    sb_stream_sink *sink;   /* when set, output, messages and tags go here, and write,
                               message and commit are not called */
    /* Writes n bytes of output in order. @return 0, or non-zero to end the run (SB_ERR_IO). */
    int (*write)(void *ctx, const char *p, size_t n);
    /* Emits n bytes of messages in order (each chunk's before its output). */
    void (*message)(void *ctx, const char *p, size_t n);
    /* Passes the tags of n written items (input: their input indices, NULL for items). */
    void (*commit)(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n);
    /* An input failed: append its message to msg (emitted after the records before it). */
    void (*input_error)(void *ctx, int input, sb_stream_fail why, int status, int err,
                        sb_buf *msg);
    /* The run failed (SB_ERR_NOMEM formatting, SB_ERR_THREADS with why): report it now. */
    void (*error)(void *ctx, int status, const char *why);
    /* Optional: called on the calling thread after each chunk it handled (sb_stream_progress). */
    void (*progress)(void *ctx, const sb_stream *s);
} sb_stream_job;

/* Where a stream stands. */
typedef struct sb_stream_stats {
    uint64_t done;            /* items handled */
    uint64_t written;         /* items written */
    uint64_t skipped;         /* records dropped by job.skip */
    uint64_t skipped_invalid; /* invalid lines among them */
    int failed;               /* inputs that failed (sb_stream_job.input_error) */
    int last_input;           /* input of the last written record, -1 before any */
    uint64_t last_line;       /* its line */
    double fraction;          /* part of the run done, or -1 when unknown */
} sb_stream_stats;

/* Creates the workers and windows of job (kept by pointer: it must outlive the stream).
 * @return SB_OK, SB_ERR_NOMEM, or worker_new's code; SB_ERR_ARG for NULL out or job, or a job
 * that lacks a callback the run calls (worker_new, worker_end, error; write and message
 * without a sink; record, input_error and g with files, item with items), has a NULL name
 * among files[first..nfiles-1], first outside 0..nfiles (with given: 0..nfiles-1), or
 * tag_size above 16 MiB (given is closed all the same). */
int sb_stream_new(sb_stream **out, const sb_stream_job *job);

/* Runs the job to its end, the stop flag or a failure. Worker threads block SIGINT and
 * SIGTERM, so those signals interrupt the calling thread's reads. @return SB_OK (inputs may
 * have failed: sb_stream_stats.failed), SB_ERR_STOPPED, SB_ERR_IO (write failed),
 * SB_ERR_NOMEM or SB_ERR_THREADS (after error), or a handler's positive code; SB_ERR_ARG for
 * NULL. */
int sb_stream_run(sb_stream *s);

/* Fills *st (from the progress callback: on the calling thread). NULL s or st: nothing. */
void sb_stream_progress(const sb_stream *s, sb_stream_stats *st);

/* Frees the stream: ends the workers, closes what is open (NULL is allowed). */
void sb_stream_free(sb_stream *s);

/* ------------------------------------------------------------------------------------------ */
/* Segments: one input cut into line-aligned pieces for separate streams (segment.c)          */
/* ------------------------------------------------------------------------------------------ */

/* Several processes can share one input by each streaming its own segments (sb_stream_job
 * .given with .line_base: the lines before the segment). A cut goes only after a line that
 * leaves a reader fresh: a one-line puzzle, a blank or a comment line (never inside a
 * nine-line grid), or any line when each_line is set (a reader whose records are single
 * lines). Lines are counted as a reader counts them: newlines, plus an unterminated last. */

/* @return where a cut near byte pos of regular file fd (size bytes) goes: the end of the
 * first cut line starting at or after pos (0 for pos <= 0, size at the end), or -1 after a
 * read error (errno set) or for size < 0 (errno EINVAL). */
int64_t sb_segment_cut(int fd, int64_t pos, int64_t size, int each_line);

/* @return the lines of bytes [start, end) of fd (0 for end <= start), or -1 after a read error
 * (a negative start: EINVAL). */
int64_t sb_segment_lines(int fd, int64_t start, int64_t end);

/* @return the lines of the n bytes at s (0 for NULL s). */
uint64_t sb_text_lines(const char *s, size_t n);

/* Reads [start, end) of fd into b (emptied first) when that is at most max bytes.
 * @return 1 when read, 0 when it is larger or memory ran out (stream it with
 * sb_segment_open instead), -1 after a read error (errno set) or for NULL b, start < 0 or
 * end < start (errno EINVAL). */
int sb_segment_read(sb_buf *b, int fd, int64_t start, int64_t end, int64_t max);

/* @return a read stream over [start, end) of fd (read with pread; fclose leaves fd open), or
 * NULL when memory ran out or for start < 0 or end < start (errno EINVAL). */
FILE *sb_segment_open(int fd, int64_t start, int64_t end);

/* A stream that cannot be read at an offset (a pipe), read ahead into line-aligned pieces. */
typedef struct sb_segment_piece {
    sb_buf buf; /* read, not yet taken: the next piece, then the start of the one after */
    int eof;    /* the stream has ended (or failed, or stop was raised during a read) */
    int err;    /* errno of a read error (ENOMEM when buf could not grow), 0 if none */
} sb_segment_piece;

/* Reads fd until p->buf holds want bytes or more with a cut line among them, or the stream
 * ends. @return the length of the piece at the start of p->buf, up to its last cut line (take
 * it with sb_segment_take): whole lines, never part of a grid. 0 for NULL p. */
size_t sb_segment_fill(sb_segment_piece *p, int fd, size_t want, int each_line,
                       const volatile sig_atomic_t *stop);

/* Drops the first n bytes of p->buf (a piece that was handed on). NULL p, or n above
 * p->buf.len: nothing is dropped. */
void sb_segment_take(sb_segment_piece *p, size_t n);

/* Writes pieces of output at their offsets in one file, a piece at a time, each written while
 * the caller handles the next one; nothing more is written once a piece has failed. */
typedef struct sb_segment_writer sb_segment_writer;

/* The caller's write of n bytes at offset at (in place, on the calling thread). @return 0, or
 * the errno of the failure. */
typedef int (*sb_segment_write_fn)(void *ctx, const char *p, size_t n, int64_t at);

/* Makes a writer to fd with pwrite in a thread of its own (SIGINT and SIGTERM blocked there),
 * or with fn (not NULL) on the calling thread. @return it, or NULL when memory ran out. */
sb_segment_writer *sb_segment_writer_new(int fd, sb_segment_write_fn fn, void *ctx);

/* Hands over out's bytes to go at offset at once the previous piece is written (so at most
 * two pieces are held); out gets an emptied buffer back. Without a thread, written now. NULL w
 * or out: nothing. */
void sb_segment_writer_put(sb_segment_writer *w, sb_buf *out, int64_t at);

/* Waits for the piece being written. @return the offset of the first piece not wholly
 * written (*err its errno; err may be NULL), or -1 when none failed; 0 with *err EINVAL for
 * NULL w (nothing was written). */
int64_t sb_segment_writer_wait(sb_segment_writer *w, int *err);

/* @return what sb_segment_writer_wait returned last, without waiting (*err and NULL w as
 * there). */
int64_t sb_segment_writer_failed(const sb_segment_writer *w, int *err);

/* Waits for the writes and frees the writer (NULL is allowed). */
void sb_segment_writer_free(sb_segment_writer *w);

/* ------------------------------------------------------------------------------------------ */
/* A look ahead at an input (source.c)                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Reads up to cap bytes from the start of input path ("-": standard input) without consuming
 * them: a regular file by pread, a pipe at standard input or by name (<(...), /dev/fd/N) by
 * tee (waiting for a whole non-blank, non-comment line, the end, or a full pipe). @return the
 * bytes read, or -1 when the input cannot be looked at ahead (a terminal, a socket, a missing
 * file, a FIFO made by mkfifo: only the reader's own open may take what it holds); -1 with
 * errno EINVAL for NULL path, or NULL buf with cap > 0. */
int64_t sb_input_peek(const char *path, char *buf, size_t cap);

/* The input of paths[0..n) (n 0: standard input) whose start tells a run's geometry, as
 * sb_input_peek reads it into buf: the first that can be looked at and shows a puzzle line
 * (sb_geometry_detect), or cap bytes of one; an input that cannot be opened or holds only
 * blank and comment lines passes to the next, as every input of a run has one geometry.
 * *at gets its index, *fifo the first FIFO made by mkfifo passed over (-1: none).
 * @return its bytes in buf, or -1 when none could tell (*at 0: the run is 9x9); a NULL path
 * passes to the next. -1 with errno EINVAL for NULL at or fifo, NULL paths with n > 0 or NULL
 * buf with cap > 0. */
int64_t sb_input_pick(const char *const *paths, int n, char *buf, size_t cap, int *at,
                      int *fifo);

/* Where the bytes sb_input_pick_head found stand in their input. */
typedef struct sb_input_head {
    uint64_t skipped; /* the lines before them: comment and blank lines the readers skip */
    int more;         /* 1: the input goes on past them (their last line may be cut) */
    int at;           /* the index of their input in paths (0 when none could tell) */
    int fifo;         /* the first FIFO made by mkfifo passed over (-1: none) */
} sb_input_head;

/* sb_input_pick, looking past the comment and blank lines that open an input however many
 * there are: buf gets up to cap bytes from the first line of it that is not one (a comment
 * of any length, '#' first after spaces or tabs within its first SB_MAX_LINE bytes, or a
 * blank line of at most SB_MAX_LINE bytes), and h->skipped the lines before it, so that a
 * line number in buf plus h->skipped is one in the input. A regular file is read ahead with
 * pread, nothing consumed. A pipe at standard input or named by /dev/stdin, /dev/fd/N or
 * /proc/self/fd/N (this process's descriptor N) is looked at by tee() first; when the lines
 * before the first one that is read fill all it holds (more than cap bytes of them), they are
 * read off it, and descriptor N (0 for standard input) is given another pipe, fed by a
 * thread with every signal blocked: an empty line for each line read off, then the rest of
 * the input to its end (a reader skips an empty line as it does a comment, so every record,
 * byte and line number after them is as in the input). Another process's pipe by name is not
 * read from: its look ends when it is full. Memory: cap bytes, whatever the input.
 * @return the bytes in buf, or -1 when no input could tell (h->at 0: the run is 9x9); a NULL
 * path passes to the next. -1 with errno EINVAL for NULL h, NULL paths with n > 0 or NULL buf
 * with cap > 0. */
int64_t sb_input_pick_head(const char *const *paths, int n, char *buf, size_t cap,
                           sb_input_head *h);

/* ------------------------------------------------------------------------------------------ */
/* Compressed inputs: an input told by its first bytes, decompressed as it is read (unpack.c)  */
/* ------------------------------------------------------------------------------------------ */

/* What an input's first bytes say it is. gzip, zstd and xz are read decompressed (when the
 * build has the library: sb_input_readable); the others are no puzzle text. */
typedef enum sb_input_kind {
    SB_INPUT_TEXT,   /* none of the below: read as it is */
    SB_INPUT_GZIP,   /* 1f 8b */
    SB_INPUT_ZSTD,   /* 28 b5 2f fd */
    SB_INPUT_XZ,     /* fd 37 7a 58 5a 00 */
    SB_INPUT_ZIP,    /* PK 03 04: an archive, not a stream */
    SB_INPUT_BZIP2,  /* BZh */
    SB_INPUT_BINARY  /* a NUL byte among the bytes looked at */
} sb_input_kind;

/* bytes of an input's start that tell its kind (a NUL byte among them: binary) */
enum { SB_INPUT_SNIFF = 512 };

/* @return the kind the n bytes at p (an input's start, SB_INPUT_SNIFF of them when it is that
 * long) tell (NULL p: text). */
sb_input_kind sb_input_sniff(const void *p, size_t n);

/* @return how messages name kind k ("gzip-compressed", "a zip archive", ...). */
const char *sb_input_kind_name(sb_input_kind k);

/* @return the library this build lacks to read kind k ("zlib", "libzstd", "liblzma"), or
 * NULL when it reads it or it is no compressed kind of those. */
const char *sb_input_kind_missing(sb_input_kind k);

/* @return 1 when this build reads inputs of kind k (text, or a compressed kind it has the
 * library of), else 0. */
int sb_input_readable(sb_input_kind k);

/* @return the text of errno err after reading an input: EBADMSG is compressed data that is
 * truncated or corrupt, the others strerror's. */
const char *sb_input_strerror(int err);

/* (source.c, beside the look ahead it uses) Opens input path ("-": standard input) for
 * reading, told by its first bytes: a regular file
 * by pread, a pipe (standard input or by name) by sb_input_peek; a FIFO made by mkfifo or a
 * terminal is not looked at (text). Text is the plain stream (stdin itself for "-", which is
 * then not to be closed); gzip, zstd and xz a stream (no descriptor: fileno -1) that
 * decompresses while it is read, in constant memory, every member or frame in turn; a read of
 * truncated or corrupt data fails with errno EBADMSG. fclose closes it and the file (not
 * standard input's descriptor). *kind gets the kind. @return 0 (*in set), 1 when the kind is
 * not readable (sb_input_readable: nothing open), -1 when it cannot be opened (errno; EINVAL
 * for NULL arguments). */
int sb_input_open(const char *path, FILE **in, sb_input_kind *kind);

/* A stream decompressing kind from fd: with pread from offset at (nothing consumed) when
 * at >= 0, else with read from where fd stands; own: fclose closes fd. @return it, or NULL
 * (errno: ENOTSUP for a kind this build does not decompress, ENOMEM, EINVAL for fd < 0). */
FILE *sb_unpack_fd(sb_input_kind kind, int fd, long long at, int own);

/* A stream decompressing kind from the n bytes at p (kept by pointer: they must outlive it).
 * A read past them fails with EBADMSG unless the data ended there. @return as sb_unpack_fd. */
FILE *sb_unpack_mem(sb_input_kind kind, const void *p, size_t n);

/* ------------------------------------------------------------------------------------------ */
/* Record solvers: the records of any geometry solved and rated by one call (recsolve.c)      */
/* ------------------------------------------------------------------------------------------ */

/* One thread's solver of the records sb_reader gives on geometry g, through g's sb_engine:
 * 9x9 puzzles (givens or pencilmarks) may be solved a chunk ahead (sb_engine_solve_many).
 * One per thread. */
typedef struct sb_rsolver sb_rsolver;

/* Makes a record solver for geometry g (sb_geometry_9x9() or any; it must outlive the
 * solver) with opt (its limit for every record); rate (NULL: none): also a rater for
 * sb_rsolver_rate, whose ladder has a rung per technique plug-in of rate (sb_grater_new_opt;
 * opt's own plug-ins are the solver's). @return SB_OK (*out set even on failure: free it),
 * SB_ERR_NOMEM, or what sb_solver_new / sb_engine_new / sb_grater_new_opt return;
 * SB_ERR_ARG for NULL out, g or opt (*out NULL). */
int sb_rsolver_new(const sb_geometry *g, const sb_options *opt, const sb_options *rate,
                   sb_rsolver **out);

/* Frees a record solver (NULL is allowed). */
void sb_rsolver_free(sb_rsolver *s);

/* Solves the 9x9 puzzles among recs[0..n-1] (their cells: row i of cells, 81 bytes)
 * together; sb_rsolver_solve then hands their results out in that order, to the same record
 * pointers (nothing ahead on another geometry or when memory runs out; nor for NULL s, recs
 * or cells, or a solver whose making failed; pencilmark records are solved when asked for). */
void sb_rsolver_ahead(sb_rsolver *s, const sb_record *recs, const uint8_t *cells, size_t n);

/* Solves puzzle record rec (its cells: the geometry's; cand: a pencilmark record's
 * candidates, else NULL) into res (count and guesses; the first solution: see
 * sb_rsolver_solution). @return as sb_engine_solve (sb_engine_solve_candidates with cand);
 * SB_ERR_ARG for NULL s, rec, cells or res. */
int sb_rsolver_solve(sb_rsolver *s, const sb_record *rec, const uint8_t *cells,
                     const uint64_t *cand, sb_gresult *res);

/* @return the cells of the first solution of the last sb_rsolver_solve (the geometry's cells;
 * meaningful when its count was not 0); NULL for NULL s. */
const uint8_t *sb_rsolver_solution(const sb_rsolver *s);

/* After a solve or a rating that returned SB_ERR_PLUGIN with technique plug-ins: which broke
 * its contract and how. @return that text, or NULL. */
const char *sb_rsolver_plugin_why(const sb_rsolver *s);

/* Rates a puzzle (its cells; cand: 9x9 pencilmarks' candidates, else NULL) on the rater's
 * ladder (sb_grater_ladder; from the candidates with cand), the plug-ins' eliminations held
 * to truth (its one solution, the geometry's cells; may be NULL). @return SB_OK;
 * SB_ERR_PLUGIN (sb_rsolver_plugin_why); SB_ERR_ARG without a rater (sb_rsolver_new's rate
 * NULL), for a mask above digit 9 or for NULL s, cells or out. */
int sb_rsolver_rate(sb_rsolver *s, const uint8_t *cells, const uint64_t *cand,
                    const uint8_t *truth, sb_ladder_rating *out);

/* Lists the solutions of a puzzle (its cells) as sb_engine_each does, up to the limit.
 * @return as sb_engine_each; SB_ERR_ARG on 9x9 (enumerate it as the 3x3 geometry) or for
 * NULL s or cells. */
int sb_rsolver_each(sb_rsolver *s, const uint8_t *cells, sb_gsolution_fn fn, void *user,
                    sb_gresult *res);

/* ------------------------------------------------------------------------------------------ */
/* Resumable outputs: the side file FILE.resume of a run writing FILE (sidefile.c)            */
/* ------------------------------------------------------------------------------------------ */

/* A run that writes records to FILE can be killed and continued: FILE.resume, written before
 * the first record, names the run (its command, its arguments but --resume and those that
 * cannot change FILE's bytes, -t/--threads, --simd and --progress with their values, and each
 * input's path, size and modification time); a run resumed with the same identity continues after
 * FILE's last whole record. Lines after the identity: "at RECORDS C1 .. Cn" (a run whose
 * output is a summary: its counts over the first RECORDS records), "broken" (an input failed
 * part-way: the records after it do not line up with the input) and "done RC" (finished).
 * Rewrites are atomic (a temporary file renamed over the old one). */

enum { SB_SIDE_PATH = 4096 /* room for a side file's path, NUL included */ };

/* What sb_side_open found. */
typedef enum sb_side_state {
    SB_SIDE_FRESH,      /* no side file: one naming this run was written (FILE is empty) */
    SB_SIDE_RESUME,     /* the side file names this run: continue it */
    SB_SIDE_DONE,       /* ... and says it finished with exit code done_rc */
    SB_SIDE_LONG,       /* FILE's name is too long for the side file's */
    SB_SIDE_STDIN,      /* the run reads standard input (input bad; -1: no input named) */
    SB_SIDE_EXAMINE,    /* input bad cannot be examined (err) */
    SB_SIDE_IRREGULAR,  /* FILE is not a regular file */
    SB_SIDE_UNREADABLE, /* the side file exists but cannot be read (err) */
    SB_SIDE_ORPHAN,     /* FILE holds output and no side file says what made it */
    SB_SIDE_UNWRITABLE, /* the side file cannot be written (err) */
    SB_SIDE_OTHER,      /* the side file names another command, options or input */
    SB_SIDE_BROKEN,     /* an input of the run failed part-way */
    SB_SIDE_NOMEM,      /* memory ran out */
    SB_SIDE_UNSEEKABLE  /* input bad is not a regular file (a pipe, a FIFO, a terminal): a
                         * resumed run could not read the same bytes again */
} sb_side_state;

/* One run's side file. */
typedef struct sb_side {
    char path[SB_SIDE_PATH]; /* FILE.resume */
    sb_buf id;               /* the run's identity, what the side file starts with */
    sb_buf old;              /* the side file as found, NUL-terminated (empty: none) */
    int err;                 /* errno of the failure the state names */
    int bad;                 /* the input SB_SIDE_STDIN or SB_SIDE_EXAMINE names */
    int done_rc;             /* SB_SIDE_DONE: the finished run's exit code */
} sb_side;

/* Writes out's side file path into path. @return SB_OK, or SB_ERR_ARG when it is too long or
 * out or path is NULL. */
int sb_side_path(const char *out, char path[SB_SIDE_PATH]);

/* Fills *s for the run of command cmd (its arguments argv[1..argc-1], its inputs files,
 * nfiles of them) writing FILE out, open as out_fd: builds the identity, then compares it
 * with FILE.resume, or writes FILE.resume when there is none and FILE is empty. @return an
 * sb_side_state (free s with sb_side_free whatever it is); SB_ERR_ARG, no state, for NULL s,
 * out or cmd, argc or nfiles below 0, or a NULL among argv[1..argc-1] or files[0..nfiles-1]. */
int sb_side_open(sb_side *s, const char *out, int out_fd, const char *cmd, int argc,
                 char *const *argv, char *const *files, int nfiles);

/* Frees what sb_side_open kept (NULL s: nothing). */
void sb_side_free(sb_side *s);

/* Cuts FILE out (open as out_fd, left at its end) after its last whole line before any NUL
 * byte (a hole no record wrote), or to nothing when it holds fewer than header_lines lines.
 * @return SB_OK with *records the whole lines after the header and *has_header; SB_ERR_IO
 * when FILE cannot be read, 1 when it cannot be cut (errno set); SB_ERR_ARG for NULL out,
 * records or has_header, or header_lines < 0. */
int sb_side_cut(const char *out, int out_fd, int header_lines, uint64_t *records,
                int *has_header);

/* Reads the checkpoint of an SB_SIDE_RESUME side file: *records and counts[0..ncounts-1]
 * (zeros when it holds none). @return SB_OK, or SB_ERR_ARG when the checkpoint is damaged, the
 * side file holds something else after its identity, or for NULL s or records, ncounts < 0
 * or NULL counts with ncounts > 0. */
int sb_side_counts(const sb_side *s, uint64_t *records, uint64_t *counts, int ncounts);

/* Rewrites the side file as the identity and "at RECORDS C1 .. Cn". @return SB_OK;
 * SB_ERR_STOPPED when it says "broken" (the counts no longer match a record count: write no
 * more); SB_ERR_IO (errno set) or SB_ERR_NOMEM; SB_ERR_ARG for NULL s, ncounts < 0 or NULL
 * counts with ncounts > 0. */
int sb_side_checkpoint(const sb_side *s, uint64_t records, const uint64_t *counts,
                       int ncounts);

/* Appends line to out's side file, unless once and it holds that line already. @return
 * SB_OK (also when there is no side file to update); SB_ERR_IO (errno set); SB_ERR_NOMEM;
 * SB_ERR_ARG when the path is too long or out or line is NULL. */
int sb_side_append(const char *out, const char *line, int once);

#endif /* SB_APP_H */
