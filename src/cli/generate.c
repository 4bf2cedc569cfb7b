/*
 * generate.c — the `generate` and `augment` commands: corpora of millions of puzzles.
 *
 * Both write through one large buffer with a single fwrite per megabyte, never a printf
 * per puzzle, since at millions of records per second the formatting calls would dominate.
 * generate makes blocks of puzzles with OpenMP (one sb_generator per thread) and writes each
 * block in index order; puzzle i depends only on (seed, i, options), so the bytes are the
 * same for any thread count. augment draws transform i from rng stream i of the seed.
 */
#include <getopt.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
    OUT_BUF = 1 << 20,      /* bytes of output gathered per fwrite */
    RECORD_MAX = 512,       /* longest generate record (json with two grids) */
    GEN_BLOCK = 4096,       /* puzzles generated in parallel between two writes */
    CLUES_EASY_FLOOR = 20   /* --clues below this is rarely reached by random digging */
};

/* Output formats of generate, in the order --help lists them. */
typedef enum gen_format {
    GF_PUZZLE, GF_TDOKU, GF_CSV, GF_JSON, GF_KAGGLE, GF_COUNT
} gen_format;

static const char *const gen_format_names[GF_COUNT] = {"puzzle", "tdoku", "csv", "json",
                                                       "kaggle"};

/* A buffered writer: records are formatted into buf and written a megabyte at a time. */
typedef struct out_buf {
    FILE *out;  /* the destination stream */
    char *buf;  /* OUT_BUF bytes */
    size_t len; /* bytes waiting in buf */
    int error;  /* a write failed */
} out_buf;

/* Writes what buf holds; records a failed write. */
static void out_flush(out_buf *o)
{
    if (o->len && fwrite(o->buf, 1, o->len, o->out) != o->len)
        o->error = 1;
    o->len = 0;
}

/* Returns room for at least `need` (<= OUT_BUF) more bytes at the end of buf. */
static char *out_room(out_buf *o, size_t need)
{
    if (o->len + need > OUT_BUF)
        out_flush(o);
    return o->buf + o->len;
}

/* Appends a NUL-terminated string (headers; records are formatted in place). */
static void out_text(out_buf *o, const char *s)
{
    const size_t n = strlen(s);
    memcpy(out_room(o, n), s, n);
    o->len += n;
}

