/*
 * sudokubench.h — the public C API of libsudokubench, and its manual.
 *
 * libsudokubench solves Sudoku puzzles, counts their solutions (0, 1, 2+ or all up to a
 * limit), checks solutions, rates puzzles by the weakest set of techniques that solves them
 * without guessing, generates puzzles with one solution (minimal, symmetric, within a clue
 * count, a guess range or a rating class on request), augments datasets with transforms
 * that keep the solution count, and measures solving speed. It works on the 9x9 grid
 * (sb_grid; SIMD kernels chosen at run time) and on any geometry given as data
 * (sb_geometry): boxed grids of N = R*C digits up to 64 ("2x2" is 4x4, "4x4" 16x16, "5x5"
 * 25x25, "8x8" 64x64), latin squares, cubes, X-Sudoku (the two diagonals as houses), and
 * jigsaws and bare house lists read from files. Batch calls run arrays of puzzles on every
 * core (OpenMP); solver plug-ins (shared objects) run as engines beside the built-in ones.
 * Everything a program needs is declared here; nothing else under src/ is public.
 *
 * Two tiers. The stable tier comes first: versions, status codes, the 9x9 reader, rater and
 * generator, their batch calls, geometries with their text form (sb_geometry_9x9() is the
 * 9x9 grid), the one solver handle of every geometry (sb_engine), the reader and batch calls
 * of any geometry, and plug-in loading. The expert tier follows, declared only when SB_EXPERT
 * is defined before the header is included (`#define SB_EXPERT` then `#include
 * <sudokubench.h>`): the 9x9 sb_solver and the per-geometry sb_gsolver, sb_gpipeline and
 * sb_grater (kept for one release: each is a row of the engine), registries (techniques,
 * pipelines, engines), technique counters, search, pair and SIMD knobs, pipeline specs,
 * candidate-level calls and input forms, random numbers, transforms and augmenting, the
 * generator of any geometry, and benchmark sets. The library exports both tiers; the tree's own code (library, programs,
 * tests, Python binding) is built with SB_EXPERT.
 *
 * Conventions
 *   - Cells are numbered 0..80 row-major: cell = 9*row + column (rows and columns 0..8).
 *   - Houses are numbered 0..26: rows 0..8, then columns 9..17, then boxes 18..26
 *     (box b covers rows 3*(b/3).., columns 3*(b%3)..).
 *   - A candidate mask is a uint16_t with bit d-1 set when digit d (1..9) is possible.
 *   - A geometry numbers its own cells and houses ("Geometries"); its grids are uint8_t
 *     arrays, 0 blank and 1..N a digit.
 *
 * Errors
 *   - Functions returning int return SB_OK (0) on success or a negative sb_status;
 *     sb_strerror() names every status. A NULL the call needs or a value out of its
 *     documented range is refused, never a crash: SB_ERR_ARG where a status is returned;
 *     otherwise the call says what it returns then (NULL, 0, "?"), or does nothing.
 *   - Some return a value instead of SB_OK, so that only a negative return is an error:
 *     counts, levels, kinds, indices and lengths (sb_geometry_cells, sb_simd_parse,
 *     sb_pipeline_find, sb_gformat, ...); 1 for a record, 0 at the end of input
 *     (sb_reader_next; sb_reader_read_cells also 2 at an invalid record);
 *     1 made, 0 missed (sb_generate, sb_generate_class; sb_ggenerate: SB_GGEN_MISSED).
 *   - Predicates return 1 or 0 and never fail (sb_grid_conflict, sb_solution_check,
 *     sb_gsolution_check, sb_simd_supported, sb_line_is_grid, sb_plugin_one_thread,
 *     sb_plugin_accepts). sb_parse_line returns an sb_line_kind, the verdict calls an
 *     sb_verdict. Two negative returns are no status: sb_simd_parse's SB_SIMD_AUTO (-1) for
 *     "auto", and sb_technique_step's SB_STEP_CONTRADICTION (-1).
 *
 * Output arguments
 *   - Results go to caller-owned memory passed by pointer; the caller frees only the
 *     objects the library makes. An object comes back through `out` (the first argument of
 *     sb_generator_new, sb_reader_open; after the inputs elsewhere, as in
 *     sb_engine_new), to be used only after SB_OK.
 *   - A refusal's reason goes to an optional `why` buffer (may be NULL) followed by its size
 *     (sb_parse_line's holds SB_WHY_LEN bytes), the offending column to an optional *col.
 *   - Arrays of puzzles are row-major, puzzle i in bytes [i*C, (i+1)*C), C = SB_CELLS or
 *     sb_geometry_cells(g). An output documented with "may be NULL" is optional.
 *
 * Objects and thread rules
 *   - An object is made by its _new or _open call (a geometry by sb_geometry_parse and its
 *     siblings) and freed by its _free or _close (NULL allowed). Solvers, readers,
 *     generators, raters, engines and benchmark sets are each one thread's mutable state:
 *     one per thread; one may move between threads, never be used by two at once.
 *   - A geometry (sb_geometry) and a plug-in (sb_plugin) are immutable once made and shared
 *     by any number of threads and objects; each must outlive the objects made on it.
 *   - Calls without an object (sb_rate, sb_parse_line, the batch calls, ...) keep no state
 *     outside their arguments. The peer tables (sb_tables()) and registries are read-only
 *     and safe to share.
 *   - The library never prints, never exits and keeps no mutable globals but one
 *     thread-local (the plug-in running on the thread, sb_plugin_running).
 *
 * Quick start: examples/solve_one.c, built and run against the installed library by `make
 * test-install` (cc solve_one.c $(pkg-config --cflags --libs sudokubench) -o solve_one):
 *
 *     #include <stdio.h>
 *     #include <string.h>
 *
 *     #include <sudokubench.h>
 *
 *     int main(int argc, char **argv)
 *     {
 *         const char *text = argc > 1 ? argv[1]
 *                                     : "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
 *         sb_grid puzzle, solution;
 *         char why[SB_WHY_LEN];
 *         size_t col;
 *         if (sb_parse_line(text, strlen(text), &puzzle, why, &col) != SB_LINE_PUZZLE) {
 *             fprintf(stderr, "solve_one: column %zu: %s\n", col, why);
 *             return 2;
 *         }
 *         sb_options opt;
 *         sb_options_default(&opt);
 *         sb_engine *engine;
 *         sb_gresult res;
 *         int st = sb_engine_new(sb_geometry_9x9(), &opt, &engine);
 *         if (st == SB_OK) {
 *             st = sb_engine_solve(engine, puzzle.cell, 2, &res, solution.cell);
 *             sb_engine_free(engine);
 *         }
 *         if (st != SB_OK) {
 *             fprintf(stderr, "solve_one: %s\n", sb_strerror(st));
 *             return 2;
 *         }
 *         if (res.count == 0) {
 *             puts("unsolvable");
 *             return 1;
 *         }
 *         char out[SB_GRID_TEXT];
 *         sb_grid_format(&solution, out);
 *         printf("%s %s (%llu guesses)\n", out, res.count == 1 ? "unique" : "multiple",
 *                (unsigned long long)res.guesses);
 *         return sb_solution_check(&puzzle, &solution) ? 0 : 1;
 *     }
 */
#ifndef SUDOKUBENCH_H
#define SUDOKUBENCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Version and status                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* The version, as numbers and as text (they always agree: tests/test_tables.c). The
 * library's sb_version() tells which version a program runs against, the macros which one it
 * was compiled with. */
#define SB_VERSION_MAJOR 1
#define SB_VERSION_MINOR 0
#define SB_VERSION_PATCH 0
#define SB_VERSION_NUMBER (SB_VERSION_MAJOR * 10000 + SB_VERSION_MINOR * 100 + SB_VERSION_PATCH)
#define SB_VERSION "1.0.0"

/* @return the library's SB_VERSION_NUMBER (MAJOR * 10000 + MINOR * 100 + PATCH). */
unsigned sb_version(void);

/* @return the library's SB_VERSION text, e.g. "1.0.0". */
const char *sb_version_string(void);

/* Status codes; SB_OK is 0, errors are negative. */
typedef enum sb_status {
    SB_OK = 0,
    SB_ERR_NOMEM = -1,          /* an allocation failed */
    SB_ERR_ARG = -2,            /* an argument is out of its documented range */
    SB_ERR_SIMD = -3,           /* the requested SIMD level is unknown or this CPU lacks it */
    SB_ERR_IO = -4,             /* reading the input failed (errno holds the cause) */
    SB_ERR_PIPELINE = -5,       /* no pipeline of that name or index, or a bad custom spec */
    SB_ERR_FRONTIER = -6,       /* breadth-first search: the frontier outgrew its cap */
    SB_ERR_BUDGET = -7,         /* sb_solve: the guess budget (max_guesses) ran out */
    SB_ERR_STOPPED = -8,        /* the caller's stop flag was raised (sb_options.stop,
                                   sb_reader_set_stop): the work was abandoned */
    SB_ERR_THREADS = -9,        /* a batch's threads could not be started (errno holds the
                                   cause, e.g. EAGAIN: memory or a thread limit ran out);
                                   nothing was done (sb_threads_check) */
    SB_ERR_PLUGIN = -10         /* a plug-in solver failed a call (its SB_PLUGIN_FAILED, a
                                   negative code it may not return, a count above the limit,
                                   or more guesses than the budget it was given), or cannot
                                   make a state for the geometry asked for */
} sb_status;

/* Returns a constant, human-readable name for a status code ("unknown status" for any other
 * value). */
const char *sb_strerror(int status);

/* ------------------------------------------------------------------------------------------ */
/* The 9x9 grid                                                                               */
/* ------------------------------------------------------------------------------------------ */

enum {
    SB_DIGITS = 9,          /* digits 1..9, also cells per house */
    SB_CELLS = 81,          /* cells in a grid */
    SB_HOUSES = 27,         /* 9 rows + 9 columns + 9 boxes */
    SB_PEERS = 20,          /* cells sharing a house with a given cell */
    SB_ALL_DIGITS = 0x1FF,  /* candidate mask with all nine digits */
    SB_GRID_TEXT = 82       /* bytes for a grid as text: 81 chars + NUL */
};

/* A puzzle or a solution: each cell 0 (blank) or a digit 1..9. */
typedef struct sb_grid {
    uint8_t cell[SB_CELLS]; /* row-major cell values, 0 = blank */
} sb_grid;

/* Writes the grid as 81 characters plus NUL into out: digits, '.' for blanks, '?' for a cell
 * above 9. NULL grid or out: nothing is written. */
void sb_grid_format(const sb_grid *grid, char out[SB_GRID_TEXT]);

/* Finds two givens with the same digit in one house.
 * @return 1 and sets *a < *b to the two cells (first conflict in cell order; a and b may be
 * NULL), or 0 if none or grid is NULL. */
int sb_grid_conflict(const sb_grid *grid, int *a, int *b);

/* Checks a solution against a puzzle: every cell 1..9, every house a permutation of 1..9,
 * every given of the puzzle kept. @return 1 if it is a valid solution of puzzle, else 0 (also
 * for a NULL argument). */
int sb_solution_check(const sb_grid *puzzle, const sb_grid *solution);

/* ------------------------------------------------------------------------------------------ */
/* Reading puzzles (9x9 lines, and the reader of every geometry)                             */
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
 * @return the kind of line; SB_LINE_INVALID with why "no line or no grid" and col 0 for NULL
 * line or grid. */
sb_line_kind sb_parse_line(const char *line, size_t len, sb_grid *grid, char *why,
                           size_t *col);

enum { SB_MAX_LINE = 1024 /* longest 9x9 line in bytes, '\n' excluded */ };

/* One record of a reader: a puzzle or an invalid line of any geometry, with its line number.
 * Its cells (and a pencilmark line's candidates) go into the caller's arrays given to
 * sb_reader_next. */
typedef struct sb_record {
    uint64_t line;           /* 1-based line number in its input */
    sb_line_kind kind;       /* SB_LINE_PUZZLE or SB_LINE_INVALID (skips are not returned) */
    int form;                /* the sb_gform the line is written in (9x9: SB_GFORM_CHARS) */
    int marks;               /* 1: a pencilmark line (9x9) whose candidates went into cand;
                                its cells hold its givens (cells with one candidate) */
    size_t col;              /* 1-based column of the first offending byte, when invalid */
    char why[SB_WHY_LEN];    /* why the line is invalid, else empty */
    char text[SB_GRID_TEXT]; /* the line's first 81 bytes, non-printables and ':' as '?', for
                                echoing (another geometry's line too long: "?") */
} sb_record;

struct sb_geometry; /* a geometry (sb_geometry, "Geometries" below) */

/* A streaming reader of puzzle lines of one geometry, with constant memory whatever the line
 * lengths or input size. Thread rules: one thread's state; it may move between threads, never
 * be used by two at once. */
typedef struct sb_reader sb_reader;

/* Creates a reader of geometry g (sb_geometry_9x9(), or any other; it must outlive the
 * reader) over an open stream (not closed by the reader). A UTF-8 BOM at the start is
 * skipped. @return SB_OK, SB_ERR_NOMEM, or SB_ERR_ARG for NULL out, g or in. */
int sb_reader_open(sb_reader **out, const struct sb_geometry *g, FILE *in);

