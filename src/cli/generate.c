/*
 * generate.c — the `generate` and `augment` commands: corpora of millions of puzzles.
 *
 * Both run as item runs of the batch engine (batch.c): items are made in parallel (one
 * sb_generator per thread for generate), formatted straight into the engine's chunk buffers
 * and written in index order, so the bytes are the same for any thread count, and a signal
 * ends the output on a record boundary with the "interrupted" message and exit 130, as for
 * solve. Puzzle i depends only on (seed, i, options); augment draws transform i from rng
 * stream i of the seed.
 *
 * One path for every geometry: the run holds the geometry (sb_geometry_9x9(): the 9x9 fast
 * path, whose library calls are sb_generate and sb_transform_*), and only the library call and
 * the record layout of an item differ (sb_ggenerate and sb_gaugment elsewhere). Options the
 * generator of another geometry lacks are refused one by one, naming the option and the
 * geometry.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { CLUES_EASY_FLOOR = 20 /* --clues below this is rarely reached by random digging */ };

/* Output formats of generate, in the order --help lists them. */
typedef enum gen_format {
    GF_PUZZLE, GF_TDOKU, GF_CSV, GF_JSON, GF_KAGGLE, GF_PRETTY, GF_COUNT
} gen_format;

static const char *const gen_format_names[GF_COUNT] = {"puzzle", "tdoku", "csv", "json",
                                                       "kaggle", "pretty"};

/* Totals for --stats, over the records written. */
typedef struct gen_stats {
    unsigned long long made;     /* puzzles written */
    unsigned long long clues;    /* sum of clue counts */
    unsigned long long guesses;  /* sum of guess counts */
    unsigned long long attempts; /* sum of candidates made */
    unsigned long long undecided; /* sum of givens kept undecided (sb_ggenerated.undecided) */
    int min_clues, max_clues;    /* range of clue counts */
} gen_stats;

/* One generate run: what the workers read, the totals after. */
typedef struct gen_run {
    sb_geometry *g;           /* the geometry (the run owns it; sb_geometry_9x9(): the 9x9 fast
                                 path) */
    int other;                /* g is another geometry than 9x9: sb_ggenerate */
    sb_geometry *nine;        /* 9x9: the 3x3 geometry its records are written as (owned) */
    sb_gen_options opt;       /* every 9x9 generator's options (seed and max_attempts: all) */
    sb_ggen_options gopt;     /* every generator's options on geometry g */
    int form;                 /* the sb_gform of g's records */
    unsigned long long first; /* index of item 0 */
    gen_format format;        /* record format */
    const char *guesses_arg;  /* --guesses as given, for the give-up message (NULL: none) */
    int cls;                  /* --class: keep puzzles `rate` puts in this sb_class (-1: any) */
    gen_stats st;             /* committed totals */
} gen_run;

/* Appends before, v in decimal, then after (short literals). */
static void put_fields(cli_buf *o, const char *before, unsigned long long v, const char *after)
{
    const size_t nb = strlen(before), na = strlen(after);
    char *d = cli_buf_reserve(o, nb + CLI_U64_DIGITS + na);
    if (!d)
        return;
    memcpy(d, before, nb);
    char *e = cli_put_u64(d + nb, v);
    memcpy(e, after, na);
    o->len += (size_t)(e + na - d);
}

/* Appends generated puzzle number index of run r in its format: cells of its geometry in
 * r->form (9x9: the 3x3 geometry, whose text is the 81-character line); p tells its clues,
 * guesses and attempts. The 9x9 records keep their own kaggle columns and pretty header. */
