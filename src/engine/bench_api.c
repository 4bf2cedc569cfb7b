/*
 * bench_api.c — the throughput measurement of `sudokubench bench` as library calls, so the
 * Python binding, Google Benchmark drivers and other programs time puzzles the same way.
 *
 * A set holds the puzzles of one geometry compactly: 9x9 packed two cells a byte (41 bytes
 * instead of the 81 of an sb_grid), so multi-million-puzzle files fit and a pass streams half
 * the memory; unpacking is a few instructions per puzzle, inside the timed loop as the string
 * parsing of other solvers' benchmarks is. Other geometries keep a byte a cell.
 *
 * A row is one set of options: sb_bench_prepare makes one engine per thread for the set's
 * geometry, sb_bench_warm solves every puzzle once with each answer checked against the
 * givens and the rules, and sb_bench_time runs whole passes without checks until the time is
 * up. Both passes hand out blocks of BENCH_CHUNK puzzles on a dynamic schedule and solve a
 * block with sb_engine_solve_many, as the solve command does (the 9x9 kernels work on two
 * puzzles at once). The two steps are apart so that a caller
 * running on several processes (the CLI's MPI build) can agree on the checks in between and
 * start the timed passes together.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

enum {
    PACKED = (SB_CELLS + 1) / 2, /* bytes of a packed 9x9 puzzle: cell 2i low nibble, 2i+1 high */
    BENCH_CHUNK = 64             /* puzzles a thread takes at once: rare scheduling, fine balance */
};

/* One thread's solver of a row. */
typedef struct bsolver {
    sb_engine *e;  /* the row's engine */
    uint8_t *sol;  /* a block's first solutions, BENCH_CHUNK rows of the geometry's cells */
    sb_engine *ref; /* with technique plug-ins: fast, whose solution the warm-up holds their
                       eliminations to (NULL: none) */
    uint8_t *truth; /* ref's solution, the geometry's cells */
} bsolver;

struct sb_bench {
    const sb_geometry *g; /* NULL: 9x9 */
    size_t size;          /* bytes per puzzle: PACKED on 9x9, else the geometry's cells */
    uint8_t *data;        /* puzzles in order, size bytes each */
    uint8_t *form;        /* other geometries, with sb_bench_add_at: each puzzle's sb_gform */
    uint64_t *line;       /* each puzzle's input line, once sb_bench_add_at gave one (or NULL) */
    size_t n;             /* puzzles held */
    size_t cap;           /* room in data (and form and line) */
    sb_options opt;       /* the prepared row's options */
    bsolver *s;           /* the prepared row's solvers, one per thread (NULL: none) */
    int threads;          /* how many */
};

/* @return the bytes of one puzzle's cells: the geometry's, or 81 on 9x9 (unpacked). */
static size_t cells(const sb_bench *b)
{
    return b->g ? b->size : SB_CELLS;
}

/* One block's puzzles and results. */
typedef struct block {
    sb_grid g[BENCH_CHUNK];     /* 9x9: the unpacked puzzles */
    sb_gresult res[BENCH_CHUNK]; /* each result */
    int st[BENCH_CHUNK];        /* each solve's status */
    uint8_t wrong[BENCH_CHUNK]; /* with check: the first solution broke the rules */
    size_t why_at;              /* the first puzzle of the block a technique plug-in broke
                                   (SIZE_MAX: none), and how */
    char why[SB_PLUGIN_WHY];
} block;

int sb_bench_new(const sb_geometry *g, sb_bench **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!g)
        return SB_ERR_ARG;
    g = sb_geo_in(g); /* NULL: 9x9, packed two cells a byte */
    sb_bench *b = calloc(1, sizeof *b);
    *out = b;
    if (!b)
        return SB_ERR_NOMEM;
    b->g = g;
    b->size = g ? (size_t)sb_geometry_cells(g) : PACKED;
    return SB_OK;
}