/* Reads the next puzzle or invalid line into rec and its cells into cells
 * (sb_geometry_cells(g) bytes, 81 for 9x9; unspecified for an invalid line), skipping
 * comments ('#' first after blanks) and blank lines.
 *
 * On the 9x9 grid (sb_geometry_9x9()) a line is read as sb_parse_line reads it (every 9x9
 * form: 81 cells, a Kaggle row, whose CSV header is skipped too, a tdoku record, pencilmarks),
 * nine-line grids are gathered (the forms listed before sb_line_is_grid), and clashing givens
 * are a puzzle (count 0). Lines longer than SB_MAX_LINE bytes are reported invalid ("line too
 * long", column SB_MAX_LINE+1) and consumed without being buffered, except comment lines (a
 * '#' first after spaces or tabs, within the first SB_MAX_LINE bytes), which are skipped
 * whatever their length. cand is NULL or 81 masks (bit d-1 = digit d): a pencilmark line's candidates go
 * there and set rec->marks, and such a record must be solved from cand
 * (sb_engine_solve_candidates), as its cells alone may be a different puzzle. With cand NULL
 * a pencilmark line whose marks eliminate more than its givens imply is invalid
 * ("pencilmarks: elimination beyond the givens (rRcC)"), so a caller that reads only the
 * cells is never misled.
 *
 * On any other geometry a line is parsed as sb_gparse does (a line with more cells than g:
 * "too many cells (more than 16)" at the first cell too many; a '#' after the cells:
 * "unexpected '#': a comment takes its own line" at the '#'); a tdoku record
 * PUZZLE:COUNT[:SOLUTION] is its puzzle, its tail checked as on 9x9; on the 9x9 shape (3x3)
 * the 9x9 one-line forms (a Kaggle row, pencilmarks without eliminations beyond their givens)
 * are read too, and a nine-line grid is one invalid record at its first line. A line is also
 * invalid when it uses the character form on a geometry of more than 35 digits (that form
 * cannot write such a grid back: "one character per cell needs N <= 35, not 36: write
 * integers", at its first cell) or when two givens clash in a house: "3 twice in row 1 (r1c1,
 * r1c5)" (cells r<row>c<col>, a cube's x<x>y<y>z<z>, a house list's "cell K"; houses row,
 * column, box, region, main diagonal, anti-diagonal, plane x=K, house K), at the second
 * cell's column. A line longer than SB_GEO_MAX_LINE bytes is invalid ("line too long", column
 * SB_GEO_MAX_LINE+1), reported as soon as that much of it is in, and the rest of it discarded
 * without being kept; a comment line ('#' first after blanks, within its first
 * SB_GEO_MAX_LINE bytes) is skipped whatever its length, its bytes discarded as they come.
 * cand is not written (rec->marks is 0).
 *
 * @return 1 with *rec filled; 0 at the end of input; SB_ERR_IO on a read error (errno set;
 * EINTR or EAGAIN: nothing consumed, call again); SB_ERR_STOPPED when the stop flag was
 * raised while a long line was discarded (sb_reader_set_stop; a later call goes on);
 * SB_ERR_ARG for NULL r, rec or cells. */
int sb_reader_next(sb_reader *r, sb_record *rec, uint8_t *cells, uint64_t *cand);

/* Frees a reader (NULL is allowed). */
void sb_reader_close(sb_reader *r);

/* Makes the reader poll *stop (a flag a signal handler or another thread sets; NULL: none)
 * while it discards an over-long line, once per read of up to 64 KiB, so a line without end
 * (/dev/zero) cannot hold the caller: sb_reader_next then returns SB_ERR_STOPPED and a
 * later call resumes the skip. NULL r: nothing. */
void sb_reader_set_stop(sb_reader *r, const volatile sig_atomic_t *stop);

/* Reads up to max puzzles from r into cells (max rows of sb_geometry_cells(g) bytes, one
 * row per puzzle) and sets *n to how many it stored, so a binding fills an array in one call
 * per chunk. Pencilmark lines are read as with cand NULL. Stops at an invalid record, copied
 * into *bad (may be NULL). @return 1 when max puzzles were stored (more may follow), 0 at the
 * end of input, 2 at an invalid record (the puzzles before it are stored; the next call goes
 * on after it), or an error of sb_reader_next; SB_ERR_ARG for NULL r or n, NULL cells with
 * max > 0, or max rows whose bytes would pass SIZE_MAX. */
int sb_reader_read_cells(sb_reader *r, uint8_t *cells, size_t max, size_t *n, sb_record *bad);

/* ------------------------------------------------------------------------------------------ */
/* Solving: options and verdicts (the solver of every geometry is sb_engine, below)           */
/* ------------------------------------------------------------------------------------------ */

/* How an engine solves. Fill with sb_options_default() and then change fields. */
typedef struct sb_options {
    uint64_t limit;   /* stop after this many solutions: 1 first, 2 uniqueness (default), 0 all
                         (the batch calls; sb_engine_solve takes its limit per call) */
    int pipeline;     /* index into sb_pipelines(), or SB_PIPELINE_CUSTOM; default 0 ("fast") */
    const char *spec; /* the custom spec when pipeline is SB_PIPELINE_CUSTOM (copied by
                         sb_engine_new), else ignored */
    int simd;         /* an sb_simd level; default SB_SIMD_AUTO */
    int search;       /* an sb_search mode; default SB_SEARCH_DFS */
    size_t bfs_cap;   /* most boards the BFS frontier may hold; default SB_BFS_CAP */
    uint64_t max_guesses; /* guess budget per puzzle: a search that needs more stops with
                             SB_ERR_BUDGET (deterministic); default UINT64_MAX, no budget */
    const volatile sig_atomic_t *stop; /* polled every few thousand guesses while a search
                             runs; when it reads non-zero the solve returns SB_ERR_STOPPED.
                             NULL (default): never. Lets Ctrl-C end a long search */
    int pair;         /* an sb_pair policy for the 9x9 arrays; default SB_PAIR_AUTO */
    const struct sb_plugin *plugin; /* a loaded solver plug-in (sb_plugin_open): sb_engine_new
                             then runs it instead of the pipeline. NULL (default): none */
    const struct sb_plugin *const *techniques; /* loaded technique plug-ins (at most
                             SB_TECH_PLUGINS): their names are technique tokens of the spec,
                             and every solver and engine runs their steps. NULL: none */
    size_t ntechniques; /* how many (default 0) */
    uint64_t parsed[20]; /* private: the spec as sb_options_pipeline parsed it, so that every
                            engine made from these options (one per thread) reuses that parse;
                            set by sb_options_pipeline and sb_options_default, read by nothing
                            once pipeline, spec or techniques change */
} sb_options;

/* Sets the defaults: limit 2, pipeline "fast", SIMD auto, DFS, BFS cap SB_BFS_CAP, no guess
 * budget, no stop flag. NULL opt: nothing. */
void sb_options_default(sb_options *opt);

/* Sets opt->pipeline (and opt->spec) from a registry name or a custom spec, parsed here once
 * with opt's technique plug-ins (set those first) for every engine made from opt; spec must
 * outlive the sb_engine_new calls. @return SB_OK or SB_ERR_PIPELINE; SB_ERR_ARG for NULL opt
 * or name_or_spec. */
int sb_options_pipeline(sb_options *opt, const char *name_or_spec);

/* The verdict on a puzzle for a given limit. */
typedef enum sb_verdict {
    SB_UNSOLVABLE = 0,   /* no solution (including conflicting givens) */
    SB_SOLVED = 1,       /* exactly one solution found (unique when limit is 0 or >= 2) */
    SB_MULTIPLE = 2      /* two or more solutions */
} sb_verdict;

/* @return the verdict for a solution count (sb_gresult.count, and the batch calls' counts):
 * 0 solutions, 1, or more. */
sb_verdict sb_count_verdict(uint64_t count);

/* ------------------------------------------------------------------------------------------ */
/* Rating                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Techniques: registered elimination steps over the candidate board. Each looks at one house
 * at a time (ns .. ht4) or at the whole board at once (xw .. xc) and schedules eliminations;
 * a step reports changed / unchanged / contradiction and counts applications, placements and
 * eliminations. Spec tokens in brackets. */
typedef enum sb_technique {
    SB_TECH_NAKED_SINGLE = 0,  /* [ns] a cell's only digit leaves its house's other cells */
    SB_TECH_HIDDEN_SINGLE,     /* [hs] a digit with one place in a house fills that cell */
    SB_TECH_LOCKED,            /* [lc] pointing (box->line) and claiming (line->box) */
    SB_TECH_NAKED_PAIR,        /* [nt2] two cells holding the same two digits */
    SB_TECH_NAKED_TRIPLE,      /* [nt3] three cells whose digits are three */
    SB_TECH_NAKED_QUAD,        /* [nt4] four cells whose digits are four */
    SB_TECH_HIDDEN_PAIR,       /* [ht2] two digits confined to the same two cells */
    SB_TECH_HIDDEN_TRIPLE,     /* [ht3] three digits confined to three cells */
    SB_TECH_HIDDEN_QUAD,       /* [ht4] four digits confined to four cells */
    SB_TECH_XWING,             /* [xw] X-wing: a digit's places in 2 rows lie in 2 columns */
    SB_TECH_SWORDFISH,         /* [sf] swordfish: the same with 3 lines */
    SB_TECH_JELLYFISH,         /* [jf] jellyfish: the same with 4 lines */
    SB_TECH_XY_WING,           /* [xy] pivot {x,y} seeing pincers {x,z}, {y,z} */
    SB_TECH_XYZ_WING,          /* [xyz] pivot {x,y,z} seeing pincers {x,z}, {y,z} */
    SB_TECH_W_WING,            /* [ww] two {x,y} cells joined by a strong link on x */
    SB_TECH_SKYSCRAPER,        /* [sky] two parallel strong links, one end of each aligned */
    SB_TECH_KITE,              /* [kite] a row and a column strong link joined in a box */
    SB_TECH_COLOURING,         /* [col] simple colouring: colour trap and colour wrap */
    SB_TECH_XCHAIN,            /* [xc] X-chain: alternating strong/weak links on one digit */
    SB_TECH_COUNT              /* number of techniques */
} sb_technique;

/* What a technique did, summed over solves. */
typedef struct sb_technique_counts {
    uint64_t applications; /* house steps (whole-board techniques: patterns) that eliminated
                              something */
    uint64_t placements;   /* cells it left with a single candidate */
    uint64_t eliminations; /* candidates it removed */
    uint64_t calls;        /* times it ran, whether or not it found anything: one sweep over
                              every house, one look at the whole board (xw .. xc; in fast+T,
                              one run at a stall). One call may apply several times, but
                              applications > 0 implies calls > 0. The last member, so
                              positional initialisers keep their meaning */
} sb_technique_counts;

/* Difficulty classes: the weakest technique set that solves a puzzle without guessing. */
typedef enum sb_class {
    SB_CLASS_SINGLES = 0,  /* naked singles alone */
    SB_CLASS_HIDDEN,       /* + hidden singles */
    SB_CLASS_LOCKED,       /* + locked candidates */
    SB_CLASS_TUPLES,       /* + naked and hidden tuples (pairs, triples, quads) */
    SB_CLASS_FISH,         /* + X-wing, swordfish, jellyfish */
    SB_CLASS_WINGS,        /* + XY-wing, XYZ-wing, W-wing */
    SB_CLASS_CHAINS,       /* + skyscraper, 2-string kite, simple colouring, X-chains */
    SB_CLASS_SEARCH,       /* needs search (or has no solution the techniques can reach) */
    SB_CLASS_COUNT         /* number of classes */
} sb_class;

/* Returns the class's name ("singles", "hidden", "locked", "tuples", "fish", "wings",
 * "chains", "search"), or "?". */
const char *sb_class_name(int cls);

/* A rating: the class and what each technique did at that class's technique set. */
typedef struct sb_rating {
    sb_class cls;                                 /* weakest class that solves it */
    sb_technique_counts counts[SB_TECH_COUNT];    /* work at that class (restart order) */
} sb_rating;

/* Rates a puzzle: runs each class's technique set (restart order, cheapest first) from the
 * givens without guessing and reports the first that completes the grid. Meant for proper
 * puzzles; a contradiction or multiple solutions end as SB_CLASS_SEARCH. Needs no solver and
 * keeps no state. @return SB_OK, or SB_ERR_ARG for NULL arguments or a cell above 9. */
int sb_rate(const sb_grid *puzzle, sb_rating *out);

/* ------------------------------------------------------------------------------------------ */
/* Generating 9x9 puzzles                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Clue-pattern symmetries of generated puzzles: a clue's images are clues too. */
typedef enum sb_symmetry {
    SB_SYM_NONE = 0,     /* any pattern */
    SB_SYM_ROT180 = 1,   /* half turn: (r,c) ~ (8-r,8-c) */
    SB_SYM_ROT90 = 2,    /* quarter turns: (r,c) ~ (c,8-r) ~ (8-r,8-c) ~ (8-c,r) */
    SB_SYM_MIRROR = 3,   /* left-right mirror: (r,c) ~ (r,8-c) */
    SB_SYM_DIAGONAL = 4, /* main-diagonal reflection: (r,c) ~ (c,r) */
    SB_SYM_COUNT = 5     /* number of symmetries */
} sb_symmetry;

/* Returns the symmetry's name ("none", "rot180", "rot90", "mirror", "diagonal"), or "?". */
const char *sb_symmetry_name(int sym);

/* Parses a symmetry name. @return the sb_symmetry, or SB_ERR_ARG when unknown or NULL. */
int sb_symmetry_parse(const char *name);

enum {
    SB_MIN_CLUES = 17 /* no proper 9x9 puzzle has fewer givens (McGuire, Tugemann, Civario 2012) */
};

/* What the generator makes. Fill with sb_gen_options_default() and then change fields.
 *
 * Method, per puzzle index i: a random full grid (a randomized backtracking fill of the
 * generator's own, so a seed's grids do not change with the solver's search order); then clues
 * are removed in a random order of symmetry orbits, in two phases. Phase 1 removes, with no
 * solver call, every orbit whose cells singles on the remaining clues bring back (the solutions
 * are then unchanged, so uniqueness holds by construction). Phase 2 tries each remaining orbit
 * with one uniqueness check: for one cell, a search for a solution with another digit there
 * (any second solution has one); for a larger orbit, sb_solve to 2. An orbit whose removal
 * fails is necessary and stays for good (removing clues only adds solutions). Default
 * digging stops at the first necessary orbit once max_clues and min_guesses are met;
 * `minimal` goes through every orbit. A candidate that misses max_clues or the guess range
 * is dropped and a new one made, up to max_attempts. Everything is a function of (seed, i,
 * options): thread count, call order and SIMD level do not change the output. */
typedef struct sb_gen_options {
    uint64_t seed;         /* puzzle i is a function of (seed, i) and the options below only */
    int minimal;           /* 1: dig until no clue can go (no orbit, under a symmetry);
                            * 0 (default): stop at the first necessary orbit, about 6x
                            * faster, leaving some removable clues (about 31 clues, not 24) */
    int max_clues;         /* at most this many clues, SB_MIN_CLUES..81 (default 81: any) */
    int symmetry;          /* an sb_symmetry (default SB_SYM_NONE) */
    uint64_t min_guesses;  /* keep puzzles with at least this many guesses (default 0) ... */
    uint64_t max_guesses;  /* ... and at most this many (default UINT64_MAX); guesses as
                            * sb_solve counts them with limit 2 on pipeline 0 */
    uint64_t max_attempts; /* candidates per index before sb_generate gives up (default 100000) */
    int simd;              /* kernel level of the checks (default SB_SIMD_AUTO); every level
                            * gives the same puzzles */
} sb_gen_options;

