/*
 * sudokubench_plugin.h — the ABI of sudokubench's plug-ins, and their manual.
 *
 * A plug-in puts your solver, or your technique, into sudokubench's harness: the same
 * corpora, the same verdict cross-check against the built-in solvers, the same tables, JSON
 * and perf gate. It is a shared object with one entry symbol; this header is all it needs (it
 * does not include sudokubench.h, and a plug-in links nothing of sudokubench). There are two
 * kinds: a solver plug-in (sb_plugin_entry, below) is a row of its own; a technique plug-in
 * (sb_plugin_technique_entry, at the end) is a step of the built-in pipelines.
 *
 * Quick start (examples/plugins/naive.c is a whole one):
 *
 *     #include <sudokubench_plugin.h>
 *
 *     static void *create(const sb_plugin_geometry *g) { ... one thread's state ... }
 *     static void destroy(void *state) { ... }
 *     static int64_t solve(void *state, const sb_plugin_call *call) { ... }
 *
 *     SB_PLUGIN_EXPORT const sb_plugin_solver *sb_plugin_entry(void)
 *     {
 *         static const sb_plugin_solver me = {
 *             .abi = SB_PLUGIN_ABI, .name = "mysolver", .about = "what it does",
 *             .accepts = NULL, .create = create, .destroy = destroy, .solve = solve};
 *         return &me;
 *     }
 *
 *     cc -O2 -fPIC -shared $(pkg-config --cflags sudokubench) mysolver.c -o mysolver.so
 *     sudokubench bench --plugin ./mysolver.so FILE      # rows "fast" and "mysolver"
 *     sudokubench solve --plugin ./mysolver.so -s mysolver FILE
 *
 * Contract
 *   - Cells are row-major bytes, 0 for a blank, 1..digits for a given. A solution is cells
 *     bytes, every cell 1..digits.
 *   - solve() counts solutions up to call->limit (0: all of them) and, when call->solution is
 *     not NULL, writes one of them there (the first it finds, say). It returns the count (0 = no solution), or a negative
 *     SB_PLUGIN_* code. It must not keep pointers into call after it returns.
 *   - Every answer is checked by the harness: a solution that breaks the rules or the givens,
 *     or a count that disagrees with the built-in solvers' verdict (0, 1, 2+), ends bench
 *     with exit 2 and a message naming the plug-in and the puzzle.
 *   - Threads: the harness calls create() once per worker thread and gives each state to one
 *     thread at a time; solve() must be safe to run on different states at once (no mutable
 *     globals), unless flags has SB_PLUGIN_ONE_THREAD: then the whole run is on one thread.
 *     create() and destroy() may run on any thread.
 *   - Long searches: poll call->stop (non-zero: return SB_PLUGIN_STOPPED) and honour
 *     call->max_guesses (more guesses needed: return SB_PLUGIN_BUDGET), as the built-in
 *     solvers do. A plug-in that reports more guesses than the budget it was given is named
 *     as over budget.
 *
 * Isolation: a plug-in runs in the harness's process, in the worker threads, called
 * directly: a call costs what a call to a built-in costs, so a plug-in's row measures the
 * solver, not the harness. In exchange a plug-in can break the process: the program names the
 * plug-in that was running when SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT came, and exits 2.
 * A plug-in that ignores call->stop is ended by the second Ctrl-C (docs/plugins.md).
 */
#ifndef SUDOKUBENCH_PLUGIN_H
#define SUDOKUBENCH_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version a plug-in is built for: the harness refuses any other. It changes when a
 * struct below changes layout or meaning. */
#define SB_PLUGIN_ABI 1

/* The one symbol the harness looks up: a function returning the plug-in's description. */
#define SB_PLUGIN_ENTRY "sb_plugin_entry"

#if defined(__GNUC__)
#define SB_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SB_PLUGIN_EXPORT
#endif

/* What solve() returns besides a count, and step() besides a number of patterns. */
enum {
    SB_PLUGIN_FAILED = -1,  /* the plug-in could not solve (its own failure, e.g. memory) */
    SB_PLUGIN_BUDGET = -2,  /* the search needed more than call->max_guesses guesses */
    SB_PLUGIN_STOPPED = -3, /* *call->stop was raised: the search was abandoned */
    SB_PLUGIN_CONTRADICTION = -4 /* step(): the board has no solution (a technique that sees
                                    it may say so; removing every candidate of a cell is the
                                    same answer) */
};

/* sb_plugin_solver.flags. */
enum {
    SB_PLUGIN_ONE_THREAD = 1u /* solve() keeps global state (as a solver written as a global
                                 object does): the harness runs it on one thread only */
};

/* The grid a state is made for. 9x9 Sudoku is cells 81, digits 9, houses 27, boxes 3x3. */
typedef struct sb_plugin_geometry {
    uint32_t cells;             /* cells in the grid (digits * digits) */
    uint32_t digits;            /* digits 1..digits, also cells per house */
    uint32_t houses;            /* houses: rows, then columns, then the regions */
    uint32_t box_rows, box_cols; /* a box's size when the regions are boxes (3, 3 on 9x9);
                                    0, 0 when they are irregular (jigsaw) */
    const uint16_t *house_cells; /* houses * digits cell numbers, house by house, ascending */
} sb_plugin_geometry;