static void put_generated(cli_buf *o, const gen_run *r, unsigned long long index,
                          const uint8_t *puzzle, const uint8_t *solution, const sb_ggenerated *p)
{
    const sb_geometry *g = r->other ? r->g : r->nine;
    const int form = r->form;
    switch (r->format) {
    case GF_TDOKU:
        cli_put_gcells(o, g, puzzle, form);
        sb_buf_put(o, ":1:", 3);
        cli_put_gcells(o, g, solution, form);
        break;
    case GF_KAGGLE: { /* 9x9 only: blanks as '0' */
        char *d = cli_buf_reserve(o, 2 * SB_CELLS + 1), *e;
        if (!d)
            return;
        e = cli_put_grid(d, (const sb_grid *)(const void *)puzzle, '0');
        *e++ = ',';
        o->len += (size_t)(cli_put_grid(e, (const sb_grid *)(const void *)solution, '0') - d);
        break;
    }
    case GF_CSV:
        put_fields(o, "", index, ",");
        cli_put_gcsv_cells(o, g, puzzle, form);
        put_fields(o, ",", (unsigned long long)p->clues, ",");
        put_fields(o, "", p->guesses, ",");
        cli_put_gcsv_cells(o, g, solution, form);
        break;
    case GF_JSON:
        put_fields(o, "{\"index\":", index, ",\"puzzle\":\"");
        cli_put_gcells(o, g, puzzle, form);
        put_fields(o, "\",\"clues\":", (unsigned long long)p->clues, ",\"guesses\":");
        put_fields(o, "", p->guesses, ",\"solution\":\"");
        cli_put_gcells(o, g, solution, form);
        sb_buf_put(o, "\"}", 2);
        break;
    case GF_PRETTY: /* as solve -f pretty: the givens beside the solution */
        if (r->other)
            sb_buf_printf(o, "# puzzle %llu (%d clues)\n", index, p->clues);
        else
            sb_buf_printf(o, "# puzzle %llu (clues %d, guesses %llu)\n", index, p->clues,
                          (unsigned long long)p->guesses);
        cli_put_gpretty(o, g, puzzle, solution);
        break;
    default: cli_put_gcells(o, g, puzzle, form); break;
    }
    sb_buf_put(o, "\n", 1);
}

static const char generate_help[] =
    "Usage: " CLI_NAME " generate -n COUNT [OPTIONS]\n"
    "Make COUNT puzzles with exactly one solution, one record per line, in index order.\n"
    "Puzzle i depends only on the seed, i and the options: any thread count gives the same\n"
    "bytes.\n\n"
    "  -n, --count N        puzzles to make (required)\n"
    "      --seed S         random seed (default %llu)\n"
    "      --first I        index of the first puzzle, to split a run into shards (default 0)\n"
    "  -t, --threads N      worker threads (%s)\n"
    "      --minimal        dig until no clue can be removed (slower; by default digging\n"
    "                       stops at the first clue found necessary)\n"
    "      --clues K        at most K clues, %d..81 (default no bound); below %d rarely\n"
    "                       reached: candidates are retried up to --attempts times\n"
    "                       (another geometry: N-1..cells, N its digits)\n"
    "      --symmetry SYM   clue pattern: none, rot180, rot90, mirror, diagonal (default %s);\n"
    "                       another geometry takes those that map its houses onto houses\n"
    "      --guesses RANGE  keep puzzles whose guess count (as 'solve' reports it with -l 2)\n"
    "                       is in RANGE: MIN-MAX, MIN- or N (default any)\n"
    "      --class CLASS    keep puzzles 'rate' puts in CLASS: singles, hidden, locked,\n"
    "                       tuples, fish, wings, chains, search (alias --difficulty;\n"
    "                       default any)\n"
    "      --attempts N     candidates per puzzle before giving up (default %llu)\n"
    "  -f, --format FMT     puzzle (81 chars), tdoku (puzzle:1:solution), csv, json,\n"
    "                       kaggle (quizzes,solutions), pretty (default %s)\n"
    "      --simd LEVEL     auto, scalar, sse4, avx2, avx512bw, avx512, neon (default auto;\n"
    "                       same output on all)\n"
    "      --stats          print a summary line to stderr at the end: puzzles (geometry),\n"
    "                       clues/puzzle (MIN..MAX), guesses/puzzle, attempts/puzzle,\n"
    "                       undecided clues (kept when a check ran out of guesses: 5x5 and\n"
    "                       other geometries above 16 digits), threads, seconds, puzzles/s\n"
    "      --progress WHEN  progress line of puzzles made on stderr: auto, always, never\n"
    "                       (default auto: when stderr is a terminal)\n"
    "  -o, --output FILE    write standard output to FILE (the same bytes)\n"
    "      --grid SPEC      another geometry (RxC, latin:N, cube:K, x:RxC): unique, minimal\n"
    "                       puzzles (above 16 digits minimal but for the undecided clues);\n"
    "                       --guesses, --class and -f kaggle are 9x9 only\n"
    "      --geometry FILE  a geometry from a file, as --grid\n"
    "  -h, --help           show this help\n\n"
    "csv columns: index,puzzle,clues,guesses,solution; json keys in the same order.\n"
    "Exit: 0 all made; 1 a puzzle met --clues/--guesses/--class in no candidate of --attempts\n"
    "(the records before it are written); 2 usage or I/O error; 130 interrupted.\n";

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

