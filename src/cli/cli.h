/*
 * cli.h — shared pieces of the sudokubench program (src/cli/): option helpers, input
 * iteration and record output. The program uses only the public header of the library.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdio.h>
#include <string.h>

#include "sudokubench.h"

#define CLI_NAME "sudokubench"

/* Exit codes of the program (docs/cli.md). */
enum {
    CLI_EXIT_OK = 0,      /* every line was a well-formed puzzle */
    CLI_EXIT_INVALID = 1, /* some lines were invalid (validate: some puzzle not proper) */
    CLI_EXIT_USAGE = 2,   /* usage or I/O error */
    CLI_EXIT_INTERRUPTED = 130 /* stopped by SIGINT/SIGTERM (128 + SIGINT, the shell's code) */
};

/* Output formats of solve, in the order --help lists them. */
typedef enum cli_format {
    FMT_SOLUTION, FMT_TDOKU, FMT_CSV, FMT_JSON, FMT_PRETTY, FMT_COUNT
} cli_format;

/* Prints "sudokubench: MESSAGE" and the --help hint for cmd to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reports the option getopt_long just rejected with ch ('?' unknown, ':' missing its
 * argument) as a usage error of cmd. @return CLI_EXIT_USAGE. */
int cli_getopt_error(const char *cmd, int ch, char **argv);

/* Parses a whole non-negative decimal number. @return 1 on success, 0 otherwise. */
int cli_parse_u64(const char *s, unsigned long long *out);

/* Parses -l LIMIT (a whole number >= 0) into *limit; returns 0 or CLI_EXIT_USAGE after a
 * message. */
int cli_parse_limit(const char *cmd, const char *arg, uint64_t *limit);

/* Seconds on the monotonic clock. */
double cli_now_seconds(void);

/* Parses a SIMD level name for --simd; prints a usage error and returns -2 when bad. */
int cli_parse_simd(const char *cmd, const char *arg, int *level);

/* Parses -t THREADS (1..1024) into *threads; returns 0 or CLI_EXIT_USAGE after a message. */
int cli_parse_threads(const char *cmd, const char *arg, int *threads);

/* Reports a library status from sb_solver_new as "sudokubench: ..." on stderr; returns
 * CLI_EXIT_USAGE. */
int cli_solver_error(int status, int simd);

/* Called for every record in input order; name is the input's display name. Returns 0 to go
 * on, non-zero to stop the whole iteration with that code. */
typedef int (*cli_record_fn)(void *ctx, const char *name, const sb_record *rec);

/* Reads each of the nfiles inputs in order ("-" or no file at all = stdin), reports invalid
 * lines on stderr as FILE:LINE:COL, and calls fn for every record (invalid ones included).
 * Unreadable files are reported and skipped. @return 0, CLI_EXIT_USAGE after any I/O error,
 * or fn's stop code. */
int cli_for_each_record(char *const *files, int nfiles, cli_record_fn fn, void *ctx);

/* Looks up a format by name; returns FMT_COUNT when unknown. */
cli_format cli_format_find(const char *name);

/* The name of a format. */
const char *cli_format_name(cli_format f);

/* The status word of a verdict in every output: unsolvable, solved or multiple. */
const char *cli_verdict_name(sb_verdict v);

/* Writes what a format prints before the first record (csv header), if anything. */
void cli_write_header(FILE *out, cli_format f);

/* Writes s as a JSON string literal (quotes included). */
void cli_json_string(FILE *out, const char *s);

/* Writes s as a JSON string literal (quotes included) into dst, which needs room for
 * 6 * strlen(s) + 3 bytes; NUL-terminates. @return the length written. */
size_t cli_json_escape(char *dst, const char *s);

/* ------------------------------------------------------------------------------------------ */
/* Batch engine (batch.c): windows of records solved in parallel, written in input order     */
/* ------------------------------------------------------------------------------------------ */

/* A growable byte buffer: each chunk of a window formats its records into one, so workers
 * never touch stdio and the writer emits whole chunks in order. */
typedef struct cli_buf {
    char *data; /* bytes, not NUL-terminated */
    size_t len; /* bytes used */
    size_t cap; /* bytes allocated */
    int oom;    /* an allocation failed: appends since then were dropped (the run fails) */
} cli_buf;

/* Grows b to hold n more bytes; the slow path of cli_buf_reserve. @return the write
 * position, or NULL (b->oom set) when memory ran out. */
char *cli_buf_grow(cli_buf *b, size_t n);

/* Makes room for n more bytes. @return where they go (commit with b->len += used), or NULL
 * when memory ran out. Inline: called once per record on the hot path. */
static inline char *cli_buf_reserve(cli_buf *b, size_t n)
{
    return b->cap - b->len >= n ? b->data + b->len : cli_buf_grow(b, n);
}

/* Appends n bytes. */
static inline void cli_buf_put(cli_buf *b, const void *s, size_t n)
{
    char *p = cli_buf_reserve(b, n);
    if (p) {
        memcpy(p, s, n);
        b->len += n;
    }
}

