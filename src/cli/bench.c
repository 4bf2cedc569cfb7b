/*
 * bench.c — the `bench` command: the field's standard throughput table per dataset x
 * pipeline (puzzles/sec, usec/puzzle, %no_guess, guesses/puzzle) plus build info.
 *
 * Method (the library's sb_bench calls, src/engine/bench_api.c): load a file's valid puzzles into
 * memory, warm up by solving each once and validating every answer against the givens and
 * the rules, then time --repeat samples of whole passes without checks, each until its share
 * of --seconds has elapsed (at least one pass). A row's puzzles/s is the samples' median and
 * its spread their MAD, which one disturbed sample moves as little as it moves the median.
 * Guess figures come from the warm-up pass; the search is deterministic, so every pass makes
 * the same guesses.
 *
 * Output: the table on stdout; notes and warnings gather and go to stderr after it, so that
 * a terminal or a file holding both never shows a message between rows. --json and each
 * --export (Google Benchmark JSON, Bencher Metric Format, github-action-benchmark) are opened
 * before the run and written whole at its end.
 *
 * Verdicts: the warm-up also takes each puzzle's verdict (solved, unsolvable, multiple, for
 * the run's limit). The first pipeline's verdicts on a dataset are kept; every later pipeline
 * must agree with them puzzle by puzzle (a disagreement is an error, as a wrong solution is),
 * so a solver that calls good puzzles unsolvable cannot post a fast row. Puzzles without
 * exactly one solution are legitimate input: the first pipeline's row notes them on stderr.
 *
 * Threads: each thread has its own solver; a pass hands out puzzles in chunks (dynamic
 * schedule) and ends at a barrier, so puzzles/s is the aggregate of all threads over whole
 * passes. The set keeps 9x9 puzzles packed, two cells a byte.
 *
 * MPI (build/sudokubench-mpi, docs/scale.md). Each rank loads its share of each file, the
 * segments the solve command would give it (cli_batch_shard: rank 0 prints the messages of
 * invalid lines in order), and runs every row on its share. The warm-up's counts are summed
 * over the ranks before any check, so every message and verdict is the one process's (a
 * puzzle's number is its place in the file, found from its line); the timed passes start
 * together, and so does each sample. The table then has a totals row (puzzles summed,
 * seconds the longest rank's, each sample's puzzles/s the ranks' sum, the median and MAD of
 * those sums) and one row per rank. In a plain build the same code runs with
 * cli_mpi_size() 0, every collective a no-op, and prints the table it always printed.
 *
 * Geometries: the same loop runs on any geometry (--grid, --geometry, or detected from the
 * first line): its puzzles are read through the geometry source (input.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#ifndef SB_BUILD_FLAGS
#define SB_BUILD_FLAGS "unknown"
#endif

/* The compiler's name and version: clang's __VERSION__ names it, gcc's is the bare number. */
#if defined(__clang__)
#define CLI_COMPILER __VERSION__
#elif defined(__GNUC__)
#define CLI_COMPILER "gcc " __VERSION__
#else
#define CLI_COMPILER "unknown"
#endif

enum { DEFAULT_SECONDS_X10 = 10 /* --seconds default, in tenths */ };
enum { DEFAULT_REPEAT = 5 /* --repeat default: samples per row */,
       REPEAT_MAX = 100 /* most samples per row (each rank row holds them all) */ };
#define REPEAT_MAX_TEXT "100" /* REPEAT_MAX in messages */
enum { EXPORT_MAX = 16 /* most --export files */ };
/* Warnings (spread, load) need a run long enough to judge: shorter ones are smoke tests. */
#define WARN_MIN_SECONDS 0.5
#define WARN_MAD_PCT 5.0   /* a row's MAD above this % of its median is noisy */
#define WARN_LOAD_SHARE 0.5 /* load above this share of the idle cores (at least this) */
enum { FAST_NAME_MAX = 64 /* the longest fast+T of --pipelines ("fast+" and a token, which
                              may be a technique plug-in's 31-byte name), or the default row of
                              a technique plug-in on another geometry */ };

/* The valid puzzles of one file and what the rows learnt about them. */
typedef struct dataset {
    const sb_geometry *g; /* the geometry */
    size_t size;       /* cells per puzzle */
    sb_bench *set;     /* the puzzles in file order (their forms and, under MPI, lines),
                          and each row's solvers */
    size_t n;          /* puzzles held */
    int oom;           /* an allocation failed while loading */
    size_t invalid;    /* invalid lines seen (reported, not benchmarked) */
    size_t max;        /* keep at most this many puzzles (0 = all) */
    uint8_t *verdict;  /* sb_verdict per puzzle from the first pipeline's warm-up (or NULL) */
    const char *first; /* the pipeline whose verdicts those are (NULL before its row) */
    int lines;         /* MPI: the set keeps each puzzle's line in its file (rising), which
                          puzzle numbers across ranks come from */
} dataset;

/* One rank's part of a row (the whole row in one process). */
typedef struct rank_row {
    uint64_t puzzles;   /* puzzles of the rank's share */
    uint64_t guesses;   /* guesses over the warm-up pass */
    uint64_t no_guess;  /* puzzles solved without a guess */
    uint64_t verdicts[3]; /* puzzles per sb_verdict */
    uint64_t paired;    /* puzzles the warm-up handed to a paired kernel */
    double seconds;     /* timed seconds, all samples */
    int repeat;         /* samples taken (0 before the timed phase) */
    double samples[REPEAT_MAX]; /* puzzles per second of each sample */
    uint64_t done[REPEAT_MAX];  /* puzzles solved in each sample */
} rank_row;

/* The machine a run measures on, as its header and exports name it. */
typedef struct bench_host {
    char cpu[128];  /* /proc/cpuinfo's first "model name", or "unknown" */
    double load[3]; /* 1, 5 and 15 minute load averages at start (-1: unknown) */
    int cores;      /* online cores */
} bench_host;

/* One row of the results table. */
typedef struct bench_row {
    const char *dataset;  /* the file's base name, control bytes as \xHH (table, messages) */
    const char *name;     /* the file's base name as it is (JSON escapes it its own way) */
    const char *pipeline; /* the pipeline's registry name or custom spec */
    int simd;             /* level that ran */
    size_t puzzles;       /* puzzles per pass */
    double seconds;       /* timed seconds, all samples */
    double pps;           /* puzzles per second: the median of the samples */
    int repeat;           /* samples */
    double samples[REPEAT_MAX]; /* puzzles per second of each sample (summed over ranks) */
    uint64_t done[REPEAT_MAX];  /* puzzles solved in each sample (summed over ranks) */
    double min, max, mad; /* of the samples; mad: median absolute deviation from pps */
    double no_guess_pct;  /* % of puzzles solved without a guess */
    double guesses;       /* guesses per puzzle */
    double paired_pct;    /* % of puzzles the warm-up handed to a paired kernel */
    size_t solved;        /* puzzles with verdict solved (one solution; with -l 1, any) */
    size_t unsolvable;    /* puzzles with no solution (conflicting givens included) */
    size_t multiple;      /* puzzles with two or more solutions (never with -l 1) */
    sb_technique_counts counts[SB_TECH_COUNT + SB_TECH_PLUGINS]; /* technique work over the
                                   warm-up pass: the built-ins, then the technique plug-ins */
    const char *tnames[SB_TECH_PLUGINS]; /* the technique plug-ins' names */
    int ntech;                   /* how many */
    rank_row *ranks;      /* MPI, rank 0: the row of each rank (NULL in one process) */
} bench_row;