/* What one puzzle leaves for the totals (cli_batch.tag_size bytes). */
typedef struct gen_tag {
    uint64_t guesses;  /* its guesses */
    uint64_t attempts; /* candidates it took */
    int clues;         /* its clues */
    int undecided;     /* givens kept undecided (0 on 9x9) */
} gen_tag;

/* One thread's state: its generator and the shared, read-only run. */
typedef struct gen_worker {
    sb_generator *g;     /* this thread's generator (9x9) */
    sb_ggenerator *gg;   /* ... or on the run's geometry */
    uint8_t *puzzle;     /* geometry: the puzzle made, cells bytes */
    uint8_t *solution;   /* geometry: its solution */
    const gen_run *r;    /* the run */
} gen_worker;

/* Creates one thread's generator (cli_batch.worker_new). */
static int gen_worker_new(void *ctx, void **out)
{
    const gen_run *r = ctx;
    gen_worker *w = cli_alloc_lines(sizeof *w);
    *out = w;
    if (!w)
        return cli_oom();
    w->r = r;
    if (r->other) { /* cli_generate made one with these options already: memory alone fails */
        const size_t nc = (size_t)sb_geometry_cells(r->g);
        if (!(w->puzzle = malloc(nc)) || !(w->solution = malloc(nc)) ||
            sb_ggenerator_new_opts(r->g, &r->gopt, &w->gg, NULL, 0) != SB_OK)
            return cli_oom();
        sb_ggenerator_stop(w->gg, cli_stop_flag());
        const int st = sb_ggenerator_simd(w->gg, r->opt.simd); /* checked by cli_generate */
        return st == SB_OK ? 0 : cli_solver_error("generate", st, r->opt.simd);
    }
    const int st = sb_generator_new(&w->g, &r->opt);
    return st == SB_OK ? 0 : cli_solver_error("generate", st, r->opt.simd);
}

/* Frees a worker (cli_batch.worker_end). */
static void gen_worker_end(void *ctx, void *wp)
{
    gen_worker *w = wp;
    (void)ctx;
    if (w) {
        sb_generator_free(w->g);
        sb_ggenerator_free(w->gg);
        free(w->puzzle);
        free(w->solution);
    }
    free(w);
}

/* Writes the give-up of puzzle i into err, naming only the constraints that were given.
 * @return CLI_EXIT_INVALID (the run ends after the puzzles before it). */
static int gave_up(const gen_run *r, unsigned long long i, cli_buf *err)
{
    char what[160] = "";
    size_t used = 0;
    const int max_clues = r->other                      ? r->gopt.max_clues
                          : r->opt.max_clues < SB_CELLS ? r->opt.max_clues
                                                         : 0; /* 0: no bound */
    if (max_clues)
        used += (size_t)snprintf(what + used, sizeof what - used, "--clues %d", max_clues);
    if (r->guesses_arg && used < sizeof what)
        used += (size_t)snprintf(what + used, sizeof what - used, "%s--guesses %s",
                                 used ? " and " : "", r->guesses_arg);
    if (r->cls >= 0 && used < sizeof what)
        snprintf(what + used, sizeof what - used, "%s--class %s", used ? " and " : "",
                 sb_class_name(r->cls));
    sb_buf_printf(err, CLI_NAME ": generate: puzzle %llu: no candidate met %s in %llu "
                        "attempts\n", i, what, (unsigned long long)r->opt.max_attempts);
    return CLI_EXIT_INVALID;
}

/* Makes and formats puzzle first + index (cli_batch.item): sb_generate_class on 9x9 (--class),
 * sb_ggenerate on another geometry. A puzzle no candidate fits ends the run after the puzzles
 * before it, naming only the constraints that were given. */
