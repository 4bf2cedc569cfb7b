/*
 * technique_board.h — the whole-board techniques of technique.h (fish, single-digit patterns,
 * chains, wings), included at its top and so stamped by both pipelines like the house
 * techniques. Built on technique_base.h alone (tq_schedule, tq_single); technique.h's sweep
 * calls tq_board.
 *
 * A whole-board technique reads the whole candidate board once and schedules its eliminations
 * (tq_schedule); tq_sweep then applies them together, so in every order one sweep of it is
 * one snapshot and one landing. Every rule here holds in EACH solution of the board (no
 * uniqueness argument), so they stay sound on boards with 0 or several solutions.
 *
 * Its includer macros (TQ_LINES, TQ_LINE0, TQ_LINE_OF, TQ_WORK) are technique_hooks.h's,
 * with the others.
 */
#ifndef SB_TECHNIQUE_BOARD_H
#define SB_TECHNIQUE_BOARD_H

#include <stdint.h>
#include <string.h>

#include "technique_base.h"

/* Most links of an X-chain (xc): 8 strong links and the 7 weak links between them. */
enum { TQ_XC_MAX_LINKS = 15 };

/* Scratch of a whole-board technique: ints for lists and searches, two bitsets of cells
 * that are all zero between calls (tq_mark_peers / tq_unmark_peers). */
typedef struct tq_work {
    int *iw;
    uint64_t *seen;
} tq_work;

/* Sets (on 1) or clears (on 0) the bits of c's peers in bitset slot of w. */
static inline void tq_peer_bits(TQ_CTX *x, tq_work *w, int slot, int c, int on)
{
    uint64_t *bits = w->seen + (size_t)slot * (size_t)TQ_EWORDS(x);
    const TQ_CELL *peer = TQ_PEERS(x, c);
    (void)x;
    for (int i = 0; i < TQ_NPEERS(x, c); i++) {
        const uint64_t b = UINT64_C(1) << (peer[i] % 64);
        bits[peer[i] / 64] = on ? bits[peer[i] / 64] | b : bits[peer[i] / 64] & ~b;
    }
}

/* 1 when cell c's bit is set in bitset slot of w. */
static inline int tq_in(TQ_CTX *x, const tq_work *w, int slot, int c)
{
    (void)x;
    return (int)(w->seen[(size_t)slot * (size_t)TQ_EWORDS(x) + (size_t)c / 64] >> (c % 64) & 1);
}

/* 1 when cells a and b see each other (share a house; a cell does not see itself). */
static inline int tq_sees(TQ_CTX *x, const TQ_CELL *peer_a, int na, int b)
{
    (void)x;
    for (int i = 0; i < na; i++)
        if (peer_a[i] == b)
            return 1;
    return 0;
}

/* tq_common's scan, with the peers of b already in bitset slot 0 of w and those of c3 (when
 * c3 >= 0) in slot 1: a caller that pairs one cell with many marks it once. */
static int tq_common_marked(TQ_CTX *x, tq_work *w, const TQ_MASK *cand, int a, int b, int c3,
                            TQ_MASK d)
{
    const TQ_CELL *peer = TQ_PEERS(x, a);
    int found = 0;
    for (int i = 0; i < TQ_NPEERS(x, a); i++) {
        const int c = peer[i];
        if (c != b && c != c3 && tq_in(x, w, 0, c) && (c3 < 0 || tq_in(x, w, 1, c)))
            found |= tq_schedule(x, c, cand[c], d);
    }
    return found;
}

/* Schedules digits d out of every cell that sees a, b and (when c3 >= 0) c3, other than them:
 * whichever of them holds d, such a cell cannot. @return 1 if anything was scheduled. */
static int tq_common(TQ_CTX *x, tq_work *w, const TQ_MASK *cand, int a, int b, int c3,
                     TQ_MASK d)
{
    tq_peer_bits(x, w, 0, b, 1);
    if (c3 >= 0)
        tq_peer_bits(x, w, 1, c3, 1);
    const int found = tq_common_marked(x, w, cand, a, b, c3, d);
    tq_peer_bits(x, w, 0, b, 0);
    if (c3 >= 0)
        tq_peer_bits(x, w, 1, c3, 0);
    return found;
}

/* The places of digit d in house h: *first and *second get the first two cells. @return how
 * many cells of h hold d, up to 3 (callers only ask whether it is exactly two, so the scan
 * stops at a third place). */