/* Sets the defaults (see the field comments). NULL opt: nothing. */
void sb_gen_options_default(sb_gen_options *opt);

/* One generated puzzle. */
typedef struct sb_generated {
    sb_grid puzzle;    /* exactly one solution */
    sb_grid solution;  /* that solution */
    int clues;         /* givens in puzzle */
    uint64_t guesses;  /* sb_solve guesses on puzzle with limit 2, pipeline 0 */
    uint64_t attempts; /* candidates made for this index (1 when the first one fitted) */
} sb_generated;

/* A generator context: a solver context and the symmetry orbits. One per thread; it may move
 * between threads, never be used by two at once. */
typedef struct sb_generator sb_generator;

/* Creates a generator. @return SB_OK; SB_ERR_ARG for NULL out or opt, or when max_clues is
 * outside SB_MIN_CLUES..81 (fewer than 17 clues never give one solution), min_guesses >
 * max_guesses, max_attempts is 0 or the symmetry is unknown; SB_ERR_SIMD or SB_ERR_NOMEM as
 * sb_engine_new. */
int sb_generator_new(sb_generator **out, const sb_gen_options *opt);

/* Frees a generator (NULL is allowed). */
void sb_generator_free(sb_generator *g);

/* Makes puzzle number index of the generator's seed. @return 1 with *out filled; 0 when
 * max_attempts candidates all missed max_clues or the guess range (*out then holds the last
 * candidate, a proper puzzle, with attempts = max_attempts); SB_ERR_ARG for NULL arguments. */
int sb_generate(sb_generator *g, uint64_t index, sb_generated *out);

/* Makes puzzle number index that sb_rate puts in class cls (an sb_class; -1: any, which is
 * sb_generate): candidate 0 is sb_generate's puzzle for index, candidate k > 0 its puzzle for
 * a splitmix64 mix of (index, k), at most tries candidates; one that misses max_clues or the
 * guess range ends the search. out->attempts sums the attempts of every candidate.
 * @return 1 with *out filled; 0 when no candidate fitted; SB_ERR_ARG for NULL arguments or cls
 * outside -1..SB_CLASS_COUNT-1. */
int sb_generate_class(sb_generator *g, uint64_t index, int cls, uint64_t tries,
                      sb_generated *out);

/* ------------------------------------------------------------------------------------------ */
/* Batches: whole arrays of 9x9 puzzles on every core (OpenMP), for bindings and tools        */
/* ------------------------------------------------------------------------------------------ */

/* Arrays hold puzzle i in bytes [i*SB_CELLS, (i+1)*SB_CELLS), one byte per cell as in sb_grid
 * (0 blank, 1..9); a count of rows (n, n_in, max) above SIZE_MAX / SB_CELLS, whose array could
 * not exist, is refused with SB_ERR_ARG. Each call runs an OpenMP team of `threads` threads (0:
 * the OpenMP default, every core; never more than the items), one solver or generator per
 * thread, and writes row i of each output from item i alone: the results are the same for any
 * thread count. The calls are reentrant (no state outside the arguments).
 *
 * Before its team starts, each call checks with sb_threads_check that the team's threads can
 * start: when they cannot (memory, RLIMIT_NPROC or a cgroup's pids limit ran out), it returns
 * SB_ERR_THREADS with errno set and nothing done, where the OpenMP runtime itself would end the
 * whole process. */

/* Solves n puzzles with the options *opt (limit, pipeline, SIMD level, budget, stop flag).
 * Outputs may each be NULL: counts[i] and guesses[i] as sb_gresult; solutions + i*SB_CELLS
 * the first solution found (all zero when none); status[i] what the solve of puzzle i returned
 * (SB_OK, SB_ERR_BUDGET, SB_ERR_ARG for a cell above 9, SB_ERR_STOPPED for puzzles not run
 * once opt->stop was raised, ...). @return SB_OK; SB_ERR_ARG for NULL opt or cells; what
 * sb_engine_new returns for bad options (nothing solved); SB_ERR_THREADS (errno set; nothing
 * solved); SB_ERR_STOPPED when the stop flag ended the batch; SB_ERR_NOMEM when a thread
 * could not make its solver. */
int sb_solve_batch(const sb_options *opt, const uint8_t *cells, size_t n, int threads,
                   uint64_t *counts, uint64_t *guesses, uint8_t *solutions, int8_t *status);

/* Rates n puzzles (sb_rate): classes[i] = the sb_class, or -1 when sb_rate refused puzzle i
 * (a cell above 9). @return SB_OK; SB_ERR_ARG when some puzzle was refused; SB_ERR_THREADS
 * (errno set; nothing rated). As sb_rate_batch_stop with no stop flag. */
int sb_rate_batch(const uint8_t *cells, size_t n, int threads, int8_t *classes);

/* Makes puzzles first .. first+n-1 of the generator options *opt (sb_generate: the same puzzle
 * for an index whatever the thread count) into puzzles (n*SB_CELLS bytes), and when not NULL
 * their solutions and guess counts. first + n - 1 must not pass UINT64_MAX. @return SB_OK;
 * SB_ERR_ARG when the indices would pass UINT64_MAX; what sb_generator_new returns for bad
 * options; SB_ERR_THREADS (errno set; nothing made); SB_ERR_BUDGET when some index ran out of
 * max_attempts (its row holds the last candidate, a proper puzzle, as sb_generate). As
 * sb_generate_batch_stop with no stop flag. */
int sb_generate_batch(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                      uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses);

/* sb_rate_batch and sb_generate_batch with a stop flag, as sb_options.stop is to
 * sb_solve_batch (sb_augment_batch_stop is the third such call): *stop (a flag a signal
 * handler or another thread raises; NULL: never) is read before each puzzle (rate, generate:
 * one sb_generate, which itself is not interrupted) or each run of a few hundred rows
 * (augment). Once it is raised the rows not yet begun are left untouched and the call returns
 * SB_ERR_STOPPED, which wins over row errors (SB_ERR_ARG, SB_ERR_BUDGET: the rows are
 * incomplete anyway) but not over SB_ERR_NOMEM; the rows written are what the call without a
 * flag writes. */
int sb_rate_batch_stop(const uint8_t *cells, size_t n, int threads, int8_t *classes,
                       const volatile sig_atomic_t *stop);
int sb_generate_batch_stop(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                           uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                           const volatile sig_atomic_t *stop);

/* ------------------------------------------------------------------------------------------ */
/* Geometries: any grid as data, its text form (docs/geometry.md)                             */
/* ------------------------------------------------------------------------------------------ */

/* A geometry is a number of cells, a number of digits N (1..SB_GEO_MAX_DIGITS) and a list of
 * houses: each house holds exactly N distinct cells, and a solution puts every digit 1..N once
 * in every house. Each cell's houses and peers (cells sharing a house with it) are derived
 * from the houses when the geometry is made. The 9x9 calls (sb_grid, sb_solve) have their
 * own types; every call on a geometry takes cells as a uint8_t array of sb_geometry_cells()
 * values, 0 = blank, 1..N = digit, in the geometry's cell order.
 *
 * Built-in specs (sb_geometry_parse):
 *   "RxC"      boxed Sudoku: N = R*C digits on an N x N grid, cell = N*row + column; houses
 *              are the N rows, then the N columns, then the N boxes of R rows by C columns
 *              (box b covers rows R*(b/R).., columns C*(b%R)..); 1 <= R, C and N <= 64
 *   "latin:N"  latin square: N x N cells, houses the rows then the columns
 *   "cube:K"   K*K*K cells, K*K digits, cell = K*K*x + K*y + z (plane-major, as APL ravels
 *              a K K K array); houses the 3K axis planes: x = 0..K-1, then y, then z
 *              (cube:3 is seed 002's s333); K <= 8
 *   "x:RxC"    RxC plus the two main diagonals as houses (the last two)
 * Any other geometry comes from a file (sb_geometry_read / sb_geometry_load).
 *
 * Thread rules: a geometry is immutable once made and may be shared by any number of
 * threads; the objects made on one (sb_reader, and in the expert tier sb_engine,
 * sb_gsolver, sb_gpipeline, sb_grater, sb_ggenerator, sb_bench) are each one thread's mutable
 * state. */

enum {
    SB_GEO_MAX_DIGITS = 64,    /* N fits one uint64_t candidate mask */
    SB_GEO_MAX_CELLS = 4096,   /* 64x64, the largest built-in grid */
    SB_GEO_WHY_LEN = 128,      /* room for a geometry or grid error message, NUL included */
    SB_GEO_NAME_LEN = 64       /* room for a geometry's name, NUL included */
};

/* What shape a geometry has; the layout fields of sb_geometry_layout depend on it. */
typedef enum sb_geometry_kind {
    SB_GEO_BOXED = 0,  /* "RxC" */
    SB_GEO_LATIN = 1,  /* "latin:N" */
    SB_GEO_CUBE = 2,   /* "cube:K" */
    SB_GEO_X = 3,      /* "x:RxC" */
    SB_GEO_JIGSAW = 4, /* file: an N x N grid of regions (plus rows and columns) */
    SB_GEO_HOUSES = 5  /* file: a bare list of houses (no 2-D layout) */
} sb_geometry_kind;

/* An immutable geometry (opaque; read it through the accessors below). */
typedef struct sb_geometry sb_geometry;

/* @return the 9x9 grid, the geometry every call that takes one reads as the 9x9 API does (the
 * 9x9 reader's forms, the fused kernels, sb_rate, the 9x9 generator): a constant, shared by
 * every thread, never to be freed (sb_geometry_free ignores it). Its accessors give what
 * those of sb_geometry_parse("3x3") give. */
const sb_geometry *sb_geometry_9x9(void);

/* Makes a geometry from a built-in spec ("3x3", "4x4", "latin:5", "cube:3", "x:3x3", ...).
 * @param why  receives the reason on failure (whylen bytes, e.g. SB_GEO_WHY_LEN; may be NULL)
 * @return SB_OK with *out set (free with sb_geometry_free), SB_ERR_ARG for a bad spec (the
 * reason names the valid forms) or NULL spec or out, SB_ERR_NOMEM. */
int sb_geometry_parse(const char *spec, sb_geometry **out, char *why, size_t whylen);

/* Makes the square boxed geometry for a cell count: N*N cells with N = R*C, R <= C and C - R
 * smallest (16 -> 2x2, 36 -> 2x3, 64 -> 2x4, 81 -> 3x3, 144 -> 3x4, 256 -> 4x4, 625 -> 5x5).
 * @return SB_OK with *out set; SB_ERR_ARG when no boxed geometry has that many cells (not a
 * square, or N prime, or N > 64), with why naming what does fit (latin:N, cube:K), or for
 * NULL out. */
int sb_geometry_for_cells(int ncells, sb_geometry **out, char *why, size_t whylen);

/* Reads a geometry file from an open stream (format in docs/geometry.md: "jigsaw N" followed
 * by N lines of N region characters, or "houses CELLS N" followed by one house per line as
 * cell indices; '#' comments and blank lines anywhere). source names the input in messages.
 * @return SB_OK with *out set; SB_ERR_ARG with why "SOURCE:LINE: reason" (why "no input" for
 * NULL in or out); SB_ERR_IO; SB_ERR_NOMEM. */
int sb_geometry_read(FILE *in, const char *source, sb_geometry **out, char *why,
                     size_t whylen);

/* Opens path and reads it as sb_geometry_read does. @return as sb_geometry_read; SB_ERR_IO
 * (why says the file cannot be opened) when it cannot be opened; SB_ERR_ARG (why "no geometry
 * file named") for NULL path or out. */
int sb_geometry_load(const char *path, sb_geometry **out, char *why, size_t whylen);

/* Frees a geometry (NULL is allowed). */
void sb_geometry_free(sb_geometry *g);

/* @return the geometry's name: its spec ("4x4", "cube:3") or "jigsaw:N" / "houses"; NULL for
 * NULL. */
const char *sb_geometry_name(const sb_geometry *g);

/* @return its kind (an sb_geometry_kind); SB_ERR_ARG for NULL, as the counts below. */
int sb_geometry_kind_of(const sb_geometry *g);

/* @return the number of cells. */
int sb_geometry_cells(const sb_geometry *g);

/* @return the number of digits N (also the cells per house). */
int sb_geometry_digits(const sb_geometry *g);

/* @return the number of houses. */
int sb_geometry_houses(const sb_geometry *g);

/* Checks a solution: every cell 1..N, every given of puzzle kept (puzzle may be NULL: none),
 * every house holding each digit once. @return 1 if valid, else 0 (also for NULL g or
 * solution). */
int sb_gsolution_check(const sb_geometry *g, const uint8_t *puzzle, const uint8_t *solution);

/* How a grid is written as text. */
typedef enum sb_gform {
    SB_GFORM_CHARS = 0, /* one character per cell: '1'-'9' then 'A'-'Z' (N <= 35), '.' blank */
    SB_GFORM_INTS = 1   /* decimal cell values separated by ',' (0 blank), any N */
} sb_gform;

/* Parses one puzzle line for geometry g into cells (sb_geometry_cells bytes). The form is
 * detected per line: a ',' or an inner space/tab means the integer form (values 0..N
 * separated by ',' or runs of spaces/tabs), else one character per cell ('1'-'9', 'A'-'Z' or
 * 'a'-'z' for 10..35, '.' or '0' blank). Surrounding spaces/tabs and a trailing '\r' are
 * ignored. On error nothing is guessed: *col (may be NULL) is the 1-based column of the
 * offending byte (for a short line, one past the end) and why says the reason.
 * @param form  receives the detected sb_gform (may be NULL)
 * @return SB_OK, or SB_ERR_ARG with why ("digit 'H' out of range 1..16", "too few cells
 * (15 of 16)", ...). */
int sb_gparse(const sb_geometry *g, const char *line, size_t len, uint8_t *cells, int *form,
              char *why, size_t whylen, size_t *col);

/* Writes cells as text in form (no newline) into out (which must not overlap cells),
 * NUL-terminated when it fits.
 * @return the length the text needs (excluding NUL), like snprintf (out may be NULL when
 * outlen is 0); SB_ERR_ARG for NULL g or cells, NULL out with outlen > 0, an unknown form,
 * SB_GFORM_CHARS with N > 35 or a cell above N. */