static int gen_item(void *wp, uint64_t index, cli_buf *out, cli_buf *err, void *tp)
{
    const gen_worker *w = wp;
    const gen_run *r = w->r;
    gen_tag *t = tp;
    const unsigned long long i = r->first + index;
    const uint8_t *puzzle = w->puzzle, *solution = w->solution;
    sb_ggenerated p;
    sb_generated q;
    int st;
    if (r->other) {
        st = sb_ggenerate(w->gg, i, w->puzzle, w->solution, &p);
    } else {
        st = sb_generate_class(w->g, i, r->cls, r->opt.max_attempts, &q) == 1 ? SB_OK
                                                                              : SB_GGEN_MISSED;
        p = (sb_ggenerated){.clues = q.clues, .guesses = q.guesses, .attempts = q.attempts,
                            .undecided = 0}; /* every 9x9 check runs to its end */
        puzzle = q.puzzle.cell, solution = q.solution.cell;
    }
    if (st == SB_ERR_STOPPED)
        return CLI_STOPPED;
    if (st == SB_GGEN_MISSED)
        return gave_up(r, i, err);
    if (st == SB_ERR_BUDGET) {
        sb_buf_printf(err, CLI_NAME ": generate: no full grid of %s found in 100000 random "
                            "fills: it likely has none\n", sb_geometry_name(r->g));
        return CLI_EXIT_USAGE;
    }
    if (st != SB_OK) {
        sb_buf_printf(err, CLI_NAME ": out of memory\n");
        return CLI_EXIT_USAGE;
    }
    put_generated(out, r, i, puzzle, solution, &p);
    t->guesses = p.guesses;
    t->attempts = p.attempts;
    t->clues = p.clues;
    t->undecided = p.undecided;
    return CLI_DONE;
}

/* Adds written puzzles to the totals (cli_batch.commit). */
static void gen_commit(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    gen_run *r = ctx;
    const gen_tag *t = (const gen_tag *)tags;
    (void)input;
    for (size_t i = 0; i < n; i++) {
        r->st.made++;
        r->st.clues += (unsigned long long)t[i].clues;
        r->st.guesses += t[i].guesses;
        r->st.attempts += t[i].attempts;
        r->st.undecided += (unsigned long long)t[i].undecided;
        if (t[i].clues < r->st.min_clues)
            r->st.min_clues = t[i].clues;
        if (t[i].clues > r->st.max_clues)
            r->st.max_clues = t[i].clues;
    }
}

/* Sets opt->max_clues from --clues K on 9x9, whose bounds are 17 (SB_MIN_CLUES) and 81.
 * @return 0, or CLI_EXIT_USAGE after a message. */
static int parse_clues(const char *arg, sb_gen_options *opt)
{
    unsigned long long v;
    if (!cli_parse_u64(arg, &v) || v > SB_CELLS)
        return cli_usage_error("generate", "bad --clues '%s' (%d..81)", arg, SB_MIN_CLUES);
    if (v < SB_MIN_CLUES)
        return cli_usage_error("generate", "--clues %llu is infeasible: no puzzle with "
                               "fewer than %d clues has exactly one solution", v,
                               SB_MIN_CLUES);
    opt->max_clues = (int)v;
    return 0;
}

/* Sets run->g and run->gopt for generate --grid/--geometry: unique minimal puzzles of
 * another geometry (sb_ggenerate), opt giving the seed, symmetry and attempts; clues is --clues
 * K as given (or NULL). The 9x9-only options are refused one by one, and a geometry with no
 * full grid before any output. @return 0, or CLI_EXIT_USAGE after a message. */