static inline int tq_places(TQ_CTX *x, const TQ_MASK *cand, int h, TQ_MASK d, int *first,
                            int *second)
{
    const TQ_CELL *hc = TQ_HOUSE(x, h);
    int n = 0;
    (void)x;
    for (int i = 0; i < TQ_N(x) && n < 3; i++)
        if (cand[hc[i]] & d) {
            if (n == 0)
                *first = hc[i];
            else if (n == 1)
                *second = hc[i];
            n++;
        }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Fish (xw, sf, jf)                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Extends a fish on digit d from base family f: base lines pos[from ..] are added to the
 * chosen ones (their family-f indices in base, their cover indices in cover) until k are
 * chosen. @return applications, or TQ_CONTRADICTION when k base lines fit in fewer covers. */
static int tq_fish_rec(TQ_CTX *x, const TQ_MASK *cand, TQ_MASK d, int f, int k,
                       const uint64_t *pos, const int *line, int m, int from, int depth,
                       uint64_t base, uint64_t cover)
{
    if (depth == k) {
        const int nc = __builtin_popcountll(cover);
        if (nc < k)
            return TQ_CONTRADICTION;
        if (nc > k)
            return 0;
        int found = 0;
        for (uint64_t cv = cover; cv; cv &= cv - 1) {
            const TQ_CELL *hc = TQ_HOUSE(x, TQ_LINE0(x, 1 - f) + __builtin_ctzll(cv));
            for (int i = 0; i < TQ_N(x); i++)
                if (!(base >> TQ_LINE_OF(x, f, hc[i]) & 1))
                    found |= tq_schedule(x, hc[i], cand[hc[i]], d);
        }
        return found;
    }
    int apps = 0;
    for (int i = from; i <= m - (k - depth); i++) {
        const uint64_t cv = cover | pos[i];
        if (__builtin_popcountll(cv) > k)
            continue;
        const int r = tq_fish_rec(x, cand, d, f, k, pos, line, m, i + 1, depth + 1,
                                  base | UINT64_C(1) << line[i], cv);
        if (r < 0)
            return r;
        apps += r;
    }
    return apps;
}

/* Fish of size k: for a digit, k lines of one family whose places (2..k each) lie in k lines
 * of the other family. Each cover line holds the digit once and the k base lines need k
 * distinct cells of it, all inside the covers, so the covers' other cells lose it.
 * @return applications, or TQ_CONTRADICTION. */
static int tq_fish(TQ_CTX *x, tq_work *w, const TQ_MASK *cand, int k)
{
    uint64_t pos[TQ_NMAX];
    int *line = w->iw, apps = 0;
    if (!TQ_LINES(x))
        return 0;
    for (int dg = 0; dg < TQ_N(x); dg++) {
        const TQ_MASK d = (TQ_MASK)((TQ_MASK)1 << dg);
        for (int f = 0; f < 2; f++) {
            int m = 0;
            for (int l = 0; l < TQ_N(x); l++) {
                const TQ_CELL *hc = TQ_HOUSE(x, TQ_LINE0(x, f) + l);
                uint64_t p = 0;
                for (int i = 0; i < TQ_N(x); i++)
                    if (cand[hc[i]] & d)
                        p |= UINT64_C(1) << TQ_LINE_OF(x, 1 - f, hc[i]);
                const int np = __builtin_popcountll(p);
                if (np >= 2 && np <= k) {
                    pos[m] = p;
                    line[m++] = l;
                }
            }
            const int r = m >= k ? tq_fish_rec(x, cand, d, f, k, pos, line, m, 0, 0, 0, 0) : 0;
            if (r < 0)
                return r;
            apps += r;
        }
    }
    return apps;
}

/* ------------------------------------------------------------------------------------------ */
/* Single-digit patterns (sky, kite)                                                          */
/* ------------------------------------------------------------------------------------------ */

/* The strong links of digit d in the lines of family f: lines holding d in exactly two cells,
 * their cells into ends[2i], ends[2i+1]. @return how many. */
static int tq_line_links(TQ_CTX *x, const TQ_MASK *cand, TQ_MASK d, int f, int *ends)
{
    int n = 0;
    for (int l = 0; l < TQ_N(x); l++) {
        int a = -1, b = -1;
        if (tq_places(x, cand, TQ_LINE0(x, f) + l, d, &a, &b) == 2) {
            ends[2 * n] = a;
            ends[2 * n + 1] = b;
            n++;
        }
    }
    return n;
}

/* sky: two lines of one family each holding a digit in two cells, one end of each in the same
 * crossing line, the other ends in different ones. The joined ends cannot both hold it, so one
 * of the free ends does: cells seeing both free ends lose it. @return applications. */
static int tq_skyscraper(TQ_CTX *x, tq_work *w, const TQ_MASK *cand)
{
    int apps = 0, *ends = w->iw;
    if (!TQ_LINES(x))
        return 0;
    for (int dg = 0; dg < TQ_N(x); dg++) {
        const TQ_MASK d = (TQ_MASK)((TQ_MASK)1 << dg);
        for (int f = 0; f < 2; f++) {
            const int n = tq_line_links(x, cand, d, f, ends);
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    for (int e = 0; e < 4; e++) { /* which end of each is joined */
                        const int a = ends[2 * i + (e & 1)], b = ends[2 * j + (e >> 1)],
                                  fa = ends[2 * i + 1 - (e & 1)], fb = ends[2 * j + 1 - (e >> 1)];
                        if (TQ_LINE_OF(x, 1 - f, a) == TQ_LINE_OF(x, 1 - f, b) &&
                            TQ_LINE_OF(x, 1 - f, fa) != TQ_LINE_OF(x, 1 - f, fb))
                            apps += tq_common(x, w, cand, fa, fb, -1, d);
                    }
        }
    }
    return apps;
}

/* kite: a digit in two cells of a row and in two cells of a column, one end of each in the
 * same box (they see each other but share neither line), all four cells distinct. The joined
 * ends cannot both hold it, so one of the free ends does: cells seeing both lose it.
 * @return applications. */
static int tq_kite(TQ_CTX *x, tq_work *w, const TQ_MASK *cand)
{
    int apps = 0, *rows = w->iw, *cols = w->iw + 2 * TQ_N(x);
    if (!TQ_LINES(x))
        return 0;
    for (int dg = 0; dg < TQ_N(x); dg++) {
        const TQ_MASK d = (TQ_MASK)((TQ_MASK)1 << dg);
        const int nr = tq_line_links(x, cand, d, 0, rows), nc = tq_line_links(x, cand, d, 1, cols);
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < nc; j++)
                for (int e = 0; e < 4; e++) {
                    const int a = rows[2 * i + (e & 1)], b = cols[2 * j + (e >> 1)],
                              fa = rows[2 * i + 1 - (e & 1)], fb = cols[2 * j + 1 - (e >> 1)];
                    if (a == b || a == fb || fa == b || fa == fb ||
                        TQ_LINE_OF(x, 0, a) == TQ_LINE_OF(x, 0, b) ||
                        TQ_LINE_OF(x, 1, a) == TQ_LINE_OF(x, 1, b) ||
                        !tq_sees(x, TQ_PEERS(x, a), TQ_NPEERS(x, a), b))
                        continue;
                    apps += tq_common(x, w, cand, fa, fb, -1, d);
                }
    }
    return apps;
}

