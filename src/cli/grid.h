/*
 * grid.h — the commands on geometries other than the 9x9 fast path (issue 13, grid.c):
 * --grid SPEC / --geometry FILE, choosing the geometry from the first puzzle line, the
 * geometry record source of the batch engine, solve/validate records and `solve --all`.
 */
#ifndef SB_CLI_GRID_H
#define SB_CLI_GRID_H

#include "cli.h"

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

#endif /* SB_CLI_GRID_H */