/* Frees the prepared row's solvers. */
static void solvers_free(sb_bench *b)
{
    for (int t = 0; b->s && t < b->threads; t++) {
        sb_engine_free(b->s[t].e);
        sb_engine_free(b->s[t].ref);
        free(b->s[t].sol);
        free(b->s[t].truth);
    }
    free(b->s);
    b->s = NULL;
    b->threads = 0;
}

void sb_bench_free(sb_bench *b)
{
    if (!b)
        return;
    solvers_free(b);
    free(b->data);
    free(b->form);
    free(b->line);
    free(b);
}

/* Grows b's arrays to cap puzzles: the forms once one was given, the lines once a line was.
 * @return SB_OK or SB_ERR_NOMEM (what did grow stays). */
static int grow(sb_bench *b, size_t cap, int forms, int lines)
{
    if (cap > SIZE_MAX / b->size || cap > SIZE_MAX / sizeof *b->line)
        return SB_ERR_NOMEM; /* the arrays' sizes would wrap */
    uint8_t *q = realloc(b->data, cap * b->size);
    if (q)
        b->data = q;
    uint8_t *f = q && forms ? realloc(b->form, cap) : NULL;
    if (f)
        b->form = f;
    uint64_t *l = q && lines ? realloc(b->line, cap * sizeof *l) : NULL;
    if (l)
        b->line = l;
    if (!q || (forms && !f) || (lines && !l))
        return SB_ERR_NOMEM;
    b->cap = cap;
    return SB_OK;
}

int sb_bench_add(sb_bench *b, const uint8_t *cells)
{
    return sb_bench_add_at(b, cells, SB_GFORM_CHARS, 0);
}

int sb_bench_add_at(sb_bench *b, const uint8_t *cells, int form, uint64_t line)
{
    if (!b || !cells || (b->g && form != SB_GFORM_CHARS && form != SB_GFORM_INTS))
        return SB_ERR_ARG; /* 9x9 keeps no form: any is taken as chars */
    /* 9x9 cells are packed a nibble each: a value above 9 would not even survive packing */
    const int max = b->g ? sb_geometry_digits(b->g) : SB_DIGITS;
    const size_t ncells = b->g ? b->size : SB_CELLS;
    uint8_t over = 0;
    for (size_t c = 0; c < ncells; c++)
        over |= cells[c] > max;
    if (over)
        return SB_ERR_ARG;
    const int forms = b->g && (b->form || form != SB_GFORM_CHARS);
    const int lines = b->line || line;
    if (b->n == b->cap || (forms && !b->form) || (lines && !b->line)) {
        const int first_form = forms && !b->form, first_line = lines && !b->line;
        if (grow(b, b->n == b->cap ? (b->cap ? 2 * b->cap : 4096) : b->cap, forms, lines))
            return SB_ERR_NOMEM;
        if (first_form) /* the puzzles before were written one character a cell */
            memset(b->form, SB_GFORM_CHARS, b->n);
        if (first_line) /* and came without lines */
            memset(b->line, 0, b->n * sizeof *b->line);
    }
    if (b->form)
        b->form[b->n] = (uint8_t)form;
    if (b->line)
        b->line[b->n] = line;
    uint8_t *p = b->data + b->n++ * b->size;
    if (b->g) {
        memcpy(p, cells, b->size);
        return SB_OK;
    }
    for (int i = 0; i < SB_CELLS / 2; i++)
        p[i] = (uint8_t)(cells[2 * i] | cells[2 * i + 1] << 4);
    p[PACKED - 1] = cells[SB_CELLS - 1];
    return SB_OK;
}

size_t sb_bench_size(const sb_bench *b)
{
    return b ? b->n : 0;
}

void sb_bench_truncate(sb_bench *b, size_t n)
{
    if (b && n < b->n)
        b->n = n;
}