int sb_gformat(const sb_geometry *g, const uint8_t *cells, int form, char *out, size_t outlen);

/* ------------------------------------------------------------------------------------------ */
/* Solving any geometry: the engine                                                           */
/* ------------------------------------------------------------------------------------------ */

/* An sb_engine solves puzzles of one geometry (sb_geometry_9x9() for 9x9) with one pipeline at
 * one SIMD level: the library's one solver handle. It is made once for (geometry, options),
 * which picks the code that runs (the fused 9x9 kernel of the level, the 16x16 whole-board
 * kernel, the general solver, a generic pipeline or a solver plug-in; the expert tier lists
 * the table), and every call solves with that code: one puzzle, an array, a pencilmark grid,
 * or every solution in turn. Thread rules: one thread's mutable state; it may move between
 * threads, never be used by two at once. */
typedef struct sb_engine sb_engine;

/* What one general solve found. */
typedef struct sb_gresult {
    uint64_t count;    /* solutions found, at most limit when limit > 0 */
    uint64_t guesses;  /* search states pushed (one per branch taken): the field's guess count */
} sb_gresult;

/* Called once per solution by sb_engine_each, sb_gsolve_each and sb_gpipeline_each; solution
 * holds sb_geometry_cells digits and is valid only during the call. @return 0 to go on,
 * non-zero to stop the enumeration. */
typedef int (*sb_gsolution_fn)(const uint8_t *solution, uint64_t index, void *user);

/* Makes the engine for geometry g (g must outlive the engine) and *opt: pipeline
 * (an index, or SB_PIPELINE_CUSTOM with spec, copied), simd, search (depth-first; 9x9 also
 * breadth-first, with bfs_cap), max_guesses and stop as sb_options says; opt->limit is the
 * 9x9 row's first limit (the limit is a per-call argument). @return SB_OK with *out set;
 * SB_ERR_ARG for NULL out or opt, or breadth-first search on a geometry other than 9x9;
 * SB_ERR_PIPELINE for a bad index, a NULL or bad spec; SB_ERR_SIMD for a level unknown or
 * lacking here (also for the pipelines, which run portable C); SB_ERR_NOMEM. Checked in that
 * order. */
int sb_engine_new(const sb_geometry *g, const sb_options *opt, sb_engine **out);

/* Frees an engine (NULL is allowed). */
void sb_engine_free(sb_engine *e);

/* Sets the guess budget of every later solve and enumeration (UINT64_MAX: none), as
 * opt->max_guesses at sb_engine_new. NULL e: nothing. */
void sb_engine_budget(sb_engine *e, uint64_t max_guesses);

/* Sets the stop flag every later solve and enumeration polls (NULL: none), as opt->stop. NULL
 * e: nothing. */
void sb_engine_stop(sb_engine *e, const volatile sig_atomic_t *stop);

/* Counts the solutions of cells (sb_geometry_cells bytes, 81 for 9x9) up to limit (0 = all)
 * and copies the first into first (may be NULL; untouched when there is none), as sb_gsolve.
 * @return SB_OK; SB_ERR_ARG for NULL arguments or a cell above N; SB_ERR_BUDGET and
 * SB_ERR_STOPPED (res holds what was found so far); SB_ERR_FRONTIER (9x9 breadth-first);
 * SB_ERR_NOMEM. */
int sb_engine_solve(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                    uint8_t *first);

/* Solves n puzzles (row i in bytes [i*C, (i+1)*C), C = sb_geometry_cells, 81 for 9x9) as n
 * calls of sb_engine_solve would: res[i], status[i] and row i of first (may be NULL; n*C
 * bytes, a row untouched when its puzzle has none) are the same, guesses included. Faster
 * where the row has a batched path: the 9x9 row runs sb_solve_many (the fast pipeline's AVX2
 * kernel searches two puzzles side by side). The stop flag is also read before each puzzle:
 * once it is raised the puzzles not yet started get SB_ERR_STOPPED and a zero result, as a
 * refused puzzle gets SB_ERR_ARG. @return SB_OK (each puzzle's own status in status[i]);
 * SB_ERR_ARG for NULL e or (n > 0) NULL cells, res or status. */
int sb_engine_solve_many(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit,
                         sb_gresult *res, uint8_t *first, int *status);

/* Counts the grids whose every cell holds one of its candidates (cand: sb_geometry_cells
 * masks, bit d-1 = digit d, as a pencilmark grid gives them; a cell of one candidate is
 * placed, one of none makes the count 0) up to limit, as sb_solve_candidates does on 9x9, and
 * copies the first into first (may be NULL). Candidates that say no more than their givens
 * run as those givens would. @return as sb_engine_solve; SB_ERR_ARG also for a mask above
 * digit N, and on the plug-in row (a plug-in takes givens). */
int sb_engine_solve_candidates(sb_engine *e, const uint64_t *cand, uint64_t limit,
                               sb_gresult *res, uint8_t *first);

/* Enumerates the solutions of cells up to limit (0 = all), calling fn for each in the row's
 * DFS order (the 9x9 row: see above), streaming, as sb_gsolve_each. @return as
 * sb_gsolve_each; SB_ERR_ARG for a NULL fn. */
int sb_engine_each(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                   void *user, sb_gresult *res);

/* ------------------------------------------------------------------------------------------ */
/* Any geometry: reading, and batches that solve and rate                                     */
/* ------------------------------------------------------------------------------------------ */

/* On the 9x9 grid (sb_geometry_9x9()) sb_rate does the rating, so one loop serves every
 * geometry; a NULL geometry is refused (SB_ERR_ARG). Thread rules: an sb_grater is one
 * thread's state (it may move between threads); sb_geometry_detect, sb_grate and
 * sb_grate_batch keep no state outside their arguments. */

enum { SB_GEO_MAX_LINE = 32000 /* longest line a reader of a geometry other than 9x9 takes,
                                  '\n' excluded (64x64 in integers needs about 12 KB) */ };

/* Solves n puzzles of geometry g as sb_solve_batch does (one OpenMP team,
 * sb_threads_check first, row i from puzzle i alone: the same for any thread count), each
 * thread with its own sb_engine for (g, *opt), so 9x9 (sb_geometry_9x9() or "3x3") gives
 * sb_solve_batch's rows; opt->limit, max_guesses and stop as for one solve (stop also read
 * before each puzzle). Rows of sb_geometry_cells(g) bytes (81 for 9x9); outputs as
 * sb_solve_batch's (each may be NULL; status[i] what the solve of puzzle i returned).
 * @return SB_OK; SB_ERR_ARG for NULL opt or cells (n > 0), n rows whose bytes would pass
 * SIZE_MAX, or what sb_engine_new refuses: BFS search
 * on a geometry other than 9x9, SB_ERR_PIPELINE or SB_ERR_SIMD (nothing solved);
 * SB_ERR_THREADS (errno set; nothing solved); SB_ERR_STOPPED; SB_ERR_NOMEM when a thread
 * could not make its engine. */
int sb_gsolve_batch(const sb_geometry *g, const sb_options *opt, const uint8_t *cells,
                    size_t n, int threads, uint64_t *counts, uint64_t *guesses,
                    uint8_t *solutions, int8_t *status);

/* Rates n puzzles of geometry g (puzzle i in bytes [i*C, (i+1)*C) with C =
 * sb_geometry_cells, 81 for 9x9) on a team of `threads` threads as the 9x9 batch calls do
 * (0: every core; checked with sb_threads_check first): classes[i] = the sb_class, or -1 when
 * puzzle i was refused (a cell above N); eliminations (may be NULL; n*SB_TECH_COUNT entries)
 * row i = the eliminations of each sb_technique in that rating (0 when refused). *stop (NULL:
 * never) is read before each puzzle; rows not begun once it is raised are left untouched.
 * @return SB_OK; SB_ERR_ARG for NULL arrays, n rows whose bytes would pass SIZE_MAX, or when
 * some puzzle was refused; SB_ERR_THREADS (errno set; nothing rated); SB_ERR_STOPPED when the
 * flag ended the batch (wins over SB_ERR_ARG); SB_ERR_NOMEM when a thread could not make its
 * rater (its rows untouched). */
int sb_grate_batch(const sb_geometry *g, const uint8_t *cells, size_t n, int threads,
                   int8_t *classes, uint64_t *eliminations, const volatile sig_atomic_t *stop);

/* ------------------------------------------------------------------------------------------ */
/* Plug-ins (sudokubench_plugin.h is the ABI a plug-in implements; docs/plugins.md)            */
/* ------------------------------------------------------------------------------------------ */

/* A loaded plug-in: a shared object whose sb_plugin_entry() describes a solver, or whose
 * sb_plugin_technique_entry() describes a technique. A solver plug-in goes into
 * sb_options.plugin, and sb_engine_new (and so sb_bench_prepare and the record solvers) runs
 * it as an engine row: one plug-in state per engine, every answer shaped as a built-in's. A
 * technique plug-in goes into sb_options.techniques: its name is a technique token of the
 * options' spec ("fast+NAME", "restart:ns,hs,NAME"), one state per solver.
 * Thread rules: an sb_plugin is read-only once open; any number of engines on any threads may
 * share it. Close it after the last engine that uses it is freed. */
typedef struct sb_plugin sb_plugin;

enum { SB_PLUGIN_WHY = 256, /* room for sb_plugin_open's reason, NUL included */
       SB_TECH_PLUGINS = 4  /* most technique plug-ins one solver runs (sb_options) */ };

/* Loads the plug-in at path (dlopen; a path without '/' is looked up as dlopen does, so give
 * "./x.so" for a file here) and checks its description: the entry symbol, the ABI version,
 * the name (1-31 of [a-z0-9_-], no built-in pipeline's) and the calls. On failure why (cap
 * bytes, SB_PLUGIN_WHY is enough) gets a one-line reason and nothing stays loaded.
 * @return SB_OK and *out; SB_ERR_ARG for NULL path or out; SB_ERR_PLUGIN with why. */
int sb_plugin_open(const char *path, sb_plugin **out, char *why, size_t cap);

/* Unloads p. NULL: nothing. */
void sb_plugin_close(sb_plugin *p);

/* @return the plug-in's name (its row's name), or NULL for NULL p. */
const char *sb_plugin_name(const sb_plugin *p);

/* @return the plug-in's one-line description, or NULL for NULL p. */
const char *sb_plugin_about(const sb_plugin *p);

/* @return 1 when p must run on one thread (SB_PLUGIN_ONE_THREAD: it keeps global state), 0
 * when any number of engines may call it at once, or for NULL p. */
int sb_plugin_one_thread(const sb_plugin *p);

/* @return 1 for a technique plug-in (sb_plugin_technique_entry), 0 for a solver plug-in or
 * NULL p. */
int sb_plugin_is_technique(const sb_plugin *p);

/* @return 1 when p works on grids of geometry g, 0 when it refuses them or p or g is NULL. */
int sb_plugin_accepts(const sb_plugin *p, const sb_geometry *g);

/* @return the name of the plug-in whose call is running on the calling thread, else NULL.
 * Async-signal-safe: a SIGSEGV handler can tell a plug-in's crash from the program's own. */
const char *sb_plugin_running(void);

#ifdef __cplusplus
}
#endif

#endif /* SUDOKUBENCH_H */

/* ========================================================================================== */
/* Expert tier: #define SB_EXPERT before #include <sudokubench.h>                             */
/* ========================================================================================== */

/* Registries, counters, knobs and the objects the stable calls are built from. These
 * declarations are outside the include guard above, under a guard of their own, so a file
 * that includes the header once without SB_EXPERT and again with it sees both tiers. */
#if defined(SB_EXPERT) && !defined(SUDOKUBENCH_H_EXPERT)
#define SUDOKUBENCH_H_EXPERT

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* The 9x9 solver (kept for one release: sb_engine on sb_geometry_9x9() is the same solver)     */
/* ------------------------------------------------------------------------------------------ */

/* sb_solver is the engine's 9x9 row on its own, with the limit fixed when it is made: it
 * gives the same counts, guesses and first solutions as sb_engine_solve and
 * sb_engine_solve_many on sb_geometry_9x9(). sb_gsolver, sb_gpipeline and sb_grater below are
 * likewise the engine's general and pipeline rows and the rater, on one geometry. All four
 * stay for one release, for programs written against 0.1; new code uses sb_engine. */

/* What one solve found. */
typedef struct sb_result {
    uint64_t count;      /* solutions found, at most limit (when limit > 0) */
    uint64_t guesses;    /* search states pushed (one per branch taken): the field's guess count */
    sb_grid solution;    /* the first solution found; all zero when count is 0 */
} sb_result;

/* @return the verdict for a result: 0 solutions, 1, or more; SB_UNSOLVABLE for NULL. */
sb_verdict sb_result_verdict(const sb_result *res);

/* A solver context: search stack and scratch state for one thread. Thread rules: one per
 * thread; it may move between threads, never be used by two at once. */
typedef struct sb_solver sb_solver;

/* Creates a solver. @return SB_OK; SB_ERR_ARG for NULL out or opt; SB_ERR_PIPELINE for a bad
 * pipeline index; SB_ERR_SIMD
 * when the requested (or environment-forced) level is unknown or unsupported here; SB_ERR_ARG
 * for a bad search mode or pair policy (sb_pair_resolve); SB_ERR_NOMEM. */
int sb_solver_new(sb_solver **out, const sb_options *opt);

/* Frees a solver (NULL is allowed). */
void sb_solver_free(sb_solver *s);

/* Solves (counts) one puzzle up to the solver's limit. Conflicting givens give count 0.
 * With limit 0 the count can exceed what is practical to enumerate: that is the caller's
 * choice. @return SB_OK; SB_ERR_ARG for NULL arguments or cell values above 9;
 * SB_ERR_FRONTIER when BFS needs more than bfs_cap boards; SB_ERR_BUDGET when the search
 * would need more than max_guesses guesses (res->guesses is then at most max_guesses:
 * exactly max_guesses in DFS); SB_ERR_STOPPED
 * when the stop flag was raised; SB_ERR_NOMEM. After an error res holds what was found so
 * far (count and solution), never a verdict. */
int sb_solve(sb_solver *s, const sb_grid *puzzle, sb_result *res);

