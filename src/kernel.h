/*
 * kernel.h — the solver kernel, written once and compiled once per SIMD level.
 *
 * Included by kernel_<level>.c after that file sets the instruction set (#pragma GCC target)
 * and defines SB_KERNEL_DFS / SB_KERNEL_BFS (the exported entries) and SB_KERNEL_POPCNT (1 when the POPCNT
 * instruction may be used). Everything here is static: each stamp is self-contained.
 *
 * Data layout (see sb_board in internal.h)
 *   cand[c]   9-bit candidate mask of cell c (bit d-1 = digit d still possible), c = 9*row+col,
 *             in 16-bit lanes padded to 96 so later vector passes run on whole registers.
 *             An assigned cell keeps exactly its digit's bit, and that bit is gone from all
 *             of its peers: "single-bit mask" therefore means "assigned or queued".
 *   nsolved   how many cells have been assigned; 81 means the board is a solution.
 *   The board is 192 bytes, the whole state copied per guess.
 *
 * Algorithm
 *   propagate: drain a queue of cells whose mask became a single bit, removing that bit from
 *     their 20 peers (an emptied peer is a contradiction; a peer left with one bit is queued);
 *     when the queue is empty, look for hidden singles in the houses changed since their last
 *     look (a digit with exactly one place is fixed there; a digit with no place is a
 *     contradiction); when both are stuck, locked candidates (pointing and claiming, rows then
 *     columns); repeat until nothing changes. The result is the unique fixpoint of these rules,
 *     whatever the order, so every stamp branches on the same boards and makes the same
 *     guesses as the scalar reference.
 *   search: iterative DFS over an explicit stack of boards. At a stable, unsolved board pick
 *     the cell with the fewest candidates, take its lowest digit d: the board below keeps the
 *     alternative (d removed), the copy above assigns d. Each such push is one guess.
 *     A contradiction or a counted solution pops back to the newest alternative.
 *
 * Per-ISA specialisations (SB_KERNEL_AVX512): assignment is three masked vector updates with
 *   the peers as lane masks, and hidden singles gather position i of all 27 houses into one
 *   vector with a permute per position, so every house is checked with a few vector ORs.
 */
#include <string.h>

#include "internal.h"

#if SB_KERNEL_AVX512
#include <immintrin.h>
#endif

#define SB_ALL_HOUSES ((1u << SB_HOUSES) - 1)

#if SB_KERNEL_POPCNT
#define SB_POPCOUNT(m) ((int)__builtin_popcount(m))
#else
#define SB_POPCOUNT(m) ((int)sb_popcount9[(m)])
#endif

#if SB_KERNEL_AVX512
/* Removes the digit of cell c (its single bit) from its peers and marks c assigned: three
 * masked vector updates over the board's 96 lanes, one per 32-lane register, with the peers
 * as lane masks. Peers reduced to one candidate are queued in lane order; any change sets
 * *dirty (the vector hidden-singles pass looks at every house anyway).
 * @return 0 on contradiction (a peer left empty), else 1. */
static inline int sbk_assign(sb_board *b, int c, uint8_t *q, int *qn, uint32_t *dirty)
{
    const uint64_t *pm = sb_peer_tables_data.peer_mask[c];
    const __mmask32 peers[3] = {(__mmask32)pm[0], (__mmask32)(pm[0] >> 32), (__mmask32)pm[1]};
    const __m512i d = _mm512_set1_epi16((short)b->cand[c]), one = _mm512_set1_epi16(1);
    b->nsolved++;
    for (int j = 0; j < 3; j++) {
        __m512i v = _mm512_load_si512((const void *)&b->cand[32 * j]);
        const __mmask32 hit = _mm512_mask_test_epi16_mask(peers[j], v, d);
        if (!hit)
            continue;
        v = _mm512_mask_blend_epi16(hit, v, _mm512_andnot_si512(d, v));
        _mm512_store_si512((void *)&b->cand[32 * j], v);
        *dirty = SB_ALL_HOUSES;
        __mmask32 single = _mm512_mask_testn_epi16_mask(hit, v, _mm512_sub_epi16(v, one));
        if (single) {
            if (_mm512_mask_testn_epi16_mask(single, v, v))
                return 0;
            while (single) {
                q[(*qn)++] = (uint8_t)(32 * j + __builtin_ctz(single));
                single &= single - 1;
            }
        }
    }
    return 1;
}
#else
/* Removes the digit of cell c (its single bit) from its peers and marks c assigned.
 * Cells reduced to one candidate are appended to q; the houses of every changed peer are
 * added to *dirty. @return 0 on contradiction (a peer left empty), else 1. */
