/*
 * test_batch_api.c — the batch calls (sb_solve_batch, sb_rate_batch, sb_generate_batch,
 * sb_augment_batch, sb_reader_read_cells) against the one-at-a-time calls they wrap: the
 * same rows for any thread count, row errors kept to their row, bad options refused before
 * any work, the stop flag honoured. Runs in every build (ASan, clang, aarch64 under qemu),
 * where the Python suite that leans on these calls cannot.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { N = 300 };

Test(batch_api, solve_matches_one_at_a_time_for_any_thread_count)
{
    static uint8_t cells[N * SB_CELLS], sol[N * SB_CELLS];
    static uint64_t counts[N], guesses[N];
    static int8_t status[N];
    tu_load_cells("datasets/samples/hardest_11plus_1000.txt", cells, N);
    cells[7 * SB_CELLS + 3] = 10;                     /* row 7: a cell out of range */
    memset(cells + 9 * SB_CELLS, 0, SB_CELLS);         /* row 9: empty, count capped at 2 */
    sb_options opt;
    sb_options_default(&opt);
    sb_solver *s;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    for (int threads = 1; threads <= 3; threads += 2) {
        memset(counts, 0xff, sizeof counts);
        cr_assert_eq(sb_solve_batch(&opt, cells, N, threads, counts, guesses, sol, status), SB_OK);
        for (size_t i = 0; i < N; i++) {
            sb_result want;
            const int st = sb_solve(s, (const sb_grid *)(cells + i * SB_CELLS), &want);
            cr_assert_eq(status[i], st, "row %zu", i);
            if (st != SB_OK)
                continue;
            cr_assert_eq(counts[i], want.count, "row %zu, %d threads", i, threads);
            cr_assert_eq(guesses[i], want.guesses, "row %zu", i);
            cr_assert_arr_eq(sol + i * SB_CELLS, want.solution.cell, SB_CELLS);
            if (want.count == 1)
                cr_assert(sb_solution_check((const sb_grid *)(cells + i * SB_CELLS),
                                            (const sb_grid *)(sol + i * SB_CELLS)));
        }
    }
    cr_assert_eq(status[7], SB_ERR_ARG);
    cr_assert_eq(counts[9], 2);
    sb_solver_free(s);
    /* Only counts wanted: the other outputs may be NULL. */
    cr_assert_eq(sb_solve_batch(&opt, cells, N, 0, counts, NULL, NULL, NULL), SB_OK);
}

Test(batch_api, bad_options_and_stop)
{
    static uint8_t cells[4 * SB_CELLS];
    uint64_t counts[4] = {7, 7, 7, 7};
    int8_t status[4];
    sb_options opt;
    sb_options_default(&opt);
    opt.pipeline = 99;
    cr_assert_eq(sb_solve_batch(&opt, cells, 4, 2, counts, NULL, NULL, status), SB_ERR_PIPELINE);
    cr_assert_eq(counts[0], 7, "nothing is solved when the options are bad");
    cr_assert_eq(sb_solve_batch(NULL, cells, 4, 2, counts, NULL, NULL, status), SB_ERR_ARG);
    sb_options_default(&opt);
    volatile sig_atomic_t stop = 1;
    opt.stop = &stop;
    opt.limit = 0; /* empty grids: would never end */
    cr_assert_eq(sb_solve_batch(&opt, cells, 4, 2, counts, NULL, NULL, status), SB_ERR_STOPPED);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(status[i], SB_ERR_STOPPED);
    cr_assert_eq(sb_solve_batch(&opt, cells, 0, 0, NULL, NULL, NULL, NULL), SB_OK);
}

