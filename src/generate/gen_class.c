/*
 * gen_class.c — generation filtered by difficulty class (`generate --class`): candidates of
 * one index are drawn until `sb_rate` puts one in the class asked for.
 *
 * Candidate 0 of index i is the puzzle sb_generate makes for i (so --class of the class that
 * puzzle has changes nothing); candidate k > 0 is the generator's puzzle for a splitmix64 mix
 * of (i, k). Each is still a function of (seed, i, options) only, so any thread count gives
 * the same puzzles.
 */
#include "sudokubench.h"

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
        sb_rating rt;
        if (cls < 0 || (sb_rate(&out->puzzle, &rt) == SB_OK && (int)rt.cls == cls)) {
            out->attempts = attempts;
            return 1;
        }
    }
    out->attempts = attempts;
    return 0;
}
