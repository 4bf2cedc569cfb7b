/*
 * line.h — the line pairs of branch.h's rule, over band words: once a search has made
 * SBL_AFTER guesses on a puzzle, a digit with exactly two places left in a row or a column,
 * the two in different boxes, may be branched on instead of the rule's cell (the digit taken
 * at one place, the alternative taking it from there, which leaves it to the other). Such a
 * pair reaches further than a cell: each place's column and box (a row's pair) or row and box
 * (a column's), four houses that share no cell. Looked for only where the rule's cell is weak
 * (SBL_BELOW), it takes forum hardest from 68.18 to 57.86 guesses a puzzle (tdoku: 61.66) and
 * the hardest sample from 72.59 to 60.76, and leaves the generator's puzzles, which seldom
 * reach eight guesses, as they are (docs/performance.md, "Line pairs";
 * scripts/sbperf/guess_model.py --branch line is the model the tests hold every level to).
 *
 * The rule: a pair's reach is branch.h's score taken over both places' peers, the places
 * aside (the open cells holding its digit, bivalue ones three times); the pair of the best
 * reach wins (rows 1-9 then columns 1-9, digits in order, on a tie), and it replaces the
 * rule's cell when that cell has three candidates or more, or when SBL_DEN x its reach beats
 * SBL_NUM x the cell's score. Its digit goes first to the place more of whose open peers hold
 * it (the first place on a tie).
 *
 * The band kernel (its own words) and the reference (gathered cell by cell) bring the digits
 * as band words and define SBL_COUNT(x), the bit count of an sbv4's three band words, before
 * including; the AVX-512 stamps find the pairs from their own registers (kernel.h's sbk_line)
 * and share the gates, the key, the reach, the test against the cell and the choice of the
 * first place below. Static inline, stamped per level.
 */
#ifndef SB_KERNEL_LINE_H
#define SB_KERNEL_LINE_H

#include "internal.h"
#include "triad.h"
#include "vec.h"

/* Guesses on a puzzle before line pairs join the rule: the hard puzzles pass it at once, the
 * generator's (2.75 guesses a puzzle on dug, 4.7 on multi) almost never pay for the search. */
#define SBL_AFTER 8
/* Pairs are looked for only where the rule's cell has three candidates or more or scores
 * below SBL_BELOW (a weak cell, where a pair gains most). */
#define SBL_BELOW 13
/* A pair replaces a bivalue cell when SBL_DEN x its reach > SBL_NUM x the cell's score. */
#define SBL_NUM 7
#define SBL_DEN 10

/* 1 when pairs are looked for against the rule's cell (score cell_deg; cell_many 1 when it
 * has three candidates or more): the stamps test it before they gather or scan any word. */
static inline int sbl_wanted(int cell_deg, int cell_many)
{
    return cell_many || cell_deg < SBL_BELOW;
}

/* A pair's key, kept by a max: its reach, then 255 - (9 x house + digit) so that the first in
 * house order (rows 0..8, columns 9..17) and digit order wins a tie, then its places p < q,
 * 7 bits each. house9 is 9 x the house: a row's first cell, 81 + 9 x a column's index. */
static inline int64_t sbl_key(int64_t reach, uint32_t house9, uint32_t digit, uint32_t p,
                              uint32_t q)
{
    return reach << 22 | (int64_t)(255 - (house9 + digit)) << 14 | (int64_t)(p << 7 | q);
}

/* A pair's reach from its counts over both places' peers outside their line: n the open
 * cells holding its digit, nb the bivalue ones among them. The line holds the digit at the
 * two places alone, so leaving it out leaves the places out and nothing else, and no
 * place's weight has to be taken back out (the band kernel reads such peers from
 * sb_band_cross, the AVX-512 stamps mask their house out). */
static inline int64_t sbl_reach(int n, int nb)
{
    return n + 2 * nb;
}

/* 1 when the pair of key best (-1: none) replaces the rule's cell. */
static inline int sbl_beats(int64_t best, int cell_deg, int cell_many)
{
    return best >= 0 && (cell_many || SBL_DEN * (best >> 22) > SBL_NUM * cell_deg);
}