/* Unpacks 9x9 puzzle i of b into cells. */
static inline void unpack(const sb_bench *b, size_t i, uint8_t *cells)
{
    const uint8_t *p = b->data + i * PACKED;
    for (int k = 0; k < SB_CELLS / 2; k++) {
        cells[2 * k] = p[k] & 15;
        cells[2 * k + 1] = p[k] >> 4;
    }
    cells[SB_CELLS - 1] = p[PACKED - 1];
}

void sb_bench_puzzle(const sb_bench *b, size_t i, uint8_t *cells)
{
    if (!b || !cells || i >= b->n)
        return;
    if (b->g)
        memcpy(cells, b->data + i * b->size, b->size);
    else
        unpack(b, i, cells);
}

size_t sb_bench_text(const sb_bench *b, size_t i, char *text, size_t cap)
{
    if (!text)
        return 0;
    if (!b || i >= b->n) {
        if (cap)
            text[0] = '\0';
        return 0;
    }
    if (!b->g && cap >= SB_GRID_TEXT) {
        sb_grid g;
        unpack(b, i, g.cell);
        sb_grid_format(&g, text);
        return SB_CELLS;
    }
    const int n = b->g ? sb_gformat(b->g, b->data + i * b->size, sb_bench_form(b, i), text, cap)
                       : -1;
    if (n >= 0 && (size_t)n < cap)
        return (size_t)n;
    if (cap)
        text[0] = '\0';
    return 0;
}

int sb_bench_form(const sb_bench *b, size_t i)
{
    if (!b || i >= b->n)
        return SB_ERR_ARG;
    return b->form ? b->form[i] : SB_GFORM_CHARS;
}

uint64_t sb_bench_line(const sb_bench *b, size_t i)
{
    return b && i < b->n && b->line ? b->line[i] : 0;
}