/* ------------------------------------------------------------------------------------------ */
/* Wings (xy, xyz, ww)                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* xy (three 0) and xyz (three 1): a pivot with digits {x,y} (xyz: {x,y,z}) seeing two
 * two-digit pincers {x,z} and {y,z}. Whatever the pivot holds, a pincer (or, xyz, the pivot)
 * holds z, so the cells seeing both pincers (xyz: and the pivot) lose z.
 * @return applications. */
static int tq_wing(TQ_CTX *x, tq_work *w, const TQ_MASK *cand, const int three)
{
    int apps = 0, *pin = w->iw;
    for (int p = 0; p < TQ_NCELLS(x); p++) {
        const TQ_MASK pm = cand[p];
        if (TQ_POPCOUNT(pm) != 2 + three)
            continue;
        const TQ_CELL *peer = TQ_PEERS(x, p);
        int n = 0;
        for (int i = 0; i < TQ_NPEERS(x, p); i++) {
            const TQ_MASK m = cand[peer[i]];
            if (TQ_POPCOUNT(m) == 2 && (three ? (m & pm) == m : tq_single(m & pm)))
                pin[n++] = peer[i];
        }
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                const TQ_MASK a = cand[pin[i]], b = cand[pin[j]], z = a & b;
                if (!tq_single(z) || (three ? (a | b) != pm : (z & pm) || ((a | b) & pm) != pm))
                    continue;
                apps += tq_common(x, w, cand, pin[i], pin[j], three ? p : -1, z);
            }
    }
    return apps;
}

