/*
 * pipeline.c — the technique registry and the generic pipelines: the elimination orders of
 * the seed documents (list, array, restart, and any custom spec) on the same bitmask board
 * and the same search (search.h) as the fast kernel, so a comparison isolates the order.
 *
 * Data layout: the sb_board of internal.h. cand[c] is the candidate mask of cell c; the
 * assigned[] lanes hold the set of cells the search (or a given) has assigned, i.e. whose
 * digit was removed from every peer; nsolved counts them. A cell left with one candidate by
 * a technique is "known" to the techniques (seed 000's "single") but is only assigned when
 * the search takes it, without a guess.
 *
 * A technique looks at one house of a candidate array (the live board, or a snapshot for the
 * list order) and schedules eliminations in an sb_elims; the order decides when they land.
 * Portable C on purpose: these are the references a comparison is made against, and they
 * run identically at every SIMD level.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* SB_SPEC_MAX as text, for messages; checked against the enum below. */
#define SB_SPEC_MAX_TEXT "32"
_Static_assert(SB_SPEC_MAX == 32, "SB_SPEC_MAX_TEXT must match SB_SPEC_MAX");

/* The technique registry, indexed by sb_technique. */
static const sb_technique_info technique_table[SB_TECH_COUNT] = {
    [SB_TECH_NAKED_SINGLE] = {"ns", "naked single: a known cell's digit leaves its house"},
    [SB_TECH_HIDDEN_SINGLE] = {"hs", "hidden single: a digit with one place in a house"},
    [SB_TECH_LOCKED] = {"lc", "locked candidates: pointing (box->line) and claiming (line->box)"},
    [SB_TECH_NAKED_PAIR] = {"nt2", "naked pair: two cells, two digits"},
    [SB_TECH_NAKED_TRIPLE] = {"nt3", "naked triple: three cells, three digits"},
    [SB_TECH_NAKED_QUAD] = {"nt4", "naked quad: four cells, four digits"},
    [SB_TECH_HIDDEN_PAIR] = {"ht2", "hidden pair: two digits confined to two cells"},
    [SB_TECH_HIDDEN_TRIPLE] = {"ht3", "hidden triple: three digits confined to three cells"},
    [SB_TECH_HIDDEN_QUAD] = {"ht4", "hidden quad: four digits confined to four cells"},
};

const sb_technique_info *sb_techniques(size_t *count)
{
    *count = SB_TECH_COUNT;
    return technique_table;
}

/* Eliminations scheduled by techniques, not yet applied. */
typedef struct sb_elims {
    uint16_t mask[SB_CELLS]; /* digits to remove from each cell */
    uint64_t touched[2];     /* cells with a non-zero mask (bit c%64 of word c/64) */
} sb_elims;

/* Result of a technique on one house. */
enum { TECH_CONTRADICTION = -1, TECH_NOTHING = 0, TECH_FOUND = 1 };

/* Schedules removing digits from cell c, given its current candidates m (only digits it
 * has are scheduled). @return 1 if anything was scheduled. */
static int schedule(sb_elims *e, int c, uint16_t m, uint16_t digits)
{
    const uint16_t x = m & digits;
    if (!x)
        return 0;
    e->mask[c] |= x;
    e->touched[c / 64] |= 1ULL << (c % 64);
    return 1;
}

/* Returns 1 when m has exactly one bit. */
static int is_single(uint16_t m)
{
    return m && !(m & (m - 1));
}

/* Digits known (single-candidate cells) in house h; *dup gets digits known twice. */
static uint16_t known_digits(const uint16_t *cand, int h, uint16_t *dup)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    uint16_t known = 0, twice = 0;
    for (int i = 0; i < SB_DIGITS; i++) {
        const uint16_t m = cand[hc[i]];
        if (is_single(m)) {
            twice |= known & m;
            known |= m;
        }
    }
    *dup = twice;
    return known;
}

