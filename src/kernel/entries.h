/*
 * entries.h — the search hooks and the two exported entries of a fast-kernel stamp, written
 * once for every stamp (kernel.h, kernel_band.h). A fast kernel keeps all of its state in the
 * board, so the hook context is empty and each hook forwards to the kernel.
 *
 * The includer defines, before including: SB_KERNEL_DFS / SB_KERNEL_BFS (the entry names),
 * and the kernel functions SBK_LOAD(b, puzzle), SBK_TAKE(b, c, d), SBK_DROP(b, c, d),
 * SBK_CHOOSE(b) and SBK_CELL(b, c) (see search.h for their contracts), and optionally
 * SBK_SOLUTION(b, out) (writes a solved board's digits); the kernel sets b->nsolved at every
 * stable board.
 *
 * With SB_KERNEL_TECH (the "fast+T" stamps, kernel_<level>_tech.c) the includer also defines
 * SBK_PLANES(b, w) and SBK_ELIM(b, el) (kernel_tech.h): every load, take and drop that leaves
 * a stable board then runs the spec's techniques (sbt_stall), so the search only ever sees
 * boards settled by the kernel and the techniques together. The entries take the
 * sb_fast_tech, which the hook context carries.
 */

#if SB_KERNEL_TECH
#include "kernel_tech.h"

/* The techniques, their counters and their memo: the only state beyond the board. */
typedef struct sbk_ctx {
    const sb_fast_tech *t;
    sbt_memo memo;
} sbk_ctx;

/* A kernel settle, then the techniques on the stable board. */
#define SBK_SETTLED(x, call) ((call) && sbt_stall((x)->t, &(x)->memo, b))
#else
/* The fast kernels need no hook context: their state is the board. */
typedef struct sbk_ctx {
    char unused; /* C requires a member */
} sbk_ctx;

#define SBK_SETTLED(x, call) ((void)(x), (call))
#endif

static inline int srch_load(sbk_ctx *x, sb_board *b, const sb_grid *puzzle)
{
    return SBK_SETTLED(x, SBK_LOAD(b, puzzle));
}

static inline int srch_solved(sbk_ctx *x, const sb_board *b)
{
    (void)x;
    return b->nsolved == SB_CELLS;
}

static inline int srch_choose(sbk_ctx *x, const sb_board *b)
{
    (void)x;
    return SBK_CHOOSE(b);
}

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

#ifdef SBK_SOLUTION
/* The kernel writes a solved board out itself (search.h's optional hook). */
static inline void srch_solution(sbk_ctx *x, const sb_board *b, sb_grid *out)
{
    (void)x;
    SBK_SOLUTION(b, out);
}
#define SRCH_SOLUTION 1
#endif

#define SB_SEARCH_CTX sbk_ctx
#define SB_SEARCH_DFS sbk_dfs
#define SB_SEARCH_BFS sbk_bfs
#include "search.h"

#if SB_KERNEL_TECH
void SB_KERNEL_DFS(sb_board *stack, const sb_grid *puzzle, uint64_t limit, sb_result *res,
                   const sb_fast_tech *t)
{
    sbk_ctx x;
    x.t = t;
    sbt_memo_clear(&x.memo, t);
    sbk_dfs(&x, stack, puzzle, limit, res);
}

int SB_KERNEL_BFS(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                  uint64_t limit, sb_result *res, const sb_fast_tech *t)
{
    sbk_ctx x;
    x.t = t;
    sbt_memo_clear(&x.memo, t);
    return sbk_bfs(&x, ring, ring_len, cap, puzzle, limit, res);
}
#else
void SB_KERNEL_DFS(sb_board *stack, const sb_grid *puzzle, uint64_t limit, sb_result *res)
{
    sbk_ctx x;
    sbk_dfs(&x, stack, puzzle, limit, res);
}

int SB_KERNEL_BFS(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                  uint64_t limit, sb_result *res)
{
    sbk_ctx x;
    return sbk_bfs(&x, ring, ring_len, cap, puzzle, limit, res);
}
#endif
