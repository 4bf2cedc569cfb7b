/*
 * kernel_band.h — the band kernel: the fast solver written once over the portable vector layer
 * (vec.h) and stamped for SSE4.1 and NEON (16-byte vectors) and AVX2 (32-byte vectors).
 *
 * Included by kernel_<level>.c after it defines SBV_BYTES, SB_KERNEL_DFS / SB_KERNEL_BFS (the
 * exported entries) and SB_KERNEL_POPCNT. Everything here is static: each stamp stands alone.
 *
 * Data layout (digit-major band bitboards, kept inside the 192-byte sb_board)
 *   word 4*d + k   the cells of band k (rows 3k..3k+2) where digit d+1 is still a candidate:
 *                  bit 9*i + j = row 3k+i, column j (so cell c is bit c % 27 of band c / 27);
 *   word 4*d + 3   0 (padding: one digit is one group of four 32-bit lanes).
 *   A 16-byte vector holds one digit, a 32-byte vector two (the tenth slot of AVX2 is an
 *   always-empty phantom digit, masked out of every house check): 144 or 160 bytes.
 *   words 40..42  the placed cells (their digit has left their peers), one word per band;
 *   word 43       0 (padding: the placed cells are read as one vector);
 *   word 44       the branch memo: the cell last chosen on this board and its candidates;
 *   word 45       the digit the search tries first there (low half) and, for the bivalue
 *                 cell of the cell rule, its score (high half: line.h's test against it);
 *   word 46       the dirty digits: bit d (hidden-singles pass) and bit 16+d (locked pass)
 *                 set when digit d+1's word changed since that pass last looked at it.
 *   The board's nsolved lane (95, the high half of word 47) keeps its meaning. An assigned
 *   cell is a cell with one candidate left, as in the cell-major kernels.
 *
 * Why this layout: without AVX-512's 16-bit lane permutes a cell-major board cannot gather
 * its 27 houses cheaply, but in a band word every house is a fixed bit pattern: a row is a
 * 9-bit field, a box three 3-bit triads nine bits apart, a column one bit per band word. So
 * per-house counts (no place, one place, two or more) come from shifts, ANDs and ORs of whole
 * words (SWAR), all digits and bands in parallel lanes; only the columns cross lanes (two
 * lane shuffles per reduction).
 *
 * Algorithm (settle): the reference's rules, so its fixpoint and its guesses:
 *   - naked singles, cell by cell until they stall: a new single's digit word loses the
 *     cell's 20 peers (the 16-byte sb_band_peers mask ANDed into its digit's word, the board
 *     kept in registers as nine 16-byte words or AVX2's five 32-byte vectors), then the cells
 *     are recounted; a clash (two singles of a digit in a house) empties one of them;
 *   - then one hidden-singles pass over the whole board (the dirty digits): a digit with one
 *     place in a house is set there and placed (it leaves the cell's peers, as a naked single
 *     does); no place, or a cell hidden for two digits, is a contradiction;
 *   - when that changes nothing, one locked-candidates pass (pointing and claiming, rows and
 *     columns, from the triads and column segments); any change goes back to naked singles.
 *   Whole-board rounds of every rule (as the AVX-512 stamp runs them) were measured 1.7x
 *   slower here: a band round is bound by throughput (every digit's SWAR work), the naked
 *   chain by latency (docs/performance.md).
 * load: the grid's values are read as bit planes by byte compares (sbb_value_sets), the givens
 *   leave their peers and are placed (sbb_place_givens), the settle then starts from the
 *   singles they leave; the root's
 *   settle also runs the triad rules once locked candidates stall, when at least SBT3_OPEN
 *   cells are open then (triad.h).
 * search: search.h's DFS/BFS through entries.h; the branch rule (branch.h's) is computed on
 *   the bitboards, and line.h's pairs join it once the search has made SBL_AFTER guesses
 *   (sbb_choose).
 */
#include <string.h>

#include "internal.h"
#include "triad.h"
#include "vec.h"

#define SBB_DPV (SBV_LANES / 4)                           /* digits per vector */
#define SBB_NV ((SB_DIGITS + SBB_DPV - 1) / SBB_DPV)     /* vectors per board */

/* Bit patterns of a band word. */
#define SBB_CELLS 0x7FFFFFFu /* the 27 cells */
#define SBB_TRIAD SBT3_TRIAD  /* first cell of each triad (3 cells of a row in one box) */
#define SBB_ROW 0x0040201u   /* first cell of each row */
#define SBB_COL SBT3_COL      /* the first row: one bit per column */
#define SBB_BOX 0x0000049u   /* first column of each box, first row */

typedef uint32_t sbb_word __attribute__((may_alias)); /* a board word, aliasing sb_board */

_Static_assert(SBB_NV * SBV_BYTES <= 2 * 95, "the band board must leave the nsolved lane free");

/* The band vectors of board b. */
static inline sbv *sbb_vecs(sb_board *b)
{
    return (sbv *)(void *)b->cand;
}

/* The band words of board b (word 4*d + k: digit d+1, band k). */
static inline sbb_word *sbb_words(sb_board *b)
{
    return (sbb_word *)(void *)b->cand;
}

/* Each column-segment bit (positions 0..8) of every band, OR-ed over the three bands. */
static inline sbv sbb_or_bands(sbv x)
{
    return x | SBV_SHUF4(x, 1, 2, 0, 3) | SBV_SHUF4(x, 2, 0, 1, 3);
}

/* Row flags (one bit at the row's first cell) → the row's nine cells. */
static inline sbv sbb_fill_rows(sbv r)
{
    return (r << 9) - r;
}

/* Column flags (first row) → the column's three cells in the band. */
static inline sbv sbb_fill_cols(sbv x)
{
    return x | (x << 9) | (x << 18);
}

/* Triad flags → the triads' cells. */
static inline sbv sbb_fill_triads(sbv x)
{
    return (x << 3) - x;
}

/* Triad rotations: rot_box1 moves each triad flag to the same row of the box before it
 * (cyclically), rot_box2 two boxes; rot_row1/rot_row2 move it to the row before in its box. */
static inline sbv sbb_rot_box1(sbv x)
{
    return SBT3_BOX1(x);
}
static inline sbv sbb_rot_box2(sbv x)
{
    return SBT3_BOX2(x);
}
static inline sbv sbb_rot_row1(sbv x)
{
    return SBT3_ROW1(x);
}
static inline sbv sbb_rot_row2(sbv x)
{
    return SBT3_ROW2(x);
}

/* Column-segment rotations within each box (groups of three columns, first row). */
static inline sbv sbb_rot_col1(sbv x)
{
    return SBT3_COL1(x);
}
static inline sbv sbb_rot_col2(sbv x)
{
    return SBT3_COL2(x);
}

/* Locked candidates of one digit vector w, given its triad flags to and column segments cb
 * (its bands' columns; s1, s2 the other two bands' ones): the cells to remove. Pointing: a
 * digit of a box confined to one row (column) of it leaves the rest of that row (column);
 * claiming: a digit of a row (column) confined to one box leaves the rest of that box. */
static inline sbv sbb_locked(sbv to, sbv cb, sbv s1, sbv s2)
{
    const sbv point_r = to & ~(sbb_rot_row1(to) | sbb_rot_row2(to));
    const sbv claim_r = to & ~(sbb_rot_box1(to) | sbb_rot_box2(to));
    const sbv elim_t = sbb_rot_box1(point_r) | sbb_rot_box2(point_r) | sbb_rot_row1(claim_r) |
                       sbb_rot_row2(claim_r);
    const sbv point_c = cb & ~(sbb_rot_col1(cb) | sbb_rot_col2(cb));
    const sbv claim_c = cb & ~(s1 | s2);
    const sbv elim_c = SBV_SHUF4(point_c, 1, 2, 0, 3) | SBV_SHUF4(point_c, 2, 0, 1, 3) |
                       sbb_rot_col1(claim_c) | sbb_rot_col2(claim_c);
    return sbb_fill_triads(elim_t) | sbb_fill_cols(elim_c);
}

/* Word of the board's placed-cell set (3 band words at words 40..42, beyond every layout's
 * digit words): cells whose digit has left their peers. */
#define SBB_DONE 40

/* The placed-cell set of a board's words w as one vector (word 43, its padding, is 0): how
 * every path reads and writes it, so that loads forward from the stores. */
static inline sbv4 *sbb_done_vec(const sbb_word *w)
{
    return (sbv4 *)(void *)&((sbb_word *)w)[SBB_DONE];
}

/* Word of the board's dirty digits (bit d: digit d+1 changed since the whole-board pass last
 * looked at it): bits 0..8 for hidden singles, 16..24 for locked candidates. A pass skips
 * the clean digits: what it found for them last time still holds and was applied. Not word
 * 43, the placed cells' padding: every naked-singles call loads words 40..43 as one vector,
 * and a vector load that spans a pass's 4-byte store to the dirty word cannot be forwarded
 * from it (bench -t 1 on Intel, with the word there: 3-5% slower at avx2 and sse4). */
#define SBB_DIRTY 46
#define SBB_HIDDEN_DIRTY(d) (1u << (d))
#define SBB_ALL_DIRTY 0x01FF01FFu

/* Word of the board's branch memo: the cell the search chose on this board (sbb_branch_cell's,
 * or the place of sbb_line's pair), plus 1 (low half), and its candidate mask (high half); 0
 * when there is none. The search reads a chosen
 * cell's mask three times (its look-up, its take on the copy above, its drop from the board
 * left below) and the memo answers each in a compare instead of reading the cell off the
 * digit words (sbb_cell: about 30 instructions, and the take's own per-vector tests). Every
 * change to the candidates outside a settle (load, take, drop, eliminations from outside)
 * clears it, and a settle only ever follows one of those, so a memo always describes the board
 * it is on. */
#define SBB_MEMO 44

/* Word of the memo's first digit: the bit of the digit sbb_first takes at the memo's cell
 * (low half) and, when sbb_branch_cell chose a bivalue cell, its score (high half, for
 * sbb_line's gate; 0 after a pair), written with the memo and read only while the memo is set
 * (so never cleared). */
#define SBB_MEMO_FIRST 45

#if SBB_DPV == 2
/* The 32-byte vectors holding a digit of the set (bit k: vector k): bits 0, 2, 4, 6, 8 (a
 * vector's two digits ORed) packed to bits 0..4 in three steps. */
static inline uint32_t sbb_vecs_of(uint32_t digits)
{
    uint32_t x = (digits | digits >> 1) & 0x155;
    x = (x | x >> 1) & 0x133;
    x = (x | x >> 2) & 0x10F;
    return (x | x >> 4) & 0x1F;
}
#endif

/* The whole-board passes (hidden singles, locked candidates) look only at the digits that
 * changed since they last ran, one vector of them at a time: one digit at 16 bytes; at 32
 * bytes any two, paired as they come, the last one beside the phantom digit. A pass sees
 * about 3.6 changed digits on hard puzzles, which the board's own pairs (digits 1-2, 3-4,
 * ..., 9 and the phantom) hold in 2.8 vectors and pairs made as they come in 2.0
 * (docs/performance.md). A pass writes what it found by digit words, and the board's vectors
 * then change by whole 32-byte updates, which the next naked iteration's loads can forward
 * from. */

/* The next unit of a pass's digit set *todo, taken out of it: its first digit (the return
 * value) and *d2, its second at 32 bytes (SB_DIGITS, the phantom, when none is left). */
