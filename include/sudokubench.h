/*
 * sudokubench.h — the public C API of libsudokubench, and its manual.
 *
 * libsudokubench solves, counts and checks 9x9 Sudoku puzzles as fast as the CPU allows.
 * Everything a program needs is declared here; nothing else under src/ is public.
 *
 * Conventions
 *   - Cells are numbered 0..80 row-major: cell = 9*row + column (rows and columns 0..8).
 *   - Houses are numbered 0..26: rows 0..8, then columns 9..17, then boxes 18..26
 *     (box b covers rows 3*(b/3).., columns 3*(b%3)..).
 *   - A candidate mask is a uint16_t with bit d-1 set when digit d (1..9) is possible.
 *   - Functions returning int return SB_OK (0) on success or a negative sb_status;
 *     sb_strerror() names every status.
 *
 * Thread rules
 *   - All mutable state lives in caller-owned objects (sb_solver, sb_reader). Use one
 *     sb_solver per thread; objects may move between threads but not be shared concurrently.
 *   - The peer tables (sb_tables()) and registries are read-only and safe to share.
 *   - The library never prints, never exits and keeps no mutable globals.
 */
#ifndef SUDOKUBENCH_H
#define SUDOKUBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SB_VERSION "0.1.0"

enum {
    SB_DIGITS = 9,          /* digits 1..9, also cells per house */
    SB_CELLS = 81,          /* cells in a grid */
    SB_HOUSES = 27,         /* 9 rows + 9 columns + 9 boxes */
    SB_PEERS = 20,          /* cells sharing a house with a given cell */
    SB_ALL_DIGITS = 0x1FF,  /* candidate mask with all nine digits */
    SB_GRID_TEXT = 82       /* bytes for a grid as text: 81 chars + NUL */
};

/* Status codes; SB_OK is 0, errors are negative. */
typedef enum sb_status {
    SB_OK = 0,
    SB_ERR_NOMEM = -1,          /* an allocation failed */
    SB_ERR_ARG = -2,            /* an argument is out of its documented range */
    SB_ERR_SIMD = -3,           /* the requested SIMD level is unknown or this CPU lacks it */
    SB_ERR_IO = -4,             /* reading the input failed (errno holds the cause) */
    SB_ERR_PIPELINE = -5        /* no pipeline of that name or index */
} sb_status;

/* Returns a constant, human-readable name for a status code. */
const char *sb_strerror(int status);

/* ------------------------------------------------------------------------------------------ */
/* Grids and peer tables                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A puzzle or a solution: each cell 0 (blank) or a digit 1..9. */
typedef struct sb_grid {
    uint8_t cell[SB_CELLS]; /* row-major cell values, 0 = blank */
} sb_grid;

/* The read-only geometry of the 9x9 grid, built at compile time, shared by all threads. */
typedef struct sb_peer_tables {
    uint8_t house_cells[SB_HOUSES][SB_DIGITS]; /* the 9 cells of each house, ascending */
    uint8_t cell_houses[SB_CELLS][3];          /* row, column and box house of each cell */
    uint8_t peers[SB_CELLS][SB_PEERS];         /* the 20 peers of each cell, ascending */
    uint64_t house_mask[SB_HOUSES][2];         /* house cells as a 128-bit set (bit c%64 of word c/64) */
    uint64_t peer_mask[SB_CELLS][2];           /* peers as a 128-bit set, same layout */
} sb_peer_tables;

/* Returns the peer tables (never NULL). */
const sb_peer_tables *sb_tables(void);

/* Writes the grid as 81 characters plus NUL into out: digits, '.' for blanks. */
void sb_grid_format(const sb_grid *grid, char out[SB_GRID_TEXT]);

/* Fills cand with each cell's candidates implied by the givens alone (no propagation):
 * a given cell gets its own digit, a blank cell every digit not given among its peers.
 * This is the "hypothesis set" of seed 004. */
void sb_grid_candidates(const sb_grid *grid, uint16_t cand[SB_CELLS]);

