/*
 * fuzz_api.c — libFuzzer target: sequences of C API calls decoded from the input, arguments
 * included, NULL handles and pointers, cells and digits out of range, bad sizes and counts,
 * NaN and infinite durations among them (the misuse test, tests/test_misuse.c, names each
 * refusal; this drives them in any order and on any state).
 *
 * Input: a run of operations, each an opcode byte and the bytes its arguments take (missing
 * bytes read as zero; at most MAX_OPS operations). The state is one of each object: a
 * geometry (NULL: 9x9), options, a 9x9 solver, a general solver, an engine, a generic
 * pipeline, a rater, a bench set, a 9x9 reader and a reader of the geometry over bytes taken
 * from the input. Every solve runs under a guess budget (at most BUDGET) with a limit of at
 * most 2, and a bench pass is timed for at most 1e-6 s, so no input runs long.
 * Invariants: no crash, leak or undefined behaviour; a call given a NULL it needs, or a value
 * its header line names as out of range, returns exactly its documented refusal (SB_ERR_ARG,
 * or the failure value of a function without a status); every other status is one the
 * header documents for that call.
 */
#include <math.h>

#include "app/app.h" /* sb_buf and sb_text_lines: the programs' layer, linked in too */
#include "fuzz_util.h"

enum {
    MAX_OPS = 64,     /* operations per input */
    BUDGET = 1000,    /* most guesses of any one solve */
    MAX_BENCH = 8,    /* most puzzles in the bench set */
    TEXT_MAX = 256,   /* most bytes a reader is given */
    BIG_CELLS = 4096  /* room for the cells of any geometry the specs below make */
};

/* The input, read from the front. */
typedef struct in {
    const uint8_t *p;
    size_t n, at;
} in;

static uint8_t u8(in *x)
{
    return x->at < x->n ? x->p[x->at++] : 0;
}

static uint32_t u32(in *x)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)u8(x) << (8 * i);
    return v;
}

/* A choice among n values. */
#define PICK(x, table) ((table)[u8(x) % (sizeof(table) / sizeof *(table))])

/* An int: often a small one near the edges of a range, sometimes any 32-bit value. */
static int any_int(in *x)
{
    static const int edges[] = {0, 1, 2, -1, 3, 8, 9, 15, 16, 80, 81, 64, 65, INT32_MAX,
                                INT32_MIN, 1000, 4095, 4096};
    const uint8_t k = u8(x);
    return k < 200 ? edges[k % (sizeof edges / sizeof *edges)] : (int)u32(x);
}

/* A size: small, or one whose arrays cannot exist. */
static size_t any_size(in *x)
{
    static const size_t sizes[] = {0, 1, 2, 3, SIZE_MAX, SIZE_MAX / SB_CELLS + 1,
                                   SIZE_MAX / 16 + 1, SIZE_MAX / 2 + 1};
    return PICK(x, sizes);
}

/* 1 with probability about 1/8: the next pointer argument is NULL. */
static int null_next(in *x)
{
    return u8(x) % 8 == 0;
}

typedef struct state {
    sb_geometry *geo;     /* NULL: 9x9 */
    int ncells, ndigits;  /* of geo (81, 9 for 9x9) */
    sb_options opt;       /* budget at most BUDGET, limit at most 2 */
    sb_solver *solver;
    sb_gsolver *gs;
    sb_engine *eng;
    sb_gpipeline *gp;
    sb_grater *rater;
    sb_bench *bench;
    sb_reader *reader;
    sb_reader *greader;
    FILE *rf, *gf;                    /* the readers' streams */
    char rtext[TEXT_MAX], gtext[TEXT_MAX]; /* their bytes */
    uint8_t cells[BIG_CELLS], out[BIG_CELLS];
} state;

/* The geometry the state's calls take: its own, or the 9x9 grid when it has none. */
static const sb_geometry *api_geo(const state *s)
{
    return s->geo ? s->geo : sb_geometry_9x9();
}

/* Frees what depends on the geometry. */
static void drop_geometry_users(state *s)
{
    sb_gsolver_free(s->gs);
    sb_engine_free(s->eng);
    sb_gpipeline_free(s->gp);
    sb_grater_free(s->rater);
    sb_bench_free(s->bench);
    sb_reader_close(s->greader);
    if (s->gf)
        fclose(s->gf);
    s->gs = NULL, s->eng = NULL, s->gp = NULL, s->rater = NULL, s->bench = NULL;
    s->greader = NULL, s->gf = NULL;
}

