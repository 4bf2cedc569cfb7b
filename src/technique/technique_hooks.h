/*
 * technique_hooks.h — the contract between the technique headers (technique_base.h,
 * technique_board.h, technique.h) and a stamp of them (src/technique/pipeline.c for 9x9,
 * src/geometry/gpipeline.c for any geometry): the macros the includer defines before
 * including technique.h, what each must give, and the checks the compiler makes of them.
 * Included at the top of technique_base.h, so every stamp passes through it first: a missing
 * macro stops the build with an #error naming it, and a macro of the wrong type fails a
 * _Static_assert, before any technique is compiled.
 *
 * The includer defines (x is a TQ_CTX *, b a TQ_BOARD *; int unless said otherwise):
 *   TQ_MASK                   candidate mask type: an unsigned integer type of at least
 *                             TQ_NMAX bits (bit d-1 = digit d)
 *   TQ_CELL                   cell index type of the tables: an unsigned integer type that
 *                             holds every index below TQ_CELLS_MAX
 *   TQ_CTX                    the hook context (a complete type)
 *   TQ_BOARD                  the board type (sb_board on 9x9, uint64_t words otherwise)
 *   TQ_NMAX                   most digits a house has (sizes the tuple scratch arrays; at
 *                             most 64: a house's positions are one uint64_t)
 *   TQ_CELLS_MAX              most cells a board has
 *   TQ_N(x), TQ_ALL(x)        digits (= cells per house) and the mask of all of them
 *   TQ_NCELLS(x), TQ_NHOUSES(x)
 *   TQ_HOUSE(x, h)            TQ_CELL * (const or not, as the other cell tables): the cells
 *                             of house h
 *   TQ_GROUP_END(x, h0)       one past the last house of the run of pairwise disjoint houses
 *                             starting at h0 (the unit of a sweep and of a list snapshot)
 *   TQ_PEERS(x, c), TQ_NPEERS(x, c)  the peers of cell c (const TQ_CELL *) and how many
 *   TQ_EMASK(x)               TQ_MASK *: per cell, the digits scheduled to leave it
 *   TQ_ETOUCHED(x)            uint64_t *: bit c set while TQ_EMASK(x)[c] may be non-zero
 *   TQ_EWORDS(x)              the words of TQ_ETOUCHED(x) (and of a cell bitset)
 *   TQ_SNAP(x)                TQ_MASK *: the list order's snapshot (ncells masks)
 *   TQ_COUNTS(x)              sb_technique_counts *: SB_TECH_SLOTS counters the work is
 *                             credited to
 *   TQ_LP_BEGIN(x, h), TQ_LP_END(x, h)  the locked-candidates partner indices of house h
 *   TQ_LP_BASE(x), TQ_LP_AT(x, j, i)    partner j's run (TQ_LP_BASE: TQ_CELL *):
 *                             TQ_LP_BASE(x)[TQ_LP_AT(x, j, 0) .. TQ_LP_AT(x, j, 1)) the shared
 *                             cells, .. TQ_LP_AT(x, j, 2) h's others, .. TQ_LP_AT(x, j, 3) the
 *                             partner's others
 *   TQ_POPCOUNT(m)            int: bits of a mask (digits, or positions in a house)
 *   TQ_HALT(x)                1 when the running solve must stop (polled before each sweep
 *                             of tq_plan(.., poll = 1)); 0 on a stamp that never polls
 *   TQ_CAND(b)                TQ_MASK *: the candidates of board b
 *   TQ_ASSIGNED(x, b, c)      1 once cell c of b is assigned
 *   TQ_MARK(x, b, c)          marks cell c of b assigned and counts it
 *   TQ_EXT(x)                 sb_tech_ext *: the thread's technique plug-ins (read only when
 *                             a plan has a step SB_TECH_COUNT + k)
 * and, for the whole-board techniques (technique_board.h):
 *   TQ_LINES(x)               1 when the geometry has two crossing families of lines (every
 *                             line of one meets every line of the other in exactly one cell:
 *                             rows and columns), else 0 (fish, sky and kite then find nothing)
 *   TQ_LINE0(x, f)            first house of family f (0 rows, 1 columns); N houses follow
 *   TQ_LINE_OF(x, f, c)       the index (0..N-1) of family f's line through cell c
 *   TQ_WORK(x, w)             declares `tq_work w`: int scratch of TQ_IWORK_INTS(x) and two
 *                             zeroed peer bitsets of TQ_EWORDS(x) words each
 *
 * What is checked: each macro is defined; TQ_MASK and TQ_CELL are unsigned integer types wide
 * enough for their bounds; TQ_CTX is complete; every table and buffer hook gives a pointer to
 * the element type above, and every count or index hook an int (by _Generic, which takes an
 * array hook as the pointer it decays to; cell tables may be const). TQ_N, TQ_ALL,
 * TQ_EWORDS, TQ_MARK and TQ_WORK are checked where they are used.
 */
