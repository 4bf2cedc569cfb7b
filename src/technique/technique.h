/*
 * technique.h — the generic pipelines' techniques, orders and branching rule, written once and
 * stamped twice: by src/technique/pipeline.c for 9x9 (uint16_t masks, the compile-time tables of
 * tables.inc, so every bound below is a constant there and the 9x9 pipelines cost what a
 * hand-written 9x9 version would) and by src/geometry/gpipeline.c for any geometry (uint64_t
 * masks, tables from the sb_geometry). On the 3x3 geometry both stamps therefore do the same
 * work step for step: same eliminations, counters, branching cells and guesses.
 *
 * Data layout (both stamps):
 *   cand[0 .. ncells)   candidate mask per cell, bit d-1 = digit d; a cell with one candidate
 *                       is "known" to the techniques (seed 000's "single") but is assigned
 *                       (its digit removed from every peer) only when the search takes it
 *   board               cand plus the set of assigned cells and their count (the stamp's
 *                       TQ_BOARD: sb_board on 9x9, one flat run of uint64_t words otherwise)
 *   emask[c]            digits scheduled to leave cell c, not yet applied; etouched has bit c
 *                       set while emask[c] may be non-zero. Both are all zero between two
 *                       technique calls: tq_apply and tq_discard clear what they consume
 *   snap                the list order's snapshot (ncells masks)
 *   partners            per house h, locked candidates' partner houses (those meeting h in
 *                       2..N-1 cells), each as one run of cells: the shared cells, h's other
 *                       cells, the partner's other cells
 *
 * The includer defines the TQ_* macros before including: technique_hooks.h lists them, says
 * what each gives and checks them at compile time (included first, through technique_base.h).
 *
 * The technique headers, each calling only downward: technique_hooks.h (the contract) <-
 * technique_base.h (result codes, scheduling eliminations) <- technique_board.h (the
 * whole-board techniques, tq_board) <- this file (house techniques, applying eliminations,
 * sweeps, orders, branching), which includes the two below it at its top.
 */
#ifndef SB_TECHNIQUE_H
#define SB_TECHNIQUE_H

#include <string.h>

#include "internal.h"
#include "technique_base.h"
#include "technique_board.h"

/* Most cells of a tuple (nt4, ht4). */
enum { TQ_TUPLE_MAX = 4 };

/* Digits of the known cells of house h; *dup gets those known twice. */
static inline TQ_MASK tq_known(TQ_CTX *x, const TQ_MASK *cand, int h, TQ_MASK *dup)
{
    const TQ_CELL *hc = TQ_HOUSE(x, h);
    TQ_MASK known = 0, twice = 0;
    (void)x; /* the 9x9 stamp's tables are constants */
    for (int i = 0; i < TQ_N(x); i++) {
        const TQ_MASK m = cand[hc[i]];
        if (tq_single(m)) {
            twice |= known & m;
            known |= m;
        }
    }
    *dup = twice;
    return known;
}

/* ns: the digits of known cells leave the house's other cells. */
static inline int tq_naked_single(TQ_CTX *x, const TQ_MASK *cand, int h)
{
    const TQ_CELL *hc = TQ_HOUSE(x, h);
    TQ_MASK dup;
    const TQ_MASK known = tq_known(x, cand, h, &dup);
    if (dup)
        return TQ_CONTRADICTION;
    int found = 0;
    for (int i = 0; i < TQ_N(x); i++)
        if (!tq_single(cand[hc[i]]))
            found |= tq_schedule(x, hc[i], cand[hc[i]], known);
    return found;
}