static inline int sbk_assign(sb_board *b, int c, uint8_t *q, int *qn, uint32_t *dirty)
{
    const uint8_t *peer = sb_peer_tables_data.peers[c];
    const uint16_t d = b->cand[c];
    uint32_t touched = 0;
    b->nsolved++;
    for (int i = 0; i < SB_PEERS; i++) {
        const int p = peer[i];
        uint16_t m = b->cand[p];
        if (m & d) {
            m ^= d;
            b->cand[p] = m;
            touched |= sb_cell_house_bits[p];
            if ((m & (m - 1)) == 0) {
                if (!m)
                    return 0;
                q[(*qn)++] = (uint8_t)p;
            }
        }
    }
    *dirty |= touched;
    return 1;
}
#endif

/* Fixes the hidden digits of house h (a mask of digits with exactly one place there):
 * each one's cell is set to it and queued, re-dirtying its houses. @return 0 on
 * contradiction (the digit's only cell was just fixed to another digit). */
static inline int sbk_fix_hidden(sb_board *b, int h, uint16_t hidden, uint8_t *q, int *qn,
                                 uint32_t *dirty)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    while (hidden) {
        const uint16_t bit = hidden & (uint16_t)-hidden;
        hidden ^= bit;
        int i = 0;
        while (i < SB_DIGITS && !(b->cand[hc[i]] & bit))
            i++;
        if (i == SB_DIGITS)
            return 0;
        if (b->cand[hc[i]] == bit)
            continue; /* fixed by another house of the same pass: already queued */
        b->cand[hc[i]] = bit;
        q[(*qn)++] = hc[i];
        /* The cell's other digits left this house and its other two: rescan them. */
        *dirty |= sb_cell_house_bits[hc[i]];
    }
    return 1;
}

#if SB_KERNEL_AVX512
/* Hidden singles over all 27 houses at once: nine permutes gather position i of every house
 * into lane h, so once/twice/placed per house are plain vector ORs; only houses with a hidden
 * digit fall back to scalar work. Clears *dirty (every house was looked at).
 * @return 0 on contradiction, else 1. */
static inline int sbk_hidden_singles(sb_board *b, uint8_t *q, int *qn, uint32_t *dirty)
{
    const __mmask32 houses = (1u << SB_HOUSES) - 1;
    if (!*dirty)
        return 1;
    const __m512i v0 = _mm512_load_si512((const void *)&b->cand[0]);
    const __m512i v1 = _mm512_load_si512((const void *)&b->cand[32]);
    const __m512i v2 = _mm512_load_si512((const void *)&b->cand[64]);
    const __m512i one = _mm512_set1_epi16(1), hi = _mm512_set1_epi16(64);
    __m512i once = _mm512_setzero_si512(), twice = once, placed = once;
    for (int i = 0; i < SB_DIGITS; i++) {
        const __m512i idx = _mm512_load_si512((const void *)sb_house_lanes[i]);
        __m512i v = _mm512_permutex2var_epi16(v0, idx, v1);
        v = _mm512_mask_permutexvar_epi16(v, _mm512_cmpge_epu16_mask(idx, hi), idx, v2);
        twice = _mm512_or_si512(twice, _mm512_and_si512(once, v));
        once = _mm512_or_si512(once, v);
        const __mmask32 single = _mm512_testn_epi16_mask(v, _mm512_sub_epi16(v, one));
        placed = _mm512_mask_blend_epi16(single, placed, _mm512_or_si512(placed, v));
    }
    *dirty = 0;
    if (_mm512_mask_cmpneq_epi16_mask(houses, once, _mm512_set1_epi16(SB_ALL_DIGITS)))
        return 0;
    const __m512i hidden = _mm512_andnot_si512(_mm512_or_si512(twice, placed), once);
    __mmask32 found = _mm512_mask_test_epi16_mask(houses, hidden, hidden);
    if (!found)
        return 1;
    uint16_t lane[32] __attribute__((aligned(64)));
    _mm512_store_si512((void *)lane, hidden);
    while (found) {
        const int h = __builtin_ctz(found);
        found &= found - 1;
        if (!sbk_fix_hidden(b, h, lane[h], q, qn, dirty))
            return 0;
    }
    return 1;
}
#else
/* Hidden singles over the houses in *dirty (each scanned once and cleared); fixed cells are
 * set to their digit and queued. @return 0 on contradiction (a digit with no place in a
 * house, or a cell forced to two digits), else 1. */