#ifndef SB_TECHNIQUE_HOOKS_H
#define SB_TECHNIQUE_HOOKS_H

#include <limits.h>
#include <stdint.h>

#include "internal.h"

#ifndef TQ_MASK
#error "a technique.h stamp must define TQ_MASK (technique_hooks.h)"
#endif
#ifndef TQ_CELL
#error "a technique.h stamp must define TQ_CELL (technique_hooks.h)"
#endif
#ifndef TQ_CTX
#error "a technique.h stamp must define TQ_CTX (technique_hooks.h)"
#endif
#ifndef TQ_BOARD
#error "a technique.h stamp must define TQ_BOARD (technique_hooks.h)"
#endif
#ifndef TQ_NMAX
#error "a technique.h stamp must define TQ_NMAX (technique_hooks.h)"
#endif
#ifndef TQ_CELLS_MAX
#error "a technique.h stamp must define TQ_CELLS_MAX (technique_hooks.h)"
#endif
#ifndef TQ_N
#error "a technique.h stamp must define TQ_N(x) (technique_hooks.h)"
#endif
#ifndef TQ_ALL
#error "a technique.h stamp must define TQ_ALL(x) (technique_hooks.h)"
#endif
#ifndef TQ_NCELLS
#error "a technique.h stamp must define TQ_NCELLS(x) (technique_hooks.h)"
#endif
#ifndef TQ_NHOUSES
#error "a technique.h stamp must define TQ_NHOUSES(x) (technique_hooks.h)"
#endif
#ifndef TQ_HOUSE
#error "a technique.h stamp must define TQ_HOUSE(x, h) (technique_hooks.h)"
#endif
#ifndef TQ_GROUP_END
#error "a technique.h stamp must define TQ_GROUP_END(x, h0) (technique_hooks.h)"
#endif
#ifndef TQ_PEERS
#error "a technique.h stamp must define TQ_PEERS(x, c) (technique_hooks.h)"
#endif
#ifndef TQ_NPEERS
#error "a technique.h stamp must define TQ_NPEERS(x, c) (technique_hooks.h)"
#endif
#ifndef TQ_EMASK
#error "a technique.h stamp must define TQ_EMASK(x) (technique_hooks.h)"
#endif
#ifndef TQ_ETOUCHED
#error "a technique.h stamp must define TQ_ETOUCHED(x) (technique_hooks.h)"
#endif
#ifndef TQ_EWORDS
#error "a technique.h stamp must define TQ_EWORDS(x) (technique_hooks.h)"
#endif
#ifndef TQ_SNAP
#error "a technique.h stamp must define TQ_SNAP(x) (technique_hooks.h)"
#endif
#ifndef TQ_COUNTS
#error "a technique.h stamp must define TQ_COUNTS(x) (technique_hooks.h)"
#endif
#ifndef TQ_LP_BEGIN
#error "a technique.h stamp must define TQ_LP_BEGIN(x, h) (technique_hooks.h)"
#endif
#ifndef TQ_LP_END
#error "a technique.h stamp must define TQ_LP_END(x, h) (technique_hooks.h)"
#endif
#ifndef TQ_LP_BASE
#error "a technique.h stamp must define TQ_LP_BASE(x) (technique_hooks.h)"
#endif
#ifndef TQ_LP_AT
#error "a technique.h stamp must define TQ_LP_AT(x, j, i) (technique_hooks.h)"
#endif
#ifndef TQ_POPCOUNT
#error "a technique.h stamp must define TQ_POPCOUNT(m) (technique_hooks.h)"
#endif
#ifndef TQ_HALT
#error "a technique.h stamp must define TQ_HALT(x) (technique_hooks.h)"
#endif
#ifndef TQ_CAND
#error "a technique.h stamp must define TQ_CAND(b) (technique_hooks.h)"
#endif
#ifndef TQ_ASSIGNED
#error "a technique.h stamp must define TQ_ASSIGNED(x, b, c) (technique_hooks.h)"
#endif
#ifndef TQ_MARK
#error "a technique.h stamp must define TQ_MARK(x, b, c) (technique_hooks.h)"
#endif
#ifndef TQ_EXT
#error "a technique.h stamp must define TQ_EXT(x) (technique_hooks.h)"
#endif
#ifndef TQ_LINES
#error "a technique.h stamp must define TQ_LINES(x) (technique_hooks.h)"
#endif
#ifndef TQ_LINE0
#error "a technique.h stamp must define TQ_LINE0(x, f) (technique_hooks.h)"
#endif
#ifndef TQ_LINE_OF
#error "a technique.h stamp must define TQ_LINE_OF(x, f, c) (technique_hooks.h)"
#endif
#ifndef TQ_WORK
#error "a technique.h stamp must define TQ_WORK(x, w) (technique_hooks.h)"
#endif

/* 1 when T is an unsigned integer type (-1 wraps to its largest value, a half truncates to
 * 0: neither holds for a signed, floating or _Bool type). */
#define TQ_IS_UNSIGNED(T) ((T)-1 > 0 && (T)0.5 == 0)

