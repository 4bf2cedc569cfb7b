/*
 * pipeline.c — the spec parser (pipeline specs over the names of registry.c's tables and the
 * technique plug-ins), and the 9x9 stamp of the generic pipelines (technique.h): the
 * elimination orders of the seed documents (list, array, restart, and any custom spec) on the
 * same bitmask board and the same search (search.h) as the fast kernel, so a comparison
 * isolates the order. The stamp for any
 * geometry is src/geometry/gpipeline.c; both run the one implementation in technique.h.
 *
 * Data layout: the sb_board of internal.h. cand[c] is the candidate mask of cell c; the
 * assigned[] lanes hold the set of cells the search (or a given) has assigned, i.e. whose
 * digit was removed from every peer; nsolved counts them. A cell left with one candidate by
 * a technique is "known" to the techniques (seed 000's "single") but is only assigned when
 * the search takes it, without a guess.
 *
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

/* The technique plug-ins a spec may name (sb_options.techniques). */
typedef struct tech_names {
    const sb_plugin *const *p;
    size_t n;
} tech_names;

/* Looks up a technique token (the nt / ht group, or a plug-in of tn) and appends its steps to
 * plan. @return 1; 0 when the token is unknown; -1 when the plan would exceed SB_SPEC_MAX
 * steps. */
static int add_token(sb_plan *plan, const char *tok, size_t len, tech_names tn)
{
    static const struct {
        const char *name; /* group token */
        int first, last;  /* technique range it stands for */
    } groups[] = {{"nt", SB_TECH_NAKED_PAIR, SB_TECH_NAKED_QUAD},
                  {"ht", SB_TECH_HIDDEN_PAIR, SB_TECH_HIDDEN_QUAD}};
    const sb_technique_info *info = sb_techniques(NULL);
    int first = -1, last = -1;
    for (int t = 0; t < SB_TECH_COUNT; t++)
        if (strlen(info[t].name) == len && !strncmp(info[t].name, tok, len))
            first = last = t;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (strlen(groups[g].name) == len && !strncmp(groups[g].name, tok, len)) {
            first = groups[g].first;
            last = groups[g].last;
        }
    for (size_t k = 0; tn.p && k < tn.n && k < SB_TECH_PLUGINS; k++) {
        const char *name = sb_plugin_name(tn.p[k]);
        if (name && strlen(name) == len && !strncmp(name, tok, len))
            first = last = SB_TECH_COUNT + (int)k;
    }
    if (first < 0)
        return 0;
    if (plan->nsteps + (last - first + 1) > SB_SPEC_MAX)
        return -1;
    for (int t = first; t <= last; t++)
        plan->steps[plan->nsteps++] = (uint8_t)t;
    return 1;
}

/* A spec error: the reason into why (len bytes; nothing when why is NULL). @return
 * SB_ERR_PIPELINE. */
#define spec_error(why, len, ...) sb_why(SB_ERR_PIPELINE, why, len, __VA_ARGS__)

/* sb_plan_parse, saying in why what is wrong (see sb_pipeline_explain). */
static int plan_parse(const char *spec, tech_names tn, sb_plan *plan, char *why,
                      size_t why_len)
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
        const int added = add_token(plan, tok, len, tn);
        if (added == 0)
            return spec_error(why, why_len, "unknown technique '%.*s' (ns, hs, lc, nt2, nt3, "
                                            "nt4, ht2, ht3, ht4, xw, sf, jf, xy, xyz, ww, sky, "
                                            "kite, col, xc; nt, ht = all three sizes; or a "
                                            "technique plug-in's name)",
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
    return plan_parse(spec, (tech_names){NULL, 0}, plan, NULL, 0);
}

int sb_plan_parse_opt(const sb_options *opt, const char *spec, sb_plan *plan)
{
    return plan_parse(spec, (tech_names){opt->techniques, opt->ntechniques}, plan, NULL, 0);
}