static inline size_t sbb_unit_next(uint32_t *todo, size_t *d2)
{
    /* The 64-bit scan at 16 bytes (its index needs no zero extension there; at 32 bytes
     * gcc then zero-extended the digit set instead). */
    const size_t d1 = SBB_DPV == 1 ? sbv_ctz64(*todo) : sbv_ctz(*todo);
    *todo &= *todo - 1;
#if SBB_DPV == 2
    /* The builtin: gcc folds the zero test into tzcnt's flags (sbv_ctz cost 1.6% on 17-clue). */
    *d2 = *todo ? (size_t)__builtin_ctz(*todo) : SB_DIGITS;
    *todo &= *todo - 1;
#else
    *d2 = d1;
#endif
    return d1;
}

/* Digit words a[d1] and a[d2] (one digit's three band words each) as one vector. */
static inline sbv sbb_unit_at(const sbv4 *a, size_t d1, size_t d2)
{
#if SBB_DPV == 1
    (void)d2;
    return a[d1];
#elif defined(__AVX2__)
    return (sbv)_mm256_inserti128_si256(_mm256_castsi128_si256((__m128i)a[d1]), (__m128i)a[d2],
                                        1);
#else
    return sbv_join(a[d1], a[d2]); /* vec.h's rule: every target builds */
#endif
}

/* Writes a unit's vector x (digits d1 and d2) to digit words a[d1] and a[d2]. */
static inline void sbb_unit_put(sbv4 *a, size_t d1, size_t d2, sbv x)
{
#if SBB_DPV == 1
    (void)d2;
    a[d1] = x;
#else
    a[d1] = sbv_lo(x);
    a[d2] = sbv_hi(x);
#endif
}

#if SBB_DPV == 2
/* For the mask of x's zero lanes (bit i: lane i), bit 0: a lane of the low half is not
 * zero; bit 1: one of the high half. A table read where the two tests took ten operations. */
#define SBB_NZ(z) (uint8_t)((((z) & 15) != 15) | (((z) >> 4) != 15) << 1)
#define SBB_NZ4(z) SBB_NZ(z), SBB_NZ((z) + 1), SBB_NZ((z) + 2), SBB_NZ((z) + 3)
#define SBB_NZ16(z) SBB_NZ4(z), SBB_NZ4((z) + 4), SBB_NZ4((z) + 8), SBB_NZ4((z) + 12)
#define SBB_NZ64(z) SBB_NZ16(z), SBB_NZ16((z) + 16), SBB_NZ16((z) + 32), SBB_NZ16((z) + 48)
static const uint8_t sbb_halves_nz[256] = {SBB_NZ64(0), SBB_NZ64(64), SBB_NZ64(128),
                                           SBB_NZ64(192)};
#undef SBB_NZ64
#undef SBB_NZ16
#undef SBB_NZ4
#undef SBB_NZ

/* Bit 0: the low 16-byte half of x is not zero; bit 1: the high half. */
static inline uint32_t sbb_halves_any(sbv x)
{
#if defined(__AVX2__)
    const unsigned z = (unsigned)_mm256_movemask_ps(
        _mm256_castsi256_ps(_mm256_cmpeq_epi32((__m256i)x, _mm256_setzero_si256())));
    return sbb_halves_nz[z];
#else
    return (uint32_t)sbv4_any(sbv_lo(x)) | (uint32_t)sbv4_any(sbv_hi(x)) << 1;
#endif
}
#endif

/* The digits d1 and d2 of a unit whose lanes of its vector x are not all zero. */
static inline uint32_t sbb_unit_any(sbv x, size_t d1, size_t d2)
{
#if SBB_DPV == 1
    (void)d2;
    return (uint32_t)sbv_any(x) << d1;
#else
    const uint32_t a = sbb_halves_any(x);
    return (a & 1) << d1 | (a >> 1) << d2;
#endif
}

/* The lanes of a unit whose second digit is d2 that the hidden singles' missing-digit flags
 * are read in: all but the phantom digit's (the padding lanes' flags are 0, the house masks
 * being SBV_BAND's). */
#if SBB_DPV == 2
static const sbv sbb_unit_lanes[2] = {{~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u},
                                      {~0u, ~0u, ~0u, ~0u, 0, 0, 0, 0}};
#endif
static inline sbv sbb_unit_valid(size_t d2)
{
#if SBB_DPV == 2
    return sbb_unit_lanes[d2 == SB_DIGITS];
#else
    (void)d2;
    return sbv_splat(~0u);
#endif
}

/* Cells with one digit left, over the nine digit words: once = a digit left, twice = two or
 * more; hi4 = a digit of indexes 4..7 left (the third bit plane of sbb_index_planes_hi, a node
 * of the tree). Reduced as a tree: the chain of a naked-singles iteration is what a settle
 * waits on. Stamped for the paired search's 32-byte words (two boards); the 16-byte count is
 * sbb_naked's own. */
#define SBB_COUNT_CELLS(name, T)                                                                \
    static inline void name(const T v[SB_DIGITS], T *once, T *twice, T *hi4)                   \
    {                                                                                          \
        const T o01 = v[0] | v[1], t01 = v[0] & v[1], o23 = v[2] | v[3], t23 = v[2] & v[3];   \
        const T o45 = v[4] | v[5], t45 = v[4] & v[5], o67 = v[6] | v[7], t67 = v[6] & v[7];   \
        const T o03 = o01 | o23, t03 = t01 | t23 | (o01 & o23);                                \
        const T o47 = o45 | o67, t47 = t45 | t67 | (o45 & o67);                                \
        const T o07 = o03 | o47, t07 = t03 | t47 | (o03 & o47);                                \
        *once = o07 | v[8];                                                                    \
        *twice = t07 | (o07 & v[8]);                                                           \
        *hi4 = o47;                                                                            \
    }

/* The four bit planes of each cell's digit index (exact for the cells with one digit) over
 * the nine digit words, hi4 from the count above: p[k] = the cells holding a digit whose
 * index has bit k. */
#define SBB_INDEX_PLANES(name, T)                                                               \
    static inline void name(const T v[SB_DIGITS], T hi4, T p[4])                               \
    {                                                                                          \
        const T v37 = v[3] | v[7];                                                             \
        p[0] = v[1] | v[5] | v37;                                                              \
        p[1] = v[2] | v[6] | v37;                                                              \
        p[2] = hi4;                                                                            \
        p[3] = v[8];                                                                           \
    }
SBB_INDEX_PLANES(sbb_index_planes_hi, sbv4)

/* sbb_index_planes_hi for 16-byte digit words, the third plane made here: no 16-byte count
 * leaves it at hand. */
static inline void sbb_index_planes(const sbv4 v[SB_DIGITS], sbv4 p[4])
{
    sbb_index_planes_hi(v, v[4] | v[5] | v[6] | v[7], p);
}

/* All ones in the lanes of digit index e within its vector, zero elsewhere. */
static inline sbv sbb_digit_lanes(int e)
{
#if SBB_DPV == 1
    (void)e;
    return sbv_splat(~0u);
#else
    return (sbv)((sbv){0, 0, 0, 0, 1, 1, 1, 1} == (uint32_t)(e & 1));
#endif
}

/* 16-byte alignment for word arrays stored to as whole sbv4 vectors. */
#define SBB_ALIGNED __attribute__((aligned(16)))

/* A band-word vector read as two 64-bit lanes: bands 0 and 1 (band 1 at bit 32), then band 2
 * and the zero padding. */
typedef uint64_t sbb_q2 __attribute__((vector_size(16), may_alias));

/* Bit k (k < 4) of the result: bit s of lane k of x. The shift brings bit s of every lane to
 * its sign bit, and one mask move gathers the four (x86; NEON weights and adds them). */
static inline unsigned sbb_lane_bits(sbv4 x, int s)
{
    const sbv4 y = x << (31 - s);
#if defined(__SSE2__)
    return (unsigned)_mm_movemask_ps((__m128)y);
#elif defined(__ARM_NEON)
    return vaddvq_u32((uint32x4_t)((y >> 31) << (sbv4){0, 1, 2, 3}));
#else
    return y[0] >> 31 | (y[1] >> 31) << 1 | (y[2] >> 31) << 2 | (y[3] >> 31) << 3;
#endif
}

/* Lanes j of planes p[0..3] (band j of each), as one vector: lane k is p[k]'s word j. */
static inline void sbb_transpose(const sbv4 p[4], sbv4 out[3])
{
    const sbv4 a01 = SBV4_SHUF2(p[0], p[1], 0, 4, 1, 5), a23 = SBV4_SHUF2(p[2], p[3], 0, 4, 1, 5);
    const sbv4 b01 = SBV4_SHUF2(p[0], p[1], 2, 6, 3, 7), b23 = SBV4_SHUF2(p[2], p[3], 2, 6, 3, 7);
    out[0] = SBV4_SHUF2(a01, a23, 0, 1, 4, 5);
    out[1] = SBV4_SHUF2(a01, a23, 2, 3, 6, 7);
    out[2] = SBV4_SHUF2(b01, b23, 0, 1, 4, 5);
}

/* The digit-index planes of the naked singles (sbb_naked) laid out for reading a cell's index
 * at a position of the two 64-bit words a set of band words splits into (word 0: bands 0 and
 * 1, band 1 at bit 32; word 1: band 2): q[h][k] is word h of plane k. Walking the singles by
 * those positions needs no band loop and no division by 27 (sb_band_peers_at), and one shift
 * and one mask move (two at 16 bytes) gather a cell's four index bits. */
typedef struct sbb_qplanes {
    uint64_t q[2][8] __attribute__((aligned(32))); /* [h][4..8): padding, see SBB_WALK */
} sbb_qplanes;

/* Fills *q from planes p[0..3] (plane k: bit k of each cell's digit index, as band words). */
static inline void sbb_qplanes_of(const sbv4 p[4], sbb_qplanes *q)
{
#if defined(__AVX2__)
    const __m256i a =
        _mm256_inserti128_si256(_mm256_castsi128_si256((__m128i)p[0]), (__m128i)p[2], 1);
    const __m256i b =
        _mm256_inserti128_si256(_mm256_castsi128_si256((__m128i)p[1]), (__m128i)p[3], 1);
    _mm256_store_si256((__m256i *)(void *)q->q[0], _mm256_unpacklo_epi64(a, b));
    _mm256_store_si256((__m256i *)(void *)q->q[1], _mm256_unpackhi_epi64(a, b));
#else
    sbv4 *x = (sbv4 *)(void *)q->q[0], *y = (sbv4 *)(void *)q->q[1];
    x[0] = SBV4_SHUF2(p[0], p[1], 0, 1, 4, 5);
    x[1] = SBV4_SHUF2(p[2], p[3], 0, 1, 4, 5);
    y[0] = SBV4_SHUF2(p[0], p[1], 2, 3, 6, 7);
    y[1] = SBV4_SHUF2(p[2], p[3], 2, 3, 6, 7);
#endif
}

/* The digit index (0..15) of the cell at bit p of word h, from row q = sbb_qplanes' q[h]:
 * bit k is bit p of q[k], brought to the sign bit of its lane and gathered by a mask move. */
static inline unsigned sbb_qbits(const uint64_t *q, int p)
{
#if defined(__AVX2__)
    const __m256i y = _mm256_sll_epi64(_mm256_load_si256((const __m256i *)(const void *)q),
                                       _mm_cvtsi32_si128(63 - p));
    return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(y));
