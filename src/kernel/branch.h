/*
 * branch.h — the branching rule every fast-kernel stamp follows (scalar form), so that every
 * level guesses on the same cell: among the open cells with the fewest candidates, the one
 * whose digits reach the most open peers, bivalue peers counted three times; the first such
 * in cell order on a tie; its digit tried first is the one the most of its peers hold, the
 * lowest on a tie. The scalar reference runs this form; the AVX-512 and band stamps
 * compute the same rules with vector masks. Once a search has made SBL_AFTER guesses, a
 * digit's two places in a line may replace that cell where it is weak (line.h). Reads a
 * cell-major board (sb_board); static inline, stamped per level.
 */
#ifndef SB_KERNEL_BRANCH_H
#define SB_KERNEL_BRANCH_H

#include "internal.h"

#if SB_KERNEL_POPCNT
#define SB_POPCOUNT(m) ((int)__builtin_popcount(m))
#else
#define SB_POPCOUNT(m) ((int)sb_popcount9[(m)])
#endif

/* Scores cell c (candidates m) for branching: its open peers that share a digit with it,
 * bivalue ones counted three times (a guess there most often forces them). */
static inline int sbk_open_peers(const sb_board *b, int c, uint16_t m)
{
    const uint8_t *peer = sb_peer_tables_data.peers[c];
    int deg = 0;
    for (int i = 0; i < SB_PEERS; i++) {
        const uint16_t p = b->cand[peer[i]];
        deg += ((p & m) != 0 && (p & (p - 1)) != 0) * (1 + 2 * (SB_POPCOUNT(p) == 2));
    }
    return deg;
}

/* Picks the branching cell: among the unassigned cells with the fewest candidates, the one
 * with the best sbk_open_peers score (the first such in cell order). Called only on a
 * stable board with nsolved < 81, so every multi-bit cell is unassigned. */
static inline int sbk_branch_cell_scalar(const sb_board *b)
{
    /* Pass 1: the fewest candidates (2 cannot be beaten). */
    int best_n = SB_DIGITS + 1;
    for (int c = 0; c < SB_CELLS && best_n > 2; c++) {
        const uint16_t m = b->cand[c];
        if (m & (m - 1)) {
            const int n = SB_POPCOUNT(m);
            best_n = n < best_n ? n : best_n;
        }
    }
    /* Pass 2: among those cells, the best score (sbk_open_peers): its guess prunes the most.
     * On the first 2,000 of forum_hardest_11+ this takes guesses/puzzle from 136 (first
     * such cell) to 80 (open peers sharing a digit) to 70 (bivalue peers weighted 3). */
    int best = -1, best_deg = -1;
    for (int c = 0; c < SB_CELLS; c++) {
        const uint16_t m = b->cand[c];
        if (!(m & (m - 1)) || SB_POPCOUNT(m) != best_n)
            continue;
        const int deg = sbk_open_peers(b, c, m);
        if (deg > best_deg) {
            best_deg = deg;
            best = c;
        }
    }
    return best;
}

/* The digit of cell c (candidates m, two or more) the search tries first: the one held by
 * the most of its peers, the lowest on a tie. On a stable board every peer holding a digit of
 * c is open, so the count needs no open mask. The most constraining digit fails sooner and,
 * on a puzzle with several solutions, reaches a second one sooner: the settles of a limit-2
 * count fall by a tenth on the generator's puzzles (docs/performance.md, Guess studies). */
static inline uint16_t sbk_first_scalar(const sb_board *b, int c, uint16_t m)
{
    const uint8_t *peer = sb_peer_tables_data.peers[c];
    const uint16_t lo = m & (uint16_t)-m, rest = m & (uint16_t)(m - 1);
    if (!(rest & (rest - 1))) { /* bivalue, nearly every branch: one pass, one difference */
        int more = 0;
        for (int i = 0; i < SB_PEERS; i++) {
            const uint16_t p = b->cand[peer[i]];
            more += ((p & rest) != 0) - ((p & lo) != 0);
        }
        return more > 0 ? rest : lo;
    }
    int n[SB_DIGITS] = {0};
    for (int i = 0; i < SB_PEERS; i++)
        for (uint32_t f = b->cand[peer[i]] & m; f; f &= f - 1)
            n[__builtin_ctz(f)]++;
    int best = 0, best_n = -1;
    for (uint32_t f = m; f; f &= f - 1) {
        const int d = __builtin_ctz(f);
        best = n[d] > best_n ? d : best;
        best_n = n[d] > best_n ? n[d] : best_n;
    }
    return (uint16_t)(1u << best);
}

#endif /* SB_KERNEL_BRANCH_H */