int sb_fast_parse(const sb_options *opt, const char *spec, sb_fast_tech *out, char *why,
                  size_t len)
{
    if (!spec || strncmp(spec, SB_FAST_PLUS, strlen(SB_FAST_PLUS)))
        return spec_error(why, len, "not a fast+T[,T...] spec");
    /* The techniques as a restart spec, so the tokens read as everywhere else. */
    char buf[256];
    if (snprintf(buf, sizeof buf, "restart:%s", spec + strlen(SB_FAST_PLUS)) >= (int)sizeof buf)
        return spec_error(why, len, "fast+ spec too long");
    sb_plan plan;
    const tech_names tn = {opt ? opt->techniques : NULL, opt ? opt->ntechniques : 0};
    if (plan_parse(buf, tn, &plan, why, len) != SB_OK)
        return SB_ERR_PIPELINE;
    if (plan.nsteps == 0)
        return spec_error(why, len, "fast+ needs at least one technique (nt2, nt3, nt4, ht2, "
                                    "ht3, ht4, xw, sf, jf, sky, kite, xy, xyz, ww, col, xc)");
    for (int i = 0; i < plan.nsteps; i++)
        if (plan.steps[i] < SB_TECH_COUNT && !(SB_FAST_NATIVE >> plan.steps[i] & 1u))
            return spec_error(why, len, "technique '%s' is not implemented on the fused kernel "
                                        "(its propagation does ns, hs, lc; fast+ takes nt2, "
                                        "nt3, nt4, ht2, ht3, ht4, xw, sf, jf, sky, kite, xy, "
                                        "xyz, ww, col, xc; nt, ht)",
                              sb_techniques(NULL)[plan.steps[i]].name);
    memset(out, 0, sizeof *out);
    out->nsteps = plan.nsteps;
    memcpy(out->steps, plan.steps, sizeof out->steps);
    return SB_OK;
}

int sb_spec_parse(const sb_options *opt, const char *text, sb_spec_parsed *out, char *why,
                  size_t len)
{
    sb_fast_tech ft = {0};
    const int fastplus = text && !strncmp(text, SB_FAST_PLUS, strlen(SB_FAST_PLUS));
    if (fastplus && sb_fast_parse(opt, text, &ft, why, len) != SB_OK)
        return SB_ERR_PIPELINE;
    const int fast = fastplus || (text && !strcmp(text, "fast"));
    sb_plan plan;
    const tech_names tn = {opt ? opt->techniques : NULL, opt ? opt->ntechniques : 0};
    if (plan_parse(fast ? SB_FAST_GENERIC : text, tn, &plan, why, len) != SB_OK)
        return SB_ERR_PIPELINE;
    /* fast+T's generic plan (candidate solves, enumeration): fast's, then T */
    if (plan.nsteps + ft.nsteps > SB_SPEC_MAX)
        return spec_error(why, len, "more than " SB_SPEC_MAX_TEXT " technique steps");
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->fast = fast;
    out->tech = fastplus;
    out->ft_nsteps = ft.nsteps;
    memcpy(out->ft_steps, ft.steps, sizeof out->ft_steps);
    memcpy(plan.steps + plan.nsteps, ft.steps, (size_t)ft.nsteps);
    out->order = plan.order;
    out->nsteps = plan.nsteps + ft.nsteps;
    memcpy(out->steps, plan.steps, sizeof out->steps);
    return SB_OK;
}

const sb_spec_parsed *sb_options_parsed(const sb_options *opt)
{
    const sb_spec_parsed *p = opt ? (const sb_spec_parsed *)(const void *)opt->parsed : NULL;
    return p && p->valid && p->pipeline == opt->pipeline && p->spec == opt->spec &&
                   p->techniques == opt->techniques && p->ntechniques == opt->ntechniques
               ? p
               : NULL;
}

void sb_spec_plan(const sb_spec_parsed *p, sb_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->order = (sb_order)p->order;
    plan->nsteps = p->nsteps;
    memcpy(plan->steps, p->steps, sizeof plan->steps);
}

int sb_pipeline_check(const char *spec)
{
    /* A spec only: a registry name is not one (sb_options_pipeline looks names up first). */
    return sb_pipeline_find(spec) >= 0 ? SB_ERR_PIPELINE : sb_options_explain(NULL, spec, NULL, 0);
}

int sb_pipeline_explain(const char *spec, char *why, size_t len)
{
    return sb_options_explain(NULL, spec, why, len);
}

