/*
 * kernel_tech.h — the whole-board techniques of "fast+T[,T...]", written once over per-digit
 * band planes and included (through entries.h) by every stamp of the fused kernel, so every
 * SIMD level computes the same eliminations from the same stable board, reaches the same
 * fixpoint and makes the same guesses.
 *
 * Data layout (the band kernel's, kernel_band.h): a board's candidates as 36 32-bit words,
 *   word 4*d + k   the cells of band k (rows 3k..3k+2) where digit d+1 is a candidate:
 *                  bit 9*i + j = row 3k+i, column j (cell c is bit c % 27 of word c / 27);
 *   word 4*d + 3   unused (read as 0).
 * The band stamps hand their own words; the cell-major stamps (kernel.h) build them with
 * their mask instructions (SBK_PLANES) and take eliminations back in the same layout
 * (SBK_ELIM). A cell's peers are sb_band_peers[c] in this layout.
 *
 * Algorithm: at a stable, unsolved board the spec's techniques run in spec order; the first
 * that removes something hands its eliminations (all of its patterns on this one board,
 * landing together) back to the kernel, whose propagation runs again, then the techniques
 * from the first one again (the restart order). Every rule here holds in each solution of
 * the board (no uniqueness argument): sound on boards with 0 or several solutions. The rules
 * are technique_board.h's (the generic stamp): fish of size 2..4 on rows and columns,
 * skyscraper, 2-string kite, XY-wing, XYZ-wing, W-wing, simple colouring, X-chains (same
 * cap); and technique.h's naked and hidden tuples (sizes 2..4), here on all 27 houses of one
 * board at once.
 */
#include <string.h>

#include "internal.h"
#ifndef SBV_BYTES
#define SBV_BYTES 16 /* a cell-major stamp (kernel.h): only the 16-byte sbv4 is used here */
#endif
#include "vec.h"

/* The stamp's board as cell masks (bit d: digit d+1) when it keeps one (kernel.h's stamps
 * define this), cell c in lane SBK_CELL_LANE(c), else NULL: with it a wing pivot's digits
 * are one load (sbt_cell), without it nine plane reads. */
#ifndef SBK_CELL_MAJOR
#define SBK_CELL_MAJOR(b) ((const uint16_t *)NULL)
#endif
#ifndef SBK_CELL_LANE
#define SBK_CELL_LANE(c) (c)
#endif

/* Words of a plane board (nine digits of four words). */
#define SBT_WORDS (4 * SB_DIGITS)

/* A technique's outcome: the fish's "k base lines in fewer covers" (no solution). */
#define SBT_CONTRADICTION (-1)

/* 1 when cell c is in band set p (three band words). */
static inline int sbt_in(const uint32_t *p, int c)
{
    return (int)(p[c / 27] >> (c % 27) & 1u);
}

/* Bits set in x: one instruction with popcnt; the scalar and baseline stamps have none, and
 * the builtin there is a libgcc call, so the SWAR sum is inlined instead. */
static inline int sbt_pop(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x -= x >> 1 & 0x55555555u;
    x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
    return (int)(((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u >> 24);
#endif
}

/* Bits set in a 64-bit x (sbt_pop's two halves where there is no popcnt instruction). */
static inline int sbt_pop64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    return sbt_pop((uint32_t)x) + sbt_pop((uint32_t)(x >> 32));
#endif
}

/* 1 when band set s (three words) has a cell. */
static inline int sbt_any(const uint32_t *s)
{
    return (s[0] | s[1] | s[2]) != 0;
}

/* Digit d's rows as nine 9-bit column sets. */
static inline void sbt_rows(const uint32_t *w, int d, uint32_t rows[SB_DIGITS])
{
    for (int r = 0; r < SB_DIGITS; r++)
        rows[r] = w[4 * d + r / 3] >> (9 * (r % 3)) & 0x1FFu;
}

/* Digit d's column c as a 9-bit row set. A column's three cells of a band sit 9 bits apart:
 * one multiply gathers them into three adjacent bits (the partial products land on distinct
 * bits, so nothing carries). */
static inline uint32_t sbt_col(const uint32_t *w, int d, int c)
{
    uint32_t m = 0;
    for (int k = 0; k < 3; k++)
        m |= (uint32_t)(((uint64_t)(w[4 * d + k] >> c & 0x40201u) * 0x10101u) >> 16 & 7u)
             << (3 * k);
    return m;
}

/* Digit d's rows (nine 9-bit column sets) and columns (nine 9-bit row sets). The columns are
 * the rows transposed: rows 0..7 of columns 0..7 as one 8x8 bit matrix in a 64-bit word
 * (three swap steps, not a multiply per column and band), row 8 and column 8 apart. mat:
 * that matrix before (byte r: row r) and after (byte c: column c) the transpose. */
static inline void sbt_lines(const uint32_t *w, int d, uint32_t rows[SB_DIGITS],
                             uint32_t cols[SB_DIGITS], uint64_t mat[2])
{
    sbt_rows(w, d, rows);
    uint64_t x = 0;
    for (int r = 0; r < 8; r++)
        x |= (uint64_t)(rows[r] & 0xFFu) << (8 * r);
    mat[0] = x;
    uint64_t t = (x ^ x >> 7) & 0x00AA00AA00AA00AAull;
    x ^= t ^ t << 7;
    t = (x ^ x >> 14) & 0x0000CCCC0000CCCCull;
    x ^= t ^ t << 14;
    t = (x ^ x >> 28) & 0x00000000F0F0F0F0ull;
    x ^= t ^ t << 28;
    mat[1] = x;
    for (int c = 0; c < 8; c++)
        cols[c] = (uint32_t)(x >> (8 * c) & 0xFFu) | (rows[8] >> c & 1u) << 8;
    cols[8] = sbt_col(w, d, 8);
}

/* Column counts of nine row sets, bit-sliced (no column gathered): more[j] = the columns
 * with more than j places, j = 0..4. */
static inline void sbt_col_counts(const uint32_t rows[SB_DIGITS], uint32_t more[5])
{
    memset(more, 0, 5 * sizeof *more);
    for (int r = 0; r < SB_DIGITS; r++) {
        for (int j = 4; j > 0; j--)
            more[j] |= more[j - 1] & rows[r];
        more[0] |= rows[r];
    }
}

/* The rows of nine with 2..k places, as a mask (a compare, not a jump, per row). */
static inline uint32_t sbt_rows_within(const uint32_t rows[SB_DIGITS], int k)
{
    uint32_t m = 0;
    for (int r = 0; r < SB_DIGITS; r++)
        m |= (uint32_t)((unsigned)(sbt_pop(rows[r]) - 2) <= (unsigned)(k - 2)) << r;
    return m;
}

/* Per byte of x: its bits set (0..8), SWAR. */
static inline uint64_t sbt_byte_counts(uint64_t x)
{
    x -= x >> 1 & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
    return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
}

/* The bytes of counts (each 0..9) holding 2..k, as a mask (bit i: byte i): two byte-wise
 * compares by the top bit of a sum (no byte overflows), gathered by one multiply (the
 * partial products land on distinct bits). */
static inline uint32_t sbt_bytes_within(uint64_t counts, int k)
{
    const uint64_t lo = 0x0101010101010101ull, hi = lo << 7;
    const uint64_t ge2 = (counts + (0x80u - 2u) * lo) & hi,
                   gtk = (counts + (uint64_t)(0x80 - (k + 1)) * lo) & hi;
    return (uint32_t)((((ge2 & ~gtk) >> 7) * 0x0102040810204080ull) >> 56);
}

/* Bit i of b (i < 8) as byte i's value 0 or 1: b replicated into every byte, bit i picked
 * in byte i, and each nonzero byte set to 1 by the top bit of a sum. */
static inline uint64_t sbt_bits_to_bytes(uint32_t b)
{
    const uint64_t lo = 0x0101010101010101ull, hi = lo << 7;
    const uint64_t x = (uint64_t)(b & 0xFFu) * lo & 0x8040201008040201ull;
    return ((((x & ~hi) + (lo * 0x7Fu)) | x) & hi) >> 7;
}

/* sbt_lines with the lines of 2..k places of each family (within[0] rows, within[1]
 * columns): the counts of lines 0..7 are byte counts of the 8x8 matrix before and after its
 * transpose (plus the bit each has in line 8 of the other family), line 8 a popcount; a
 * dozen word operations a family instead of nine popcounts and compares. */
static inline void sbt_fish_lines(const uint32_t *w, int d, int k, uint32_t rows[SB_DIGITS],
                                  uint32_t cols[SB_DIGITS], uint32_t within[2])
{
    uint64_t mat[2];
    sbt_lines(w, d, rows, cols, mat);
    /* each line's place in line 8 of the other family adds 1 to its byte */
    const uint64_t rcount = sbt_byte_counts(mat[0]) + sbt_bits_to_bytes(cols[8]);
    const uint64_t ccount = sbt_byte_counts(mat[1]) + sbt_bits_to_bytes(rows[8]);
    within[0] = sbt_bytes_within(rcount, k) |
                (uint32_t)((unsigned)(sbt_pop(rows[8]) - 2) <= (unsigned)(k - 2)) << 8;
    within[1] = sbt_bytes_within(ccount, k) |
                (uint32_t)((unsigned)(sbt_pop(cols[8]) - 2) <= (unsigned)(k - 2)) << 8;
}

/* Digit d's strong lines: its rows, and its columns with exactly two places (the other
 * columns read 0: only those are gathered), with two[0] / two[1] the masks of the rows and
 * columns with exactly two places. What skyscraper, kite and the strong links read. */
static inline void sbt_strong_lines(const uint32_t *w, int d, uint32_t rows[SB_DIGITS],
                                    uint32_t cols[SB_DIGITS], uint32_t two[2])
{
    uint32_t more[5];
    sbt_rows(w, d, rows);
    sbt_col_counts(rows, more);
    two[0] = sbt_rows_within(rows, 2);
    two[1] = more[1] & ~more[2];
    memset(cols, 0, SB_DIGITS * sizeof *cols);
    for (uint32_t m = two[1]; m; m &= m - 1)
        cols[__builtin_ctz(m)] = sbt_col(w, d, __builtin_ctz(m));
}

/* The transpose of nine 9-bit line sets (rows -> columns, or back). */
static inline void sbt_transpose(const uint32_t in[SB_DIGITS], uint32_t out[SB_DIGITS])
{
    for (int c = 0; c < SB_DIGITS; c++) {
        uint32_t m = 0;
        for (int r = 0; r < SB_DIGITS; r++)
            m |= (in[r] >> c & 1u) << r;
        out[c] = m;
    }
}

/* Schedules digit d out of the cells of w that see both a and b (and c3 when >= 0) into el.
 * @return 1 if such a cell holds d (the pattern eliminates something), else 0. */
static inline int sbt_common(const uint32_t *w, uint32_t *el, int d, int a, int b, int c3)
{
    uint32_t any = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t e = sb_band_peers[a][k] & sb_band_peers[b][k] & w[4 * d + k];
        if (c3 >= 0)
            e &= sb_band_peers[c3][k];
        el[4 * d + k] |= e;
        any |= e;
    }
    return any != 0;
}