/* ns: the digits of known cells leave the house's other cells. */
static int tech_naked_single(const uint16_t *cand, int h, sb_elims *e)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    uint16_t dup;
    const uint16_t known = known_digits(cand, h, &dup);
    if (dup)
        return TECH_CONTRADICTION;
    int found = 0;
    for (int i = 0; i < SB_DIGITS; i++)
        if (!is_single(cand[hc[i]]))
            found |= schedule(e, hc[i], cand[hc[i]], known);
    return found;
}

/* hs: a digit that is not known in the house and has one place there fills that cell. */
static int tech_hidden_single(const uint16_t *cand, int h, sb_elims *e)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    uint16_t once = 0, twice = 0, dup;
    const uint16_t known = known_digits(cand, h, &dup);
    for (int i = 0; i < SB_DIGITS; i++) {
        twice |= once & cand[hc[i]];
        once |= cand[hc[i]];
    }
    if (once != SB_ALL_DIGITS)
        return TECH_CONTRADICTION; /* a digit with no place left */
    const uint16_t hidden = once & (uint16_t)~twice & (uint16_t)~known;
    int found = 0;
    for (int i = 0; i < SB_DIGITS; i++) {
        const uint16_t m = cand[hc[i]], mine = m & hidden;
        if (mine & (mine - 1))
            return TECH_CONTRADICTION; /* one cell, two digits that must both go there */
        if (mine)
            found |= schedule(e, hc[i], m, (uint16_t)~mine);
    }
    return found;
}

/* lc: in a box, a digit confined to one row (column) of the box leaves the rest of that row
 * (column) — pointing; in a line, a digit confined to one box leaves the rest of that box —
 * claiming. Known cells are left out: their digits are the naked singles' business. */
static int tech_locked(const uint16_t *cand, int h, sb_elims *e)
{
    const sb_peer_tables *t = &sb_peer_tables_data;
    const uint8_t *hc = t->house_cells[h];
    uint16_t dup;
    const uint16_t open = (uint16_t)~known_digits(cand, h, &dup) & SB_ALL_DIGITS;
    int found = 0;
    /* Three segments of three cells: a box's rows (then columns), or a line's boxes. */
    for (int pass = 0; pass < (h >= 18 ? 2 : 1); pass++) {
        uint16_t seg[3] = {0, 0, 0};
        int seg_cell[3][3];
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++) {
                /* Box cells are listed row by row: pass 0 takes rows, pass 1 columns. */
                const int c = hc[pass == 0 ? 3 * k + j : 3 * j + k];
                seg_cell[k][j] = c;
                if (!is_single(cand[c]))
                    seg[k] |= cand[c];
            }
        for (int k = 0; k < 3; k++) {
            const uint16_t only = seg[k] & (uint16_t)~(seg[(k + 1) % 3] | seg[(k + 2) % 3]) & open;
            if (!only)
                continue;
            /* The other house through segment k: the line (for a box) or the box (for a line). */
            const int c0 = seg_cell[k][0];
            const int other = h >= 18 ? t->cell_houses[c0][pass] : t->cell_houses[c0][2];
            for (int i = 0; i < SB_DIGITS; i++) {
                const int c = t->house_cells[other][i];
                if (c != seg_cell[k][0] && c != seg_cell[k][1] && c != seg_cell[k][2] &&
                    !is_single(cand[c]))
                    found |= schedule(e, c, cand[c], only);
            }
        }
    }
    return found;
}

/* Returns the next 9-bit mask after s with the same number of bits (Gosper's hack), or a
 * value >= 512 when there is none: walks the k-subsets of a house in C(9,k) steps. */
static unsigned next_subset(unsigned s)
{
    const unsigned c = s & -s, r = s + c;
    return (((r ^ s) >> 2) / c) | r;
}

/* Most k-subsets of nine (C(9,4)); the size of a tuple list. */
enum { MAX_TUPLES = 126 };

/* The shared core of naked and hidden tuples, which are duals: over the open members of a
 * house (cells for naked tuples, digits for hidden ones), each with a set (its digits, or
 * its places), lists the k-member subsets whose sets cover exactly k elements.
 * @return the number listed, or TECH_CONTRADICTION when some k members cover fewer than k. */
