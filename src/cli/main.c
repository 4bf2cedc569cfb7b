/*
 * main.c — the sudokubench program: command dispatch and top-level help. Each command lives
 * in its own file and uses only the public header.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The command registry: --help lists it, main() dispatches through it. */
static const struct command {
    const char *name;                /* word after the program name */
    int (*run)(int argc, char **argv); /* entry, argv[0] = the command name */
    const char *summary;             /* one line for --help */
} commands[] = {
    {"solve", cli_solve, "solve or count every puzzle, one record per input line"},
    {"validate", cli_validate, "check that every puzzle is proper (exactly one solution)"},
    {"bench", cli_bench, "throughput table per dataset and pipeline"},
    {"rate", cli_rate, "difficulty class per puzzle: the weakest technique set that solves it"},
    {"generate", cli_generate, "make puzzles with exactly one solution (seeded, parallel)"},
    {"augment", cli_augment, "random validity-preserving transforms of input puzzles"},
};

/* Prints the top-level help. */
static void usage(FILE *out)
{
    fprintf(out, "Usage: " CLI_NAME " COMMAND [OPTIONS] [FILE...]\n"
                 "Solve, count, check and benchmark Sudoku (9x9 and other grids) at full speed.\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nInput: one puzzle per line, 81 cells, 1-9 givens, . 0 - _ blanks; '#' lines\n"
                 "and blank lines skipped; Kaggle CSV accepted; also, per record, nine-line grids\n"
                 "(as -f pretty draws them), tdoku records PUZZLE:COUNT:SOLUTION and 729-character\n"
                 "pencilmark lines (docs/cli.md \"Other input forms\"); other geometries: --grid.\n"
                 "Environment: SUDOKUBENCH_SIMD=scalar|sse4|avx2|avx512bw|avx512|neon forces a level;\n"
                 "SUDOKUBENCH_PAIR=auto|on|off sets when avx2 searches two puzzles side by side.\n"
                 "Run '" CLI_NAME " COMMAND --help' for a command's options;\n"
                 "'" CLI_NAME " --version' prints the version and the SIMD levels.\n");
}

/* The --version line on kernels: the level auto runs here (CPUID, or $SUDOKUBENCH_SIMD) and
 * every level this CPU supports, so that a user sees which kernel a run will use. */
static void print_simd(void)
{
    const int level = sb_simd_resolve(SB_SIMD_AUTO);
    const char *env = getenv("SUDOKUBENCH_SIMD");
    if (level == SB_ERR_SIMD)
        printf("simd: SUDOKUBENCH_SIMD=%s is not a level this CPU supports;", env ? env : "");
    else
        printf("simd: %s (%s);", sb_simd_name(level),
               env && *env ? "SUDOKUBENCH_SIMD" : "auto: the best this CPU supports");
    printf(" supported:");
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l))
            printf(" %s", sb_simd_name(l));
    printf("\n");
}

/* The --version line on the pair policy (sb_pair): what sb_solve_many does at avx2. */
static void print_pair(void)
{
    const int policy = sb_pair_resolve(SB_PAIR_AUTO);
    if (policy < 0)
        printf("pair: SUDOKUBENCH_PAIR=%s is not a policy (auto, on, off)\n",
               getenv("SUDOKUBENCH_PAIR"));
    else if (policy == SB_PAIR_AUTO)
        printf("pair: auto (one search a puzzle; SUDOKUBENCH_PAIR=on searches two side by "
               "side at avx2)\n");
    else
        printf("pair: %s (SUDOKUBENCH_PAIR)\n", sb_pair_name(policy));
}

/* `sudokubench --complete-values COMMAND OPTION`, for the bash completion: prints the values
 * OPTION takes, from the registries (pipelines, techniques, SIMD levels), one line of words;
 * nothing for an option whose values are not a registry's. Unlisted in --help: a tool's
 * interface, not a user's. @return the exit code. */