static inline int sbk_hidden_singles(sb_board *b, uint8_t *q, int *qn, uint32_t *dirty)
{
    while (*dirty) {
        const int h = __builtin_ctz(*dirty);
        *dirty &= *dirty - 1;
        const uint8_t *hc = sb_peer_tables_data.house_cells[h];
        uint16_t once = 0, twice = 0, single = 0;
        for (int i = 0; i < SB_DIGITS; i++) {
            const uint16_t m = b->cand[hc[i]];
            twice |= once & m;
            once |= m;
            /* Single-bit masks are assigned or queued: their digit is placed, not hidden. */
            single |= (m & (m - 1)) ? 0 : m;
        }
        if (once != SB_ALL_DIGITS)
            return 0;
        const uint16_t hidden = (uint16_t)(once & ~twice & ~single);
        if (hidden && !sbk_fix_hidden(b, h, hidden, q, qn, dirty))
            return 0;
    }
    return 1;
}
#endif

/* Locked candidates along one direction: lines are rows (line_step 9, pos_step 1) or
 * columns (1, 9). Within each band of three lines and three boxes, a digit of a box confined
 * to one line leaves the rest of that line (pointing), and a digit of a line confined to one
 * box leaves the rest of that box (claiming). Emptied cells are contradictions; new singles
 * are queued and every changed cell's houses are dirtied. @return 0 on contradiction. */
static inline int sbk_locked_dir(sb_board *b, int line_step, int pos_step, uint8_t *q, int *qn,
                                 uint32_t *dirty)
{
    for (int t = 0; t < 3; t++) {
        uint16_t seg[3][3];  /* [line in band][box in band]: candidates of the 3 shared cells */
        uint16_t elim[3][3] = {{0}};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                const int c0 = (3 * t + i) * line_step + 3 * k * pos_step;
                seg[i][k] = b->cand[c0] | b->cand[c0 + pos_step] | b->cand[c0 + 2 * pos_step];
            }
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
                const uint16_t pointing = seg[i][k] & (uint16_t)~(seg[i1][k] | seg[i2][k]);
                const uint16_t claiming = seg[i][k] & (uint16_t)~(seg[i][k1] | seg[i][k2]);
                elim[i][k1] |= pointing;
                elim[i][k2] |= pointing;
                elim[i1][k] |= claiming;
                elim[i2][k] |= claiming;
            }
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                const uint16_t e = elim[i][k] & seg[i][k];
                if (!e)
                    continue;
                const int c0 = (3 * t + i) * line_step + 3 * k * pos_step;
                for (int j = 0; j < 3; j++) {
                    const int c = c0 + j * pos_step;
                    uint16_t m = b->cand[c];
                    if (m & e) {
                        m &= (uint16_t)~e;
                        b->cand[c] = m;
                        *dirty |= sb_cell_house_bits[c];
                        if ((m & (m - 1)) == 0) {
                            if (!m)
                                return 0;
                            q[(*qn)++] = (uint8_t)c;
                        }
                    }
                }
            }
    }
    return 1;
}

/* Runs naked and hidden singles to a fixed point, starting with the qn cells in q and the
 * houses in dirty (those whose cells changed since they were last scanned).
 * @return 0 on contradiction, else 1 (the board is solved or stable). */
static inline int sbk_propagate(sb_board *b, uint8_t *q, int qn, uint32_t dirty)
{
    for (;;) {
        while (qn > 0) {
            const int c = q[--qn];
            if (!sbk_assign(b, c, q, &qn, &dirty))
                return 0;
        }
        if (b->nsolved == SB_CELLS)
            return 1;
        if (!sbk_hidden_singles(b, q, &qn, &dirty))
            return 0;
        if (qn)
            continue;
        /* Singles are stuck: locked candidates, then singles again if they removed anything. */
        if (!sbk_locked_dir(b, SB_DIGITS, 1, q, &qn, &dirty) ||
            !sbk_locked_dir(b, 1, SB_DIGITS, q, &qn, &dirty))
            return 0;
        if (!qn && !dirty)
            return 1;
    }
}

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