/* Appends formatted text (for rare messages; records use the direct formatters). */
void cli_buf_printf(cli_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Frees b's memory and empties it. */
void cli_buf_free(cli_buf *b);

/* One input of a run, with its name precomputed in the forms the formats print. */
typedef struct cli_input {
    const char *name; /* display name: the path, or "<stdin>" */
    size_t name_len;  /* strlen(name) */
    char *json_name;  /* name as a JSON string literal, quotes included */
    size_t json_len;  /* strlen(json_name) */
} cli_input;

/* Appends one record of format f: res is the solve result for a puzzle, NULL for an
 * invalid line. Byte-for-byte the formats of docs/cli.md. */
void cli_format_record(cli_buf *b, cli_format f, const cli_input *in, const sb_record *rec,
                       const sb_result *res);

/* Appends the stderr report of an invalid line: "sudokubench: FILE:LINE:COL: invalid ...". */
void cli_format_invalid(cli_buf *b, const char *name, const sb_record *rec);

/* --progress modes. */
typedef enum cli_progress {
    CLI_PROGRESS_AUTO,   /* only when stderr is a terminal (the default) */
    CLI_PROGRESS_ALWAYS, /* even into a pipe or file */
    CLI_PROGRESS_NEVER   /* never */
} cli_progress;

/* Parses --progress auto|always|never; returns 0 or CLI_EXIT_USAGE after a message. */
int cli_parse_progress(const char *cmd, const char *arg, cli_progress *mode);

/* The default of -t: every core OpenMP sees (omp_get_max_threads, so OMP_NUM_THREADS
 * applies), at most 1024. */
int cli_default_threads(void);

/* A batch run: what a command plugs into the engine. The engine calls worker_new once per
 * thread, then record (or item) for every input record (generated item) on the thread that
 * owns the worker, then worker_end for each worker on the calling thread, in thread order,
 * so per-thread statistics are reduced without any sharing on the hot path. */
typedef struct cli_batch {
    int threads;           /* worker threads, >= 1 */
    cli_progress progress; /* progress line on stderr */
    const char *unit;      /* what the progress line counts ("puzzles"); NULL = "records" */
    FILE *out;             /* where records go: flushed first, then written by descriptor */
    void *ctx;             /* the command's shared state (read-only during the run) */
    /* Creates one thread's worker in *worker. @return 0, or an exit code after a message.
     * A worker written on every record should own its cache lines (CLI_CACHE_LINE-aligned
     * allocation), or two threads' workers ping-pong one line between cores. */
    int (*worker_new)(void *ctx, void **worker);
    /* Folds a worker's statistics into ctx and frees it (worker may be NULL). */
    void (*worker_end)(void *ctx, void *worker);
    /* Handles one record of cli_batch_records: appends its output record to out and any
     * stderr text to err. Invalid lines arrive too, their "invalid puzzle" message already
     * in err. Must not touch shared state. */
    void (*record)(void *worker, const cli_input *in, const sb_record *rec, cli_buf *out,
                   cli_buf *err);
    /* Handles item index (0-based, run-wide) of cli_batch_items, like record. Derive any
     * randomness from index so the output does not depend on the thread count. */
    void (*item)(void *worker, uint64_t index, cli_buf *out, cli_buf *err);
} cli_batch;

/* Handles the engine's options in a command's getopt loop: ch 't' (-t/--threads N) and
 * 'P' (--progress WHEN) set b->threads and b->progress. @return 0, or CLI_EXIT_USAGE after
 * a message. */
int cli_batch_option(const char *cmd, int ch, const char *arg, cli_batch *b);

enum { CLI_CACHE_LINE = 64 /* bytes of a cache line (x86-64; a safe bound elsewhere) */ };

/* Allocates size bytes, zeroed, aligned to and padded to whole cache lines (free() frees
 * it), for per-thread state written on the hot path. @return NULL when memory ran out. */
void *cli_alloc_lines(size_t size);

/* Streams every record of the inputs ("-" or none = stdin) through b in windows: records
 * are read in order, handled in parallel (one worker per thread, dynamic chunks), and their
 * output and stderr text written in input order, so the bytes do not depend on the thread
 * count. Memory is bounded by the window whatever the input size; pipes and terminals are
 * flushed whenever the next read would block. Unreadable inputs are reported and skipped.
 * SIGINT/SIGTERM stop the run at a record boundary with every finished record written.
 * @return 0, CLI_EXIT_USAGE after an I/O error or running out of memory, or
 * CLI_EXIT_INTERRUPTED (after "interrupted after N records (FILE:LINE)" on stderr). */
int cli_batch_records(const cli_batch *b, char *const *files, int nfiles);

/* Runs items 0..count-1 through b->item with the same windows, ordering, progress and
 * interrupt handling as cli_batch_records. @return as cli_batch_records. */
int cli_batch_items(const cli_batch *b, uint64_t count);

/* Commands. Each gets argv from the command name on and returns the exit code. */
int cli_solve(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_rate(int argc, char **argv);
int cli_generate(int argc, char **argv);
int cli_augment(int argc, char **argv);

#endif /* SB_CLI_H */