static int complete_values(const char *cmd, const char *opt)
{
    const int pipeline = !strcmp(opt, "-s") || !strcmp(opt, "--pipeline");
    const int pipelines = !strcmp(cmd, "bench") && !strcmp(opt, "--pipelines");
    if (pipeline || pipelines) {
        size_t np, nt;
        const sb_pipeline_info *p = sb_pipelines(&np);
        const sb_technique_info *t = sb_techniques(&nt);
        for (size_t i = 0; i < np; i++)
            printf("%s%s", i ? " " : "", p[i].name);
        if (pipelines)
            fputs(" all", stdout);
        for (size_t i = 0; i < nt; i++) { /* the fast+T forms the fused kernel runs */
            char spec[32];
            snprintf(spec, sizeof spec, "fast+%s", t[i].name);
            if (sb_pipeline_check(spec) == SB_OK)
                printf(" %s", spec);
        }
        putchar('\n');
    } else if (!strcmp(opt, "--simd")) {
        fputs("auto", stdout);
        for (int l = 0; l < SB_SIMD_LEVELS; l++)
            printf(" %s", sb_simd_name(l));
        putchar('\n');
    } else if (!strcmp(opt, "--search")) {
        puts("dfs bfs");
    }
    return cli_close_stdout(CLI_EXIT_OK);
}

/* The program without MPI's start and end: dispatches argv[1]. @return the exit code. */
static int run_main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr), CLI_EXIT_USAGE;
    const int help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
                     !strcmp(argv[1], "help");
    const int version = !strcmp(argv[1], "--version") || !strcmp(argv[1], "-V");
    if ((help || version) && argc > 2) /* a typo must not pass for a request honoured */
        return cli_usage_error(NULL, "unexpected argument '%s' after '%s'", argv[2], argv[1]);
    if (!strcmp(argv[1], "--complete-values"))
        return argc == 4 ? complete_values(argv[2], argv[3])
                         : cli_usage_error(NULL, "--complete-values takes COMMAND OPTION");
    if (help) {
        usage(stdout);
        return cli_close_stdout(CLI_EXIT_OK);
    }
    if (version) {
        printf(CLI_NAME " %s\n", SB_VERSION);
        print_simd();
        print_pair();
        return cli_close_stdout(CLI_EXIT_OK);
    }
    if (sb_pair_resolve(SB_PAIR_AUTO) < 0) /* before any work, as a bad option would be */
        return cli_usage_error(NULL, "SUDOKUBENCH_PAIR=%s: not a pair policy (auto, on, off)",
                               getenv("SUDOKUBENCH_PAIR"));
    /* Whole-line output for pipes; the terminal keeps line buffering. */
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, sizeof outbuf);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return cli_close_stdout(commands[i].run(argc - 1, argv + 1));
    return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
}

/* LLVM's OpenMP runtime (clang builds) registers the process in a shared-memory file named
 * after its pid on its first parallel region and trusts a file already there: one left empty by
 * a process that died making it (libomp exits when its ftruncate fails under `ulimit -f 0`)
 * kills every later process given the same pid with SIGBUS before it does any work. Before our
 * first OpenMP call no such file can be ours, so one found is stale and removed. GCC's runtime
 * makes no such file; then this finds nothing. */
static void drop_stale_omp_registration(void)
{
#ifdef __linux__
    char name[96];
    snprintf(name, sizeof name, "/dev/shm/__KMP_REGISTERED_LIB_%ld_%ld", (long)getpid(),
             (long)getuid());
    (void)unlink(name);
#endif
}

int main(int argc, char **argv)
{
    drop_stale_omp_registration();
    /* A file size limit (ulimit -f) must end in the write error path, exit 2 with the output
     * cut back to whole records, as a full disk does: SIGXFSZ's default action would kill
     * the process mid-record. Ignored, a write past the limit fails with EFBIG instead. */
    signal(SIGXFSZ, SIG_IGN);
#ifdef SB_MPI
    /* build/sudokubench-mpi: the same program on every rank (src/cli/mpi.c). */
    if (cli_mpi_begin(&argc, &argv))
        return CLI_EXIT_USAGE;
    return cli_mpi_end(run_main(argc, argv));
#else
    return run_main(argc, argv);
#endif
}