#elif defined(__SSE2__)
    const __m128i n = _mm_cvtsi32_si128(63 - p);
    const __m128i *y = (const __m128i *)(const void *)q;
    const __m128i y01 = _mm_sll_epi64(_mm_load_si128(y), n);
    const __m128i y23 = _mm_sll_epi64(_mm_load_si128(y + 1), n);
    return (unsigned)_mm_movemask_pd(_mm_castsi128_pd(y01)) |
           (unsigned)_mm_movemask_pd(_mm_castsi128_pd(y23)) << 2;
#else
    return (unsigned)((q[0] >> p & 1) | (q[1] >> p & 1) << 1 | (q[2] >> p & 1) << 2 |
                      (q[3] >> p & 1) << 3);
#endif
}

/* The digit index (0..8) of a single at bit s of a band, from its index bit planes two per
 * word: q01 planes 0 (low half) and 1 (high half), q23 planes 2 and 3. The paired search's
 * reader (kernel_pair.h): there, transposing both boards' planes for sbb_lane_bits cost more
 * than it saved (+1.9% instructions on hardest). */
static inline uint32_t sbb_digit_at(uint64_t q01, uint64_t q23, int s)
{
    const uint64_t two = 1 | 1ull << 32;
    const uint64_t u = (q01 >> s & two) | (q23 >> s & two) << 2; /* planes at bits 0, 32, 2, 34 */
    return (uint32_t)(u | u >> 31) & 0xFu;
}

/* Where the walk applies (SBB_WALK_APPLIES), a single's 20 peers leave its digit's vector as
 * it is walked, in registers: every vector of the board is ANDed with its entry of
 * sb_band_walk_keep from the single's position and digit, all ones but for its digit's word,
 * one operation a vector, where an entry in memory took three a single and one a vector an
 * iteration. The eliminations gathered in memory (sbb_nelim: an entry a digit, loaded,
 * changed and stored by each single, then every entry read back once an iteration) put two
 * stores forwarded to loads on the path of every naked iteration, which waits on the one
 * before: the search ran 1.2-1.3x the time at avx2 and sse4 on Zen 4 (docs/performance.md).
 * The AVX2 stamp walks in written-out assembly (SBB_WALK_LOOP); the 16-byte x86 stamps in C.
 * NEON and the riscv64 base, which no machine here times, keep the entries. */
#if SBB_DPV == 2 && defined(__x86_64__) && defined(__BMI__) && defined(__AVX2__)
#define SBB_WALK_ASM 1
#endif
#if defined(SBB_WALK_ASM) || (SBB_DPV == 1 && defined(__SSE2__))
#define SBB_WALK_APPLIES 1
#endif

/* The naked singles' eliminations where the walk does not apply them (SBB_WALK_APPLIES),
 * built while the board stays in registers: a single adds its 20 peers to its own digit's
 * entry (one load, one operation, one store) and each iteration applies every digit's entry
 * once. They only grow within a call, and applying them twice changes nothing. At 16 bytes
 * an entry holds the cells kept, at 32 bytes the cells removed, each vector read as its two
 * stored halves (a load spanning two smaller stores stalls). */
typedef struct sbb_nelim {
    sbv v[SBB_NV];
} sbb_nelim;

/* No elimination yet. */
static inline void sbb_nelim_clear(sbb_nelim *e)
{
    for (int k = 0; k < SBB_NV; k++)
        e->v[k] = sbv_splat(SBB_DPV == 1 ? ~0u : 0);
}

/* Digit index d's cells lose the cells of peers (a cell's peer mask). */
static inline void sbb_nelim_add(sbb_nelim *e, uint32_t d, const sbv4 *peers)
{
    sbv4 *x = (sbv4 *)(void *)e->v;
#if SBB_DPV == 1 && defined(__SSE2__)
    /* One and-not from memory: gcc 12 spells ~*peers as an XOR with all ones, then an AND. */
    x[d] = (sbv4)_mm_andnot_si128((__m128i)*peers, (__m128i)x[d]);
#elif SBB_DPV == 1
    x[d] &= ~*peers;
#else
    x[d] |= *peers;
#endif
}

/* The cells board vector k keeps under eliminations e. */
static inline sbv sbb_nelim_kept(const sbb_nelim *e, int k)
{
#if SBB_DPV == 1
    return e->v[k];
#else
    const sbv4 *x = (const sbv4 *)(const void *)e->v;
    return ~sbv_join(x[2 * k], x[2 * k + 1]); /* vec.h's rule: every target builds */
#endif
}

/* The board's vectors v lose the eliminations e. */
static inline void sbb_nelim_apply(sbv v[SBB_NV], const sbb_nelim *e)
{
    for (int k = 0; k < SBB_NV; k++)
        v[k] &= sbb_nelim_kept(e, k);
}

#if SBB_DPV == 1
/* The 16-byte walk's step where it applies (SBB_WALK_APPLIES): digit index d's word of v
 * loses the peers of band position i, every other word ANDed with all ones, one AND a word
 * from sb_band_walk_keep (a mask made in registers took three without VEX: a copy, an OR
 * and the AND). d is 0..8, as the table needs: a naked single has one digit, and the hidden
 * pass has returned before its walk when a cell is hidden for two. */
static inline void sbb_walk_out(sbv4 v[SB_DIGITS], size_t d, size_t i)
{
    const sbv4 *keep = (const sbv4 *)(const void *)sb_band_walk_keep[9 * i + 8 - d];
    for (int k = 0; k < SB_DIGITS; k++)
        v[k] &= keep[k];
}
#endif

#if SBB_DPV == 2
/* sbb_qplanes of the four bit planes of each cell's digit index over the board-shaped digit
 * vectors v (two digits a vector, the tenth the empty phantom): exact for the cells in one
 * digit's words. Plane 0 is the odd digits of v[0..3], plane 1 digits 2, 3, 6 and 7, plane 2
 * digits 4 to 7, plane 3 digit 8; planes 0 and 2 are gathered into one vector and planes 1
 * and 3 into another by lane permutes, whose 64-bit interleaves are the two rows. (Folded as
 * 16-byte halves first, gcc copied registers around the extracts.) */
static inline void sbb_qplanes_of_vecs(const sbv v[SBB_NV], sbb_qplanes *q)
{
    const sbv o01 = v[0] | v[1], o23 = v[2] | v[3], o03 = o01 | o23, p1 = v[1] | v[3];
#if defined(__AVX2__)
    const __m256i t2 = (__m256i)(o23 | sbv_swap_halves(o23));
    const __m256i a = _mm256_permute2x128_si256((__m256i)o03, t2, 0x21); /* planes 0, 2 */
    const __m256i b = _mm256_permute2x128_si256((__m256i)p1, (__m256i)v[4], 0x20) |
                      _mm256_permute2x128_si256((__m256i)p1, (__m256i)p1, 0x81); /* 1, 3 */
    _mm256_store_si256((__m256i *)(void *)q->q[0], _mm256_unpacklo_epi64(a, b));
    _mm256_store_si256((__m256i *)(void *)q->q[1], _mm256_unpackhi_epi64(a, b));
#else
    const sbv4 planes[4] = {sbv_hi(o03), sbv_lo(p1) | sbv_hi(p1), sbv_lo(o23) | sbv_hi(o23),
                            sbv_lo(v[4])};
    sbb_qplanes_of(planes, q);
#endif
}
#endif

/* Digit index d's bit joins dirty: one bts on x86-64, where gcc builds the bit and ORs it
 * (three instructions a single). */
static inline void sbb_dirty_digit(uint32_t *dirty, size_t d)
{
#if defined(__x86_64__)
    __asm__("btsl %k1, %0" : "+r"(*dirty) : "r"(d) : "cc");
#else
    *dirty |= SBB_HIDDEN_DIRTY(d);
#endif
}

/* The walk's step: g drops the cell just walked, and once it is empty takes rest's cells (h64
 * their word's offset, SBB_WALK). As a select, which gcc compiles as a second loop around the
 * first: each loop knows its word, and nine instructions of branch-free masks leave every
 * single's path (callgrind: sse4 -1.1..-1.8%, scalar -1.5..-2.7%) at no cost in time at 16
 * bytes. The avx2 stamp steps otherwise (SBB_WALK_LOOP). */
#define SBB_WALK_NEXT(g, rest, h64)                                                            \
    do {                                                                                       \
        (g) &= (g) - 1;                                                                        \
        const int next_ = (g) == 0;                                                            \
        (g) = next_ ? (rest) : (g);                                                            \
        (rest) = next_ ? 0 : (rest);                                                           \
        (h64) = next_ ? 64 : (h64);                                                            \
    } while (0)

/* The walk's loop over the singles of words gw (walked) and rw (rest), gw not empty, hw the
 * walked word's offset (64 x the word: its row's byte offset in sbb_qplanes qp, its first
 * band position): each single's 20 peers leave its digit's vector of
 * the board's vectors el (SBB_WALK_APPLIES) or join its digit's entry of sbb_nelim el, and its
 * digit's bit joins dt. */
#if defined(SBB_WALK_ASM)
/* At avx2, written out: 23 instructions a single. Written in C, gcc's register choices around
 * the loop moved with every change elsewhere in the settle, copying its state between
 * registers 2 to 4 times a single and zeroing tzcnt's output first (for a false dependency
 * only Haswell and Broadwell have). A single at position p: its digit d is the mask move of
 * its plane row shifted left by 63 - p (andn); the board's five vectors are ANDed with the
 * ten entries of sb_band_walk_keep from 9 x (hw + p) + 8 - d, 32 bytes at a time (for half
 * the singles 16-byte aligned, some crossing a cache line: as fast on Zen 4 as the peers
 * broadcast and ANDed out through five digit masks, with five instructions fewer). The
 * vectors are pinned to ymm0-ymm4 and ymm14-ymm15: left to choose, gcc moved three of the
 * board's vectors between registers and the stack around the loop every iteration. One loop,
 * stepped by three conditional moves on blsr's zero flag: as the 16-byte stamps' select (a
 * second loop) it ran multi and dug 1.01-1.06x the time (its second exit mispredicts, on the
 * Intel VM and on Zen 4). rw is emptied from hw, 0 while the first word is walked (once the
 * second is, rw is 0 already and the walk ends the next time gw is empty), so that the step
 * takes one constant register, not two; the constant as a memory operand ran dug 1.06x the
 * time (Zen 4). Ten general registers, 63 in one for the andn: with twelve, gcc kept the board's
 * pointer on the stack. */