static const char bench_help[] =
    "Usage: " CLI_NAME " bench [OPTIONS] FILE...   ('-' = stdin)\n"
    "Measure throughput on each FILE for each pipeline: warm-up with every answer validated,\n"
    "then timed samples of whole passes without checks. Prints the standard table (median\n"
    "puzzles/s of the samples, spread as MAD %% of it) after a line naming the build, CPU,\n"
    "level, threads and load average at start. A pipeline named twice is one row.\n"
    "Every pipeline must give the first one's verdict (solved, unsolvable, multiple) on\n"
    "every puzzle; puzzles without exactly one solution are noted on stderr after the table.\n"
    "With --seconds 0.5 or more, warnings follow on stderr: a row whose MAD is above 5%% of\n"
    "its median; a load average at start above half the cores the run leaves idle (threads\n"
    "x ranks busy), or above 0.5 when none is idle.\n\n"
    "      --pipelines LIST  add 'all' or a comma list of pipeline names and fast+T forms\n"
    "                        (one technique each: fast,fast+xw,fast+sky)\n"
    "      --pipeline SPEC   add one pipeline: a name, fast+T1,T2,... or a custom spec such\n"
    "                        as array:ns,hs,lc,nt (both repeatable, rows in the order given;\n"
    "                        default: all; with --plugin, fast and a row per plug-in)\n"
    "      --plugin FILE     load a plug-in (a shared object: docs/plugins.md; repeatable):\n"
    "                        a solver's name is a row for the lists above; a technique's is\n"
    "                        a technique of their specs, its default row fast+NAME\n"
    "  -n, --max-puzzles N   use the first N puzzles of each FILE (default all)\n"
    "  -l, --limit N         solutions to count per puzzle (default %llu: uniqueness check)\n"
    "  -t, --threads N       threads solving each pass together (%s)\n"
    "      --seconds S       timed seconds per row, shared by its samples: each runs whole\n"
    "                        passes for at least S/N seconds, at least one (default %.1f)\n"
    "      --repeat N        timed samples per row, 1..%d (default %d)\n"
    "      --simd LEVEL      auto, scalar, sse4, avx2, avx512bw, avx512, neon (default auto)\n"
    "      --json OUT        also write the rows as JSON to OUT (opened before the run)\n"
    "      --export FMT:OUT  also write the rows to OUT in an ecosystem's format, each row\n"
    "                        named DATASET/PIPELINE (opened before the run; repeatable):\n"
    "                        gbench (Google Benchmark JSON), bmf (Bencher Metric Format),\n"
    "                        github (github-action-benchmark's customBiggerIsBetter)\n"
    "      --grid SPEC       another geometry (default: from the first line's cell count):\n"
    "                        the same table and JSON, naming it; pipelines default to fast,\n"
    "                        the general solver (others run the generic engine, lc skipped\n"
    "                        where no houses meet in 2+ cells); --simd picks the 16-digit\n"
    "                        boxed grids' kernel, scalar the per-cell engine\n"
    "      --geometry FILE   a geometry from a file, as --grid\n"
    "  -h, --help            show this help\n\n"
    "An unreadable FILE is reported and skipped (exit 2). SIGINT/SIGTERM stop the run after\n"
    "the rows finished so far (JSON and exports included): exit 130.\n";

/* A record's tag in a load: valid or not, its text form, its line, the puzzle (dataset.size
 * bytes). */
enum { TAG_VALID = 0, TAG_FORM = 1, TAG_LINE = 2, TAG_PUZZLE = TAG_LINE + 8 };

/* Batch record handler of a load: the record into its tag (the engine has put an invalid
 * line's message in err already). */
static int shard_record(void *worker, const cli_input *in, const sb_record *rec,
                        const uint8_t *cells, const uint64_t *cand, cli_buf *out, cli_buf *err,
                        void *tag)
{
    (void)in, (void)cand, (void)out, (void)err;
    const dataset *d = worker;
    unsigned char *t = tag;
    t[TAG_VALID] = rec->kind == SB_LINE_PUZZLE;
    if (t[TAG_VALID]) {
        t[TAG_FORM] = (unsigned char)rec->form; /* 9x9: SB_GFORM_CHARS, the set's default */
        memcpy(t + TAG_PUZZLE, cells, d->size);
    }
    memcpy(t + TAG_LINE, &rec->line, sizeof rec->line);
    return CLI_DONE;
}

/* Batch commit of a load, on the rank that read the records: keeps its puzzles (in one
 * process the first d->max; under MPI keep_first_puzzles cuts them later). */
static void shard_commit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    (void)input;
    dataset *d = ctx;
    for (size_t i = 0; i < n && !d->oom; i++) {
        const unsigned char *t = tags + i * (TAG_PUZZLE + d->size);
        uint64_t line;
        memcpy(&line, t + TAG_LINE, sizeof line);
        if (!t[TAG_VALID])
            d->invalid++;
        else if (d->max && d->n >= d->max && !d->lines)
            continue; /* past -n (under MPI keep_first_puzzles cuts) */
        else if (sb_bench_add_at(d->set, t + TAG_PUZZLE, t[TAG_FORM], d->lines ? line : 0))
            d->oom = 1;
        else
            d->n++;
    }
}

/* Under MPI: keeps in d only the first max puzzles of the file over all ranks (the largest
 * line L with at most max puzzles up to it, found by bisection on every rank at once). */
static void keep_first_puzzles(dataset *d, uint64_t max)
{
    uint64_t total = d->n, top = d->n ? sb_bench_line(d->set, d->n - 1) : 0;
    cli_mpi_reduce(&total, 1, CLI_MPI_SUM);
    cli_mpi_reduce(&top, 1, CLI_MPI_MAX);
    if (total <= max)
        return;
    uint64_t lo = 0, hi = top; /* max puzzles lie at or before line hi, fewer before lo */
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        uint64_t upto = sb_bench_before(d->set, mid + 1);
        cli_mpi_reduce(&upto, 1, CLI_MPI_SUM);
        if (upto <= max)
            lo = mid;
        else
            hi = mid - 1;
    }
    d->n = sb_bench_before(d->set, lo + 1);
    sb_bench_truncate(d->set, d->n);
}

/* Loads input path into d: the whole file in one process; under MPI this rank's segments of
 * it (the solve command's sharding) and then, with d->max, its part of the file's first max
 * puzzles. @return as cli_batch_records (the same on every rank); d->invalid counts the
 * invalid lines of every rank. */
static int load(char *const *path, dataset *d, int threads)
{
    d->size = (size_t)sb_geometry_cells(d->g);
    if (sb_bench_new(d->g, &d->set) != SB_OK) {
        d->oom = 1;
        return 0;
    }
    const cli_batch b = {.threads = threads, .progress = CLI_PROGRESS_NEVER, .out = stdout,
                         .ctx = d, .tag_size = TAG_PUZZLE + d->size, .g = d->g,
                         .record = shard_record, .commit = shard_commit}; /* worker: d */
    d->lines = cli_mpi_size() > 0;
    const int rc = cli_batch_shard(&b, path, 1);
    uint64_t v[2] = {(uint64_t)d->oom, d->invalid};
    cli_mpi_reduce(&v[0], 1, CLI_MPI_MAX);
    cli_mpi_reduce(&v[1], 1, CLI_MPI_SUM);
    d->oom = (int)v[0], d->invalid = (size_t)v[1];
    if (!rc && !d->oom && d->max && d->lines)
        keep_first_puzzles(d, d->max);
    return rc;
}

enum { TEXT_MAX = 3 * 64 * 64 + 1 /* a puzzle's text: 3 bytes a cell of a 64x64 */ };


/* The earliest puzzle (in file order) a check failed on, and what it found there. */
typedef struct first_hit {
    size_t at; /* puzzle index; the dataset's size while none failed */
    int what;  /* the failing value (a verdict), when the check has one */
    const char *why; /* what a technique plug-in did there, or NULL */
} first_hit;

/* The earliest, in file order, of every rank's first hit (one process: its own). */
typedef struct global_hit {
    size_t number;            /* its puzzle number in the file, 1-based */
    int what;                 /* the hit's value (first_hit.what) */
    char text[TEXT_MAX];      /* the puzzle as text */
    char why[SB_PLUGIN_WHY];  /* first_hit.why, or "" */
} global_hit;

/* Finds the earliest of every rank's hit h (h.at == d->n: none on this rank) into *g, on
 * every rank (a collective under MPI). @return 0 if no rank had one. */
static int first_of_all(const dataset *d, first_hit h, global_hit *g)
{
    const int me = cli_mpi_rank(), mine = h.at < d->n;
    uint64_t key = !mine ? UINT64_MAX : d->lines ? sb_bench_line(d->set, h.at) : h.at;
    cli_mpi_reduce(&key, 1, CLI_MPI_MIN);
    if (key == UINT64_MAX)
        return 0;
    uint64_t v[2] = {mine && (d->lines ? sb_bench_line(d->set, h.at) : h.at) == key
                         ? (uint64_t)me : UINT64_MAX,
                     d->lines ? sb_bench_before(d->set, key) : h.at}; /* owner, puzzles before */
    cli_mpi_reduce(&v[0], 1, CLI_MPI_MIN);
    cli_mpi_reduce(&v[1], 1, CLI_MPI_SUM);
    g->number = (size_t)v[1] + 1;
    if (v[0] == (uint64_t)me) {
        g->what = h.what;
        snprintf(g->why, sizeof g->why, "%s", h.why ? h.why : "");
        sb_bench_text(d->set, h.at, g->text, TEXT_MAX); /* "" past 64x64: named by number */
    }
    cli_mpi_bcast(g, sizeof *g, (int)v[0]);
    return 1;
}

