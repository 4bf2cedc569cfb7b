/*
 * cli.h — shared pieces of the sudokubench program (src/cli/): option helpers, input
 * iteration and record output. The program uses the library through its public header, and
 * the programs' layer (src/app/: streams, segments, side files, sources) through app.h.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../app/app.h" /* the programs' layer; it includes sudokubench.h */
#include "stop.h"         /* the stop flag and its signal handlers: a leaf (stop.c) */

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

/* Makes no input at all (*nfiles 0) standard input alone ("-"). */
void cli_inputs(char *const **files, int *nfiles);

/* Prints "sudokubench: out of memory" to stderr. @return CLI_EXIT_USAGE. */
int cli_oom(void);

/* Reports the option getopt_long just rejected with ch ('?' unknown, ':' missing its
 * argument) as a usage error of cmd. @return CLI_EXIT_USAGE. */
int cli_getopt_error(const char *cmd, int ch, char **argv);

/* Parses a whole non-negative decimal number. @return 1 on success, 0 otherwise. */
int cli_parse_u64(const char *s, unsigned long long *out);

/* Why cli_parse_u64 rejected s, for a message: "too large: ..." for digits beyond 2^64-1,
 * else "a whole number >= 0". */
const char *cli_number_why(const char *s);

/* Parses option `what` of cmd as cli_parse_u64 does. @return 0, or CLI_EXIT_USAGE after
 * "bad WHAT 'ARG' (WHY)". */
int cli_parse_whole(const char *cmd, const char *what, const char *arg, unsigned long long *out);

/* Parses -l LIMIT (a whole number >= 0) into *limit; returns 0 or CLI_EXIT_USAGE after a
 * message. */
int cli_parse_limit(const char *cmd, const char *arg, uint64_t *limit);

/* Seconds on the monotonic clock. */
double cli_now_seconds(void);

/* Sets opt's pipeline from a registry name or custom spec; on a bad one prints a usage error
 * naming the bad token and the valid ones. @return 0 or CLI_EXIT_USAGE. */
int cli_parse_pipeline(const char *cmd, const char *arg, sb_options *opt);

/* Writes the registry's pipeline names into buf (len bytes) as "fast, list, ...". @return buf. */
const char *cli_pipeline_names(char *buf, size_t len);

/* Reports a library status from sb_solver_new as "sudokubench: ..." on stderr (an
 * unsupported SIMD level as a usage error of cmd, with its Try line); returns
 * CLI_EXIT_USAGE. */
int cli_solver_error(const char *cmd, int status, int simd);

/* A file a run writes: path NULL is standard output (checked only when it is a regular
 * file); opt names the option that asked for it ("-o", "--json", "--resume"). */
typedef struct cli_write {
    const char *opt;
    const char *path;
} cli_write;

/* The one rule for paths (paths.c): refuses the run when one of the nwrites files it will
 * write is one it reads — files ("-" = standard input; NULL: none; nfiles 0: standard input),
 * extra (--geometry FILE; may be NULL) or a loaded --plugin — or another of the files it
 * writes, by device and
 * inode or by resolved name. Called before anything is opened for writing.
 * @return 0, or CLI_EXIT_USAGE after "cannot open 'PATH' for OPT: it is also the input 'IN'"
 * (or "standard output is the input 'IN': ..."). */
int cli_paths_refuse(const char *cmd, const cli_write *writes, int nwrites, char *const *files,
                     int nfiles, const char *extra);

/* A file written whole or not at all (--json): the bytes gather in memory, then go to a
 * new temporary beside the file (mkstemps, made when the file is opened: never an input),
 * synced and renamed over it. */
typedef struct cli_whole {
    FILE *f;    /* where the bytes go (NULL once committed or aborted) */
    char *data; /* f's bytes (open_memstream) */
    size_t len;
    int fd;     /* the temporary */
    char *path; /* the final name (a symbolic link's target) */
    char *tmp;  /* the temporary's name (NULL: a device or FIFO, written in place) */
} cli_whole;

/* Writes all n bytes of p to fd, retrying after signals, short writes and on non-blocking
 * descriptors (paths.c). @return 0, or -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t n);

/* Starts writing path. @return 0, or -1 with errno set (path cannot be written). */
int cli_whole_open(cli_whole *o, const char *path);