#define SBB_WALK_LOOP(qp, gw, rw, hw, el, dt)                                                  \
    do {                                                                                       \
        uint64_t p_, d_, dirty_ = 0;                                                           \
        register __m256i y_ __asm__("ymm14"), t_ __asm__("ymm15");                             \
        register sbv v0_ __asm__("ymm0") = (el)[0], v1_ __asm__("ymm1") = (el)[1];             \
        register sbv v2_ __asm__("ymm2") = (el)[2], v3_ __asm__("ymm3") = (el)[3];             \
        register sbv v4_ __asm__("ymm4") = (el)[4];                                            \
        __asm__("1:\n\t"                                                                       \
                "tzcnt %[g], %[p]\n\t"                                                         \
                "andn %[c63], %[p], %[d]\n\t"                                                  \
                "vmovq %[d], %x[t]\n\t"                                                        \
                "vmovdqa (%[q],%[h]), %[y]\n\t"                                                \
                "vpsllq %x[t], %[y], %[y]\n\t"                                                 \
                "vmovmskpd %[y], %[d]\n\t"                                                     \
                "add %[h], %[p]\n\t"                                                           \
                "lea (%[p],%[p],8), %[p]\n\t"                                                  \
                "bts %[d], %[dirty]\n\t"                                                       \
                "sub %[d], %[p]\n\t"                                                           \
                "shl $4, %[p]\n\t"                                                             \
                "vpand 128(%[keep],%[p]), %[v0], %[v0]\n\t"                                    \
                "vpand 160(%[keep],%[p]), %[v1], %[v1]\n\t"                                    \
                "vpand 192(%[keep],%[p]), %[v2], %[v2]\n\t"                                    \
                "vpand 224(%[keep],%[p]), %[v3], %[v3]\n\t"                                    \
                "vpand 256(%[keep],%[p]), %[v4], %[v4]\n\t"                                    \
                "blsr %[g], %[g]\n\t"                                                          \
                "cmovz %[rest], %[g]\n\t"                                                      \
                "cmovz %[h], %[rest]\n\t"                                                      \
                "cmovz %[c64], %[h]\n\t"                                                       \
                "test %[g], %[g]\n\t"                                                          \
                "jnz 1b"                                                                       \
                : [g] "+&r"(gw), [rest] "+&r"(rw), [h] "+&r"(hw), [p] "=&r"(p_),               \
                  [d] "=&r"(d_), [dirty] "+&r"(dirty_), [y] "=x"(y_),                         \
                  [t] "=x"(t_), [v0] "+x"(v0_), [v1] "+x"(v1_), [v2] "+x"(v2_), [v3] "+x"(v3_), \
                  [v4] "+x"(v4_)                                                               \
                : [q] "r"((qp).q), [keep] "r"(sb_band_walk_keep), [c64] "r"((size_t)64),       \
                  [c63] "r"((size_t)63), "m"(qp), "m"(sb_band_walk_keep)                       \
                : "cc");                                                                       \
        (el)[0] = v0_, (el)[1] = v1_, (el)[2] = v2_, (el)[3] = v3_, (el)[4] = v4_;             \
        (dt) |= (uint32_t)dirty_;                                                              \
    } while (0)
#else
#if defined(SBB_WALK_APPLIES)
#define SBB_WALK_OUT(vs, d, i) sbb_walk_out((vs), (d), (i))
#else
#define SBB_WALK_OUT(el, d, i)                                                                 \
    sbb_nelim_add(&(el), (d), (const sbv4 *)(const void *)sb_band_peers_at[i])
#endif
#define SBB_WALK_LOOP(qp, gw, rw, hw, el, dt)                                                  \
    do {                                                                                       \
        const size_t p_ = sbv_ctz64(gw);                                                       \
        const uint64_t *row_ = (const uint64_t *)(const void *)((const char *)(qp).q + (hw));  \
        const size_t d_ = sbb_qbits(row_, (int)p_);                                            \
        SBB_WALK_OUT(el, d_, (hw) + p_);                                                       \
        sbb_dirty_digit(&(dt), d_);                                                            \
        SBB_WALK_NEXT(gw, rw, hw); /* the next cell: word 1 from here on, or none */           \
    } while (gw)
#endif

/* Places the cells of set fresh (an sbv4), each holding one digit whose index the four bit
 * planes planes[] say: each cell's 20 peers join its digit's eliminations (an sbb_nelim),
 * and its digit's bit joins dirty. A macro, so that each use compiles as written in place
 * (as a helper function, inlined, it moved gcc's register choices in the naked singles:
 * +0.6-1.4% instructions). The cells as sbb_qplanes' two 64-bit words: g the cells left in
 * the word walked, rest the other word's, all in registers (SBB_WALK_LOOP). (Walking band
 * words kept in memory put a store-to-load forwarding on every single's path: 4-7% slower at
 * every band level on Intel, bench -t 1.) */
#define SBB_WALK(fresh, planes, elim, dirty)                                                   \
    do {                                                                                       \
        sbb_qplanes qpp_;                                                                      \
        sbb_qplanes_of((planes), &qpp_);                                                       \
        SBB_WALK_Q(fresh, qpp_, elim, dirty);                                                  \
    } while (0)

/* SBB_WALK with the planes already laid out as sbb_qplanes qp. */
#define SBB_WALK_Q(fresh, qp, elim, dirty)                                                     \
    do {                                                                                       \
        uint64_t g_ = ((sbb_q2)(fresh))[0], rest_ = ((sbb_q2)(fresh))[1];                      \
        size_t h64_ = 0; /* 64 x the word walked (SBB_WALK_LOOP) */                            \
        if (!g_) {                                                                             \
            g_ = rest_;                                                                        \
            rest_ = 0;                                                                         \
            h64_ = 64;                                                                         \
        }                                                                                      \
        SBB_WALK_LOOP(qp, g_, rest_, h64_, elim, dirty);                                       \
    } while (0)

/* Naked singles to their fixpoint: every cell left with one digit and not yet placed has
 * that digit removed from its 20 peers (sb_band_peers, through sbb_nelim, the board staying in
 * registers across iterations), then the cells are counted again, until no new single
 * appears. A clash (two singles of one digit in a house) empties both. At 16 bytes the
 * board is nine digit words; the AVX2 stamp keeps it as its five 32-byte vectors (two digits
 * each), so the count folds the halves once an iteration: 11% fewer instructions and 6-8%
 * faster on Zen 5 than nine 16-byte words (docs/performance.md).
 * @return 0 on an empty cell, else 1. */
/* A stamp may force the naked singles inline (kernel_base.c); the others leave it to gcc. */
#ifndef SBB_NAKED_INLINE
#define SBB_NAKED_INLINE
#endif
static inline SBB_NAKED_INLINE int sbb_naked(sb_board *b)
{
    sbb_word *w = sbb_words(b);
    sbv4 *donep = sbb_done_vec(w);
    const sbv4 cells = {SBB_CELLS, SBB_CELLS, SBB_CELLS, 0};
    sbv *bv = sbb_vecs(b);
    sbv v[SBB_NV]; /* at 16 bytes sbv is sbv4: one digit word each */
    for (int k = 0; k < SBB_NV; k++)
        v[k] = bv[k];
    sbv4 done = *donep;
    uint32_t dirty = 0;
#if !defined(SBB_WALK_APPLIES)
    sbb_nelim elim;
#endif
    int any = 0; /* a single was found: elim is in use and the board changes */
    for (;;) {
        sbv4 once, twice;
#if SBB_DPV == 2
        /* Counted per half (the even digits, the odd ones and the empty phantom), then folded
         * against the halves swapped (folded as 16-byte halves, gcc copied registers around
         * the extracts). */
        const sbv o01 = v[0] | v[1], t01 = v[0] & v[1], o23 = v[2] | v[3], t23 = v[2] & v[3];
        const sbv o03 = o01 | o23, t03 = t01 | t23 | (o01 & o23);
        const sbv o = o03 | v[4], t = t03 | (o03 & v[4]);
        const sbv os = sbv_swap_halves(o);
        once = sbv_lo(o | os);
        twice = sbv_lo(t | sbv_swap_halves(t) | (o & os));
#else
        /* Accumulated digit by digit (gcc reassociates it into a tree of its own): written as
         * a tree of pairs, its partial sums and the nine digit words outgrew the sixteen xmm
         * registers and spilled four of them an iteration; this way one, and sse4 and the
         * scalar level run 3-5% faster (docs/performance.md). */
        once = v[0] | v[1];
        twice = v[0] & v[1];
        for (int d = 2; d < SB_DIGITS; d++) {
            twice |= once & v[d];
            once |= v[d];
        }
#endif
        if (sbv4_any(cells & ~once))
            return 0;
        const sbv4 fresh = once & ~twice & ~done;
        if (!sbv4_any(fresh))
            break;
#if defined(SBB_WALK_APPLIES)
        any = 1;
#else
        if (!any) { /* cleared here, not on entry: most calls find no single */
            any = 1;
            sbb_nelim_clear(&elim);
        }
#endif
        done |= fresh;
        /* The four bit planes of each cell's digit index (exact for the cells with one digit),
         * laid out by sbb_qplanes_of, so that a single's digit is one shift and one mask move
         * (sbb_qbits). */
#if SBB_DPV == 2
        sbb_qplanes qp;
        sbb_qplanes_of_vecs(v, &qp);
#define SBB_NAKED_WALK(x) SBB_WALK_Q(fresh, qp, x, dirty)
#else
        sbv4 planes[4];
        sbb_index_planes(v, planes);
#define SBB_NAKED_WALK(x) SBB_WALK(fresh, planes, x, dirty)
#endif
#if defined(SBB_WALK_APPLIES)
        SBB_NAKED_WALK(v); /* the singles' peers leave v as they are walked */
#else
        SBB_NAKED_WALK(elim);
        sbb_nelim_apply(v, &elim);
#endif
#undef SBB_NAKED_WALK
    }
    if (!any)
        return 1;
    for (int k = 0; k < SBB_NV; k++)
        bv[k] = v[k];
    *donep = done;
    w[SBB_DIRTY] |= dirty | dirty << 16;
    return 1;
}

/* Per house of one vector w (each 16-byte group one digit's three band words), whether the
 * digit has a place there (one) and two or more (two), as house flags: rows at their first
 * cell, boxes at their first row and column, columns in the first row of every band. The
 * "one" flags are exact at those positions only (other bits are left as they fall: their
 * one reader masks them), the "two" flags are masked. */
typedef struct sbb_houses {
    sbv r1, r2, x1, x2, c1, c2; /* rows, boxes, columns: one place or more, two or more */
} sbb_houses;

static inline __attribute__((always_inline)) sbb_houses sbb_houses_of(sbv w)
{
    const sbv row = SBV_BAND(SBB_ROW), col = SBV_BAND(SBB_COL), box = SBV_BAND(SBB_BOX);
    sbb_houses h;
    /* Triads: to = the digit in the triad, tt = in two or more of its cells, exact at each
     * triad's first cell. Not masked to those cells: every flag below is read at a row's,
     * box's or column's first cell, and the shifts bring only triad positions there. */
    const sbv w1 = w >> 1, w2 = w >> 2;
    const sbv to = w | w1 | w2, tt = sbv_maj(w, w1, w2);
    /* Rows and boxes from the triads; columns per band, then across the bands. */
    const sbv to3 = to >> 3, to6 = to >> 6, to9 = to >> 9, to18 = to >> 18;
    h.r1 = to | to3 | to6;
    h.r2 = (tt | (tt >> 3) | (tt >> 6) | sbv_maj(to, to3, to6)) & row;
    h.x1 = to | to9 | to18;
    h.x2 = (tt | (tt >> 9) | (tt >> 18) | sbv_maj(to, to9, to18)) & box;
    const sbv w9 = w >> 9, w18 = w >> 18;
    const sbv cb = w | w9 | w18; /* exact in the first row (bits 0..8) */
    const sbv s1 = SBV_SHUF4(cb, 1, 2, 0, 3), s2 = SBV_SHUF4(cb, 2, 0, 1, 3);
    h.c1 = cb | s1 | s2;
    /* Two places or more: two in one band, or one in each of two bands. The majority of cb,
     * s1 and s2 is or_bands(cb & s1) (the three pairs of bands are cb & s1 and its two
     * rotations), so those pairs join the in-band ones before the one rotation. */
    h.c2 = sbb_or_bands((sbv_maj(w, w9, w18) | (cb & s1)) & col);
    return h;
}