/* The end of a fish search: k base lines (base) whose places lie in the lines of cover, with
 * cross[] as for sbt_fish_rec. @return 1 when the covers' cells outside the base lines hold
 * the digit (scheduled into out), 0 when they do not or the covers are more than k, or
 * SBT_CONTRADICTION when they are fewer than k. */
static inline int sbt_fish_leaf(int k, uint32_t base, uint32_t cover, const uint32_t *cross,
                                uint32_t *out)
{
    const int nc = sbt_pop(cover);
    if (nc < k)
        return SBT_CONTRADICTION;
    if (nc > k)
        return 0;
    int found = 0;
    for (uint32_t cv = cover; cv; cv &= cv - 1) {
        const int c = __builtin_ctz(cv);
        const uint32_t e = cross[c] & ~base & 0x1FFu;
        out[c] |= e;
        found |= e != 0;
    }
    return found;
}

/* Fish search on one digit's lines: base lines (the set members, line l's places pos[l]) are
 * added, in increasing order, to the chosen ones until k (2..4) are chosen; then every cover
 * line's cells outside the base lines are scheduled (as line sets, into out[cover line]; the
 * cover lines are cross[]). The members are a mask, not a list to build; the walk is one loop
 * per level with its counts in registers (no call or stack per line chosen), and the last line
 * of a pattern is chosen in the loop (sbt_fish_leaf). @return applications, or
 * SBT_CONTRADICTION when k base lines fit in fewer than k covers. */
static inline __attribute__((always_inline)) int
sbt_fish_rec(const uint32_t *pos, uint32_t members, int k, const uint32_t *cross, uint32_t *out)
{
    int apps = 0, r;
    int n0 = sbt_pop(members);
    /* each level stops when fewer lines are left than the pattern still needs */
    for (uint32_t b0 = members; n0 >= k; b0 &= b0 - 1, n0--) {
        const uint32_t s0 = 1u << __builtin_ctz(b0), c0 = pos[__builtin_ctz(b0)];
        int n1 = n0 - 1;
        for (uint32_t b1 = b0 & (b0 - 1); n1 >= k - 1; b1 &= b1 - 1, n1--) {
            const uint32_t s1 = s0 | 1u << __builtin_ctz(b1), c1 = c0 | pos[__builtin_ctz(b1)];
            if (sbt_pop(c1) > k)
                continue;
            if (k == 2) {
                if ((r = sbt_fish_leaf(k, s1, c1, cross, out)) < 0)
                    return r;
                apps += r;
                continue;
            }
            int n2 = n1 - 1;
            for (uint32_t b2 = b1 & (b1 - 1); n2 >= k - 2; b2 &= b2 - 1, n2--) {
                const uint32_t s2 = s1 | 1u << __builtin_ctz(b2),
                               c2 = c1 | pos[__builtin_ctz(b2)];
                if (sbt_pop(c2) > k)
                    continue;
                if (k == 3) {
                    if ((r = sbt_fish_leaf(k, s2, c2, cross, out)) < 0)
                        return r;
                    apps += r;
                    continue;
                }
                for (uint32_t b3 = b2 & (b2 - 1); b3; b3 &= b3 - 1) {
                    const uint32_t c3 = c2 | pos[__builtin_ctz(b3)];
                    if (sbt_pop(c3) > k)
                        continue;
                    if ((r = sbt_fish_leaf(k, s2 | 1u << __builtin_ctz(b3), c3, cross, out)) < 0)
                        return r;
                    apps += r;
                }
            }
        }
    }
    return apps;
}

/* Fish of size k (xw 2, sf 3, jf 4) on digit d, rows as base then columns as base: k lines
 * whose places (2..k each) lie in k crossing lines; those lines' other cells lose the digit.
 * Inlined into sbt_fish once per size, so each walk has its k as a constant. @return
 * applications, or SBT_CONTRADICTION. */