int sb_options_explain(const sb_options *opt, const char *spec, char *why, size_t len)
{
    sb_plan plan;
    if (why && len)
        why[0] = '\0';
    if (sb_pipeline_find(spec) >= 0)
        return SB_OK;
    if (spec && !strncmp(spec, SB_FAST_PLUS, strlen(SB_FAST_PLUS))) {
        sb_fast_tech ft;
        return sb_fast_parse(opt, spec, &ft, why, len);
    }
    const tech_names tn = {opt ? opt->techniques : NULL, opt ? opt->ntechniques : 0};
    return plan_parse(spec, tn, &plan, why, len);
}

/* ------------------------------------------------------------------------------------------ */
/* The 9x9 stamp of technique.h                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Hook context of the 9x9 generic search: the plan, where its work is counted, and the
 * scheduled eliminations and snapshot technique.h works in. */
typedef struct gen_ctx {
    const sb_plan *plan;            /* the pipeline */
    sb_technique_counts *counts;    /* SB_TECH_SLOTS counters */
    const uint16_t *marks;          /* candidates to start from (sb_solve_candidates), or
                                       NULL: start from the puzzle's givens */
    uint16_t emask[SB_CELLS];       /* digits scheduled to leave each cell; zero when made */
    uint64_t etouched[2];           /* cells with a non-zero emask (bit c%64 of word c/64) */
    uint16_t snap[SB_CELLS];        /* the list order's snapshot */
    sb_board *stack;                /* the DFS's SB_STACK_DEPTH boards (NULL elsewhere) */
} gen_ctx;

/* The cells of row r in stack k; of column c in band k; the line n after v in its band or
 * stack; the band or stack n after k. */
#define LC_R(r, k) 9 * (r) + 3 * (k), 9 * (r) + 3 * (k) + 1, 9 * (r) + 3 * (k) + 2
#define LC_C(c, k) 27 * (k) + (c), 27 * (k) + 9 + (c), 27 * (k) + 18 + (c)
#define LC_NEXT(v, n) (3 * ((v) / 3) + ((v) % 3 + (n)) % 3)
#define LC_ROT(k, n) (((k) + (n)) % 3)
/* A line and the box of its k-th third; the same cells for the box and that line, the others
 * swapped. */
#define LC_ROW(r, k) {LC_R(r, k), LC_R(r, LC_ROT(k, 1)), LC_R(r, LC_ROT(k, 2)), \
                      LC_R(LC_NEXT(r, 1), k), LC_R(LC_NEXT(r, 2), k)}
#define LC_COL(c, k) {LC_C(c, k), LC_C(c, LC_ROT(k, 1)), LC_C(c, LC_ROT(k, 2)), \
                      LC_C(LC_NEXT(c, 1), k), LC_C(LC_NEXT(c, 2), k)}
#define LC_BOX_ROW(r, k) {LC_R(r, k), LC_R(LC_NEXT(r, 1), k), LC_R(LC_NEXT(r, 2), k), \
                          LC_R(r, LC_ROT(k, 1)), LC_R(r, LC_ROT(k, 2))}
#define LC_BOX_COL(c, k) {LC_C(c, k), LC_C(LC_NEXT(c, 1), k), LC_C(LC_NEXT(c, 2), k), \
                          LC_C(c, LC_ROT(k, 1)), LC_C(c, LC_ROT(k, 2))}
#define LC_BOXR(b, i) LC_BOX_ROW(3 * ((b) / 3) + (i), (b) % 3) /* box b, its row i */
#define LC_BOXC(b, j) LC_BOX_COL(3 * ((b) % 3) + (j), (b) / 3) /* box b, its column j */
#define LC_LINE3(M, v) M(v, 0), M(v, 1), M(v, 2)
#define LC_BOX(b) \
    LC_BOXR(b, 0), LC_BOXR(b, 1), LC_BOXR(b, 2), LC_BOXC(b, 0), LC_BOXC(b, 1), LC_BOXC(b, 2)
/* Locked candidates' partners on 9x9, as technique.h reads them: per partner, 15 cells (the 3
 * shared, the house's 6 others, the partner's 6 others). Partners 3r+k: row r and box k of its
 * band; 27+3c+k: column c and box k of its stack; 54+6b+i (i < 3): box b and its row i;
 * 54+6b+3+j: box b and its column j. Constant data, so every bound is known when compiling. */
