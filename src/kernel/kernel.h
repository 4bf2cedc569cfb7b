/*
 * kernel.h — the cell-major solver kernel: the scalar reference and the AVX-512 stamp (the
 * SSE4.1, AVX2 and NEON stamps use the band kernel, kernel_band.h).
 *
 * Included by kernel_<level>.c, compiled with that level's -m flags (Makefile), after it
 * defines SB_KERNEL_DFS / SB_KERNEL_BFS (the exported entries), SB_KERNEL_POPCNT (1 when the
 * POPCNT instruction may be used) and, for AVX-512, SB_KERNEL_AVX512. The AVX-512 stamp comes
 * twice: with VBMI and VPOPCNTDQ (level avx512) and without them (avx512bw: word permutes and
 * byte-table popcounts, for Skylake-SP to Cooper Lake); the -m flags choose. Everything here
 * is static: each stamp is self-contained.
 *
 * Data layout (see sb_board in internal.h)
 *   cand[c]   9-bit candidate mask of cell c (bit d-1 = digit d still possible), c = 9*row+col,
 *             in 16-bit lanes padded to 96 so later vector passes run on whole registers.
 *             The AVX-512 stamp keeps cell c in lane sb_lane_map.lane[c] instead (27 cells
 *             in each 32-lane register, chosen so that every gather reads two registers).
 *             An assigned cell keeps exactly its digit's bit; at a stable board that bit is
 *             gone from all of its peers (during propagation a single may still be pending).
 *   nsolved   how many cells have been assigned; 81 means the board is a solution.
 *   The board is 192 bytes, the whole state copied per guess.
 *
 * Algorithm
 *   propagate (scalar reference): drain a queue of cells whose mask became a
 *     single bit, removing that bit from their 20 peers (an emptied peer is a contradiction; a
 *     peer left with one bit is queued); when the queue is empty, look for hidden singles in
 *     the houses changed since their last look (a digit with exactly one place is fixed there;
 *     a digit with no place is a contradiction); when both are stuck, locked candidates
 *     (pointing and claiming, rows then columns); repeat until nothing changes.
 *   settle (AVX-512 stamp): the same rules in whole-board rounds. The board lives in three
 *     32-lane registers, each cell in one that position i of its houses shares with only one
 *     other (sb_lane_map), so one two-register permute per position gathers position i of
 *     all 27 houses side by side, which gives per house the placed digits, the digits with
 *     one place and the box segments of every line; three permutes per register spread a
 *     house vector back onto the cells.
 *     A round applies every naked single, hidden single and locked-candidate elimination it
 *     finds at once, until a round changes nothing. Everything of a round landing together
 *     is what makes an easy puzzle a handful of rounds instead of one update per cell. A
 *     guess (and a forced alternative) clears its digit from the cell's peers before the
 *     first round, so that round already finds the singles the guess makes (measured rounds
 *     per settle on the sample corpora: 10.8 on 17-clue, 4.0 on top1465, 3.3 on forum
 *     hardest 11+, 3.6 on datasets/multi; without that clearing 11.2, 4.8, 4.1, 4.2).
 *   root: the root board also takes the triad rules when the other rules' fixpoint leaves at
 *     least SBT3_OPEN cells open (triad.h; the AVX-512 stamp from the segments of its fixpoint
 *     round, then inside the rounds: SBK_GATED; the scalar reference after its load), so
 *     every stamp's root is the same.
 *   Both reach the unique fixpoint of these rules (each rule only removes candidates and
 *     stays valid on any board with fewer), whatever the order, so every stamp branches on
 *     the same boards and makes the same guesses as the scalar reference.
 *   search: iterative DFS over an explicit stack of boards. At a stable, unsolved board pick
 *     the cell with the fewest candidates (ties: sbk_open_peers), take the digit d the most of
 *     its peers hold (sbk_first; the lowest on a tie): the board below keeps the alternative
 *     (d removed), the copy above assigns d. Each such push is one guess. A contradiction or a
 *     counted solution pops back to the newest alternative. Once the search has made
 *     SBL_AFTER guesses, a digit's two places in a row or column may take the cell's place
 *     where the cell is weak (line.h; sbk_line), the digit taken at one place first.
 */
#include <string.h>

#include "internal.h"
#include "triad.h"

#if SB_KERNEL_AVX512
#include <immintrin.h>
#endif

#define SB_ALL_HOUSES ((1u << SB_HOUSES) - 1)


#if !SB_KERNEL_AVX512
/* Queue-driven propagation (the scalar reference): one 20-peer update per cell
 * that became single, hidden singles over the houses changed since their last scan. */

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

#endif /* !SB_KERNEL_AVX512 */

#if SB_KERNEL_AVX512
/* Lane moves and their tables. With VBMI: byte permutes over internal.h's byte-pair tables
 * (Intel runs vpermw as 2 uops and vpermt2w as 3, all on port 5, where vpermb and vpermt2b
 * are one uop each). Without VBMI (avx512bw): word permutes over this stamp's own copies of
 * the same tables in word form (gen_tables ... w: one 16-bit index and one mask bit a lane),
 * so that no index is converted in a round. */
#if defined(__AVX512VBMI__)
#define SBK_PERM(idx, x) _mm512_permutexvar_epi8((idx), (x))
#define SBK_PERM2(a, idx, b) _mm512_permutex2var_epi8((a), (idx), (b))
#define SBK_MASK_PERM(src, m, idx, x)                                                         \
    _mm512_mask_permutexvar_epi8((src), (__mmask64)(m), (idx), (x))
#define SBK_HOUSE_LANES(i) sb_house_lanes[i]
#define SBK_CELL_HOUSE_LANES(k, j) (&sb_cell_house_lanes[k][64 * (j)])
#define SBK_LOCKED sb_locked_lanes
#define SBK_LOCKED_REG(f, j) (&sb_locked_lanes.f[64 * (j)])
#define SBK_ORDER sb_lane_order
#define SBK_ORDER_REG(f, j) (&sb_lane_order.f[64 * (j)])
#else
#define SBK_PERM(idx, x) _mm512_permutexvar_epi16((idx), (x))
#define SBK_PERM2(a, idx, b) _mm512_permutex2var_epi16((a), (idx), (b))
#define SBK_MASK_PERM(src, m, idx, x)                                                         \
    _mm512_mask_permutexvar_epi16((src), (__mmask32)(m), (idx), (x))
static const uint16_t sbk_house_lanes_w[SB_DIGITS][32] __attribute__((aligned(64))) =
#include "house_lanes_w.inc"
    ;
static const uint16_t sbk_cell_house_lanes_w[3][SB_LANES] __attribute__((aligned(64))) =
#include "cell_house_lanes_w.inc"
    ;