static inline __attribute__((always_inline)) int sbt_fish_k(const uint32_t *w, uint32_t *el,
                                                            int d, int k)
{
    int apps = 0;
    uint32_t lines[2][SB_DIGITS], out[2][SB_DIGITS], within[2];
    /* The rows are shifts and the columns their transpose (sbt_fish_lines); the base lines are
     * those with 2..k places */
    sbt_fish_lines(w, d, k, lines[0], lines[1], within);
    memset(out, 0, sizeof out);
    for (int f = 0; f < 2; f++) {
        if (sbt_pop(within[f]) < k)
            continue;
        const int r = sbt_fish_rec(lines[f], within[f], k, lines[1 - f], out[1 - f]);
        if (r < 0)
            return r;
        apps += r;
    }
    if (!apps) /* nothing scheduled: out is all zero (most digits of most calls) */
        return 0;
    /* Column-family eliminations (out[1]: per column, rows) back to row sets. */
    uint32_t back[SB_DIGITS] = {0}, any = 0;
    for (int c = 0; c < SB_DIGITS; c++)
        any |= out[1][c];
    if (any)
        sbt_transpose(out[1], back);
    for (int r = 0; r < SB_DIGITS; r++)
        el[4 * d + r / 3] |= (out[0][r] | back[r]) << (9 * (r % 3));
    return apps;
}

/* sbt_fish_k for k = 2, 3 or 4, each size its own code. */
static int sbt_fish(const uint32_t *w, uint32_t *el, int d, int k)
{
    return k == 2 ? sbt_fish_k(w, el, d, 2) : k == 3 ? sbt_fish_k(w, el, d, 3)
                                                     : sbt_fish_k(w, el, d, 4);
}

/* sky on digit d: two lines of one family each holding the digit in two cells, one end of
 * each in the same crossing line, the other ends in different ones: cells seeing both free
 * ends lose it. @return applications. */
static int sbt_skyscraper(const uint32_t *w, uint32_t *el, int d, int unused)
{
    (void)unused;
    int apps = 0;
    uint32_t lines[2][SB_DIGITS], two[2];
    sbt_strong_lines(w, d, lines[0], lines[1], two);
    for (int f = 0; f < 2; f++) /* f 0: rows (cell 9*l + x), 1: columns (9*x + l) */
        for (uint32_t bi = two[f]; bi; bi &= bi - 1) {
            const int i = __builtin_ctz(bi);
            const uint32_t li = lines[f][i];
            for (uint32_t bj = bi & (bi - 1); bj; bj &= bj - 1) {
                const int j = __builtin_ctz(bj);
                const uint32_t lj = lines[f][j];
                if (sbt_pop(li & lj) != 1)
                    continue;
                const int xa = __builtin_ctz(li & ~lj), xb = __builtin_ctz(lj & ~li);
                const int fa = f ? 9 * xa + i : 9 * i + xa, fb = f ? 9 * xb + j : 9 * j + xb;
                apps += sbt_common(w, el, d, fa, fb, -1);
            }
        }
    return apps;
}

/* kite on digit d: the digit in two cells of a row and two cells of a column, one end of each
 * in the same box (the four cells distinct, the joined ends sharing no line): cells seeing
 * both free ends lose it. @return applications. */
static int sbt_kite(const uint32_t *w, uint32_t *el, int d, int unused)
{
    (void)unused;
    int apps = 0;
    uint32_t rows[SB_DIGITS], cols[SB_DIGITS], two[2], inband[3] = {0};
    sbt_strong_lines(w, d, rows, cols, two);
    /* inband[b]: the strong columns with an end in band b. A row's end and a column's end
     * can share a box without a line only when the column has an end in the row's band and
     * the row an end in the column's stack: only those pairs are looked at. */
    for (uint32_t bc = two[1]; bc; bc &= bc - 1) {
        const int c = __builtin_ctz(bc);
        inband[__builtin_ctz(cols[c]) / 3] |= 1u << c;
        inband[(31 - __builtin_clz(cols[c])) / 3] |= 1u << c;
    }
    for (uint32_t br = two[0]; br; br &= br - 1) {
        const int r = __builtin_ctz(br);
        const int rc[2] = {__builtin_ctz(rows[r]), 31 - __builtin_clz(rows[r])};
        const uint32_t stacks = 7u << (3 * (rc[0] / 3)) | 7u << (3 * (rc[1] / 3));
        for (uint32_t bc = inband[r / 3] & stacks; bc; bc &= bc - 1) {
            const int c = __builtin_ctz(bc);
            const int cr[2] = {__builtin_ctz(cols[c]), 31 - __builtin_clz(cols[c])};
            for (int e = 0; e < 4; e++) {
                const int a = 9 * r + rc[e & 1], fa = 9 * r + rc[1 - (e & 1)];
                const int b = 9 * cr[e >> 1] + c, fb = 9 * cr[1 - (e >> 1)] + c;
                if (a == b || a == fb || fa == b || fa == fb || a / 9 == b / 9 ||
                    a % 9 == b % 9 || !sbt_in(sb_band_peers[a], b))
                    continue;
                apps += sbt_common(w, el, d, fa, fb, -1);
            }
        }
    }
    return apps;
}

/* Cells with at least one, two, three and four candidates (band sets), from the planes: a
 * digit's four words are one 16-byte vector (the fourth word 0), so each level is one
 * vector AND and OR a digit instead of three word operations. */
static inline void sbt_counts(const uint32_t *w, uint32_t at[4][3])
{
    sbv4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
    for (int d = 0; d < SB_DIGITS; d++) {
        sbv4 x;
        memcpy(&x, w + 4 * d, sizeof x); /* the planes need not be 16-byte aligned */
        a3 |= a2 & x;
        a2 |= a1 & x;
        a1 |= a0 & x;
        a0 |= x;
    }
    for (int k = 0; k < 3; k++) {
        at[0][k] = a0[k];
        at[1][k] = a1[k];
        at[2][k] = a2[k];
        at[3][k] = a3[k];
    }
}

/* The candidate mask of cell c (bit d: digit d+1): from cm, the stamp's cell-major board,
 * when it has one (else NULL), or read from the planes. */
static inline uint32_t sbt_cell(const uint32_t *w, const uint16_t *cm, int c)
{
    if (cm)
        return cm[SBK_CELL_LANE(c)]; /* a cell-major stamp's own board: one load, not nine */
    uint32_t m = 0;
    for (int d = 0; d < SB_DIGITS; d++)
        m |= (w[4 * d + c / 27] >> (c % 27) & 1u) << d;
    return m;
}

/* xy (three 0) and xyz (three 1): a pivot p with digits {x,y} (xyz: {x,y,z}) seeing
 * bivalue pincers {x,z} and {y,z}: cells seeing both pincers (xyz: and the pivot) lose z.
 * Pincers are found as band sets: the bivalue peers of p holding x (near[x]) and z. A pivot
 * with fewer than two bivalue peers, or none holding one of its digits, has no wing and is
 * left before its digits are read. Cell sets of the pincer tests are one 16-byte vector
 * each (a digit's three band words and a zero lane, as the planes lie), so a test is an AND
 * and an any-bit test, evaluated both ways rather than behind a jump. cm: sbt_cell's.
 * @return applications. */