/* Fills s->cells with the geometry's cells from the input: mostly 0..N, sometimes above. */
static int fill_cells(state *s, in *x)
{
    const uint8_t mode = u8(x);
    int over = 0;
    for (int c = 0; c < s->ncells; c++) {
        const uint8_t b = u8(x);
        uint8_t v = (uint8_t)(b % (s->ndigits + 1));
        if (mode % 16 == 0 && b % 17 == 0)
            v = (uint8_t)(s->ndigits + 1 + b % 200); /* out of range */
        over |= v > s->ndigits;
        s->cells[c] = v;
    }
    return over;
}

static void op_geometry(state *s, in *x)
{
    static const char *const specs[] = {"2x2", "2x3", "3x3", "latin:4", "cube:2", "x:2x2",
                                        "1x1", "1x2", "bogus", NULL};
    drop_geometry_users(s);
    sb_geometry_free(s->geo);
    s->geo = NULL;
    const char *spec = PICK(x, specs);
    char why[SB_GEO_WHY_LEN];
    const int st = sb_geometry_parse(spec, u8(x) % 2 ? &s->geo : NULL, why, sizeof why);
    FUZZ_CHECK(st == SB_OK || st == SB_ERR_ARG, "sb_geometry_parse: %d", st);
    s->ncells = s->geo ? sb_geometry_cells(s->geo) : SB_CELLS;
    s->ndigits = s->geo ? sb_geometry_digits(s->geo) : SB_DIGITS;
    FUZZ_CHECK(s->ncells >= 1 && s->ncells <= BIG_CELLS, "cells %d", s->ncells);
}

static void op_options(state *s, in *x)
{
    static const int pipelines[] = {0, 1, 2, 3, 4, 5, 6, 99, -5, SB_PIPELINE_CUSTOM};
    static const char *const specs[] = {"fast", "list:ns,hs", "restart:", "fast+xw",
                                        "array:nt", "bogus", NULL};
    static const int simds[] = {SB_SIMD_AUTO, 0, 1, 2, 3, 4, 5, 99, -7};
    static const size_t caps[] = {0, 1, 64, 4096};
    static const uint64_t budgets[] = {0, 10, BUDGET};
    sb_options_default(null_next(x) ? NULL : &s->opt);
    s->opt.limit = u8(x) % 3;
    s->opt.pipeline = PICK(x, pipelines);
    s->opt.spec = PICK(x, specs);
    s->opt.simd = PICK(x, simds);
    s->opt.search = u8(x) % 3; /* 2: no mode */
    s->opt.bfs_cap = PICK(x, caps);
    s->opt.max_guesses = PICK(x, budgets);
    s->opt.pair = u8(x) % 4; /* 3: no policy */
    const char *name = PICK(x, specs);
    sb_options o = s->opt;
    const int st = sb_options_pipeline(null_next(x) ? NULL : &o, name);
    FUZZ_CHECK(st == SB_OK || st == SB_ERR_PIPELINE || st == SB_ERR_ARG, "pipeline %d", st);
    FUZZ_CHECK(name || st == SB_ERR_ARG, "NULL name: %d", st);
}

static void op_solver(state *s, in *x)
{
    sb_solver_free(s->solver);
    s->solver = NULL;
    const int nout = null_next(x), nopt = null_next(x);
    const int st = sb_solver_new(nout ? NULL : &s->solver, nopt ? NULL : &s->opt);
    FUZZ_CHECK(!(nout || nopt) || st == SB_ERR_ARG, "NULL to sb_solver_new: %d", st);
    FUZZ_CHECK(st == SB_OK || st == SB_ERR_ARG || st == SB_ERR_PIPELINE || st == SB_ERR_SIMD,
               "sb_solver_new: %d", st);
    FUZZ_CHECK((st == SB_OK) == (s->solver != NULL), "solver and status disagree");
    const int level = sb_solver_simd(s->solver);
    FUZZ_CHECK(s->solver ? level >= 0 : level == SB_ERR_ARG, "level %d", level);
}