/* Appends a printf-formatted note to notes, printed on stderr after the table so that no
 * message splits it (a note lost to a failed allocation is dropped, the run goes on). */
static void note_printf(cli_buf *notes, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note_printf(cli_buf *notes, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = len < 0 ? NULL : cli_buf_reserve(notes, (size_t)len + 1);
    if (!p)
        return;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)len + 1, fmt, ap);
    va_end(ap);
    notes->len += (size_t)len;
}

/* The first pipeline's row on d: notes its puzzles without exactly one solution in notes,
 * printed after the table (a collective under MPI: every rank calls it). */
static void note_improper(const dataset *d, const bench_row *row, cli_buf *notes)
{
    if (row->unsolvable + row->multiple == 0)
        return;
    first_hit h = {0, 0, NULL};
    while (h.at < d->n && d->verdict[h.at] == SB_SOLVED)
        h.at++;
    global_hit g;
    first_of_all(d, h, &g);
    note_printf(notes,
                CLI_NAME ": bench: %s: %zu of %zu puzzles have no solution, %zu more than one "
                         "(first: puzzle %zu)\n",
                row->dataset, row->unsolvable, row->puzzles, row->multiple, g.number);
}

/* Agrees on a row's exit code: the worst over the ranks (rc itself in one process). */
static int agree(int rc)
{
    uint64_t v = (uint64_t)rc;
    cli_mpi_reduce(&v, 1, CLI_MPI_MAX);
    return (int)v;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* @return the median of the n >= 1 values of v, sorting v. */
static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Sets row's pps (the median), min, max and mad from its row->repeat samples (all 0 when
 * there are none). */
static void sample_stats(bench_row *row)
{
    row->pps = row->min = row->max = row->mad = 0;
    const int n = row->repeat;
    if (n <= 0)
        return;
    double v[REPEAT_MAX];
    memcpy(v, row->samples, (size_t)n * sizeof *v);
    row->pps = median_of(v, n);
    row->min = v[0], row->max = v[n - 1];
    for (int i = 0; i < n; i++)
        v[i] = v[i] > row->pps ? v[i] - row->pps : row->pps - v[i];
    row->mad = median_of(v, n);
}

/* @return a row's spread: its MAD as a % of its median puzzles/s. */
static double mad_pct(const bench_row *row)
{
    return row->pps > 0 ? 100.0 * row->mad / row->pps : 0.0;
}

/* Fills row's totals from the ranks' rows r[0..n-1]: puzzles and counts summed, seconds the
 * longest, each sample's puzzles/s summed (the ranks ran each sample side by side), and the
 * statistics of those sums. */
static void row_totals(bench_row *row, const rank_row *r, int n)
{
    rank_row t = r[0];
    for (int k = 1; k < n; k++) {
        t.puzzles += r[k].puzzles, t.guesses += r[k].guesses, t.no_guess += r[k].no_guess;
        t.paired += r[k].paired;
        for (int v = 0; v < 3; v++)
            t.verdicts[v] += r[k].verdicts[v];
        t.seconds = r[k].seconds > t.seconds ? r[k].seconds : t.seconds;
        for (int i = 0; i < t.repeat; i++)
            t.samples[i] += r[k].samples[i], t.done[i] += r[k].done[i];
    }
    row->puzzles = (size_t)t.puzzles;
    row->seconds = t.seconds;
    row->repeat = t.repeat;
    memcpy(row->samples, t.samples, sizeof row->samples);
    memcpy(row->done, t.done, sizeof row->done);
    sample_stats(row);
    row->no_guess_pct = t.puzzles ? 100.0 * (double)t.no_guess / (double)t.puzzles : 0.0;
    row->guesses = t.puzzles ? (double)t.guesses / (double)t.puzzles : 0.0;
    row->paired_pct = t.puzzles ? 100.0 * (double)t.paired / (double)t.puzzles : 0.0;
    row->solved = (size_t)t.verdicts[SB_SOLVED];
    row->unsolvable = (size_t)t.verdicts[SB_UNSOLVABLE];
    row->multiple = (size_t)t.verdicts[SB_MULTIPLE];
}

/* Runs one dataset x pipeline row on threads threads (the library's sb_bench_warm and
 * sb_bench_time over d's set). The first row on d keeps its verdicts in d; later rows are
 * checked against them. Under MPI every rank runs its share and the row holds the totals
 * (and, on rank 0, each rank's row); every rank returns the same code. @return 0, or
 * CLI_EXIT_USAGE after a message. */