static int sbt_wing(const uint32_t *w, const uint16_t *cm, uint32_t *el, int three)
{
    uint32_t at[4][3];
    sbt_counts(w, at);
    const uint32_t bi[3] = {at[1][0] & ~at[2][0], at[1][1] & ~at[2][1], at[1][2] & ~at[2][2]};
    if (sbt_pop(bi[0]) + sbt_pop(bi[1]) + sbt_pop(bi[2]) <
        3 - three)
        return 0; /* xy: a pivot and two pincers, all bivalue; xyz: two pincers */
    const sbv4 bi4 = {bi[0], bi[1], bi[2], 0};
    const sbv4 *wv = (const sbv4 *)(const void *)w; /* wv[d]: digit d's planes */
    int apps = 0;
    for (int k = 0; k < 3; k++) {
        /* the pivots with two or more bivalue peers, as a mask built without a jump */
        uint32_t piv = 0;
        for (uint32_t pb = three ? at[2][k] & ~at[3][k] : bi[k]; pb; pb &= pb - 1) {
            const uint32_t *pp = sb_band_peers[27 * k + __builtin_ctz(pb)];
            piv |= (uint32_t)(sbt_pop(bi[0] & pp[0]) + sbt_pop(bi[1] & pp[1]) +
                                  sbt_pop(bi[2] & pp[2]) >=
                              2)
                   << __builtin_ctz(pb);
        }
        for (uint32_t pb = piv; pb; pb &= pb - 1) {
            const int p = 27 * k + __builtin_ctz(pb);
            const sbv4 near = bi4 & *(const sbv4 *)(const void *)sb_band_peers[p];
            const uint32_t pm = sbt_cell(w, cm, p);
            sbv4 nd[SB_DIGITS]; /* near holding each digit of the pivot */
            uint32_t zs = 0;
            if (three) {
                /* xyz: z is one of the pivot's three digits {a, bd, c}; each pair of them is
                 * tested once for a pincer, and z kept when both pairs with z have one
                 * (three tests, not six); near is split by digit only for a wing */
                const int a = __builtin_ctz(pm), c = 31 - __builtin_clz(pm),
                          bd = __builtin_ctz(pm & (pm - 1));
                const sbv4 na = near & wv[a];
                const uint32_t eab = (uint32_t)sbv4_any(na & wv[bd]),
                               eac = (uint32_t)sbv4_any(na & wv[c]),
                               ebc = (uint32_t)sbv4_any(near & wv[bd] & wv[c]);
                zs = (eab & eac) << a | (eab & ebc) << bd | (eac & ebc) << c;
                if (!zs)
                    continue;
                nd[a] = na;
                nd[bd] = near & wv[bd];
                nd[c] = near & wv[c];
            } else {
                const int x = __builtin_ctz(pm), y = 31 - __builtin_clz(pm);
                nd[x] = near & wv[x];
                nd[y] = near & wv[y];
                if (!(sbv4_any(nd[x]) & sbv4_any(nd[y])))
                    continue; /* xy: both pincers need a pivot digit each */
                /* z: any digit outside the pivot, kept when near has a cell holding z with
                 * each pivot digit */
                for (uint32_t m = 0x1FFu & ~pm; m; m &= m - 1) {
                    const int z = __builtin_ctz(m);
                    zs |= (uint32_t)(sbv4_any(nd[x] & wv[z]) & sbv4_any(nd[y] & wv[z])) << z;
                }
            }
            for (; zs; zs &= zs - 1) {
                const int z = __builtin_ctz(zs);
                const uint32_t rest = pm & ~(1u << z);
                const int x = __builtin_ctz(rest), y = 31 - __builtin_clz(rest);
                for (int jq = 0; jq < 3; jq++)
                    for (uint32_t qb = nd[x][jq] & w[4 * z + jq]; qb; qb &= qb - 1)
                        for (int jr = 0; jr < 3; jr++)
                            for (uint32_t rb = nd[y][jr] & w[4 * z + jr]; rb; rb &= rb - 1)
                                apps += sbt_common(w, el, z, 27 * jq + __builtin_ctz(qb),
                                                   27 * jr + __builtin_ctz(rb), three ? p : -1);
            }
        }
    }
    return apps;
}

/* ------------------------------------------------------------------------------------------ */
/* Tuples (nt2..nt4, ht2..ht4), colouring (col), X-chains (xc)                                */
/* ------------------------------------------------------------------------------------------ */

/* Most links of an X-chain (xc): technique_board.h's TQ_XC_MAX_LINKS (8 strong links and the
 * 7 weak links between them), the cap the registry states ("<= 15"). */
#define SBT_XC_MAX_LINKS 15

/* Digit d's places in the 27 houses of planes w (rows, columns, boxes),
 * as 9-bit sets: bit i is the house's i-th cell (a line along, a box row by row). */
static inline void sbt_houses(const uint32_t *w, int d, uint32_t sets[SB_HOUSES])
{
    uint64_t mat[2];
    sbt_lines(w, d, sets, sets + SB_DIGITS, mat);
    for (int b = 0; b < SB_DIGITS; b++) {
        const uint32_t x = w[4 * d + b / 3] >> (3 * (b % 3));
        sets[2 * SB_DIGITS + b] = (x & 7u) | (x >> 6 & 0x38u) | (x >> 12 & 0x1C0u);
    }
}

/* The cell of house h's i-th place (sbt_houses' numbering). */
static inline int sbt_house_cell(int h, int i)
{
    if (h < SB_DIGITS)
        return 9 * h + i;
    if (h < 2 * SB_DIGITS)
        return 9 * i + h - SB_DIGITS;
    const int b = h - 2 * SB_DIGITS;
    return 27 * (b / 3) + 9 * (i / 3) + 3 * (b % 3) + i % 3;
}

/* Adds digit d to knowns[h] for every house h where a cell with one candidate holds it, from
 * d's three band words wd and the cells with two or more candidates (more). Only whether a
 * house has one is asked, so lines and boxes are folded, not gathered. */
static inline void sbt_known_houses(const uint32_t *wd, const uint32_t more[3], int d,
                                    uint32_t knowns[SB_HOUSES])
{
    uint32_t fold = 0;
    for (int k = 0; k < 3; k++) {
        const uint32_t s = wd[k] & ~more[k];
        fold |= s;
        for (int i = 0; i < 3; i++) {
            knowns[3 * k + i] |= (uint32_t)((s >> (9 * i) & 0x1FFu) != 0) << d;
            knowns[2 * SB_DIGITS + 3 * k + i] |= (uint32_t)((s & 0x1C0E07u << (3 * i)) != 0) << d;
        }
    }
    fold = (fold | fold >> 9 | fold >> 18) & 0x1FFu;
    for (int c = 0; c < SB_DIGITS; c++)
        knowns[SB_DIGITS + c] |= (fold >> c & 1u) << d;
}

/* nt<k> (hidden 0) and ht<k> (hidden 1) in every house, the registry's rule (technique.h's
 * tq_tuples): over the open members of a house (unknown cells with their digits, or digits
 * not known there with their places in unknown cells), when there are more than k, every k
 * whose sets cover exactly k elements are a tuple: a naked tuple's digits leave the house's
 * other unknown cells, a hidden tuple's cells keep only its digits. This is the fish search
 * with cells (or digits) for base lines, so sbt_fish_rec walks the k-subsets. All houses read
 * this one board. @return houses that removed something, or SBT_CONTRADICTION when k members
 * cover fewer than k. */