static void op_solve(state *s, in *x)
{
    sb_grid g;
    sb_result res[4];
    int st[4];
    const int was = s->ncells;
    s->ncells = SB_CELLS, s->ndigits = SB_DIGITS; /* 9x9 calls */
    const int over = fill_cells(s, x);
    memcpy(g.cell, s->cells, SB_CELLS);
    const uint8_t which = u8(x) % 4;
    const int nul = null_next(x);
    if (which == 0) {
        const int rc = sb_solve(s->solver, nul ? NULL : &g, res);
        FUZZ_CHECK(s->solver && !nul && !over ? rc != SB_ERR_ARG : rc == SB_ERR_ARG,
                   "sb_solve: %d", rc);
        FUZZ_CHECK(rc <= 0 && rc != SB_ERR_IO && rc != SB_ERR_THREADS, "sb_solve: %d", rc);
    } else if (which == 1) {
        const sb_grid many[3] = {g, g, g};
        const size_t n = u8(x) % 4;
        const int rc = sb_solve_many(s->solver, nul ? NULL : many, n, res, st);
        FUZZ_CHECK(s->solver && (!nul || n == 0) ? rc == SB_OK : rc == SB_ERR_ARG,
                   "sb_solve_many: %d", rc);
        for (size_t i = 0; rc == SB_OK && i < n; i++)
            FUZZ_CHECK(over == (st[i] == SB_ERR_ARG), "row %zu: %d", i, st[i]);
    } else if (which == 2) {
        uint16_t cand[SB_CELLS];
        for (int c = 0; c < SB_CELLS; c++)
            cand[c] = (uint16_t)(u8(x) | (u8(x) % 4 == 0 ? (uint16_t)u8(x) << 8 : 0));
        int bad = 0;
        for (int c = 0; c < SB_CELLS; c++)
            bad |= (cand[c] & ~SB_ALL_DIGITS) != 0;
        const int rc = sb_solve_candidates(s->solver, nul ? NULL : cand, res);
        FUZZ_CHECK(s->solver && !nul && !bad ? rc != SB_ERR_ARG : rc == SB_ERR_ARG,
                   "sb_solve_candidates: %d", rc);
        sb_rating rt;
        const int rr = sb_rate_candidates(nul ? NULL : cand, &rt);
        FUZZ_CHECK(rr == (nul || bad ? SB_ERR_ARG : SB_OK), "sb_rate_candidates: %d", rr);
        const int tech = any_int(x);
        const int ts = sb_technique_step(tech, nul ? NULL : cand, NULL);
        const int fine = tech >= 0 && tech < SB_TECH_COUNT && !nul && !bad;
        FUZZ_CHECK(fine ? ts >= -1 && ts <= 1 : ts == SB_ERR_ARG, "step %d: %d", tech, ts);
    } else {
        sb_rating rt;
        const int rr = sb_rate(nul ? NULL : &g, &rt);
        FUZZ_CHECK(rr == (nul || over ? SB_ERR_ARG : SB_OK), "sb_rate: %d", rr);
        FUZZ_CHECK(sb_result_verdict(NULL) == SB_UNSOLVABLE, "verdict of NULL");
    }
    s->ncells = was;
    s->ndigits = s->geo ? sb_geometry_digits(s->geo) : SB_DIGITS;
}

