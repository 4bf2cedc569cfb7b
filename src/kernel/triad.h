/*
 * triad.h — the triad rules, which every fast-kernel stamp runs on the root board only,
 * written once over per-digit band planes (kernel_tech.h's layout), so that every SIMD level
 * makes the same eliminations and the same guesses. The AVX-512 stamps compute the same
 * rules inside their settle round instead (kernel.h, sbk_locked), from the masks the round
 * already has.
 *
 * Data layout: a board's candidates as 36 32-bit words, word 4*d + k the cells of band k
 * (rows 3k..3k+2) where digit d+1 is a candidate, bit 9*i + j = row 3k+i, column j; word
 * 4*d + 3 is 0. Each digit's three band words are one group of four lanes of vec.h's sbv, at
 * the includer's width: one digit a 16-byte vector, or two at 32 bytes (the AVX2 band
 * stamp's own board vectors, the tenth digit an empty phantom). A triad is the
 * three cells where a row (or a column) crosses a box: a row triad is flagged at its first
 * cell's bit, a column triad (a column segment) at its column's bit in the first row of its
 * band.
 *
 * Rules (scripts/sbperf/guess_model.py --triad both): a triad's three cells hold three different
 * digits, so
 *   - fewer than three digits left in a triad, or more than three confined to it (by its
 *     box or by its line: locked candidates' pointing and claiming digits), is a
 *     contradiction;
 *   - three digits left (naked): they leave the rest of its line and of its box;
 *   - three digits confined (hidden): its cells lose every other digit.
 *
 * Why at the root only: on every board they cost more time than the guesses they save
 * (docs/performance.md); at the root, one settle a puzzle, they take 15%
 * of top1465's guesses and a third of 17-clue's.
 *
 * When: the root's settle reaches the fixpoint of the other rules first, and goes on with the
 * triad rules only when at least SBT3_OPEN cells are still open there. Most multi-solution
 * roots have fewer (two in three of datasets/multi), and there the pass, about a thousand
 * instructions at the 16-byte band levels (40% fewer at avx2), seldom finds anything: gated,
 * the guesses rise by 0.2% on that corpus, 0.4% on top1465 and from 0.28 to 0.31 a puzzle on
 * 17-clue, and the multi-solution corpus runs 3% faster at scalar, sse4 and avx2. The gate is
 * read on that fixpoint, so every stamp and scripts/sbperf/guess_model.py make the same
 * decision.
 */
#ifndef SB_KERNEL_TRIAD_H
#define SB_KERNEL_TRIAD_H

#include "internal.h"
#ifndef SBV_BYTES
#define SBV_BYTES 16 /* a cell-major stamp (kernel.h): the rules over 16-byte digit words */
#endif
#include "vec.h"

/* The root runs the triad rules when at least this many cells are open at the fixpoint of
 * the other rules (scripts/sbperf/guess_model.py --triad-open, make test-guesses). */
#define SBT3_OPEN 50

/* Whether a root at the other rules' fixpoint, with `placed` cells placed, takes the triad
 * rules: at least SBT3_OPEN cells open. */
static inline int sbt3_gate(int placed)
{
    return placed <= SB_CELLS - SBT3_OPEN;
}

/* Band-word patterns: the first cell of each row triad, the first row (a bit a column). */
#define SBT3_TRIAD 0x1249249u
#define SBT3_COL 0x00001FFu

/* Digits per vector of the includer's width (vec.h's sbv: 16 bytes for the cell-major stamps
 * and the 16-byte band stamps, 32 for the AVX2 band stamp), and vectors per board. */
#define SBT3_DPV (SBV_LANES / 4)
#define SBT3_NV ((SB_DIGITS + SBT3_DPV - 1) / SBT3_DPV)

/* Row-triad flags moved to the same row of the box before (BOX1) or two before (BOX2), and
 * to the row before in the same box (ROW1, ROW2); column flags to the column before in the
 * same box (COL1, COL2). Macros over the stamp's vectors of band words (vec.h's sbv, whose
 * SBV_BAND masks they take; here and in kernel_band.h's sbb_rot_*). */
#define SBT3_BOX1(x) ((((x) >> 3) & SBV_BAND(0x0241209u)) | (((x) << 6) & SBV_BAND(0x1008040u)))
#define SBT3_BOX2(x) ((((x) >> 6) & SBV_BAND(0x0040201u)) | (((x) << 3) & SBV_BAND(0x1209048u)))
#define SBT3_ROW1(x) ((((x) >> 9) | ((x) << 18)) & SBV_BAND(SBT3_TRIAD))
#define SBT3_ROW2(x) ((((x) >> 18) | ((x) << 9)) & SBV_BAND(SBT3_TRIAD))
#define SBT3_COL1(x) ((((x) >> 1) & SBV_BAND(0x0DBu)) | (((x) << 2) & SBV_BAND(0x124u)))
#define SBT3_COL2(x) ((((x) >> 2) & SBV_BAND(0x049u)) | (((x) << 1) & SBV_BAND(0x1B6u)))

/* Saturating counters of flags over the digits of a vector's groups: at[k] = flagged for at
 * least k + 1 of them. */