/* The pair of key k: its places and its digit index. */
static inline int sbl_key_p(int64_t k) { return (int)(k >> 7 & 127); }
static inline int sbl_key_q(int64_t k) { return (int)(k & 127); }
static inline int sbl_key_digit(int64_t k) { return (255 - (int)(k >> 14 & 255)) % 9; }

/* The place the pair's digit goes to first: the one more of whose open peers hold it (np,
 * nq), p on a tie. */
static inline int sbl_first_place(int p, int q, int np, int nq) { return nq > np ? q : p; }

/* One search's per-digit words, each digit an sbv4 (lanes 0-2 its band words), written by a
 * stamp's SBL_FLAGS at its own vector width: xd the digit's open places, xb the bivalue
 * ones, rp the rows holding exactly two places in two boxes (bit 9i of lane k: row 3k+i),
 * cp in lane 0 the columns holding exactly two in two bands (bit j: column j). */
typedef struct sbl_scan {
    sbv4 xd[SB_DIGITS + 1], xb[SB_DIGITS + 1], rp[SB_DIGITS + 1], cp[SB_DIGITS + 1];
} __attribute__((aligned(32))) sbl_scan; /* 32: a stamp may write two digits a store */

/* The flags of one vector x of digit words (type T, groups of four lanes a digit), rot1 and
 * rot2 rotating the three band lanes of each group by one and two, band(m) the constant of
 * band words m at T's width (vec.h). Exactly two of three sets a, b, c is a ^ b ^ c ^ (a | b
 * | c): the XOR holds one or three, the OR one or more (five operations where the majority
 * without the triple took seven: 0.2-0.4% of hardest). */
#define SBL_FLAGS(T, x, open, biv, rot1, rot2, band, xd, xb, rp, cp)                            \
    do {                                                                                       \
        const T row_ = band(0x40201u), col_ = band(SBT3_COL);                                  \
        const T d_ = (x) & (open), x1_ = d_ >> 1, x2_ = d_ >> 2;                                \
        (xd) = d_;                                                                             \
        (xb) = d_ & (biv);                                                                     \
        /* triad flags exact at triad positions, column ones in the first row: the masks  */ \
        /* of rp and cp keep only bits those alone reach */                                    \
        const T to_ = d_ | x1_ | x2_, tt_ = (d_ & x1_) | (x2_ & (d_ | x1_));                   \
        const T t3_ = to_ >> 3, t6_ = to_ >> 6;                                                \
        (rp) = (to_ ^ t3_ ^ t6_ ^ (to_ | t3_ | t6_)) & ~(tt_ | tt_ >> 3 | tt_ >> 6) & row_;    \
        const T x9_ = d_ >> 9, x18_ = d_ >> 18;                                                \
        const T cb_ = d_ | x9_ | x18_, c2_ = (d_ & x9_) | (x18_ & (d_ | x9_));                 \
        const T s1_ = rot1(cb_), s2_ = rot2(cb_);                                              \
        (cp) = (cb_ ^ s1_ ^ s2_ ^ (cb_ | s1_ | s2_)) & ~(c2_ | rot1(c2_) | rot2(c2_)) & col_;  \
    } while (0)

#define SBL_ROT1(x) SBV4_SHUF2((x), (x), 1, 2, 0, 3)
#define SBL_ROT2(x) SBV4_SHUF2((x), (x), 2, 0, 1, 3)

/* The flags of nine digit words x, one digit at a time (the stamps without wider vectors). */
static inline void sbl_scan_of(sbl_scan *sc, const sbv4 *x, sbv4 open, sbv4 biv)
{
    for (int d = 0; d < SB_DIGITS; d++)
        SBL_FLAGS(sbv4, x[d], open, biv, SBL_ROT1, SBL_ROT2, SBV4_BAND, sc->xd[d], sc->xb[d],
                  sc->rp[d], sc->cp[d]);
}