static int bench_one(dataset *d, const sb_options *opt, int threads, double min_seconds,
                     int repeat, cli_buf *notes, bench_row *row)
{
    const int first = !d->first, nranks = cli_mpi_size();
    int rc = 0;
    uint8_t *verdict = d->n ? malloc(d->n) : NULL; /* this row's verdicts */
    if (d->n && !verdict)
        rc = cli_oom();
    const int st = rc ? SB_OK : sb_bench_prepare(d->set, opt, threads);
    if (st != SB_OK)
        rc = cli_solver_error("bench", st, opt->simd);
    /* The OpenMP runtime exits the process when it cannot start a team: check this row's
     * first region can start (the second reuses its threads). */
    char why[2 * SB_WHY_LEN];
    if (!rc && sb_threads_check(threads, why, sizeof why) != SB_OK) {
        fprintf(stderr, CLI_NAME ": %s\n", why);
        rc = CLI_EXIT_USAGE;
    }
    /* Warm-up: every answer checked, every verdict kept (first row) or compared with the
     * first row's; the first wrong answer and disagreement (in file order) are reported. */
    sb_bench_warmup w = {.wrong = d->n};
    if (!rc && sb_bench_warm(d->set, verdict, &w) == SB_ERR_NOMEM)
        rc = cli_oom();
    if (!rc && cli_stop_requested())
        rc = CLI_EXIT_INTERRUPTED; /* the verdicts are partial: no check, no row */
    rc = agree(rc);
    rank_row mine = {.puzzles = d->n, .guesses = w.guesses, .no_guess = w.no_guess,
                     .verdicts = {w.verdicts[0], w.verdicts[1], w.verdicts[2]},
                     .paired = w.paired};
    first_hit wrong = {w.wrong, 0, w.why}, disagree = {d->n, 0, NULL};
    if (!rc) {
        /* The technique counts (four uint64_t each) and the warm-up's figures, summed over
         * the ranks. */
        _Static_assert(sizeof w.counts + sizeof w.plugin_counts == sizeof row->counts &&
                           sizeof row->counts ==
                               4 * (SB_TECH_COUNT + SB_TECH_PLUGINS) * sizeof(uint64_t),
                       "counts");
        memcpy(row->counts, w.counts, sizeof w.counts);
        memcpy(row->counts + SB_TECH_COUNT, w.plugin_counts, sizeof w.plugin_counts);
        cli_mpi_reduce((uint64_t *)(void *)row->counts, 4 * (SB_TECH_COUNT + SB_TECH_PLUGINS),
                       CLI_MPI_SUM);
        row->ntech = (int)opt->ntechniques;
        for (int k = 0; k < row->ntech; k++)
            row->tnames[k] = sb_plugin_name(opt->techniques[k]);
        uint64_t v[7] = {mine.puzzles, mine.guesses, mine.no_guess, mine.verdicts[0],
                         mine.verdicts[1], mine.verdicts[2], mine.paired};
        cli_mpi_reduce(v, 7, CLI_MPI_SUM);
        const rank_row all = {.puzzles = v[0], .guesses = v[1], .no_guess = v[2],
                              .verdicts = {v[3], v[4], v[5]}, .paired = v[6]};
        row_totals(row, &all, 1);
        if (first) {
            d->verdict = verdict;
            verdict = NULL;
        }
        /* the first puzzle whose verdict differs from the first row's (none: d->n) */
        for (disagree.at = 0; verdict && disagree.at < d->n; disagree.at++)
            if (verdict[disagree.at] != d->verdict[disagree.at])
                break;
        if (!verdict)
            disagree.at = d->n;
        if (disagree.at < d->n) /* the message names both verdicts: the first row's goes along */
            disagree.what = verdict[disagree.at] | d->verdict[disagree.at] << 8;
    }
    free(verdict);
    global_hit hit;
    if (!rc && first_of_all(d, wrong, &hit)) {
        if (hit.why[0])
            fprintf(stderr, CLI_NAME ": bench: row %s, puzzle %zu of %s: %s: %s\n",
                    row->pipeline, hit.number, row->dataset, hit.why, hit.text);
        else if (opt->plugin)
            fprintf(stderr, CLI_NAME ": bench: plug-in '%s' gave a wrong answer for puzzle %zu "
                    "of %s (a solution that breaks the rules or the givens, a count above the "
                    "limit, guesses beyond the budget or a code it may not return): %s\n",
                    row->pipeline, hit.number, row->dataset, hit.text);
        else
            fprintf(stderr, CLI_NAME ": bench: wrong solution for puzzle %zu of %s: %s\n",
                    hit.number, row->dataset, hit.text);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && first_of_all(d, disagree, &hit)) {
        fprintf(stderr,
                CLI_NAME ": bench: pipelines disagree on puzzle %zu of %s: %s says %s, %s says "
                         "%s: %s\n",
                hit.number, row->dataset, d->first, cli_verdict_name((sb_verdict)(hit.what >> 8)),
                row->pipeline, cli_verdict_name((sb_verdict)(hit.what & 255)), hit.text);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc && first) {
        d->first = row->pipeline;
        note_improper(d, row, notes);
    }
    /* Timed samples: --seconds shared among them, each whole passes (at least one). The ranks
     * start each sample together (they have just agreed on the checks, then on the sample
     * before); a rank with no puzzles has nothing to time. */
    rc = agree(rc);
    for (int i = 0; i < repeat && !rc; i++) {
        uint64_t passes = 0;
        double elapsed = 0;
        if (!(nranks && !d->n) &&
            sb_bench_time(d->set, min_seconds / repeat, &passes, &elapsed) == SB_ERR_NOMEM)
            rc = cli_oom();
        if (!rc && cli_stop_requested())
            rc = CLI_EXIT_INTERRUPTED; /* a cut pass is no measurement */
        rc = agree(rc);
        mine.seconds += elapsed;
        mine.done[i] = passes * d->n;
        mine.samples[i] = elapsed > 0 ? (double)(passes * d->n) / elapsed : 0.0;
    }
    if (!rc)
        row->simd = sb_bench_simd(d->set);
    if (rc)
        return rc;
    mine.repeat = repeat;
    rank_row *ranks = malloc((size_t)(nranks ? nranks : 1) * sizeof *ranks);
    if (agree(!ranks)) { /* a rank without memory: every rank returns */
        free(ranks);
        return cli_oom();
    }
    cli_mpi_gather(&mine, ranks, sizeof mine);
    if (cli_mpi_rank() == 0) /* the rows are rank 0's to print */
        row_totals(row, ranks, nranks ? nranks : 1);
    if (nranks && cli_mpi_rank() == 0)
        row->ranks = ranks;
    else
        free(ranks);
    return 0;
}

/* @return whether a row at simd on geo may run a paired kernel, so that the
 * build info names the pair policy and the rows show what it chose: the fast pipeline's
 * AVX2 search on 9x9 is the one there is. */
static int pair_shown(const sb_geometry *geo, int simd)
{
    return geo == sb_geometry_9x9() && simd == SB_SIMD_AVX2;
}

/* Fills host: the CPU model (a '|' or control byte in it becomes a space, as the header's
 * fields are split on '|'), the load averages now and the online cores. */
static void host_read(bench_host *host)
{
    snprintf(host->cpu, sizeof host->cpu, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0 || !strchr(line, ':'))
            continue;
        const char *v = strchr(line, ':') + 1;
        v += strspn(v, " \t");
        size_t len = strcspn(v, "\n");
        while (len && (v[len - 1] == ' ' || v[len - 1] == '\t'))
            len--;
        if (len) {
            snprintf(host->cpu, sizeof host->cpu, "%.*s", (int)len, v);
            for (char *c = host->cpu; *c; c++)
                if (*c == '|' || (unsigned char)*c < 0x20 || *c == 0x7f)
                    *c = ' ';
        }
        break;
    }
    if (f)
        fclose(f);
    if (getloadavg(host->load, 3) != 3)
        host->load[0] = host->load[1] = host->load[2] = -1;
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    host->cores = n > 0 ? (int)n : 1;
}

/* Prints the warnings on stderr after the table (rank 0, runs of at least WARN_MIN_SECONDS):
 * a row whose MAD is above WARN_MAD_PCT % of its median, and a load average at start above
 * WARN_LOAD_SHARE x the cores the run leaves idle (threads x ranks busy; at least
 * WARN_LOAD_SHARE). */
static void print_warnings(const bench_row *rows, size_t n, const bench_host *host,
                           int threads, int nranks)
{
    for (size_t i = 0; i < n; i++)
        if (mad_pct(&rows[i]) > WARN_MAD_PCT)
            fprintf(stderr, CLI_NAME ": bench: warning: %s / %s: spread \u00b1%.1f%% (MAD) is "
                            "above %.0f%% of the median: a busy or throttled machine; try more "
                            "--seconds or --repeat\n",
                    rows[i].dataset, rows[i].pipeline, mad_pct(&rows[i]), WARN_MAD_PCT);
    const int busy = threads * (nranks ? nranks : 1);
    const int idle = host->cores > busy ? host->cores - busy : 0;
    double limit = WARN_LOAD_SHARE * idle;
    if (limit < WARN_LOAD_SHARE)
        limit = WARN_LOAD_SHARE;
    if (host->load[0] > limit)
        fprintf(stderr, CLI_NAME ": bench: warning: load average %.2f at start, above %.1f "
                        "(%d cores, %d idle during the run): other work may have slowed the "
                        "rows\n",
                host->load[0], limit, host->cores, idle);
}

/* Puts o (an export or --json, opened before the run) in place whole. @return 0, or
 * CLI_EXIT_USAGE after a message naming path. */
static int whole_commit(cli_whole *o, const char *path)
{
    if (cli_whole_commit(o) == 0)
        return 0;
    const int err = errno;
    char *name = cli_msg_dup(path);
    fprintf(stderr, CLI_NAME ": write error: %s: %s\n", name ? name : path, strerror(err));
    free(name);
    return CLI_EXIT_USAGE;
}

/* Writes a row's benchmark name, DATASET/PIPELINE, as a JSON string with suffix appended. */
static void json_row_name(FILE *f, const bench_row *r, const char *suffix)
{
    const size_t len = strlen(r->name) + strlen(r->pipeline) + strlen(suffix) + 2;
    char *s = malloc(len);
    if (!s) { /* the name in pieces: JSON all the same */
        fputs("\"out of memory\"", f);
        return;
    }
    snprintf(s, len, "%s/%s%s", r->name, r->pipeline, suffix);
    cli_json_string(f, s);
    free(s);
}

/* The export formats of --export FORMAT:FILE. */
typedef enum { EXPORT_GBENCH, EXPORT_BMF, EXPORT_GITHUB } export_format;
static const char *const export_names[] = {"gbench", "bmf", "github"};

/* An --export: its format, path and file (opened before the run on rank 0). */
typedef struct bench_export {
    export_format format;
    const char *path;
    cli_whole o;
} bench_export;

/* The run's context, as the exports name it. */
typedef struct bench_ctx {
    const bench_host *host;
    int threads, simd, nranks;
    unsigned long long limit;
} bench_ctx;

/* @return the square root of x >= 0 by Newton's method (the program links without libm). */
static double root(double x)
{
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200 && x > 0; i++) /* halves r until close, then doubles the digits */
        r = (r + x / r) / 2;
    return x > 0 ? r : 0.0;
}

/* Writes Google Benchmark's JSON: per row (named DATASET/PIPELINE) one "iteration" entry per
 * sample (an iteration is a puzzle: real_time in ns per puzzle over all threads, cpu_time the
 * same as bench measures wall time only) and, with two or more samples, "aggregate" entries
 * for the mean, median and stddev, as compare.py reads them. */