static int sbt_tuples(const uint32_t *w, uint32_t *el, int k, int hidden)
{
    uint32_t at[4][3], open[SBT_WORDS] = {0}, place[SB_DIGITS][SB_HOUSES],
                       knowns[SB_HOUSES] = {0};
    sbt_counts(w, at);
    for (int d = 0; d < SB_DIGITS; d++) {
        for (int j = 0; j < 3; j++)
            open[4 * d + j] = w[4 * d + j] & at[1][j];
        sbt_houses(open, d, place[d]);
        if (hidden)
            sbt_known_houses(w + 4 * d, at[1], d, knowns);
    }
    int apps = 0;
    for (int h = 0; h < SB_HOUSES; h++) {
        uint32_t digits[SB_DIGITS] = {0}, places[SB_DIGITS], out[SB_DIGITS] = {0}, opened = 0;
        for (int d = 0; d < SB_DIGITS; d++) {
            places[d] = place[d][h];
            opened |= places[d];
            for (uint32_t p = places[d]; p; p &= p - 1)
                digits[__builtin_ctz(p)] |= 1u << d;
        }
        /* members: digits not known here (hidden), or the unknown cells (naked) */
        uint32_t members = hidden ? ~knowns[h] & 0x1FFu : opened;
        if (sbt_pop(members) <= k)
            continue;
        /* a member spanning more than k is in no tuple: left out of the walk */
        const uint32_t *spans = hidden ? places : digits;
        for (uint32_t m = members; m; m &= m - 1)
            members &= ~((uint32_t)(sbt_pop(spans[__builtin_ctz(m)]) > k) << __builtin_ctz(m));
        const int r = sbt_fish_rec(spans, members, k, hidden ? digits : places, out);
        if (r < 0)
            return r;
        apps += r > 0;
        /* out: per digit the places that lose it (naked), per place the digits it loses */
        for (int i = 0; i < SB_DIGITS; i++)
            for (uint32_t e = out[i]; e; e &= e - 1) {
                const int d = hidden ? __builtin_ctz(e) : i,
                          c = sbt_house_cell(h, hidden ? i : __builtin_ctz(e));
                el[4 * d + c / 27] |= 1u << (c % 27);
            }
    }
    return apps;
}

/* The union of sets[c] over the cells c of band set s, into out (three words). */
static inline void sbt_union(const uint32_t (*sets)[4], const uint32_t *s, uint32_t *out)
{
    out[0] = out[1] = out[2] = 0;
    for (int k = 0; k < 3; k++)
        for (uint32_t b = s[k]; b; b &= b - 1) {
            const uint32_t *p = sets[27 * k + __builtin_ctz(b)];
            out[0] |= p[0];
            out[1] |= p[1];
            out[2] |= p[2];
        }
}

/* Digit d's strong houses (exactly two places) as band sets, what ww's link test reads:
 * row = the places of its strong rows and box = those of its strong boxes, both as the
 * planes lie; col = those of its strong columns transposed (word k: columns 3k..3k+2, bit
 * 9i + r = row r of column 3k + i), so columns are tested as rows are. */
typedef struct sbt_strong {
    sbv4 row, col, box;
} sbt_strong;

/* The three 9-bit fields of a band word picked by the low three bits of m, all ones. */
static inline uint32_t sbt_row_fields(uint32_t m)
{
    return ((m & 1u) | (m & 2u) << 8 | (m & 4u) << 16) * 0x1FFu;
}

/* The three boxes of a band word picked by the low three bits of m, all ones. */
static inline uint32_t sbt_box_fields(uint32_t m)
{
    return ((m & 1u) | (m & 2u) << 2 | (m & 4u) << 4) * 7u * 0x40201u;
}

/* Digit d's strong houses (exactly two places) as band sets laid as the planes, found
 * without a jump (the lines' counts are sbt_fish_lines' byte counts, the boxes' a popcount
 * each): st[0] the places of its strong rows, st[1] of its strong columns, st[2] of its
 * strong boxes; *tcols, unless NULL, the strong columns' places transposed (sbt_strong's col).
 * @return the cells with a strong link (the union). */
static inline sbv4 sbt_strong_planes(const uint32_t *w, int d, sbv4 st[3], sbv4 *tcols)
{
    uint32_t rows[SB_DIGITS], cols[SB_DIGITS], two[2], boxes = 0;
    sbt_fish_lines(w, d, 2, rows, cols, two);
    for (int b = 0; b < SB_DIGITS; b++)
        boxes |= (uint32_t)(sbt_pop(w[4 * d + b / 3] & 0x1C0E07u << (3 * (b % 3))) == 2) << b;
    const sbv4 wd = *(const sbv4 *)(const void *)(w + 4 * d);
    st[0] = wd & (sbv4){sbt_row_fields(two[0]), sbt_row_fields(two[0] >> 3),
                        sbt_row_fields(two[0] >> 6), 0};
    st[1] = wd & (two[1] * 0x40201u);
    st[2] = wd & (sbv4){sbt_box_fields(boxes), sbt_box_fields(boxes >> 3),
                        sbt_box_fields(boxes >> 6), 0};
    if (tcols) {
        sbv4 t = {0};
        for (int k = 0; k < 3; k++)
            t[k] = cols[3 * k] | cols[3 * k + 1] << 9 | cols[3 * k + 2] << 18;
        *tcols = t & (sbv4){sbt_row_fields(two[1]), sbt_row_fields(two[1] >> 3),
                            sbt_row_fields(two[1] >> 6), 0};
    }
    return st[0] | st[1] | st[2];
}

/* Digit d's strong houses of planes w as ww reads them (sbt_strong). */
static inline void sbt_strong_sets(const uint32_t *w, int d, sbt_strong *s)
{
    sbv4 st[3];
    sbt_strong_planes(w, d, st, &s->col);
    s->row = st[0];
    s->box = st[2];
}

/* Strong houses per digit (sbt_strong), each with the plane it was built from: built again
 * only when its digit's plane changed. Below a guess most planes stay the same from one
 * stall to the next, so a search keeps one (sbt_memo). key word 3 is 0 in every plane (a key
 * with ~0 there matches none). */
typedef struct sbt_links_memo {
    uint32_t key[SB_DIGITS][4];
    sbt_strong strong[SB_DIGITS];
} sbt_links_memo;

/* Forgets every table of m (keys that match no plane). */
static inline void sbt_links_clear(sbt_links_memo *m)
{
    memset(m->key, 0xFF, sizeof m->key);
}

/* Digit d's strong houses in m, built from planes w unless its key is d's plane. */
static inline const sbt_strong *sbt_links_get(sbt_links_memo *m, const uint32_t *w, int d)
{
    uint64_t a[2], k[2];
    memcpy(a, w + 4 * d, sizeof a);
    memcpy(k, m->key[d], sizeof k);
    if (((a[0] ^ k[0]) | (a[1] ^ k[1])) != 0) {
        sbt_strong_sets(w, d, &m->strong[d]);
        memcpy(m->key[d], w + 4 * d, sizeof m->key[d]);
    }
    return &m->strong[d];
}

/* Per 9-bit field of x (rows as the planes lie, or columns transposed): bit 8 set when the
 * field has a bit. Bits 0..7 plus 0xFF carry into bit 8, never out of the field. */
static inline sbv4 sbt_nz_lines(sbv4 x)
{
    const uint32_t lo = 0x3FDFEFFu;
    return (((x & lo) + lo) | x) & 0x4020100u;
}

/* Per box of a band word x: bit 3i + 2 set when box i has a bit (its three rows folded into
 * one 3-bit field each, then as sbt_nz_lines). */
static inline sbv4 sbt_nz_boxes(sbv4 x)
{
    const sbv4 g = x | x >> 9 | x >> 18;
    return (((g & 0xDBu) + 0xDBu) | g) & 0x124u;
}

/* The houses of nz (sbt_nz_lines or sbt_nz_boxes) where set h has places pa seeing one
 * cell and pb seeing the other, and none seeing neither: a house of exactly two places
 * {p, q} with p in pa and q in pb, or the other way. */
#define SBT_LINK_HOUSES(nz, h, pa, pb) \
    (nz((h) & (pa)) & nz((h) & (pb)) & ~nz((h) & ~((pa) | (pb))))