typedef struct sbt3_count {
    sbv at[4];
} sbt3_count;

static inline void sbt3_add(sbt3_count *c, sbv x)
{
    c->at[3] |= c->at[2] & x;
    c->at[2] |= c->at[1] & x;
    c->at[1] |= c->at[0] & x;
    c->at[0] |= x;
}

/* Flagged for at least three digits (*ge3) and at least four (*ge4) over all the digits: at
 * 32 bytes the counts of the two halves (even digits, odd digits) added. */
static inline void sbt3_at_least(const sbt3_count *c, sbv4 *ge3, sbv4 *ge4)
{
#if SBT3_DPV == 1
    *ge3 = c->at[2];
    *ge4 = c->at[3];
#else
    const sbv4 a0 = sbv_lo(c->at[0]), a1 = sbv_lo(c->at[1]), a2 = sbv_lo(c->at[2]);
    const sbv4 b0 = sbv_hi(c->at[0]), b1 = sbv_hi(c->at[1]), b2 = sbv_hi(c->at[2]);
    *ge3 = a2 | b2 | (a1 & b0) | (a0 & b1);
    *ge4 = sbv_lo(c->at[3]) | sbv_hi(c->at[3]) | (a2 & b0) | (a1 & b1) | (a0 & b2);
#endif
}

/* The triad rules on planes x (SBT3_NV vectors, the digits in order, each a group of four
 * lanes; at 32 bytes the tenth group is the band kernel's empty phantom digit); el gets the
 * eliminations, in the same layout (each a subset of x). At the AVX2 band stamp's width, its
 * two digits a vector, a pass runs about 40% fewer instructions than over 16-byte digits
 * (docs/performance.md). @return -1 on contradiction, 1 when el removes a candidate, else 0
 * (el unset). */
static inline int sbt3_rules(const sbv *x, sbv *el)
{
    const sbv4 bands = {~0u, ~0u, ~0u, 0};
    sbv to[SBT3_NV], co[SBT3_NV], mr[SBT3_NV], mc[SBT3_NV];
    sbt3_count ur = {{{0}, {0}, {0}, {0}}}, uc = ur, hr = ur, hc = ur;
    for (int k = 0; k < SBT3_NV; k++) {
        const sbv v = x[k];
        const sbv t = (v | v >> 1 | v >> 2) & SBV_BAND(SBT3_TRIAD); /* row triads with the digit */
        const sbv c = (v | v >> 9 | v >> 18) & SBV_BAND(SBT3_COL);  /* column triads with it */
        /* Confined: pointing (not in the box's other triads) or claiming (not in the line's). */
        mr[k] = t & ~((SBT3_ROW1(t) | SBT3_ROW2(t)) & (SBT3_BOX1(t) | SBT3_BOX2(t)));
        mc[k] = c & ~((SBT3_COL1(c) | SBT3_COL2(c)) &
                      (SBV_SHUF4(c, 1, 2, 0, 3) | SBV_SHUF4(c, 2, 0, 1, 3)));
        to[k] = t;
        co[k] = c;
        sbt3_add(&ur, t);
        sbt3_add(&uc, c);
        sbt3_add(&hr, mr[k]);
        sbt3_add(&hc, mc[k]);
    }
    sbv4 ur3, ur4, uc3, uc4, hr3, hr4, hc3, hc4;
    sbt3_at_least(&ur, &ur3, &ur4);
    sbt3_at_least(&uc, &uc3, &uc4);
    sbt3_at_least(&hr, &hr3, &hr4);
    sbt3_at_least(&hc, &hc3, &hc4);
    const sbv4 few = ((SBT3_TRIAD & ~ur3) | (SBT3_COL & ~uc3)) & bands;
    if (sbv4_any(hr4 | hc4 | few))
        return -1;
    const sbv4 n3r4 = ur3 & ~ur4, n3c4 = uc3 & ~uc4; /* three left */
    if (!sbv4_any(n3r4 | n3c4 | hr3 | hc3))          /* hr3, hc3: three confined */
        return 0;
    const sbv n3r = sbv_wide(n3r4), n3c = sbv_wide(n3c4);
    const sbv h3r = sbv_wide(hr3), h3c = sbv_wide(hc3);
    sbv any = {0};
    for (int k = 0; k < SBT3_NV; k++) {
        const sbv nr = n3r & to[k], nc = n3c & co[k];
        const sbv er = (h3r & ~mr[k]) | SBT3_BOX1(nr) | SBT3_BOX2(nr) | SBT3_ROW1(nr) |
                       SBT3_ROW2(nr);
        const sbv ec = (h3c & ~mc[k]) | SBV_SHUF4(nc, 1, 2, 0, 3) | SBV_SHUF4(nc, 2, 0, 1, 3) |
                       SBT3_COL1(nc) | SBT3_COL2(nc);
        const sbv e = x[k] & (((er << 3) - er) | ec | ec << 9 | ec << 18);
        el[k] = e;
        any |= e;
    }
    return sbv_any(any);
}

#endif /* SB_KERNEL_TRIAD_H */