static void op_bench(state *s, in *x)
{
    static const double seconds[] = {0, 1e-6, -0.0, NAN, INFINITY, -INFINITY, -1, 1e300,
                                     SB_BENCH_MAX_SECONDS + 1.0};
    static const int threads[] = {1, 2, 0, -1, INT32_MIN};
    const uint8_t what = u8(x) % 8;
    if (what == 0 || !s->bench) {
        sb_bench_free(s->bench);
        s->bench = NULL;
        const int st = sb_bench_new(api_geo(s), null_next(x) ? NULL : &s->bench);
        FUZZ_CHECK(st == SB_OK || (st == SB_ERR_ARG && !s->bench), "sb_bench_new: %d", st);
        return;
    }
    const size_t n = sb_bench_size(s->bench);
    if (what == 1) {
        const int over = fill_cells(s, x), form = u8(x) % 3, nul = null_next(x);
        const int st = n >= MAX_BENCH ? SB_ERR_ARG
                                      : sb_bench_add_at(s->bench, nul ? NULL : s->cells, form,
                                                        u8(x));
        /* 9x9 sets keep no form and ignore it; other geometries refuse a form past INTS */
        const int bad_form = form > 1 && s->geo;
        FUZZ_CHECK(n >= MAX_BENCH || st == (nul || over || bad_form ? SB_ERR_ARG : SB_OK),
                   "sb_bench_add_at: %d", st);
    } else if (what == 2) {
        sb_options o = s->opt;
        const int t = PICK(x, threads), nul = null_next(x);
        const int was = sb_bench_simd(s->bench);
        const int st = sb_bench_prepare(s->bench, nul ? NULL : &o, t);
        const int level = sb_bench_simd(s->bench);
        if (nul || t < 1) /* refused: the set is as it was */
            FUZZ_CHECK(st == SB_ERR_ARG && level == was, "sb_bench_prepare: %d", st);
        else /* made, or unprepared after a failure */
            FUZZ_CHECK(st == SB_OK ? level >= 0 : level == SB_ERR_ARG, "simd %d after %d",
                       level, st);
    } else if (what == 3) {
        const double sec = PICK(x, seconds);
        uint64_t passes = 0;
        double took = 0;
        const int nul = null_next(x);
        const int st = sb_bench_time(s->bench, sec, nul ? NULL : &passes, &took);
        const int valid = sec >= 0 && sec <= SB_BENCH_MAX_SECONDS && !nul;
        const int prepared = sb_bench_simd(s->bench) >= 0;
        FUZZ_CHECK(valid && prepared ? st == SB_OK || st == SB_ERR_NOMEM : st == SB_ERR_ARG,
                   "sb_bench_time(%g): %d", sec, st);
        FUZZ_CHECK(st != SB_OK || passes >= 1, "no pass");
    } else if (what == 4) {
        uint8_t v[MAX_BENCH];
        sb_bench_warmup w;
        const int nul = null_next(x);
        const int st = sb_bench_warm(s->bench, nul ? NULL : v, &w);
        const int prepared = sb_bench_simd(s->bench) >= 0;
        FUZZ_CHECK(prepared && (!nul || n == 0) ? st == SB_OK || st == SB_ERR_NOMEM
                                                : st == SB_ERR_ARG,
                   "sb_bench_warm: %d", st);
        FUZZ_CHECK(st != SB_OK || w.wrong == n, "puzzle %zu of %zu broke the rules", w.wrong, n);
    } else if (what == 5) {
        const size_t i = u8(x) % 12 == 0 ? SIZE_MAX : u8(x) % (MAX_BENCH + 2);
        char text[TEXT_MAX];
        const size_t cap = u8(x) % 3 == 0 ? 5 : sizeof text;
        const size_t len = sb_bench_text(s->bench, i, null_next(x) ? NULL : text, cap);
        FUZZ_CHECK(i < n || len == 0, "text of puzzle %zu of %zu", i, n);
        FUZZ_CHECK(len < cap, "length %zu, room %zu", len, cap);
        memset(s->out, 0xEE, (size_t)s->ncells);
        sb_bench_puzzle(s->bench, i, s->out);
        FUZZ_CHECK(i < n || s->out[0] == 0xEE, "puzzle %zu of %zu copied", i, n);
        const int form = sb_bench_form(s->bench, i);
        FUZZ_CHECK(i < n ? form == SB_GFORM_CHARS || form == SB_GFORM_INTS : form == SB_ERR_ARG,
                   "form %d", form);
        FUZZ_CHECK(i < n || sb_bench_line(s->bench, i) == 0, "line past the end");
        sb_bench_before(s->bench, u8(x));
    } else {
        sb_bench_truncate(u8(x) % 2 ? s->bench : NULL, u8(x) % (MAX_BENCH + 1));
    }
}