static int find_tuples(const unsigned set[SB_DIGITS], unsigned open, int k,
                       unsigned members[MAX_TUPLES], unsigned cover[MAX_TUPLES])
{
    int n = 0;
    if (__builtin_popcount(open) <= k)
        return 0;
    for (unsigned sub = (1u << k) - 1; sub < (1u << SB_DIGITS); sub = next_subset(sub)) {
        if (sub & ~open)
            continue;
        unsigned u = 0;
        for (unsigned s = sub; s; s &= s - 1)
            u |= set[__builtin_ctz(s)];
        const int size = __builtin_popcount(u);
        if (size < k)
            return TECH_CONTRADICTION;
        if (size == k) {
            members[n] = sub;
            cover[n++] = u;
        }
    }
    return n;
}

/* nt<k>: k open cells of the house whose candidates together are k digits: those digits
 * leave the house's other open cells. Fewer than k digits is a contradiction. */
static int tech_naked_tuple(const uint16_t *cand, int h, sb_elims *e, int k)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    unsigned open = 0, digits[SB_DIGITS], members[MAX_TUPLES], cover[MAX_TUPLES];
    for (int i = 0; i < SB_DIGITS; i++) {
        digits[i] = cand[hc[i]];
        if (!is_single(cand[hc[i]]))
            open |= 1u << i; /* positions 0..8 of unknown cells */
    }
    const int n = find_tuples(digits, open, k, members, cover);
    if (n < 0)
        return TECH_CONTRADICTION;
    int found = 0;
    for (int t = 0; t < n; t++)
        for (unsigned o = open & ~members[t]; o; o &= o - 1)
            found |= schedule(e, hc[__builtin_ctz(o)], cand[hc[__builtin_ctz(o)]],
                              (uint16_t)cover[t]);
    return found;
}

/* ht<k>: k open digits of the house whose places together are k cells: those cells keep
 * only those digits. Fewer than k places is a contradiction. */
static int tech_hidden_tuple(const uint16_t *cand, int h, sb_elims *e, int k)
{
    const uint8_t *hc = sb_peer_tables_data.house_cells[h];
    uint16_t dup;
    const unsigned open = (unsigned)~known_digits(cand, h, &dup) & SB_ALL_DIGITS;
    unsigned place[SB_DIGITS] = {0}, members[MAX_TUPLES], cover[MAX_TUPLES];
    for (int i = 0; i < SB_DIGITS; i++)
        if (!is_single(cand[hc[i]]))
            for (uint16_t m = cand[hc[i]]; m; m &= (uint16_t)(m - 1))
                place[__builtin_ctz(m)] |= 1u << i; /* positions of each digit */
    const int n = find_tuples(place, open, k, members, cover);
    if (n < 0)
        return TECH_CONTRADICTION;
    int found = 0;
    for (int t = 0; t < n; t++)
        for (unsigned o = cover[t]; o; o &= o - 1)
            found |= schedule(e, hc[__builtin_ctz(o)], cand[hc[__builtin_ctz(o)]],
                              (uint16_t)~members[t]);
    return found;
}

/* Runs technique t on house h of cand. @return TECH_CONTRADICTION, _NOTHING or _FOUND. */
static int run_technique(int t, const uint16_t *cand, int h, sb_elims *e)
{
    switch (t) {
    case SB_TECH_NAKED_SINGLE: return tech_naked_single(cand, h, e);
    case SB_TECH_HIDDEN_SINGLE: return tech_hidden_single(cand, h, e);
    case SB_TECH_LOCKED: return tech_locked(cand, h, e);
    case SB_TECH_NAKED_PAIR: return tech_naked_tuple(cand, h, e, 2);
    case SB_TECH_NAKED_TRIPLE: return tech_naked_tuple(cand, h, e, 3);
    case SB_TECH_NAKED_QUAD: return tech_naked_tuple(cand, h, e, 4);
    case SB_TECH_HIDDEN_PAIR: return tech_hidden_tuple(cand, h, e, 2);
    case SB_TECH_HIDDEN_TRIPLE: return tech_hidden_tuple(cand, h, e, 3);
    default: return tech_hidden_tuple(cand, h, e, 4);
    }
}

/* Applies and clears the scheduled eliminations, crediting technique t.
 * @return 0 when a cell is left empty, else 1; *changed set when anything was removed. */