Test(batch_api, rate_generate_augment_match_single_calls)
{
    static uint8_t cells[N * SB_CELLS], out[N * SB_CELLS], sols[40 * SB_CELLS];
    static int8_t classes[N];
    static uint64_t guesses[40];
    tu_load_cells("datasets/samples/top1465.txt", cells, N);
    cr_assert_eq(sb_rate_batch(cells, N, 3, classes), SB_OK);
    for (size_t i = 0; i < N; i++) {
        sb_rating want;
        cr_assert_eq(sb_rate((const sb_grid *)(cells + i * SB_CELLS), &want), SB_OK);
        cr_assert_eq(classes[i], (int8_t)want.cls, "row %zu", i);
    }

    sb_gen_options gopt;
    sb_gen_options_default(&gopt);
    gopt.seed = 42;
    gopt.symmetry = SB_SYM_ROT180;
    cr_assert_eq(sb_generate_batch(&gopt, 5, 40, 3, out, sols, guesses), SB_OK);
    sb_generator *g;
    cr_assert_eq(sb_generator_new(&g, &gopt), SB_OK);
    for (size_t i = 0; i < 40; i++) {
        sb_generated want;
        cr_assert_eq(sb_generate(g, 5 + i, &want), 1);
        cr_assert_arr_eq(out + i * SB_CELLS, want.puzzle.cell, SB_CELLS, "puzzle %zu", i);
        cr_assert_arr_eq(sols + i * SB_CELLS, want.solution.cell, SB_CELLS);
        cr_assert_eq(guesses[i], want.guesses);
    }
    sb_generator_free(g);
    gopt.max_clues = 5; /* below SB_MIN_CLUES: refused before any work */
    cr_assert_eq(sb_generate_batch(&gopt, 0, 1, 1, out, NULL, NULL), SB_ERR_ARG);

    cr_assert_eq(sb_augment_batch(cells, 7, 9, 3, N, 2, out), SB_OK);
    for (size_t i = 0; i < N; i++) {
        sb_rng rng;
        sb_transform t;
        sb_grid want;
        sb_rng_seed(&rng, 9, 3 + i);
        sb_transform_random(&t, &rng);
        sb_transform_apply(&t, (const sb_grid *)(cells + ((3 + i) % 7) * SB_CELLS), &want);
        cr_assert_arr_eq(out + i * SB_CELLS, want.cell, SB_CELLS, "row %zu", i);
    }
    cr_assert_eq(sb_augment_batch(cells, 0, 9, 0, 1, 1, out), SB_ERR_ARG);
}

Test(batch_api, read_cells_in_chunks_stops_at_an_invalid_record)
{
    static const char text[] =
        "# two puzzles, a bad line, one more\n"
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n"
        "12x\n"
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....\n";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    uint8_t cells[3 * SB_CELLS];
    size_t n;
    sb_record bad;
    cr_assert_eq(sb_reader_read_cells(r, cells, 1, &n, &bad), 1);
    cr_assert_eq(n, 1);
    cr_assert_eq(cells[0], 4);
    cr_assert_eq(sb_reader_read_cells(r, cells, 3, &n, &bad), 2);
    cr_assert_eq(n, 1);
    cr_assert_eq(cells[0], 5);
    cr_assert_eq(bad.line, 4);
    cr_assert_eq(bad.col, 3);
    cr_assert_str_eq(bad.why, "unexpected character 'x'");
    cr_assert_eq(sb_reader_read_cells(r, cells, 3, &n, &bad), 0);
    cr_assert_eq(n, 1);
    cr_assert_eq(cells[0], 6);
    sb_reader_close(r);
    fclose(f);
}

/* ---- stop flags of rate, generate, augment; threads that cannot start -------------------- */

#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>

