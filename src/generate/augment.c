/*
 * augment.c — the validity-preserving transforms behind `sudokubench augment`, and the
 * reproducible PRNG they and the generator draw from.
 *
 * A transform is stored as a precomputed cell permutation plus a 10-entry digit table, so
 * applying one is a single gather over 81 bytes: the bulk writer reaches millions of
 * puzzles per second. The transform group is enumerated by a mixed-radix index
 * (transpose, column orders, row orders, digit relabelling), which makes "uniformly random
 * transform" one exactly uniform draw below SB_TRANSFORMS.
 */
#include <string.h>

#include "internal.h"
#include "sudokubench.h"

enum {
    FACT9 = 362880, /* digit relabellings: 9! */
    PERM3 = 6,      /* orders of three bands, rows in a band, stacks or columns in a stack */
    LINE_ORDERS = PERM3 * PERM3 * PERM3 * PERM3 /* band order x three row-in-band orders */
};

/* The six orders of three items, indexed 0..5 (index 0 is the identity): byte i of
 * order k is the item at position i. Packed so a band's three lines are one add. */
static const uint32_t perm3[PERM3] = {0x020100, 0x010200, 0x020001, 0x000201, 0x010002, 0x000102};

void sb_rng_seed(sb_rng *rng, uint64_t seed, uint64_t stream)
{
    if (!rng)
        return;
    /* sb_rng_mix is a bijection, so for one seed distinct streams start from distinct states;
     * mixing twice keeps neighbouring seeds and streams from giving related sequences. */
    rng->state = sb_rng_mix(sb_rng_mix(seed) + stream * SB_RNG_GAMMA);
}

uint64_t sb_rng_next(sb_rng *rng)
{
    return rng ? sb_rng_draw(rng) : 0;
}

uint64_t sb_rng_below(sb_rng *rng, uint64_t n)
{
    return n && rng ? sb_rng_draw_below(rng, n) : 0;
}

void sb_transform_identity(sb_transform *t)
{
    sb_transform_from_index(t, 0);
}

/* A line order (rows or columns) as nine bytes: line i of the output is input line
 * byte i, bytes 0..7 in lo (least significant first) and byte 8 in hi. Kept in registers:
 * the transform is rebuilt for every output puzzle, so its bytes never go through memory
 * until the final stores. */
typedef struct lines9 {
    uint64_t lo; /* bytes 0..7 */
    unsigned hi; /* byte 8 */
} lines9;

/* Decodes a line order 0..LINE_ORDERS-1: the lowest radix-6 digit orders the bands, the
 * next three the lines inside output bands 0, 1, 2. */
static lines9 decode_lines(uint64_t code)
{
    const uint32_t band = perm3[code % PERM3];
    uint32_t w[3];
    code /= PERM3;
    for (int b = 0; b < 3; b++, code /= PERM3)
        w[b] = 3 * (band >> (8 * b) & 0xFF) * 0x010101u + perm3[code % PERM3];
    return (lines9){w[0] | (uint64_t)w[1] << 24 | (uint64_t)(w[2] & 0xFFFF) << 48, w[2] >> 16};
}

int sb_transform_from_index(sb_transform *t, uint64_t index)
{
    if (!t || index >= SB_TRANSFORMS)
        return SB_ERR_ARG;
    const int transpose = (int)(index & 1);
    index >>= 1;
    const lines9 cols = decode_lines(index % LINE_ORDERS);
    index /= LINE_ORDERS;
    const lines9 rows = decode_lines(index % LINE_ORDERS);
    index /= LINE_ORDERS;
    /* The remaining 0..9!-1 picks the relabelling as the choices of a Fisher-Yates shuffle
     * (position i swaps with i - (code mod i+1)), so code 0 is the identity. Unrolled, every
     * divisor is a constant and compiles to a multiply. */
    uint32_t code = (uint32_t)index;
    uint8_t digit[SB_DIGITS] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
#pragma GCC unroll 9
    for (uint32_t i = SB_DIGITS - 1; i > 0; i--) {
        const uint32_t j = i - code % (i + 1);
        code /= i + 1;
        const uint8_t swap = digit[i];
        digit[i] = digit[j];
        digit[j] = swap;
    }
    t->digit[0] = 0;
    memcpy(t->digit + 1, digit, SB_DIGITS);
    /* Output cell (r,c) reads input (rows[r], cols[c]), or (rows[c], cols[r]) transposed:
     * either way cell[9r+c] = across[r] + down[c], and a whole output row is one 64-bit add
     * of across[r] to every byte of down (no byte exceeds 80, so no carries). */
    const lines9 rows9 = {rows.lo * SB_DIGITS, rows.hi * SB_DIGITS};
    const lines9 across = transpose ? cols : rows9, down = transpose ? rows9 : cols;
    for (int r = 0; r < SB_DIGITS; r++) {
        const unsigned a = r < 8 ? (unsigned)(across.lo >> (8 * r)) & 0xFF : across.hi;
        const uint64_t row = a * UINT64_C(0x0101010101010101) + down.lo;
        for (int c = 0; c < 8; c++)
            t->cell[SB_DIGITS * r + c] = (uint8_t)(row >> (8 * c));
        t->cell[SB_DIGITS * r + 8] = (uint8_t)(a + down.hi);
    }
    return SB_OK;
}

void sb_transform_random(sb_transform *t, sb_rng *rng)
{
    if (t && rng)
        sb_transform_from_index(t, sb_rng_below(rng, SB_TRANSFORMS));
}

/* @return 1 when t and in can be used: every cell index of t below 81, its digit map keeping
 * 0 and sending 1..9 into 1..9, and every cell of in 0..9. Branch-free reductions: one call
 * is a few vector compares. */
static int transform_usable(const sb_transform *t, const sb_grid *in)
{
    uint8_t bad = (uint8_t)(t->digit[0] != 0);
    for (int d = 1; d <= SB_DIGITS; d++)
        bad |= (uint8_t)((uint8_t)(t->digit[d] - 1) > 8);
    for (int i = 0; i < SB_CELLS; i++)
        bad |= (uint8_t)((t->cell[i] >= SB_CELLS) | (in->cell[i] > 9));
    return !bad;
}

void sb_transform_apply(const sb_transform *t, const sb_grid *in, sb_grid *out)
{
    if (t && in && out && (const void *)in != (const void *)out && transform_usable(t, in))
        sb_transform_map(t, in, out);
}

void sb_transform_format(const sb_transform *t, const sb_grid *in, char out[SB_CELLS])
{
    if (!t || !in || !out || !transform_usable(t, in))
        return;
    char text[SB_DIGITS + 1]; /* the character each input value becomes */
    text[0] = '.';
    for (int d = 1; d <= SB_DIGITS; d++)
        text[d] = (char)('0' + t->digit[d]);
    for (int i = 0; i < SB_CELLS; i++)
        out[i] = text[in->cell[t->cell[i]]];
}
