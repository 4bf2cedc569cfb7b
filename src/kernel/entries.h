/*
 * entries.h — the search hooks and the two exported entries of a fast-kernel stamp, written
 * once for every stamp (kernel.h, kernel_band.h). A fast kernel keeps all of its state in the
 * board, so the hook context holds only the caller's stack of boards and each hook forwards
 * to the kernel.
 *
 * The includer defines, before including: SB_KERNEL_DFS / SB_KERNEL_BFS (the entry names),
 * and the kernel functions SBK_LOAD(b, puzzle, c, drop) (the root board from the givens, cell
 * c without the digits of mask drop unless it is 0, settled; 0 on contradiction),
 * SBK_TAKE(b, c, d), SBK_DROP(b, c, d), SBK_CHOOSE (the branch cell, line.h's pairs joining
 * the rule when line is set), SBK_FIRST(b, c, m), SBK_CELL(b, c) and SBK_SOLUTION(b, out)
 * (see search_hooks.h for the hooks they serve), and SBK_CHOOSE_PICKS: 1 when SBK_CHOOSE is
 * (b, line, pick), *pick the digit to take first when a pair wins (else 0), which srch_first
 * then returns; 0 when it is (b, line) and the board carries that digit to SBK_FIRST (the
 * band kernel's memo). It may define SBK_COPY(dst, src), a guess's copy of the board (else
 * a struct copy). The kernel sets b->nsolved at every stable board. The depth-first entries
 * take the drop from the run (sb_search_run); the breadth-first ones never drop.
 *
 * With SB_KERNEL_TECH (the "fast+T" stamps, kernel_<level>_tech.c) the includer also defines
 * SBK_PLANES(b, w) and SBK_ELIM(b, el) (kernel_tech.h): every load, take and drop that leaves
 * a stable board then runs the spec's techniques (sbt_stall), so the search only ever sees
 * boards settled by the kernel and the techniques together. The entries take the
 * sb_fast_tech, which the hook context carries.
 */

#if SB_KERNEL_TECH
#include "kernel_tech.h"

/* The stack, the techniques, their counters and their memo: the only state beyond the board. */
typedef struct sbk_ctx {
    sb_board *stack; /* SB_STACK_DEPTH boards (the DFS's) */
    const sb_fast_tech *t;
    sbt_memo memo;
    uint16_t pick; /* the digit SBK_CHOOSE chose with its cell, or 0 */
} sbk_ctx;

/* A kernel settle, then the techniques on the stable board. */
#define SBK_SETTLED(x, call) ((call) && sbt_stall((x)->t, &(x)->memo, b))
#else
/* The fast kernels need only the stack in their hook context: their state is the board. */
typedef struct sbk_ctx {
    sb_board *stack; /* SB_STACK_DEPTH boards (the DFS's) */
    uint16_t pick;   /* the digit SBK_CHOOSE chose with its cell, or 0 */
} sbk_ctx;

#define SBK_SETTLED(x, call) ((void)(x), (call))
#endif

#define SB_SEARCH_CTX sbk_ctx
#define SRCH_BOARD sb_board
#define SRCH_MASK uint16_t
#include "search/search.h"

/* The root board from the givens, cell c without the digits of mask drop (0: none), settled
 * (then the techniques): 0 on contradiction. */
static inline int sbk_root(sbk_ctx *x, sb_board *b, const sb_grid *puzzle, int c, uint16_t drop)
{
    return SBK_SETTLED(x, SBK_LOAD(b, puzzle, c, drop));
}

static inline int srch_solved(sbk_ctx *x, const sb_board *b)
{
    (void)x;
    return b->nsolved == SB_CELLS;
}

#if SBK_CHOOSE_PICKS
/* The kernel's choice may carry the digit (a line pair's), through the hook context. */
static inline int srch_choose(sbk_ctx *x, const sb_board *b, uint64_t guesses)
{
    return SBK_CHOOSE(b, guesses >= SBL_AFTER, &x->pick);
}

static inline uint16_t srch_first(sbk_ctx *x, const sb_board *b, int c, uint16_t m)
{
    return x->pick ? x->pick : SBK_FIRST(b, c, m);
}
#else
/* The kernel's board carries the digit of its choice (the band kernel's memo). */
static inline int srch_choose(sbk_ctx *x, const sb_board *b, uint64_t guesses)
{
    (void)x;
    return SBK_CHOOSE(b, guesses >= SBL_AFTER);
}

static inline uint16_t srch_first(sbk_ctx *x, const sb_board *b, int c, uint16_t m)
{
    (void)x;
    return SBK_FIRST(b, c, m);
}
#endif

static inline int srch_take(sbk_ctx *x, sb_board *b, int c, uint16_t d)
{
    return SBK_SETTLED(x, SBK_TAKE(b, c, d));
}

static inline int srch_drop(sbk_ctx *x, sb_board *b, int c, uint16_t d)
{
    return SBK_SETTLED(x, SBK_DROP(b, c, d));
}

static inline uint16_t srch_cell(sbk_ctx *x, const sb_board *b, int c)
{
    (void)x;
    return SBK_CELL(b, c);
}

static inline sb_board *srch_at(sbk_ctx *x, size_t depth)
{
    return &x->stack[depth];
}

/* A guess's copy of the board: the kernel's own (SBK_COPY, its vector width) where it has one;
 * gcc copies a struct by 16-byte pieces at avx2. */
static inline sb_board *srch_push(sbk_ctx *x, size_t depth)
{
#ifdef SBK_COPY
    SBK_COPY(&x->stack[depth + 1], &x->stack[depth]);
    return &x->stack[depth + 1];
#else
    return srch_push_copy(x->stack, depth);
#endif
}

/* The kernel writes a solved board out itself, in its own layout's fastest way. */
static inline void srch_solution(sbk_ctx *x, const sb_board *b, uint8_t *out)
{
    (void)x;
    SBK_SOLUTION(b, out);
}

#if SB_KERNEL_TECH
void SB_KERNEL_DFS(sb_board *stack, const sb_grid *puzzle, uint64_t limit, sb_search_run *run,
                   const sb_fast_tech *t)
{
    sbk_ctx x;
    x.stack = stack;
    x.t = t;
    sbt_memo_clear(&x.memo, t);
    run->status =
        srch_dfs_count(&x, sbk_root(&x, stack, puzzle, run->drop_cell, run->drop), limit, run);
}

int SB_KERNEL_BFS(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                  uint64_t limit, sb_search_run *run, const sb_fast_tech *t)
{
    sbk_ctx x;
    sb_board root;
    x.stack = NULL;
    x.t = t;
    sbt_memo_clear(&x.memo, t);
    return srch_bfs_count(&x, &root, sbk_root(&x, &root, puzzle, 0, 0), ring, ring_len, cap,
                          limit, run);
}
#else
void SB_KERNEL_DFS(sb_board *stack, const sb_grid *puzzle, uint64_t limit, sb_search_run *run)
{
    sbk_ctx x = {stack, 0};
    run->status =
        srch_dfs_count(&x, sbk_root(&x, stack, puzzle, run->drop_cell, run->drop), limit, run);
}

int SB_KERNEL_BFS(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                  uint64_t limit, sb_search_run *run)
{
    sbk_ctx x = {NULL, 0};
    sb_board root;
    return srch_bfs_count(&x, &root, sbk_root(&x, &root, puzzle, 0, 0), ring, ring_len, cap,
                          limit, run);
}
#endif