/* Flushes, syncs and renames the temporary over the file. @return 0, or -1 with errno set,
 * the temporary removed and the old file (if any) left as it was. */
int cli_whole_commit(cli_whole *o);

/* Removes the temporary: the old file (if any) stays as it was. */
void cli_whole_abort(cli_whole *o);

/* Flushes and closes stdout at the end of a command. @return rc, or CLI_EXIT_USAGE after
 * "write error: standard output: WHY" when the output could not be written (the message is
 * left out when rc is already CLI_EXIT_USAGE: that failure has been reported). */
int cli_close_stdout(int rc);

/* Called for every record in input order with its cells; name is the input's display name.
 * Returns 0 to go on, non-zero to stop the whole iteration with that code. */
typedef int (*cli_record_fn)(void *ctx, const char *name, const sb_record *rec,
                             const uint8_t *cells);

/* Reads each of the nfiles inputs in order ("-" or no file at all = stdin) with the reader of
 * geometry g (pencilmarks beyond their givens refused), reports invalid lines on
 * stderr as FILE:LINE:COL, and calls fn for every record (invalid ones included). Unreadable
 * files are reported and skipped. @return 0, CLI_EXIT_USAGE after any I/O error,
 * CLI_EXIT_INTERRUPTED when the stop flag ended the reading, or fn's stop code. */
int cli_for_each_record(const sb_geometry *g, char *const *files, int nfiles,
                        cli_record_fn fn, void *ctx);

/* Appends the message of input name whose first bytes say it is kind, which this build does
 * not read (sb_input_open returned 1): a compressed format built without its library, or
 * binary that is no puzzle text. */
void cli_input_kind_msg(sb_buf *msg, const char *name, sb_input_kind kind);

/* Opens input path (display name name) as sb_input_open does, decompressing it when it is
 * compressed. @return 0 (*in set: fclose it unless it is stdin), or CLI_EXIT_USAGE after
 * reporting why it cannot be read. */
int cli_input_open(const char *path, const char *name, FILE **in);

/* cli_for_each_record's reading of one open input in (named name in messages): the records
 * of g's reader into rec and cells (sb_geometry_cells bytes), each handed to fn. @return as
 * cli_for_each_record. */
int cli_read_stream(const sb_geometry *g, FILE *in, const char *name, sb_record *rec,
                    uint8_t *cells, cli_record_fn fn, void *ctx);

/* Looks up a format by name; returns FMT_COUNT when unknown. */
cli_format cli_format_find(const char *name);

/* The name of a format. */
const char *cli_format_name(cli_format f);

/* The status of a record whose search ran out of its --max-guesses budget: after the three
 * sb_verdict values, so one table names every status. */
enum { CLI_STATUS_BUDGET = 3 };

/* The status word of a verdict (or CLI_STATUS_BUDGET) in every output: unsolvable, solved,
 * multiple or budget. */
const char *cli_verdict_name(sb_verdict v);

/* Writes what a format prints before the first record (csv header, with a file column when
 * with_file), if anything. */
void cli_write_header(FILE *out, cli_format f, int with_file);

/* Writes s as a JSON string literal (quotes included). */
void cli_json_string(FILE *out, const char *s);

/* Writes s as a JSON string literal (quotes included) into dst, which needs room for
 * 6 * strlen(s) + 3 bytes; NUL-terminates. Control bytes are escaped and bytes that are not
 * valid UTF-8 become U+FFFD, so any file name gives valid JSON. @return the length. */
size_t cli_json_escape(char *dst, const char *s);

/* ------------------------------------------------------------------------------------------ */
/* Batch runs (batch.c over sb_stream, src/app/): records in parallel, output in order        */
/* ------------------------------------------------------------------------------------------ */

/* A growable byte buffer (sb_buf, src/app/): each chunk of a window formats its records
 * into one, so workers never touch stdio and the stream emits whole chunks in order. */
typedef sb_buf cli_buf;

/* Makes room for n more bytes. @return where they go (commit with b->len += used), or NULL
 * when memory ran out. Inline: called once per record on the hot path. */
static inline char *cli_buf_reserve(cli_buf *b, size_t n)
{
    return b->cap - b->len >= n ? b->data + b->len : sb_buf_reserve(b, n);
}