/* Solves puzzles[0..n) as n calls of sb_solve would: res[i] and status[i] (sb_solve's return
 * value for puzzle i) are the same, solutions and guesses included. Under the pair policy
 * SB_PAIR_ON (sb_options.pair) the fast pipeline's AVX2 kernel searches two puzzles side by
 * side, one in each half of its vectors, in blocks of up to 256 (docs/performance.md);
 * otherwise it is a loop.
 * The stop flag is also looked at before each puzzle: once it is raised, the puzzles not yet
 * started get SB_ERR_STOPPED and a zero result (as does a puzzle refused with SB_ERR_ARG).
 * @return SB_OK, or SB_ERR_ARG for a NULL solver or (when n > 0) NULL arrays. */
int sb_solve_many(sb_solver *s, const sb_grid *puzzles, size_t n, sb_result *res, int *status);

/* ------------------------------------------------------------------------------------------ */
/* 9x9 peer tables, candidates, input forms beyond one puzzle per line (docs/cli.md)          */
/* ------------------------------------------------------------------------------------------ */

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

/* Fills cand with each cell's candidates implied by the givens alone (no propagation):
 * a given cell gets its own digit, a blank cell every digit not given among its peers.
 * This is the "hypothesis set" of seed 004. Cells above 9 count as blanks; NULL grid or cand:
 * nothing is written. */
void sb_grid_candidates(const sb_grid *grid, uint16_t cand[SB_CELLS]);

/* Besides the forms listed at sb_parse_line, the 9x9 reader and the parser take, told apart
 * per record:
 *   - tdoku records "PUZZLE:COUNT[:SOLUTION]" (what `solve -f tdoku` writes): COUNT decimal
 *     or "budget", SOLUTION empty or 81 digits, both checked for form and otherwise ignored;
 *     the record of an invalid line ("TEXT:invalid:") stays invalid;
 *   - 729-character pencilmark lines (tdoku -p): 9 characters per cell, the k-th the digit k+1
 *     (a candidate) or '.' (eliminated); a cell with one candidate is a given, a cell with no
 *     candidate is refused. Optionally followed by a tdoku tail ":COUNT:SOLUTION" (what
 *     `solve -f tdoku` writes for one). The reader hands the candidates to a caller that
 *     gives it room for them (sb_reader_next's cand); a line whose marks eliminate more than
 *     its givens imply is a different puzzle than its grid, so it is refused ("elimination
 *     beyond the givens") by sb_parse_line and by a reader given no cand;
 *   - nine-line grids, gathered by sb_reader_next only: rows of 9 cells ('1'-'9', '.', '0',
 *     '-', '_') with any spaces, tabs and '|' between them, optionally with rule lines of
 *     '-', '+', '=', '|' (a line of exactly nine '-' is a row of blanks); rows of 18 cells
 *     with a gap of two spaces after the ninth (`solve -f pretty`: givens beside the
 *     solution) give their first 9. A grid ends at its ninth row (a rule line right after is
 *     its bottom rule); a blank line, a comment or another puzzle before that cuts it:
 *     one invalid record "grid ends after K of 9 rows" at its first line. A bad row makes the
 *     grid one invalid record at that row's line and column. A valid grid's record carries
 *     the line number of its first line (a row or its top rule). */

/* @return 1 when line is a row or a rule line of the nine-line grid form (a line the
 * one-line forms refuse and sb_reader_next gathers into a grid), else 0 (also for NULL line).
 * Lets a caller that
 * sniffs the first line of an input (which geometry is it?) recognise this form. */
int sb_line_is_grid(const char *line, size_t len);

/* Solves (counts) the grid consistent with candidate masks: cand[c] holds the digits cell c may
 * take (bit d-1 = digit d; a pencilmark line's, as sb_reader_next reads them), so the solutions
 * are the valid grids with every cell's digit among its candidates. A cell with one candidate
 * is a given; a cell with none makes the count 0. Candidates that keep every digit their givens
 * allow are that puzzle and solve exactly as sb_solve (the same kernel and guesses). Further
 * eliminations are searched by the generic engine (pipeline.c) with the solver's pipeline, the
 * same branching rule and guess convention; for "fast" (whose fused kernel loads givens only)
 * with its techniques as the plan "restart:ns,hs,lc". The solver's limit, search mode, budget
 * and stop flag apply as in sb_solve.
 * @return as sb_solve; SB_ERR_ARG for NULL arguments or a mask with bits above digit 9. */
int sb_solve_candidates(sb_solver *s, const uint16_t cand[SB_CELLS], sb_result *res);

/* Rates from candidate masks (as sb_solve_candidates takes them) instead of givens: the same
 * classes, run from those candidates (a pencilmark line's eliminations count as done; its
 * cells with one candidate are givens). Candidates that keep every digit their givens allow
 * rate exactly as sb_rate of those givens. @return SB_OK, or SB_ERR_ARG for NULL arguments or
 * a mask with bits above digit 9. */
int sb_rate_candidates(const uint16_t cand[SB_CELLS], sb_rating *out);

/* ------------------------------------------------------------------------------------------ */
/* SIMD dispatch                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Kernel levels. Each level is the same solver stamped for an instruction set, tested against
 * the cell-major reference kernel (same solutions, counts and guesses). */
typedef enum sb_simd {
    SB_SIMD_AUTO = -1,    /* $SUDOKUBENCH_SIMD if set, else the best level this CPU supports */
    SB_SIMD_SCALAR = 0,   /* any CPU: always available; the architecture's baseline only (SSE2
                             on x86-64, NEON on aarch64: the band kernel; elsewhere the
                             reference) */
    SB_SIMD_SSE4 = 1,     /* x86-64: SSE4.1 + POPCNT (128-bit vectors) */
    SB_SIMD_AVX2 = 2,     /* x86-64: AVX2 + BMI1/2 + POPCNT + LZCNT (256-bit vectors) */
    SB_SIMD_AVX512 = 3,   /* x86-64: AVX-512 F/BW/VL/VPOPCNTDQ/VBMI/BITALG (Ice Lake, Zen 4
                             and later) */
    SB_SIMD_NEON = 4,     /* aarch64: Advanced SIMD (128-bit vectors) */
    SB_SIMD_AVX512BW = 5, /* x86-64: AVX-512 F/BW/VL without VBMI or VPOPCNTDQ (Skylake-SP,
                             Cascade Lake, Cooper Lake): the avx512 kernel with word permutes.
                             Numbered after neon: a level's value never changes;
                             auto prefers avx512, then avx512bw, then avx2 (avx512bw first
                             on AMD family 19h, Zen 4, where it runs faster) */
    SB_SIMD_LEVELS = 6    /* number of levels */
} sb_simd;

/* Returns the level's name ("scalar", "sse4", "avx2", "avx512", "neon", "avx512bw"), or "?"
 * if out of range. */
const char *sb_simd_name(int level);

/* Parses a level name ("auto" gives SB_SIMD_AUTO). @return the level, or SB_ERR_SIMD (also
 * for NULL). */
int sb_simd_parse(const char *name);

/* @return 1 if this CPU and OS support the level (x86-64: CPUID + XGETBV; aarch64: scalar and
 * neon), else 0 (also for any value that is no level). */
int sb_simd_supported(int level);

/* Resolves SB_SIMD_AUTO: $SUDOKUBENCH_SIMD when set, else the best supported level.
 * @return a supported level, or SB_ERR_SIMD when the environment names an unknown or
 * unsupported level (or level itself is unsupported). */
int sb_simd_resolve(int level);

/* ------------------------------------------------------------------------------------------ */
/* Techniques and pipelines: registries and custom specs                                      */
/* ------------------------------------------------------------------------------------------ */

/* One row of the technique registry (indexed by sb_technique). */
typedef struct sb_technique_info {
    const char *name;        /* spec token: ns, hs, lc, nt2 .. ht4, xw, sf, jf, xy, xyz, ww,
                                sky, kite, col, xc */
    const char *description; /* one line for --help and reports */
} sb_technique_info;

/* Returns the technique registry (SB_TECH_COUNT rows) and sets *count (count may be NULL). */
const sb_technique_info *sb_techniques(size_t *count);

/* Outcome of one technique step. */
typedef enum sb_step {
    SB_STEP_CONTRADICTION = -1, /* a cell lost its last candidate, or the house is impossible */
    SB_STEP_UNCHANGED = 0,      /* nothing to eliminate */
    SB_STEP_CHANGED = 1         /* candidates were removed */
} sb_step;

/* Runs one technique once over a candidate array (81 masks, as sb_grid_candidates makes):
 * all rows, then all columns, then all boxes, in place (a whole-board technique, xw .. xc:
 * one look at the board, its eliminations landing together). Cells with a single candidate are
 * "known". Adds its work to *counts (may be NULL). @return an sb_step, or SB_ERR_ARG for a
 * bad technique, NULL cand or a mask with bits above digit 9 (cand untouched). */
int sb_technique_step(int technique, uint16_t cand[SB_CELLS], sb_technique_counts *counts);

/* How a pipeline walks its techniques at every search node. */
typedef enum sb_order {
    SB_ORDER_FAST = 0,  /* the fused, SIMD-dispatched kernel (pipeline "fast") */
    SB_ORDER_LIST,      /* technique-major; each sweep (all rows, then columns, then boxes)
                           reads one snapshot and its eliminations land together; cycle until
                           a full cycle changes nothing (seed 000, list version) */
    SB_ORDER_ARRAY,     /* technique-major, house by house through index tables, in place:
                           each house sees the previous houses' eliminations (seed 000, array) */
    SB_ORDER_RESTART    /* techniques as stages, cheapest first; after any change restart from
                           the first stage (seed 001) */
} sb_order;

/* One row of the pipeline registry: a named order of techniques run at every search node. */
typedef struct sb_pipeline_info {
    const char *name;        /* the name given to -s / --pipelines */
    const char *description; /* one line for --help and reports */
    const char *spec;        /* the equivalent custom spec, e.g. "list:ns,hs,lc,nt,ht" */
    const char *source;      /* where the order comes from (seed document) */
} sb_pipeline_info;

/* Returns the registry and sets *count to its length (count may be NULL). The CLI, tests and
 * benchmarks all iterate this table. */
const sb_pipeline_info *sb_pipelines(size_t *count);

/* @return the index of the pipeline with this name, or SB_ERR_PIPELINE (also for NULL). */
int sb_pipeline_find(const char *name);

/* Marks a custom pipeline in sb_options.pipeline (the spec is in sb_options.spec). */
#define SB_PIPELINE_CUSTOM (-1)

/* Largest number of technique steps a custom spec may list. */
enum { SB_SPEC_MAX = 32 };

/* Checks a custom pipeline spec: "ORDER:T1,T2,..." with ORDER one of list, array, restart
 * and each T a technique token (an sb_techniques name: ns hs lc nt2 nt3 nt4 ht2 ht3 ht4 xw sf
 * jf xy xyz ww sky kite col xc, or nt = nt2,nt3,nt4 and ht = ht2,ht3,ht4); "ORDER:" alone (no
 * technique) is allowed. A "fast+T[,T...]" spec (techniques on the fused kernel's board,
 * docs/strategies.md) is checked too. @return SB_OK or SB_ERR_PIPELINE (also for NULL). */
int sb_pipeline_check(const char *spec);

/* Checks a registry name or a custom spec as sb_options_pipeline would take it, and when it
 * is refused writes into why (len bytes, e.g. SB_WHY_LEN * 2) what is wrong: the unknown
 * order or technique token with the valid ones, an empty token, or too many steps (why may
 * be NULL). @return SB_OK or SB_ERR_PIPELINE (also for a NULL spec). */
int sb_pipeline_explain(const char *spec, char *why, size_t len);

/* sb_pipeline_explain with opt's technique plug-ins as tokens (opt NULL: none). */
int sb_options_explain(const sb_options *opt, const char *spec, char *why, size_t len);

/* ------------------------------------------------------------------------------------------ */
/* Search and pair knobs, solver counters                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Search modes. Both count solutions the same way and branch by the same cell rule (the
 * depth-first search of the fast pipeline also by line pairs, once a puzzle has taken 8
 * guesses: docs/performance.md). */
typedef enum sb_search {
    SB_SEARCH_DFS = 0,   /* iterative depth-first over an explicit stack (default) */
    SB_SEARCH_BFS = 1    /* breadth-first over a FIFO frontier capped at bfs_cap boards */
} sb_search;

enum { SB_BFS_CAP = 1 << 18 /* default BFS frontier cap: 256Ki boards of 192 bytes (48 MiB) */ };

/* When sb_solve_many runs a paired kernel (the fast pipeline's AVX2 search: two puzzles side
 * by side) rather than one search per puzzle. The answers are the same either way; only the
 * speed differs. The one-board search runs fewer instructions on every corpus and is at least
 * as fast on the CPUs measured (AMD Zen 5, Intel Sapphire Rapids: docs/performance.md), so
 * the default runs one board and the pair is there to be measured. */
typedef enum sb_pair {
    SB_PAIR_AUTO = 0, /* the library's choice: one search per puzzle on every level */
    SB_PAIR_ON = 1,   /* always paired where a paired kernel exists */
    SB_PAIR_OFF = 2   /* never: one search per puzzle */
} sb_pair;

/* Returns the policy's name ("auto", "on", "off"), or "?" if out of range. */
const char *sb_pair_name(int policy);

/* Resolves SB_PAIR_AUTO: $SUDOKUBENCH_PAIR (auto, on or off) when set, else SB_PAIR_AUTO.
 * @return the policy in effect, or SB_ERR_ARG when the environment names none (or policy is
 * out of range). */
int sb_pair_resolve(int policy);

/* Returns the SIMD level the solver runs (never SB_SIMD_AUTO). The generic pipelines (all
 * but "fast") are portable C and run the same code at every level. SB_ERR_ARG for NULL. */
int sb_solver_simd(const sb_solver *s);

/* Copies the technique counters summed over the solver's solves since it was made or last
 * reset (SB_TECH_COUNT entries, indexed by sb_technique). The fused "fast" kernel keeps no
 * counters (its hot path stays lean): its entries stay 0. NULL s or out: nothing. */
void sb_solver_counts(const sb_solver *s, sb_technique_counts out[SB_TECH_COUNT]);

/* Copies the counters of the solver's technique plug-ins (sb_options.techniques, in that
 * order) into out. @return how many (0: none, or NULL s or out). */
int sb_solver_plugin_counts(const sb_solver *s, sb_technique_counts out[SB_TECH_PLUGINS]);