/* Finds two givens with the same digit in one house.
 * @return 1 and sets *a < *b to the two cells (first conflict in cell order), or 0 if none. */
int sb_grid_conflict(const sb_grid *grid, int *a, int *b);

/* Checks a solution against a puzzle: every cell 1..9, every house a permutation of 1..9,
 * every given of the puzzle kept. @return 1 if it is a valid solution of puzzle, else 0. */
int sb_solution_check(const sb_grid *puzzle, const sb_grid *solution);

/* ------------------------------------------------------------------------------------------ */
/* Parsing                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* What one input line holds. */
typedef enum sb_line_kind {
    SB_LINE_PUZZLE = 0,   /* a well-formed puzzle */
    SB_LINE_SKIP = 1,     /* a comment ('#...'), a blank line or the Kaggle CSV header */
    SB_LINE_INVALID = 2   /* anything else: reported, never guessed at */
} sb_line_kind;

enum { SB_WHY_LEN = 64 /* room for the reason a line is invalid, NUL included */ };

/* Parses one line (without its '\n'; a trailing '\r' is accepted) into grid.
 * Accepted puzzle forms: 81 cells of '1'-'9' for givens and '.', '0', '-', '_' for blanks,
 * optionally followed by ",<81 digits>" (a Kaggle CSV row; the solution column is checked
 * for its form and otherwise ignored). Surrounding spaces and tabs are ignored.
 * @param why  receives the reason when the line is invalid (SB_WHY_LEN bytes; may be NULL)
 * @param col  set to the 1-based column of the first offending byte when invalid (may be NULL)
 * @return the kind of line. */
sb_line_kind sb_parse_line(const char *line, size_t len, sb_grid *grid, char *why,
                           size_t *col);

/* One record read from an input: a puzzle or an invalid line, with its line number. */
typedef struct sb_record {
    uint64_t line;             /* 1-based line number in its input */
    sb_line_kind kind;         /* SB_LINE_PUZZLE or SB_LINE_INVALID (skips are not returned) */
    sb_grid grid;              /* the puzzle, when kind is SB_LINE_PUZZLE */
    char why[SB_WHY_LEN];      /* why the line is invalid, else empty */
    size_t col;                /* 1-based column of the first offending byte, when invalid */
    char text[SB_GRID_TEXT];   /* the line's first 81 bytes, non-printables as '?', for echoing */
} sb_record;

/* A streaming line reader with constant memory, whatever the line lengths or input size. */
typedef struct sb_reader sb_reader;

/* Creates a reader over an open stream (not closed by the reader). A UTF-8 BOM at the start
 * is skipped. @return SB_OK, or SB_ERR_NOMEM / SB_ERR_ARG. */
int sb_reader_open(sb_reader **out, FILE *in);

/* Reads the next puzzle or invalid line, skipping comments, blank lines and a Kaggle header.
 * Lines longer than SB_MAX_LINE bytes are reported invalid ("line too long") and consumed
 * without being buffered. @return 1 with *rec filled, 0 at end of input, SB_ERR_IO on a
 * read error. */
int sb_reader_next(sb_reader *r, sb_record *rec);

/* Frees a reader (NULL is allowed). */
void sb_reader_close(sb_reader *r);

enum { SB_MAX_LINE = 1024 /* longest accepted line in bytes, '\n' excluded */ };

/* ------------------------------------------------------------------------------------------ */
/* SIMD dispatch                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Kernel levels. Each level is the same solver stamped for an instruction set; scalar is the
 * reference every other level is tested against. */
typedef enum sb_simd {
    SB_SIMD_AUTO = -1,    /* $SUDOKUBENCH_SIMD if set, else the best level this CPU supports */
    SB_SIMD_SCALAR = 0,   /* baseline x86-64 (or any CPU): always available */
    SB_SIMD_AVX2 = 1,     /* AVX2 + BMI1/2 + POPCNT */
    SB_SIMD_AVX512 = 2,   /* AVX-512 F/BW/VL/VPOPCNTDQ */
    SB_SIMD_LEVELS = 3    /* number of levels */
} sb_simd;