static int apply(sb_board *b, sb_elims *e, sb_technique_counts *tc, int *changed)
{
    int ok = 1;
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = e->touched[w]; bits; bits &= bits - 1) {
            const int c = 64 * w + __builtin_ctzll(bits);
            const uint16_t x = b->cand[c] & e->mask[c];
            e->mask[c] = 0;
            if (!x)
                continue;
            b->cand[c] ^= x;
            *changed = 1;
            tc->eliminations += (uint64_t)__builtin_popcount(x);
            if (!b->cand[c])
                ok = 0;
            else if (is_single(b->cand[c]))
                tc->placements++;
        }
    e->touched[0] = e->touched[1] = 0;
    return ok;
}

/* One sweep of technique t over the houses [h0, h0+9): in place (each house sees the
 * previous ones) or from a snapshot (all eliminations land together at the end).
 * @return 0 on contradiction. */
static int sweep(sb_board *b, int t, int h0, int snapshot, sb_technique_counts *tc,
                 int *changed)
{
    sb_elims e;
    uint16_t snap[SB_CELLS];
    memset(&e, 0, sizeof e);
    const uint16_t *src = b->cand;
    if (snapshot) {
        memcpy(snap, b->cand, sizeof snap);
        src = snap;
    }
    for (int h = h0; h < h0 + SB_DIGITS; h++) {
        const int r = run_technique(t, src, h, &e);
        if (r == TECH_CONTRADICTION)
            return 0;
        tc->applications += (uint64_t)r;
        if (!snapshot && r == TECH_FOUND && !apply(b, &e, tc, changed))
            return 0;
    }
    return snapshot ? apply(b, &e, tc, changed) : 1;
}

/* Technique t over rows, then columns, then boxes. @return 0 on contradiction. */
static int sweep_all(sb_board *b, int t, int snapshot, sb_technique_counts *counts,
                     int *changed)
{
    for (int h0 = 0; h0 < SB_HOUSES; h0 += SB_DIGITS)
        if (!sweep(b, t, h0, snapshot, &counts[t], changed))
            return 0;
    return 1;
}

int sb_technique_step(int technique, uint16_t cand[SB_CELLS], sb_technique_counts *counts)
{
    sb_technique_counts scratch[SB_TECH_COUNT];
    sb_board b;
    if (technique < 0 || technique >= SB_TECH_COUNT || !cand)
        return SB_ERR_ARG;
    memset(&b, 0, sizeof b);
    memset(scratch, 0, sizeof scratch);
    memcpy(b.cand, cand, sizeof b.cand);
    int changed = 0;
    const int ok = sweep_all(&b, technique, 0, scratch, &changed);
    memcpy(cand, b.cand, sizeof b.cand);
    if (counts) {
        counts->applications += scratch[technique].applications;
        counts->placements += scratch[technique].placements;
        counts->eliminations += scratch[technique].eliminations;
    }
    return !ok ? SB_STEP_CONTRADICTION : changed ? SB_STEP_CHANGED : SB_STEP_UNCHANGED;
}

/* Runs the plan's order to its fixpoint. @return 0 on contradiction, else 1. */
static int run_plan(const sb_plan *p, sb_board *b, sb_technique_counts *counts)
{
    if (p->order == SB_ORDER_RESTART) {
        for (int i = 0; i < p->nsteps;) {
            int changed = 0;
            if (!sweep_all(b, p->steps[i], 0, counts, &changed))
                return 0;
            i = changed ? 0 : i + 1;
        }
        return 1;
    }
    const int snapshot = p->order == SB_ORDER_LIST;
    for (;;) {
        int changed = 0;
        for (int i = 0; i < p->nsteps; i++)
            if (!sweep_all(b, p->steps[i], snapshot, counts, &changed))
                return 0;
        if (!changed)
            return 1;
    }
}

/* Assigns digit d to cell c: marks it and removes d from its peers (the consistency every
 * search step keeps, whatever the pipeline). @return 0 when a peer is left empty. */
