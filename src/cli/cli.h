/*
 * cli.h — shared pieces of the sudokubench program (src/cli/): option helpers, input
 * iteration and record output. The program uses only the public header of the library.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <stdio.h>

#include "sudokubench.h"

#define CLI_NAME "sudokubench"

/* Exit codes of the program (docs/cli.md). */
enum {
    CLI_EXIT_OK = 0,      /* every line was a well-formed puzzle */
    CLI_EXIT_INVALID = 1, /* some lines were invalid (validate: some puzzle not proper) */
    CLI_EXIT_USAGE = 2    /* usage or I/O error */
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

/* Writes what a format prints before the first record (csv header), if anything. */
void cli_write_header(FILE *out, cli_format f);

/* Writes one record: res is the solve result for a puzzle, NULL for an invalid line. */
void cli_write_record(FILE *out, cli_format f, const char *name, const sb_record *rec,
                      const sb_result *res);

/* Writes s as a JSON string literal (quotes included). */
void cli_json_string(FILE *out, const char *s);

/* Commands. Each gets argv from the command name on and returns the exit code. */
int cli_solve(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_bench(int argc, char **argv);

#endif /* SB_CLI_H */