/* The hidden-singles work on one vector w whose 16-byte groups each hold one digit's three
 * band words: the cells where that digit is its house's only place. *none gets the house
 * flags (row, box or column positions) of the houses where the digit has no place at all. */
static inline sbv sbb_hidden_of(sbv w, sbv *none)
{
    const sbv row = SBV_BAND(SBB_ROW), col = SBV_BAND(SBB_COL), box = SBV_BAND(SBB_BOX);
    const sbb_houses h = sbb_houses_of(w);
    *none = (row & ~h.r1) | (box & ~h.x1) | (col & ~h.c1);
    /* w lies in its houses with a place, so a cell of w is alone in a house unless every
     * house of it holds two places or more. The box and column flags both lie in the first
     * row: they meet there, and their meet fills the band's rows once (three operations
     * fewer than filling each). */
    return w & ~(sbb_fill_rows(h.r2) & sbb_fill_cols(sbb_fill_triads(h.x2) & h.c2));
}

/* Locked candidates on one vector w (one digit per 16-byte group): w without the cells
 * sbb_locked removes. */
static inline sbv sbb_locked_of(sbv w)
{
    const sbv col = SBV_BAND(SBB_COL);
    /* The triad flags unmasked: sbb_locked reads them through its rotations alone, which
     * take triad positions only. */
    const sbv to = w | (w >> 1) | (w >> 2);
    const sbv cb = (w | (w >> 9) | (w >> 18)) & col;
    return w & ~sbb_locked(to, cb, SBV_SHUF4(cb, 1, 2, 0, 3), SBV_SHUF4(cb, 2, 0, 1, 3));
}

/* Board vector k of bv with its hidden cells (hid1: every digit's, hid: by digit word) left
 * holding their own digit alone. */
static inline sbv sbb_hidden_kept(const sbv *bv, sbv hid1, const sbv4 *hid, int k)
{
    return bv[k] & ~(hid1 & ~sbb_unit_at(hid, SBB_DPV * k, SBB_DPV * k + 1));
}

/* Hidden singles over all 27 houses at once: per digit, the houses where it has exactly one
 * place take it there (the cell keeps only that digit), and the cells so set are placed: their
 * digit leaves their peers (SBB_WALK, as the naked singles place theirs), so the next naked
 * iteration does not count every cell again to find them; two such cells of one digit in a
 * house empty each other, a clash the naked singles find. Naked singles are settled, so a
 * placed digit is its house's only place and shows as hidden in its own cell, which changes
 * nothing. Placing here, and the pass forced inline (left to gcc it went out of line in every
 * stamp), ran 1.5-3.1% fewer instructions at avx2 and was 1.03-1.05x faster there, 1.02-1.03x
 * at sse4 (docs/performance.md).
 * @return 0 on contradiction (a digit with no place in a house, a cell hidden for two digits),
 * else 1 with *changed set when a cell lost digits. */
static inline __attribute__((always_inline)) int sbb_hidden(sb_board *b, int *changed)
{
    sbv *bv = sbb_vecs(b);
    sbb_word *dirty = &sbb_words(b)[SBB_DIRTY];
    const sbv4 *x = (const sbv4 *)(const void *)b->cand;
    sbv hidv[SBB_NV]; /* each digit's hidden cells as its word; 0 for one not looked at */
    sbv4 *hid = (sbv4 *)(void *)hidv;
    sbv bad = {0}, hid1 = {0}, hid2 = {0};
    for (int k = 0; k < SBB_NV; k++)
        hidv[k] = (sbv){0};
    for (uint32_t todo = *dirty & 0x1FFu; todo;) {
        size_t d2;
        const size_t d1 = sbb_unit_next(&todo, &d2);
        sbv none;
        const sbv h = sbb_hidden_of(sbb_unit_at(x, d1, d2), &none);
        bad |= none & sbb_unit_valid(d2);
        hid2 |= hid1 & h;
        hid1 |= h;
        sbb_unit_put(hid, d1, d2, h);
    }
    if (sbv_any(bad))
        return 0;
#if SBB_DPV == 2
    {
        const sbv hh = sbv_swap_halves(hid1);
        hid2 |= sbv_swap_halves(hid2) | (hid1 & hh);
        hid1 |= hh;
    }
#endif
    if (sbv_any(hid2))
        return 0;
    /* Hidden cells lose their other digits in every vector, clean ones included. A placed
     * cell shows as hidden for its own digit and loses nothing: when every hidden cell is
     * placed (43% of the passes on hardest_11plus) the board stays as it is. */
    uint32_t moved = 0;
    /* The placed cells loaded whole and, at 32 bytes, the low half of hid1 (both halves
     * agree), where building them lane by lane took inserts: 0.5-0.8% fewer instructions
     * at avx2. At 16 bytes hid1's lane 3 is 0 as well, but taken whole it tipped gcc's
     * inlining of the naked singles in the sse4 stamp (+2.7-4.5%), so it is built. */
    const sbv4 done = *sbb_done_vec(sbb_words(b));
#if SBB_DPV == 2
    const sbv4 h4 = sbv_lo(hid1);
#else
    const sbv4 h4 = {hid1[0], hid1[1], hid1[2], 0};
#endif
    const sbv4 fresh = h4 & ~done;
    if (sbv4_any(fresh)) {
        /* The fresh hidden cells are placed here, as the next naked-singles iteration would
         * place them after counting every cell again to find them: their digit leaves their
         * peers. Their digits' index planes come from the hidden words (no cell is hidden
         * for two digits). A hidden cell keeps its digit alone: the vectors so kept are made
         * before the walk, which takes the cells' peers out of them in registers
         * (SBB_WALK_APPLIES). Where the walk gathers its eliminations in memory instead, at
         * 16 bytes (NEON, riscv64) each is made as it is stored: the nine would not fit
         * beside the walk's state (docs/performance.md). */
#if defined(SBB_WALK_APPLIES) || SBB_DPV == 2
        sbv kept[SBB_NV];
        for (int k = 0; k < SBB_NV; k++)
            kept[k] = sbb_hidden_kept(bv, hid1, hid, k);
#endif
        sbv4 planes[4]; /* from the digit words as stored (a wider load would span two) */
        sbb_index_planes(hid, planes);
        uint32_t placed = 0;
#if defined(SBB_WALK_APPLIES)
        SBB_WALK(fresh, planes, kept, placed); /* the cells' peers leave kept */
#else
        sbb_nelim elim;
        sbb_nelim_clear(&elim);
        SBB_WALK(fresh, planes, elim, placed);
#endif
        (void)placed; /* the changed words below say which digits moved */
        for (int k = 0; k < SBB_NV; k++) {
#if defined(SBB_WALK_APPLIES)
            const sbv nv = kept[k];
#elif SBB_DPV == 2
            const sbv nv = kept[k] & sbb_nelim_kept(&elim, k);
#else
            const sbv nv = sbb_hidden_kept(bv, hid1, hid, k) & sbb_nelim_kept(&elim, k);
#endif
#if SBB_DPV == 2
            moved |= sbb_halves_any(nv ^ bv[k]) << 2 * k;
#else
            moved |= sbb_unit_any(nv ^ bv[k], k, k);
#endif
            bv[k] = nv;
        }
        *sbb_done_vec(sbb_words(b)) = done | fresh;
    }
    *dirty = moved | ((*dirty >> 16 | moved) << 16);
    *changed = moved != 0;
    return 1;
}

/* Locked candidates over the whole board (sbb_locked per digit). @return 1 if a candidate
 * was removed (an emptied cell is left for sbb_naked to find), else 0. */
static inline int sbb_locked_pass(sb_board *b)
{
    sbv *bv = sbb_vecs(b);
    sbb_word *dirty = &sbb_words(b)[SBB_DIRTY];
    uint32_t moved = 0;
#if SBB_DPV == 1
    for (uint32_t todo = *dirty >> 16 & 0x1FFu; todo; todo &= todo - 1) {
        const size_t k = sbv_ctz64(todo);
        const sbv w = bv[k];
        const sbv nv = sbb_locked_of(w);
        moved |= sbb_unit_any(nv ^ w, k, k);
        bv[k] = nv;
    }
#else
    /* The cells each digit loses, by digit words, then taken from the board's vectors. */
    const sbv4 *x = (const sbv4 *)(const void *)b->cand;
    sbv elv[SBB_NV];
    sbv4 *el = (sbv4 *)(void *)elv;
    for (int k = 0; k < SBB_NV; k++)
        elv[k] = (sbv){0};
    for (uint32_t todo = *dirty >> 16 & 0x1FFu; todo;) {
        size_t d2;
        const size_t d1 = sbb_unit_next(&todo, &d2);
        const sbv w = sbb_unit_at(x, d1, d2);
        const sbv e = w ^ sbb_locked_of(w);
        moved |= sbb_unit_any(e, d1, d2);
        sbb_unit_put(el, d1, d2, e);
    }
    moved &= 0x1FFu; /* not the phantom */
    /* Most passes remove nothing (1,121 of 1,369 on multi): no vector mask is made then. */
    for (uint32_t todo = moved ? sbb_vecs_of(moved) : 0; todo; todo &= todo - 1) {
        const int k = __builtin_ctz(todo);
        bv[k] &= ~sbb_unit_at(el, 2 * k, 2 * k + 1);
    }
#endif
    *dirty = (*dirty & 0xFFFFu) | moved | moved << 16;
    return moved != 0;
}

#if defined(__SSE2__) && !defined(__POPCNT__)
/* x86-64's baseline (kernel_base.c) has no popcount instruction: __builtin_popcount there is
 * a libgcc call (10% of a top1465 puzzle's instructions at the scalar level), so the counts
 * are SWAR in the vector register, summed by one psadbw. */
#define SBB_SWAR_COUNT 1

/* The bit count of each 4-bit nibble of x (each at most 4). */
static inline sbv4 sbb_nibble_counts(sbv4 x)
{
    x -= (x >> 1) & 0x55555555u;
    return (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
}

/* The sum of the nibbles of n (each at most 15: a byte's two then fit the byte). */
static inline int sbb_nibble_sum(sbv4 n)
{
    const __m128i b = (__m128i)((n & 0x0F0F0F0Fu) + ((n >> 4) & 0x0F0F0F0Fu));
    const __m128i s = _mm_sad_epu8(b, _mm_setzero_si128());
    return _mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4);
}
#endif

/* Popcount of the three band words of x. */
static inline int sbb_count(sbv4 x)
{
#ifdef SBB_SWAR_COUNT
    return sbb_nibble_sum(sbb_nibble_counts(x));
#else
    /* Read as two 64-bit lanes (bands 0-1, band 2 and the zero padding): two moves out of the
     * vector register instead of three extracts and a merge. */
    const sbb_q2 q = (sbb_q2)x;
    return (int)(sbv_popcount64(q[0]) + sbv_popcount64(q[1]));
#endif
}

/* 1 when x holds more cells than y. */
static inline int sbb_more(sbv4 x, sbv4 y)
{
#ifdef SBB_SWAR_COUNT
    /* Nibble by nibble, x's count plus 4 minus y's (0..8: no carry or borrow), then one
     * horizontal sum instead of two: it passes 128 (4 for each of the 32 nibbles) exactly
     * when x's count passes y's. */
    return sbb_nibble_sum(sbb_nibble_counts(x) + (0x44444444u - sbb_nibble_counts(y))) > 128;
#else
    return sbb_count(x) > sbb_count(y);
#endif
}

