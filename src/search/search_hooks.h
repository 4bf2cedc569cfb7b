/*
 * search_hooks.h — the contract between src/search/search.h's search and a stamp of it (the fused
 * 9x9 kernels through src/kernel/entries.h, src/technique/pipeline.c, src/geometry/general.c,
 * src/geometry/gpipeline.c and src/box16/box16_kernel.h): the three macros the includer defines
 * before including search.h, and the hooks it defines (before or after the include), declared
 * here with their types. Included at the top of search.h, so a stamp without one of the
 * macros stops at an #error naming it, a hook written with another signature is a conflicting
 * declaration, and a hook left out is a call to a static function that nothing defines (GCC:
 * "used but never defined"; clang: -Wundefined-internal; the link fails either way).
 *
 * Macros:
 *   SB_SEARCH_CTX   the hook context type (complete): what every hook receives as x
 *   SRCH_BOARD      the type a board is made of: the whole board on 9x9 (sb_board, one object
 *                   per stack level), or its element on a geometry (uint64_t words,
 *                   b16_v16 rows: a run of them per level, which srch_at and srch_push place)
 *   SRCH_MASK       the candidate mask type: an unsigned integer type of at most 64 bits, bit
 *                   d-1 = digit d
 *
 * Hooks (b is a board: its first SRCH_BOARD; c a cell; d one digit's bit):
 *   int srch_solved(SB_SEARCH_CTX *x, const SRCH_BOARD *b)
 *       1 when b is a complete solution
 *   int srch_choose(SB_SEARCH_CTX *x, const SRCH_BOARD *b, uint64_t guesses)
 *       the branching cell: among the unassigned cells with the fewest candidates, the best by
 *       the engine's score (open peers sharing a digit), the first in cell order on a tie; a
 *       stamp run with singles = 1 may return a cell with one candidate (taken, not guessed).
 *       guesses: those the search has made so far (0 from the breadth-first search): the fast
 *       kernels branch on a line pair instead once a puzzle has taken SBL_AFTER of them
 *       (src/kernel/line.h), and may then choose the digit as well, for srch_first
 *   SRCH_MASK srch_first(SB_SEARCH_CTX *x, const SRCH_BOARD *b, int cell, SRCH_MASK m)
 *       the digit the search tries first at the branching cell, whose candidates m are two or
 *       more: the digit srch_choose chose with the cell (a fast kernel's line pair), else the
 *       one held by the most of its peers, the lowest on a tie (the most
 *       constraining guess: on a puzzle with several solutions it reaches a second sooner);
 *       on geometries of more than SB_GSEARCH_MOST_DIGITS digits the lowest (gsearch.h)
 *   int srch_take(SB_SEARCH_CTX *x, SRCH_BOARD *b, int cell, SRCH_MASK digit)
 *       assign digit to cell and propagate; 0 on contradiction
 *   int srch_drop(SB_SEARCH_CTX *x, SRCH_BOARD *b, int cell, SRCH_MASK digit)
 *       remove digit from cell and propagate; 0 on contradiction
 *   SRCH_MASK srch_cell(SB_SEARCH_CTX *x, const SRCH_BOARD *b, int cell)
 *       the candidate mask of cell: a kernel whose board layout is not cell-major
 *       (digit-major bitboards) converts here; the search reads cells only through it
 *   SRCH_BOARD *srch_at(SB_SEARCH_CTX *x, size_t depth)
 *       the board of stack level depth (level 0: the root, loaded by the stamp)
 *   SRCH_BOARD *srch_push(SB_SEARCH_CTX *x, size_t depth)
 *       copies level depth's board to level depth + 1 (growing the stack if it must) and
 *       returns that copy; NULL when out of memory
 *   void srch_solution(SB_SEARCH_CTX *x, const SRCH_BOARD *b, uint8_t *out)
 *       writes solved board b's digits to out, one byte per cell (search.h's
 *       srch_cells_digits does it through srch_cell; a kernel whose layout has a faster way
 *       writes them itself)
 */
#ifndef SB_SEARCH_HOOKS_H
#define SB_SEARCH_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#ifndef SB_SEARCH_CTX
#error "a search.h stamp must define SB_SEARCH_CTX, its hook context type (search_hooks.h)"
#endif
#ifndef SRCH_BOARD
#error "a search.h stamp must define SRCH_BOARD, the type its boards are made of (search_hooks.h)"
#endif
#ifndef SRCH_MASK
#error "a search.h stamp must define SRCH_MASK, its candidate mask type (search_hooks.h)"
#endif

_Static_assert((SRCH_MASK)-1 > 0 && (SRCH_MASK)0.5 == 0,
               "SRCH_MASK must be an unsigned integer type");
_Static_assert(sizeof(SRCH_MASK) <= sizeof(unsigned long long),
               "SRCH_MASK must fit the 64-bit bit scans of search.h");
_Static_assert(sizeof(SB_SEARCH_CTX) > 0 && sizeof(SRCH_BOARD) > 0,
               "SB_SEARCH_CTX and SRCH_BOARD must be complete types");

static int srch_solved(SB_SEARCH_CTX *x, const SRCH_BOARD *b);
static int srch_choose(SB_SEARCH_CTX *x, const SRCH_BOARD *b, uint64_t guesses);
static SRCH_MASK srch_first(SB_SEARCH_CTX *x, const SRCH_BOARD *b, int cell, SRCH_MASK m);
static int srch_take(SB_SEARCH_CTX *x, SRCH_BOARD *b, int cell, SRCH_MASK digit);
static int srch_drop(SB_SEARCH_CTX *x, SRCH_BOARD *b, int cell, SRCH_MASK digit);
static SRCH_MASK srch_cell(SB_SEARCH_CTX *x, const SRCH_BOARD *b, int cell);
static SRCH_BOARD *srch_at(SB_SEARCH_CTX *x, size_t depth);
static SRCH_BOARD *srch_push(SB_SEARCH_CTX *x, size_t depth);
static void srch_solution(SB_SEARCH_CTX *x, const SRCH_BOARD *b, uint8_t *out);

#endif /* SB_SEARCH_HOOKS_H */