static const uint8_t lc_cells[108][15] = {
    LC_LINE3(LC_ROW, 0), LC_LINE3(LC_ROW, 1), LC_LINE3(LC_ROW, 2), LC_LINE3(LC_ROW, 3),
    LC_LINE3(LC_ROW, 4), LC_LINE3(LC_ROW, 5), LC_LINE3(LC_ROW, 6), LC_LINE3(LC_ROW, 7),
    LC_LINE3(LC_ROW, 8), LC_LINE3(LC_COL, 0), LC_LINE3(LC_COL, 1), LC_LINE3(LC_COL, 2),
    LC_LINE3(LC_COL, 3), LC_LINE3(LC_COL, 4), LC_LINE3(LC_COL, 5), LC_LINE3(LC_COL, 6),
    LC_LINE3(LC_COL, 7), LC_LINE3(LC_COL, 8), LC_BOX(0), LC_BOX(1), LC_BOX(2), LC_BOX(3),
    LC_BOX(4), LC_BOX(5), LC_BOX(6), LC_BOX(7), LC_BOX(8)};

#define TQ_MASK uint16_t
#define TQ_CELL uint8_t
#define TQ_CTX gen_ctx
#define TQ_BOARD sb_board
#define TQ_NMAX SB_DIGITS
#define TQ_CELLS_MAX SB_CELLS
#define TQ_N(x) SB_DIGITS
#define TQ_ALL(x) SB_ALL_DIGITS
#define TQ_NCELLS(x) SB_CELLS
#define TQ_NHOUSES(x) SB_HOUSES
#define TQ_HOUSE(x, h) (sb_peer_tables_data.house_cells[h])
#define TQ_GROUP_END(x, h0) ((h0) + SB_DIGITS) /* rows, then columns, then boxes */
#define TQ_PEERS(x, c) (sb_peer_tables_data.peers[c])
#define TQ_NPEERS(x, c) SB_PEERS
#define TQ_EMASK(x) ((x)->emask)
#define TQ_ETOUCHED(x) ((x)->etouched)
#define TQ_EWORDS(x) 2
#define TQ_SNAP(x) ((x)->snap)
#define TQ_COUNTS(x) ((x)->counts)
#define TQ_LP_BEGIN(x, h) ((h) < 18 ? 3 * (h) : 6 * (h) - 54)
#define TQ_LP_END(x, h) TQ_LP_BEGIN(x, (h) + 1)
#define TQ_LP_BASE(x) (&lc_cells[0][0])
#define TQ_LP_AT(x, j, i) (15 * (j) + ((i) == 0 ? 0 : (i) == 1 ? 3 : (i) == 2 ? 9 : 15))
#define TQ_POPCOUNT(m) ((int)sb_popcount9[m])
#define TQ_HALT(x) 0
#define TQ_EXT(x) ((x)->plan->ext)
#define TQ_CAND(b) ((b)->cand)
#define TQ_ASSIGNED(x, b, c) (((b)->assigned[(c) / 16] >> ((c) % 16)) & 1)
#define TQ_MARK(x, b, c) ((b)->assigned[(c) / 16] |= (uint16_t)(1u << ((c) % 16)), (b)->nsolved++)
#define TQ_LINES(x) 1
#define TQ_LINE0(x, f) (SB_DIGITS * (f)) /* rows 0..8, columns 9..17 */
#define TQ_LINE_OF(x, f, c) ((f) ? (c) % SB_DIGITS : (c) / SB_DIGITS)
/* The whole-board techniques' scratch on the stack: a 9x9 board's is small. */
#define TQ_WORK(x, w)                                                                      \
    int w##_iw[TQ_IWORK_INTS(x)];                                                          \
    uint64_t w##_seen[4] = {0};                                                            \
    tq_work w = {w##_iw, w##_seen}
#include "technique.h"

int sb_technique_step(int technique, uint16_t cand[SB_CELLS], sb_technique_counts *counts)
{
    sb_technique_counts scratch[SB_TECH_COUNT];
    if (technique < 0 || technique >= SB_TECH_COUNT || !cand)
        return SB_ERR_ARG;
    for (int c = 0; c < SB_CELLS; c++)
        if (cand[c] & ~SB_ALL_DIGITS)
            return SB_ERR_ARG;
    memset(scratch, 0, sizeof scratch);
    gen_ctx x = {.counts = scratch};
    int changed = 0;
    const int ok = tq_sweep(&x, cand, technique, 0, &changed);
    if (counts) {
        counts->applications += scratch[technique].applications;
        counts->placements += scratch[technique].placements;
        counts->eliminations += scratch[technique].eliminations;
        counts->calls += scratch[technique].calls;
    }
    return !ok ? SB_STEP_CONTRADICTION : changed ? SB_STEP_CHANGED : SB_STEP_UNCHANGED;
}

/* Runs the plan's order to its fixpoint on board b. @return 0 on contradiction, else 1. */
static int run_plan(gen_ctx *x, sb_board *b)
{
    return tq_plan(x, x->plan, b->cand, 0);
}

/* The search (search.h) on 9x9 boards. */
#define SB_SEARCH_CTX gen_ctx
#define SRCH_BOARD sb_board
#define SRCH_MASK uint16_t
#include "search/search.h"
#include "kernel/branch.h"

/* The root board b from the givens of puzzle (or x->marks), propagated. @return 0 on
 * contradiction. */
static int gen_load(gen_ctx *x, sb_board *b, const sb_grid *puzzle)
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
        given[c / 64] |= (uint64_t)tq_single(m) << (c % 64);
    }
    for (int c = 0; c < SB_CELLS; c++)
        if ((given[c / 64] >> (c % 64) & 1) && (!b->cand[c] || !tq_assign(x, b, c, b->cand[c])))
            return 0;
    return run_plan(x, b);
}