static const struct {
    uint16_t rot[2][32] __attribute__((aligned(64)));
    uint16_t row[SB_LANES] __attribute__((aligned(64)));
    uint16_t col[SB_LANES] __attribute__((aligned(64)));
    uint64_t row_hi[3], col_hi[3];
} sbk_locked_lanes_w =
#include "locked_lanes_w.inc"
    ;
static const struct {
    uint16_t to_lane[SB_LANES] __attribute__((aligned(64)));
    uint16_t to_cell[SB_LANES] __attribute__((aligned(64)));
    uint64_t to_lane_hi[3], to_cell_hi[3];
} sbk_lane_order_w =
#include "lane_order_w.inc"
    ;
#define SBK_HOUSE_LANES(i) sbk_house_lanes_w[i]
#define SBK_CELL_HOUSE_LANES(k, j) (&sbk_cell_house_lanes_w[k][32 * (j)])
#define SBK_LOCKED sbk_locked_lanes_w
#define SBK_LOCKED_REG(f, j) (&sbk_locked_lanes_w.f[32 * (j)])
#define SBK_ORDER sbk_lane_order_w
#define SBK_ORDER_REG(f, j) (&sbk_lane_order_w.f[32 * (j)])
#endif
#define SBK_IDX(p) _mm512_load_si512((const void *)(p))

/* Board b as its 96 lanes, as the registers hold it: the layout puts cells in lanes past
 * cand[]'s 81, so a lane is addressed through the whole board (192 bytes, lanes only). */
static inline uint16_t *sbk_lanes(sb_board *b)
{
    return (uint16_t *)(void *)b;
}

static inline uint16_t sbk_read_lane(const sb_board *b, int l)
{
    return ((const uint16_t *)(const void *)b)[l];
}

/* The cell lanes of each 32-lane board register (lanes 27..31 of each are padding:
 * sb_lane_map), and of each register of cells in cell order (81..95 past the grid). */
static const __mmask32 sbk_cells[3] = {0x7FFFFFFu, 0x7FFFFFFu, 0x7FFFFFFu};
static const __mmask32 sbk_grid_cells[3] = {0xFFFFFFFFu, 0xFFFFFFFFu,
                                            (1u << (SB_CELLS - 64)) - 1};

/* 1 when a cell of board registers v is empty: one test of their lane-wise minimum (every
 * register has the same cell lanes), not a test a register and the masks ORed. */
static inline int sbk_empty(const __m512i v[3])
{
    const __m512i low = _mm512_min_epu16(_mm512_min_epu16(v[0], v[1]), v[2]);
    return _mm512_mask_testn_epi16_mask(sbk_cells[0], low, low) != 0;
}

/* A round is some fifty lane moves (SBK_PERM and the like; docs/performance.md). */

/* Gathers position i of all 27 houses into lanes 0..26 (lanes 27..31 read a padding lane):
 * one permute of the two registers that hold them (sb_lane_map). */
static inline __m512i sbk_gather(const __m512i v[3], int i)
{
    return SBK_PERM2(v[(i % 3 + 1) % 3], SBK_IDX(SBK_HOUSE_LANES(i)), v[(i % 3 + 2) % 3]);
}

/* Output register j of a move between cell order and the board's lanes (sb_lane_order): its
 * lanes from the three registers src by table idx, those of mask hi from the third. */
static inline __m512i sbk_move(const __m512i src[3], const void *idx, uint64_t hi)
{
    const __m512i x = SBK_IDX(idx);
    return SBK_MASK_PERM(SBK_PERM2(src[0], x, src[1]), hi, x, src[2]);
}

/* Spreads a 27-lane house vector back to the board lanes of register j: each cell lane gets
 * the OR of its row, column and box lanes. */
static inline __m512i sbk_spread(__m512i house, int j)
{
    const __m512i r = SBK_IDX(SBK_CELL_HOUSE_LANES(0, j));
    const __m512i c = SBK_IDX(SBK_CELL_HOUSE_LANES(1, j));
    const __m512i x = SBK_IDX(SBK_CELL_HOUSE_LANES(2, j));
    return _mm512_ternarylogic_epi32(SBK_PERM(r, house), SBK_PERM(c, house), SBK_PERM(x, house),
                                     0xFE);
}

/* Candidate counts of the 16-bit lanes of v: as two 32-bit popcounts (VPOPCNTDQ has no
 * 16-bit form), or without VPOPCNTDQ (avx512bw) per nibble from a 16-entry byte table, the
 * two bytes of a lane then summed. */
static inline __m512i sbk_counts(__m512i v)
{
#if defined(__AVX512VPOPCNTDQ__)
    const __m512i lo = _mm512_popcnt_epi32(_mm512_and_si512(v, _mm512_set1_epi32(0xFFFF)));
    return _mm512_or_si512(lo, _mm512_slli_epi32(_mm512_popcnt_epi32(_mm512_srli_epi32(v, 16)), 16));
#else
    const __m512i nib = _mm512_set1_epi8(0x0F);
    const __m512i tab =
        _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    const __m512i lo = _mm512_shuffle_epi8(tab, _mm512_and_si512(v, nib));
    const __m512i hi = _mm512_shuffle_epi8(tab, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib));
    const __m512i b = _mm512_add_epi8(lo, hi); /* per byte: at most 8 */
    return _mm512_add_epi16(_mm512_and_si512(b, _mm512_set1_epi16(0xFF)), _mm512_srli_epi16(b, 8));
#endif
}

/* Locked candidates for every box-line pair at once, from the segment vectors a[k] a round
 * gathered (lane r: row r within stack k; lane 9+c: column c within band k). A digit of a
 * segment absent from the other two segments of its box (pointing) leaves the other segments
 * of its line; one absent from the other two segments of its line (claiming) leaves the other
 * segments of its box. elim[k] gets the digits to remove from each segment lane of a[k] (12
 * permutes of rotation; sbk_scatter moves them onto the cells). */