/* The best line pair of scan sc, if it beats the rule's cell (score cell_deg; cell_many 1
 * when it has three candidates or more). @return the place taking the digit first, its
 * digit index in *digit; -1 to keep the cell. */
static inline int sbl_line_pick(const sbl_scan *sc, int cell_deg, int cell_many, int *digit)
{
    int64_t best = -1; /* the best pair's sbl_key */
    for (int d = 0; d < SB_DIGITS; d++) {
        const uint32_t *rw = (const uint32_t *)(const void *)&sc->rp[d];
        const uint32_t cols = ((const uint32_t *)(const void *)&sc->cp[d])[0];
        if (!(rw[0] | rw[1] | rw[2] | cols))
            continue;
        const sbv4 xd = sc->xd[d], xb = sc->xb[d];
        const uint32_t *xw = (const uint32_t *)(const void *)&sc->xd[d];
        /* A pair's reach: its places' peers outside their line (sb_band_cross[line]) holding
         * d; house9 as sbl_key's. */
#define SBL_PAIR(p, q, line, house9)                                                           \
    do {                                                                                       \
        const sbv4 u_ = *(const sbv4 *)(const void *)sb_band_cross[line][p] |                  \
                        *(const sbv4 *)(const void *)sb_band_cross[line][q];                   \
        const int64_t key_ = sbl_key(sbl_reach(SBL_COUNT(u_ & xd), SBL_COUNT(u_ & xb)),        \
                                     (house9), (uint32_t)d, (p), (q));                         \
        best = key_ > best ? key_ : best;                                                      \
    } while (0)
        /* Rows band by band (bit 9i of band word k: row 3k + i, first cell 27k + 9i): the
         * band a constant in each loop, so no division finds it. */
#pragma GCC unroll 3
        for (uint32_t k = 0; k < 3; k++)
            for (uint32_t f = rw[k]; f; f &= f - 1) {
                const uint32_t i9 = sbv_ctz(f), fld = xw[k] >> i9 & 0x1FFu;
                const uint32_t s1 = i9 + sbv_ctz(fld);
                const uint32_t s2 = i9 + sbv_ctz(fld & (fld - 1));
                SBL_PAIR(27 * k + s1, 27 * k + s2, 0, 27 * k + i9);
            }
        /* Columns over bands 0 and 1 as one 64-bit word, where a bit's position is its cell,
         * and band 2: a column's two places lie in two bands, so the first is the lowest of
         * the word's and the second band 2's, else the word's highest. */
        const uint64_t x01 = cols ? xw[0] | (uint64_t)xw[1] << 27 : 0;
        for (uint32_t f = cols; f; f &= f - 1) {
            const uint32_t j = sbv_ctz(f);
            const uint64_t c01 = x01 & ((uint64_t)0x40201u << 27 | 0x40201u) << j;
            const uint32_t c2 = xw[2] & 0x40201u << j;
            const uint32_t p = sbv_ctz64(c01);
            const uint32_t q = c2 ? 54 + sbv_ctz(c2)
                                  : 63 ^ (uint32_t)__builtin_clzll(c01);
            SBL_PAIR(p, q, 1, 81 + 9 * j);
        }
#undef SBL_PAIR
    }
    if (!sbl_beats(best, cell_deg, cell_many))
        return -1;
    const int p = sbl_key_p(best), q = sbl_key_q(best);
    *digit = sbl_key_digit(best);
    const sbv4 xd = sc->xd[*digit];
    const int np = SBL_COUNT(xd & *(const sbv4 *)(const void *)sb_band_peers[p]);
    const int nq = SBL_COUNT(xd & *(const sbv4 *)(const void *)sb_band_peers[q]);
    return sbl_first_place(p, q, np, nq);
}

/* sbl_line_pick over nine digit words x, open the open cells and biv the bivalue ones. */
static inline int sbl_line_pair(const sbv4 *x, sbv4 open, sbv4 biv, int cell_deg, int cell_many,
                                int *digit)
{
    sbl_scan sc;
    sbl_scan_of(&sc, x, open, biv);
    return sbl_line_pick(&sc, cell_deg, cell_many, digit);
}

#endif