/* One input of a run, with its name precomputed in the forms the formats print. */
typedef struct cli_input {
    const char *name; /* display name: the path, or "<stdin>" */
    size_t name_len;  /* strlen(name) */
    char *json_name;  /* name as a JSON string literal, quotes included */
    size_t json_len;  /* strlen(json_name) */
    char *msg_name;   /* name for messages and pretty headers (cli_msg_escape) */
    size_t msg_len;   /* strlen(msg_name) */
    char *csv_name;   /* name as a CSV field (RFC 4180 quoting when needed) */
    size_t csv_len;   /* strlen(csv_name) */
    int with_file;    /* the run has several inputs: csv records carry a file column */
} cli_input;

/* Fills in's name forms for path ("-" = stdin). @return 0, or -1 when memory ran out. */
int cli_input_init(cli_input *in, const char *path);

/* Frees what cli_input_init allocated. */
void cli_input_free(cli_input *in);

/* Writes s into dst (room for 4 * strlen(s) + 1) with control bytes (below 0x20, and 0x7f)
 * as \xHH, so a file name cannot split or garble a message line. @return the length. */
size_t cli_msg_escape(char *dst, const char *s);

/* s as cli_msg_escape writes it, in memory of its own (free it). @return NULL when memory
 * ran out (print s as it is then). */
char *cli_msg_dup(const char *s);

/* Solver plug-ins of the run (plugins.c): --plugin FILE loads FILE (the first also installs
 * the handler that names a plug-in crashing the process). @return 0, or CLI_EXIT_USAGE after
 * a message naming FILE and the reason. */
int cli_plugin_load(const char *cmd, const char *path);

/* @return the loaded plug-in named name, or NULL. */
const sb_plugin *cli_plugin_find(const char *name);

/* Points opt->techniques at the loaded technique plug-ins (their names become technique
 * tokens of opt's specs): before any spec is parsed. */
void cli_plugin_techniques(sb_options *opt);

/* Checks that each of opt's technique plug-ins works on geometry g, and brings
 * *threads to 1 for one that keeps global state. @return 0, or CLI_EXIT_USAGE after a message. */
int cli_plugin_techniques_ready(const char *cmd, const sb_options *opt, const sb_geometry *g,
                                int *threads);

/* @return how many plug-ins are loaded; the i-th of them in --plugin order (NULL past the
 * end). */
int cli_plugin_count(void);
const sb_plugin *cli_plugin_at(int i);

/* @return the i-th plug-in's --plugin path (NULL past the end): an input of the run, which
 * no output may overwrite (cli_paths_refuse). */
const char *cli_plugin_path(int i);

/* Caps *threads at 1 when p runs on one thread only (SB_PLUGIN_ONE_THREAD), with a note on
 * stderr. */
void cli_plugin_threads(const char *cmd, const sb_plugin *p, int *threads);

/* @return 0 when p solves geometry g, else CLI_EXIT_USAGE after a message. */
int cli_plugin_check(const char *cmd, const sb_plugin *p, const sb_geometry *g);

/* Reports the technique plug-in that broke its contract on rec (in solve, validate or rate:
 * sb_rsolver_plugin_why) to err as FILE:LINE: WHY. @return CLI_EXIT_USAGE: the run stops, as
 * for a solver plug-in. */
int cli_technique_failed(const sb_rsolver *rs, cli_buf *err, const cli_input *in,
                         const sb_record *rec);

/* The getopt entry of --plugin FILE, which solve, validate, rate and bench take. */
#define CLI_PLUGIN_LONGOPT {"plugin", required_argument, 0, CLI_OPT_PLUGIN}

/* Appends one 9x9 record of format f: cells its puzzle's 81 cells and cand a pencilmark
 * record's candidates (else NULL); res is the solve result for a puzzle (solution its first
 * solution's 81 cells, read when status is SB_SOLVED), NULL for an invalid line; status its
 * sb_verdict, or CLI_STATUS_BUDGET when the guess budget ran out (res then holds what was
 * found so far). Byte-for-byte the formats of docs/cli.md. */