/* Opens a reader (9x9 or of the geometry) over the next bytes of the input. */
static void open_reader(state *s, in *x, int geometry)
{
    char *text = geometry ? s->gtext : s->rtext;
    FILE **f = geometry ? &s->gf : &s->rf;
    size_t len = u8(x) % TEXT_MAX;
    if (len > x->n - x->at)
        len = x->n - x->at;
    memcpy(text, x->p + x->at, len);
    x->at += len;
    if (geometry)
        sb_reader_close(s->greader), s->greader = NULL;
    else
        sb_reader_close(s->reader), s->reader = NULL;
    if (*f)
        fclose(*f);
    *f = fmemopen(text, len ? len : 1, "r"); /* fmemopen refuses size 0 */
    FUZZ_CHECK(*f, "fmemopen");
    const int nul = null_next(x);
    const int st = geometry ? sb_reader_open(&s->greader, api_geo(s), nul ? NULL : *f)
                            : sb_reader_open(&s->reader, sb_geometry_9x9(), nul ? NULL : *f);
    FUZZ_CHECK(st == (nul ? SB_ERR_ARG : SB_OK), "reader open: %d", st);
}

static void op_reader(state *s, in *x)
{
    const uint8_t what = u8(x) % 6;
    if (what == 0) {
        open_reader(s, x, 0);
    } else if (what == 1) {
        open_reader(s, x, 1);
    } else if (what == 2) {
        sb_record rec;
        uint64_t cand[SB_CELLS];
        const int nul = null_next(x);
        const int st = sb_reader_next(s->reader, nul ? NULL : &rec, s->cells,
                                      u8(x) % 2 ? cand : NULL);
        FUZZ_CHECK(s->reader && !nul ? st == 0 || st == 1 : st == SB_ERR_ARG, "next: %d", st);
        FUZZ_CHECK(st != 1 || rec.kind != SB_LINE_SKIP, "a skip returned");
    } else if (what == 3) {
        sb_record rec;
        const int nul = null_next(x);
        const int st = sb_reader_next(s->greader, nul ? NULL : &rec, s->cells, NULL);
        FUZZ_CHECK(s->greader && !nul ? st == 0 || st == 1 : st == SB_ERR_ARG, "gnext: %d", st);
    } else if (what == 4) {
        uint8_t cells[3 * SB_CELLS]; /* any_size: at most 3, or too many to exist */
        size_t n = 99;
        const size_t max = u8(x) % 8 == 0 ? any_size(x) : u8(x) % 3;
        const int st = sb_reader_read_cells(s->reader, cells, max, &n, NULL);
        FUZZ_CHECK(!s->reader || max > SIZE_MAX / SB_CELLS ? st == SB_ERR_ARG : st >= 0,
                   "read_cells: %d", st);
        FUZZ_CHECK(st < 0 || n <= max, "stored %zu of %zu", n, max);
    } else {
        sb_reader_set_stop(u8(x) % 2 ? s->reader : NULL, NULL);
        sb_reader_set_stop(u8(x) % 2 ? s->greader : NULL, NULL);
        char why[SB_WHY_LEN];
        sb_grid g;
        const size_t len = u8(x) % 100;
        const sb_line_kind k = sb_parse_line(null_next(x) ? NULL : s->rtext, len, &g, why, NULL);
        FUZZ_CHECK(k == SB_LINE_PUZZLE || k == SB_LINE_SKIP || k == SB_LINE_INVALID, "kind");
    }
}