#if SB_KERNEL_AVX512
/* Picks the branching cell as the scalar rule below does, with vector masks: the bivalue
 * cells, then for each its open peers sharing a digit, as one masked test and a popcount
 * per 32-lane register. Falls back to the scalar rule when no cell is bivalue. */
static inline int sbk_branch_cell_scalar(const sb_board *b);
static inline int sbk_branch_cell(const sb_board *b)
{
    const __m512i one = _mm512_set1_epi16(1);
    const __mmask32 lanes[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, (1u << (SB_CELLS - 64)) - 1};
    __m512i v[3];
    __mmask32 open[3], bivalue[3];
    for (int j = 0; j < 3; j++) {
        v[j] = _mm512_load_si512((const void *)&b->cand[32 * j]);
        const __m512i w = _mm512_and_si512(v[j], _mm512_sub_epi16(v[j], one));
        open[j] = _mm512_mask_test_epi16_mask(lanes[j], w, w);
        bivalue[j] = _mm512_mask_testn_epi16_mask(open[j], w, _mm512_sub_epi16(w, one));
    }
    if (!(bivalue[0] | bivalue[1] | bivalue[2]))
        return sbk_branch_cell_scalar(b);
    int best = -1, best_deg = -1;
    for (int jc = 0; jc < 3; jc++)
        for (__mmask32 k = bivalue[jc]; k; k &= k - 1) {
            const int c = 32 * jc + __builtin_ctz(k);
            const uint64_t *pm = sb_peer_tables_data.peer_mask[c];
            const __mmask32 peers[3] = {(__mmask32)pm[0], (__mmask32)(pm[0] >> 32),
                                        (__mmask32)pm[1]};
            const __m512i m = _mm512_set1_epi16((short)b->cand[c]);
            int deg = 0;
            for (int j = 0; j < 3; j++) {
                const __mmask32 share = _mm512_mask_test_epi16_mask(peers[j] & open[j], v[j], m);
                deg += __builtin_popcount(share) + 2 * __builtin_popcount(share & bivalue[j]);
            }
            if (deg > best_deg) {
                best_deg = deg;
                best = c;
            }
        }
    return best;
}
#define SB_BRANCH_SCALAR sbk_branch_cell_scalar
#else
#define SB_BRANCH_SCALAR sbk_branch_cell
#endif

/* Picks the branching cell: among the unassigned cells with the fewest candidates, the one
 * with the best sbk_open_peers score (the first such in cell order). Called only on a
 * stable board with nsolved < 81, so every multi-bit cell is unassigned. */
static inline int SB_BRANCH_SCALAR(const sb_board *b)
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

/* Sets up the root board from the givens and propagates. @return 0 on contradiction
 * (conflicting givens included). The scalar form sets every given first and assigns them
 * after, so equal givens in a house meet as an emptied cell. The AVX-512 form assigns all
 * givens in one pass: the givens of every house (nine permutes, a digit twice is a
 * conflict), then each blank cell keeps what its three houses lack; only the cells that
 * leaves single are queued, instead of one 20-peer assignment per given. */
