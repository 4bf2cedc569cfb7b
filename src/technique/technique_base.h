/*
 * technique_base.h — what every technique of the generic pipelines shares, at the bottom of
 * the technique headers: the result codes, the one-candidate test and the scheduling of
 * eliminations (TQ_EMASK, TQ_ETOUCHED). Included at the top of technique_board.h (the
 * whole-board techniques) and technique.h (the house techniques, sweeps and orders), each of
 * which calls only what is below it: base <- board <- technique.h. Stamped by the same
 * includers, with the same macros, whose contract (technique_hooks.h) it includes first.
 */
#ifndef SB_TECHNIQUE_BASE_H
#define SB_TECHNIQUE_BASE_H

#include <stdint.h>

#include "internal.h"
#include "technique_hooks.h"

/* Result of a technique on one house, or of a whole-board technique's search. */
enum { TQ_CONTRADICTION = -1, TQ_NOTHING = 0, TQ_FOUND = 1 };

/* 1 when m has exactly one bit. */
static inline int tq_single(TQ_MASK m)
{
    return m && !(m & (TQ_MASK)(m - 1));
}

/* Schedules removing digits from cell c, whose candidates are m. @return 1 if any is there. */
static inline int tq_schedule(TQ_CTX *x, int c, TQ_MASK m, TQ_MASK digits)
{
    const TQ_MASK d = m & digits;
    if (!d)
        return 0;
    TQ_EMASK(x)[c] |= d;
    TQ_ETOUCHED(x)[c / 64] |= UINT64_C(1) << (c % 64);
    return 1;
}

/* Schedules removing digits from the cells of house cells hc at the positions in pos. @return 1
 * if any is there. */
static inline int tq_schedule_at(TQ_CTX *x, const TQ_MASK *cand, const TQ_CELL *hc,
                                 uint64_t pos, TQ_MASK digits)
{
    int found = 0;
    for (; pos; pos &= pos - 1) {
        const int c = hc[__builtin_ctzll(pos)];
        found |= tq_schedule(x, c, cand[c], digits);
    }
    return found;
}

#endif /* SB_TECHNIQUE_BASE_H */