size_t sb_bench_before(const sb_bench *b, uint64_t line)
{
    size_t lo = 0, hi = b && b->line ? b->n : 0;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (b->line[mid] < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int sb_bench_prepare(sb_bench *b, const sb_options *opt, int threads)
{
    if (!b || !opt || threads < 1)
        return SB_ERR_ARG;
    solvers_free(b);
    b->opt = *opt;
    if (!(b->s = calloc((size_t)threads, sizeof *b->s)))
        return SB_ERR_NOMEM;
    b->threads = threads;
    for (int t = 0; t < threads; t++) {
        int st = SB_ERR_NOMEM;
        if ((b->s[t].sol = malloc(BENCH_CHUNK * cells(b))))
            st = sb_engine_new(sb_geo_out(b->g), opt, &b->s[t].e);
        if (st == SB_OK && opt->ntechniques) {
            sb_options fast;
            sb_options_default(&fast);
            fast.limit = 1;
            fast.simd = opt->simd;
            b->s[t].truth = malloc(cells(b));
            st = b->s[t].truth ? sb_engine_new(sb_geo_out(b->g), &fast, &b->s[t].ref)
                               : SB_ERR_NOMEM;
        }
        if (st != SB_OK) { /* no half-made row: the set is unprepared again */
            solvers_free(b);
            return st;
        }
    }
    return SB_OK;
}

int sb_bench_simd(const sb_bench *b)
{
    if (!b || !b->s)
        return SB_ERR_ARG;
    return sb_simd_resolve(b->opt.simd);
}

/* The cells of puzzles lo .. lo+n-1 of b as rows of the geometry's cells: 9x9's unpacked into
 * k->g, the others where the set keeps them. */
static const uint8_t *block_cells(const sb_bench *b, size_t lo, size_t n, block *k)
{
    if (b->g)
        return b->data + lo * b->size;
    for (size_t j = 0; j < n; j++)
        unpack(b, lo + j, k->g[j].cell);
    return k->g[0].cell;
}

/* @return 1 when puzzle j of a block (cells p) failed its check: the solve ran out of memory,
 * a plug-in broke its contract, or the first solution breaks the givens or the rules. */
static int block_wrong(const sb_bench *b, const block *k, size_t j, const uint8_t *p,
                       const uint8_t *sol)
{
    return k->st[j] == SB_ERR_NOMEM || k->st[j] == SB_ERR_PLUGIN ||
           (k->res[j].count && !(b->g ? sb_gsolution_check(b->g, p, sol)
                                      : sb_solution_check(&k->g[j], (const sb_grid *)(const void *)sol)));
}

/* The warm-up of a row with technique plug-ins: each puzzle solved by fast first, and then by
 * the row with the plug-ins' eliminations held to fast's solution (sb_tech_ext.truth): one
 * that removes the solution's digit from a board that still allows that solution is named
 * with the cell, as the first such puzzle's k->why. @return n. */
static size_t solve_held(const sb_bench *b, bsolver *s, size_t lo, size_t n, block *k)
{
    const size_t C = cells(b);
    const uint8_t *all = block_cells(b, lo, n, k);
    sb_tech_ext *x = sb_engine_ext(s->e);
    for (size_t j = 0; j < n; j++) {
        const uint8_t *p = all + j * C;
        sb_gresult ref = {0, 0};
        const int rst = sb_engine_solve(s->ref, p, 1, &ref, s->truth);
        if (x)
            x->truth = rst == SB_OK && ref.count ? s->truth : NULL;
        k->st[j] = sb_engine_solve(s->e, p, b->opt.limit, &k->res[j], s->sol);
        if (x)
            x->truth = NULL;
        if (k->st[j] == SB_ERR_PLUGIN && x && x->fault && k->why_at == SIZE_MAX) {
            k->why_at = lo + j;
            memcpy(k->why, x->why, sizeof k->why);
        }
        k->wrong[j] = block_wrong(b, k, j, p, s->sol);
    }
    return n;
}

/* Solves the puzzles lo .. lo+BENCH_CHUNK-1 of b (fewer at the end) with solver s into k;
 * with check, each first solution is checked against the puzzle and the rules.
 * @return how many. */
static size_t solve_block(const sb_bench *b, bsolver *s, size_t lo, int check, block *k)
{
    const size_t n = b->n - lo < BENCH_CHUNK ? b->n - lo : BENCH_CHUNK;
    k->why_at = SIZE_MAX;
    if (check && s->ref)
        return solve_held(b, s, lo, n, k);
    const size_t C = cells(b);
    const uint8_t *p = block_cells(b, lo, n, k);
    /* the timed passes ask for the counts alone on 9x9 (a plug-in may then skip writing a
     * solution); the geometry rows find their first solutions either way */
    sb_engine_solve_many(s->e, p, n, b->opt.limit, k->res, check || b->g ? s->sol : NULL,
                         k->st);
    for (size_t j = 0; check && j < n; j++)
        k->wrong[j] = block_wrong(b, k, j, p + j * C, s->sol + j * C);
    return n;
}

/* @return whether the prepared row's stop flag is raised. */
static int stopped(const sb_bench *b)
{
    return b->opt.stop && *b->opt.stop;
}

/* @return the puzzles the prepared row's solvers have handed to a paired kernel so far. */
static uint64_t paired_so_far(const sb_bench *b)
{
    uint64_t n = 0;
    for (int t = 0; t < b->threads; t++)
        n += sb_engine_paired(b->s[t].e);
    return n;
}

int sb_bench_warm(sb_bench *b, uint8_t *verdicts, sb_bench_warmup *out)
{
    if (!b || !b->s || !out || (!verdicts && b->n))
        return SB_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->wrong = b->n;
    const uint64_t paired = paired_so_far(b);
    uint64_t guesses = 0, no_guess = 0, vc[3] = {0, 0, 0};
    size_t wrong = b->n, why_at = SIZE_MAX;
    int oom = 0;
    const long long nblk = (long long)((b->n + BENCH_CHUNK - 1) / BENCH_CHUNK);
#pragma omp parallel num_threads(b->threads) reduction(+ : guesses, no_guess, vc[:3]) \
    reduction(| : oom) reduction(min : wrong)
    {
        bsolver *me = &b->s[omp_get_thread_num()];
        block *k = malloc(sizeof *k);
#pragma omp for schedule(dynamic, 1)
        for (long long blk = 0; blk < nblk; blk++) {
            if (stopped(b) || !k)
                continue; /* an OpenMP loop cannot break: skip the rest cheaply */
            const size_t lo = (size_t)blk * BENCH_CHUNK;
            const size_t n = solve_block(b, me, lo, 1, k);
            if (k->why_at != SIZE_MAX) {
#pragma omp critical(sb_bench_why)
                if (k->why_at < why_at) {
                    why_at = k->why_at;
                    memcpy(out->why, k->why, sizeof out->why);
                }
            }
            for (size_t j = 0; j < n; j++) {
                if (k->st[j] == SB_ERR_STOPPED)
                    continue;
                if (k->wrong[j] && lo + j < wrong)
                    wrong = lo + j;
                const sb_verdict v = sb_count_verdict(k->res[j].count);
                vc[v]++;
                verdicts[lo + j] = (uint8_t)v;
                guesses += k->res[j].guesses;
                no_guess += k->res[j].guesses == 0;
            }
        }
        if (!k)
            oom = 1;
        free(k);
    }
    out->guesses = guesses;
    out->no_guess = no_guess;
    memcpy(out->verdicts, vc, sizeof vc);
    out->wrong = wrong;
    out->paired = paired_so_far(b) - paired;
    for (int t = 0; t < b->threads; t++) {
        sb_technique_counts c[SB_TECH_COUNT], pc[SB_TECH_PLUGINS];
        int np;
        sb_engine_counts(b->s[t].e, c);
        np = sb_engine_plugin_counts(b->s[t].e, pc);
        sb_counts_add(out->counts, c, SB_TECH_COUNT);
        sb_counts_add(out->plugin_counts, pc, np);
    }
    if (oom)
        return SB_ERR_NOMEM;
    return stopped(b) ? SB_ERR_STOPPED : SB_OK;
}

/* Seconds on the monotonic clock. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sb_bench_time(sb_bench *b, double min_seconds, uint64_t *passes, double *seconds)
{
    /* written so that NaN fails too: the loop below would never see its time up */
    if (!b || !b->s || !passes || !seconds ||
        !(min_seconds >= 0 && min_seconds <= SB_BENCH_MAX_SECONDS))
        return SB_ERR_ARG;
    const long long nblk = (long long)((b->n + BENCH_CHUNK - 1) / BENCH_CHUNK);
    uint64_t np = 0;
    double elapsed = 0;
    int done = 0, oom = 0;
    const double t0 = now_seconds();
    /* All threads share each pass; one thread decides after every pass (behind the barrier
     * of `single`) whether the time is up, so all leave together. */
#pragma omp parallel num_threads(b->threads)
    {
        bsolver *me = &b->s[omp_get_thread_num()];
        block *k = malloc(sizeof *k);
        if (!k) {
#pragma omp atomic write
            oom = 1; /* its share of each pass would go unsolved: no measurement */
        }
        while (!done) {
#pragma omp for schedule(dynamic, 1)
            for (long long blk = 0; blk < nblk; blk++) {
                if (stopped(b) || !k)
                    continue;
                solve_block(b, me, (size_t)blk * BENCH_CHUNK, 0, k);
            }
#pragma omp single
            {
                np++;
                elapsed = now_seconds() - t0;
                done = elapsed >= min_seconds || stopped(b);
            }
        }
        free(k);
    }
    *passes = np;
    *seconds = elapsed;
    if (oom)
        return SB_ERR_NOMEM;
    return stopped(b) ? SB_ERR_STOPPED : SB_OK;
}