/* ww: two cells holding the same two digits {x,y}, and a house where x has exactly two places,
 * one seeing each cell (neither place being one of them). If neither cell held y both would
 * hold x and the house would have no place for x, so cells seeing both lose y.
 * @return applications. */
static int tq_w_wing(TQ_CTX *x, tq_work *w, const TQ_MASK *cand)
{
    int apps = 0, *bi = w->iw, nb = 0;
    for (int c = 0; c < TQ_NCELLS(x); c++)
        if (TQ_POPCOUNT(cand[c]) == 2)
            bi[nb++] = c;
    for (int i = 0; i < nb; i++)
        for (int j = i + 1; j < nb; j++) {
            const int a = bi[i], b = bi[j];
            const TQ_MASK m = cand[a], lo = m & (TQ_MASK)-m, digit[2] = {lo, m ^ lo};
            if (cand[b] != m)
                continue;
            int linked[2] = {0, 0}; /* per digit of the pair: a strong link joins a and b */
            tq_peer_bits(x, w, 0, a, 1);
            tq_peer_bits(x, w, 1, b, 1);
            for (int k = 0; k < 2; k++)
                for (int h = 0; h < TQ_NHOUSES(x) && !linked[k]; h++) {
                    int p = -1, q = -1;
                    if (tq_places(x, cand, h, digit[k], &p, &q) != 2 || p == a || p == b ||
                        q == a || q == b)
                        continue;
                    linked[k] = (tq_in(x, w, 0, p) && tq_in(x, w, 1, q)) ||
                                (tq_in(x, w, 1, p) && tq_in(x, w, 0, q));
                }
            tq_peer_bits(x, w, 0, a, 0);
            tq_peer_bits(x, w, 1, b, 0);
            for (int k = 0; k < 2; k++)
                if (linked[k])
                    apps += tq_common(x, w, cand, a, b, -1, digit[1 - k]);
        }
    return apps;
}

/* ------------------------------------------------------------------------------------------ */
/* Colouring and X-chains (col, xc)                                                           */
/* ------------------------------------------------------------------------------------------ */

/* The digits with exactly two places in each house, into pairs (house h's mask at
 * pairs[2h], two ints, by memcpy: TQ_MASK is up to 64 bits), in one pass over the board for
 * every digit. @return the digits that have a strong link somewhere. */
static TQ_MASK tq_pair_digits(TQ_CTX *x, const TQ_MASK *cand, int *pairs)
{
    TQ_MASK any = 0;
    (void)x; /* the 9x9 stamp's tables are constants */
    for (int h = 0; h < TQ_NHOUSES(x); h++) {
        const TQ_CELL *hc = TQ_HOUSE(x, h);
        TQ_MASK once = 0, twice = 0, more = 0;
        for (int i = 0; i < TQ_N(x); i++) {
            const TQ_MASK m = cand[hc[i]];
            more |= twice & m;
            twice |= once & m;
            once |= m;
        }
        twice &= (TQ_MASK)~more;
        memcpy(pairs + 2 * h, &twice, sizeof twice);
        any |= twice;
    }
    return any;
}

/* The strong-link graph of digit d: link i (a house where d has exactly those two places, as
 * tq_pair_digits found) joins end[2i] and end[2i + 1]; cell c's links are the slots j from
 * head[c] on through next[j] (-1 ends), in house order, the partner of slot j being
 * end[j ^ 1]. head (ncells ints) must be all -1 and is left so by tq_strong_clear; end and
 * next hold 2 * nhouses ints. Built per call and digit from the pairs of the call: the board
 * changes between calls, and only houses with a link of d are read. @return the links. */
static int tq_strong_graph(TQ_CTX *x, const TQ_MASK *cand, TQ_MASK d, const int *pairs,
                           int *head, int *end, int *next)
{
    int n = 0;
    for (int h = TQ_NHOUSES(x) - 1; h >= 0; h--) { /* prepended backwards: house order */
        TQ_MASK two;
        int a = -1, b = -1;
        memcpy(&two, pairs + 2 * h, sizeof two);
        if (!(two & d))
            continue;
        tq_places(x, cand, h, d, &a, &b);
        end[2 * n] = a;
        next[2 * n] = head[a];
        head[a] = 2 * n;
        end[2 * n + 1] = b;
        next[2 * n + 1] = head[b];
        head[b] = 2 * n + 1;
        n++;
    }
    return n;
}