static void write_gbench(FILE *f, const bench_row *rows, size_t n, const bench_ctx *c)
{
    char date[64] = "";
    const time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    char hostname[256] = "";
    if (gethostname(hostname, sizeof hostname - 1) != 0)
        hostname[0] = 0;
    fputs("{\n\"context\":{\"date\":", f);
    cli_json_string(f, date);
    fputs(",\"host_name\":", f);
    cli_json_string(f, hostname);
    fprintf(f, ",\"executable\":\"%s bench\",\"num_cpus\":%d,\"mhz_per_cpu\":0,"
               "\"cpu_scaling_enabled\":false,\"caches\":[],\"load_avg\":[%.2f,%.2f,%.2f],"
               "\"library_version\":\"%s\",\"library_build_type\":\"release\",\"cpu\":",
            CLI_NAME, c->host->cores, c->host->load[0] > 0 ? c->host->load[0] : 0.0,
            c->host->load[1] > 0 ? c->host->load[1] : 0.0,
            c->host->load[2] > 0 ? c->host->load[2] : 0.0, SB_VERSION);
    cli_json_string(f, c->host->cpu);
    fprintf(f, ",\"simd\":\"%s\",\"threads\":%d", sb_simd_name(c->simd), c->threads);
    if (c->nranks)
        fprintf(f, ",\"ranks\":%d", c->nranks);
    fputs("},\n\"benchmarks\":[", f);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        double ns[REPEAT_MAX], sum_ns = 0, sum_pps = 0;
        for (int k = 0; k < r->repeat; k++) {
            ns[k] = r->samples[k] > 0 ? 1e9 / r->samples[k] : 0.0;
            sum_ns += ns[k], sum_pps += r->samples[k];
            fprintf(f, "%s\n{\"name\":", first ? "" : ",");
            first = 0;
            json_row_name(f, r, "");
            fputs(",\"run_name\":", f);
            json_row_name(f, r, "");
            fprintf(f, ",\"family_index\":%zu,\"per_family_instance_index\":0,"
                       "\"run_type\":\"iteration\",\"repetitions\":%d,\"repetition_index\":%d,"
                       "\"threads\":%d,\"iterations\":%llu,\"real_time\":%.3f,"
                       "\"cpu_time\":%.3f,\"time_unit\":\"ns\",\"items_per_second\":%.1f}",
                    i, r->repeat, k, c->threads, (unsigned long long)r->done[k], ns[k], ns[k],
                    r->samples[k]);
        }
        if (r->repeat < 2)
            continue;
        const double mean_ns = sum_ns / r->repeat, mean_pps = sum_pps / r->repeat;
        double var_ns = 0, var_pps = 0, v[REPEAT_MAX];
        for (int k = 0; k < r->repeat; k++) {
            var_ns += (ns[k] - mean_ns) * (ns[k] - mean_ns);
            var_pps += (r->samples[k] - mean_pps) * (r->samples[k] - mean_pps);
        }
        memcpy(v, ns, (size_t)r->repeat * sizeof *v);
        const double agg[3][2] = {{mean_ns, mean_pps},
                                  {median_of(v, r->repeat), r->pps},
                                  {root(var_ns / (r->repeat - 1)),
                                   root(var_pps / (r->repeat - 1))}};
        static const char *const agg_name[3] = {"mean", "median", "stddev"};
        for (int a = 0; a < 3; a++) {
            char suffix[16];
            snprintf(suffix, sizeof suffix, "_%s", agg_name[a]);
            fputs(",\n{\"name\":", f);
            json_row_name(f, r, suffix);
            fputs(",\"run_name\":", f);
            json_row_name(f, r, "");
            fprintf(f, ",\"family_index\":%zu,\"per_family_instance_index\":0,"
                       "\"run_type\":\"aggregate\",\"repetitions\":%d,\"threads\":%d,"
                       "\"aggregate_name\":\"%s\",\"aggregate_unit\":\"time\","
                       "\"iterations\":%d,\"real_time\":%.3f,\"cpu_time\":%.3f,"
                       "\"time_unit\":\"ns\",\"items_per_second\":%.1f}",
                    i, r->repeat, c->threads, agg_name[a], r->repeat, agg[a][0], agg[a][0],
                    agg[a][1]);
        }
    }
    fputs("\n]}\n", f);
}

/* Writes Bencher Metric Format: per row (DATASET/PIPELINE) the throughput measure (puzzles/s:
 * the median, the least and the most sample). */
static void write_bmf(FILE *f, const bench_row *rows, size_t n)
{
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_row_name(f, &rows[i], "");
        fprintf(f, ":{\"throughput\":{\"value\":%.1f,\"lower_value\":%.1f,"
                   "\"upper_value\":%.1f}}",
                rows[i].pps, rows[i].min, rows[i].max);
    }
    fputs("\n}\n", f);
}

/* Writes github-action-benchmark's customBiggerIsBetter: per row (DATASET/PIPELINE) the median
 * puzzles/s, the MAD as its range and the rest of the row in extra. */
static void write_github(FILE *f, const bench_row *rows, size_t n, const bench_ctx *c)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        json_row_name(f, r, "");
        fprintf(f, ",\"unit\":\"puzzles/s\",\"value\":%.1f,\"range\":\"\\u00b1 %.1f\","
                   "\"extra\":\"median of %d samples (min %.1f, max %.1f); %zu puzzles; "
                   "simd %s; threads %d",
                r->pps, r->mad, r->repeat, r->min, r->max, r->puzzles, sb_simd_name(r->simd),
                c->threads);
        if (c->nranks)
            fprintf(f, " per rank; ranks %d", c->nranks);
        fputs("\"}", f);
    }
    fputs("\n]\n", f);
}

/* Writes a row's samples and their statistics as JSON keys (no comma around them). */
static void json_samples(FILE *f, const bench_row *r)
{
    fputs("\"samples\":[", f);
    for (int k = 0; k < r->repeat; k++)
        fprintf(f, "%s%.1f", k ? "," : "", r->samples[k]);
    fprintf(f, "],\"median\":%.1f,\"min\":%.1f,\"max\":%.1f,\"mad\":%.1f", r->pps, r->min,
            r->max, r->mad);
}

/* Writes the rows and build info as JSON to o, opened before the run, and puts the file in
 * place whole. @return 0, or CLI_EXIT_USAGE after a message naming path (and no file, or the
 * old one, left at path). */
