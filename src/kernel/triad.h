/*
 * triad.h — the triad rules, which every fast-kernel stamp runs on the root board only,
 * written once over per-digit band planes (kernel_tech.h's layout), so that every SIMD level
 * makes the same eliminations and the same guesses. The AVX-512 stamps compute the same
 * rules inside their settle round instead (kernel.h, sbk_locked), from the masks the round
 * already has.
 *
 * Data layout: a board's candidates as 36 32-bit words, word 4*d + k the cells of band k
 * (rows 3k..3k+2) where digit d+1 is a candidate, bit 9*i + j = row 3k+i, column j; word
 * 4*d + 3 is 0. Each digit's three band words are one 16-byte vector (sbv4). A triad is the
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
 * instructions at the band levels, seldom finds anything: gated, the guesses rise by 0.2% on
 * that corpus, 0.4% on top1465 and from 0.28 to 0.31 a puzzle on 17-clue, and the
 * multi-solution corpus runs 3% faster at scalar, sse4 and avx2. The gate
 * is read on that fixpoint, so every stamp and scripts/sbperf/guess_model.py make the same
 * decision.
 */
#ifndef SB_KERNEL_TRIAD_H
#define SB_KERNEL_TRIAD_H

#include "internal.h"
#ifndef SBV_BYTES
#define SBV_BYTES 16 /* a cell-major stamp (kernel.h): only the 16-byte sbv4 is used here */
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

/* Lanes a, b, c, d of x (one digit's bands). */
#define SBT3_SHUF(x, a, b, c, d) SBV4_SHUF2((x), (x), a, b, c, d)

/* Row-triad flags moved to the same row of the box before (BOX1) or two before (BOX2), and
 * to the row before in the same box (ROW1, ROW2); column flags to the column before in the
 * same box (COL1, COL2). Macros over any vector of band words (a 16-byte sbv4 here, the
 * stamp's own width in kernel_band.h's sbb_rot_*). */
#define SBT3_BOX1(x) ((((x) >> 3) & 0x0241209u) | (((x) << 6) & 0x1008040u))
#define SBT3_BOX2(x) ((((x) >> 6) & 0x0040201u) | (((x) << 3) & 0x1209048u))
#define SBT3_ROW1(x) ((((x) >> 9) | ((x) << 18)) & SBT3_TRIAD)
#define SBT3_ROW2(x) ((((x) >> 18) | ((x) << 9)) & SBT3_TRIAD)
#define SBT3_COL1(x) ((((x) >> 1) & 0x0DBu) | (((x) << 2) & 0x124u))
#define SBT3_COL2(x) ((((x) >> 2) & 0x049u) | (((x) << 1) & 0x1B6u))

/* Saturating counters of flags over the digits: at[k] = flagged for at least k + 1 digits. */
typedef struct sbt3_count {
    sbv4 at[4];
} sbt3_count;

static inline void sbt3_add(sbt3_count *c, sbv4 x)
{
    c->at[3] |= c->at[2] & x;
    c->at[2] |= c->at[1] & x;
    c->at[1] |= c->at[0] & x;
    c->at[0] |= x;
}

/* The triad rules on planes w; el gets the eliminations, in the same layout (each a subset of
 * w). @return -1 on contradiction, 1 when el removes a candidate, else 0 (el unset). */
static inline int sbt3_rules(const uint32_t *w, uint32_t *el)
{
    const sbv4 *x = (const sbv4 *)(const void *)w;
    const sbv4 bands = {~0u, ~0u, ~0u, 0};
    sbv4 to[SB_DIGITS], co[SB_DIGITS], mr[SB_DIGITS], mc[SB_DIGITS];
    sbt3_count ur = {{{0}, {0}, {0}, {0}}}, uc = ur, hr = ur, hc = ur;
    for (int d = 0; d < SB_DIGITS; d++) {
        const sbv4 v = x[d];
        const sbv4 t = (v | v >> 1 | v >> 2) & SBT3_TRIAD; /* row triads holding d */
        const sbv4 c = (v | v >> 9 | v >> 18) & SBT3_COL;  /* column triads holding d */
        /* Confined: pointing (not in the box's other triads) or claiming (not in the line's). */
        mr[d] = t & ~((SBT3_ROW1(t) | SBT3_ROW2(t)) & (SBT3_BOX1(t) | SBT3_BOX2(t)));
        mc[d] = c & ~((SBT3_COL1(c) | SBT3_COL2(c)) &
                      (SBT3_SHUF(c, 1, 2, 0, 3) | SBT3_SHUF(c, 2, 0, 1, 3)));
        to[d] = t;
        co[d] = c;
        sbt3_add(&ur, t);
        sbt3_add(&uc, c);
        sbt3_add(&hr, mr[d]);
        sbt3_add(&hc, mc[d]);
    }
    const sbv4 few = ((SBT3_TRIAD & ~ur.at[2]) | (SBT3_COL & ~uc.at[2])) & bands;
    if (sbv4_any(hr.at[3] | hc.at[3] | few))
        return -1;
    const sbv4 n3r = ur.at[2] & ~ur.at[3], n3c = uc.at[2] & ~uc.at[3]; /* three left */
    const sbv4 h3r = hr.at[2], h3c = hc.at[2];                       /* three confined */
    if (!sbv4_any(n3r | n3c | h3r | h3c))
        return 0;
    sbv4 any = {0};
    for (int d = 0; d < SB_DIGITS; d++) {
        const sbv4 nr = n3r & to[d], nc = n3c & co[d];
        const sbv4 er = (h3r & ~mr[d]) | SBT3_BOX1(nr) | SBT3_BOX2(nr) | SBT3_ROW1(nr) |
                        SBT3_ROW2(nr);
        const sbv4 ec = (h3c & ~mc[d]) | SBT3_SHUF(nc, 1, 2, 0, 3) | SBT3_SHUF(nc, 2, 0, 1, 3) |
                        SBT3_COL1(nc) | SBT3_COL2(nc);
        const sbv4 e = x[d] & (((er << 3) - er) | ec | ec << 9 | ec << 18);
        *(sbv4 *)(void *)&el[4 * d] = e;
        any |= e;
    }
    return sbv4_any(any);
}

#endif /* SB_KERNEL_TRIAD_H */