static void op_geometry_calls(state *s, in *x)
{
    const sb_geometry *g = null_next(x) ? NULL : s->geo;
    const int c = any_int(x);
    int count = -5;
    const uint16_t *p = sb_geometry_peers(g, c, &count);
    const int inside = g && c >= 0 && c < sb_geometry_cells(g);
    FUZZ_CHECK(inside ? p != NULL || count == 0 : !p && count == 0, "peers of %d", c);
    p = sb_geometry_cell_houses(g, c, u8(x) % 8 ? &count : NULL);
    FUZZ_CHECK(inside || !p, "houses of cell %d", c);
    for (int i = 0; p && i < count; i++)
        FUZZ_CHECK(p[i] < sb_geometry_houses(g), "house %d", p[i]);
    const int h = any_int(x);
    p = sb_geometry_house(g, h);
    FUZZ_CHECK((g && h >= 0 && h < sb_geometry_houses(g)) == (p != NULL), "house %d", h);
    sb_geometry_layout l;
    sb_geometry_layout_of(g, u8(x) % 8 ? &l : NULL);
    FUZZ_CHECK(g || sb_geometry_cells(g) == SB_ERR_ARG, "cells of NULL");
    FUZZ_CHECK(g || !sb_geometry_name(g), "name of NULL");

    /* the text codec */
    const int over = fill_cells(s, x);
    char out[TEXT_MAX];
    const int form = u8(x) % 3;
    const size_t outlen = u8(x) % 4 == 0 ? 0 : u8(x) % sizeof out;
    const int nul = null_next(x);
    const int w = sb_gformat(g, s->cells, form, nul ? NULL : out, outlen);
    const int refused = !g || over || form > 1 || (nul && outlen) ||
                        (form == SB_GFORM_CHARS && s->ndigits > 35);
    FUZZ_CHECK(refused ? w == SB_ERR_ARG : w >= 0, "sb_gformat: %d", w);
    if (g && w >= 0 && (size_t)w < outlen && !nul) {
        int f2;
        const int st = sb_gparse(s->geo, out, (size_t)w, s->out, &f2, NULL, 0, NULL);
        FUZZ_CHECK(st == SB_OK && !memcmp(s->out, s->cells, (size_t)s->ncells),
                   "format then parse: %d", st);
    }
    FUZZ_CHECK(sb_gsolution_check(g, NULL, null_next(x) ? NULL : s->cells) == 0 || !over,
               "a solution with a cell above N");

    /* symmetries of any n and cell */
    const int sym = any_int(x), n = any_int(x), cell = any_int(x);
    const int img = sb_symmetry_image(sym, n, cell);
    const int ok = n >= 1 && n <= SB_GEO_MAX_DIGITS && cell >= 0 && cell < n * n;
    FUZZ_CHECK(ok ? img >= 0 && img < n * n : img == SB_ERR_ARG, "image %d of %d on %d: %d",
               cell, sym, n, img);
    sb_geometry *made = NULL;
    const int st = sb_geometry_for_cells(any_int(x), u8(x) % 8 ? &made : NULL, NULL, 0);
    FUZZ_CHECK(st == SB_OK || st == SB_ERR_ARG, "for_cells: %d", st);
    sb_geometry_free(made);
}

static void op_solvers(state *s, in *x)
{
    static const uint64_t budgets[] = {0, 10, BUDGET};
    static const char *const specs[] = {"list", "restart:ns,hs,lc", "fast", "array:xw,sky",
                                        "bogus", NULL};
    const uint8_t what = u8(x) % 6;
    sb_gresult res;
    const uint64_t limit = u8(x) % 3;
    if (what == 0) {
        sb_gsolver_free(s->gs), s->gs = NULL;
        sb_engine_free(s->eng), s->eng = NULL;
        sb_gpipeline_free(s->gp), s->gp = NULL;
        sb_grater_free(s->rater), s->rater = NULL;
        const int a = sb_gsolver_new(s->geo, null_next(x) ? NULL : &s->gs);
        FUZZ_CHECK(s->gs ? a == SB_OK : a == SB_ERR_ARG, "sb_gsolver_new: %d", a);
        sb_gsolver_budget(s->gs, BUDGET);
        sb_options o = s->opt;
        const int b = sb_engine_new(api_geo(s), null_next(x) ? NULL : &o, &s->eng);
        FUZZ_CHECK(b == SB_OK || b == SB_ERR_ARG || b == SB_ERR_PIPELINE || b == SB_ERR_SIMD,
                   "sb_engine_new: %d", b);
        sb_engine_budget(s->eng, BUDGET);
        const int c = sb_gpipeline_new(s->geo, PICK(x, specs), &s->gp);
        FUZZ_CHECK(c == SB_OK || c == SB_ERR_ARG || c == SB_ERR_PIPELINE, "gpipeline: %d", c);
        sb_gpipeline_budget(s->gp, BUDGET);
        const int d = sb_grater_new(api_geo(s), null_next(x) ? NULL : &s->rater);
        FUZZ_CHECK(d == SB_OK || d == SB_ERR_ARG, "grater: %d", d);
        return;
    }
    const int over = fill_cells(s, x);
    const int nul = null_next(x);
    const uint8_t *cells = nul ? NULL : s->cells;
    int st;
    if (what == 1) {
        sb_gsolver_budget(s->gs, PICK(x, budgets));
        const int simd = any_int(x);
        const int l = sb_gsolver_simd(s->gs, simd);
        FUZZ_CHECK(s->gs ? l == SB_OK || l == SB_ERR_SIMD : l == SB_ERR_ARG, "simd: %d", l);
        sb_gsolver_techniques(s->gs, (unsigned)any_int(x));
        st = u8(x) % 2 ? sb_gsolve(s->gs, cells, limit, &res, s->out)
                       : sb_gsolve_each(s->gs, cells, limit, NULL, NULL, &res);
    } else if (what == 2) {
        sb_engine_budget(s->eng, PICK(x, budgets));
        st = sb_engine_solve(s->eng, cells, limit, null_next(x) ? NULL : &res, s->out);
        sb_technique_counts tc[SB_TECH_COUNT];
        sb_engine_counts(s->eng, u8(x) % 2 ? tc : NULL);
        sb_engine_counts_reset(u8(x) % 2 ? s->eng : NULL);
        FUZZ_CHECK(s->eng || !sb_engine_name(s->eng), "name of NULL");
        sb_engine_skipped(s->eng);
    } else if (what == 3) {
        sb_gpipeline_budget(s->gp, PICK(x, budgets));
        st = u8(x) % 2 ? sb_gpipeline_solve(s->gp, cells, limit, &res, NULL)
                       : sb_gpipeline_root(s->gp, cells);
        sb_gpipeline_skipped(s->gp);
    } else if (what == 4) {
        sb_rating rt;
        st = sb_grater_rate(s->rater, cells, &rt);
    } else {
        uint8_t in2[2 * BIG_CELLS];
        memcpy(in2, s->cells, (size_t)s->ncells);
        const int shift = u8(x) % 3; /* 0: separate, 1: overlapping, 2: the same array */
        uint8_t *out = shift == 0 ? s->out : shift == 1 ? in2 + 1 : in2;
        st = sb_gaugment(api_geo(s), u32(x), u32(x), nul ? NULL : in2, out);
        const int overlap = shift == 2 || (shift == 1 && s->ncells > 1); /* 1 cell: adjacent */
        FUZZ_CHECK(st == (nul || over || overlap ? SB_ERR_ARG : SB_OK), "sb_gaugment: %d", st);
        return;
    }
    FUZZ_CHECK(st != SB_ERR_IO && st != SB_ERR_THREADS && st <= 2, "op %d: %d", what, st);
    if (nul || over)
        FUZZ_CHECK(st == SB_ERR_ARG, "op %d on bad cells: %d", what, st);
}