/* Returns the level's name ("scalar", "avx2", "avx512"), or "?" if out of range. */
const char *sb_simd_name(int level);

/* Parses a level name ("auto" gives SB_SIMD_AUTO). @return the level, or SB_ERR_SIMD. */
int sb_simd_parse(const char *name);

/* @return 1 if this CPU and OS support the level (CPUID + XGETBV), else 0. */
int sb_simd_supported(int level);

/* Resolves SB_SIMD_AUTO: $SUDOKUBENCH_SIMD when set, else the best supported level.
 * @return a supported level, or SB_ERR_SIMD when the environment names an unknown or
 * unsupported level (or level itself is unsupported). */
int sb_simd_resolve(int level);

/* ------------------------------------------------------------------------------------------ */
/* Pipelines                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* One row of the pipeline registry: a named order of techniques run at every search node. */
typedef struct sb_pipeline_info {
    const char *name;        /* the name given to -s / --pipelines */
    const char *description; /* one line for --help and reports */
} sb_pipeline_info;

/* Returns the registry and sets *count to its length. The CLI, tests and benchmarks all
 * iterate this table. */
const sb_pipeline_info *sb_pipelines(size_t *count);

/* @return the index of the pipeline with this name, or SB_ERR_PIPELINE. */
int sb_pipeline_find(const char *name);

/* ------------------------------------------------------------------------------------------ */
/* Solving                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* How a solver runs. Fill with sb_options_default() and then change fields. */
typedef struct sb_options {
    uint64_t limit; /* stop after this many solutions: 1 first, 2 uniqueness (default), 0 all */
    int pipeline;   /* index into sb_pipelines(); default 0 ("fast") */
    int simd;       /* an sb_simd level; default SB_SIMD_AUTO */
} sb_options;

/* Sets the defaults: limit 2, pipeline "fast", SIMD auto. */
void sb_options_default(sb_options *opt);

/* What one solve found. */
typedef struct sb_result {
    uint64_t count;      /* solutions found, at most limit (when limit > 0) */
    uint64_t guesses;    /* search states pushed (one per branch taken): the field's guess count */
    sb_grid solution;    /* the first solution found; all zero when count is 0 */
} sb_result;

/* The verdict on a puzzle for a given limit. */
typedef enum sb_verdict {
    SB_UNSOLVABLE = 0,   /* no solution (including conflicting givens) */
    SB_SOLVED = 1,       /* exactly one solution found (unique when limit is 0 or >= 2) */
    SB_MULTIPLE = 2      /* two or more solutions */
} sb_verdict;

/* @return the verdict for a result: 0 solutions, 1, or more. */
sb_verdict sb_result_verdict(const sb_result *res);

/* A solver context: search stack and scratch state for one thread. */
typedef struct sb_solver sb_solver;

/* Creates a solver. @return SB_OK; SB_ERR_PIPELINE for a bad pipeline index; SB_ERR_SIMD
 * when the requested (or environment-forced) level is unknown or unsupported here;
 * SB_ERR_NOMEM. */
int sb_solver_new(sb_solver **out, const sb_options *opt);

/* Frees a solver (NULL is allowed). */
void sb_solver_free(sb_solver *s);

/* Returns the SIMD level the solver runs (never SB_SIMD_AUTO). */
int sb_solver_simd(const sb_solver *s);

/* Solves (counts) one puzzle up to the solver's limit. Conflicting givens give count 0.
 * With limit 0 the count can exceed what is practical to enumerate: that is the caller's
 * choice. @return SB_OK, or SB_ERR_ARG for NULL arguments or cell values above 9. */
int sb_solve(sb_solver *s, const sb_grid *puzzle, sb_result *res);

#ifdef __cplusplus
}
#endif

#endif /* SUDOKUBENCH_H */