/* line.h's pair search counts as the band kernel does. */
#define SBL_COUNT sbb_count
#include "line.h"

/* The number of placed cells: popcount of the three placed-cell words. */
static inline uint16_t sbb_placed(const sbb_word *done)
{
#ifdef SBB_SWAR_COUNT
    return (uint16_t)sbb_count(*(const sbv4 *)(const void *)done); /* word 43 is 0 */
#else
    return (uint16_t)(__builtin_popcount(done[0]) + __builtin_popcount(done[1]) +
                      __builtin_popcount(done[2]));
#endif
}

/* Removes eliminations el (planes: word 4*d + k, band k of digit d+1) from b and marks their
 * digits dirty for both passes (the board is left to settle). */
static inline void sbb_remove(sb_board *b, const uint32_t *el)
{
    sbb_word *w = sbb_words(b);
    uint32_t moved = 0;
    for (int d = 0; d < SB_DIGITS; d++) {
        const uint32_t any = el[4 * d] | el[4 * d + 1] | el[4 * d + 2];
        for (int k = 0; k < 3; k++)
            w[4 * d + k] &= ~el[4 * d + k];
        moved |= (uint32_t)(any != 0) << d;
    }
    w[SBB_DIRTY] |= moved * 0x10001u;
    w[SBB_MEMO] = 0;
}

/* The triad rules (triad.h) on board b, whose vectors are its planes at the stamp's width:
 * the eliminations leave the board, their digits marked dirty for both passes. @return -1 on
 * contradiction, 1 when a candidate went, else 0. */
static inline int sbb_triads(sb_board *b)
{
    sbv el[SBB_NV];
    const int r = sbt3_rules(sbb_vecs(b), el);
    if (r <= 0)
        return r;
#if SBB_DPV == 1
    sbb_remove(b, (const uint32_t *)(const void *)el);
#else
    sbv *bv = sbb_vecs(b);
    uint32_t moved = 0;
    for (int k = 0; k < SBB_NV; k++) {
        bv[k] &= ~el[k];
        moved |= sbb_unit_any(el[k], SBB_DPV * k, SBB_DPV * k + SBB_DPV - 1);
    }
    sbb_word *w = sbb_words(b);
    w[SBB_DIRTY] |= (moved & 0x1FFu) * 0x10001u; /* not the phantom */
    w[SBB_MEMO] = 0;
#endif
    return 1;
}

/* Propagates board b to the fixpoint of the reference's rules: naked singles until they
 * stall, then one whole-board hidden-singles round, and locked candidates when that changes
 * nothing; any change goes back to the naked singles. The root's settle (root = 1) also
 * runs the triad rules once locked candidates stall, when its first stall leaves at least
 * SBT3_OPEN cells open (triad.h): from then on to its fixpoint. The final board passed every
 * check (an emptied cell, a house without a digit, a cell hidden twice, a triad with fewer
 * than three digits or more than three confined; a clash empties a cell).
 * @return 0 on contradiction, else 1 (b is stable or solved; nsolved set). */
static inline __attribute__((always_inline)) int sbb_settle_at(sb_board *b, int root)
{
    const sbb_word *done = &sbb_words(b)[SBB_DONE];
    for (;;) {
        if (!sbb_naked(b))
            return 0;
        if ((done[0] & done[1] & done[2]) == SBB_CELLS) {
            b->nsolved = SB_CELLS;
            return 1;
        }
        int changed;
        if (!sbb_hidden(b, &changed))
            return 0;
        if (changed || sbb_locked_pass(b))
            continue;
        if (root == 1) /* the root's first stall: the gate, kept to the fixpoint */
            root = sbt3_gate(sbb_placed(done)) ? 2 : 0;
        if (root) {
            const int t = sbb_triads(b);
            if (t < 0)
                return 0;
            if (t)
                continue;
        }
        b->nsolved = sbb_placed(done);
        return 1;
    }
}

/* The settle of every board but the root. */
static inline int sbb_settle(sb_board *b)
{
    return sbb_settle_at(b, 0);
}

/* Cell c of a loaded board loses the digits of mask drop. The load leaves every digit dirty,
 * and the root's settle finds a cell this leaves single (or empty, a given's own digit
 * included). Out of line and cold, as sbb_settle_root says why. */
static __attribute__((noinline, cold)) void sbb_unmark(sb_board *b, int c, uint16_t drop)
{
    for (uint32_t f = drop; f; f &= f - 1)
        sbb_words(b)[4 * __builtin_ctz(f) + c / 27] &= ~(1u << c % 27);
}

/* The root's settle (sbb_settle_at with root = 1) of a loaded board whose cell c first loses
 * the digits of mask drop (0: none), out of line and once, while the search's settle is
 * inlined into it (both forced): left to gcc, the gate's few instructions tipped the shared
 * settle out of line for the search too, +1.7% instructions on hardest at sse4 (callgrind).
 * The drop is made here, by a cold call, rather than in the load, which is inlined into the
 * search's entry: any growth there tipped gcc's inlining of the naked singles (its stack
 * frame limit) in one stamp or another, +1-5% instructions. It is never cloned: a copy for
 * the paired search's constant arguments took the naked singles out of line at avx2.
 * @return as sbb_settle_at. */
#if defined(__clang__) /* no such attribute; clang 14 makes no such clone here */
#define SBB_ONE_COPY noinline
#else
#define SBB_ONE_COPY noinline, noclone
#endif
static __attribute__((SBB_ONE_COPY)) int sbb_settle_root(sb_board *b, int c, uint16_t drop)
{
    if (drop)
        sbb_unmark(b, c, drop);
    return sbb_settle_at(b, 1);
}

/* The candidate mask of cell c (bit d-1 = digit d), read off the digit words. */
static inline uint16_t sbb_cell_read(const sb_board *b, int c)
{
    const sbb_word *w = sbb_words((sb_board *)b);
    const int k = c / 27, s = c % 27;
    uint16_t m = 0;
    for (int d = 0; d < SB_DIGITS; d++)
        m |= (uint16_t)(((w[4 * d + k] >> s) & 1u) << d);
    return m;
}

/* The candidate mask of cell c: from the branch memo when c is the cell chosen on b. */
static inline uint16_t sbb_cell(const sb_board *b, int c)
{
    const uint32_t memo = sbb_words((sb_board *)b)[SBB_MEMO];
    return (memo & 0xFFFFu) == (uint32_t)c + 1 ? (uint16_t)(memo >> 16) : sbb_cell_read(b, c);
}

/* A 16-byte vector of bytes, for writing a solution out. */
typedef uint8_t sbb_bytes __attribute__((vector_size(16)));

/* Bytes a (8 times) then b (8 times) of v: one constant byte shuffle (pshufb, NEON tbl). */
#define SBB_SPREAD(a, b) a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b
#if defined(__SSE2__) && !defined(__SSSE3__)
/* x86-64's baseline has no byte shuffle, and gcc built each spread byte by byte in general
 * registers (about 830 instructions a solution). For the pairs used here (a even, b = a + 1)
 * two unpacks and a dword shuffle do it: the unpacks repeat each byte of v's low or high half
 * four times, which puts byte a at dword a % 4 and b beside it. */
#define SBB_UNPACK8(v, hi) ((hi) ? _mm_unpackhi_epi8((v), (v)) : _mm_unpacklo_epi8((v), (v)))
#define SBB_UNPACK16(v, hi) ((hi) ? _mm_unpackhi_epi16((v), (v)) : _mm_unpacklo_epi16((v), (v)))
#define SBB_BYTES(v, a, b)                                                                     \
    ((sbb_bytes)_mm_shuffle_epi32(                                                             \
        SBB_UNPACK16(SBB_UNPACK8((__m128i)(v), (a) >= 8), (a) % 8 >= 4),                      \
        _MM_SHUFFLE((b) % 4, (b) % 4, (a) % 4, (a) % 4)))
#elif defined(__clang__)
#define SBB_BYTES(v, a, b) __builtin_shufflevector((v), (v), SBB_SPREAD(a, b))
#else
#define SBB_BYTES(v, a, b) __builtin_shuffle((v), (sbb_bytes){SBB_SPREAD(a, b)})
#endif

/* Cells 16h..16h+15 of band k (cells past the band are garbage) as digit values 1..9, from
 * the four index bit planes p[0..3] of a solved board (one word per band, as bytes). */
#define SBB_SOLVED_HALF(p, k, h)                                                               \
    ({                                                                                         \
        const sbb_bytes bit_ = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};     \
        sbb_bytes d_ = {0};                                                                    \
        for (int j_ = 0; j_ < 4; j_++)                                                         \
            d_ |= (sbb_bytes)((SBB_BYTES((p)[j_], 4 * (k) + 2 * (h), 4 * (k) + 2 * (h) + 1) &   \
                               bit_) != 0) & (uint8_t)(1u << j_);                              \
        d_ + 1;                                                                                \
    })

/* Writes solved board b (one digit left in every cell) as digits into out[0 .. 81): the four
 * bit planes of each cell's digit index, spread from bits to bytes by byte shuffles, about
 * 150 vector operations where reading the 81 cells one by one (sbb_cell) took 3,600 (a fifth
 * of the instructions of a 17-clue puzzle). */
static inline void sbb_solution(const sb_board *b, uint8_t *out)
{
    const sbv4 *x = (const sbv4 *)(const void *)b->cand;
    const sbb_bytes p[4] = {(sbb_bytes)(x[1] | x[3] | x[5] | x[7]),
                            (sbb_bytes)(x[2] | x[3] | x[6] | x[7]),
                            (sbb_bytes)(x[4] | x[5] | x[6] | x[7]), (sbb_bytes)x[8]};
    /* In cell order, each half overwriting the garbage past the last; the last half written
     * runs five bytes past cell 80. The band and half are literals: clang wants the shuffle's
     * indexes to be constant expressions. */
    uint8_t tmp[27 * 2 + 32];
    const sbb_bytes h[6] = {SBB_SOLVED_HALF(p, 0, 0), SBB_SOLVED_HALF(p, 0, 1),
                            SBB_SOLVED_HALF(p, 1, 0), SBB_SOLVED_HALF(p, 1, 1),
                            SBB_SOLVED_HALF(p, 2, 0), SBB_SOLVED_HALF(p, 2, 1)};
    for (int i = 0; i < 6; i++)
        memcpy(&tmp[27 * (i / 2) + 16 * (i % 2)], &h[i], 16);
    memcpy(out, tmp, SB_CELLS);
}

/* A cell set as two 64-bit sets: cells 0..53 (bands 0 and 1), then cells 54..80. */
static inline void sbb_split(sbv4 x, uint64_t out[2])
{
    out[0] = x[0] | (uint64_t)x[1] << 27;
    out[1] = x[2];
}

/* Cell c's branch score (branch.h's rule): its peers that share a digit with it (reach, the
 * union of its digits' boards), bivalue ones three times. On a settled board such a peer is
 * open (a placed one would have taken its digit from c), so reach needs no open mask. */
static inline int sbb_score(int c, sbv4 reach, sbv4 biv)
{
    const sbv4 hit = reach & *(const sbv4 *)(const void *)sb_band_peers[c];
#ifdef SBB_SWAR_COUNT
    /* Nibble counts of hit + 2 * those of hit & biv are at most 12: one sum for both. */
    return sbb_nibble_sum(sbb_nibble_counts(hit) + (sbb_nibble_counts(hit & biv) << 1));
#else
    return sbb_count(hit) + 2 * sbb_count(hit & biv);
#endif
}