/* Cell c as a band set. */
static inline sbv4 sbt_cell_set(int c)
{
    const sbv4 lane = {0, 1, 2, 3};
    return (sbv4)(lane == (uint32_t)(c / 27)) & (1u << (c % 27));
}

/* The transposed cell of c (row and column exchanged). */
static inline int sbt_transposed(int c)
{
    return 9 * (c % 9) + c / 9;
}

/* ww on two cells a and b holding exactly {x, y} (dig): for t = 0, 1, a house where dig[t] has
 * exactly two places (neither a nor b), one seeing a and the other b, takes dig[1 - t] from
 * the cells seeing both. Asked of the three kinds of house at once with band sets: a's peers
 * but b (pa, and qa transposed) and b's but a hold the two places of such a house, and the
 * house is left when it holds a or b (they see neither set). A digit's strong houses (lm)
 * are looked up (sbt_links_get) only when the pair would remove something. @return
 * applications. */
static int sbt_w_pair(const uint32_t *w, uint32_t *el, int a, int b, const int dig[2],
                      sbt_links_memo *lm)
{
    const sbv4 peers_a = *(const sbv4 *)(const void *)sb_band_peers[a],
               peers_b = *(const sbv4 *)(const void *)sb_band_peers[b];
    const sbv4 *wv = (const sbv4 *)(const void *)w;
    /* the cells seeing both, read once: el's stores below could alias the table */
    const sbv4 ab = peers_a & peers_b;
    int apps = 0;
    for (int t = 0; t < 2; t++) {
        const int x = dig[t], y = dig[1 - t];
        /* the cells that would lose y (seeing a and b, holding y) first: most pairs have
         * none, and then the link test cannot add anything */
        if (!sbv4_any(ab & wv[y]))
            continue;
        const sbt_strong *s = sbt_links_get(lm, w, x);
        const int ta = sbt_transposed(a), tb = sbt_transposed(b);
        const sbv4 pa = peers_a & ~sbt_cell_set(b), pb = peers_b & ~sbt_cell_set(a),
                   qa = *(const sbv4 *)(const void *)sb_band_peers[ta] & ~sbt_cell_set(tb),
                   qb = *(const sbv4 *)(const void *)sb_band_peers[tb] & ~sbt_cell_set(ta);
        const sbv4 hit = SBT_LINK_HOUSES(sbt_nz_lines, s->row, pa, pb) |
                         SBT_LINK_HOUSES(sbt_nz_lines, s->col, qa, qb) |
                         SBT_LINK_HOUSES(sbt_nz_boxes, s->box, pa, pb);
        if (sbv4_any(hit))
            apps += sbt_common(w, el, y, a, b, -1);
    }
    return apps;
}

/* ww: two cells holding the same two digits {x,y}, and a house where x has exactly two places
 * (neither of them), one seeing each cell: cells seeing both cells lose y. The pairs of equal
 * bivalue cells are found per digit pair as band sets (the bivalue cells holding x and y hold
 * exactly {x, y}), a count per pair and no cell read; a digit's strong houses are looked up
 * only when a pair of equal cells would remove something. @return applications. */
static int sbt_w_wing(const uint32_t *w, uint32_t *el, sbt_links_memo *lm)
{
    uint32_t at[4][3], bx[SB_DIGITS][3], hi[SB_DIGITS], two = 0;
    uint64_t lo[SB_DIGITS];
    int apps = 0;
    sbt_counts(w, at);
    for (int d = 0; d < SB_DIGITS; d++) {
        for (int k = 0; k < 3; k++)
            bx[d][k] = at[1][k] & ~at[2][k] & w[4 * d + k];
        lo[d] = bx[d][0] | (uint64_t)bx[d][1] << 27; /* two popcounts a pair, not three */
        hi[d] = bx[d][2];
        two |= (uint32_t)(sbt_pop64(lo[d]) + sbt_pop(hi[d]) >= 2) << d;
    }
    /* bit 8x + y - 1 (x < y): two or more bivalue cells hold {x, y}; only digits held by
     * two or more bivalue cells are paired */
    uint64_t pairs = 0;
    for (uint32_t xm = two; xm; xm &= xm - 1) {
        const int x = __builtin_ctz(xm);
        for (uint32_t ym = xm & (xm - 1); ym; ym &= ym - 1) {
            const int y = __builtin_ctz(ym);
            pairs |= (uint64_t)(sbt_pop64(lo[x] & lo[y]) + sbt_pop(hi[x] & hi[y]) >= 2)
                     << (8 * x + y - 1);
        }
    }
    if (!pairs)
        return 0;
    sbt_links_memo local;
    if (!lm) {
        sbt_links_clear(&local);
        lm = &local;
    }
    for (; pairs; pairs &= pairs - 1) {
        const int i = __builtin_ctzll(pairs), dig[2] = {i / 8, i % 8 + 1};
        /* the cells holding {x, y} as 81 bits, lo then hi: bit c is cell c */
        const uint64_t l = lo[dig[0]] & lo[dig[1]];
        const uint32_t h = hi[dig[0]] & hi[dig[1]];
        if (sbt_pop64(l) + sbt_pop(h) == 2) {
            /* nearly always two cells: the first and the last, found without a loop */
            const int f = __builtin_ctzll(l | 1ull << 63), e = 31 - __builtin_clz(h | 1u);
            apps += sbt_w_pair(w, el, f < 54 ? f : 54 + __builtin_ctz(h),
                               h ? 54 + e : 63 - __builtin_clzll(l), dig, lm);
            continue;
        }
        int cell[SB_CELLS], n = 0;
        for (uint64_t c = l; c; c &= c - 1)
            cell[n++] = __builtin_ctzll(c);
        for (uint32_t c = h; c; c &= c - 1)
            cell[n++] = 54 + __builtin_ctz(c);
        for (int u = 0; u < n; u++)
            for (int v = u + 1; v < n; v++)
                apps += sbt_w_pair(w, el, cell[u], cell[v], dig, lm);
    }
    return apps;
}

/* The fields of sbt_nz_lines' flags nz, all ones. */
static inline sbv4 sbt_fill_lines(sbv4 nz)
{
    return (nz >> 8) * 0x1FFu;
}

/* The boxes of sbt_nz_boxes' flags nz, all ones. */
static inline sbv4 sbt_fill_boxes(sbv4 nz)
{
    return ((nz >> 2) & 0x49u) * 7u * 0x40201u;
}

/* The columns of band set x with a bit, as a 9-bit set. */
static inline uint32_t sbt_col_mask(sbv4 x)
{
    const uint32_t t = x[0] | x[1] | x[2];
    return (t | t >> 9 | t >> 18) & 0x1FFu;
}

/* The cells linked to a cell of s by a strong house of st (sbt_strong_planes): in a house of
 * two places, the other place when s holds one, both when s holds both. Per kind of house,
 * the houses s touches and those it fills are flags per field, so there is no jump. */
static inline sbv4 sbt_linked_to(const sbv4 st[3], sbv4 s)
{
    sbv4 a = s & st[0];
    sbv4 occ = sbt_nz_lines(a), full = occ & ~sbt_nz_lines(st[0] & ~a);
    sbv4 p = (st[0] & sbt_fill_lines(occ) & ~a) | (a & sbt_fill_lines(full));
    a = s & st[2];
    occ = sbt_nz_boxes(a);
    full = occ & ~sbt_nz_boxes(st[2] & ~a);
    p |= (st[2] & sbt_fill_boxes(occ) & ~a) | (a & sbt_fill_boxes(full));
    a = s & st[1];
    const uint32_t oc = sbt_col_mask(a), fc = oc & ~sbt_col_mask(st[1] & ~a);
    return p | (st[1] & (oc * 0x40201u) & ~a) | (a & (fc * 0x40201u));
}

