/*
 * tdoku.c — tdoku's solver as a sudokubench plug-in, for a same-harness comparison. No tdoku
 * code is in this tree: scripts/measure/tdoku-plugin.sh compiles this shim with tdoku's own sources
 * from ../shared/peers into one shared object, at the flags tdoku's build uses (-O3 and the
 * level's -m flags).
 *
 *   scripts/measure/tdoku-plugin.sh build/peers native      # prints .../tdoku-plugin-native.so
 *   sudokubench bench --plugin build/peers/tdoku-plugin-native.so -t 1 FILE
 *
 * tdoku's guesses are its own measure (its num_guesses). It cannot be stopped or given a
 * budget inside a call: a puzzle that needs more guesses than the budget is reported as
 * over budget after the call.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <sudokubench_plugin.h>

/* tdoku's entry point (tdoku's include/tdoku.h): puzzle text of 81 characters, '.' for a
 * blank. Configuration 0 is the row its own benchmark calls "tdoku", which counts and keeps
 * no solution; limit 1 (or another configuration) runs the same search keeping the
 * limit-th solution. */
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

static void *create(const sb_plugin_geometry *g)
{
    (void)g;
    /* the puzzle's text, its end, then the solution's text: tdoku reads the byte after the
     * 81 cells to tell a puzzle from a pencilmark grid (729 characters), so it must be NUL */
    char *text = malloc(82 + 81);
    if (text)
        text[81] = '\0';
    return text;
}

static void destroy(void *state)
{
    free(state);
}

static int64_t solve(void *state, sb_plugin_call *call)
{
    char *text = state, *sol = text + 82;
    /* through a local pointer, so the compiler knows text cannot change it: the loop then
     * runs as a few vector blends instead of 81 reloads and branches on random blanks */
    const uint8_t *cells = call->cells;
    for (int c = 0; c < 81; c++)
        text[c] = (char)(cells[c] ? '0' + cells[c] : '.');
    size_t guesses = 0;
    const size_t n = TdokuSolverDpllTriadSimd(text, call->limit ? (size_t)call->limit : SIZE_MAX,
                                              0, sol, &guesses);
    call->guesses = guesses;
    if (call->guesses > call->max_guesses) {
        call->guesses = call->max_guesses;
        return SB_PLUGIN_BUDGET;
    }
    if (!call->solution || !n)
        return (int64_t)n;
    /* the count kept no solution: a caller that wants one (a checked pass, the solve
     * command; never bench's timed passes) gets a second call at limit 1, which keeps it */
    size_t more = 0;
    TdokuSolverDpllTriadSimd(text, 1, 0, sol, &more);
    for (int c = 0; c < 81; c++)
        call->solution[c] = (uint8_t)(sol[c] - '0');
    return (int64_t)n;
}

SB_PLUGIN_EXPORT const sb_plugin_solver *sb_plugin_entry(void)
{
    static const sb_plugin_solver me = {
        .abi = SB_PLUGIN_ABI,
        .flags = SB_PLUGIN_ONE_THREAD, /* tdoku's solvers are global objects */
        .name = "tdoku",
        .about = "tdoku's DPLL triad SIMD solver, built from ../shared/peers",
        .accepts = NULL, /* 9x9 only */
        .create = create,
        .destroy = destroy,
        .solve = solve,
    };
    return &me;
}