/* One solve request. */
typedef struct sb_plugin_call {
    const uint8_t *cells;   /* the puzzle: cells bytes, 0 = blank */
    uint64_t limit;         /* count at most this many solutions; 0: all */
    uint64_t max_guesses;   /* guess budget (UINT64_MAX: none) */
    const volatile int *stop; /* non-NULL and non-zero: stop now (may be NULL) */
    uint8_t *solution;      /* out: the first solution found, cells bytes; NULL when the
                               caller wants the count alone (bench's timed passes) */
    uint64_t guesses;       /* out: guesses made (a branch taken beyond the first choice,
                               or any measure the plug-in documents; shown per puzzle) */
} sb_plugin_call;

/* What sb_plugin_entry() returns: static, read-only data. */
typedef struct sb_plugin_solver {
    uint32_t abi;          /* SB_PLUGIN_ABI */
    uint32_t flags;        /* SB_PLUGIN_ONE_THREAD, or 0 */
    const char *name;      /* the row's name: 1-31 of [a-z0-9_-], not a built-in pipeline's */
    const char *about;     /* one line for --help and listings */
    /* 1 when the plug-in solves this grid, else 0. NULL: 9x9 Sudoku only. */
    int (*accepts)(const sb_plugin_geometry *g);
    /* One worker's state for grid g (g stays valid until destroy). NULL: failure. */
    void *(*create)(const sb_plugin_geometry *g);
    void (*destroy)(void *state);
    /* Solves call->cells: the count, or a negative SB_PLUGIN_* code. */
    int64_t (*solve)(void *state, sb_plugin_call *call);
} sb_plugin_solver;

/* The entry symbol's type. */
typedef const sb_plugin_solver *(*sb_plugin_entry_fn)(void);

/*
 * Technique plug-ins
 *
 * A technique plug-in is one elimination rule. Loaded with --plugin, its name is a technique
 * token like "xw" or "nt2": it runs in any order of the generic pipelines on any geometry it
 * accepts ("restart:ns,hs,lc,NAME", "list:ns,hs,NAME"), and on 9x9 inside the fused kernel
 * ("fast+NAME", asked whenever the kernel's own propagation stalls). Its work is counted as
 * a built-in's: calls, patterns found, eliminations, and cells left with one candidate.
 *
 *     static int64_t step(void *state, const uint64_t *cand, uint64_t *eliminate) { ... }
 *
 *     SB_PLUGIN_EXPORT const sb_plugin_technique *sb_plugin_technique_entry(void)
 *     {
 *         static const sb_plugin_technique me = {
 *             .abi = SB_PLUGIN_ABI, .name = "myxw", .about = "X-wing, plainly",
 *             .create = create, .destroy = destroy, .step = step};
 *         return &me;
 *     }
 *
 *     sudokubench bench --plugin ./myxw.so --pipelines fast,fast+myxw,restart:ns,hs,myxw FILE
 *
 * Contract
 *   - cand holds one mask per cell (g->cells of them): bit d-1 set when digit d may still go
 *     there. A cell with one bit is known; it may be a given, a placement or a cell the
 *     search chose. eliminate holds as many masks, all zero on entry: set the digits to
 *     remove from each cell. Bits outside cand[c] are ignored. A placement is the removal of
 *     a cell's other candidates.
 *   - step() returns the number of patterns it found (0 when it found nothing: then
 *     eliminate must stay zero), SB_PLUGIN_CONTRADICTION, or SB_PLUGIN_FAILED.
 *   - An elimination must hold in every solution of the board it was given: a technique
 *     never removes a digit that some solution puts in that cell. The harness checks this in
 *     bench's warm-up pass against the built-in solver's solution, and a breach ends the run
 *     with exit 2, naming the plug-in, the puzzle, the cell and the digit.
 *   - step() is called often (at every stall of every search node): keep it allocation-free.
 *     Threads, create(), destroy(), accepts() and SB_PLUGIN_ONE_THREAD are as for a solver.
 */

/* The other entry symbol: a function returning a technique plug-in's description. A shared
 * object exports one of the two entries. */
#define SB_PLUGIN_TECHNIQUE_ENTRY "sb_plugin_technique_entry"

/* What sb_plugin_technique_entry() returns: static, read-only data. */
typedef struct sb_plugin_technique {
    uint32_t abi;          /* SB_PLUGIN_ABI */
    uint32_t flags;        /* SB_PLUGIN_ONE_THREAD, or 0 */
    const char *name;      /* the technique's token: 1-31 of [a-z0-9_-], no built-in's name */
    const char *about;     /* one line for --help and listings */
    /* 1 when the technique works on this grid, else 0. NULL: 9x9 Sudoku only. */
    int (*accepts)(const sb_plugin_geometry *g);
    /* One worker's state for grid g (g stays valid until destroy); NULL create: no state
       (step then gets NULL). */
    void *(*create)(const sb_plugin_geometry *g);
    void (*destroy)(void *state);
    /* One pass of the rule over cand: patterns found (>= 0) with their eliminations in
       eliminate, or a negative SB_PLUGIN_* code. */
    int64_t (*step)(void *state, const uint64_t *cand, uint64_t *eliminate);
} sb_plugin_technique;

/* The technique entry symbol's type. */
typedef const sb_plugin_technique *(*sb_plugin_technique_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* SUDOKUBENCH_PLUGIN_H */
