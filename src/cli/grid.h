/*
 * grid.h — the commands on geometries other than the 9x9 fast path (issue 13, grid.c):
 * --grid SPEC / --geometry FILE, choosing the geometry from the first puzzle line, the
 * geometry record source of the batch engine, solve/validate records and `solve --all`.
 */
#ifndef SB_CLI_GRID_H
#define SB_CLI_GRID_H

#include <getopt.h>

#include "cli.h"

/* getopt codes of the geometry options (above any character). */
enum { CLI_OPT_GRID = 0x100, CLI_OPT_GEOMETRY = 0x101, CLI_OPT_ALL = 0x102 };

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

/* Handles ch if it is a geometry option. @return 1 when it was one, else 0. */
int cli_grid_option(cli_grid_opt *o, int ch, const char *arg);

/* Picks the geometry of a run: --grid or --geometry when given, else the square boxed one
 * for the cell count of the first puzzle line of the inputs. *g is left NULL for input the
 * 9x9 fast path takes (81 cells, a 9x9 line, or input that cannot be looked at ahead, a
 * terminal) unless need_geometry, which makes it 3x3 then. @return 0, or CLI_EXIT_USAGE
 * after a message (a bad spec or file; a first line no geometry fits, naming the choices). */
int cli_grid_pick(const char *cmd, const cli_grid_opt *o, char *const *files, int nfiles,
                  int need_geometry, sb_geometry **g);

/* What a solve or validate run on a geometry does. */
typedef struct cli_grid_job {
    const char *cmd;      /* "solve", "validate" or "rate" */
    cli_format format;    /* solve's record format (validate: FMT_COUNT) */
    uint64_t limit;       /* count solutions up to this (0: all) */
    uint64_t max_guesses; /* guess budget per puzzle (UINT64_MAX: none) */
    int all;              /* write every solution, then the count record (solve --all) */
    int stats;            /* solve --stats: summary line on stderr */
    int rate;             /* rate: the class of each proper puzzle (format FMT_CSV/FMT_JSON) */
    const char *pipeline; /* solve -s: a registry name or custom spec run by the generic
                             engine (sb_gpipeline); NULL or "fast": the general solver */
    int simd;             /* --simd: the general solver's level (sb_gsolver_simd); set it,
                             0 is SB_SIMD_SCALAR (the per-cell reference) */
} cli_grid_job;

/* Runs solve or validate over the inputs on geometry g: b gives threads and progress (its
 * handlers are replaced). @return the command's exit code. */
int cli_grid_run(const sb_geometry *g, const cli_grid_job *job, const cli_batch *b,
                 char *const *files, int nfiles);

/* What generate on a geometry makes. */
typedef struct cli_grid_gen {
    uint64_t count;    /* puzzles to make */
    uint64_t seed;     /* run seed: puzzle i depends on (seed, first + i) only */
    uint64_t first;    /* index of the first puzzle */
    int threads;       /* worker threads */
    cli_format format; /* solution (the puzzle line), tdoku, csv, json or pretty */
    int stats;         /* summary line on stderr */
    FILE *out;         /* where puzzles go */
    const char *out_name; /* -o FILE as given, for messages (NULL: standard output) */
} cli_grid_gen;

/* generate --grid: count unique, minimal puzzles of g, in index order for any thread count.
 * @return the exit code. */
int cli_grid_generate(const sb_geometry *g, const cli_grid_gen *opt);

/* augment on geometry g: count lines, line i the valid input puzzle i mod P with its digits
 * relabelled and a symmetry of the geometry applied (docs/cli.md); out_name is -o FILE as
 * given (NULL: standard output). @return the exit code. */
int cli_grid_augment(const sb_geometry *g, char *const *files, int nfiles, uint64_t count,
                     uint64_t seed, int stats, const char *out_name);

/* bench on geometry g: per FILE (at most max puzzles, 0: all) and pipeline (pipes[0..npipes):
 * "fast" for the general solver, any other name or spec for the generic engine; none: fast
 * alone) a checked warm-up pass, whose verdicts every later pipeline must repeat, then timed
 * passes counting to limit for at least seconds on threads threads, the general solver at
 * SIMD level simd (sb_gsolver_simd); one table row each.
 * @return the exit code. */
int cli_grid_bench(const sb_geometry *g, char *const *files, int nfiles, uint64_t limit,
                   int threads, double seconds, size_t max, const char *const *pipes,
                   int npipes, int simd);

#endif /* SB_CLI_GRID_H */