/* col: simple colouring on digit d, per cluster of strong links (technique_board.h's rule):
 * alternating colours, one colour holding the digit everywhere in every solution. Wrap: the
 * cells of a colour seeing itself lose it; trap (no wrap): the cells outside the cluster that
 * see both colours lose it. Colours are flooded as band sets, a step's strong links all at
 * once (sbt_linked_to). @return clusters that removed something, or SBT_CONTRADICTION on an
 * odd cycle or when both colours see themselves (the generic stamp then wraps the first it
 * meets, and its next pass finds the dead board). */
static int sbt_colouring(const uint32_t *w, uint32_t *el, int d, int unused)
{
    (void)unused;
    sbv4 st[3];
    int apps = 0;
    sbv4 left = sbt_strong_planes(w, d, st, NULL);
    while (sbv4_any(left)) {
        const int k0 = left[0] ? 0 : left[1] ? 1 : 2;
        uint32_t see[2][3], e[3];
        sbv4 cv[2] = {{0}, {0}}, front[2] = {{0}, {0}};
        cv[0][k0] = front[0][k0] = left[k0] & -left[k0];
        while (sbv4_any(front[0] | front[1])) {
            const sbv4 n0 = sbt_linked_to(st, front[1]), n1 = sbt_linked_to(st, front[0]);
            front[0] = n0 & ~cv[0];
            front[1] = n1 & ~cv[1];
            cv[0] |= front[0];
            cv[1] |= front[1];
        }
        const uint32_t(*col)[4] = (const uint32_t(*)[4])(const void *)cv; /* as band words */
        int wrap[2];
        for (int c = 0; c < 2; c++) {
            sbt_union(sb_band_peers, col[c], see[c]);
            wrap[c] = ((see[c][0] & col[c][0]) | (see[c][1] & col[c][1]) |
                       (see[c][2] & col[c][2])) != 0;
        }
        const int both = sbv4_any(cv[0] & cv[1]); /* a cell of both colours: an odd cycle */
        left &= ~(cv[0] | cv[1]);
        if (both || (wrap[0] && wrap[1]))
            return SBT_CONTRADICTION;
        for (int k = 0; k < 3; k++)
            e[k] = wrap[0]   ? col[0][k]
                   : wrap[1] ? col[1][k]
                             : see[0][k] & see[1][k] & ~(col[0][k] | col[1][k]) & w[4 * d + k];
        for (int k = 0; k < 3; k++)
            el[4 * d + k] |= e[k];
        apps += sbt_any(e);
    }
    return apps;
}

/* xc: X-chains on digit d from each cell s with a strong link (technique_board.h's rule and
 * cap): a breadth-first walk over states "lacks the digit" (a strong link follows: its
 * partner holds it) and "holds it" (a weak link follows: a peer with a strong link lacks it),
 * at most SBT_XC_MAX_LINKS links from "s lacks". Each cell v > s reached as "holds": s or v
 * holds the digit, so the cells seeing both lose it. The walk's levels are band sets, its
 * strong steps taken all at once (sbt_linked_to). @return the pairs (s, v) that removed
 * something. */
static int sbt_xchain(const uint32_t *w, uint32_t *el, int d, int unused)
{
    (void)unused;
    sbv4 st[3];
    int apps = 0;
    const sbv4 lv = sbt_strong_planes(w, d, st, NULL);
    const uint32_t linked[3] = {lv[0], lv[1], lv[2]};
    for (int ks = 0; ks < 3; ks++)
        for (uint32_t sb = linked[ks]; sb; sb &= sb - 1) {
            const int s = 27 * ks + __builtin_ctz(sb);
            uint32_t lacks[3] = {0}, holds[3] = {0}, front[3] = {0}, next[3];
            lacks[ks] = front[ks] = sb & -sb;
            for (int depth = 0; depth < SBT_XC_MAX_LINKS && sbt_any(front); depth++) {
                const int strong = !(depth & 1); /* from "lacks" states */
                if (strong) {
                    const sbv4 n = sbt_linked_to(st, (sbv4){front[0], front[1], front[2], 0});
                    memcpy(next, &n, sizeof next);
                } else {
                    sbt_union(sb_band_peers, front, next);
                }
                uint32_t *seen = strong ? holds : lacks;
                for (int k = 0; k < 3; k++) {
                    front[k] = next[k] & ~seen[k] & (strong ? ~0u : linked[k]);
                    seen[k] |= front[k];
                }
            }
            /* the ends v > s: the later words, and the bits above s in its own */
            holds[ks] &= ~(((sb & -sb) << 1) - 1u);
            for (int k = 0; k < ks; k++)
                holds[k] = 0;
            for (int k = 0; k < 3; k++)
                for (uint32_t vb = holds[k]; vb; vb &= vb - 1)
                    apps += sbt_common(w, el, d, s, 27 * k + __builtin_ctz(vb), -1);
        }
    return apps;
}

/* What a "fast+T" search remembers between stalls (the hook context's, so per search, never
 * global): per spec step, per digit, a plane on which that step's single-digit technique found
 * nothing. Those techniques read only the digit's own plane, so the same plane again gives
 * nothing again and is skipped. A step's slots are laid out as the planes (four words a digit,
 * the fourth 0), so one pass of XORs over the board compares every digit at once. Zeroed,
 * every slot says "nothing on an empty plane", true. */
typedef struct sbt_memo {
    uint32_t plane[SB_SPEC_MAX][SBT_WORDS];
    sbt_links_memo links; /* the strong houses, by plane (ww) */
} sbt_memo;

/* Forgets every plane of m for t's steps (a new search). */
static inline void sbt_memo_clear(sbt_memo *m, const sb_fast_tech *t)
{
    memset(m->plane, 0, (size_t)t->nsteps * sizeof m->plane[0]);
    sbt_links_clear(&m->links);
}

/* A single-digit technique on digit d of planes w (k: the fish size), eliminations into el. */
typedef int (*sbt_digit_fn)(const uint32_t *w, uint32_t *el, int d, int k);

/* The digits whose plane in w differs from memo's (a step's slots; NULL: every digit), as a
 * mask: the XORs and the OR-reduction have no branch, so which digits changed costs no
 * mispredicted jump (a test per digit did, most calls). A digit's four words are read as two
 * 64-bit halves. */
static inline uint32_t sbt_changed(const uint32_t *w, const uint32_t *memo)
{
    if (!memo)
        return 0x1FFu;
    uint64_t a[SB_DIGITS][2], b[SB_DIGITS][2];
    uint32_t todo = 0;
    memcpy(a, w, sizeof a);
    memcpy(b, memo, sizeof b);
    for (int d = 0; d < SB_DIGITS; d++)
        todo |= (uint32_t)(((a[d][0] ^ b[d][0]) | (a[d][1] ^ b[d][1])) != 0) << d;
    return todo;
}

/* Digit d's rows with two or more places in planes w, on a board where every row has a
 * place (a stable board: sbt_digits' idle): per band word, each row field's lowest place
 * taken off by one subtraction (no field is empty, so none borrows from the next), and the
 * fields still holding one counted. */
static inline int sbt_open_rows(const uint32_t *wd)
{
    uint32_t h = 0;
    for (int k = 0; k < 3; k++) {
        const uint32_t y = wd[k] & (wd[k] - 0x40201u);
        h |= ((((y & 0x3FDFEFFu) + 0x3FDFEFFu) | y) & 0x4020100u) >> (8 - k);
    }
    return sbt_pop(h);
}