static int write_json(cli_whole *o, const char *path, const sb_geometry *geo,
                      const bench_row *rows, size_t n, const bench_ctx *c, int repeat)
{
    const int threads = c->threads, simd = c->simd, nranks = c->nranks;
    const unsigned long long limit = c->limit;
    FILE *f = o->f;
    fprintf(f, "{\"build\":{\"version\":\"%s\",\"compiler\":", SB_VERSION);
    cli_json_string(f, CLI_COMPILER);
    fputs(",\"flags\":", f);
    cli_json_string(f, SB_BUILD_FLAGS);
    fprintf(f, ",\"simd\":\"%s\",\"threads\":%d,\"limit\":%llu,\"repeat\":%d",
            sb_simd_name(simd), threads, limit, repeat);
    const int pair = pair_shown(geo, simd);
    if (pair)
        fprintf(f, ",\"pair\":\"%s\"", sb_pair_name(sb_pair_resolve(SB_PAIR_AUTO)));
    if (nranks) /* MPI: threads are per rank */
        fprintf(f, ",\"ranks\":%d", nranks);
    if (geo != sb_geometry_9x9()) { /* another geometry: named as --grid names it */
        fputs(",\"grid\":", f);
        cli_json_string(f, sb_geometry_name(geo));
    }
    fputs("},\n\"host\":{\"cpu\":", f);
    cli_json_string(f, c->host->cpu);
    fprintf(f, ",\"cores\":%d,\"load\":", c->host->cores);
    if (c->host->load[0] >= 0)
        fprintf(f, "[%.2f,%.2f,%.2f]", c->host->load[0], c->host->load[1], c->host->load[2]);
    else
        fputs("null", f);
    fputs("},\n\"rows\":[", f);
    for (size_t i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fprintf(f, "%s\n{\"dataset\":", i ? "," : "");
        cli_json_string(f, r->name);
        fputs(",\"pipeline\":", f);
        cli_json_string(f, r->pipeline);
        fprintf(f, ",\"threads\":%d,\"simd\":\"%s\",\"puzzles\":%zu,"
                   "\"seconds\":%.6f,\"puzzles_per_sec\":%.1f,\"usec_per_puzzle\":%.4f,"
                   "\"no_guess_pct\":%.3f,\"guesses_per_puzzle\":%.4f,\"solved\":%zu,"
                   "\"unsolvable\":%zu,\"multiple\":%zu,",
                threads, sb_simd_name(r->simd), r->puzzles, r->seconds, r->pps,
                r->pps > 0 ? 1e6 / r->pps : 0.0, r->no_guess_pct, r->guesses, r->solved,
                r->unsolvable, r->multiple);
        if (pair)
            fprintf(f, "\"paired_pct\":%.3f,", r->paired_pct);
        fputs("\"techniques\":{", f);
        size_t nt;
        const sb_technique_info *t = sb_techniques(&nt);
        for (size_t k = 0; k < nt + (size_t)r->ntech; k++)
            fprintf(f, "%s\"%s\":{\"applications\":%llu,\"placements\":%llu,"
                       "\"eliminations\":%llu,\"calls\":%llu}",
                    k ? "," : "", k < nt ? t[k].name : r->tnames[k - nt],
                    (unsigned long long)r->counts[k].applications,
                    (unsigned long long)r->counts[k].placements,
                    (unsigned long long)r->counts[k].eliminations,
                    (unsigned long long)r->counts[k].calls);
        fputs("},", f);
        json_samples(f, r);
        for (int k = 0; r->ranks && k < nranks; k++) { /* MPI: each rank's share of the row */
            bench_row q = {0};
            row_totals(&q, &r->ranks[k], 1);
            fprintf(f, "%s{\"rank\":%d,\"puzzles\":%zu,\"seconds\":%.6f,\"puzzles_per_sec\":%.1f,"
                       "\"usec_per_puzzle\":%.4f,\"no_guess_pct\":%.3f,\"guesses_per_puzzle\":%.4f,"
                       "\"solved\":%zu,\"unsolvable\":%zu,\"multiple\":%zu",
                    k ? "," : ",\"per_rank\":[", k, q.puzzles, q.seconds, q.pps,
                    q.pps > 0 ? 1e6 / q.pps : 0.0, q.no_guess_pct, q.guesses, q.solved,
                    q.unsolvable, q.multiple);
            if (pair)
                fprintf(f, ",\"paired_pct\":%.3f", q.paired_pct);
            fputc(',', f);
            json_samples(f, &q);
            fputs(k + 1 < nranks ? "}" : "}]", f);
        }
        fputc('}', f);
    }
    fputs("\n]}\n", f);
    return whole_commit(o, path);
}

/* Prints the table's build line (naming geo unless 9x9, the CPU, the samples per row and
 * the load average at start) and column heads; under MPI (nranks > 0) with the ranks, a rank
 * column and a seconds column; where a paired kernel may run (pair_shown), the pair policy
 * and a column, %paired; last the spread, ±MAD%. */
static void print_header(const sb_geometry *geo, int simd, int threads,
                         unsigned long long limit, int nranks, const bench_host *host,
                         int repeat)
{
    const int pair = pair_shown(geo, simd);
    printf("# %s %s | compiler %s | flags %s | cpu %s | load ", CLI_NAME, SB_VERSION,
           CLI_COMPILER, SB_BUILD_FLAGS, host->cpu);
    if (host->load[0] >= 0)
        printf("%.2f", host->load[0]);
    else
        fputs("unknown", stdout);
    printf(" | repeat %d | simd %s | threads %d | limit %llu", repeat, sb_simd_name(simd),
           threads, limit);
    if (geo != sb_geometry_9x9())
        printf(" | grid %s", sb_geometry_name(geo));
    if (pair)
        printf(" | pair %s", sb_pair_name(sb_pair_resolve(SB_PAIR_AUTO)));
    if (nranks)
        printf(" | ranks %d (threads per rank)", nranks);
    printf("\n%s| dataset | pipeline | puzzles |%s puzzles/sec | usec/puzzle | %%no_guess | "
           "guesses/puzzle |%s \u00b1MAD%% |\n|%s---|---|---:|%s---:|---:|---:|---:|%s---:|\n",
           nranks ? "| rank " : "", nranks ? " seconds |" : "", pair ? " %paired |" : "",
           nranks ? "---|" : "", nranks ? "---:|" : "", pair ? "---:|" : "");
}

/* Prints a row of the table (with %paired where print_header put that column, then the
 * spread); under MPI its totals ("all") and then each rank's part. */
static void print_row(const bench_row *row, int nranks, int pair)
{
    char paired[32] = "";
    if (pair)
        snprintf(paired, sizeof paired, " %.1f |", row->paired_pct);
    if (!nranks) {
        printf("| %s | %s | %zu | %.1f | %.3f | %.1f | %.3f |%s %.1f |\n", row->dataset,
               row->pipeline, row->puzzles, row->pps, row->pps > 0 ? 1e6 / row->pps : 0.0,
               row->no_guess_pct, row->guesses, paired, mad_pct(row));
        return;
    }
    for (int k = -1; k < (row->ranks ? nranks : 0); k++) {
        bench_row r = *row; /* k = -1: the totals */
        char label[16] = "all";
        if (k >= 0) {
            row_totals(&r, &row->ranks[k], 1);
            snprintf(label, sizeof label, "%d", k);
            if (pair)
                snprintf(paired, sizeof paired, " %.1f |", r.paired_pct);
        }
        printf("| %s | %s | %s | %zu | %.3f | %.1f | %.3f | %.1f | %.3f |%s %.1f |\n", label,
               r.dataset, r.pipeline, r.puzzles, r.seconds, r.pps, r.pps > 0 ? 1e6 / r.pps : 0.0,
               r.no_guess_pct, r.guesses, paired, mad_pct(&r));
    }
}

/* Appends name to names (*n of cap) unless it is there already: a pipeline given twice is one
 * row, at its first place. @return 1 if added, 0 if there already, -1 after a message when
 * names is full. */
static int push_pipe(const char **names, int *n, int cap, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(names[i], name))
            return 0;
    if (*n == cap)
        return cli_usage_error("bench", "more than %d pipelines", cap), -1;
    names[(*n)++] = name;
    return 1;
}

/* Appends the pipelines of --pipelines LIST (registry names, fast+T with one technique T, or
 * 'all': every registry pipeline at its place in the list) to names, which holds *n of cap;
 * a fast+T name is kept in store[its index]. A comma separates rows here, so fast+ with
 * several techniques goes to --pipeline. @return 0, or -1 after a message. */
static int add_pipelines(const sb_options *opt, const char *arg, const char **names, int *n,
                         int cap, char (*store)[FAST_NAME_MAX])
{
    size_t np;
    const sb_pipeline_info *reg = sb_pipelines(&np);
    for (const char *tok = arg;;) {
        const size_t len = strcspn(tok, ",");
        char name[64];
        if (len == 0) /* "fast,,list", ",fast", "fast,": a typo, not a request for less */
            return cli_usage_error("bench", "empty pipeline name in --pipelines '%s'", arg), -1;
        snprintf(name, sizeof name, "%.*s", (int)len, tok);
        const int p = len < sizeof name ? sb_pipeline_find(name) : -1;
        if (p < 0 && !strcmp(name, "all")) {
            for (size_t i = 0; i < np; i++)
                if (push_pipe(names, n, cap, reg[i].name) < 0)
                    return -1;
        } else if (p < 0 && !strncmp(name, "fast+", 5) && len < FAST_NAME_MAX &&
            sb_options_explain(opt, name, NULL, 0) == SB_OK) {
            if (*n < cap)
                memcpy(store[*n], name, len + 1); /* kept only when it is a new row */
            if (push_pipe(names, n, cap, *n < cap ? store[*n] : name) < 0)
                return -1;
        } else if (p < 0 && cli_plugin_find(name)) {
            if (push_pipe(names, n, cap, sb_plugin_name(cli_plugin_find(name))) < 0)
                return -1;
        } else if (p < 0) {
            char known[256];
            return cli_usage_error("bench", "unknown pipeline '%.*s' in --pipelines (%s, fast+T, "
                                   "all; custom specs go to --pipeline)", (int)len, tok,
                                   cli_pipeline_names(known, sizeof known)), -1;
        } else if (push_pipe(names, n, cap, reg[p].name) < 0) {
            return -1;
        }
        if (!tok[len])
            return 0;
        tok += len + 1;
    }
}