void cli_format_record(cli_buf *b, cli_format f, const cli_input *in, const sb_record *rec,
                       const uint8_t *cells, const uint64_t *cand, const sb_gresult *res,
                       const uint8_t *solution, int status);

/* The grids of one record for cli_format_grids: cells of geometry g written in the text form
 * of their input line, or, inside cli_format_record (g NULL), 81 cells of a 9x9 record, the
 * puzzle written as its pencilmarks when cand is set. */
typedef struct cli_grids {
    const sb_geometry *g;    /* the geometry; NULL: cli_format_record's 81-cell writers */
    int form;                /* g's sb_gform */
    const uint8_t *puzzle;   /* the puzzle's cells */
    const uint64_t *cand;    /* 9x9: a pencilmark record's candidates, else NULL */
    const uint8_t *solution; /* the first solution, read when the status is solved */
} cli_grids;

/* Appends one record of format f on any geometry: v NULL for an invalid line; else count,
 * guesses and status (an sb_verdict or CLI_STATUS_BUDGET) of the puzzle whose grids v holds.
 * count_only (solve --all): the solution format writes the count instead of the solution. */
void cli_format_grids(cli_buf *b, cli_format f, const cli_input *in, const sb_record *rec,
                      const cli_grids *v, uint64_t count, uint64_t guesses, int status,
                      int count_only);

/* Appends solution number index (1-based) of the puzzle at line, solve --all's record. */
void cli_format_solution(cli_buf *b, cli_format f, const cli_input *in, uint64_t line,
                         const cli_grids *v, uint64_t index);

/* Appends cells of geometry g as text in form (characters, or ',' between integers). */
void cli_put_gcells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form);

/* cli_put_gcells as one csv field (quoted in the integer form, which has commas). */
void cli_put_gcsv_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form);

/* Appends the pretty picture of left on g (boxes drawn where g has them), with right beside
 * it when not NULL. */
void cli_put_gpretty(cli_buf *b, const sb_geometry *g, const uint8_t *left, const uint8_t *right);

/* Decimal digits of the largest uint64_t: room for one cli_put_u64. */
#define CLI_U64_DIGITS 20

/* Writes v in decimal at p. @return the end. By hand: through vsnprintf, the numbers of a
 * `generate -f csv` record took about 3,700 instructions, 9% of the run. */