/* Leaves head all -1 again after tq_strong_graph made n links. */
static inline void tq_strong_clear(int *head, const int *end, int n)
{
    for (int j = 0; j < 2 * n; j++)
        head[end[j]] = -1;
}

/* col: simple colouring. Per digit, the cells joined by strong links (a house with exactly two
 * places: exactly one holds the digit) take alternating colours; in every solution one colour
 * of a cluster holds the digit everywhere and the other nowhere. Wrap: a colour seeing itself
 * is the false one and loses the digit; trap: a cell outside the cluster seeing both colours
 * loses it. @return applications (clusters that removed something), or TQ_CONTRADICTION on an
 * odd cycle. */
static int tq_colouring(TQ_CTX *x, tq_work *w, const TQ_MASK *cand)
{
    const int nc = TQ_NCELLS(x);
    int *head = w->iw, *end = head + nc, *next = end + 2 * TQ_NHOUSES(x),
        *pairs = next + 2 * TQ_NHOUSES(x), *colour = pairs + 2 * TQ_NHOUSES(x),
        *queue = colour + nc, apps = 0;
    const TQ_MASK linked = tq_pair_digits(x, cand, pairs);
    for (int c = 0; c < nc; c++)
        head[c] = colour[c] = -1;
    for (int dg = 0; dg < TQ_N(x); dg++) {
        const TQ_MASK d = (TQ_MASK)((TQ_MASK)1 << dg);
        if (!(linked & d)) /* no strong link: no cluster */
            continue;
        const int links = tq_strong_graph(x, cand, d, pairs, head, end, next);
        for (int s = 0, cluster = 0; s < nc; s++) {
            if (colour[s] >= 0 || head[s] < 0)
                continue;
            const int c0 = 2 * cluster++;
            int qn = 0, false_colour = -1, found = 0;
            colour[s] = c0;
            queue[qn++] = s;
            for (int qi = 0; qi < qn; qi++) {
                const int u = queue[qi];
                for (int j = head[u]; j >= 0; j = next[j]) {
                    const int v = end[j ^ 1];
                    if (colour[v] == colour[u])
                        return TQ_CONTRADICTION;
                    if (colour[v] < 0) {
                        colour[v] = colour[u] ^ 1;
                        queue[qn++] = v;
                    }
                }
            }
            for (int qi = 0; qi < qn && false_colour < 0; qi++) { /* wrap */
                const int u = queue[qi];
                const TQ_CELL *peer = TQ_PEERS(x, u);
                for (int i = 0; i < TQ_NPEERS(x, u); i++)
                    if (colour[peer[i]] == colour[u])
                        false_colour = colour[u];
            }
            if (false_colour >= 0) {
                for (int qi = 0; qi < qn; qi++)
                    if (colour[queue[qi]] == false_colour)
                        found |= tq_schedule(x, queue[qi], cand[queue[qi]], d);
            } else { /* trap */
                for (int qi = 0; qi < qn; qi++) /* the cluster's peers, marked once */
                    tq_peer_bits(x, w, colour[queue[qi]] - c0, queue[qi], 1);
                for (int c = 0; c < nc; c++)
                    if ((cand[c] & d) && (colour[c] >> 1) != cluster - 1 && tq_in(x, w, 0, c) &&
                        tq_in(x, w, 1, c))
                        found |= tq_schedule(x, c, cand[c], d);
                memset(w->seen, 0, 2 * (size_t)TQ_EWORDS(x) * sizeof *w->seen);
            }
            apps += found;
        }
        for (int j = 0; j < 2 * links; j++) /* only linked cells were coloured */
            colour[end[j]] = -1;
        tq_strong_clear(head, end, links);
    }
    return apps;
}

/* xc: X-chains. Per digit, from each cell s of a strong link, a breadth-first walk that
 * alternates a strong link (if the last cell lacks the digit, its partner holds it) and a weak
 * one (if the last cell holds it, a cell seeing it does not), at most TQ_XC_MAX_LINKS links,
 * starting and ending with a strong link. Reaching e so: s or e holds the digit, so cells
 * seeing both lose it (each pair s < e once). @return applications. */