/* Picks the branching cell by branch.h's rule, on the bitboards: the open cells with the
 * fewest candidates (bivalue ones nearly always), each scored by sbb_score; the first best
 * in cell order wins. */
static inline int sbb_branch_cell(const sb_board *b)
{
    const sbb_word *w = sbb_words((sb_board *)b);
    const sbv4 *x = (const sbv4 *)(const void *)w;
    /* n1/n2/n3: cells with at least 1/2/3 digits; lo/hi: the bits of the index of each
     * cell's lowest and highest digit (for a bivalue cell: its two digits), so a bivalue
     * cell's digits are read off eight bit planes, not nine words. A cell's lowest digit lies
     * in [j, k) where it has a digit below k and none below j (pre), its highest in [j, k)
     * where it has one from j on and none from k on (suf): each plane is a few such ranges,
     * a dozen vector operations fewer than gathering each digit's first and later cells into
     * eight planes as they come (callgrind: -0.1..-0.3%). */
    sbv4 n1 = x[0], n2 = {0}, n3 = {0}, lo[4], hi[4];
    sbv4 pre[SB_DIGITS], suf[SB_DIGITS]; /* cells with a digit below d / d or above */
    pre[1] = n1;
    for (int d = 1; d < SB_DIGITS; d++) {
        n3 |= n2 & x[d];
        n2 |= n1 & x[d];
        n1 |= x[d];
        if (d + 1 < SB_DIGITS)
            pre[d + 1] = n1;
    }
    suf[SB_DIGITS - 1] = x[SB_DIGITS - 1];
    for (int d = SB_DIGITS - 2; d >= 1; d--)
        suf[d] = suf[d + 1] | x[d];
    lo[3] = x[8] & ~pre[8];
    lo[2] = pre[8] & ~pre[4];
    lo[1] = (pre[4] & ~pre[2]) | (pre[8] & ~pre[6]);
    lo[0] = (pre[2] & ~pre[1]) | (pre[4] & ~pre[3]) | (pre[6] & ~pre[5]) | (pre[8] & ~pre[7]);
    hi[3] = suf[8];
    hi[2] = suf[4] & ~suf[8];
    hi[1] = (suf[2] & ~suf[4]) | (suf[6] & ~suf[8]);
    hi[0] = (suf[1] & ~suf[2]) | (suf[3] & ~suf[4]) | (suf[5] & ~suf[6]) | (suf[7] & ~suf[8]);
    const sbv4 biv = n2 & ~n3;
    int best = -1, best_deg = -1;
    if (sbv4_any(biv)) {
        /* The four planes of each index per band in one vector (lane k: plane k): a cell's
         * index is one shift and one mask move (sbb_lane_bits). */
        sbv4 lt[3], ht[3];
        sbb_transpose(lo, lt);
        sbb_transpose(hi, ht);
        /* A loop a band, unrolled: the band is a constant in each, so a cell costs about 38
         * instructions instead of 52 in one loop over the three bands, whose band index and
         * planes went through memory. The two extra exits cost less than that saves (avx2
         * paired search: 1.3-1.8% faster; docs/performance.md). Cells
         * in cell order, so the first best still wins. */
#pragma GCC unroll 3
        for (int j = 0; j < 3; j++)
            for (uint32_t f = biv[j]; f; f &= f - 1) {
                const int s = (int)sbv_ctz(f), c = 27 * j + s;
                const int deg = sbb_score(
                    c, x[sbb_lane_bits(lt[j], s)] | x[sbb_lane_bits(ht[j], s)], biv);
                best = deg > best_deg ? c : best;
                best_deg = deg > best_deg ? deg : best_deg;
            }
        /* The memo (SBB_MEMO): the best cell's two digits, read as its score read them, and
         * sbb_first's choice of them (SBB_MEMO_FIRST; el < eh, so a tie takes el): from the
         * indexes at hand, where sbb_first would first find them again from the mask. The
         * board is the search's own (never a const object): the memo is a cache of it. */
        const int j = best / 27, s = best % 27;
        const int el = (int)sbb_lane_bits(lt[j], s), eh = (int)sbb_lane_bits(ht[j], s);
        const sbv4 peer = *(const sbv4 *)(const void *)sb_band_peers[best];
        const int e = sbb_more(x[eh] & peer, x[el] & peer) ? eh : el;
        ((sbb_word *)w)[SBB_MEMO] = ((uint32_t)best + 1) | (1u << el | 1u << eh) << 16;
        ((sbb_word *)w)[SBB_MEMO_FIRST] = 1u << e | (uint32_t)best_deg << 16;
        return best;
    }
    /* No bivalue cell: exact counts from "at least k digits" sets. */
    sbv4 fewest = biv, at[SB_DIGITS + 2] = {{0}};
    for (int d = 0; d < SB_DIGITS; d++) {
        for (int k = d + 1; k >= 2; k--)
            at[k] |= at[k - 1] & x[d];
        at[1] |= x[d];
    }
    for (int k = 3; k <= SB_DIGITS; k++) {
        fewest = at[k] & ~at[k + 1];
        if (sbv4_any(fewest))
            break;
    }
    uint64_t f[2];
    sbb_split(fewest, f);
    do {
        const int h = f[0] == 0, s = __builtin_ctzll(f[h]), c = 54 * h + s;
        f[h] &= f[h] - 1;
        const int k = c / 27, bit = c % 27;
        sbv4 reach = {0};
        for (int d = 0; d < SB_DIGITS; d++)
            reach |= ((sbv4){0} - (w[4 * d + k] >> bit & 1u)) & x[d];
        const int deg = sbb_score(c, reach, biv);
        best = deg > best_deg ? c : best;
        best_deg = deg > best_deg ? deg : best_deg;
    } while (f[0] | f[1]);
    return best;
}

/* line.h's pairs against the cell c that sbb_branch_cell chose on b: its score is in the
 * memo when c is bivalue (the memo names c), else c has three candidates or more. A pair
 * that wins becomes the memo's cell, its digit the one to take first. Out of line: the
 * search asks only once a puzzle has taken SBL_AFTER guesses. */
static __attribute__((noinline)) int sbb_line(const sb_board *b, int c)
{
    sbb_word *w = sbb_words((sb_board *)b);
    const int biv_cell = (w[SBB_MEMO] & 0xFFFFu) == (uint32_t)c + 1;
    const int deg = biv_cell ? (int)(w[SBB_MEMO_FIRST] >> 16) : 0;
    if (!sbl_wanted(deg, !biv_cell))
        return c;
    const sbv4 *x = (const sbv4 *)(const void *)w;
    sbv4 n1 = {0}, n2 = {0}, n3 = {0};
    for (int d = 0; d < SB_DIGITS; d++) {
        n3 |= n2 & x[d];
        n2 |= n1 & x[d];
        n1 |= x[d];
    }
    sbl_scan sc;
#if SBB_DPV == 2
    /* The flags of two digits a vector, the board's own (the phantom's are empty). */
    const sbv open = sbv_wide(n2), biv = sbv_wide(n2 & ~n3);
    const sbv *bv = sbb_vecs((sb_board *)b);
#define SBB_ROT1(v) SBV_SHUF4((v), 1, 2, 0, 3)
#define SBB_ROT2(v) SBV_SHUF4((v), 2, 0, 1, 3)
    for (int k = 0; k < SBB_NV; k++)
        SBL_FLAGS(sbv, bv[k], open, biv, SBB_ROT1, SBB_ROT2, SBV_BAND,
                  *(sbv *)(void *)&sc.xd[2 * k], *(sbv *)(void *)&sc.xb[2 * k],
                  *(sbv *)(void *)&sc.rp[2 * k], *(sbv *)(void *)&sc.cp[2 * k]);
#undef SBB_ROT1
#undef SBB_ROT2
#else
    sbl_scan_of(&sc, x, n2, n2 & ~n3);
#endif
    int e;
    const int p = sbl_line_pick(&sc, deg, !biv_cell, &e);
    if (p < 0)
        return c;
    w[SBB_MEMO] = ((uint32_t)p + 1) | (uint32_t)sbb_cell_read(b, p) << 16;
    w[SBB_MEMO_FIRST] = 1u << e;
    return p;
}

/* The search's branch: branch.h's rule, then line.h's pairs once line is set. */
static inline int sbb_choose(const sb_board *b, int line)
{
    const int c = sbb_branch_cell(b);
    return line ? sbb_line(b, c) : c;
}

/* branch.h's first digit of cell c (candidates m, two or more) on the bitboards: the digit
 * whose board holds the most of c's peers, the lowest on a tie. When c is the memo's cell
 * (nearly every branch) the choice wrote it there (sbb_branch_cell's bivalue cell, or
 * sbb_line's pair: its digit); else each digit is counted. */
static inline uint16_t sbb_first(const sb_board *b, int c, uint16_t m)
{
    const sbb_word *w = sbb_words((sb_board *)b);
    if ((w[SBB_MEMO] & 0xFFFFu) == (uint32_t)c + 1)
        return (uint16_t)w[SBB_MEMO_FIRST];
    const sbv4 *x = (const sbv4 *)(const void *)b->cand;
    const sbv4 peer = *(const sbv4 *)(const void *)sb_band_peers[c];
    uint16_t best = 0;
    int best_n = -1;
    for (uint32_t f = m; f; f &= f - 1) {
        const int n = sbb_count(x[__builtin_ctz(f)] & peer);
        best = n > best_n ? (uint16_t)(f & -f) : best;
        best_n = n > best_n ? n : best_n;
    }
    return best;
}

/* Cell c's bit in every digit group of a vector. */
static inline sbv sbb_cell_bit(int c)
{
    return sbv_wide(*(const sbv4 *)(const void *)sb_band_cell[c]);
}

#if defined(__SSE2__)
/* The bytes of vector x (cell values 0..9) as bit sets, bit i for byte i: blank the bytes
 * holding 0, plane[j] those whose value has bit j set. A value's bit j is the top bit of its
 * byte after a 16-bit shift by 7 - j (no other bit of the byte reaches its top), and one mask
 * move gathers the tops of a vector's bytes. */
#define SBB_VALUE_BITS(x, plane, blank)                                                        \
    do {                                                                                       \
        (blank) = (uint32_t)SBB_MOVEMASK(SBB_CMPEQ0(x));                                       \
        for (int j_ = 0; j_ < 4; j_++)                                                         \
            (plane)[j_] = (uint32_t)SBB_MOVEMASK(SBB_SLLI16(x, 7 - j_));                       \
    } while (0)
#if defined(__AVX2__)
#define SBB_MOVEMASK _mm256_movemask_epi8
#define SBB_CMPEQ0(x) _mm256_cmpeq_epi8((x), _mm256_setzero_si256())
#define SBB_SLLI16 _mm256_slli_epi16
#else
#define SBB_MOVEMASK _mm_movemask_epi8
#define SBB_CMPEQ0(x) _mm_cmpeq_epi8((x), _mm_setzero_si128())
#define SBB_SLLI16 _mm_slli_epi16
#endif

/* The blank cells of grid cell[0..81) and the four bit planes of its values, as band words
 * (lane k: band k; lane 3 zero). Reads only cell[0..81): the loads overlap instead of
 * running past its end. */