/* hs: a digit that is not known in the house and has one place there fills that cell. */
static inline int tq_hidden_single(TQ_CTX *x, const TQ_MASK *cand, int h)
{
    const TQ_CELL *hc = TQ_HOUSE(x, h);
    TQ_MASK once = 0, twice = 0, dup;
    const TQ_MASK known = tq_known(x, cand, h, &dup);
    for (int i = 0; i < TQ_N(x); i++) {
        twice |= once & cand[hc[i]];
        once |= cand[hc[i]];
    }
    if (once != TQ_ALL(x))
        return TQ_CONTRADICTION; /* a digit with no place left */
    const TQ_MASK hidden = once & (TQ_MASK)~twice & (TQ_MASK)~known;
    int found = 0;
    for (int i = 0; i < TQ_N(x); i++) {
        const TQ_MASK m = cand[hc[i]], mine = m & hidden;
        if (mine & (TQ_MASK)(mine - 1))
            return TQ_CONTRADICTION; /* one cell, two digits that must both go there */
        if (mine)
            found |= tq_schedule(x, hc[i], m, (TQ_MASK)~mine);
    }
    return found;
}

/* OR of the candidates of the unknown cells pc[from .. to). */
static inline TQ_MASK tq_open_union(const TQ_MASK *cand, const TQ_CELL *pc, int from, int to)
{
    TQ_MASK u = 0;
    for (int i = from; i < to; i++)
        if (!tq_single(cand[pc[i]]))
            u |= cand[pc[i]];
    return u;
}

/* lc: for each partner of h (a house meeting it in 2..N-1 cells), a digit open in h whose
 * unknown places in h all lie in the shared cells leaves the partner's other cells: pointing
 * from a box, claiming from a line on a boxed grid. Known cells are the naked singles'
 * business. */
static inline int tq_locked(TQ_CTX *x, const TQ_MASK *cand, int h)
{
    TQ_MASK dup;
    const TQ_MASK open = (TQ_MASK)~tq_known(x, cand, h, &dup) & TQ_ALL(x);
    const TQ_CELL *pc = TQ_LP_BASE(x);
    int found = 0;
    for (int j = TQ_LP_BEGIN(x, h); j < TQ_LP_END(x, h); j++) {
        const TQ_MASK shared = tq_open_union(cand, pc, TQ_LP_AT(x, j, 0), TQ_LP_AT(x, j, 1)),
                      others = tq_open_union(cand, pc, TQ_LP_AT(x, j, 1), TQ_LP_AT(x, j, 2)),
                      only = shared & (TQ_MASK)~others & open;
        for (int i = TQ_LP_AT(x, j, 2); only && i < TQ_LP_AT(x, j, 3); i++) {
            const int c = pc[i];
            if (!tq_single(cand[c]))
                found |= tq_schedule(x, c, cand[c], only);
        }
    }
    return found;
}

/* nt<k> (hidden 0) and ht<k> (hidden 1), duals over the open members of house h: cells with
 * their digits, or open digits with their places. Every k members whose sets cover exactly k
 * elements are a tuple: a naked tuple's digits leave the house's other unknown cells, a hidden
 * tuple's cells keep only its digits. Walks the k-subsets of the m open members only; inlined
 * into each case of tq_run, so k and hidden are constants there. @return TQ_CONTRADICTION
 * when some k members cover fewer than k, else whether anything was scheduled. */