/* After a solve that returned SB_ERR_PLUGIN: the technique plug-in that broke its contract and
 * how ("technique plug-in 'x' failed (step returned -1)"). @return that text, valid until the
 * next solve, or NULL when the last solve had no breach. */
const char *sb_solver_plugin_why(const sb_solver *s);

/* Zeroes the technique counters (NULL s: nothing). */
void sb_solver_counts_reset(sb_solver *s);

/* @return the puzzles sb_solve_many handed to a paired kernel since the solver was made (the
 * rest ran one sb_solve each). 0 for NULL. */
uint64_t sb_solver_paired(const sb_solver *s);

/* ------------------------------------------------------------------------------------------ */
/* Random numbers, validity-preserving transforms and augmenting (9x9)                        */
/* ------------------------------------------------------------------------------------------ */

/* A small deterministic PRNG (splitmix64): the same seed and stream give the same numbers on
 * every platform and build, so generated and augmented corpora are reproducible. */
typedef struct sb_rng {
    uint64_t state; /* advances by a fixed odd constant per draw */
} sb_rng;

/* Seeds rng with stream number `stream` of `seed`. Streams of one seed are independent, so
 * item i of a batch can be made from (seed, i) alone, whatever the thread count. NULL rng:
 * nothing. */
void sb_rng_seed(sb_rng *rng, uint64_t seed, uint64_t stream);

/* @return the next 64 random bits (0 for NULL rng). */
uint64_t sb_rng_next(sb_rng *rng);

/* @return an exactly uniform integer in [0, n); 0 when n is 0 or rng is NULL. */
uint64_t sb_rng_below(sb_rng *rng, uint64_t n);

/* The number of validity-preserving transforms: 9! digit relabellings x 6^4 row orders
 * (band order, then row order inside each band) x 6^4 column orders x 2 (transpose or not). */
#define SB_TRANSFORMS UINT64_C(1218998108160)

/* A validity-preserving transform of a grid: a cell permutation made of band, row-in-band,
 * stack and column-in-stack orders and an optional transpose, plus a digit relabelling.
 * It maps every valid solution to a valid solution and every puzzle to a puzzle with the
 * same number of solutions (the solutions transformed the same way). */
typedef struct sb_transform {
    uint8_t cell[SB_CELLS];       /* output cell i takes the value of input cell cell[i] */
    uint8_t digit[SB_DIGITS + 1]; /* digit d becomes digit[d]; digit[0] = 0 keeps blanks */
} sb_transform;

/* Sets the identity transform (index 0). NULL t: nothing. */
void sb_transform_identity(sb_transform *t);

/* Sets transform number index (0 .. SB_TRANSFORMS-1); distinct indices give distinct
 * transforms. @return SB_OK, or SB_ERR_ARG when t is NULL or index is out of range. */
int sb_transform_from_index(sb_transform *t, uint64_t index);

/* Sets a uniformly random transform drawn from rng. NULL t or rng: nothing. */
void sb_transform_random(sb_transform *t, sb_rng *rng);

/* Writes the transformed grid into out (out must not alias in; cells must be 0..9). A NULL
 * argument, out == in, a cell above 9 or a t that is no transform (a cell index above 80,
 * digit[0] not 0, a digit outside 1..9): out is left untouched. */
void sb_transform_apply(const sb_transform *t, const sb_grid *in, sb_grid *out);

/* Writes the transformed grid as 81 characters (digits, '.' for blanks), no NUL: the bulk
 * writer's form, one pass with no intermediate grid (cells must be 0..9). Refusals as
 * sb_transform_apply: out is left untouched. */
void sb_transform_format(const sb_transform *t, const sb_grid *in, char out[SB_CELLS]);

/* @return the cell that cell (row-major on an n x n grid, 0..n*n-1) goes to under one
 * application of symmetry sym (rot90: a quarter turn clockwise); cell itself for
 * SB_SYM_NONE or an unknown sym. The 9x9 generator uses it with n = 9, the generator of any
 * geometry (sb_ggen_options) with the geometry's own N. SB_ERR_ARG when n is outside
 * 1..SB_GEO_MAX_DIGITS or cell outside 0..n*n-1. */
int sb_symmetry_image(int sym, int n, int cell);

/* Writes n transformed puzzles into out: row i is input puzzle (first+i) mod n_in of in
 * under the transform sb_transform_random draws from rng stream first+i of seed (what
 * `sudokubench augment` writes as line first+i). first + n - 1 must not pass UINT64_MAX.
 * @return SB_OK; SB_ERR_ARG for NULL arrays, n_in 0, an input cell above 9 or indices
 * passing UINT64_MAX; SB_ERR_THREADS (errno set; nothing written). As sb_augment_batch_stop
 * with no stop flag. */
int sb_augment_batch(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first, size_t n,
                     int threads, uint8_t *out);

/* sb_augment_batch with a stop flag, as sb_rate_batch_stop says. */
int sb_augment_batch_stop(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first,
                          size_t n, int threads, uint8_t *out,
                          const volatile sig_atomic_t *stop);

/* ------------------------------------------------------------------------------------------ */
/* Thread teams of the batch calls                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Checks that a team of `threads` threads (the caller and threads-1 new ones) can start right
 * now: starts threads-1 threads with the stack size the OpenMP runtime gives its own (libgomp:
 * $OMP_STACKSIZE, else $GOMP_STACKSIZE, else the default thread attributes; LLVM's libomp:
 * kmp_get_stacksize_s()), all alive at once, then lets them end. Costs about one thread start
 * and join per thread (tens of microseconds each), which is what the runtime pays again when
 * it starts the team. Call it before a parallel region of that many threads whose team the
 * runtime may have to start (the first region on a thread, or a larger one than the last):
 * the runtime cannot report that failure and exits instead. threads <= 1, a count above
 * omp_get_thread_limit() (the runtime caps the team there) and a region that would run
 * serialized (nested in a parallel region beyond omp_get_max_active_levels()) need no
 * new thread. The check is a snapshot: memory taken by another thread between it and the
 * region can still exhaust it.
 * @param why  receives "cannot start N threads: REASON" on failure ("out of memory" when
 *             the check's own list of threads cannot be allocated; whylen bytes, e.g.
 *             SB_WHY_LEN * 2, room for any; may be NULL)
 * @return SB_OK (also for threads <= 1: nothing to check); SB_ERR_THREADS with errno = the
 * error of pthread_create (the N threads are the team size checked); SB_ERR_NOMEM. */
int sb_threads_check(int threads, char *why, size_t whylen);

/* ------------------------------------------------------------------------------------------ */
/* Geometry tables and detection                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Makes a geometry from an explicit house list: house h is cells[h*ndigits .. +ndigits).
 * Checks every cell index is below ncells, the cells of a house are distinct, and every cell
 * lies in at least one house. name is copied (may be NULL: "houses").
 * @return SB_OK with *out set; SB_ERR_ARG with why (also for NULL cells or out, or counts
 * outside 1..SB_GEO_MAX_CELLS cells, 1..SB_GEO_MAX_DIGITS digits, 1..65536 houses);
 * SB_ERR_NOMEM. */
int sb_geometry_from_houses(int ncells, int ndigits, int nhouses, const int *cells,
                            const char *name, sb_geometry **out, char *why, size_t whylen);

/* @return the N cells of house h, ascending; NULL for NULL g or h outside
 * 0..sb_geometry_houses-1. */
const uint16_t *sb_geometry_house(const sb_geometry *g, int h);

/* Sets *count and @return the houses of cell c, ascending; NULL with *count 0 for NULL g or
 * count, or c outside 0..sb_geometry_cells-1. */
const uint16_t *sb_geometry_cell_houses(const sb_geometry *g, int c, int *count);

/* Sets *count and @return the peers of cell c (cells sharing a house with it, c excluded),
 * ascending; NULL with *count 0 for NULL g or count, or c out of range. */
const uint16_t *sb_geometry_peers(const sb_geometry *g, int c, int *count);

/* The 2-D layout for printing. Square grids: rows = cols = N, cell = N*row + column, boxes of
 * box_rows x box_cols (0 when there are none: latin, jigsaw). Cube: the K planes x = 0..K-1
 * side by side, rows = K, cols = K*K, printed row y column K*x + z showing cell K*K*x + K*y + z,
 * box_rows = box_cols = K marking the planes. A bare house list: rows = 1, cols = cells. */
typedef struct sb_geometry_layout {
    int rows;      /* rows of the printed grid */
    int cols;      /* columns of the printed grid */
    int box_rows;  /* rows per box, 0 without boxes */
    int box_cols;  /* columns per box, 0 without boxes */
} sb_geometry_layout;

/* Fills *out with the geometry's printing layout (all 0 for NULL g; NULL out: nothing). */
void sb_geometry_layout_of(const sb_geometry *g, sb_geometry_layout *out);

/* Picks the geometry of an input from its first record, as the command line does without
 * --grid: text is the start of the input (len bytes: its first line or more), more is 1 when
 * the input goes on past text (a last line without '\n' is then cut and not looked at). The
 * first line that is not blank, a comment or a Kaggle header decides by its cell count (as
 * sb_gparse counts: characters, or integers when separated): 81 cells, 9 (a row of a
 * nine-line grid), anything the 9x9 reader takes as its first record (a grid, pencilmarks),
 * a line of anything but cells, a count no geometry fits and no line at all are 9x9; another
 * count gives its square boxed geometry (sb_geometry_for_cells). A tdoku tail (':' on) or a
 * '#' after the cells is not counted.
 * @param line  receives the 1-based number of the deciding line, the 9x9 reader's first record
 *              too (0: none, text holds no puzzle line; may be NULL)
 * @param why   receives the reason for SB_ERR_ARG (whylen bytes, e.g. SB_GEO_WHY_LEN; may be
 *              NULL)
 * @return SB_OK with *out a new geometry, or sb_geometry_9x9() for 9x9 (free either with
 * sb_geometry_free);
 * SB_ERR_ARG when the count fits no boxed geometry but another shape, which the caller must
 * name (why: "27 cells is not an N x N grid: say cube:3"), or for NULL out (or NULL text with
 * len > 0); SB_ERR_NOMEM. */
int sb_geometry_detect(const char *text, size_t len, int more, sb_geometry **out,
                       uint64_t *line, char *why, size_t whylen);

/* ------------------------------------------------------------------------------------------ */
/* The engine table, and an engine's technique counters                                       */
/* ------------------------------------------------------------------------------------------ */

/* The engine table (src/engine/engine.c): sb_engine_new walks it in order and takes the first
 * row that matches the geometry, the pipeline and the SIMD level; every later call runs that
 * row's code, with no further choice:
 *   "plugin"    a solver plug-in (sb_options.plugin) on any geometry it accepts.
 *   "9x9"       the 9x9 grid (sb_geometry_9x9(), or the boxed 3x3 geometry "3x3"
 *               makes), any pipeline: the 9x9 solver ("fast": the fused kernel of the level,
 *               else the 9x9 generic engine), so counts, first solutions and guesses are
 *               sb_solve's; also breadth-first (opt->search). Enumeration (sb_engine_each)
 *               runs on the general solver ("fast") or the generic pipeline on the 3x3
 *               geometry (DFS): the fused kernel has no per-solution hook, and that order is
 *               the one `solve --all` writes; its guesses are that engine's.
 *   "box16"     "fast" on a 16-digit boxed grid (4x4, 2x8, 8x2) at a level above scalar:
 *               the whole-board kernel (the AVX2 stamp for avx2 and avx512, 128-bit vectors
 *               otherwise).
 *   "general"   "fast" on any other geometry (and box16's at scalar): the general solver's
 *               per-cell engine. box16 and general find the same counts, guesses and order.
 *   "pipeline"  any other pipeline or custom spec on a geometry other than 9x9: the generic
 *               pipeline. sb_engines is read-only. */

/* One row of the engine table. */
typedef struct sb_engine_info {
    const char *name;  /* "9x9", "box16", "general", "pipeline" */
    const char *about; /* one line: what it serves and what runs */
} sb_engine_info;

/* Returns the engine table's rows in match order and sets *count (count may be NULL). */
const sb_engine_info *sb_engines(size_t *count);

/* @return the name of the row the engine runs (sb_engine_info.name), for build info; NULL for
 * NULL. */
const char *sb_engine_name(const sb_engine *e);

/* @return the techniques of the pipeline that have nothing to work on in this geometry, bit t
 * for sb_technique t, as sb_gpipeline_skipped (0 for "fast" and for 9x9, and for NULL). */
unsigned sb_engine_skipped(const sb_engine *e);

/* Copies the technique counters summed since the engine was made or reset (SB_TECH_COUNT
 * entries, as sb_solver_counts); "fast" keeps none on any row (all 0). NULL e or out:
 * nothing. */
void sb_engine_counts(const sb_engine *e, sb_technique_counts out[SB_TECH_COUNT]);

/* sb_solver_plugin_counts for an engine. @return how many (0: none, or NULL e or out). */
int sb_engine_plugin_counts(const sb_engine *e, sb_technique_counts out[SB_TECH_PLUGINS]);

/* sb_solver_plugin_why for an engine. */
const char *sb_engine_plugin_why(const sb_engine *e);

/* Zeroes the technique counters (NULL e: nothing). */
void sb_engine_counts_reset(sb_engine *e);

/* ------------------------------------------------------------------------------------------ */
/* The general solver on any geometry                                                         */
/* ------------------------------------------------------------------------------------------ */

/* One thread's general solver over one geometry: candidate masks of uint64_t per cell, naked
 * and hidden singles over the geometry's houses to a fixpoint at every node, and an iterative
 * DFS over an explicit stack branching on a cell with the fewest candidates (among those the
 * one with the most unassigned peers, then the first in cell order), on up to 9 digits the
 * digit most of its peers hold first (the lowest on a tie), with more digits the lowest. */
typedef struct sb_gsolver sb_gsolver;

/* Creates a solver for geometry g (which must outlive it). @return SB_OK with *out set,
 * SB_ERR_ARG for NULL, SB_ERR_NOMEM. */
int sb_gsolver_new(const sb_geometry *g, sb_gsolver **out);

/* Frees a solver (NULL is allowed). */
void sb_gsolver_free(sb_gsolver *s);