static void op_batches(state *s, in *x)
{
    uint8_t cells[3 * SB_CELLS];
    const int was = s->ncells;
    s->ncells = SB_CELLS, s->ndigits = SB_DIGITS;
    const int over = fill_cells(s, x);
    s->ncells = was;
    s->ndigits = s->geo ? sb_geometry_digits(s->geo) : SB_DIGITS;
    for (int k = 0; k < 3; k++)
        memcpy(cells + k * SB_CELLS, s->cells, SB_CELLS);
    const size_t n = u8(x) % 4 == 0 ? any_size(x) : u8(x) % 4;
    const int huge = n > 3;
    const int nul = null_next(x);
    const uint8_t *in = nul ? NULL : cells;
    uint64_t counts[3];
    int8_t st8[3], classes[3];
    uint8_t out[3 * SB_CELLS];
    int st;
    switch (u8(x) % 5) {
    case 0: {
        sb_options o = s->opt;
        st = sb_solve_batch(&o, in, n, 1, counts, NULL, NULL, st8);
        FUZZ_CHECK(!((nul && n) || huge) || st == SB_ERR_ARG, "sb_solve_batch: %d", st);
        break;
    }
    case 1:
        st = sb_rate_batch(in, n, 1, classes);
        FUZZ_CHECK(((nul || over) && n) || huge ? st == SB_ERR_ARG : st == SB_OK,
                   "sb_rate_batch: %d", st);
        break;
    case 2:
        st = sb_augment_batch(in, u8(x) % 4, u32(x), u8(x) % 2 ? UINT64_MAX : 0, n, 1, out);
        FUZZ_CHECK(!huge || st == SB_ERR_ARG, "sb_augment_batch: %d", st);
        break;
    case 3: {
        sb_gen_options go;
        sb_gen_options_default(&go);
        go.max_clues = u8(x) % 2 ? SB_MIN_CLUES - 1 : SB_CELLS; /* a generation takes ms: */
        const size_t m = huge ? n : 1;                        /* run only refused ones */
        st = go.max_clues == SB_CELLS && !huge
                 ? SB_ERR_ARG
                 : sb_generate_batch(&go, 0, m, 1, out, NULL, NULL);
        FUZZ_CHECK(st == SB_ERR_ARG, "sb_generate_batch: %d", st);
        break;
    }
    default: {
        const size_t m = huge ? n : 1;
        st = sb_grate_batch(sb_geometry_9x9(), in, m, 1, classes, NULL, NULL);
        FUZZ_CHECK(nul || over || huge ? st == SB_ERR_ARG : st == SB_OK, "grate_batch: %d", st);
        break;
    }
    }
}