static inline char *cli_put_u64(char *p, unsigned long long v)
{
    char tmp[CLI_U64_DIGITS];
    int n = 0;
    do {
        tmp[CLI_U64_DIGITS - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(p, tmp + CLI_U64_DIGITS - n, (size_t)n);
    return p + n;
}

/* Writes grid g at p as 81 characters, blanks as `blank`: a branch-free loop the compiler
 * vectorises (sb_grid_format would add a call and a NUL per grid). @return p + 81. */
static inline char *cli_put_grid(char *p, const sb_grid *g, char blank)
{
    for (int i = 0; i < SB_CELLS; i++)
        p[i] = g->cell[i] ? (char)('0' + g->cell[i]) : blank;
    return p + SB_CELLS;
}

/* Appends the stderr report of an invalid line: "sudokubench: FILE:LINE:COL: invalid ...";
 * msg_name is the input's name as cli_msg_escape writes it. */
void cli_format_invalid(cli_buf *b, const char *msg_name, const sb_record *rec);

/* --progress modes. */
typedef enum cli_progress {
    CLI_PROGRESS_AUTO,   /* only when stderr is a terminal (the default) */
    CLI_PROGRESS_ALWAYS, /* even into a pipe or file */
    CLI_PROGRESS_NEVER   /* never */
} cli_progress;

/* The default of -t: every core OpenMP sees (omp_get_max_threads, so OMP_NUM_THREADS
 * applies), at most 1024. */
int cli_default_threads(void);

/* ---- input.c: the geometry of a run and its reader ------------------------------------- */

/* getopt codes of the geometry options (above any character). */
enum { CLI_OPT_GRID = 0x100, CLI_OPT_GEOMETRY, CLI_OPT_ALL, CLI_OPT_PLUGIN, CLI_OPT_BAD = 0x1ff };

/* The long options every command that reads puzzles takes. */
#define CLI_GRID_LONGOPTS                                                                     \
    {"grid", required_argument, 0, CLI_OPT_GRID},                                             \
    {"geometry", required_argument, 0, CLI_OPT_GEOMETRY}

/* What the geometry options said. */
typedef struct cli_grid_opt {
    const char *spec; /* --grid SPEC, or NULL */
    const char *file; /* --geometry FILE, or NULL */
    int all;          /* solve --all: every solution, then the count record */
    int limit_given;  /* -l was given (--all alone means no cap) */
} cli_grid_opt;

/* Picks the geometry of a run: --grid or --geometry when given, else the one sb_geometry_detect
 * finds on the first puzzle line of the inputs. *g is sb_geometry_9x9() for input the 9x9 fast
 * path takes (81 cells, a 9x9 line, or input that cannot be looked at ahead, a terminal) unless
 * need_geometry, which makes it the 3x3 geometry then. @return 0, or CLI_EXIT_USAGE after a
 * message (a bad spec or file; a first line no geometry fits, naming the choices). */
int cli_grid_pick(const char *cmd, const cli_grid_opt *o, char *const *files, int nfiles,
                  int need_geometry, sb_geometry **g);

/* Checks that the engine of g for opt can be made, so a bad option is a usage error before
 * any output, and writes to stderr, once per run of cmd, that opt's pipeline skips a
 * technique on g: locked candidates where no two houses meet in 2..N-1 cells (a latin
 * square). @return 0, or CLI_EXIT_USAGE after a message (a SIMD level this CPU lacks, --search
 * bfs off 9x9, memory). */
int cli_engine_check(const char *cmd, const sb_geometry *g, const sb_options *opt);

/* What a record or item handler returns. */
enum {
    CLI_DONE = SB_OK,           /* finished: its output, stderr text and tag stand */
    CLI_STOPPED = SB_ERR_STOPPED /* the stop flag cut it short: everything it appended is
                                    dropped and the run ends as interrupted */
    /* > 0: an exit code: the run ends after the records before this one, with this one's
     * stderr text (its reason) written and its output dropped (generate's give-up) */
};

/* A batch run: what a command plugs into the engine. The engine calls worker_new once per
 * thread, then record (or item) for every input record (generated item) on the thread that
 * owns the worker, then worker_end for each worker. Statistics go through tags: the handler
 * fills tag_size bytes per record, and the engine passes the tags of the records it has
 * written, in order, to commit on the calling thread. So summaries count exactly the
 * records written (an interrupt drops handled but unwritten ones), without any sharing on
 * the hot path. */

struct option;

typedef struct cli_batch {
    const char *getopt_opts;             /* the command's options as cli_getopt read them, */
    const struct option *getopt_longopts; /* so --resume can name a run by its options'
                                           * meaning (resume.c), however they were spelt */
    int threads;           /* worker threads, >= 1 */
    cli_progress progress; /* progress line on stderr */
    const char *unit;      /* what the progress line counts ("puzzles"); NULL = "records" */
    FILE *out;             /* where records go: flushed first, then written by descriptor */
    void *ctx;             /* the command's shared state (read-only for the workers) */
    size_t tag_size;       /* bytes of statistics per record handed to commit (0: none) */
    unsigned char *opened; /* optional, one per input: 1 once the input is opened, back to 0
                              on a read error, so summaries leave out inputs that could not
                              be read (a directory opens, then fails its first read) */
    const sb_geometry *g;  /* the records' geometry (sb_geometry_9x9() for 9x9); another
                              geometry's records are one line each, so the MPI build
                              (mpi.c) may cut an input after any line */
    int marks;             /* 9x9 pencilmark lines beyond their givens are records: record
                              gets their candidates (cand) and must solve those */
    /* Creates one thread's worker in *worker (NULL: ctx is every thread's worker and
     * worker_end is NULL too). @return 0, or an exit code after a message.
     * A worker written on every record should own its cache lines (CLI_CACHE_LINE-aligned
     * allocation), or two threads' workers ping-pong one line between cores. */
    int (*worker_new)(void *ctx, void **worker);
    /* Frees a worker (worker may be NULL). */
    void (*worker_end)(void *ctx, void *worker);
    /* Handles one record of cli_batch_records, its cells (sb_geometry_cells bytes) and a
     * pencilmark record's candidates (cand, else NULL): appends its output record to out and
     * any stderr text to err, and fills tag. Invalid lines arrive too, their "invalid
     * puzzle" message already in err. Must not touch shared state. @return CLI_DONE,
     * CLI_STOPPED or an exit code (see above). */
    int (*record)(void *worker, const cli_input *in, const sb_record *rec, const uint8_t *cells,
                  const uint64_t *cand, cli_buf *out, cli_buf *err, void *tag);
    /* Optional: called with a chunk's n records and their cells (row i: recs[i]'s), in order,
     * before record is called on each of them, so that a handler can work on them together
     * (solve: sb_engine_solve_many). Must not touch shared state; record must still work on a
     * record it was not given. */
    void (*chunk)(void *worker, const sb_record *recs, const uint8_t *cells, size_t n);
    /* Handles item index (0-based, run-wide) of cli_batch_items, like record. Derive any
     * randomness from index so the output does not depend on the thread count. */
    int (*item)(void *worker, uint64_t index, cli_buf *out, cli_buf *err, void *tag);
    /* Adds the tags of n written records to ctx; input[i] is record i's input index (NULL
     * for items). Called on the calling thread, in output order. May be NULL. */
    void (*commit)(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n);
    const char *out_name;  /* -o FILE as given, for messages (NULL: standard output) */
    int resume;            /* --resume: -o FILE continues an interrupted run (resume.c) */
    uint64_t skip;         /* records to read and drop before the first one handled (resume) */
    uint64_t *skipped_invalid; /* counts the invalid lines among them (may be NULL) */
    uint64_t *skipped_all; /* counts every record dropped (may be NULL; mpi.c counts a segment) */
    /* Segments (MPI): zero in plain runs. */
    sb_stream_sink *sink;  /* when set, output, stderr text and tags go here, not out/commit:
                              what a segment would have written and committed (mpi.c) */
    uint64_t line_base;    /* added to every record's line: lines before the segment */
    uint64_t item_base;    /* run-wide index of the segment's item 0 */
} cli_batch;

/* The last step before a batch command runs: points batch b of cmd at geometry g (9x9,
 * sb_geometry_9x9(), solved a chunk at a time; another geometry one record at a time, without
 * pencilmarks); checks that a solver for opt can be made (cli_engine_check; on 9x9 the SIMD
 * level: one this CPU lacks); then opens -o FILE (cli_output_open against the inputs files,
 * nfiles and extra). So every usage error is found before FILE is truncated. @return 0, or
 * CLI_EXIT_USAGE after a message. */
int cli_batch_ready(const char *cmd, cli_batch *b, const sb_geometry *g, const sb_options *opt,
                    char *const *files, int nfiles, const char *extra);

/* Where the options several commands share go; a member left NULL is an option the command
 * does not take (its getopt table lacks it too). */
typedef struct cli_shared {
    const char *cmd;    /* the command, for messages */
    cli_batch *b;       /* 'o' (-o FILE: b->out_name, opened later by cli_output_open) and 'P'
                         * (--progress WHEN: b->progress); 'R' (--resume) was read before by
                         * cli_resume_wanted */
    int *threads;       /* 't' (-t/--threads N) */
    int *simd;          /* 'S' (--simd LEVEL) */
    cli_grid_opt *grid; /* the geometry options (--grid, --geometry, --all) */
} cli_shared;

/* getopt_long over argv with the command's opts and longopts, the shared options of s handled
 * here. @return the next option that is the command's own, -1 at the end, or CLI_OPT_BAD
 * after a usage message (a bad value, an unknown option, a missing argument). */
int cli_getopt(const cli_shared *s, int argc, char **argv, const char *opts,
               const struct option *longopts);

/* The getopt pieces of the engine's options every batch command takes: -o FILE (--output)
 * sends standard output to FILE (named by cli_getopt, opened by cli_output_open). */
#define CLI_OUTPUT_LONGOPT {"output", required_argument, 0, 'o'}

/* Points standard output at -o FILE (b->out_name; nothing to do without one), the one place
 * every command opens it: once the options are read, before anything is written, after
 * cli_output_refuse has checked FILE against the inputs (files, nfiles, extra as there).
 * Truncated unless b->resume; under MPI opened by rank 0 only. @return 0, or CLI_EXIT_USAGE
 * after a message. */
int cli_output_open(const char *cmd, cli_batch *b, char *const *files, int nfiles,
                    const char *extra);

enum { CLI_CACHE_LINE = 64 /* bytes of a cache line (x86-64; a safe bound elsewhere) */ };

/* Allocates size bytes, zeroed, aligned to and padded to whole cache lines (free() frees
 * it), for per-thread state written on the hot path. @return NULL when memory ran out. */
void *cli_alloc_lines(size_t size);

/* The default of -t as --help shows it: "default: every core", or "default N, from
 * $OMP_NUM_THREADS" when the user set that (written into buf, len bytes). @return the text. */
const char *cli_threads_default(char *buf, size_t len);

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

/* cli_batch_records with the inputs sharded over the MPI ranks (bench), every rank
 * committing its own records' tags (each keeps its share); rank 0 writes every rank's stderr
 * text in order. Without MPI: cli_batch_records. */
int cli_batch_shard(const cli_batch *b, char *const *files, int nfiles);

/* Flushes b->out (what the command printed before the records, a csv header, or its summary).
 * @return 0, or CLI_EXIT_USAGE after the write error naming -o FILE or standard output. */
int cli_flush_out(const cli_batch *b);

/* Passes a sink's tags to b->commit (when it has one), as the engine would have. */
void cli_sink_commit(const cli_batch *b, const sb_stream_sink *s);

/* Writes a sink to b->out and stderr and commits its tags to b->commit, as the engine would
 * have. @return 0, or CLI_EXIT_USAGE after a message (write error, memory). */
int cli_sink_write(const cli_batch *b, const sb_stream_sink *s);

/* MPI (src/cli/mpi.c; without SB_MPI cli_mpi_rank returns 0 and the collectives below act
 * on one process). */
/* This process's rank (0 without MPI). */
int cli_mpi_rank(void);
/* Starts MPI and silences the standard streams of ranks above 0. @return 0 or an exit code. */
int cli_mpi_begin(int *argc, char ***argv);
/* Ends MPI. @return the exit code every rank exits with: rank 0's rc. */
int cli_mpi_end(int rc);
/* The MPI layer's one interface to the batch engine, one way: batch.c calls
 * cli_mpi_records/cli_mpi_items (SB_MPI builds only) and hands them the engine's own
 * operations, so mpi.c never calls batch.c by name (no circle between them). */
typedef struct cli_batch_ops {
    /* Rank 0, before any record: flushes what the command printed first (a csv header).
     * @return 0, or CLI_EXIT_USAGE after the write error message one process gives. */
    int (*begin)(const cli_batch *b);
    /* Runs the engine over input `input` of files (names and the csv file column as in the
     * whole run) read from in, which it closes: a segment for b->sink, lines shifted by
     * b->line_base. @return as cli_batch_records (no "interrupted" message). */
    int (*segment)(const cli_batch *b, char *const *files, int nfiles, int input, FILE *in);
    /* Runs items b->item_base.. (count of them) into b->sink. @return as cli_batch_items. */
    int (*items)(const cli_batch *b, uint64_t count);
    /* cli_sink_write: rank 0 writes a received sink as the engine would have. */
    int (*sink_write)(const cli_batch *b, const sb_stream_sink *s);
    /* cli_resume_broken: an input failed part-way under --resume. Called through here so
     * that mpi.c and resume.c (which asks mpi.c for the rank) make no circle. */
    void (*broken)(const cli_batch *b);
} cli_batch_ops;
/* cli_batch_records across the ranks: inputs sharded, output byte-identical; with local
 * set, cli_batch_shard's run. */
int cli_mpi_records(const cli_batch_ops *eng, const cli_batch *b, char *const *files,
                    int nfiles, int local);
/* cli_batch_items across the ranks: index ranges dealt out, output byte-identical. */
int cli_mpi_items(const cli_batch_ops *eng, const cli_batch *b, uint64_t count);
/* The number of ranks; 0 in a plain build (no MPI), where the calls below act on this
 * process's values alone. */
int cli_mpi_size(void);
/* How cli_mpi_reduce combines. */
typedef enum cli_mpi_op { CLI_MPI_SUM, CLI_MPI_MIN, CLI_MPI_MAX } cli_mpi_op;
/* Replaces v[0..n-1] on every rank by their sum, minimum or maximum over the ranks. */
void cli_mpi_reduce(uint64_t *v, int n, cli_mpi_op op);
/* Gathers size bytes from every rank into all (size bytes per rank, in rank order) on rank
 * 0; all is not written on other ranks. */
void cli_mpi_gather(const void *mine, void *all, size_t size);
/* Copies size bytes at p from rank root to every rank. */
void cli_mpi_bcast(void *p, size_t size, int root);

/* ---- resume.c: -o FILE --resume ---------------------------------------------------------- */

/* @return 1 when argv (a command's arguments) holds --resume before any "--". Commands call it
 * before parsing options, so -o FILE is opened without truncation whatever the order. */
int cli_resume_wanted(int argc, char **argv);

/* Prepares a resumed run of cmd once -o FILE is open on stdout: checks or writes the side file
 * FILE.resume (the command, its arguments but --resume, each input's path, size and mtime),
 * cuts FILE after its last whole line, and sets b->skip to the whole records it holds (lines
 * less header_lines, the format's header). *has_header says the header is there already.
 * @return 0 to run; CLI_EXIT_USAGE after a message (no -o, standard input, a side file of
 * another run, output without a side file); or -1 - RC when FILE is complete: exit with RC
 * and do nothing. */
int cli_resume_begin(const char *cmd, cli_batch *b, int argc, char **argv, char *const *files,
                     int nfiles, int header_lines, int *has_header);

/* The checks of --resume that need no side file, made before -o FILE is opened: -o FILE
 * given, and every input a named regular file (standard input, a pipe or a FIFO cannot be
 * read again on a resume). @return 0, or CLI_EXIT_USAGE after a message. */
int cli_resume_inputs(const char *cmd, const cli_batch *b, char *const *files, int nfiles);

/* Marks FILE.resume finished ("done RC") when a resumable run ended with exit 0 or 1.
 * @return rc, or CLI_EXIT_USAGE after a message when the side file could not be updated
 * (a side file that does not say "done" would make a later --resume redo or refuse work). */
int cli_resume_end(const cli_batch *b, int rc);

/* Marks FILE.resume "broken" when an input failed part-way (the engine calls it before any
 * later record is written): the records after the failure do not line up with the input, so
 * a resume is refused. */
void cli_resume_broken(const cli_batch *b);

/* The checkpoints of a counting run under --resume (validate: its output is one summary). */
typedef struct cli_checkpoint {
    sb_side side;         /* FILE.resume (src/app/), rewritten with each checkpoint */
    double every;         /* seconds between two checkpoints */
    double last;          /* when the last one was written (cli_now_seconds) */
    int active;           /* checkpoints are wanted */
    int failed;           /* a checkpoint could not be written: reported, the run exits 2 */
} cli_checkpoint;

/* cli_resume_begin for a command whose output comes at the end: checks or writes the side
 * file, empties FILE, restores counts[0..ncounts-1] from the last checkpoint (zeros when
 * none) and sets b->skip to the records they cover. @return as cli_resume_begin; on 0, cp
 * is active (free it with cli_checkpoint_free). */
int cli_resume_counts_begin(const char *cmd, cli_batch *b, int argc, char **argv,
                            char *const *files, int nfiles, cli_checkpoint *cp,
                            uint64_t *counts, int ncounts);

/* Writes the checkpoint "counts over the first `records` input records" to the side file,
 * at most once per cp->every seconds unless force. Does nothing when cp is not active. A
 * checkpoint that cannot be written is a write error: reported once, cp->failed set, no
 * later checkpoint tried (the side file keeps the last one that was written whole).
 * @return 0, or -1 when cp->failed. */
int cli_resume_checkpoint(cli_checkpoint *cp, uint64_t records, const uint64_t *counts,
                           int ncounts, int force);

/* Frees what cli_resume_counts_begin kept. */
void cli_checkpoint_free(cli_checkpoint *cp);

/* Commands. Each gets argv from the command name on and returns the exit code. */
int cli_solve(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_rate(int argc, char **argv);
int cli_generate(int argc, char **argv);
int cli_augment(int argc, char **argv);

#endif /* SB_CLI_H */