/* Sets the SIMD level of every later solve (SB_SIMD_AUTO, the default: $SUDOKUBENCH_SIMD, else
 * the best this CPU has). Geometries with a whole-board kernel (16-digit boxed grids: 4x4,
 * 2x8, 8x2) run it at that level (AVX2 for avx2 and avx512, 128-bit vectors otherwise);
 * SB_SIMD_SCALAR, and every other geometry, run the per-cell engine, the reference the
 * kernel is tested against. Both find the same counts, guesses and order of solutions.
 * @return SB_OK, or SB_ERR_SIMD for a level this CPU lacks (the setting is unchanged);
 * SB_ERR_ARG for NULL s. */
int sb_gsolver_simd(sb_gsolver *s, int level);

/* Sets the guess budget of every later solve (UINT64_MAX, the default: none): a search that
 * would push more states stops with SB_ERR_BUDGET, deterministically, as sb_options.max_guesses.
 * NULL s: nothing. */
void sb_gsolver_budget(sb_gsolver *s, uint64_t max_guesses);

/* Makes every later solve poll *stop (a flag a signal handler or another thread raises; NULL,
 * the default: none), as sb_options.stop does on 9x9: read at the first guess of a solve and
 * then every few hundred to few thousand guesses (fewer on larger boards), one compare per
 * guess otherwise; once it reads non-zero the solve returns SB_ERR_STOPPED, res holding what
 * was found so far. Lets Ctrl-C end a long search on any geometry. NULL s: nothing. */
void sb_gsolver_stop(sb_gsolver *s, const volatile sig_atomic_t *stop);

/* Counts the solutions of cells up to limit (0 = all) and copies the first into first
 * (sb_geometry_cells bytes; may be NULL; untouched when there is none). Conflicting givens
 * give count 0. @return SB_OK; SB_ERR_ARG for NULL arguments or a cell above N; SB_ERR_BUDGET
 * (res holds what was found so far, res->guesses the budget); SB_ERR_STOPPED when the stop
 * flag was raised (sb_gsolver_stop; res as for the budget); SB_ERR_NOMEM. */
int sb_gsolve(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gresult *res,
              uint8_t *first);

/* Enumerates the solutions of cells, up to limit (0 = all), calling fn for each in DFS order:
 * the branch cell's digits in the solver's order (above), so the order is fixed for a geometry
 * and puzzle.
 * Streams in constant memory (the solver's stack, at most one board per cell).
 * @return SB_OK (res->count = solutions reported), SB_ERR_STOPPED when fn asked to stop (the
 * solution it stopped on is counted) or the stop flag was raised, SB_ERR_BUDGET, SB_ERR_ARG,
 * SB_ERR_NOMEM. */
int sb_gsolve_each(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                   void *user, sb_gresult *res);

/* Techniques of the general solver beyond naked singles, which are always on. Locked
 * candidates work on every pair of houses meeting in 2..N-1 cells (box and line, two cube
 * planes, region and line); a geometry without such pairs (latin:N) has nothing for it. */
enum {
    SB_GTECH_HIDDEN = 1, /* hidden singles */
    SB_GTECH_LOCKED = 2, /* locked candidates */
    SB_GTECH_ALL = 3     /* both: the default */
};

/* Sets the techniques later solves propagate with (SB_GTECH_* bits; default SB_GTECH_ALL).
 * Fewer techniques never change a count, only the guesses: `rate` uses them with a guess
 * budget of 0 to find the weakest set that solves a puzzle. NULL s: nothing. */
void sb_gsolver_techniques(sb_gsolver *s, unsigned mask);

/* ------------------------------------------------------------------------------------------ */
/* The generic pipelines on any geometry                                                      */
/* ------------------------------------------------------------------------------------------ */

/* One thread's generic pipeline over one geometry: the list, array and restart orders and
 * custom specs of the 9x9 generic engine (the pipeline registry and spec syntax above, the
 * same techniques per house, the same branching rule and guess convention), with uint64_t
 * candidate masks. A reference for comparisons, not a fast path: "fast" on a geometry is the
 * general solver (sb_gsolver). A sweep visits the houses in the geometry's order in runs of
 * disjoint houses (rows, columns, boxes; a cube's planes axis by axis): the list order takes
 * one snapshot per run. Locked candidates (lc) work on every pair of houses meeting in 2..N-1
 * cells (as sb_gsolver's); a geometry with no such pair (latin:N) skips them
 * (sb_gpipeline_skipped). Tuples (nt2-4, ht2-4) work in every house. Fish (xw, sf, jf),
 * skyscraper and kite need two families of lines crossing in one cell each (rows, columns)
 * and are skipped without them; wings, colouring and X-chains work everywhere. On the 3x3
 * geometry counts, first solutions, guesses and technique counters equal sb_solve's for that
 * pipeline. */
typedef struct sb_gpipeline sb_gpipeline;

/* Creates a pipeline for geometry g (which must outlive it) from a registry name other than
 * "fast" or a custom spec "ORDER:T1,T2,..." (sb_pipeline_check). @return SB_OK with *out
 * set; SB_ERR_ARG for NULL; SB_ERR_PIPELINE for an unknown name, a bad spec or "fast";
 * SB_ERR_NOMEM. */
int sb_gpipeline_new(const sb_geometry *g, const char *name_or_spec, sb_gpipeline **out);

/* Frees a pipeline (NULL is allowed). */
void sb_gpipeline_free(sb_gpipeline *p);

/* Sets the guess budget of every later solve, as sb_gsolver_budget (NULL p: nothing). */
void sb_gpipeline_budget(sb_gpipeline *p, uint64_t max_guesses);

/* Sets the stop flag every later solve polls, as sb_gsolver_stop (NULL: none), here at every
 * guess and before each technique sweep (one propagation of a large board can take seconds);
 * sb_gpipeline_root does not poll it. NULL p: nothing. */
void sb_gpipeline_stop(sb_gpipeline *p, const volatile sig_atomic_t *stop);

/* @return the techniques of the plan that have nothing to work on in this geometry, bit t
 * for sb_technique t: SB_TECH_LOCKED when no two houses meet in 2..N-1 cells (latin:N);
 * xw, sf, jf, sky and kite when no two runs of disjoint houses cross as rows and columns; 0
 * for NULL. */
unsigned sb_gpipeline_skipped(const sb_gpipeline *p);

/* Counts the solutions of cells up to limit (0 = all) and copies the first into first (may
 * be NULL), as sb_gsolve. @return SB_OK; SB_ERR_ARG; SB_ERR_BUDGET; SB_ERR_STOPPED;
 * SB_ERR_NOMEM. */
int sb_gpipeline_solve(sb_gpipeline *p, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                       uint8_t *first);

/* Enumerates the solutions of cells in this pipeline's DFS order (as sb_gsolve_each's),
 * calling fn for each, as sb_gsolve_each. @return as sb_gsolve_each. */
int sb_gpipeline_each(sb_gpipeline *p, const uint8_t *cells, uint64_t limit,
                      sb_gsolution_fn fn, void *user, sb_gresult *res);

/* Runs the plan on the givens of cells to its fixpoint without guessing (a rating step).
 * @return 0 on a contradiction, 1 when every cell is known and the houses agree, 2 when
 * stuck (a search is needed); SB_ERR_ARG for NULL or a cell above N. */
int sb_gpipeline_root(sb_gpipeline *p, const uint8_t *cells);

/* Copies the technique counters summed since the pipeline was made or reset (SB_TECH_COUNT
 * entries, as sb_solver_counts). NULL p or out: nothing. */
void sb_gpipeline_counts(const sb_gpipeline *p, sb_technique_counts out[SB_TECH_COUNT]);

/* Zeroes the technique counters (NULL p: nothing). */
void sb_gpipeline_counts_reset(sb_gpipeline *p);

/* ------------------------------------------------------------------------------------------ */
/* Rating any geometry one puzzle at a time                                                   */
/* ------------------------------------------------------------------------------------------ */

/* One thread's rating state for one geometry: a generic pipeline per class (sb_gpipeline),
 * and the states of its technique plug-ins (sb_grater_new_opt). */
typedef struct sb_grater sb_grater;

/* Creates a rater for geometry g (which must outlive it; sb_geometry_9x9(): sb_rate's).
 * @return SB_OK with *out set, SB_ERR_ARG for NULL out or g, SB_ERR_NOMEM. */
int sb_grater_new(const sb_geometry *g, sb_grater **out);

/* Frees a rater (NULL is allowed). */
void sb_grater_free(sb_grater *r);

/* Rates a puzzle of the rater's geometry as sb_rate does a 9x9 one: each class's technique
 * set (restart order, cheapest first: ns; ns,hs; ns,hs,lc; ns,hs,lc,nt,ht) runs from the
 * givens without guessing, and the first whose fixpoint completes the grid is the class;
 * counts are what each technique did in that run (for search: in the tuples run). Locked
 * candidates have nothing to do where no two houses meet in 2..N-1 cells (latin:N). Meant
 * for proper puzzles: a contradiction or several solutions end as SB_CLASS_SEARCH. On the
 * 3x3 geometry the class and counts equal sb_rate's; 9x9 (NULL) is sb_rate. @return SB_OK;
 * SB_ERR_ARG for NULL arguments or a cell above N. */
int sb_grater_rate(sb_grater *r, const uint8_t *cells, sb_rating *out);

/* sb_grater_rate with a rater made and freed for this one call. @return as sb_grater_rate;
 * SB_ERR_NOMEM. */
int sb_grate(const sb_geometry *g, const uint8_t *cells, sb_rating *out);

/* A rating on a ladder with technique plug-in rungs (sb_grater_new_opt): singles < ... <
 * chains < plug-in 0 < ... < plug-in n-1 < search, rung k running chains' set and then
 * plug-ins 0..k, in restart order. */
typedef struct sb_ladder_rating {
    sb_rating base;  /* a built-in class and its counts as sb_grater_rate gives them; for a
                        puzzle the built-ins leave to search: SB_CLASS_SEARCH, and counts of
                        the run that decided (rung's, or for search the last rung's) */
    int rung;        /* -1: base.cls stands; k >= 0: plug-in k's rung solved it */
    sb_technique_counts plugins[SB_TECH_PLUGINS]; /* each plug-in's work in that run (zero
                        when a built-in class stands) */
} sb_ladder_rating;

/* Creates a rater for geometry g (which must outlive it) whose ladder has a rung
 * for each technique plug-in of opt->techniques, in that order, after chains; the other
 * fields of opt are ignored, and without plug-ins this is sb_grater_new. @return SB_OK with
 * *out set; SB_ERR_ARG for NULL g, opt or out, more than SB_TECH_PLUGINS, or a plug-in that is
 * not a technique or refuses g; SB_ERR_NOMEM. */
int sb_grater_new_opt(const sb_geometry *g, const sb_options *opt, sb_grater **out);

/* Rates cells on r's ladder: the built-in classes exactly as sb_grater_rate, and only a
 * puzzle they leave to search goes up the plug-in rungs (the top rung first: when it cannot
 * complete the grid no lower one can). Each plug-in step is held to its contract, and when
 * solution (the puzzle's one solution, the geometry's cells; may be NULL) is given, no
 * elimination may remove its digit. sb_grater_rate on such a rater gives out->base.
 * @return SB_OK; SB_ERR_ARG for NULL r, cells or out, or a cell above N; SB_ERR_PLUGIN when
 * a plug-in broke its contract (sb_grater_plugin_why names it; out is then unspecified). */
int sb_grater_ladder(sb_grater *r, const uint8_t *cells, const uint8_t *solution,
                     sb_ladder_rating *out);

/* sb_grater_ladder from 9x9 candidate masks, as sb_rate_candidates rates them. @return as
 * sb_grater_ladder; SB_ERR_ARG on a rater of another geometry or a mask above digit 9. */
int sb_grater_ladder_candidates(sb_grater *r, const uint16_t cand[SB_CELLS],
                                const uint8_t *solution, sb_ladder_rating *out);

/* After a rating that returned SB_ERR_PLUGIN: which plug-in broke its contract and how, as
 * sb_solver_plugin_why. @return that text, valid until the next rating, or NULL. */
const char *sb_grater_plugin_why(const sb_grater *r);

/* ------------------------------------------------------------------------------------------ */
/* Generating and augmenting any geometry (docs/geometry.md)                                  */
/* ------------------------------------------------------------------------------------------ */

/* What `sudokubench generate/augment --grid` make, for any geometry (docs/geometry.md
 * "Generating and augmenting"). sb_geometry_9x9() generates as the 3x3 geometry does (the
 * 9x9 calls sb_generate and sb_transform_* draw other puzzles and transforms); a NULL
 * geometry is refused (SB_ERR_ARG).
 *
 * Puzzle i of a seed: a random full grid (a quarter of the cells given random digits their
 * peers allow, then the general solver's first solution under a small guess budget; a stuck
 * seed is redrawn), then its givens removed in a random order while one solution remains, so
 * the puzzle is unique and minimal (removing any given leaves 2+ solutions). Each check has a
 * guess budget, far above what geometries of up to 16 digits need; above (5x5, latin:36) a
 * check of a sparse grid that runs out keeps its given, and after 32 such checks the rest are
 * kept: unique still, minimal but for those givens (sb_ggenerated.undecided). Everything is a
 * function of (geometry, seed, i): thread count and call order do not change a puzzle.
 *
 * Thread rules: a geometry is shared read-only by any number of threads; an sb_ggenerator is
 * one thread's mutable state (one per thread); sb_gaugment keeps no state. */

/* A generator of unique, minimal puzzles on one geometry (one thread's state). */
typedef struct sb_ggenerator sb_ggenerator;

/* What sb_ggenerate tells of a puzzle besides its cells. */
typedef struct sb_ggenerated {
    int clues;         /* givens in the puzzle */
    uint64_t guesses;  /* sb_gsolve guesses on the puzzle with limit 2 */
    uint64_t attempts; /* candidates made for it (1 unless max_clues made some miss) */
    int undecided;     /* givens kept unchecked or with a check out of guesses (0: minimal) */
} sb_ggenerated;