static int generate_grid(const cli_grid_opt *gopt, const sb_gen_options *opt, gen_run *run,
                         gen_format f, const char *clues)
{
    sb_geometry *g;
    if (cli_grid_pick("generate", gopt, NULL, 0, 0, &g))
        return CLI_EXIT_USAGE;
    run->g = g;
    run->other = 1;
    const char *name = sb_geometry_name(g);
    const int nc = sb_geometry_cells(g), n = sb_geometry_digits(g);
    char why[SB_GEO_WHY_LEN];
    unsigned long long k = 0;
    sb_ggen_options_default(&run->gopt);
    run->gopt.seed = opt->seed;
    run->gopt.symmetry = opt->symmetry;
    run->gopt.max_attempts = opt->max_attempts;
    run->form = n <= 35 ? SB_GFORM_CHARS : SB_GFORM_INTS;
    if (run->guesses_arg)
        return cli_usage_error("generate", "--guesses is for 9x9 only: the generator of %s "
                               "bounds clues, not guesses", name);
    if (run->cls >= 0)
        return cli_usage_error("generate", "--class is for 9x9 only: %s puzzles are not "
                               "filtered by class", name);
    if (f == GF_KAGGLE)
        return cli_usage_error("generate", "-f kaggle is for 9x9 only (81-cell columns), not "
                               "for %s", name);
    if (sb_gsymmetry_check(g, opt->symmetry, why, sizeof why) != SB_OK)
        return cli_usage_error("generate", "--symmetry %s: %s", sb_symmetry_name(opt->symmetry),
                               why);
    if (clues && (!cli_parse_u64(clues, &k) || k == 0 || k > (unsigned long long)nc))
        return cli_usage_error("generate", "bad --clues '%s' (%d..%d on %s)", clues,
                               n > 1 ? n - 1 : 1, nc, name);
    if (clues && k < (unsigned long long)n - 1)
        return cli_usage_error("generate", "--clues %llu is infeasible on %s: a puzzle with "
                               "fewer than %d clues lacks two digits, which could swap", k, name,
                               n - 1);
    run->gopt.max_clues = (int)k;
    /* A geometry with no full grid has no puzzle: say so before any output (the CSV header),
     * rather than draw fills forever. */
    sb_ggenerator *probe;
    const int made = sb_ggenerator_new_opts(g, &run->gopt, &probe, why, sizeof why);
    sb_ggenerator_free(probe);
    if (made != SB_OK) {
        fprintf(stderr, CLI_NAME ": generate: %s\n", made == SB_ERR_NOMEM ? "out of memory" : why);
        return CLI_EXIT_USAGE;
    }
    return 0;
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
        {"class", required_argument, 0, 'C'},    {"difficulty", required_argument, 0, 'C'},
        {"help", no_argument, 0, 'h'},           CLI_OUTPUT_LONGOPT,
        {"progress", required_argument, 0, 'P'}, CLI_GRID_LONGOPTS,
        {0, 0, 0, 0}};
    cli_grid_opt gopt = {0};
    /* -o FILE: its name (standard output is pointed at it); --progress */
    cli_batch ob = {.out = stdout, .progress = CLI_PROGRESS_AUTO};
    gen_run run = {.format = GF_PUZZLE, .st = {.min_clues = INT_MAX}, .cls = -1};
    sb_gen_options_default(&run.opt);
    sb_gen_options opt = run.opt; /* filled by the options, then copied into run */
    unsigned long long count = 0, first = 0, v;
    int have_count = 0, stats = 0, threads = cli_default_threads(), ch;
    gen_format f = GF_PUZZLE;
    const char *clues = NULL; /* --clues K as given */
    const cli_shared shared = {"generate", &ob, &threads, &opt.simd, &gopt};
    while ((ch = cli_getopt(&shared, argc, argv, ":n:t:f:o:h", longopts)) != -1) {
        switch (ch) {
        case 'n':
            if (cli_parse_whole("generate", "count", optarg, &count))
                return CLI_EXIT_USAGE;
            have_count = 1;
            break;
        case 'e':
            if (cli_parse_whole("generate", "seed", optarg, &v))
                return CLI_EXIT_USAGE;
            opt.seed = v;
            break;
        case 'i':
            if (cli_parse_whole("generate", "--first", optarg, &first))
                return CLI_EXIT_USAGE;
            break;
        case 'm': opt.minimal = 1; break;
        case 'c': clues = optarg; break; /* checked once the geometry is known */
        case 'y':
            opt.symmetry = sb_symmetry_parse(optarg);
            if (opt.symmetry < 0)
                return cli_usage_error("generate", "unknown symmetry '%s' (none, rot180, rot90, "
                                       "mirror, diagonal)", optarg);
            break;
        case 'g':
            if (parse_guesses(optarg, &opt))
                return CLI_EXIT_USAGE;
            run.guesses_arg = optarg;
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
                                       "json, kaggle, pretty)", optarg);
            break;
        case 'T': stats = 1; break;
        case 'C':
            for (run.cls = 0; run.cls < SB_CLASS_COUNT && strcmp(optarg, sb_class_name(run.cls));
                 run.cls++)
                ;
            if (run.cls == SB_CLASS_COUNT)
                return cli_usage_error("generate", "unknown class '%s' (singles, hidden, locked, "
                                       "tuples, fish, wings, chains, search)", optarg);
            break;
        case 'h': {
            sb_gen_options d;
            sb_gen_options_default(&d);
            char tbuf[64];
            printf(generate_help, (unsigned long long)d.seed, cli_threads_default(tbuf, sizeof tbuf),
                   SB_MIN_CLUES, CLUES_EASY_FLOOR, sb_symmetry_name(d.symmetry),
                   (unsigned long long)d.max_attempts, gen_format_names[GF_PUZZLE]);
            return CLI_EXIT_OK;
        }
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    if (optind < argc)
        return cli_usage_error("generate", "unexpected argument '%s'", argv[optind]);
    if (!have_count)
        return cli_usage_error("generate", "missing -n COUNT");
    /* Indices are 64-bit: a range past the top would wrap to index 0 and repeat puzzles. */
    if (count > 0 && first > UINT64_MAX - (count - 1))
        return cli_usage_error("generate", "--first %llu with -n %llu passes the last index "
                               "(18446744073709551615)", first, count);
    const int other = gopt.spec || gopt.file; /* another geometry: sb_ggenerate */
    if (clues && !other && parse_clues(clues, &opt))
        return CLI_EXIT_USAGE;
    if (sb_simd_resolve(opt.simd) < 0) /* a level this CPU lacks, on every geometry as solve */
        return cli_solver_error("generate", SB_ERR_SIMD, opt.simd);
    if (other) {
        const int rc = generate_grid(&gopt, &opt, &run, f, clues);
        if (rc) {
            sb_geometry_free(run.g);
            return rc;
        }
    } else {
        char why[SB_GEO_WHY_LEN];
        if (opt.max_clues < CLUES_EASY_FLOOR)
            fprintf(stderr, CLI_NAME ": note: --clues %d: random digging rarely reaches fewer "
                            "than %d clues; a puzzle may take up to %llu attempts and then give "
                            "up\n", opt.max_clues, CLUES_EASY_FLOOR,
                    (unsigned long long)opt.max_attempts);
        if (sb_geometry_parse("3x3", &run.nine, why, sizeof why) != SB_OK)
            return cli_oom();
        run.g = (sb_geometry *)(uintptr_t)sb_geometry_9x9(); /* freed as any: a no-op */
    }
    /* -o FILE only once every option is known good: a usage error leaves FILE as it was */
    if (cli_output_open("generate", &ob, NULL, 0, gopt.file)) { /* --geometry FILE: an input */
        sb_geometry_free(run.g);
        sb_geometry_free(run.nine);
        return CLI_EXIT_USAGE;
    }
    run.opt = opt;
    run.first = first;
    run.format = f;
    if (f == GF_CSV)
        fputs("index,puzzle,clues,guesses,solution\n", stdout);
    else if (f == GF_KAGGLE)
        fputs("quizzes,solutions\n", stdout);
    if (count > 0 && (uint64_t)threads > count)
        threads = (int)count; /* a worker (its generator) per puzzle at most */
    cli_batch b = {.threads = threads, .progress = ob.progress, .unit = "puzzles",
                   .out = stdout, .ctx = &run, .tag_size = sizeof(gen_tag),
                   .worker_new = gen_worker_new, .worker_end = gen_worker_end,
                   .item = gen_item, .commit = gen_commit, .out_name = ob.out_name};
    const double t0 = cli_now_seconds();
    const int rc = cli_batch_items(&b, count);
    const double secs = cli_now_seconds() - t0;
    const gen_stats *st = &run.st;
    if (stats && st->made) { /* one layout for every geometry (docs/cli.md) */
        const double n = (double)st->made;
        fprintf(stderr, "stats: %llu puzzles (%s), %.2f clues/puzzle (%d..%d), %.3f "
                        "guesses/puzzle, %.2f attempts/puzzle, %llu undecided clues, %d threads, "
                        "%.3f s, %.1f puzzles/s\n",
                st->made, run.other ? sb_geometry_name(run.g) : "9x9", (double)st->clues / n,
                st->min_clues, st->max_clues, (double)st->guesses / n, (double)st->attempts / n,
                st->undecided, threads, secs, secs > 0 ? n / secs : 0.0);
    }
    sb_geometry_free(run.g);
    sb_geometry_free(run.nine);
    return rc;
}