static int assign(sb_board *b, int c, uint16_t d)
{
    const uint8_t *peer = sb_peer_tables_data.peers[c];
    int ok = 1;
    b->cand[c] = d;
    b->assigned[c / 16] |= (uint16_t)(1u << (c % 16));
    b->nsolved++;
    for (int i = 0; i < SB_PEERS; i++) {
        b->cand[peer[i]] &= (uint16_t)~d;
        if (!b->cand[peer[i]])
            ok = 0;
    }
    return ok;
}

/* Returns 1 when cell c has been assigned. */
static int is_assigned(const sb_board *b, int c)
{
    return (b->assigned[c / 16] >> (c % 16)) & 1;
}

/* Hook context of the generic search: the plan and where its work is counted. */
typedef struct gen_ctx {
    const sb_plan *plan;            /* the pipeline */
    sb_technique_counts *counts;    /* SB_TECH_COUNT counters */
    const uint16_t *marks;          /* candidates to start from (sb_solve_candidates), or
                                       NULL: start from the puzzle's givens */
} gen_ctx;

static int srch_load(gen_ctx *x, sb_board *b, const sb_grid *puzzle)
{
    memset(b, 0, sizeof *b);
    /* A given is a cell with one candidate: both starts are the same load. All givens are
     * placed before any is assigned, so equal givens in a house collide as an emptied cell,
     * as in the fast kernel. */
    uint64_t given[2] = {0, 0};
    for (int c = 0; c < SB_CELLS; c++) {
        const uint16_t m = x->marks                     ? (uint16_t)(x->marks[c] & SB_ALL_DIGITS)
                           : puzzle->cell[c]            ? (uint16_t)(1u << (puzzle->cell[c] - 1))
                                                        : (uint16_t)SB_ALL_DIGITS;
        if (!m)
            return 0;
        b->cand[c] = m;
        given[c / 64] |= (uint64_t)is_single(m) << (c % 64);
    }
    for (int c = 0; c < SB_CELLS; c++)
        if ((given[c / 64] >> (c % 64) & 1) && (!b->cand[c] || !assign(b, c, b->cand[c])))
            return 0;
    return run_plan(x->plan, b, x->counts);
}

static int srch_solved(gen_ctx *x, const sb_board *b)
{
    (void)x;
    return b->nsolved == SB_CELLS;
}

/* Scores cell c (candidates m) for branching exactly as the fast kernel does: its open
 * peers (two or more candidates) sharing a digit with it, bivalue ones counted three times. */
static int branch_score(const sb_board *b, int c, uint16_t m)
{
    const uint8_t *peer = sb_peer_tables_data.peers[c];
    int score = 0;
    for (int i = 0; i < SB_PEERS; i++) {
        const uint16_t p = b->cand[peer[i]];
        if ((p & m) && (p & (p - 1)))
            score += 1 + 2 * (__builtin_popcount(p) == 2);
    }
    return score;
}

/* The same rule as the fast kernel, so every pipeline searches alike: an unassigned cell
 * with one candidate first (taken without a guess), else among the unassigned cells with
 * the fewest candidates the best branch_score, first in cell order. */
static int srch_choose(gen_ctx *x, const sb_board *b)
{
    int best_n = SB_DIGITS + 1;
    (void)x;
    for (int c = 0; c < SB_CELLS; c++)
        if (!is_assigned(b, c)) {
            const int n = __builtin_popcount(b->cand[c]);
            if (n == 1)
                return c;
            best_n = n < best_n ? n : best_n;
        }
    int best = -1, best_score = -1;
    for (int c = 0; c < SB_CELLS; c++)
        if (!is_assigned(b, c) && __builtin_popcount(b->cand[c]) == best_n) {
            const int score = branch_score(b, c, b->cand[c]);
            if (score > best_score) {
                best_score = score;
                best = c;
            }
        }
    return best;
}

static int srch_take(gen_ctx *x, sb_board *b, int c, uint16_t d)
{
    return assign(b, c, d) && run_plan(x->plan, b, x->counts);
}

static int srch_drop(gen_ctx *x, sb_board *b, int c, uint16_t d)
{
    b->cand[c] &= (uint16_t)~d;
    return b->cand[c] && run_plan(x->plan, b, x->counts);
}