/* A dataset's name: the file's base name, "<stdin>" for '-' (the table shows it through
 * cli_msg_dup, so a control byte cannot split its row). */
static const char *dataset_base(const char *path)
{
    const char *base = strrchr(path, '/');
    return strcmp(path, "-") ? base ? base + 1 : path : "<stdin>";
}

static int bench_run(sb_options *optp, const sb_geometry *geo, const char *const *pipes,
                     int npipes, size_t max_puzzles, double seconds, int repeat,
                     const char *json, bench_export *exports, int nexports,
                     const char *geometry_file, int threads, char *const *files, int nfiles);

/* Parses --seconds S: decimal digits with an optional fraction (no sign, exponent, hex, inf
 * or nan, as the whole-number options take only digits), 0..SB_BENCH_MAX_SECONDS. @return 0,
 * or -1. */
static int parse_seconds(const char *arg, double *out)
{
    const size_t whole = strspn(arg, "0123456789");
    const size_t frac = arg[whole] == '.' ? strspn(arg + whole + 1, "0123456789") : 0;
    const size_t len = whole + (arg[whole] == '.') + frac;
    if (arg[len] || whole + frac == 0)
        return -1;
    *out = strtod(arg, NULL);
    return *out <= SB_BENCH_MAX_SECONDS ? 0 : -1; /* what sb_bench_time accepts */
}