/* The valid puzzles of augment's inputs, in input order (with the form each was written in). */
typedef struct puzzle_set {
    sb_geometry *g;       /* the geometry */
    sb_bench *set;        /* the puzzles */
    size_t n;             /* puzzles held */
    size_t invalid;       /* invalid lines seen (reported, skipped) */
} puzzle_set;

/* Record callback of augment: keep every valid puzzle. Returns CLI_EXIT_USAGE when out of
 * memory, else 0. */
static int keep_puzzle(void *ctx, const char *name, const sb_record *rec, const uint8_t *cells)
{
    (void)name;
    puzzle_set *s = ctx;
    if (rec->kind != SB_LINE_PUZZLE) {
        s->invalid++;
        return 0;
    }
    if ((!s->set && sb_bench_new(s->g, &s->set) != SB_OK) ||
        sb_bench_add_at(s->set, cells, rec->form, 0))
        return cli_oom();
    s->n++;
    return 0;
}

/* Frees what a puzzle set holds, its geometry included. */
static void aug_free(puzzle_set *s)
{
    sb_bench_free(s->set);
    sb_geometry_free(s->g);
}

/* An augment run: the puzzles to transform and the seed, read-only during the run. */
typedef struct aug_run {
    puzzle_set set;          /* valid input puzzles */
    unsigned long long seed; /* --seed */
} aug_run;