Test(batch_api, stop_flag_of_rate_generate_augment)
{
    static uint8_t cells[N * SB_CELLS], out[N * SB_CELLS];
    static int8_t classes[N];
    tu_load_cells("datasets/samples/top1465.txt", cells, N);
    volatile sig_atomic_t stop = 1;
    /* A raised flag: nothing begun, every row as it was. */
    memset(classes, 0x5a, sizeof classes);
    cr_assert_eq(sb_rate_batch_stop(cells, N, 2, classes, &stop), SB_ERR_STOPPED);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(classes[i], 0x5a, "row %zu rated after the stop", i);
    sb_gen_options gopt;
    sb_gen_options_default(&gopt);
    memset(out, 0x5a, sizeof out);
    cr_assert_eq(sb_generate_batch_stop(&gopt, 0, 40, 2, out, NULL, NULL, &stop), SB_ERR_STOPPED);
    cr_assert_eq(sb_augment_batch_stop(cells, 7, 9, 0, N, 2, out, &stop), SB_ERR_STOPPED);
    for (size_t i = 0; i < N * SB_CELLS; i++)
        cr_assert_eq(out[i], 0x5a, "byte %zu written after the stop", i);
    /* A lowered flag changes nothing: the same rows as the calls without one. */
    static int8_t want_classes[N];
    static uint8_t want[N * SB_CELLS];
    stop = 0;
    cr_assert_eq(sb_rate_batch_stop(cells, N, 2, classes, &stop), SB_OK);
    cr_assert_eq(sb_rate_batch(cells, N, 1, want_classes), SB_OK);
    cr_assert_arr_eq(classes, want_classes, N);
    cr_assert_eq(sb_generate_batch_stop(&gopt, 3, 40, 2, out, NULL, NULL, &stop), SB_OK);
    cr_assert_eq(sb_generate_batch(&gopt, 3, 40, 1, want, NULL, NULL), SB_OK);
    cr_assert_arr_eq(out, want, 40 * SB_CELLS);
    cr_assert_eq(sb_augment_batch_stop(cells, 7, 9, 0, N, 2, out, &stop), SB_OK);
    cr_assert_eq(sb_augment_batch(cells, 7, 9, 0, N, 1, want), SB_OK);
    cr_assert_arr_eq(out, want, N * SB_CELLS);
    /* Indices past UINT64_MAX would wrap to 0: refused; the last ones are fine. */
    cr_assert_eq(sb_generate_batch(&gopt, UINT64_MAX - 1, 3, 1, out, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 7, 9, UINT64_MAX, 2, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch(&gopt, UINT64_MAX - 1, 2, 1, out, NULL, NULL), SB_OK);
    cr_assert_eq(sb_augment_batch(cells, 7, 9, UINT64_MAX, 1, 1, out), SB_OK);
}

#if defined(__SANITIZE_ADDRESS__)
#define TB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TB_ASAN 1
#endif
#endif

Test(batch_api, threads_that_cannot_start_are_an_error, .timeout = 60)
{
#ifdef TB_ASAN
    cr_skip_test("address-space limits do not apply under ASan (terabytes of shadow memory)");
#else
    static uint8_t cells[1000 * SB_CELLS], out[1000 * SB_CELLS];
    static uint64_t counts[1000];
    static int8_t classes[1000];
    char why[2 * SB_WHY_LEN];
    cr_assert_eq(sb_threads_check(1, why, sizeof why), SB_OK);
    cr_assert_eq(sb_threads_check(4, why, sizeof why), SB_OK);
    cr_assert_str_empty(why);
    /* Room for this process and a few thread stacks, not for a thousand. Criterion runs each
     * test in its own process, so the limit ends with the test. */
    size_t vm_kib = 0;
    FILE *f = fopen("/proc/self/status", "r");
    cr_assert(f);
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %zu kB", &vm_kib) == 1)
            break;
    fclose(f);
    const struct rlimit lim = {.rlim_cur = ((rlim_t)vm_kib << 10) + (256u << 20),
                               .rlim_max = RLIM_INFINITY};
    cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
    /* mmap, not malloc: a compiler may drop an unused malloc and call it successful */
    void *big = mmap(NULL, (size_t)1 << 30, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (big != MAP_FAILED) { /* an emulator (qemu-user) keeps RLIMIT_AS to itself */
        munmap(big, (size_t)1 << 30);
        cr_skip_test("RLIMIT_AS is not enforced here");
    }
    errno = 0;
    cr_assert_eq(sb_threads_check(1000, why, sizeof why), SB_ERR_THREADS);
    cr_assert_eq(errno, EAGAIN, "errno %d", errno);
    cr_assert(!strncmp(why, "cannot start 1000 threads: ", 27), "why: %s", why);
    sb_options opt;
    sb_options_default(&opt);
    memset(counts, 0x5a, sizeof counts);
    cr_assert_eq(sb_solve_batch(&opt, cells, 1000, 1000, counts, NULL, NULL, NULL),
                 SB_ERR_THREADS);
    cr_assert_eq(errno, EAGAIN);
    cr_assert_eq(counts[0], 0x5a5a5a5a5a5a5a5aull, "nothing is solved");
    cr_assert_eq(sb_rate_batch(cells, 1000, 1000, classes), SB_ERR_THREADS);
    sb_gen_options gopt;
    sb_gen_options_default(&gopt);
    cr_assert_eq(sb_generate_batch(&gopt, 0, 1000, 1000, out, NULL, NULL), SB_ERR_THREADS);
    cr_assert_eq(sb_augment_batch(cells, 1, 0, 0, 1000, 1000, out), SB_ERR_THREADS);
    /* The process goes on, and a team that fits still runs. */
    opt.limit = 1;
    cr_assert_eq(sb_solve_batch(&opt, cells, 1000, 2, counts, NULL, NULL, NULL), SB_OK);
    cr_assert_eq(counts[999], 1);
#endif
}