/* What a generator on any geometry makes besides the defaults (sb_ggen_options_default, then
 * change fields). With the defaults a (geometry, seed, index) gives the puzzle sb_ggenerator_new
 * gives. Options change the digging only: the full grid of attempt 1 is the same.
 *
 * symmetry: the givens form a pattern kept by a symmetry of the geometry itself, so givens are
 * removed one orbit (1, 2 or 4 cells) at a time and the puzzle is minimal among symmetric ones
 * (no orbit can go). The symmetry acts on the N x N picture of a square geometry (RxC, latin,
 * x:RxC, a jigsaw) and on every plane x of a cube (its rows y and columns z); it must map
 * every house of the geometry onto a house (sb_gsymmetry_check): rot180 and mirror suit every
 * built-in grid, rot90 and diagonal need square boxes (RxR), a jigsaw only what its regions
 * allow, and a bare house list none.
 *
 * max_clues: at most this many givens (0: no bound). Digging always goes on to a minimal
 * puzzle, so a candidate whose necessary givens pass max_clues is dropped as soon as they do
 * and the next one drawn (a new full grid and order, from the same random stream), up to
 * max_attempts candidates. Below N-1 it is infeasible (two absent digits could swap). */
typedef struct sb_ggen_options {
    uint64_t seed;         /* puzzle i is a function of (geometry, seed, i, options) */
    int symmetry;          /* an sb_symmetry of the clue pattern (default SB_SYM_NONE) */
    int max_clues;         /* at most this many givens, N-1..cells (default 0: any) */
    uint64_t max_attempts; /* candidates per index before giving up (default 100000) */
} sb_ggen_options;

/* Sets the defaults (see the field comments). NULL opt: nothing. */
void sb_ggen_options_default(sb_ggen_options *opt);

/* Checks that symmetry sym suits geometry g (every sb_symmetry suits sb_geometry_9x9()).
 * @return SB_OK; SB_ERR_ARG with why, e.g. "rot90 does not suit 2x3: it maps house 12
 * onto cells that are no house" or "houses:16:4 has no grid picture for rot180 to act on (a
 * bare house list)". */
int sb_gsymmetry_check(const sb_geometry *g, int sym, char *why, size_t whylen);

/* Creates a generator for geometry g (g must outlive it) and seed. Checks that g
 * has a full grid: its empty grid is solved under a small guess budget, which settles every
 * small geometry; one too hard to settle there is bounded by sb_ggenerate instead.
 * @param why  receives the reason on failure (whylen bytes, e.g. SB_GEO_WHY_LEN; may be NULL)
 * @return SB_OK with *out set; SB_ERR_ARG for NULL out, or with why "NAME has no full grid
 * ..." when no solution grid exists (x:1x2, a jigsaw whose regions cannot all be filled);
 * SB_ERR_NOMEM. */
int sb_ggenerator_new(const sb_geometry *g, uint64_t seed, sb_ggenerator **out, char *why,
                      size_t whylen);

/* Creates a generator for geometry g with options opt (NULL: the defaults; seed
 * 0), as sb_ggenerator_new. @return as sb_ggenerator_new; also SB_ERR_ARG with why for a
 * symmetry sb_gsymmetry_check refuses, max_clues above the cells or below N-1 (no puzzle has
 * one solution there), or max_attempts 0. */
int sb_ggenerator_new_opts(const sb_geometry *g, const sb_ggen_options *opt,
                           sb_ggenerator **out, char *why, size_t whylen);

/* Frees a generator (NULL is allowed). */
void sb_ggenerator_free(sb_ggenerator *gen);

/* Makes later sb_ggenerate calls poll *stop (a flag a signal handler or another thread
 * raises; NULL: none, the default) before every solver call (between random fills and
 * between the uniqueness checks of the digging) and inside each, as sb_gsolver_stop. NULL gen:
 * nothing. */
void sb_ggenerator_stop(sb_ggenerator *gen, const volatile sig_atomic_t *stop);

/* Makes later sb_ggenerate calls solve at SIMD level (an sb_simd value; SB_SIMD_AUTO, the
 * default: the best this CPU runs). Every level makes the same puzzles. @return SB_OK;
 * SB_ERR_SIMD for a level this CPU lacks (the generator keeps its level); SB_ERR_ARG for NULL
 * gen; SB_ERR_NOMEM. */
int sb_ggenerator_simd(sb_ggenerator *gen, int level);

/* @return the generator's geometry (the 3x3 one it made when given NULL); NULL for NULL gen. */
const sb_geometry *sb_ggenerator_geometry(const sb_ggenerator *gen);

enum {
    SB_GGEN_MISSED = 1 /* sb_ggenerate: no candidate met max_clues in max_attempts */
};

/* Makes puzzle number index of the generator's seed into puzzle (sb_geometry_cells bytes) and
 * its solution into solution (may be NULL); info (may be NULL) gets its clues, guesses and
 * attempts. @return SB_OK; SB_GGEN_MISSED when max_attempts candidates all had more than
 * max_clues necessary givens (the outputs then hold the last candidate, a proper minimal
 * puzzle); SB_ERR_ARG for NULL gen or puzzle; SB_ERR_STOPPED when the stop flag was raised;
 * SB_ERR_BUDGET when 100000 random fills in a row found no full grid (a geometry
 * sb_ggenerator_new could not settle, which likely has none); SB_ERR_NOMEM. On an error the
 * outputs are untouched. */
int sb_ggenerate(sb_ggenerator *gen, uint64_t index, uint8_t *puzzle, uint8_t *solution,
                 sb_ggenerated *info);

/* Writes in (sb_geometry_cells bytes of g) transformed into out (not aliasing in):
 * its digits relabelled, then a random symmetry of the geometry applied, both drawn from
 * (seed, index) only: bands, rows in bands, stacks, columns in stacks and a transpose when the
 * boxes are square (RxC); any rows and columns and a transpose (latin); mirrors and a transpose
 * (x:RxC); coordinate orders per axis and an axis order (cube); none for a jigsaw or a house
 * list (digits only). The transform depends on (g, seed, index), not on in: the same call on a
 * puzzle's solution gives the transformed puzzle's solution, and the solution count is kept.
 * What `sudokubench augment --grid` writes as line index. @return SB_OK; SB_ERR_ARG for NULL
 * or overlapping arrays or a cell above N. */
int sb_gaugment(const sb_geometry *g, uint64_t seed, uint64_t index, const uint8_t *in,
                uint8_t *out);

/* The batch calls on any geometry, as the 9x9 ones above (one OpenMP team of `threads`, 0:
 * every core; sb_threads_check first; arrays of sb_geometry_cells(g) bytes per row; row i from
 * item i alone, so the same for any thread count). *stop (NULL: never) is polled as
 * sb_ggenerator_stop says (generate) or every 64 rows (augment); once it is raised the rows
 * not finished are left untouched and the call returns SB_ERR_STOPPED. */

/* Makes puzzles first .. first+n-1 of (g, seed) (sb_ggenerate) into puzzles, and when not NULL
 * their solutions and guess counts. @return SB_OK; SB_ERR_ARG for a NULL array, indices passing
 * UINT64_MAX, n rows whose bytes would pass SIZE_MAX or what sb_ggenerator_new refuses (call it
 * for the reason: a geometry with no full grid); SB_ERR_THREADS (errno set; nothing made);
 * SB_ERR_STOPPED; SB_ERR_BUDGET when some row found no full grid (that row untouched);
 * SB_ERR_NOMEM. */
int sb_ggenerate_batch(const sb_geometry *g, uint64_t seed, uint64_t first, size_t n,
                       int threads, uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                       const volatile sig_atomic_t *stop);

/* sb_ggenerate_batch with options (NULL: the defaults, seed 0). @return as sb_ggenerate_batch;
 * SB_ERR_ARG also for what sb_ggenerator_new_opts refuses (call it for the reason);
 * SB_ERR_BUDGET also when some row met no max_clues in max_attempts (that row holds the last
 * candidate, as sb_ggenerate). */
int sb_ggenerate_batch_opts(const sb_geometry *g, const sb_ggen_options *opt, uint64_t first,
                            size_t n, int threads, uint8_t *puzzles, uint8_t *solutions,
                            uint64_t *guesses, const volatile sig_atomic_t *stop);

/* Writes n augmented puzzles into out: row i is input puzzle (first+i) mod n_in of in under
 * the transform sb_gaugment draws for index first+i. @return SB_OK; SB_ERR_ARG for NULL
 * arrays, n_in 0, an input cell above N, indices passing UINT64_MAX or n or n_in rows whose
 * bytes would pass SIZE_MAX; SB_ERR_THREADS (errno
 * set; nothing written); SB_ERR_STOPPED. */
int sb_gaugment_batch(const sb_geometry *g, const uint8_t *in, size_t n_in, uint64_t seed,
                      uint64_t first, size_t n, int threads, uint8_t *out,
                      const volatile sig_atomic_t *stop);

/* ------------------------------------------------------------------------------------------ */
/* Benchmark sets: the measurement of `sudokubench bench` (src/engine/bench_api.c)                   */
/* ------------------------------------------------------------------------------------------ */

/* A benchmark set: the puzzles of one geometry held compactly (9x9 two cells a byte) and the
 * solvers of one row, one per thread. One thread uses a set at a time. */
typedef struct sb_bench sb_bench;

/* What the warm-up pass of a row found (sb_bench_warm). */
typedef struct sb_bench_warmup {
    uint64_t guesses;     /* guesses over the pass */
    uint64_t no_guess;    /* puzzles solved without a guess */
    uint64_t verdicts[3]; /* puzzles per sb_verdict */
    uint64_t paired;      /* puzzles the pass handed to a paired kernel (sb_solver_paired):
                             what the row's pair policy chose; 0 where none exists */
    size_t wrong;         /* the first puzzle whose first solution broke the givens or the
                             rules (on another geometry: or whose engine ran out of memory);
                             sb_bench_size when none */
    sb_technique_counts counts[SB_TECH_COUNT]; /* technique work of the row's solvers */
    sb_technique_counts plugin_counts[SB_TECH_PLUGINS]; /* that of its technique plug-ins
                             (sb_options.techniques, in that order) */
    char why[SB_PLUGIN_WHY]; /* when a technique plug-in broke its contract on the puzzle
                             wrong: which, and how (the cell and digit of an elimination that
                             removed fast's solution); else "" */
} sb_bench_warmup;

/* Makes an empty set for geometry g (g must outlive it; sb_geometry_9x9(): packed 9x9).
 * @return SB_OK or SB_ERR_NOMEM (*out NULL); SB_ERR_ARG for NULL out or g. */
int sb_bench_new(const sb_geometry *g, sb_bench **out);

/* Frees a set and its solvers (NULL allowed). */
void sb_bench_free(sb_bench *b);

/* Appends a puzzle of sb_geometry_cells cells (9x9: SB_CELLS). @return SB_OK or SB_ERR_NOMEM;
 * SB_ERR_ARG for NULL b or cells, or a cell above N (9x9: 9). */
int sb_bench_add(sb_bench *b, const uint8_t *cells);

/* @return the puzzles the set holds (0 for NULL). */
size_t sb_bench_size(const sb_bench *b);

/* Keeps the first n puzzles (nothing to do when it holds no more, or for NULL b). */
void sb_bench_truncate(sb_bench *b, size_t n);

/* Copies puzzle i into cells (sb_geometry_cells bytes; 9x9: SB_CELLS). NULL b or cells, or i
 * not below sb_bench_size: cells untouched. */
void sb_bench_puzzle(const sb_bench *b, size_t i, uint8_t *cells);

/* Appends a puzzle as sb_bench_add, with the sb_gform its line was written in (kept on other
 * geometries) and its input line (0: none; kept from the first non-zero one on, so a set read
 * in parts by several processes can place its puzzles in the whole file). @return as
 * sb_bench_add; SB_ERR_ARG also for a form that is no sb_gform on another geometry (9x9
 * keeps no form and ignores it). */
int sb_bench_add_at(sb_bench *b, const uint8_t *cells, int form, uint64_t line);

/* Writes puzzle i as text in the form it was written in (9x9: 81 characters) into text (cap
 * bytes), NUL-terminated. @return its length, or 0 with text "" when it does not fit, b is NULL
 * or i is not below sb_bench_size (0 and text untouched for NULL text). */
size_t sb_bench_text(const sb_bench *b, size_t i, char *text, size_t cap);

/* @return the sb_gform puzzle i was written in (sb_bench_add_at; 9x9: SB_GFORM_CHARS);
 * SB_ERR_ARG for NULL b or i not below sb_bench_size. */
int sb_bench_form(const sb_bench *b, size_t i);

/* @return puzzle i's input line (sb_bench_add_at), 0 when the set keeps none (or for NULL b
 * or i not below sb_bench_size). */
uint64_t sb_bench_line(const sb_bench *b, size_t i);

/* @return the puzzles whose input line is below line (lines rising in the set; 0 when the set
 * keeps none, or for NULL b). */
size_t sb_bench_before(const sb_bench *b, uint64_t line);

/* Makes the row's solvers for *opt (its stop flag polled by both passes), one per thread
 * (threads >= 1; check the team with sb_threads_check). @return SB_OK, or what sb_solver_new
 * (9x9) or sb_engine_new returns, the set then unprepared (as before the first call);
 * SB_ERR_ARG for NULL b or opt or threads < 1 (the set left as it was). */
int sb_bench_prepare(sb_bench *b, const sb_options *opt, int threads);

/* @return the SIMD level the prepared row runs; SB_ERR_ARG for NULL b or an unprepared set. */
int sb_bench_simd(const sb_bench *b);

/* Solves every puzzle once on the row's threads, each first solution checked: verdicts[i]
 * (sb_bench_size bytes) gets puzzle i's sb_verdict, *out the pass's figures. @return SB_OK;
 * SB_ERR_STOPPED once the stop flag was raised (some verdicts unset); SB_ERR_NOMEM; SB_ERR_ARG
 * for NULL b or out, NULL verdicts with puzzles in the set, or an unprepared set. */
int sb_bench_warm(sb_bench *b, uint8_t *verdicts, sb_bench_warmup *out);

/* Times whole passes over the set without checks until min_seconds have elapsed (at least
 * one pass): *passes and *seconds (monotonic clock). @return SB_OK; SB_ERR_STOPPED once the
 * stop flag was raised (a cut pass is no measurement); SB_ERR_NOMEM; SB_ERR_ARG for NULL
 * arguments, an unprepared set, or min_seconds NaN or outside 0..SB_BENCH_MAX_SECONDS. */
int sb_bench_time(sb_bench *b, double min_seconds, uint64_t *passes, double *seconds);

enum { SB_BENCH_MAX_SECONDS = 1000000 /* most seconds sb_bench_time takes (about 11.6 days) */ };

#ifdef __cplusplus
}
#endif

#endif /* SB_EXPERT && !SUDOKUBENCH_H_EXPERT */