/* Runs a single-digit technique on every digit whose plane is not remembered in memo (its
 * step's slots; NULL: none), and remembers the planes where it found nothing. idle > 0 (a
 * fish of size k on a stable board, idle = k + 1): a digit with idle or fewer open rows is
 * not searched. On a stable board every line of a digit either holds it placed (one place,
 * the placed cell, its crossing line the same) or has two or more places, so m open rows
 * face m open columns; k base lines of such a digit covered by k lines leave the other
 * m - k <= 1 lines of each family, and an open column outside the covers would have its
 * places in at most one row: no fish fits, none falls short of its covers, nothing is
 * removed (a fish in one family is one of m - k in the other, which needs m - k >= 2).
 * @return applications, or SBT_CONTRADICTION. */
static int sbt_digits(sbt_digit_fn fn, int k, int idle, const uint32_t *w, uint32_t *el,
                      uint32_t *memo)
{
    int apps = 0;
    for (uint32_t todo = sbt_changed(w, memo); todo; todo &= todo - 1) {
        const int d = __builtin_ctz(todo);
        const int r = idle && sbt_open_rows(w + 4 * d) <= idle ? 0 : fn(w, el, d, k);
        if (r < 0)
            return r;
        apps += r;
        if (memo && r == 0 && (el[4 * d] | el[4 * d + 1] | el[4 * d + 2]) == 0)
            memcpy(memo + 4 * d, w + 4 * d, 4 * sizeof *w); /* nearly always: predicted */
    }
    return apps;
}

/* Runs technique t (one of SB_FAST_NATIVE) once on planes w, its eliminations into el (zeroed
 * here; only candidates w holds); cm: the board as cells when the stamp keeps it so (sbt_cell),
 * or NULL; memo: its step's slots (sbt_memo), or NULL; lm: the search's
 * strong houses (ww), or NULL (built here); stable: 1 when w is a board the kernel's
 * propagation left stable (no single left, no empty house: sbt_stall's), which lets the
 * fish leave digits that cannot hold one (sbt_digits' idle); 0 for any planes.
 * @return applications, or SBT_CONTRADICTION. */
static int sbt_run_memo(int t, const uint32_t *w, const uint16_t *cm, uint32_t *el,
                        uint32_t *memo, sbt_links_memo *lm, int stable)
{
    int apps = 0;
    memset(el, 0, SBT_WORDS * sizeof *el);
    switch (t) {
    case SB_TECH_XWING: apps = sbt_digits(sbt_fish, 2, stable ? 3 : 0, w, el, memo); break;
    case SB_TECH_SWORDFISH: apps = sbt_digits(sbt_fish, 3, stable ? 4 : 0, w, el, memo); break;
    case SB_TECH_JELLYFISH: apps = sbt_digits(sbt_fish, 4, stable ? 5 : 0, w, el, memo); break;
    case SB_TECH_SKYSCRAPER: apps = sbt_digits(sbt_skyscraper, 0, 0, w, el, memo); break;
    case SB_TECH_KITE: apps = sbt_digits(sbt_kite, 0, 0, w, el, memo); break;
    case SB_TECH_XY_WING: apps = sbt_wing(w, cm, el, 0); break;
    case SB_TECH_XYZ_WING: apps = sbt_wing(w, cm, el, 1); break;
    case SB_TECH_W_WING: apps = sbt_w_wing(w, el, lm); break;
    case SB_TECH_COLOURING: apps = sbt_digits(sbt_colouring, 0, 0, w, el, memo); break;
    case SB_TECH_XCHAIN: apps = sbt_digits(sbt_xchain, 0, 0, w, el, memo); break;
    case SB_TECH_NAKED_PAIR:
    case SB_TECH_NAKED_TRIPLE:
    case SB_TECH_NAKED_QUAD: apps = sbt_tuples(w, el, t - SB_TECH_NAKED_PAIR + 2, 0); break;
    case SB_TECH_HIDDEN_PAIR:
    case SB_TECH_HIDDEN_TRIPLE:
    case SB_TECH_HIDDEN_QUAD: apps = sbt_tuples(w, el, t - SB_TECH_HIDDEN_PAIR + 2, 1); break;
    default: break;
    }
    /* one mask per word position: no index test per word, so the loop vectorizes */
    static const uint32_t cells[4] = {0x7FFFFFFu, 0x7FFFFFFu, 0x7FFFFFFu, 0};
    for (int i = 0; i < SBT_WORDS; i++)
        el[i] &= w[i] & cells[i % 4];
    return apps;
}

/* sbt_run_memo with no strong houses kept (each call builds what it needs). */
static inline int sbt_run(int t, const uint32_t *w, uint32_t *el, uint32_t *memo)
{
    return sbt_run_memo(t, w, NULL, el, memo, NULL, 0);
}

/* Cells of planes w left with exactly one candidate (band sets). */
static inline void sbt_singles(const uint32_t *w, uint32_t out[3])
{
    uint32_t at[4][3];
    sbt_counts(w, at);
    for (int k = 0; k < 3; k++)
        out[k] = at[0][k] & ~at[1][k];
}

/* Adds one technique's work to t's counters: apps patterns, the candidates el removes from w
 * and the cells it leaves with one candidate. */
static void sbt_count(const sb_fast_tech *t, int tech, int apps, const uint32_t *w,
                      const uint32_t *el)
{
    uint32_t after[SBT_WORDS], s0[3], s1[3];
    uint64_t elim = 0;
    for (int i = 0; i < SBT_WORDS; i++) {
        after[i] = w[i] & ~el[i];
        elim += (uint64_t)sbt_pop(el[i]);
    }
    sbt_singles(w, s0);
    sbt_singles(after, s1);
    sb_technique_counts *c = &t->counts[tech];
    c->applications += (uint64_t)apps;
    c->eliminations += elim;
    for (int k = 0; k < 3; k++)
        c->placements += (uint64_t)sbt_pop(s1[k] & ~s0[k]);
}

/* Runs t's techniques on the kernel's stable board b until none removes anything: the first
 * (in spec order) that does hands its eliminations to the kernel, which propagates again
 * (SBK_PLANES reads b as planes, SBK_ELIM removes planes from b and settles); memo: the
 * search's sbt_memo (a step run whose digits are all remembered still counts as a call: the
 * calls say how often a technique was asked, the same with or without the memo). @return 0 on
 * contradiction, else 1 (b solved, or stable for the kernel and every technique). */
static inline int sbt_stall(const sb_fast_tech *t, sbt_memo *memo, sb_board *b)
{
    while (b->nsolved != SB_CELLS) {
        uint32_t w[SBT_WORDS] __attribute__((aligned(64))), el[SBT_WORDS];
        SBK_PLANES(b, w);
        int i = 0, apps = 0;
        for (; i < t->nsteps; i++) {
            if (t->counts)
                t->counts[t->steps[i]].calls++;
            apps = t->steps[i] >= SB_TECH_COUNT
                       ? sb_fast_plugin_step(t->ext, t->steps[i] - SB_TECH_COUNT, w, el)
                       : sbt_run_memo(t->steps[i], w, SBK_CELL_MAJOR(b), el, memo->plane[i],
                                      &memo->links, 1);
            if (apps < 0)
                return 0;
            uint32_t any = 0;
            for (int j = 0; j < SBT_WORDS; j++)
                any |= el[j];
            if (any)
                break;
        }
        if (i == t->nsteps)
            return 1;
        if (t->counts)
            sbt_count(t, t->steps[i], apps, w, el);
        if (t->check)
            t->check(t->user, t->steps[i], w, el);
        if (!SBK_ELIM(b, el))
            return 0;
    }
    return 1;
}