/* Both engines keep the board cell-major. */
static inline uint16_t srch_cell(gen_ctx *x, const sb_board *b, int c)
{
    (void)x;
    return b->cand[c];
}

#define SB_SEARCH_CTX gen_ctx
#define SB_SEARCH_DFS gen_dfs
#define SB_SEARCH_BFS gen_bfs
#include "search.h"

void sb_generic_dfs(const sb_plan *plan, sb_technique_counts *counts, sb_board *stack,
                    const sb_grid *puzzle, const uint16_t *marks, uint64_t limit,
                    sb_result *res)
{
    gen_ctx x = {plan, counts, marks};
    gen_dfs(&x, stack, puzzle, limit, res);
}

int sb_generic_bfs(const sb_plan *plan, sb_technique_counts *counts, sb_board **ring,
                   size_t *ring_len, size_t cap, const sb_grid *puzzle, const uint16_t *marks,
                   uint64_t limit, sb_result *res)
{
    gen_ctx x = {plan, counts, marks};
    return gen_bfs(&x, ring, ring_len, cap, puzzle, limit, res);
}

int sb_generic_root(const sb_plan *plan, sb_technique_counts *counts, const sb_grid *puzzle,
                    const uint16_t *marks, sb_board *b)
{
    gen_ctx x = {plan, counts, marks};
    if (!srch_load(&x, b, puzzle))
        return 0;
    for (int c = 0; c < SB_CELLS; c++)
        if (!is_single(b->cand[c]))
            return 2;
    /* Every cell known: complete only if the known digits agree in every house. */
    for (int h = 0; h < SB_HOUSES; h++) {
        uint16_t dup;
        if (known_digits(b->cand, h, &dup) != SB_ALL_DIGITS || dup)
            return 0;
    }
    return 1;
}

/* Looks up a technique token (or the nt / ht group) and appends its steps to plan.
 * @return 1; 0 when the token is unknown; -1 when the plan would exceed SB_SPEC_MAX steps. */
static int add_token(sb_plan *plan, const char *tok, size_t len)
{
    static const struct {
        const char *name; /* group token */
        int first, last;  /* technique range it stands for */
    } groups[] = {{"nt", SB_TECH_NAKED_PAIR, SB_TECH_NAKED_QUAD},
                  {"ht", SB_TECH_HIDDEN_PAIR, SB_TECH_HIDDEN_QUAD}};
    int first = -1, last = -1;
    for (int t = 0; t < SB_TECH_COUNT; t++)
        if (strlen(technique_table[t].name) == len && !strncmp(technique_table[t].name, tok, len))
            first = last = t;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (strlen(groups[g].name) == len && !strncmp(groups[g].name, tok, len)) {
            first = groups[g].first;
            last = groups[g].last;
        }
    if (first < 0)
        return 0;
    if (plan->nsteps + (last - first + 1) > SB_SPEC_MAX)
        return -1;
    for (int t = first; t <= last; t++)
        plan->steps[plan->nsteps++] = (uint8_t)t;
    return 1;
}

/* Writes a spec error into why (len bytes; nothing when why is NULL). @return
 * SB_ERR_PIPELINE. */