static void op_misc(state *s, in *x)
{
    sb_rng rng;
    sb_rng_seed(null_next(x) ? NULL : &rng, u32(x), u32(x));
    sb_transform t;
    const uint64_t index = u8(x) % 4 == 0 ? UINT64_MAX - u8(x) : u32(x);
    const int ti = sb_transform_from_index(null_next(x) ? NULL : &t, index);
    if (ti != SB_OK)
        sb_transform_identity(&t);
    if (u8(x) % 4 == 0) /* no longer a transform */
        t.cell[u8(x) % SB_CELLS] = u8(x);
    sb_grid in, out;
    const int was = s->ncells;
    s->ncells = SB_CELLS, s->ndigits = SB_DIGITS;
    fill_cells(s, x);
    s->ncells = was;
    s->ndigits = s->geo ? sb_geometry_digits(s->geo) : SB_DIGITS;
    memcpy(in.cell, s->cells, SB_CELLS);
    memset(&out, 0xEE, sizeof out);
    sb_transform_apply(&t, null_next(x) ? NULL : &in, &out);
    char text[SB_CELLS];
    sb_transform_format(&t, &in, null_next(x) ? NULL : text);
    sb_grid_format(null_next(x) ? NULL : &in, (char[SB_GRID_TEXT]){0});
    int a, b;
    sb_grid_conflict(&in, null_next(x) ? NULL : &a, &b);
    static const size_t wants[] = {0, 1, 3, 100, SIZE_MAX, SIZE_MAX / 2 + 1, SIZE_MAX - 7};
    sb_buf buf = {0};
    const size_t want = PICK(x, wants);
    const int nobuf = null_next(x);
    char *p = sb_buf_reserve(nobuf ? NULL : &buf, want);
    FUZZ_CHECK(want == 0 || !p == (nobuf || want > 100), "reserve %zu", want);
    FUZZ_CHECK(nobuf || buf.oom == (want > 100), "oom after reserving %zu", want);
    sb_buf_put(&buf, null_next(x) ? NULL : "abc", 3);
    sb_buf_printf(null_next(x) ? NULL : &buf, "%d", 5);
    sb_buf_free(&buf);
    FUZZ_CHECK(sb_text_lines(null_next(x) ? NULL : s->rtext, u8(x) % TEXT_MAX) < TEXT_MAX + 1,
               "lines");
    sb_solver_counts(s->solver, NULL);
    sb_solver_counts_reset(null_next(x) ? NULL : s->solver);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in x = {data, size, 0};
    static state s; /* large: not on the stack */
    memset(&s, 0, sizeof s);
    s.ncells = SB_CELLS, s.ndigits = SB_DIGITS;
    sb_options_default(&s.opt);
    s.opt.max_guesses = BUDGET;
    for (int i = 0; i < MAX_OPS && x.at < x.n; i++) {
        switch (u8(&x) % 11) {
        case 0: op_geometry(&s, &x); break;
        case 1: op_options(&s, &x); break;
        case 2: op_solver(&s, &x); break;
        case 3: op_solve(&s, &x); break;
        case 4: op_bench(&s, &x); break;
        case 5: op_reader(&s, &x); break;
        case 6: op_geometry_calls(&s, &x); break;
        case 7: op_solvers(&s, &x); break;
        case 8: op_batches(&s, &x); break;
        case 9: op_misc(&s, &x); break;
        default: op_reader(&s, &x); break;
        }
    }
    drop_geometry_users(&s);
    sb_geometry_free(s.geo);
    sb_solver_free(s.solver);
    sb_reader_close(s.reader);
    if (s.rf)
        fclose(s.rf);
    return 0;
}