int cli_bench(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"pipelines", required_argument, 0, 'P'}, {"limit", required_argument, 0, 'l'},
        {"threads", required_argument, 0, 't'},   {"seconds", required_argument, 0, 'D'},
        {"simd", required_argument, 0, 'S'},      {"json", required_argument, 0, 'J'},
        {"pipeline", required_argument, 0, 'Q'},  {"max-puzzles", required_argument, 0, 'n'},
        {"repeat", required_argument, 0, 'R'},    {"export", required_argument, 0, 'E'},
        {"help", no_argument, 0, 'h'},            CLI_GRID_LONGOPTS, CLI_PLUGIN_LONGOPT,
        {0, 0, 0, 0}};
    cli_grid_opt gopt = {0};
    enum { MAX_PIPELINES = 64 };
    sb_options opt;
    sb_options_default(&opt);
    const char *pipes[MAX_PIPELINES];
    char fast_names[MAX_PIPELINES][FAST_NAME_MAX]; /* the fast+T rows of --pipelines */
    int npipes = 0, nargs = 0;
    /* --pipelines and --pipeline in the order given ('P' or 'Q' first), read once every
     * --plugin is loaded so that a row may name one wherever the options stand */
    const char *pargs[MAX_PIPELINES];
    char pkinds[MAX_PIPELINES];
    unsigned long long max_puzzles = 0;
    double seconds = DEFAULT_SECONDS_X10 / 10.0;
    const char *json = NULL;
    unsigned long long repeat = DEFAULT_REPEAT;
    bench_export exports[EXPORT_MAX];
    int nexports = 0;
    int threads = cli_default_threads(), ch;
    const cli_shared shared = {"bench", NULL, &threads, &opt.simd, &gopt};
    while ((ch = cli_getopt(&shared, argc, argv, ":l:t:n:h", longopts)) != -1) {
        switch (ch) {
        case 'P': /* --pipelines and --pipeline both add, in the order given */
        case 'Q':
            if (nargs == MAX_PIPELINES)
                return cli_usage_error("bench", "more than %d pipelines", MAX_PIPELINES);
            pkinds[nargs] = (char)ch;
            pargs[nargs++] = optarg;
            break;
        case 'n':
            if (!cli_parse_u64(optarg, &max_puzzles) || max_puzzles == 0)
                return cli_usage_error("bench", "bad --max-puzzles '%s' (%s)", optarg,
                                       cli_parse_u64(optarg, &max_puzzles)
                                           ? "a whole number >= 1" : cli_number_why(optarg));
            break;
        case 'l':
            if (cli_parse_limit("bench", optarg, &opt.limit))
                return CLI_EXIT_USAGE;
            break;
        case 'D':
            if (parse_seconds(optarg, &seconds))
                return cli_usage_error("bench", "bad --seconds '%s' (a decimal number, "
                                       "0..%d)", optarg, (int)SB_BENCH_MAX_SECONDS);
            break;
        case 'J': json = optarg; break;
        case 'R':
            if (!cli_parse_u64(optarg, &repeat) || repeat == 0 || repeat > REPEAT_MAX)
                return cli_usage_error("bench", "bad --repeat '%s' (%s)", optarg,
                                       cli_parse_u64(optarg, &repeat)
                                           ? "a whole number, 1.." REPEAT_MAX_TEXT
                                           : cli_number_why(optarg));
            break;
        case 'E': {
            const char *colon = strchr(optarg, ':');
            int fmt = -1;
            for (int k = 0; colon && k < (int)(sizeof export_names / sizeof *export_names); k++)
                if (strlen(export_names[k]) == (size_t)(colon - optarg) &&
                    !strncmp(optarg, export_names[k], (size_t)(colon - optarg)))
                    fmt = k;
            if (fmt < 0 || !colon[1])
                return cli_usage_error("bench", "bad --export '%s' (FORMAT:FILE, FORMAT one of "
                                       "gbench, bmf, github)", optarg);
            if (nexports == EXPORT_MAX)
                return cli_usage_error("bench", "more than %d --export files", EXPORT_MAX);
            exports[nexports++] = (bench_export){.format = (export_format)fmt, .path = colon + 1};
            break;
        }
        case CLI_OPT_PLUGIN:
            if (cli_plugin_load("bench", optarg))
                return CLI_EXIT_USAGE;
            break;
        case 'h': {
            sb_options d;
            sb_options_default(&d);
            char tbuf[64];
            printf(bench_help, (unsigned long long)d.limit, cli_threads_default(tbuf, sizeof tbuf),
                   DEFAULT_SECONDS_X10 / 10.0, REPEAT_MAX, DEFAULT_REPEAT);
            return CLI_EXIT_OK;
        }
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    cli_plugin_techniques(&opt);
    for (int i = 0; i < nargs; i++) {
        if (pkinds[i] == 'P') {
            if (add_pipelines(&opt, pargs[i], pipes, &npipes, MAX_PIPELINES, fast_names))
                return CLI_EXIT_USAGE;
            continue;
        }
        const sb_plugin *plug = cli_plugin_find(pargs[i]);
        if (!plug && cli_parse_pipeline("bench", pargs[i], &opt))
            return CLI_EXIT_USAGE;
        if (push_pipe(pipes, &npipes, MAX_PIPELINES, plug ? sb_plugin_name(plug) : pargs[i]) < 0)
            return CLI_EXIT_USAGE;
    }
    if (optind >= argc)
        return cli_usage_error("bench", "no FILE given (bench needs at least one puzzle file, "
                                        "or '-' for stdin)");
    sb_geometry *geo;
    if (cli_grid_pick("bench", &gopt, argv + optind, argc - optind, 0, &geo))
        return CLI_EXIT_USAGE;
    /* Other geometries default to fast alone: the reference pipelines take very long there.
     * With plug-ins, the rows are fast and each plug-in, checked against fast's verdicts. */
    if (npipes == 0) {
        if (add_pipelines(&opt, geo != sb_geometry_9x9() || cli_plugin_count() ? "fast" : "all",
                          pipes, &npipes, MAX_PIPELINES, fast_names)) {
            sb_geometry_free(geo);
            return CLI_EXIT_USAGE;
        }
        /* At most 16 plug-ins: room is left. A technique plug-in's row is fast with it (on
         * 9x9, in the fused kernel), or the restart order with it elsewhere. */
        for (int i = 0; i < cli_plugin_count(); i++) {
            const sb_plugin *pl = cli_plugin_at(i);
            if (!sb_plugin_is_technique(pl)) {
                push_pipe(pipes, &npipes, MAX_PIPELINES, sb_plugin_name(pl));
                continue;
            }
            snprintf(fast_names[npipes], FAST_NAME_MAX,
                     geo != sb_geometry_9x9() ? "restart:ns,hs,lc,%s" : "fast+%s",
                     sb_plugin_name(pl));
            push_pipe(pipes, &npipes, MAX_PIPELINES, fast_names[npipes]);
        }
    }
    const int rc = bench_run(&opt, geo, pipes, npipes, (size_t)max_puzzles, seconds,
                             (int)repeat, json, exports, nexports, gopt.file, threads,
                             argv + optind, argc - optind);
    sb_geometry_free(geo);
    return rc;
}

/* Removes the temporaries of the --json and export files opened so far (an unopened one, all
 * zeros, has no descriptor to close: its fd 0 is standard input). */
static void abort_outputs(cli_whole *json, bench_export *exports, int nexports)
{
    if (json->f)
        cli_whole_abort(json);
    for (int e = 0; e < nexports; e++)
        if (exports[e].o.f)
            cli_whole_abort(&exports[e].o);
}

/* Runs bench once the options are read: every FILE of files x pipes on geometry geo with
 * opt. @return the exit code. */
static int bench_run(sb_options *optp, const sb_geometry *geo, const char *const *pipes,
                     int npipes, size_t max_puzzles, double seconds, int repeat,
                     const char *json, bench_export *exports, int nexports,
                     const char *geometry_file, int threads, char *const *files, int nfiles)
{
    sb_options opt = *optp;
    /* Level problems are usage errors: found now, not after loading the first file. */
    const int level = sb_simd_resolve(opt.simd);
    if (level < 0)
        return cli_solver_error("bench", SB_ERR_SIMD, opt.simd);
    if (cli_plugin_techniques_ready("bench", &opt, geo, &threads))
        return CLI_EXIT_USAGE;
    for (int p = 0; p < npipes; p++) { /* a plug-in or pipeline that refuses the geometry */
        const sb_plugin *plug = cli_plugin_find(pipes[p]);
        if (plug && cli_plugin_check("bench", plug, geo))
            return CLI_EXIT_USAGE;
        if (plug) /* every row at the same thread count, so the rows compare */
            cli_plugin_threads("bench", plug, &threads);
        if (plug || geo == sb_geometry_9x9())
            continue;
        sb_options_pipeline(&opt, pipes[p]);
        if (cli_engine_check("bench", geo, &opt))
            return CLI_EXIT_USAGE;
    }
    /* The JSON and export files are opened first: a bad path must fail before minutes of
     * measuring. Under MPI rank 0 writes them, and every rank learns whether it could. */
    cli_whole jo = {0};
    cli_write w[EXPORT_MAX + 2];
    int nw = 0;
    if (json)
        w[nw++] = (cli_write){"--json", json};
    for (int e = 0; e < nexports; e++)
        w[nw++] = (cli_write){"--export", exports[e].path};
    w[nw++] = (cli_write){"standard output", NULL};
    if (cli_paths_refuse("bench", w, nw, files, nfiles, geometry_file))
        return CLI_EXIT_USAGE; /* every rank: they all see the same files */
    int open_failed = 0;
    for (int k = 0; k + 1 < nw && cli_mpi_rank() == 0 && !open_failed; k++) {
        cli_whole *o = json && k == 0 ? &jo : &exports[k - (json != NULL)].o;
        if (cli_whole_open(o, w[k].path) != 0) {
            const int err = errno;
            char *name = cli_msg_dup(w[k].path);
            fprintf(stderr, CLI_NAME ": cannot open '%s' for %s: %s\n",
                    name ? name : w[k].path, w[k].opt, strerror(err));
            free(name);
            open_failed = 1;
        }
    }
    if (agree(open_failed)) {
        abort_outputs(&jo, exports, nexports);
        return CLI_EXIT_USAGE;
    }
    const int nranks = cli_mpi_size();
    bench_host host;
    host_read(&host); /* the load before this run adds its own */
    cli_buf notes = {0};

    bench_row *rows = calloc((size_t)nfiles * (size_t)npipes, sizeof *rows);
    char **names = calloc((size_t)nfiles, sizeof *names);
    if (!rows || !names) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        free(rows);
        free(names);
        abort_outputs(&jo, exports, nexports);
        return CLI_EXIT_USAGE;
    }
    opt.stop = cli_stop_flag();
    cli_stop_state stop;
    cli_stop_begin(&stop);
    size_t nrows = 0, invalid = 0;
    int rc = 0, failed = 0, header = 0;
    for (int fi = 0; fi < nfiles && !rc; fi++) {
        dataset d = {.g = geo, .max = max_puzzles};
        const int lrc = load(&files[fi], &d, threads);
        if (lrc == CLI_EXIT_INTERRUPTED || cli_stop_requested()) {
            rc = CLI_EXIT_INTERRUPTED;
        } else if (d.oom) {
            fprintf(stderr, CLI_NAME ": %s: out of memory loading puzzles\n",
                    files[fi]);
            rc = CLI_EXIT_USAGE;
        } else if (lrc) {
            failed = 1; /* reported (cannot open, read error); the other files still run */
        }
        if (!rc && !lrc && !(names[fi] = cli_msg_dup(dataset_base(files[fi]))))
            rc = cli_oom();
        rc = agree(rc);
        for (int p = 0; p < npipes && !rc && !lrc; p++) {
            bench_row *row = &rows[nrows];
            row->dataset = names[fi];
            row->name = dataset_base(files[fi]);
            row->pipeline = pipes[p];
            opt.plugin = cli_plugin_find(pipes[p]);
            if (!opt.plugin)
                sb_options_pipeline(&opt, pipes[p]); /* checked when parsed */
            rc = bench_one(&d, &opt, threads, seconds, repeat, &notes, row);
            if (rc)
                break;
            if (!header) {
                print_header(geo, row->simd, threads, (unsigned long long)opt.limit, nranks,
                             &host, repeat);
                header = 1;
            }
            print_row(row, nranks, pair_shown(geo, row->simd));
            if (fflush(stdout) != 0) { /* a full disk now, not after every row has run */
                fprintf(stderr, CLI_NAME ": write error: standard output: %s\n",
                        strerror(errno));
                rc = CLI_EXIT_USAGE;
            }
            rc = agree(rc); /* rank 0's write error stops every rank */
            nrows++;
        }
        invalid += d.invalid;
        sb_bench_free(d.set);
        free(d.verdict);
    }
    cli_stop_end(&stop);
    /* Notes and warnings after the table, never inside it (stdout first: both may be one
     * terminal or file). */
    fflush(stdout);
    if (notes.len)
        fwrite(notes.data, 1, notes.len, stderr);
    sb_buf_free(&notes);
    if (seconds >= WARN_MIN_SECONDS && cli_mpi_rank() == 0)
        print_warnings(rows, nrows, &host, threads, nranks);
    if (rc == CLI_EXIT_INTERRUPTED)
        fprintf(stderr, CLI_NAME ": bench: interrupted after %zu rows\n", nrows);
    /* The rows that finished stand, interrupted or not: the JSON and export files hold
     * them. */
    const bench_ctx ctx = {.host = &host, .threads = threads, .simd = level, .nranks = nranks,
                           .limit = (unsigned long long)opt.limit};
    if (jo.f) {
        const int jrc = write_json(&jo, json, geo, rows, nrows, &ctx, repeat);
        if (!rc)
            rc = jrc;
    }
    for (int e = 0; e < nexports; e++) {
        if (!exports[e].o.f)
            continue; /* not rank 0 */
        FILE *f = exports[e].o.f;
        if (exports[e].format == EXPORT_GBENCH)
            write_gbench(f, rows, nrows, &ctx);
        else if (exports[e].format == EXPORT_BMF)
            write_bmf(f, rows, nrows);
        else
            write_github(f, rows, nrows, &ctx);
        const int erc = whole_commit(&exports[e].o, exports[e].path);
        if (!rc)
            rc = erc;
    }
    for (int fi = 0; fi < nfiles; fi++)
        free(names[fi]);
    for (size_t r = 0; r < nrows; r++)
        free(rows[r].ranks);
    free(names);
    free(rows);
    if (!rc && failed)
        rc = CLI_EXIT_USAGE;
    if (!rc && invalid)
        rc = CLI_EXIT_INVALID; /* rows stand, measured on the valid puzzles */
    return rc;
}