static inline __attribute__((always_inline)) __mmask32 sbk_locked(const __m512i a[3],
                                                                   __m512i elim[3], const int root)
{
    const __m512i r1 = SBK_IDX(SBK_LOCKED.rot[0]);
    const __m512i r2 = SBK_IDX(SBK_LOCKED.rot[1]);
    __m512i point[3], claim[3];
    for (int k = 0; k < 3; k++) {
        /* rot1/rot2 bring in the other two lines of the band (stack): the rest of the box. */
        /* 0x10: the first operand's bits outside both others, one op rather than an OR and
         * an AND-NOT (Intel issues 512-bit work on two ports only). */
        point[k] = _mm512_ternarylogic_epi32(a[k], SBK_PERM(r1, a[k]), SBK_PERM(r2, a[k]), 0x10);
        claim[k] = _mm512_ternarylogic_epi32(a[k], a[(k + 1) % 3], a[(k + 2) % 3], 0x10);
    }
    /* At the root, the triad rules (triad.h): a segment is a triad, its pointing and claiming
     * digits are the ones confined to it. Fewer than three digits, or more than three
     * confined, is a contradiction (returned as segment flags); three digits left leave the
     * rest of its line and box (as pointing and claiming digits do); three confined leave
     * its cells no other digit (ORed into its own eliminations). */
    __mmask32 bad = 0;
    __m512i own[3];
    if (root) {
        const __m512i three = _mm512_set1_epi16(3), all = _mm512_set1_epi16(SB_ALL_DIGITS);
        const __mmask32 segs = (1u << 18) - 1;
        for (int k = 0; k < 3; k++) {
            const __m512i must = _mm512_or_si512(point[k], claim[k]);
#if defined(__AVX512BITALG__) /* the avx512 level: one instruction a count */
            const __m512i pm = _mm512_popcnt_epi16(must), pu = _mm512_popcnt_epi16(a[k]);
#else /* avx512bw: Skylake-SP to Cooper Lake have no BITALG */
            const __m512i pm = sbk_counts(must), pu = sbk_counts(a[k]);
#endif
            bad |= _mm512_mask_cmpgt_epi16_mask(segs, pm, three) |
                   _mm512_mask_cmplt_epi16_mask(segs, pu, three);
            const __mmask32 h3 = _mm512_mask_cmpeq_epi16_mask(segs, pm, three);
            own[k] = _mm512_maskz_mov_epi16(h3, _mm512_andnot_si512(must, all));
            const __mmask32 n3 = _mm512_mask_cmpeq_epi16_mask(segs, pu, three);
            point[k] = _mm512_mask_mov_epi16(point[k], n3, a[k]);
            claim[k] = _mm512_mask_mov_epi16(claim[k], n3, a[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        elim[k] = _mm512_ternarylogic_epi32(
            _mm512_or_si512(point[(k + 1) % 3], point[(k + 2) % 3]),
            SBK_PERM(r1, claim[k]), SBK_PERM(r2, claim[k]), 0xFE);
        if (root)
            elim[k] = _mm512_or_si512(elim[k], own[k]);
    }
    return bad;
}

/* The segment eliminations elim[k] of sbk_locked as the digits to remove from each lane of
 * board register j, out[j] (12 permutes, off the round's critical path). */
static inline __attribute__((always_inline)) void sbk_scatter(const __m512i elim[3],
                                                               __m512i out[3])
{
    for (int j = 0; j < 3; j++) {
        const __m512i ri = SBK_IDX(SBK_LOCKED_REG(row, j));
        const __m512i ci = SBK_IDX(SBK_LOCKED_REG(col, j));
        const __m512i er = SBK_MASK_PERM(SBK_PERM2(elim[0], ri, elim[1]), SBK_LOCKED.row_hi[j], ri,
                                         elim[2]);
        const __m512i ec = SBK_MASK_PERM(SBK_PERM2(elim[0], ci, elim[1]), SBK_LOCKED.col_hi[j], ci,
                                         elim[2]);
        out[j] = _mm512_or_si512(er, ec);
    }
}

/* The house lanes where a round would change the board (sbk_settle_at): a placed digit
 * with a second place, a hidden digit, or a line segment holding a digit of its locked
 * eliminations (segment lanes 0..17 of seg[k], elim[k]). */
static inline __mmask32 sbk_acts(__m512i placed, __m512i twice, __m512i hidden,
                                 const __m512i seg[3], const __m512i elim[3])
{
    const __mmask32 houses = (1u << SB_HOUSES) - 1, lines = (1u << 18) - 1;
    /* Two tests of ORed terms, not five tests and four mask ORs (0xF8: a | b & c). */
    const __m512i house = _mm512_ternarylogic_epi32(hidden, placed, twice, 0xF8);
    __m512i line = _mm512_and_si512(seg[2], elim[2]);
    line = _mm512_ternarylogic_epi32(line, seg[1], elim[1], 0xF8);
    line = _mm512_ternarylogic_epi32(line, seg[0], elim[0], 0xF8);
    return _mm512_mask_test_epi16_mask(houses, house, house) |
           _mm512_mask_test_epi16_mask(lines, line, line);
}

/* Stores the fixpoint v as board b with its nsolved. @return -1 when a cell is empty (the
 * house statistics do not see one: the other eight cells can still hold all nine digits),
 * else nsolved. */
static inline int sbk_fixpoint(sb_board *b, const __m512i v[3])
{
    const __m512i one = _mm512_set1_epi16(1);
    int nsolved = 0;
    for (int j = 0; j < 3; j++) {
        _mm512_store_si512((void *)&b->cand[32 * j], v[j]);
        nsolved += __builtin_popcount(
            _mm512_mask_testn_epi16_mask(sbk_cells[j], v[j], _mm512_sub_epi16(v[j], one)));
    }
    b->nsolved = (uint16_t)nsolved;
    return sbk_empty(v) ? -1 : nsolved;
}

/* What a settle's rounds run: the search's rules (SBK_PLAIN); those and the triad rules in
 * every round's locked candidates (SBK_TRIADS, sbk_locked); or the root's gate (SBK_GATED):
 * the search's rules to their fixpoint, then, if sbt3_gate lets the root take the triad rules,
 * their eliminations from that last round's segments, so that the gate costs no round of its
 * own. SBK_GO_TRIADS is the gated settle's third result: the triad rules changed the board,
 * which an SBK_TRIADS settle takes on from there. */
enum { SBK_PLAIN, SBK_TRIADS, SBK_GATED };
enum { SBK_GO_TRIADS = 2 };

/* Propagates to the fixpoint in whole-board rounds (the rules as root says). Each round
 * gathers all 27 houses (nine permutes: position i of every house side by side): the digits
 * placed in each, those with one place, and per line the candidates of each box segment; a
 * digit placed twice or with no place is a contradiction. Then every open cell loses its
 * houses' placed digits and takes a digit hidden in one of its houses, and every cell loses
 * the locked-candidate eliminations of the segments. Every deduction of a round lands at once,
 * so an easy puzzle needs a handful of rounds rather than one 20-peer update per cell. Locked
 * candidates are computed in every round, in parallel with the singles: a separate pass once
 * the singles stalled cost more rounds than it saved work. On Intel a round is bound by the
 * two ports that run 512-bit work, not by its chain of dependencies, so a second board
 * interleaved per thread did not pay (docs/performance.md). A round that would change
 * nothing ends the settle once its house statistics say so, before its spreads: its checks
 * covered this very board; so does a round that finds every house's nine digits placed (a
 * solution, so a fixpoint: the rest of the round and the next could only confirm it). v holds
 * b's three registers on entry (b's stored lanes are not read); b gets the settled board.
 * @return 0 on contradiction, else 1 (b is a valid solution or stable; nsolved set), or at
 * SBK_GATED SBK_GO_TRIADS when the triad rules changed v: the caller goes on with an
 * SBK_TRIADS settle of v. Always inlined, as the one-call sbk_settle was: out of line, its
 * registers would pass through memory and each call would cost a vzeroupper. */
static inline __attribute__((always_inline)) int sbk_settle_at(sb_board *b, __m512i v[3],
                                                              const int root)
{
    const __m512i one = _mm512_set1_epi16(1), all = _mm512_set1_epi16(SB_ALL_DIGITS);
    const __mmask32 houses = (1u << SB_HOUSES) - 1;
    for (;;) {
        /* Per house: once (digits with a place), twice (two or more places), placed (digits
         * of its singles), clash (a digit of two singles). Reduced as a tree, three positions
         * (one box segment) at a time with one three-input op each, to keep the dependency
         * chain of a round short: "at least two of three" is ternary-logic 0xE8. */
        __m512i seg[3], twos[3], pone[3], ptwo[3];
        for (int k = 0; k < 3; k++) {
            __m512i g[3], p[3];
            for (int t = 0; t < 3; t++) {
                g[t] = sbk_gather(v, 3 * k + t);
                p[t] = _mm512_maskz_mov_epi16(
                    _mm512_testn_epi16_mask(g[t], _mm512_sub_epi16(g[t], one)), g[t]);
            }
            seg[k] = _mm512_ternarylogic_epi32(g[0], g[1], g[2], 0xFE);
            twos[k] = _mm512_ternarylogic_epi32(g[0], g[1], g[2], 0xE8);
            pone[k] = _mm512_ternarylogic_epi32(p[0], p[1], p[2], 0xFE);
            ptwo[k] = _mm512_ternarylogic_epi32(p[0], p[1], p[2], 0xE8);
        }
        const __m512i once = _mm512_ternarylogic_epi32(seg[0], seg[1], seg[2], 0xFE);
        const __m512i twice = _mm512_or_si512(_mm512_ternarylogic_epi32(twos[0], twos[1], twos[2], 0xFE),
                                              _mm512_ternarylogic_epi32(seg[0], seg[1], seg[2], 0xE8));
        const __m512i placed = _mm512_ternarylogic_epi32(pone[0], pone[1], pone[2], 0xFE);
        const __m512i clash = _mm512_or_si512(_mm512_ternarylogic_epi32(ptwo[0], ptwo[1], ptwo[2], 0xFE),
                                              _mm512_ternarylogic_epi32(pone[0], pone[1], pone[2], 0xE8));
        if (_mm512_mask_cmpneq_epi16_mask(houses, once, all) |
            _mm512_test_epi16_mask(clash, clash))
            return 0;
        if (!_mm512_mask_cmpneq_epi16_mask(houses, placed, all)) {
            /* Every house has its nine digits placed, none twice: a solution, and so a
             * fixpoint; the rest of the round would only confirm it. */
            for (int j = 0; j < 3; j++)
                _mm512_store_si512((void *)&b->cand[32 * j], v[j]);
            b->nsolved = SB_CELLS;
            return 1;
        }
        const __m512i hidden = _mm512_ternarylogic_epi32(once, twice, placed, 0x10);
        __m512i elim[3];
        if (sbk_locked(seg, elim, root == SBK_TRIADS))
            return 0; /* a triad with fewer than three digits or more than three confined */
        /* Whether the round would change the board, read off the house statistics before its
         * spreads and scatter (30 of its permutes). Exact, so a settle's last round, the one
         * that changes nothing, stops here: a placed digit with a second place in its house
         * is in an open cell there (two singles would have clashed), which loses it; a
         * hidden digit's one place is an open cell (else it would be placed), which takes
         * it; a segment holding a digit of its eliminations loses it. */
        if (!sbk_acts(placed, twice, hidden, seg, elim)) {
            const int nsolved = sbk_fixpoint(b, v);
            if (nsolved < 0)
                return 0; /* an empty cell */
            if (root != SBK_GATED || !sbt3_gate(nsolved))
                return 1;
            /* The gate is open: this round's segments are the fixpoint's, so the triad
             * rules' eliminations come from them without a round of gathers (the search's
             * rules, their other part, change nothing here). */
            if (sbk_locked(seg, elim, 1))
                return 0;
            const __m512i none = _mm512_setzero_si512();
            if (!sbk_acts(none, none, none, seg, elim))
                return 1;
            __m512i locked[3];
            sbk_scatter(elim, locked);
            for (int j = 0; j < 3; j++)
                v[j] = _mm512_andnot_si512(locked[j], v[j]);
            return sbk_empty(v) ? 0 : SBK_GO_TRIADS;
        }
        __m512i locked[3];
        sbk_scatter(elim, locked);
        for (int j = 0; j < 3; j++) {
            const __mmask32 open =
                _mm512_mask_test_epi16_mask(sbk_cells[j], v[j], _mm512_sub_epi16(v[j], one));
            const __m512i sp = sbk_spread(placed, j);
            /* 0x20: v's digits outside the placed ones and hidden in a house of the cell */
            const __m512i h = _mm512_ternarylogic_epi32(v[j], sp, sbk_spread(hidden, j), 0x20);
            const __mmask32 hit = _mm512_mask_test_epi16_mask(open, h, h);
            if (_mm512_mask_test_epi16_mask(hit, h, _mm512_sub_epi16(h, one)))
                return 0; /* two digits hidden in one cell */
            const __m512i x = _mm512_mask_blend_epi16(hit, _mm512_andnot_si512(sp, v[j]), h);
            v[j] = _mm512_andnot_si512(locked[j], _mm512_mask_blend_epi16(open, v[j], x));
        }
        if (sbk_empty(v))
            return 0; /* an empty cell in the round's new board */
    }
}

/* Board b's three registers, loaded whole (they forward from the board copy's stores). */
static inline void sbk_regs(const sb_board *b, __m512i v[3])
{
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_load_si512((const void *)&b->cand[32 * j]);
}

/* The settle of every board but the root. */
static inline __attribute__((always_inline)) int sbk_settle_regs(sb_board *b, __m512i v[3])
{
    return sbk_settle_at(b, v, SBK_PLAIN);
}
#else
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
#endif

#include "branch.h"

/* line.h's pair search, its counts two 64-bit popcounts (a libgcc call where the target has
 * no popcount instruction: the reference's, off the hot path). */
static inline int sbk_count4(sbv4 x)
{
    typedef uint64_t sbk_q2 __attribute__((vector_size(16), may_alias));
    const sbk_q2 q = (sbk_q2)x;
    return __builtin_popcountll(q[0]) + __builtin_popcountll(q[1]);
}
#define SBL_COUNT sbk_count4
#include "line.h"

#if SB_KERNEL_AVX512
/* The best-scoring cell of set (two words of board lanes: word 0 lanes 0..63, word 1 lanes
 * 64..95) by branch.h's rule, board registers v, as its key: score << 7 | (127 - cell), -1
 * for an empty set. A cell's open peers sharing a digit are three vector tests moved out to
 * general registers, then ANDs and popcounts there (no mask register is loaded from a
 * general one per cell); the first in cell order (not lane order) on a tie. */
static inline int sbk_best(const sb_board *b, const __m512i v[3], const uint64_t set[2],
                           const uint64_t open_w[2], const uint64_t biv_w[2])
{
    /* The best so far as one key, score above and 127 - cell below, kept by a max: the
     * first best in cell order without a jump whose outcome changes cell by cell. */
    int best = -1;
    /* One loop over both words: one exit whose trip count varies, not two. */
    for (uint64_t k0 = set[0], k1 = set[1]; k0 | k1;) {
        /* tzcnt of an empty word is 64 (BMI1; __builtin_ctzll leaves it undefined) */
        const uint64_t hi = 0 - (uint64_t)(k0 == 0);
        const int l = (int)(_tzcnt_u64(k0) + (_tzcnt_u64(k1) & hi));
        k1 &= (k1 - 1) | ~hi;
        k0 &= k0 - 1;
        const int c = sb_lane_map.cell[l];
        const uint64_t *pm = sb_lane_map.peers[c];
        const __m512i m = _mm512_set1_epi16((short)sbk_read_lane(b, l));
        const uint64_t s0 = ((uint64_t)_mm512_test_epi16_mask(v[0], m) |
                             (uint64_t)_mm512_test_epi16_mask(v[1], m) << 32) &
                            pm[0] & open_w[0];
        const uint64_t s1 = (uint64_t)_mm512_test_epi16_mask(v[2], m) & pm[1] & open_w[1];
        const int deg = __builtin_popcountll(s0) + __builtin_popcountll(s1) +
                        2 * (__builtin_popcountll(s0 & biv_w[0]) +
                             __builtin_popcountll(s1 & biv_w[1]));
        const int key = deg << 7 | (127 - c);
        best = key > best ? key : best;
    }
    return best;
}

/* branch.h's rule when no cell is bivalue (a few choices in a hundred): the open cells of
 * the fewest candidates by vector counts and compares, then sbk_best (its key). Out of line so that
 * the bivalue path keeps its registers; it replaced the scalar rule's walk over 20 peers
 * per cell, 6.5% of the instructions on the hardest puzzles. */
static __attribute__((noinline)) int sbk_branch_few(const sb_board *b, const __m512i v[3],
                                                    const __mmask32 open[3])
{
    const uint64_t open_w[2] = {open[0] | (uint64_t)open[1] << 32, open[2]};
    const uint64_t none[2] = {0, 0};
    __m512i cnt[3];
    for (int j = 0; j < 3; j++)
        cnt[j] = sbk_counts(v[j]);
    uint64_t few[2] = {0, 0};
    for (int n = 3; n <= SB_DIGITS && !(few[0] | few[1]); n++) {
        const __m512i nv = _mm512_set1_epi16((short)n);
        few[0] = _mm512_mask_cmpeq_epi16_mask(open[0], cnt[0], nv) |
                 (uint64_t)_mm512_mask_cmpeq_epi16_mask(open[1], cnt[1], nv) << 32;
        few[1] = _mm512_mask_cmpeq_epi16_mask(open[2], cnt[2], nv);
    }
    return sbk_best(b, v, few, open_w, none);
}

/* line.h's rule against the rule's cell (score cell_deg; many: it has three candidates or
 * more), on the registers v of a stable board, all digits at once where line.h walks digit by
 * digit: sbk_gather, as a settle round uses it (position i of every house side by side),
 * gives each line's three box segments; a line has a pair of digit d when exactly two of its
 * segments hold d and none holds it twice. On a stable board those places are open cells (a
 * placed d has left its lines), so each pair's two places and reach come from the digit's
 * open cells as two words (three vector tests, once a digit) and the peer masks, keyed as
 * sbl_line_pick does. @return the place taking the digit first, its bit in *pick; or -1. */
static __attribute__((noinline)) int sbk_line(const __m512i v[3], const __mmask32 open[3],
                                              const __mmask32 biv[3], int cell_deg, int many,
                                              uint16_t *pick)
{
    __m512i seg[3], twos[3];
    for (int k = 0; k < 3; k++) {
        const __m512i g0 = sbk_gather(v, 3 * k), g1 = sbk_gather(v, 3 * k + 1),
                      g2 = sbk_gather(v, 3 * k + 2);
        seg[k] = _mm512_ternarylogic_epi32(g0, g1, g2, 0xFE);
        twos[k] = _mm512_ternarylogic_epi32(g0, g1, g2, 0xE8);
    }
    /* 0x68: exactly two of three; 0xFE: any of three. */
    const __m512i two_segs = _mm512_ternarylogic_epi32(seg[0], seg[1], seg[2], 0x68);
    const __m512i twice_in_one = _mm512_ternarylogic_epi32(twos[0], twos[1], twos[2], 0xFE);
    const __m512i pair = _mm512_andnot_si512(twice_in_one, two_segs);
    const __mmask32 lines = (1u << 18) - 1; /* house lanes: rows 0..8, columns 9..17 */
    uint32_t hm = _mm512_mask_test_epi16_mask(lines, pair, pair);
    if (!hm)
        return -1;
    uint16_t lane[32] __attribute__((aligned(64)));
    _mm512_store_si512((void *)lane, pair);
    const uint64_t biv_w[2] = {biv[0] | (uint64_t)biv[1] << 32, biv[2]};
    uint64_t dw[SB_DIGITS][2];
    unsigned have = 0;
    int64_t best = -1;
    for (; hm; hm &= hm - 1) {
        const int h = __builtin_ctz(hm);
        const uint64_t *hw = sb_lane_map.house[h];
        for (unsigned f = lane[h]; f; f &= f - 1) {
            const int d = __builtin_ctz(f);
            if (!(have >> d & 1)) {
                const __m512i dv = _mm512_set1_epi16((short)(1 << d));
                dw[d][0] = (uint64_t)_mm512_mask_test_epi16_mask(open[0], v[0], dv) |
                           (uint64_t)_mm512_mask_test_epi16_mask(open[1], v[1], dv) << 32;
                dw[d][1] = _mm512_mask_test_epi16_mask(open[2], v[2], dv);
                have |= 1u << d;
            }
            const uint64_t d0 = dw[d][0], d1 = dw[d][1];
            /* The two places' lanes (tzcnt of an empty word is 64), then their cells in
             * cell order. */
            const uint64_t u0 = d0 & hw[0], u1 = d1 & hw[1];
            const uint64_t lo = 0 - (uint64_t)(u0 == 0);
            const int lp = (int)(_tzcnt_u64(u0) + (_tzcnt_u64(u1) & lo));
            const uint64_t v0 = u0 & (u0 - 1), v1 = u1 & ((u1 - 1) | ~lo);
            const int lq = (int)(_tzcnt_u64(v0) + (_tzcnt_u64(v1) & (0 - (uint64_t)(v0 == 0))));
            const int cp = sb_lane_map.cell[lp], cq = sb_lane_map.cell[lq];
            const int p = cp < cq ? cp : cq, q = cp < cq ? cq : cp;
            const uint64_t *pp = sb_lane_map.peers[p];
            const uint64_t *pq = sb_lane_map.peers[q];
            /* Both places' peers outside the line (sbl_reach). */
            const uint64_t w0 = (pp[0] | pq[0]) & ~hw[0], w1 = (pp[1] | pq[1]) & ~hw[1];
            const int n = __builtin_popcountll(w0 & d0) + __builtin_popcountll(w1 & d1);
            const int nb = __builtin_popcountll(w0 & d0 & biv_w[0]) +
                           __builtin_popcountll(w1 & d1 & biv_w[1]);
            const int64_t key = sbl_key(sbl_reach(n, nb), 9 * (uint32_t)h, (uint32_t)d,
                                        (uint32_t)p, (uint32_t)q);
            best = key > best ? key : best;
        }
    }
    if (!sbl_beats(best, cell_deg, many))
        return -1;
    const int p = sbl_key_p(best), q = sbl_key_q(best), e = sbl_key_digit(best);
    const uint64_t *pp = sb_lane_map.peers[p];
    const uint64_t *pq = sb_lane_map.peers[q];
    const int np = __builtin_popcountll(dw[e][0] & pp[0]) +
                   __builtin_popcountll(dw[e][1] & pp[1]);
    const int nq = __builtin_popcountll(dw[e][0] & pq[0]) +
                   __builtin_popcountll(dw[e][1] & pq[1]);
    *pick = (uint16_t)(1u << e);
    return sbl_first_place(p, q, np, nq);
}

/* Picks the branching cell by branch.h's rule, with vector masks: the bivalue cells scored
 * by sbk_best, or sbk_branch_few when there is none; with line set (the search has made
 * SBL_AFTER guesses) line.h's pairs join it, and *pick is the digit to take first when one
 * wins (else 0). */
static inline int sbk_branch_cell(const sb_board *b, int line, uint16_t *pick)
{
    const __m512i one = _mm512_set1_epi16(1);
    __m512i v[3];
    __mmask32 open[3], bivalue[3];
    for (int j = 0; j < 3; j++) {
        v[j] = _mm512_load_si512((const void *)&b->cand[32 * j]);
        const __m512i w = _mm512_and_si512(v[j], _mm512_sub_epi16(v[j], one));
        open[j] = _mm512_mask_test_epi16_mask(sbk_cells[j], w, w);
        bivalue[j] = _mm512_mask_testn_epi16_mask(open[j], w, _mm512_sub_epi16(w, one));
    }
    *pick = 0;
    const int many = !(bivalue[0] | bivalue[1] | bivalue[2]);
    int key;
    if (many) {
        key = sbk_branch_few(b, v, open);
    } else {
        const uint64_t open_w[2] = {open[0] | (uint64_t)open[1] << 32, open[2]};
        const uint64_t biv_w[2] = {bivalue[0] | (uint64_t)bivalue[1] << 32, bivalue[2]};
        key = sbk_best(b, v, biv_w, open_w, biv_w);
    }
    if (line && sbl_wanted(key >> 7, many)) {
        const int p = sbk_line(v, open, bivalue, key >> 7, many, pick);
        if (p >= 0)
            return p;
    }
    return 127 - (key & 127);
}

/* branch.h's first digit, with vector masks: a digit's peers are three vector tests ANDed
 * with the cell's peer mask, then popcounts. */
static inline uint16_t sbk_first(const sb_board *b, int c, uint16_t m)
{
    const uint64_t *pm = sb_lane_map.peers[c];
    __m512i v[3];
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_load_si512((const void *)&b->cand[32 * j]);
    uint16_t best = 0;
    int best_n = -1;
    for (uint16_t f = m; f; f &= (uint16_t)(f - 1)) {
        const uint16_t d = f & (uint16_t)-f;
        const __m512i dv = _mm512_set1_epi16((short)d);
        const uint64_t s0 = ((uint64_t)_mm512_test_epi16_mask(v[0], dv) |
                             (uint64_t)_mm512_test_epi16_mask(v[1], dv) << 32) &
                            pm[0];
        const uint64_t s1 = (uint64_t)_mm512_test_epi16_mask(v[2], dv) & pm[1];
        const int n = __builtin_popcountll(s0) + __builtin_popcountll(s1);
        best = n > best_n ? d : best;
        best_n = n > best_n ? n : best_n;
    }
    return best;
}
#else
/* The scalar rules (branch.h), and line.h's pairs with line set (the search has made
 * SBL_AFTER guesses): the digits' band words gathered cell by cell; *pick is the pair's
 * digit to take first when one wins (else 0). */
static inline int sbk_branch_cell(const sb_board *b, int line, uint16_t *pick)
{
    *pick = 0;
    const int c = sbk_branch_cell_scalar(b);
    if (!line)
        return c;
    const uint16_t m = b->cand[c];
    const int many = SB_POPCOUNT(m) > 2, deg = many ? 0 : sbk_open_peers(b, c, m);
    if (!sbl_wanted(deg, many))
        return c;
    sbv4 x[SB_DIGITS] = {{0}}, open = {0}, biv = {0};
    for (int i = 0; i < SB_CELLS; i++) {
        const uint16_t mi = b->cand[i];
        if (!(mi & (mi - 1)))
            continue;
        const uint32_t bit = 1u << (i % 27);
        open[i / 27] |= bit;
        biv[i / 27] |= SB_POPCOUNT(mi) == 2 ? bit : 0;
        for (uint32_t f = mi; f; f &= f - 1)
            x[__builtin_ctz(f)][i / 27] |= bit;
    }
    int e = 0;
    const int p = sbl_line_pair(x, open, biv, deg, many, &e);
    if (p < 0)
        return c;
    *pick = (uint16_t)(1u << e);
    return p;
}

static inline uint16_t sbk_first(const sb_board *b, int c, uint16_t m)
{
    return sbk_first_scalar(b, c, m);
}
#endif

/* The three ways a board enters propagation: the root from the givens, a guess taking digit
 * d in cell c, and the alternative dropping d from c. Each returns 0 on contradiction, else 1
 * (the board is a solution or stable). Conflicting givens are a contradiction like any other:
 * two equal singles in one house. */
#if SB_KERNEL_AVX512
/* The givens become masks 32 cells at a time (byte → lane, 1 << (digit-1), blank → all
 * digits), moved to the board's lanes (sb_lane_order); the first round of sbk_settle then
 * assigns every given at once. */
static inline int sbk_load(sb_board *b, const sb_grid *puzzle, int c, uint16_t drop)
{
    const __m512i one = _mm512_set1_epi16(1), all = _mm512_set1_epi16(SB_ALL_DIGITS);
    __m512i d[3];
    for (int j = 0; j < 3; j++)
        d[j] = _mm512_cvtepu8_epi16(
            _mm256_maskz_loadu_epi8(sbk_grid_cells[j], &puzzle->cell[32 * j]));
    for (int j = 0; j < 3; j++) {
        const __m512i x = sbk_move(d, SBK_ORDER_REG(to_lane, j), SBK_ORDER.to_lane_hi[j]);
        /* A shift by 0xFFFF (blank cell, or a padding lane) gives 0. */
        const __m512i bit = _mm512_sllv_epi16(one, _mm512_sub_epi16(x, one));
        const __mmask32 blank = _mm512_mask_testn_epi16_mask(sbk_cells[j], x, x);
        _mm512_store_si512((void *)&b->cand[32 * j], _mm512_mask_blend_epi16(blank, bit, all));
    }
    if (drop) /* cell c without those digits: the first round sees a single or an empty cell */
        sbk_lanes(b)[sb_lane_map.lane[c]] &= (uint16_t)~drop;
    __m512i v[3];
    sbk_regs(b, v);
    /* The root: the triad rules only past the other rules' fixpoint, when it leaves at least
     * SBT3_OPEN cells open (triad.h); from their first eliminations on, they run inside the
     * rounds. */
    const int r = sbk_settle_at(b, v, SBK_GATED);
    return r == SBK_GO_TRIADS ? sbk_settle_at(b, v, SBK_TRIADS) : r;
}

/* Cell c's lane in board register j (none when c lies in another register). A guess and a
 * pop change that lane in registers: a 16-bit store to the board read back by the settle's
 * 512-bit loads could not be forwarded (a stall on every guess and every pop). */
static inline __mmask32 sbk_lane(int c, int j)
{
    const int l = sb_lane_map.lane[c];
    return (__mmask32)(l >> 5 == j) << (l & 31);
}

/* Removes digit mask d from the peers of cell c in registers v, where on is all ones (else
 * nothing changes): c is placed with d. The round that would place c is then not needed: the
 * settle's first round already sees the peers c makes single (rounds per settle on forum
 * hardest 11+: 4.15 without this, 3.33 with it). */
static inline void sbk_clear_peers(__m512i v[3], int c, uint16_t d, uint64_t on)
{
    const uint64_t *pm = sb_lane_map.peers[c];
    const __mmask32 peer[3] = {(__mmask32)(pm[0] & on), (__mmask32)(pm[0] >> 32 & on),
                               (__mmask32)(pm[1] & on)};
    const __m512i dv = _mm512_set1_epi16((short)d);
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_mask_mov_epi16(v[j], peer[j], _mm512_andnot_si512(dv, v[j]));
}

static inline int sbk_take(sb_board *b, int c, uint16_t d)
{
    __m512i v[3];
    sbk_regs(b, v);
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_mask_set1_epi16(v[j], sbk_lane(c, j), (short)d);
    sbk_clear_peers(v, c, d, ~UINT64_C(0));
    return sbk_settle_regs(b, v);
}

/* The digit left in c, when one is (the alternative of a bivalue cell, nearly every time), is
 * placed at once as sbk_take places its digit (no branch: peers masked out otherwise). */
static inline int sbk_drop(sb_board *b, int c, uint16_t d)
{
    __m512i v[3];
    sbk_regs(b, v);
    const uint16_t m = sbk_read_lane(b, sb_lane_map.lane[c]) & (uint16_t)~d;
    for (int j = 0; j < 3; j++)
        v[j] = _mm512_andnot_si512(_mm512_maskz_set1_epi16(sbk_lane(c, j), (short)d), v[j]);
    sbk_clear_peers(v, c, m, 0 - (uint64_t)((m & (m - 1)) == 0));
    return sbk_settle_regs(b, v);
}
#else
/* Every given is set first and assigned after, so equal givens in a house meet as an emptied
 * cell. Cell dc then loses the digits of mask drop: emptied, a contradiction; left with one
 * digit where it was blank, assigned like a given. */
static inline int sbk_load_settle(sb_board *b, const sb_grid *puzzle, int dc, uint16_t drop)
{
    uint8_t q[SB_CELLS];
    int qn = 0;
    memset(b, 0, sizeof *b);
    for (int c = 0; c < SB_CELLS; c++) {
        b->cand[c] = puzzle->cell[c] ? (uint16_t)(1u << (puzzle->cell[c] - 1)) : SB_ALL_DIGITS;
        if (puzzle->cell[c])
            q[qn++] = (uint8_t)c;
    }
    if (drop) {
        const uint16_t m = b->cand[dc] & (uint16_t)~drop;
        if (!m)
            return 0;
        b->cand[dc] = m;
        if (!puzzle->cell[dc] && !(m & (m - 1)))
            q[qn++] = (uint8_t)dc;
    }
    return sbk_propagate(b, q, qn, SB_ALL_HOUSES);
}

static inline int sbk_take(sb_board *b, int c, uint16_t d)
{
    uint8_t q[SB_CELLS];
    b->cand[c] = d;
    q[0] = (uint8_t)c;
    return sbk_propagate(b, q, 1, sb_cell_house_bits[c]);
}

static inline int sbk_drop(sb_board *b, int c, uint16_t d)
{
    uint8_t q[SB_CELLS];
    int qn = 0;
    const uint16_t m = b->cand[c] & (uint16_t)~d;
    b->cand[c] = m;
    if ((m & (m - 1)) == 0)
        q[qn++] = (uint8_t)c; /* one digit left: it is forced */
    return sbk_propagate(b, q, qn, sb_cell_house_bits[c]);
}
#endif

/* A cell's candidates are its lane: sb_lane_map's at AVX-512, the cell's own in the
 * reference. */
static inline uint16_t sbk_cell(const sb_board *b, int c)
{
#if SB_KERNEL_AVX512
    return sbk_read_lane(b, sb_lane_map.lane[c]);
#else
    return b->cand[c];
#endif
}

/* Writes solved board b's 81 digits to out. */
#if SB_KERNEL_AVX512
/* Board b in cell order (sb_lane_order): three registers of 32 cells, 81..95 zero. */
static inline void sbk_cell_order(const sb_board *b, __m512i out[3])
{
    __m512i v[3];
    sbk_regs(b, v);
    for (int j = 0; j < 3; j++)
        out[j] = sbk_move(v, SBK_ORDER_REG(to_cell, j), SBK_ORDER.to_cell_hi[j]);
}

/* 32 cells per register: a lane's digit is the count of the bits below its single bit, plus
 * one, narrowed to bytes (81 scalar cell reads were a tenth of a 17-clue puzzle's
 * instructions). */
static inline void sbk_solution(const sb_board *b, uint8_t *out)
{
    const __m512i one = _mm512_set1_epi16(1);
    __m512i v[3];
    sbk_cell_order(b, v);
    for (int j = 0; j < 3; j++) {
        const __m512i d = _mm512_add_epi16(sbk_counts(_mm512_sub_epi16(v[j], one)), one);
        _mm256_mask_storeu_epi8(&out[32 * j], sbk_grid_cells[j], _mm512_cvtepi16_epi8(d));
    }
}
#else
/* Cell by cell: the lane's one bit. */
static inline void sbk_solution(const sb_board *b, uint8_t *out)
{
    for (int c = 0; c < SB_CELLS; c++)
        out[c] = (uint8_t)(__builtin_ctz(b->cand[c]) + 1);
}
#endif
#define SBK_SOLUTION sbk_solution

#if SB_KERNEL_TECH || !SB_KERNEL_AVX512
/* The board as digit planes and eliminations back from them: "fast+T" (kernel_tech.h), and
 * the scalar reference's triad rules at the root (triad.h). */
#if SB_KERNEL_AVX512
/* Cell sets as three 32-cell masks per digit (one vptestmw per register), regrouped into the
 * planes' three 27-cell band words. */
static inline void sbk_planes(sb_board *b, uint32_t *w)
{
    __m512i v[3];
    sbk_cell_order(b, v);
    for (int d = 0; d < SB_DIGITS; d++) {
        const __m512i bit = _mm512_set1_epi16((short)(1u << d));
        const uint64_t lo = (uint64_t)_mm512_test_epi16_mask(v[0], bit) |
                            (uint64_t)_mm512_test_epi16_mask(v[1], bit) << 32;
        const uint64_t hi = _mm512_test_epi16_mask(v[2], bit);
        w[4 * d] = (uint32_t)lo & 0x7FFFFFFu;
        w[4 * d + 1] = (uint32_t)(lo >> 27) & 0x7FFFFFFu;
        w[4 * d + 2] = (uint32_t)(lo >> 54 | hi << 10) & 0x7FFFFFFu;
        w[4 * d + 3] = 0;
    }
}

/* Removes the eliminations el from b (per digit: its three band words regrouped into three
 * 32-lane masks, one masked AND-NOT per register) and settles. @return 0 on contradiction. */
static inline int sbk_elim(sb_board *b, const uint32_t *el)
{
    __m512i v[3];
    sbk_cell_order(b, v);
    for (int d = 0; d < SB_DIGITS; d++) {
        const uint64_t lo = el[4 * d] | (uint64_t)el[4 * d + 1] << 27 |
                            (uint64_t)el[4 * d + 2] << 54;
        const __mmask32 k[3] = {(__mmask32)lo, (__mmask32)(lo >> 32),
                                (__mmask32)(el[4 * d + 2] >> 10)};
        const __m512i bit = _mm512_set1_epi16((short)(1u << d));
        for (int j = 0; j < 3; j++)
            v[j] = _mm512_mask_blend_epi16(k[j], v[j], _mm512_andnot_si512(bit, v[j]));
    }
    __m512i x[3];
    for (int j = 0; j < 3; j++)
        x[j] = sbk_move(v, SBK_ORDER_REG(to_lane, j), SBK_ORDER.to_lane_hi[j]);
    return sbk_settle_regs(b, x);
}
#else
static inline void sbk_planes(sb_board *b, uint32_t *w)
{
    memset(w, 0, 4 * SB_DIGITS * sizeof *w);
    for (int c = 0; c < SB_CELLS; c++)
        for (uint32_t m = b->cand[c]; m; m &= m - 1)
            w[4 * __builtin_ctz(m) + c / 27] |= 1u << (c % 27);
}

/* Removes the eliminations el from b, queueing the cells left with one digit and dirtying
 * the houses of every changed cell, and propagates. @return 0 on contradiction. */
static inline int sbk_elim(sb_board *b, const uint32_t *el)
{
    uint8_t q[SB_CELLS];
    int qn = 0;
    uint32_t dirty = 0;
    for (int c = 0; c < SB_CELLS; c++) {
        uint16_t m = 0;
        for (int d = 0; d < SB_DIGITS; d++)
            m |= (uint16_t)((el[4 * d + c / 27] >> (c % 27) & 1u) << d);
        if (!(b->cand[c] & m))
            continue;
        const uint16_t nm = b->cand[c] & (uint16_t)~m;
        b->cand[c] = nm;
        dirty |= sb_cell_house_bits[c];
        if (!nm)
            return 0;
        if ((nm & (nm - 1)) == 0)
            q[qn++] = (uint8_t)c;
    }
    return sbk_propagate(b, q, qn, dirty);
}
#endif
#define SBK_PLANES sbk_planes
#define SBK_ELIM sbk_elim
#define SBK_CELL_MAJOR(b) ((const uint16_t *)(const void *)(b)) /* both stamps keep cells */
#if SB_KERNEL_AVX512
#define SBK_CELL_LANE(c) (sb_lane_map.lane[c]) /* in the lanes sb_lane_map gives */
#endif
#endif

#if !SB_KERNEL_AVX512
/* The root: settled, then, when at least SBT3_OPEN cells are open, the triad rules (triad.h)
 * and the settle again until they find nothing (the AVX-512 stamps run them from their
 * fixpoint round's segments, then inside the rounds: SBK_GATED). */
static inline int sbk_load(sb_board *b, const sb_grid *puzzle, int c, uint16_t drop)
{
    if (!sbk_load_settle(b, puzzle, c, drop))
        return 0;
    if (!sbt3_gate(b->nsolved))
        return 1;
    uint32_t w[4 * SB_DIGITS] __attribute__((aligned(16)));
    uint32_t el[4 * SB_DIGITS] __attribute__((aligned(16)));
    while (b->nsolved < SB_CELLS) {
        sbk_planes(b, w);
        const int r = sbt3_rules((const sbv *)(const void *)w, (sbv *)(void *)el);
        if (r <= 0)
            return r == 0;
        if (!sbk_elim(b, el))
            return 0;
    }
    return 1;
}
#endif

#define SBK_LOAD sbk_load
#define SBK_TAKE sbk_take
#define SBK_DROP sbk_drop
#define SBK_CHOOSE sbk_branch_cell
#define SBK_CHOOSE_PICKS 1
#define SBK_FIRST sbk_first
#define SBK_CELL sbk_cell
#include "entries.h"