/* One thread of augment: the run, and on a geometry room for one puzzle and its transform. */
typedef struct aug_worker {
    const aug_run *r; /* the run */
    uint8_t *in;      /* geometry: the input puzzle (sb_bench_puzzle) */
    uint8_t *cells;   /* geometry: the transformed puzzle (sb_gaugment) */
} aug_worker;

/* cli_batch.worker_new of augment. */
static int aug_worker_new(void *ctx, void **out)
{
    const aug_run *r = ctx;
    aug_worker *w = calloc(1, sizeof *w);
    *out = w;
    const sb_geometry *g = r->set.g;
    const size_t nc = g != sb_geometry_9x9() ? (size_t)sb_geometry_cells(g) : 0;
    if (!w || (nc && (!(w->in = malloc(nc)) || !(w->cells = malloc(nc)))))
        return cli_oom();
    w->r = r;
    return 0;
}

/* cli_batch.worker_end of augment. */
static void aug_worker_end(void *ctx, void *wp)
{
    aug_worker *w = wp;
    (void)ctx;
    if (w) {
        free(w->in);
        free(w->cells);
    }
    free(w);
}

/* Writes output line index: input puzzle index mod P under transform index of the seed
 * (cli_batch.item): sb_transform_* on 9x9, sb_gaugment on another geometry. */