#if SB_KERNEL_AVX512
static inline int sbk_load(sb_board *b, const sb_grid *puzzle)
{
    static const uint16_t digit_bit[10] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256};
    const __m512i one = _mm512_set1_epi16(1), all = _mm512_set1_epi16(SB_ALL_DIGITS);
    const __mmask32 lanes[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, (1u << (SB_CELLS - 64)) - 1};
    const __m512i hi = _mm512_set1_epi16(64);
    uint8_t q[SB_CELLS];
    int qn = 0, ngiven = 0;
    memset(b, 0, sizeof *b);
    for (int c = 0; c < SB_CELLS; c++) {
        b->cand[c] = digit_bit[puzzle->cell[c]];
        ngiven += puzzle->cell[c] != 0;
    }
    __m512i v[3];
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_load_si512((const void *)&b->cand[32 * j]);
    /* The givens of every house at once; a digit given twice in a house is a conflict. */
    __m512i once = _mm512_setzero_si512(), twice = once;
    for (int i = 0; i < SB_DIGITS; i++) {
        const __m512i idx = _mm512_load_si512((const void *)sb_house_lanes[i]);
        __m512i g = _mm512_permutex2var_epi16(v[0], idx, v[1]);
        g = _mm512_mask_permutexvar_epi16(g, _mm512_cmpge_epu16_mask(idx, hi), idx, v[2]);
        twice = _mm512_or_si512(twice, _mm512_and_si512(once, g));
        once = _mm512_or_si512(once, g);
    }
    if (_mm512_test_epi16_mask(twice, twice))
        return 0;
    /* Every blank cell loses the givens of its three houses: the givens are assigned. */
    for (int j = 0; j < 3; j++) {
        const __m512i row = _mm512_load_si512((const void *)&sb_cell_house_lanes[0][32 * j]);
        const __m512i col = _mm512_load_si512((const void *)&sb_cell_house_lanes[1][32 * j]);
        const __m512i box = _mm512_load_si512((const void *)&sb_cell_house_lanes[2][32 * j]);
        const __m512i elim = _mm512_or_si512(
            _mm512_or_si512(_mm512_permutexvar_epi16(row, once), _mm512_permutexvar_epi16(col, once)),
            _mm512_permutexvar_epi16(box, once));
        const __mmask32 blank = _mm512_mask_testn_epi16_mask(lanes[j], v[j], v[j]);
        const __m512i c = _mm512_andnot_si512(elim, all);
        const __m512i cand = _mm512_mask_blend_epi16(blank, v[j], c);
        _mm512_store_si512((void *)&b->cand[32 * j], cand);
        if (_mm512_mask_testn_epi16_mask(blank, cand, cand))
            return 0; /* a blank cell with no candidate left */
        for (__mmask32 s = _mm512_mask_testn_epi16_mask(blank, cand, _mm512_sub_epi16(cand, one));
             s; s &= s - 1)
            q[qn++] = (uint8_t)(32 * j + __builtin_ctz(s));
    }
    b->nsolved = (uint16_t)ngiven;
    return sbk_propagate(b, q, qn, SB_ALL_HOUSES);
}
#else
static inline int sbk_load(sb_board *b, const sb_grid *puzzle)
{
    uint8_t q[SB_CELLS];
    int qn = 0;
    memset(b, 0, sizeof *b);
    for (int c = 0; c < SB_CELLS; c++) {
        b->cand[c] = puzzle->cell[c] ? (uint16_t)(1u << (puzzle->cell[c] - 1)) : SB_ALL_DIGITS;
        if (puzzle->cell[c])
            q[qn++] = (uint8_t)c;
    }
    return sbk_propagate(b, q, qn, SB_ALL_HOUSES);
}
#endif

/* The fast kernel needs no hook context: its state is the board. */
typedef struct sbk_ctx {
    char unused; /* C requires a member */
} sbk_ctx;

static inline int srch_load(sbk_ctx *x, sb_board *b, const sb_grid *puzzle)
{
    (void)x;
    return sbk_load(b, puzzle);
}

static inline int srch_solved(sbk_ctx *x, const sb_board *b)
{
    (void)x;
    return b->nsolved == SB_CELLS;
}

static inline int srch_choose(sbk_ctx *x, const sb_board *b)
{
    (void)x;
    return sbk_branch_cell(b);
}

static inline int srch_take(sbk_ctx *x, sb_board *b, int c, uint16_t d)
{
    uint8_t q[SB_CELLS];
    (void)x;
    b->cand[c] = d;
    q[0] = (uint8_t)c;
    return sbk_propagate(b, q, 1, sb_cell_house_bits[c]);
}

static inline int srch_drop(sbk_ctx *x, sb_board *b, int c, uint16_t d)
{
    uint8_t q[SB_CELLS];
    int qn = 0;
    const uint16_t m = b->cand[c] & (uint16_t)~d;
    (void)x;
    b->cand[c] = m;
    if ((m & (m - 1)) == 0)
        q[qn++] = (uint8_t)c; /* one digit left: it is forced */
    return sbk_propagate(b, q, qn, sb_cell_house_bits[c]);
}

#define SB_SEARCH_CTX sbk_ctx
#define SB_SEARCH_DFS sbk_dfs
#define SB_SEARCH_BFS sbk_bfs
#include "search.h"

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
