/*
 * gen_class.c — generation filtered by difficulty class (`generate --class`): candidates of
 * one index are drawn until `sb_rate` puts one in the class asked for.
 *
 * Candidate 0 of index i is the puzzle sb_generate makes for i (so --class of the class that
 * puzzle has changes nothing); candidate k > 0 is the generator's puzzle for a splitmix64 mix
 * of (i, k). Each is still a function of (seed, i, options) only, so any thread count gives
 * the same puzzles.
 *
 * A candidate's class is sb_rate's. sb_singles_class finds the first two classes, which hold
 * nine in ten of the generator's puzzles, at a fraction of a rating's cost.
 */
#include "internal.h"

/* Cells as a 128-bit set: bit c % 64 of word c / 64, as sb_peer_tables' masks. */
typedef struct cellset {
    uint64_t w[2];
} cellset;

/* Places digit d (0-based) in every cell of at: takes d from their peers' candidates and
 * marks them solved. The cells' other candidates go once a round ends (drop_solved). */
static void place_all(cellset plane[SB_DIGITS], cellset *solved, const cellset *at, int d,
                      const sb_peer_tables *t)
{
    for (int k = 0; k < 2; k++) {
        solved->w[k] |= at->w[k];
        for (uint64_t m = at->w[k]; m; m &= m - 1) {
            const int c = 64 * k + __builtin_ctzll(m);
            plane[d].w[0] &= ~t->peer_mask[c][0];
            plane[d].w[1] &= ~t->peer_mask[c][1];
        }
    }
}

static void drop_solved(cellset plane[SB_DIGITS], const cellset *solved)
{
    for (int d = 0; d < SB_DIGITS; d++) {
        plane[d].w[0] &= ~solved->w[0];
        plane[d].w[1] &= ~solved->w[1];
    }
}

int sb_singles_class(const sb_grid *puzzle)
{
    const sb_peer_tables *t = sb_tables();
    const uint64_t all1 = (1ull << (SB_CELLS - 64)) - 1;
    /* plane[d]: the unsolved cells that can still take digit d + 1 */
    cellset plane[SB_DIGITS], solved = {{0, 0}}, given[SB_DIGITS] = {{{0, 0}}};
    for (int c = 0; c < SB_CELLS; c++)
        if (puzzle->cell[c] >= 1 && puzzle->cell[c] <= 9)
            given[puzzle->cell[c] - 1].w[c / 64] |= 1ull << (c % 64);
    for (int d = 0; d < SB_DIGITS; d++)
        plane[d] = (cellset){{~0ull, all1}};
    for (int d = 0; d < SB_DIGITS; d++)
        place_all(plane, &solved, &given[d], d, t);
    drop_solved(plane, &solved);
    int cls = SB_CLASS_SINGLES;
    for (;;) {
        /* naked singles: the unsolved cells in exactly one plane, all placed at once */
        cellset once = {{0, 0}}, twice = {{0, 0}};
        for (int d = 0; d < SB_DIGITS; d++)
            for (int k = 0; k < 2; k++) {
                twice.w[k] |= once.w[k] & plane[d].w[k];
                once.w[k] |= plane[d].w[k];
            }
        const cellset lone = {{once.w[0] & ~twice.w[0], once.w[1] & ~twice.w[1]}};
        if (lone.w[0] | lone.w[1]) {
            for (int d = 0; d < SB_DIGITS; d++) {
                const cellset at = {{lone.w[0] & plane[d].w[0], lone.w[1] & plane[d].w[1]}};
                place_all(plane, &solved, &at, d, t);
            }
            drop_solved(plane, &solved);
            continue;
        }
        if (solved.w[0] == ~0ull && solved.w[1] == all1)
            return cls;
        /* hidden singles: a digit with one place left in a house goes there */
        int found = 0;
        for (int d = 0; d < SB_DIGITS; d++) {
            cellset at = {{0, 0}};
            for (int h = 0; h < SB_HOUSES; h++) {
                const uint64_t x0 = plane[d].w[0] & t->house_mask[h][0];
                const uint64_t x1 = plane[d].w[1] & t->house_mask[h][1];
                /* one cell: one word holds a single bit, the other none */
                if ((x0 | x1) && !(x0 && x1) && !((x0 & (x0 - 1)) | (x1 & (x1 - 1)))) {
                    at.w[0] |= x0;
                    at.w[1] |= x1;
                }
            }
            if (at.w[0] | at.w[1]) {
                place_all(plane, &solved, &at, d, t);
                found = 1;
            }
        }
        if (!found)
            return SB_CLASS_LOCKED;
        drop_solved(plane, &solved);
        cls = SB_CLASS_HIDDEN;
    }
}

int sb_generate_class(sb_generator *g, uint64_t index, int cls, uint64_t tries,
                      sb_generated *out)
{
    if (!g || !out || cls < -1 || cls >= SB_CLASS_COUNT)
        return SB_ERR_ARG;
    uint64_t attempts = 0;
    if (cls < 0)
        tries = 1;
    for (uint64_t k = 0; k < tries; k++) {
        uint64_t sub = index;
        if (k) {
            sb_rng mix;
            sb_rng_seed(&mix, index, k);
            sub = sb_rng_next(&mix);
        }
        const int st = sb_generate(g, sub, out);
        if (st < 0)
            return st;
        attempts += out->attempts;
        if (st != 1)
            break; /* max_clues or the guess range not met in max_attempts: give up here */
        /* The singles test settles the two classes most candidates are in without the
         * rating engine; only a candidate of locked or harder is rated, and only when the
         * class asked for is one of those. */
        int fits = cls < 0;
        if (!fits) {
            const int low = sb_singles_class(&out->puzzle);
            sb_rating rt;
            fits = low < SB_CLASS_LOCKED ? low == cls
                                         : cls >= SB_CLASS_LOCKED &&
                                               sb_rate(&out->puzzle, &rt) == SB_OK &&
                                               (int)rt.cls == cls;
        }
        if (fits) {
            out->attempts = attempts;
            return 1;
        }
    }
    out->attempts = attempts;
    return 0;
}