/* Flushes and frees the writer; returns 0, or CLI_EXIT_USAGE after a write error message. */
static int out_close(out_buf *o)
{
    out_flush(o);
    if (fflush(o->out) != 0)
        o->error = 1;
    free(o->buf);
    if (o->error) {
        fprintf(stderr, CLI_NAME ": write error on standard output\n");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* Copies a grid as 81 characters, blanks as `blank`, into dst; returns dst + 81. */
static char *put_grid(char *dst, const sb_grid *g, char blank)
{
    for (int c = 0; c < SB_CELLS; c++)
        dst[c] = g->cell[c] ? (char)('0' + g->cell[c]) : blank;
    return dst + SB_CELLS;
}

/* Appends one generated puzzle, number index, in format f. */
static void put_generated(out_buf *o, gen_format f, unsigned long long index,
                          const sb_generated *p)
{
    char *const start = out_room(o, RECORD_MAX), *d = start;
    char sol[SB_GRID_TEXT], puz[SB_GRID_TEXT];
    switch (f) {
    case GF_PUZZLE: d = put_grid(d, &p->puzzle, '.'); break;
    case GF_TDOKU:
        d = put_grid(d, &p->puzzle, '.');
        memcpy(d, ":1:", 3);
        d = put_grid(d + 3, &p->solution, '0');
        break;
    case GF_KAGGLE:
        d = put_grid(d, &p->puzzle, '0');
        *d++ = ',';
        d = put_grid(d, &p->solution, '0');
        break;
    case GF_CSV:
    case GF_JSON:
        sb_grid_format(&p->puzzle, puz);
        sb_grid_format(&p->solution, sol);
        d += snprintf(d, RECORD_MAX, f == GF_CSV ? "%llu,%s,%d,%llu,%s"
                      : "{\"index\":%llu,\"puzzle\":\"%s\",\"clues\":%d,\"guesses\":%llu,"
                        "\"solution\":\"%s\"}",
                      index, puz, p->clues, (unsigned long long)p->guesses, sol);
        break;
    default: break;
    }
    *d++ = '\n';
    o->len += (size_t)(d - start);
}

static const char generate_help[] =
    "Usage: " CLI_NAME " generate -n COUNT [OPTIONS]\n"
    "Make COUNT puzzles with exactly one solution, one record per line, in index order.\n"
    "Puzzle i depends only on the seed, i and the options: any thread count gives the same\n"
    "bytes.\n\n"
    "  -n, --count N        puzzles to make (required)\n"
    "      --seed S         random seed (default %llu)\n"
    "      --first I        index of the first puzzle, to split a run into shards (default 0)\n"
    "  -t, --threads N      worker threads (default: all cores, %d here)\n"
    "      --minimal        dig until no clue can be removed (slower; by default digging\n"
    "                       stops at the first clue found necessary)\n"
    "      --clues K        at most K clues, %d..81 (default no bound); below %d rarely\n"
    "                       reached: candidates are retried up to --attempts times\n"
    "      --symmetry SYM   clue pattern: none, rot180, rot90, mirror, diagonal (default %s)\n"
    "      --guesses RANGE  keep puzzles whose guess count (as 'solve' reports it with -l 2)\n"
    "                       is in RANGE: MIN-MAX, MIN- or N (default any)\n"
    "      --attempts N     candidates per puzzle before giving up (default %llu)\n"
    "  -f, --format FMT     puzzle (81 chars), tdoku (puzzle:1:solution), csv, json,\n"
    "                       kaggle (quizzes,solutions) (default %s)\n"
    "      --simd LEVEL     auto, scalar, sse4, avx2, avx512, neon (default auto; same output on all)\n"
    "      --stats          print a summary line to stderr at the end\n"
    "  -h, --help           show this help\n\n"
    "csv columns: index,puzzle,clues,guesses,solution; json keys in the same order.\n"
    "Exit: 0 all made; 1 a puzzle met --clues/--guesses in no candidate of --attempts (the\n"
    "records before it are written); 2 usage or I/O error.\n";

/* Parses a whole number >= 0 given to option `what` of cmd; 0 or CLI_EXIT_USAGE. */
static int parse_whole(const char *cmd, const char *what, const char *arg,
                       unsigned long long *out)
{
    return cli_parse_u64(arg, out) ? 0
                                   : cli_usage_error(cmd, "bad %s '%s' (a whole number >= 0)",
                                                     what, arg);
}

/* Parses --guesses RANGE (MIN-MAX, MIN- or N) into opt; 0 or CLI_EXIT_USAGE. */
static int parse_guesses(const char *arg, sb_gen_options *opt)
{
    char lo[32];
    const char *dash = strchr(arg, '-');
    const size_t n = dash ? (size_t)(dash - arg) : strlen(arg);
    unsigned long long min, max = UINT64_MAX;
    if (n >= sizeof lo)
        return cli_usage_error("generate", "bad --guesses '%s' (MIN-MAX, MIN- or N)", arg);
    memcpy(lo, arg, n);
    lo[n] = '\0';
    if (!cli_parse_u64(lo, &min) || (dash && dash[1] && !cli_parse_u64(dash + 1, &max)))
        return cli_usage_error("generate", "bad --guesses '%s' (MIN-MAX, MIN- or N)", arg);
    if (!dash)
        max = min;
    if (min > max)
        return cli_usage_error("generate", "bad --guesses '%s': MIN is above MAX", arg);
    opt->min_guesses = min;
    opt->max_guesses = max;
    return 0;
}

/* Totals for --stats. */
typedef struct gen_stats {
    unsigned long long made;     /* puzzles written */
    unsigned long long clues;    /* sum of clue counts */
    unsigned long long guesses;  /* sum of guess counts */
    unsigned long long attempts; /* sum of candidates made */
    int min_clues, max_clues;    /* range of clue counts */
} gen_stats;

/* Makes puzzles first..first+count-1 with `threads` generators and writes them in order.
 * Returns 0, CLI_EXIT_INVALID after a give-up, or CLI_EXIT_USAGE. */
static int generate_run(const sb_gen_options *opt, unsigned long long first,
                        unsigned long long count, int threads, gen_format f, out_buf *o,
                        gen_stats *st)
{
    sb_generator **gen = calloc((size_t)threads, sizeof *gen);
    sb_generated *block = malloc(GEN_BLOCK * sizeof *block);
    int *made = malloc(GEN_BLOCK * sizeof *made);
    int rc = (!gen || !block || !made) ? SB_ERR_NOMEM : SB_OK;
    for (int t = 0; t < threads && rc == SB_OK; t++)
        rc = sb_generator_new(&gen[t], opt);
    if (rc != SB_OK) {
        count = 0; /* nothing to make: report why below */
        rc = cli_solver_error(rc, opt->simd);
    }
    for (unsigned long long done = 0; done < count && rc == 0;) {
        const long n = (long)(count - done < GEN_BLOCK ? count - done : GEN_BLOCK);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
        for (long i = 0; i < n; i++)
            made[i] = sb_generate(gen[omp_get_thread_num()], first + done + (unsigned long long)i,
                                  &block[i]);
        for (long i = 0; i < n && rc == 0; i++) {
            const unsigned long long index = first + done + (unsigned long long)i;
            if (made[i] != 1) {
                fprintf(stderr, CLI_NAME ": generate: puzzle %llu: no candidate met --clues %d "
                                "and the --guesses range in %llu attempts\n",
                        index, opt->max_clues, (unsigned long long)opt->max_attempts);
                rc = CLI_EXIT_INVALID;
                break;
            }
            put_generated(o, f, index, &block[i]);
            st->made++;
            st->clues += (unsigned long long)block[i].clues;
            st->guesses += block[i].guesses;
            st->attempts += block[i].attempts;
            if (block[i].clues < st->min_clues)
                st->min_clues = block[i].clues;
            if (block[i].clues > st->max_clues)
                st->max_clues = block[i].clues;
        }
        done += (unsigned long long)n;
    }
    for (int t = 0; gen && t < threads; t++)
        sb_generator_free(gen[t]);
    free(gen);
    free(block);
    free(made);
    return rc;
}

int cli_generate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"count", required_argument, 0, 'n'},    {"seed", required_argument, 0, 'e'},
        {"first", required_argument, 0, 'i'},    {"threads", required_argument, 0, 't'},
        {"minimal", no_argument, 0, 'm'},        {"clues", required_argument, 0, 'c'},
        {"symmetry", required_argument, 0, 'y'}, {"guesses", required_argument, 0, 'g'},
        {"attempts", required_argument, 0, 'a'}, {"format", required_argument, 0, 'f'},
        {"simd", required_argument, 0, 'S'},     {"stats", no_argument, 0, 'T'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    sb_gen_options opt;
    sb_gen_options_default(&opt);
    unsigned long long count = 0, first = 0, v;
    int have_count = 0, stats = 0, threads = omp_get_max_threads(), ch;
    gen_format f = GF_PUZZLE;
    optind = 1;
    opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
    while ((ch = getopt_long(argc, argv, ":n:t:f:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'n':
            if (parse_whole("generate", "count", optarg, &count))
                return CLI_EXIT_USAGE;
            have_count = 1;
            break;
        case 'e':
            if (parse_whole("generate", "seed", optarg, &v))
                return CLI_EXIT_USAGE;
            opt.seed = v;
            break;
        case 'i':
            if (parse_whole("generate", "--first", optarg, &first))
                return CLI_EXIT_USAGE;
            break;
        case 't':
            if (cli_parse_threads("generate", optarg, &threads))
                return CLI_EXIT_USAGE;
            break;
        case 'm': opt.minimal = 1; break;
        case 'c':
            if (!cli_parse_u64(optarg, &v) || v > SB_CELLS)
                return cli_usage_error("generate", "bad --clues '%s' (%d..81)", optarg,
                                       SB_MIN_CLUES);
            if (v < SB_MIN_CLUES)
                return cli_usage_error("generate", "--clues %llu is infeasible: no puzzle with "
                                       "fewer than %d clues has exactly one solution", v,
                                       SB_MIN_CLUES);
            opt.max_clues = (int)v;
            break;
        case 'y':
            opt.symmetry = sb_symmetry_parse(optarg);
            if (opt.symmetry < 0)
                return cli_usage_error("generate", "unknown symmetry '%s' (none, rot180, rot90, "
                                       "mirror, diagonal)", optarg);
            break;
        case 'g':
            if (parse_guesses(optarg, &opt))
                return CLI_EXIT_USAGE;
            break;
        case 'a':
            if (!cli_parse_u64(optarg, &v) || v == 0)
                return cli_usage_error("generate", "bad --attempts '%s' (a whole number >= 1)",
                                       optarg);
            opt.max_attempts = v;
            break;
        case 'f':
            for (f = 0; f < GF_COUNT && strcmp(optarg, gen_format_names[f]); f++)
                ;
            if (f == GF_COUNT)
                return cli_usage_error("generate", "unknown format '%s' (puzzle, tdoku, csv, "
                                       "json, kaggle)", optarg);
            break;
        case 'S':
            if (cli_parse_simd("generate", optarg, &opt.simd))
                return CLI_EXIT_USAGE;
            break;
        case 'T': stats = 1; break;
        case 'h': {
            sb_gen_options d;
            sb_gen_options_default(&d);
            printf(generate_help, (unsigned long long)d.seed, omp_get_max_threads(),
                   SB_MIN_CLUES, CLUES_EASY_FLOOR, sb_symmetry_name(d.symmetry),
                   (unsigned long long)d.max_attempts, gen_format_names[GF_PUZZLE]);
            return CLI_EXIT_OK;
        }
        default: return cli_getopt_error("generate", ch, argv);
        }
    }
    if (optind < argc)
        return cli_usage_error("generate", "unexpected argument '%s'", argv[optind]);
    if (!have_count)
        return cli_usage_error("generate", "missing -n COUNT");
    if (opt.max_clues < CLUES_EASY_FLOOR)
        fprintf(stderr, CLI_NAME ": note: --clues %d: random digging rarely reaches fewer than "
                        "%d clues; a puzzle may take up to %llu attempts and then give up\n",
                opt.max_clues, CLUES_EASY_FLOOR, (unsigned long long)opt.max_attempts);
    out_buf o = {.out = stdout, .buf = malloc(OUT_BUF)};
    if (!o.buf) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    if (f == GF_CSV)
        out_text(&o, "index,puzzle,clues,guesses,solution\n");
    else if (f == GF_KAGGLE)
        out_text(&o, "quizzes,solutions\n");
    gen_stats st = {.min_clues = SB_CELLS};
    const double t0 = cli_now_seconds();
    int rc = generate_run(&opt, first, count, threads, f, &o, &st);
    const int wrc = out_close(&o);
    const double secs = cli_now_seconds() - t0;
    if (stats && st.made) {
        const double n = (double)st.made;
        fprintf(stderr, "stats: %llu puzzles, %.2f clues/puzzle (%d..%d), %.3f guesses/puzzle, "
                        "%.2f attempts/puzzle, %d threads, %.3f s, %.0f puzzles/s\n",
                st.made, (double)st.clues / n, st.min_clues, st.max_clues,
                (double)st.guesses / n, (double)st.attempts / n, threads, secs,
                secs > 0 ? n / secs : 0.0);
    }
    return rc ? rc : wrc;
}

/* The valid puzzles of augment's inputs. */
typedef struct puzzle_set {
    sb_grid *grid; /* puzzles in input order */
    size_t n;      /* puzzles held */
    size_t cap;    /* room in grid */
    size_t invalid; /* invalid lines seen (reported by the iterator, skipped) */
} puzzle_set;

/* Record callback of augment: keep every valid puzzle. Returns CLI_EXIT_USAGE when out of
 * memory, else 0. */
static int keep_puzzle(void *ctx, const char *name, const sb_record *rec)
{
    (void)name;
    puzzle_set *s = ctx;
    if (rec->kind != SB_LINE_PUZZLE) {
        s->invalid++;
        return 0;
    }
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 1024;
        sb_grid *g = realloc(s->grid, cap * sizeof *g);
        if (!g) {
            fprintf(stderr, CLI_NAME ": out of memory\n");
            return CLI_EXIT_USAGE;
        }
        s->grid = g;
        s->cap = cap;
    }
    s->grid[s->n++] = rec->grid;
    return 0;
}

static const char augment_help[] =
    "Usage: " CLI_NAME " augment -n COUNT [OPTIONS] [FILE...|-]\n"
    "Write COUNT random validity-preserving transforms of the input puzzles (stdin when no\n"
    "FILE), one 81-character line each: output i is input puzzle i mod P (P valid input\n"
    "puzzles, in input order) under a transform drawn from (seed, i). A transform relabels\n"
    "digits, reorders bands, rows within bands, stacks, columns within stacks, and may\n"
    "transpose, so every output has exactly as many solutions as its input.\n\n"
    "  -n, --count N        puzzles to write (required)\n"
    "      --seed S         random seed (default %llu)\n"
    "      --stats          print a summary line to stderr at the end\n"
    "  -h, --help           show this help\n\n"
    "Invalid input lines are reported and skipped.\n"
    "Exit: 0 every input line was a puzzle, 1 some were invalid, 2 usage or I/O error (or no\n"
    "valid puzzle to transform).\n";

int cli_augment(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"count", required_argument, 0, 'n'}, {"seed", required_argument, 0, 'e'},
        {"stats", no_argument, 0, 'T'},       {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    unsigned long long count = 0, seed = 0;
    int have_count = 0, stats = 0, ch;
    optind = 1;
    opterr = 0; /* messages come from cli_getopt_error, in the program's own form */
    while ((ch = getopt_long(argc, argv, ":n:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'n':
            if (parse_whole("augment", "count", optarg, &count))
                return CLI_EXIT_USAGE;
            have_count = 1;
            break;
        case 'e':
            if (parse_whole("augment", "seed", optarg, &seed))
                return CLI_EXIT_USAGE;
            break;
        case 'T': stats = 1; break;
        case 'h': printf(augment_help, 0ULL); return CLI_EXIT_OK;
        default: return cli_getopt_error("augment", ch, argv);
        }
    }
    if (!have_count)
        return cli_usage_error("augment", "missing -n COUNT");
    puzzle_set set = {0};
    int rc = cli_for_each_record(argv + optind, argc - optind, keep_puzzle, &set);
    if (rc == 0 && set.n == 0 && count > 0) {
        fprintf(stderr, CLI_NAME ": augment: no valid puzzle in the input\n");
        rc = CLI_EXIT_USAGE;
    }
    out_buf o = {.out = stdout, .buf = rc ? NULL : malloc(OUT_BUF)};
    if (rc == 0 && !o.buf) {
        fprintf(stderr, CLI_NAME ": out of memory\n");
        rc = CLI_EXIT_USAGE;
    }
    if (rc) {
        free(set.grid);
        return rc;
    }
    const double t0 = cli_now_seconds();
    sb_transform t;
    sb_rng rng;
    size_t src = 0;
    for (unsigned long long i = 0; i < count; i++) {
        char *d = out_room(&o, SB_CELLS + 1);
        sb_rng_seed(&rng, seed, i);
        sb_transform_random(&t, &rng);
        sb_transform_format(&t, &set.grid[src], d);
        d[SB_CELLS] = '\n';
        o.len += SB_CELLS + 1;
        if (++src == set.n)
            src = 0;
    }
    rc = out_close(&o);
    const double secs = cli_now_seconds() - t0;
    if (stats)
        fprintf(stderr, "stats: %llu puzzles from %zu inputs, %.3f s, %.0f puzzles/s\n", count,
                set.n, secs, secs > 0 ? (double)count / secs : 0.0);
    free(set.grid);
    if (rc)
        return rc;
    return set.invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