static int srch_solved(gen_ctx *x, const sb_board *b)
{
    (void)x;
    return b->nsolved == SB_CELLS;
}

static int srch_choose(gen_ctx *x, const sb_board *b, uint64_t guesses)
{
    (void)guesses; /* the cell rule throughout */
    return tq_choose(x, b);
}

/* The fast kernels' first digit (branch.h), so every 9x9 pipeline searches alike. */
static inline uint16_t srch_first(gen_ctx *x, const sb_board *b, int c, uint16_t m)
{
    (void)x;
    return sbk_first_scalar(b, c, m);
}

static int srch_take(gen_ctx *x, sb_board *b, int c, uint16_t d)
{
    return tq_assign(x, b, c, d) && run_plan(x, b);
}

static int srch_drop(gen_ctx *x, sb_board *b, int c, uint16_t d)
{
    b->cand[c] &= (uint16_t)~d;
    return b->cand[c] && run_plan(x, b);
}

/* Both engines keep the board cell-major. */
static inline uint16_t srch_cell(gen_ctx *x, const sb_board *b, int c)
{
    (void)x;
    return b->cand[c];
}

static inline sb_board *srch_at(gen_ctx *x, size_t depth)
{
    return &x->stack[depth];
}

static inline sb_board *srch_push(gen_ctx *x, size_t depth)
{
    return srch_push_copy(x->stack, depth);
}

static inline void srch_solution(gen_ctx *x, const sb_board *b, uint8_t *out)
{
    srch_cells_digits(x, b, SB_CELLS, out);
}

/* The pipelines' searches: search.h's 9x9 entries. */
static int gen_dfs(gen_ctx *x, const sb_grid *puzzle, uint64_t limit, sb_search_run *run)
{
    return srch_dfs_count(x, gen_load(x, &x->stack[0], puzzle), limit, run);
}

static int gen_bfs(gen_ctx *x, sb_board **ring, size_t *ring_len, size_t cap,
                   const sb_grid *puzzle, uint64_t limit, sb_search_run *run)
{
    sb_board root;
    return srch_bfs_count(x, &root, gen_load(x, &root, puzzle), ring, ring_len, cap, limit, run);
}

void sb_generic_dfs(const sb_plan *plan, sb_technique_counts *counts, sb_board *stack,
                    const sb_grid *puzzle, const uint16_t *marks, uint64_t limit,
                    sb_search_run *run)
{
    gen_ctx x = {.plan = plan, .counts = counts, .marks = marks, .stack = stack};
    run->status = gen_dfs(&x, puzzle, limit, run);
}

int sb_generic_bfs(const sb_plan *plan, sb_technique_counts *counts, sb_board **ring,
                   size_t *ring_len, size_t cap, const sb_grid *puzzle, const uint16_t *marks,
                   uint64_t limit, sb_search_run *run)
{
    gen_ctx x = {.plan = plan, .counts = counts, .marks = marks};
    return gen_bfs(&x, ring, ring_len, cap, puzzle, limit, run);
}