static int aug_item(void *wp, uint64_t index, cli_buf *out, cli_buf *err, void *tag)
{
    const aug_worker *w = wp;
    const aug_run *r = w->r;
    const puzzle_set *set = &r->set;
    (void)err;
    (void)tag;
    const size_t i = (size_t)(index % set->n);
    if (set->g != sb_geometry_9x9()) {
        /* The set holds valid puzzles only, the one thing sb_gaugment refuses besides NULL. */
        sb_bench_puzzle(set->set, i, w->in);
        sb_gaugment(set->g, r->seed, index, w->in, w->cells);
        cli_put_gcells(out, set->g, w->cells, sb_bench_form(set->set, i));
        sb_buf_put(out, "\n", 1);
        return CLI_DONE;
    }
    sb_transform t;
    sb_rng rng;
    char *d = cli_buf_reserve(out, SB_CELLS + 1);
    if (!d)
        return CLI_DONE; /* the engine reports the full buffer */
    sb_rng_seed(&rng, r->seed, index);
    sb_transform_random(&t, &rng);
    sb_grid g;
    sb_bench_puzzle(set->set, i, g.cell);
    sb_transform_format(&t, &g, d);
    d[SB_CELLS] = '\n';
    out->len += SB_CELLS + 1;
    return CLI_DONE;
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
    "  -o, --output FILE    write standard output to FILE (the same bytes)\n"
    "      --grid SPEC      another geometry (default: from the first line's cell count):\n"
    "                       digits relabelled and the geometry's own symmetries (RxC: bands,\n"
    "                       rows, stacks, columns, transpose if R = C; latin: rows, columns,\n"
    "                       transpose; x:RxC: mirrors; cube: axes and planes; jigsaw: none)\n"
    "      --geometry FILE  a geometry from a file, as --grid\n"
    "  -h, --help           show this help\n\n"
    "Invalid input lines are reported and skipped.\n"
    "Exit: 0 every input line was a puzzle, 1 some were invalid, 2 usage or I/O error (or no\n"
    "valid puzzle to transform), 130 interrupted (SIGINT/SIGTERM: the copies made so far).\n";

int cli_augment(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"count", required_argument, 0, 'n'}, {"seed", required_argument, 0, 'e'},
        {"stats", no_argument, 0, 'T'},       {"help", no_argument, 0, 'h'},
        CLI_OUTPUT_LONGOPT,                   CLI_GRID_LONGOPTS,
        {0, 0, 0, 0}};
    cli_grid_opt gopt = {0};
    cli_batch ob = {.out = stdout}; /* -o FILE: its name (standard output is pointed at it) */
    unsigned long long count = 0, seed = 0;
    int have_count = 0, stats = 0, ch;
    const cli_shared shared = {"augment", &ob, NULL, NULL, &gopt};
    while ((ch = cli_getopt(&shared, argc, argv, ":n:o:h", longopts)) != -1) {
        switch (ch) {
        case 'n':
            if (cli_parse_whole("augment", "count", optarg, &count))
                return CLI_EXIT_USAGE;
            have_count = 1;
            break;
        case 'e':
            if (cli_parse_whole("augment", "seed", optarg, &seed))
                return CLI_EXIT_USAGE;
            break;
        case 'T': stats = 1; break;
        case 'h': printf(augment_help, 0ULL); return CLI_EXIT_OK;
        default: return CLI_EXIT_USAGE; /* CLI_OPT_BAD: reported */
        }
    }
    if (!have_count)
        return cli_usage_error("augment", "missing -n COUNT");
    sb_geometry *geo;
    if (cli_grid_pick("augment", &gopt, argv + optind, argc - optind, 0, &geo))
        return CLI_EXIT_USAGE;
    if (cli_output_open("augment", &ob, argv + optind, argc - optind, gopt.file)) {
        sb_geometry_free(geo);
        return CLI_EXIT_USAGE;
    }
    aug_run run = {.seed = seed, .set = {.g = geo}};
    /* The handlers go in before the inputs are read: a signal during a long read must end
     * the run as documented, not kill it. */
    cli_stop_state stop;
    cli_stop_begin(&stop);
    int rc = cli_for_each_record(geo, argv + optind, argc - optind, keep_puzzle, &run.set);
    const int stopped = rc == CLI_EXIT_INTERRUPTED || cli_stop_requested();
    cli_stop_end(&stop);
    if (stopped) {
        aug_free(&run.set);
        fprintf(stderr, CLI_NAME ": interrupted after 0 records\n");
        return CLI_EXIT_INTERRUPTED;
    }
    /* An unreadable file was reported; the others still run and the exit code says 2. */
    const int read_rc = rc;
    if (rc != CLI_EXIT_USAGE && rc != 0) {
        aug_free(&run.set);
        return rc;
    }
    if (run.set.n == 0 && count > 0) {
        fprintf(stderr, CLI_NAME ": augment: no valid puzzle in the input\n");
        aug_free(&run.set);
        return CLI_EXIT_USAGE;
    }
    cli_batch b = {.threads = 1, .progress = CLI_PROGRESS_NEVER, .unit = "puzzles",
                   .out = stdout, .ctx = &run, .worker_new = aug_worker_new,
                   .worker_end = aug_worker_end, .item = aug_item, .out_name = ob.out_name};
    const double t0 = cli_now_seconds();
    rc = cli_batch_items(&b, count);
    const double secs = cli_now_seconds() - t0;
    if (stats)
        fprintf(stderr, "stats: %llu puzzles from %zu inputs, %.3f s, %.0f puzzles/s\n", count,
                run.set.n, secs, secs > 0 ? (double)count / secs : 0.0);
    aug_free(&run.set);
    if (rc)
        return rc;
    if (read_rc)
        return read_rc;
    return run.set.invalid ? CLI_EXIT_INVALID : CLI_EXIT_OK;
}