static inline __attribute__((always_inline)) int tq_tuples(TQ_CTX *x, const TQ_MASK *cand, int h,
                                                           const int k, const int hidden)
{
    const TQ_CELL *hc = TQ_HOUSE(x, h);
    TQ_MASK member[TQ_NMAX], set[TQ_NMAX];
    uint64_t open = 0; /* positions of the unknown cells */
    int m = 0;
    if (hidden) {
        TQ_MASK place[TQ_NMAX], dup;
        memset(place, 0, (size_t)TQ_N(x) * sizeof *place);
        for (int i = 0; i < TQ_N(x); i++)
            if (!tq_single(cand[hc[i]]))
                for (TQ_MASK d = cand[hc[i]]; d; d &= (TQ_MASK)(d - 1))
                    place[__builtin_ctzll(d)] |= (TQ_MASK)((TQ_MASK)1 << i);
        for (TQ_MASK o = (TQ_MASK)~tq_known(x, cand, h, &dup) & TQ_ALL(x); o;
             o &= (TQ_MASK)(o - 1)) {
            member[m] = o & (TQ_MASK)-o;
            set[m++] = place[__builtin_ctzll(o)];
        }
    } else {
        for (int i = 0; i < TQ_N(x); i++)
            if (!tq_single(cand[hc[i]])) {
                open |= UINT64_C(1) << i;
                member[m] = (TQ_MASK)((TQ_MASK)1 << i);
                set[m++] = cand[hc[i]];
            }
    }
    if (m <= k)
        return TQ_NOTHING;
    int idx[TQ_TUPLE_MAX], found = 0;
    for (int i = 0; i < k; i++)
        idx[i] = i;
    for (;;) {
        TQ_MASK cover = 0, rest;
        for (int i = 0; i < k; i++)
            cover |= set[idx[i]];
        /* Most k-subsets cover more than k: k cleared low bits say so without a popcount. */
        rest = cover;
        for (int i = 0; i < k; i++)
            rest &= (TQ_MASK)(rest - 1);
        if (!rest) {
            const int size = TQ_POPCOUNT(cover);
            if (size < k)
                return TQ_CONTRADICTION;
            if (size == k) {
                TQ_MASK members = 0;
                for (int i = 0; i < k; i++)
                    members |= member[idx[i]];
                found |= hidden ? tq_schedule_at(x, cand, hc, cover, (TQ_MASK)~members)
                                : tq_schedule_at(x, cand, hc, open & ~(uint64_t)members, cover);
            }
        }
        /* The next k-subset of the m members in lexicographic order. */
        int i = k - 1;
        while (i >= 0 && idx[i] == m - k + i)
            i--;
        if (i < 0)
            return found;
        idx[i]++;
        for (int j = i + 1; j < k; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

/* Runs technique t on house h of cand. @return TQ_CONTRADICTION, _NOTHING or _FOUND. */
static inline int tq_run(TQ_CTX *x, int t, const TQ_MASK *cand, int h)
{
    switch (t) {
    case SB_TECH_NAKED_SINGLE: return tq_naked_single(x, cand, h);
    case SB_TECH_HIDDEN_SINGLE: return tq_hidden_single(x, cand, h);
    case SB_TECH_LOCKED: return tq_locked(x, cand, h);
    case SB_TECH_NAKED_PAIR: return tq_tuples(x, cand, h, 2, 0);
    case SB_TECH_NAKED_TRIPLE: return tq_tuples(x, cand, h, 3, 0);
    case SB_TECH_NAKED_QUAD: return tq_tuples(x, cand, h, 4, 0);
    case SB_TECH_HIDDEN_PAIR: return tq_tuples(x, cand, h, 2, 1);
    case SB_TECH_HIDDEN_TRIPLE: return tq_tuples(x, cand, h, 3, 1);
    default: return tq_tuples(x, cand, h, 4, 1);
    }
}

/* Applies and clears the scheduled eliminations on cand, crediting tc.
 * @return 0 when a cell is left empty, else 1; *changed set when anything was removed. */
static int tq_apply(TQ_CTX *x, TQ_MASK *cand, sb_technique_counts *tc, int *changed)
{
    TQ_MASK *emask = TQ_EMASK(x);
    uint64_t *touched = TQ_ETOUCHED(x);
    int ok = 1;
    for (size_t w = 0; w < (size_t)TQ_EWORDS(x); w++) {
        for (uint64_t bits = touched[w]; bits; bits &= bits - 1) {
            const int c = (int)(64 * w) + __builtin_ctzll(bits);
            const TQ_MASK d = cand[c] & emask[c];
            emask[c] = 0;
            if (!d)
                continue;
            cand[c] ^= d;
            *changed = 1;
            tc->eliminations += (uint64_t)TQ_POPCOUNT(d);
            if (!cand[c])
                ok = 0;
            else if (tq_single(cand[c]))
                tc->placements++;
        }
        touched[w] = 0;
    }
    return ok;
}

/* Drops the scheduled eliminations (a technique found a contradiction). */
static void tq_discard(TQ_CTX *x)
{
    for (size_t w = 0; w < (size_t)TQ_EWORDS(x); w++) {
        for (uint64_t bits = TQ_ETOUCHED(x)[w]; bits; bits &= bits - 1)
            TQ_EMASK(x)[64 * w + (size_t)__builtin_ctzll(bits)] = 0;
        TQ_ETOUCHED(x)[w] = 0;
    }
}

/* Technique plug-in k on cand: the board handed over as masks, its eliminations scheduled.
 * @return the patterns it found, or -1 on contradiction (or a breach: TQ_EXT's fault). */
static int tq_plugin(TQ_CTX *x, int k, const TQ_MASK *cand)
{
    sb_tech_ext *e = TQ_EXT(x);
    for (int c = 0; c < TQ_NCELLS(x); c++)
        e->cand[c] = cand[c];
    const int r = sb_tech_ext_step(e, k);
    for (int c = 0; r > 0 && c < TQ_NCELLS(x); c++)
        tq_schedule(x, c, cand[c], (TQ_MASK)e->elim[c]);
    return r;
}

/* A whole-board technique's sweep: it reads cand once and its eliminations land together (so
 * it is one snapshot in every order). Kept out of line: the house sweep below stays as small
 * as it was, and the pipelines without these techniques cost what they did. @return 0 on
 * contradiction. */
static __attribute__((noinline)) int tq_board_sweep(TQ_CTX *x, TQ_MASK *cand, int t,
                                                    int *changed)
{
    sb_technique_counts *tc = &TQ_COUNTS(x)[t];
    const int r = t >= SB_TECH_COUNT ? tq_plugin(x, t - SB_TECH_COUNT, cand) : tq_board(x, t, cand);
    if (r < 0) {
        tq_discard(x);
        return 0;
    }
    tc->applications += (uint64_t)r;
    return tq_apply(x, cand, tc, changed);
}

/* Technique t over every house, a run of disjoint houses at a time: in place (each house
 * sees the previous ones) or, for the list order, from one snapshot per run (its
 * eliminations land together). @return 0 on contradiction. */
static int tq_sweep(TQ_CTX *x, TQ_MASK *cand, int t, int snapshot, int *changed)
{
    sb_technique_counts *tc = &TQ_COUNTS(x)[t];
    tc->calls++;
    if (t > SB_TECH_HIDDEN_QUAD)
        return tq_board_sweep(x, cand, t, changed);
    for (int h0 = 0; h0 < TQ_NHOUSES(x); h0 = TQ_GROUP_END(x, h0)) {
        const TQ_MASK *src = cand;
        if (snapshot) {
            memcpy(TQ_SNAP(x), cand, (size_t)TQ_NCELLS(x) * sizeof *cand);
            src = TQ_SNAP(x);
        }
        for (int h = h0; h < TQ_GROUP_END(x, h0); h++) {
            const int r = tq_run(x, t, src, h);
            if (r == TQ_CONTRADICTION) {
                tq_discard(x);
                return 0;
            }
            tc->applications += (uint64_t)r;
            if (!snapshot && r == TQ_FOUND && !tq_apply(x, cand, tc, changed))
                return 0;
        }
        if (snapshot && !tq_apply(x, cand, tc, changed))
            return 0;
    }
    return 1;
}

/* Technique t's sweep, after a look at the stop flag when poll (a constant in each instance
 * of tq_plan). @return 0 on contradiction or a stop. */
static inline __attribute__((always_inline)) int tq_sweep_at(TQ_CTX *x, TQ_MASK *cand, int t,
                                                             int snapshot, int *changed,
                                                             const int poll)
{
    return !(poll && TQ_HALT(x)) && tq_sweep(x, cand, t, snapshot, changed);
}

/* Runs plan's order to its fixpoint on cand, polling TQ_HALT before each sweep when poll.
 * @return 0 on contradiction (or a stop), else 1. */
static inline __attribute__((always_inline)) int tq_plan(TQ_CTX *x, const sb_plan *pl,
                                                         TQ_MASK *cand, const int poll)
{
    if (pl->order == SB_ORDER_RESTART) {
        for (int i = 0; i < pl->nsteps;) {
            int changed = 0;
            if (!tq_sweep_at(x, cand, pl->steps[i], 0, &changed, poll))
                return 0;
            i = changed ? 0 : i + 1;
        }
        return 1;
    }
    const int snapshot = pl->order == SB_ORDER_LIST;
    for (;;) {
        int changed = 0;
        for (int i = 0; i < pl->nsteps; i++)
            if (!tq_sweep_at(x, cand, pl->steps[i], snapshot, &changed, poll))
                return 0;
        if (!changed)
            return 1;
    }
}

/* Assigns digit d to cell c of board b: marks it and removes d from its peers (the
 * consistency every search step keeps, whatever the pipeline). @return 0 when a peer is left
 * empty. */
static inline int tq_assign(TQ_CTX *x, TQ_BOARD *b, int c, TQ_MASK d)
{
    TQ_MASK *cand = TQ_CAND(b);
    const TQ_CELL *peer = TQ_PEERS(x, c);
    int ok = 1;
    (void)x;
    cand[c] = d;
    TQ_MARK(x, b, c);
    for (int i = 0; i < TQ_NPEERS(x, c); i++) {
        cand[peer[i]] &= (TQ_MASK)~d;
        if (!cand[peer[i]])
            ok = 0;
    }
    return ok;
}

/* Where a propagated root board stands. @return 2 when a cell is open (needs search), 1 when
 * every cell is known and the known digits agree in every house, 0 when they clash. */
static inline int tq_complete(TQ_CTX *x, const TQ_MASK *cand)
{
    for (int c = 0; c < TQ_NCELLS(x); c++)
        if (!tq_single(cand[c]))
            return 2;
    for (int h = 0; h < TQ_NHOUSES(x); h++) {
        TQ_MASK dup;
        if (tq_known(x, cand, h, &dup) != TQ_ALL(x) || dup)
            return 0;
    }
    return 1;
}

/* Scores cell c (candidates m) for branching as the fast kernel does (kernel/branch.h): its
 * peers with two or more candidates sharing a digit with it, bivalue ones counted three times. */
static inline int tq_branch_score(TQ_CTX *x, const TQ_MASK *cand, int c, TQ_MASK m)
{
    const TQ_CELL *peer = TQ_PEERS(x, c);
    int score = 0;
    (void)x;
    for (int i = 0; i < TQ_NPEERS(x, c); i++) {
        const TQ_MASK q = cand[peer[i]];
        if ((q & m) && (q & (TQ_MASK)(q - 1)))
            score += 1 + 2 * (TQ_POPCOUNT(q) == 2);
    }
    return score;
}

/* The branching cell, the fast kernel's rule, so every pipeline searches alike: an unassigned
 * cell with one candidate first (taken without a guess), else among the unassigned cells with
 * the fewest candidates the best tq_branch_score, the first in cell order on a tie. */
static inline int tq_choose(TQ_CTX *x, const TQ_BOARD *b)
{
    const TQ_MASK *cand = TQ_CAND(b);
    int best_n = TQ_N(x) + 1;
    for (int c = 0; c < TQ_NCELLS(x); c++)
        if (!TQ_ASSIGNED(x, b, c)) {
            const int n = TQ_POPCOUNT(cand[c]);
            if (n == 1)
                return c;
            best_n = n < best_n ? n : best_n;
        }
    int best = -1, best_score = -1;
    for (int c = 0; c < TQ_NCELLS(x); c++)
        if (!TQ_ASSIGNED(x, b, c) && TQ_POPCOUNT(cand[c]) == best_n) {
            const int score = tq_branch_score(x, cand, c, cand[c]);
            if (score > best_score) {
                best_score = score;
                best = c;
            }
        }
    return best;
}

#endif /* SB_TECHNIQUE_H */