static int spec_error(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int spec_error(char *why, size_t len, const char *fmt, ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return SB_ERR_PIPELINE;
}

/* sb_plan_parse, saying in why what is wrong (see sb_pipeline_explain). */
static int plan_parse(const char *spec, sb_plan *plan, char *why, size_t why_len)
{
    static const struct {
        const char *name; /* order word before ':' */
        sb_order order;   /* what it selects */
    } orders[] = {{"list", SB_ORDER_LIST}, {"array", SB_ORDER_ARRAY}, {"restart", SB_ORDER_RESTART}};
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon)
        return spec_error(why, why_len, "not a pipeline name, and no ':' for a spec ORDER:T1,T2,...");
    memset(plan, 0, sizeof *plan);
    size_t i = 0, n = sizeof orders / sizeof orders[0];
    while (i < n && !(strlen(orders[i].name) == (size_t)(colon - spec) &&
                      !strncmp(orders[i].name, spec, (size_t)(colon - spec))))
        i++;
    if (i == n)
        return spec_error(why, why_len, "unknown order '%.*s' (list, array, restart)",
                          (int)(colon - spec), spec);
    plan->order = orders[i].order;
    /* "ORDER:" alone is a plan without techniques (the registry's "none" is "restart:"); once
     * a list starts, every token must be there: "ns,", ",ns" and "ns,,hs" are typos. */
    for (const char *tok = colon + 1; *tok;) {
        const char *end = strchr(tok, ',');
        const size_t len = end ? (size_t)(end - tok) : strlen(tok);
        if (len == 0)
            return spec_error(why, why_len, "empty technique name (a comma with no token "
                                            "before or after it)");
        const int added = add_token(plan, tok, len);
        if (added == 0)
            return spec_error(why, why_len, "unknown technique '%.*s' (ns, hs, lc, nt2, nt3, "
                                            "nt4, ht2, ht3, ht4; nt, ht = all three sizes)",
                              (int)len, tok);
        if (added < 0)
            return spec_error(why, why_len, "more than " SB_SPEC_MAX_TEXT " technique steps "
                                            "(nt and ht count three)");
        if (!end)
            break;
        tok = end + 1;
        if (!*tok)
            return spec_error(why, why_len, "empty technique name (a comma with no token "
                                            "before or after it)");
    }
    return SB_OK;
}

int sb_plan_parse(const char *spec, sb_plan *plan)
{
    return plan_parse(spec, plan, NULL, 0);
}

int sb_pipeline_check(const char *spec)
{
    sb_plan plan;
    return plan_parse(spec, &plan, NULL, 0);
}

int sb_pipeline_explain(const char *spec, char *why, size_t len)
{
    sb_plan plan;
    if (why && len)
        why[0] = '\0';
    if (sb_pipeline_find(spec) >= 0)
        return SB_OK;
    return plan_parse(spec, &plan, why, len);
}

/* ------------------------------------------------------------------------------------------ */
/* Rating                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The technique set of each class below SB_CLASS_SEARCH, run in restart order. */
static const char *const class_specs[SB_CLASS_SEARCH] = {
    "restart:ns", "restart:ns,hs", "restart:ns,hs,lc", "restart:ns,hs,lc,nt,ht"};
static const char *const class_names[SB_CLASS_COUNT] = {"singles", "hidden", "locked", "tuples",
                                                        "search"};

const char *sb_class_name(int cls)
{
    return cls >= 0 && cls < SB_CLASS_COUNT ? class_names[cls] : "?";
}

/* Rates from the givens of puzzle, or from the candidates marks when not NULL (sb_rate,
 * sb_rate_candidates; arguments already checked). */
static void rate_from(const sb_grid *puzzle, const uint16_t *marks, sb_rating *out)
{
    memset(out, 0, sizeof *out);
    for (int cls = 0; cls < SB_CLASS_SEARCH; cls++) {
        sb_plan plan;
        sb_board b;
        sb_plan_parse(class_specs[cls], &plan);
        memset(out->counts, 0, sizeof out->counts);
        if (sb_generic_root(&plan, out->counts, puzzle, marks, &b) == 1) {
            out->cls = (sb_class)cls;
            return;
        }
    }
    out->cls = SB_CLASS_SEARCH;
}

int sb_rate(const sb_grid *puzzle, sb_rating *out)
{
    if (!puzzle || !out)
        return SB_ERR_ARG;
    for (int c = 0; c < SB_CELLS; c++)
        if (puzzle->cell[c] > 9)
            return SB_ERR_ARG;
    rate_from(puzzle, NULL, out);
    return SB_OK;
}

int sb_rate_candidates(const uint16_t cand[SB_CELLS], sb_rating *out)
{
    if (!cand || !out)
        return SB_ERR_ARG;
    /* Candidates that keep all their givens allow are that puzzle: rated as sb_rate does
     * (a blank cell's lone candidate is found by a technique there, not given). */
    sb_grid givens;
    rate_from(&givens, sb_candidates_givens(cand, &givens) ? NULL : cand, out);
    return SB_OK;
}