static inline void sbb_value_sets(const uint8_t *cell, sbv4 *blank, sbv4 plane[4])
{
    uint32_t bl[3], pl[3][4];
#if defined(__AVX2__)
    /* A band's 27 bytes in one 32-byte load; the last band's load ends at cell 80, so its
     * bits start at bit 5. */
    for (int k = 0; k < 3; k++) {
        const int at = k < 2 ? 27 * k : SB_CELLS - 32;
        const __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(cell + at));
        SBB_VALUE_BITS(x, pl[k], bl[k]);
        const int sh = 27 * k - at;
        bl[k] = bl[k] >> sh & SBB_CELLS;
        for (int j = 0; j < 4; j++)
            pl[k][j] = pl[k][j] >> sh & SBB_CELLS;
    }
#else
    /* A band's 27 bytes in two overlapping 16-byte loads (bytes 0..15 and 11..26). */
    for (int k = 0; k < 3; k++) {
        uint32_t l[4], h[4], lb, hb;
        const __m128i x0 = _mm_loadu_si128((const __m128i *)(const void *)(cell + 27 * k));
        const __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(cell + 27 * k + 11));
        SBB_VALUE_BITS(x0, l, lb);
        SBB_VALUE_BITS(x1, h, hb);
        bl[k] = lb | hb << 11;
        for (int j = 0; j < 4; j++)
            pl[k][j] = l[j] | h[j] << 11;
    }
#endif
    *blank = (sbv4){bl[0], bl[1], bl[2], 0};
    for (int j = 0; j < 4; j++)
        plane[j] = (sbv4){pl[0][j], pl[1][j], pl[2][j], 0};
}
#undef SBB_VALUE_BITS
#undef SBB_MOVEMASK
#undef SBB_CMPEQ0
#undef SBB_SLLI16
#endif

/* Board b, loaded (every blank holding every digit, every given its own; cell[0..81) the
 * grid's values), with its givens given4 placed: each given's peer mask is ORed into its
 * digit's eliminations, every digit word then loses its own at once, and the givens join the
 * placed cells. This does the first settle's naked singles for the givens (17 to 35 of them)
 * in about 12 instructions a given; a digit vector at a time from the house flags of its
 * givens costs about 84 instructions a vector (9 vectors at sse4: 1,070 a puzzle, 5% of a
 * multi-solution puzzle). Two equal givens in a house empty each other, a contradiction the
 * settle finds. Out of line: it runs once a puzzle, and the paired search's loop (kernel_pair.h)
 * loses when its code grows. */
static __attribute__((noinline)) void sbb_place_givens(sb_board *b, sbv4 given4,
                                                       const uint8_t *cell)
{
    sbv4 elim[SB_DIGITS + 1] SBB_ALIGNED; /* by value: entry 0 unused */
#pragma GCC unroll 9 /* nine vector stores, not a string store */
    for (int d = 1; d <= SB_DIGITS; d++)
        elim[d] = (sbv4){0};
    uint64_t f[2];
    sbb_split(given4, f);
    for (int h = 0; h < 2; h++)
        for (uint64_t x = f[h]; x; x &= x - 1) {
            const int c = 54 * h + __builtin_ctzll(x);
            elim[cell[c]] |= *(const sbv4 *)(const void *)sb_band_peers[c];
        }
    sbb_word *w = sbb_words(b);
    for (int d = 0; d < SB_DIGITS; d++)
        *(sbv4 *)(void *)&w[4 * d] &= ~elim[d + 1];
    *sbb_done_vec(w) = given4;
}

/* The three ways a board enters propagation (0 on contradiction, else 1). Loading: every
 * blank cell takes all digits, every given only its own, and the givens are placed
 * (sbb_place_givens; equal givens in a house are a clash the settle finds like any other). */
static inline void sbb_load_raw(sb_board *b, const sb_grid *puzzle)
{
    sbb_word *w = sbb_words(b);
#if defined(__SSE2__)
    /* Every word is stored once: the digit words below, the rest zero here (a memset of
     * the board ran as a 24-trip string store). */
    for (int k = 4 * SB_DIGITS; k < (int)(sizeof *b / sizeof *w); k += 4)
        *(sbv4 *)(void *)&w[k] = (sbv4){0};
    /* The blanks and the four bit planes of the cells' values, one set of band words each
     * (sbb_value_sets: byte compares and mask moves), then each digit's cells as a match of
     * the planes: 230 instructions a puzzle fewer than a cell-by-cell scatter at sse4, 305 at
     * avx2 (callgrind). */
    sbv4 blank, plane[4];
    sbb_value_sets(puzzle->cell, &blank, plane);
    const sbv4 given = ~blank & (sbv4){SBB_CELLS, SBB_CELLS, SBB_CELLS, 0};
#pragma GCC unroll 9
    for (int d = 0; d < SB_DIGITS; d++) {
        sbv4 m = given;
        for (int j = 0; j < 4; j++)
            m &= (d + 1) >> j & 1 ? plane[j] : ~plane[j];
        *(sbv4 *)(void *)&w[4 * d] = blank | m;
    }
#else
    /* Each cell's bit goes to the row of its value, blanks to row 0, without a branch on the
     * cell (one mispredicted branch in three there: a third of the mispredictions of a
     * top1465 puzzle). */
    memset(b, 0, sizeof *b);
    uint32_t digit[SB_DIGITS + 1][3];
    memset(digit, 0, sizeof digit);
    for (int k = 0; k < 3; k++)
#pragma GCC unroll 27 /* a 27-trip loop's exit mispredicts, three times a puzzle */
        for (int s = 0; s < 27; s++)
            digit[puzzle->cell[27 * k + s]][k] |= 1u << s;
    for (int d = 0; d < SB_DIGITS; d++)
        for (int k = 0; k < 3; k++)
            w[4 * d + k] = digit[0][k] | digit[d + 1][k];
    const sbv4 given = {~digit[0][0] & SBB_CELLS, ~digit[0][1] & SBB_CELLS,
                        ~digit[0][2] & SBB_CELLS, 0};
#endif
    sbb_place_givens(b, given, puzzle->cell);
    w[SBB_DIRTY] = SBB_ALL_DIRTY;
}

/* The root: loaded, cell c without the digits of mask drop (0: none), settled, then the
 * triad rules when enough cells are open. */
static inline int sbb_load(sb_board *b, const sb_grid *puzzle, int c, uint16_t drop)
{
    sbb_load_raw(b, puzzle);
    return sbb_settle_root(b, c, drop);
}

/* Places cell c, whose one candidate is digit index e: e leaves c's peers and c joins the
 * placed cells, as a naked-singles iteration would do, so the settle's first count already
 * sees the peers c makes single (one naked iteration fewer per guess and per forced
 * alternative; 2-3% of the instructions on hard puzzles). The whole-vector update keeps
 * the settle's first loads forwarded from these stores. */
static inline void sbb_place(sb_board *b, int c, int e)
{
    const sbv4 peer = *(const sbv4 *)(const void *)sb_band_peers[c];
    sbb_vecs(b)[e / SBB_DPV] &= ~(sbv_wide(peer) & sbb_digit_lanes(e));
    sbv4 *done = sbb_done_vec(sbb_words(b));
    *done |= *(const sbv4 *)(const void *)sb_band_cell[c];
    sbb_words(b)[SBB_DIRTY] |= SBB_HIDDEN_DIRTY(e) * 0x10001u;
}

/* Assigns digit mask d to cell c (the board is left to settle). */
static inline void sbb_take_raw(sb_board *b, int c, uint16_t d)
{
    /* Whole-vector updates: the settle's first loads then forward from these stores (a
     * vector load spanning two smaller stores stalls). */
    sbv *bv = sbb_vecs(b);
    const sbv bit = sbb_cell_bit(c);
    const int e = __builtin_ctz(d);
    /* Only the words of c's other digits change. The board was settled (no dirty digit), so
     * the passes need to look at those digits' vectors only, not at the whole board. */
    const uint32_t moved = sbb_cell(b, c);
#if SBB_DPV == 1
    /* One store a digit (one digit, for the bivalue cells the search nearly always branches
     * on), not nine. */
    for (uint32_t x = moved & ~(uint32_t)d; x; x &= x - 1)
        bv[__builtin_ctz(x)] &= ~bit;
#else
    /* Every vector: clearing a digit's lanes alone needs a lane mask per digit, which cost
     * more (callgrind: +0.1-0.2%). */
    for (int k = 0; k < SBB_NV; k++)
        bv[k] &= ~bit;
    bv[e / SBB_DPV] |= bit & sbb_digit_lanes(e);
#endif
    sbb_words(b)[SBB_DIRTY] |= moved * 0x10001u;
    sbb_words(b)[SBB_MEMO] = 0;
    sbb_place(b, c, e);
}

/* Assigns digit mask d to cell c. */
static inline int sbb_take(sb_board *b, int c, uint16_t d)
{
    sbb_take_raw(b, c, d);
    return sbb_settle(b);
}

/* Removes digit mask d from cell c (the board is left to settle). */
static inline void sbb_drop_raw(sb_board *b, int c, uint16_t d)
{
    sbb_word *w = sbb_words(b);
    const int e = __builtin_ctz(d);
    const uint16_t m = sbb_cell(b, c) & (uint16_t)~d;
    sbb_vecs(b)[e / SBB_DPV] &= ~(sbb_cell_bit(c) & sbb_digit_lanes(e));
    w[SBB_DIRTY] |= (SBB_HIDDEN_DIRTY(__builtin_ctz(d)) * 0x10001u);
    w[SBB_MEMO] = 0;
    if ((m & (m - 1)) == 0) /* one digit left (a bivalue cell's alternative, nearly always) */
        sbb_place(b, c, __builtin_ctz(m));
}

/* Removes digit mask d from cell c. */
static inline int sbb_drop(sb_board *b, int c, uint16_t d)
{
    sbb_drop_raw(b, c, d);
    return sbb_settle(b);
}

/* Board src copied to dst a vector at a time (six moves at 32 bytes, where gcc's struct copy
 * took twelve 16-byte ones). */
static inline void sbb_copy(sb_board *dst, const sb_board *src)
{
    _Static_assert(sizeof *dst % sizeof(sbv) == 0, "a board is whole vectors");
    sbv *d = (sbv *)(void *)dst;
    const sbv *s = (const sbv *)(const void *)src;
    for (size_t k = 0; k < sizeof *dst / sizeof(sbv); k++)
        d[k] = s[k];
}

#if SB_KERNEL_TECH
/* "fast+T" (kernel_tech.h): the planes are the board's own digit words. */
static inline void sbb_planes(sb_board *b, uint32_t *w)
{
    memcpy(w, sbb_words(b), 4 * SB_DIGITS * sizeof *w);
}

/* Removes the technique eliminations el (planes) from b, marks their digits dirty and
 * settles. @return 0 on contradiction, else 1. */
static inline int sbb_elim(sb_board *b, const uint32_t *el)
{
    sbb_remove(b, el);
    return sbb_settle(b);
}
#define SBK_PLANES sbb_planes
#define SBK_ELIM sbb_elim
#endif

#define SBK_LOAD sbb_load
#define SBK_TAKE sbb_take
#define SBK_DROP sbb_drop
#define SBK_CHOOSE sbb_choose
#define SBK_CHOOSE_PICKS 0 /* the memo carries a line pair's digit to sbb_first */
#define SBK_FIRST sbb_first
#define SBK_CELL sbb_cell
#define SBK_SOLUTION sbb_solution
#define SBK_COPY sbb_copy
#include "entries.h"