static int tq_xchain(TQ_CTX *x, tq_work *w, const TQ_MASK *cand)
{
    const int nc = TQ_NCELLS(x);
    int *head = w->iw, *end = head + nc, *next = end + 2 * TQ_NHOUSES(x),
        *pairs = next + 2 * TQ_NHOUSES(x), *visit = pairs + 2 * TQ_NHOUSES(x),
        *queue = visit + 2 * nc, apps = 0, stamp = 0;
    const TQ_MASK linked = tq_pair_digits(x, cand, pairs);
    if (!linked) /* no strong link: no chain */
        return 0;
    for (int i = 0; i < 2 * nc; i++)
        visit[i] = -1;
    for (int c = 0; c < nc; c++)
        head[c] = -1;
    for (int dg = 0; dg < TQ_N(x); dg++) {
        const TQ_MASK d = (TQ_MASK)((TQ_MASK)1 << dg);
        if (!(linked & d))
            continue;
        const int links = tq_strong_graph(x, cand, d, pairs, head, end, next);
        for (int j0 = 0; j0 < 2 * links; j0++) {
            /* each linked cell once, at its first slot: the walks are independent of order
             * (their pairs and eliminations are sets) */
            const int s = end[j0];
            if (head[s] != j0)
                continue;
            /* State 2c: c lacks the digit (a strong link follows); 2c+1: c holds it. The queue
             * holds states, depth (links walked) in the level boundaries. */
            int qn = 0, qi = 0, marked = 0;
            stamp++;
            visit[2 * s] = stamp;
            queue[qn++] = 2 * s;
            for (int depth = 0; depth < TQ_XC_MAX_LINKS && qi < qn; depth++) {
                const int level_end = qn;
                for (; qi < level_end; qi++) {
                    const int u = queue[qi] >> 1, holds = queue[qi] & 1;
                    const TQ_CELL *peer = TQ_PEERS(x, u);
                    /* weak: the peers in order; strong: the partners in house order */
                    for (int k = 0, j = head[u]; holds ? k < TQ_NPEERS(x, u) : j >= 0;
                         holds ? k++ : (j = next[j])) {
                        const int v = holds ? peer[k] : end[j ^ 1];
                        const int st = 2 * v + !holds;
                        /* a cell without a strong link ends no chain and continues none */
                        if (!(cand[v] & d) || visit[st] == stamp || head[v] < 0)
                            continue;
                        visit[st] = stamp;
                        queue[qn++] = st;
                        if (holds || v <= s)
                            continue;
                        if (!marked) /* s ends every chain of this walk: its peers once */
                            tq_peer_bits(x, w, 0, s, marked = 1);
                        apps += tq_common_marked(x, w, cand, v, s, -1, d);
                    }
                }
            }
            if (marked)
                tq_peer_bits(x, w, 0, s, 0);
        }
        tq_strong_clear(head, end, links);
    }
    return apps;
}

/* Ints of scratch the whole-board techniques need (tq_work.iw): xc's strong-link graph and
 * pairs (ncells + 6 * nhouses) and its walk (4 * ncells). */
#define TQ_IWORK_INTS(x) (5 * TQ_NCELLS(x) + 6 * TQ_NHOUSES(x))

/* Runs whole-board technique t on cand, scheduling its eliminations.
 * @return applications, or TQ_CONTRADICTION. */
static int tq_board(TQ_CTX *x, int t, const TQ_MASK *cand)
{
    TQ_WORK(x, w);
    switch (t) {
    case SB_TECH_XWING: return tq_fish(x, &w, cand, 2);
    case SB_TECH_SWORDFISH: return tq_fish(x, &w, cand, 3);
    case SB_TECH_JELLYFISH: return tq_fish(x, &w, cand, 4);
    case SB_TECH_XY_WING: return tq_wing(x, &w, cand, 0);
    case SB_TECH_XYZ_WING: return tq_wing(x, &w, cand, 1);
    case SB_TECH_W_WING: return tq_w_wing(x, &w, cand);
    case SB_TECH_SKYSCRAPER: return tq_skyscraper(x, &w, cand);
    case SB_TECH_KITE: return tq_kite(x, &w, cand);
    case SB_TECH_COLOURING: return tq_colouring(x, &w, cand);
    default: return tq_xchain(x, &w, cand);
    }
}

#endif /* SB_TECHNIQUE_BOARD_H */