/* 1 when the expression e (not evaluated) has type T, an array taken as its first element's
 * pointer. */
#define TQ_HAS_TYPE(e, T) _Generic((e), T: 1, default: 0)

/* 1 when the expression e (not evaluated) is a pointer to T cells, const or not. */
#define TQ_IS_CELLS(e) _Generic((e), const TQ_CELL *: 1, TQ_CELL *: 1, default: 0)

/* A context and a board, declared only: the operands of the checks below, which evaluate
 * nothing (so nothing defines them). */
extern TQ_CTX *const tq_hooks_ctx;
extern TQ_BOARD *const tq_hooks_board;
#define TQ_X_ tq_hooks_ctx
#define TQ_B_ tq_hooks_board

_Static_assert(TQ_IS_UNSIGNED(TQ_MASK), "TQ_MASK must be an unsigned integer type");
_Static_assert(sizeof(TQ_MASK) * CHAR_BIT >= TQ_NMAX, "TQ_MASK must hold TQ_NMAX digits");
_Static_assert(TQ_NMAX >= 1 && TQ_NMAX <= 64, "a house's positions are one uint64_t");
_Static_assert(TQ_IS_UNSIGNED(TQ_CELL), "TQ_CELL must be an unsigned integer type");
_Static_assert(TQ_CELLS_MAX >= 1 && (uintmax_t)TQ_CELLS_MAX - 1 <= (TQ_CELL)-1,
               "TQ_CELL must hold every cell index below TQ_CELLS_MAX");
_Static_assert(sizeof(TQ_CTX) > 0 && sizeof(TQ_BOARD) > 0, "TQ_CTX and TQ_BOARD are types");

_Static_assert(TQ_IS_CELLS(TQ_HOUSE(TQ_X_, 0)), "TQ_HOUSE: TQ_CELL *");
_Static_assert(TQ_IS_CELLS(TQ_PEERS(TQ_X_, 0)), "TQ_PEERS: TQ_CELL *");
_Static_assert(TQ_IS_CELLS(TQ_LP_BASE(TQ_X_)), "TQ_LP_BASE: TQ_CELL *");
_Static_assert(TQ_HAS_TYPE(TQ_EMASK(TQ_X_), TQ_MASK *), "TQ_EMASK: TQ_MASK *");
_Static_assert(TQ_HAS_TYPE(TQ_SNAP(TQ_X_), TQ_MASK *), "TQ_SNAP: TQ_MASK *");
_Static_assert(TQ_HAS_TYPE(TQ_CAND(TQ_B_), TQ_MASK *), "TQ_CAND: TQ_MASK *");
_Static_assert(TQ_HAS_TYPE(TQ_ETOUCHED(TQ_X_), uint64_t *), "TQ_ETOUCHED: uint64_t *");
_Static_assert(TQ_HAS_TYPE(TQ_COUNTS(TQ_X_), sb_technique_counts *),
               "TQ_COUNTS: sb_technique_counts *");
_Static_assert(TQ_HAS_TYPE(TQ_EXT(TQ_X_), sb_tech_ext *), "TQ_EXT: sb_tech_ext *");

_Static_assert(TQ_HAS_TYPE(TQ_NCELLS(TQ_X_), int) && TQ_HAS_TYPE(TQ_NHOUSES(TQ_X_), int),
               "TQ_NCELLS, TQ_NHOUSES: int");
_Static_assert(TQ_HAS_TYPE(TQ_NPEERS(TQ_X_, 0), int) && TQ_HAS_TYPE(TQ_GROUP_END(TQ_X_, 0), int),
               "TQ_NPEERS, TQ_GROUP_END: int");
_Static_assert(TQ_HAS_TYPE(TQ_LP_BEGIN(TQ_X_, 0), int) && TQ_HAS_TYPE(TQ_LP_END(TQ_X_, 0), int) &&
                   TQ_HAS_TYPE(TQ_LP_AT(TQ_X_, 0, 0), int),
               "TQ_LP_BEGIN, TQ_LP_END, TQ_LP_AT: int");
_Static_assert(TQ_HAS_TYPE(TQ_POPCOUNT((TQ_MASK)0), int), "TQ_POPCOUNT: int");
_Static_assert(TQ_HAS_TYPE(TQ_HALT(TQ_X_), int), "TQ_HALT: int");
_Static_assert(TQ_HAS_TYPE(TQ_ASSIGNED(TQ_X_, TQ_B_, 0), int), "TQ_ASSIGNED: int");
_Static_assert(TQ_HAS_TYPE(TQ_LINES(TQ_X_), int) && TQ_HAS_TYPE(TQ_LINE0(TQ_X_, 0), int) &&
                   TQ_HAS_TYPE(TQ_LINE_OF(TQ_X_, 0, 0), int),
               "TQ_LINES, TQ_LINE0, TQ_LINE_OF: int");

#undef TQ_X_
#undef TQ_B_

#endif /* SB_TECHNIQUE_HOOKS_H */