int sb_generic_root(const sb_plan *plan, sb_technique_counts *counts, const sb_grid *puzzle,
                    const uint16_t *marks, sb_board *b)
{
    gen_ctx x = {.plan = plan, .counts = counts, .marks = marks};
    return gen_load(&x, b, puzzle) ? tq_complete(&x, b->cand) : 0;
}

int sb_candidates_givens(const uint16_t cand[SB_CELLS], sb_grid *givens)
{
    uint16_t implied[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++) {
        const unsigned m = cand[c] & SB_ALL_DIGITS;
        givens->cell[c] = (uint8_t)(m && !(m & (m - 1)) ? __builtin_ctz(m) + 1 : 0);
    }
    sb_grid_candidates(givens, implied);
    /* A digit beyond implied[c] repeats a given peer: keeping it adds no solution. */
    int plain = 1;
    for (int c = 0; c < SB_CELLS; c++)
        plain &= (cand[c] & implied[c]) == implied[c];
    return plain;
}


/* ------------------------------------------------------------------------------------------ */
/* Rating                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The technique set of each class below SB_CLASS_SEARCH, run in restart order; each class adds
 * one family (docs/strategies.md "Rating": sky and kite are X-chains of three links, so they
 * rate as chains, not fish). */
static const char *const class_specs[SB_CLASS_SEARCH] = {
    "restart:ns", "restart:ns,hs", "restart:ns,hs,lc", "restart:ns,hs,lc,nt,ht",
    "restart:ns,hs,lc,nt,ht,xw,sf,jf", "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww",
    "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc"};
static const char *const class_names[SB_CLASS_COUNT] = {
    "singles", "hidden", "locked", "tuples", "fish", "wings", "chains", "search"};

const char *sb_class_spec(int cls)
{
    return class_specs[cls];
}

const char *sb_class_name(int cls)
{
    return cls >= 0 && cls < SB_CLASS_COUNT ? class_names[cls] : "?";
}

/* Runs class cls's technique set from the givens of puzzle (or the candidates marks), counting
 * into counts (reset first). @return 1 when it completes the grid. */
static int rate_run(int cls, const sb_grid *puzzle, const uint16_t *marks,
                    sb_technique_counts counts[SB_TECH_COUNT])
{
    sb_plan plan;
    sb_board b;
    sb_plan_parse(class_specs[cls], &plan);
    memset(counts, 0, SB_TECH_COUNT * sizeof *counts);
    return sb_generic_root(&plan, counts, puzzle, marks, &b) == 1;
}

/* Rates from the givens of puzzle, or from the candidates marks when not NULL (sb_rate,
 * sb_rate_candidates; arguments already checked). */
static void rate_from(const sb_grid *puzzle, const uint16_t *marks, sb_rating *out)
{
    memset(out, 0, sizeof *out);
    for (int cls = 0; cls < SB_CLASS_FISH; cls++)
        if (rate_run(cls, puzzle, marks, out->counts)) {
            out->cls = (sb_class)cls;
            return;
        }
    /* The whole-board classes: the largest set first, as sb_grater does. A fixpoint of more
     * techniques holds fewer candidates, so when chains cannot complete the grid neither can
     * fish or wings, and a puzzle that needs search (most of a hard corpus) costs one run
     * more than before; its counters are chains'. */
    sb_technique_counts top[SB_TECH_COUNT];
    out->cls = SB_CLASS_SEARCH;
    if (!rate_run(SB_CLASS_CHAINS, puzzle, marks, top)) {
        memcpy(out->counts, top, sizeof top);
        return;
    }
    for (int cls = SB_CLASS_FISH; cls < SB_CLASS_CHAINS; cls++)
        if (rate_run(cls, puzzle, marks, out->counts)) {
            out->cls = (sb_class)cls;
            return;
        }
    out->cls = SB_CLASS_CHAINS;
    memcpy(out->counts, top, sizeof top);
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
    for (int c = 0; c < SB_CELLS; c++)
        if (cand[c] & ~SB_ALL_DIGITS)
            return SB_ERR_ARG;
    /* Candidates that keep all their givens allow are that puzzle: rated as sb_rate does
     * (a blank cell's lone candidate is found by a technique there, not given). */
    sb_grid givens;
    rate_from(&givens, sb_candidates_givens(cand, &givens) ? NULL : cand, out);
    return SB_OK;
}
