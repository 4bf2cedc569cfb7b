/*
 * test_misuse.c — the C API refuses misuse instead of crashing: every public function, and
 * every function of the programs' layer (src/app/app.h), is called here with NULL handles and
 * pointers and with sizes, cells, digits, counts and durations out of range, and each call's
 * exact outcome is asserted (SB_ERR_ARG or the failure value its header line documents, errno
 * and messages where they are documented, outputs left untouched where a void function
 * refuses). The run under ASan + UBSan (SAN=1) shows that no refusal reads or writes out of
 * bounds.
 *
 * Completeness is checked outside this file: scripts/guards/misuse-names.sh (make test-misuse-names,
 * part of make test) fails unless every function the library exports is called here (a public
 * one, declared in sudokubench.h) or listed in internal_symbols below (one that is not), and
 * unless every function the programs' layer (libsbapp.a) defines is called here.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "sudokubench.h"
#include "test_util.h"

/* Functions the library exports that the public header does not declare: helpers shared by
 * its own files (src/internal.h, src/kernel/kernel.h, src/search/gsearch.h,
 * src/technique/technique.h, src/box16/box16.h). Their callers are the library's own, which
 * hand them checked arguments; a program cannot call them without declaring them itself. */
static const char *const internal_symbols[] = {
    "sb_batch_begin", "sb_batch_error", "sb_batch_team", "sb_engine_ext", "sb_engine_paired",
    "sb_gpipeline_solve_candidates", "sb_gsolve_candidates", "sb_solver_limits", "sb_solve_drop",
    "sb_engine_solve_drop",
    "sb_spec_parse", "sb_options_parsed", "sb_spec_plan", "sb_solver_new_parsed",
    "sb_gpipeline_new_parsed",
    "sb_fast_plugin_step",
    "sb_gpipeline_ext", "sb_gpipeline_new_opt", "sb_gpipeline_plugin_counts",
    "sb_plan_parse_opt", "sb_solver_ext", "sb_tech_ext_free", "sb_tech_ext_new",
    "sb_tech_ext_step", "sb_box16_cand", "sb_box16_fits", "sb_box16_free", "sb_box16_new",
    "sb_box16_run", "sb_box16_search_avx2", "sb_box16_search_base", "sb_box16_stamp",
    "sb_candidates_givens", "sb_class_spec", "sb_fast_parse", "sb_generic_bfs",
    "sb_generic_dfs", "sb_generic_root", "sb_grid_rule_line", "sb_gsolver_new_cells",
    "sb_kaggle_header", "sb_kernel_bfs_avx2", "sb_kernel_bfs_avx512", "sb_kernel_bfs_avx512bw",
    "sb_kernel_bfs_base", "sb_kernel_bfs_neon", "sb_kernel_bfs_scalar", "sb_kernel_bfs_sse4",
    "sb_kernel_dfs_avx2", "sb_kernel_dfs_avx512", "sb_kernel_dfs_avx512bw",
    "sb_kernel_dfs_base", "sb_kernel_dfs_neon", "sb_kernel_dfs_scalar", "sb_kernel_dfs_sse4",
    "sb_kernel_pair_avx2", "sb_plan_parse", "sb_plugin_geometry_of", "sb_plugin_solve",
    "sb_plugin_state_free", "sb_plugin_state_new", "sb_read_9x9", "sb_read_echo",
    "sb_read_refill", "sb_tdoku_count", "sb_tkernel_bfs_avx2",
    "sb_tkernel_bfs_avx512", "sb_tkernel_bfs_avx512bw", "sb_tkernel_bfs_base",
    "sb_tkernel_bfs_neon", "sb_tkernel_bfs_scalar", "sb_tkernel_bfs_sse4",
    "sb_tkernel_dfs_avx2", "sb_tkernel_dfs_avx512", "sb_tkernel_dfs_avx512bw",
    "sb_tkernel_dfs_base", "sb_tkernel_dfs_neon", "sb_tkernel_dfs_scalar",
    "sb_tkernel_dfs_sse4", "sb_singles_class",
};

/* Public functions with nothing to misuse: no pointer, size or range among their arguments.
 * They are still called below (nothing_to_misuse), with the extreme values of their types. */
static const struct {
    const char *name;
    const char *why;
} nothing_to_misuse[] = {
    {"sb_tables", "takes no argument; returns the static peer tables"},
    {"sb_count_verdict", "every uint64_t is a solution count"},
    {"sb_version", "takes no argument; returns a constant"},
    {"sb_version_string", "takes no argument; returns a constant"},
};

static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";

/* A 4x4 geometry (2x2 boxes, 16 cells, digits 1..4) and a puzzle of it. */
static sb_geometry *g4(void)
{
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("2x2", &g, NULL, 0), SB_OK);
    return g;
}
static const uint8_t C4[16] = {1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2};

/* The cells of P1. */
static void p1_cells(uint8_t cells[SB_CELLS])
{
    const sb_grid g = tu_grid(P1);
    memcpy(cells, g.cell, SB_CELLS);
}

Test(misuse, tables_list_every_symbol_once)
{
    const size_t ni = sizeof internal_symbols / sizeof *internal_symbols;
    for (size_t i = 0; i < ni; i++) {
        cr_assert(!strncmp(internal_symbols[i], "sb_", 3), "%s", internal_symbols[i]);
        for (size_t j = i + 1; j < ni; j++)
            cr_assert_str_neq(internal_symbols[i], internal_symbols[j]);
    }
    for (size_t i = 0; i < sizeof nothing_to_misuse / sizeof *nothing_to_misuse; i++)
        cr_assert(nothing_to_misuse[i].why[0], "%s", nothing_to_misuse[i].name);
}

Test(misuse, nothing_to_misuse)
{
    cr_assert_not_null(sb_tables());
    cr_assert_eq(sb_tables()->peers[80][19], 79);
    cr_assert_eq(sb_count_verdict(0), SB_UNSOLVABLE);
    cr_assert_eq(sb_version(), SB_VERSION_NUMBER);
    cr_assert_str_eq(sb_version_string(), SB_VERSION);
    cr_assert_eq(sb_count_verdict(UINT64_MAX), SB_MULTIPLE);
}

Test(misuse, names_of_values_out_of_range)
{
    cr_assert_str_eq(sb_strerror(12345), "unknown status");
    cr_assert_str_eq(sb_strerror(INT_MIN), "unknown status");
    cr_assert_str_eq(sb_strerror(SB_ERR_ARG), "invalid argument");
    cr_assert_str_eq(sb_simd_name(-5), "?");
    cr_assert_str_eq(sb_simd_name(SB_SIMD_LEVELS), "?");
    cr_assert_eq(sb_simd_parse(NULL), SB_ERR_SIMD);
    cr_assert_eq(sb_simd_parse("avx9000"), SB_ERR_SIMD);
    cr_assert_eq(sb_simd_supported(-7), 0);
    cr_assert_eq(sb_simd_supported(INT_MAX), 0);
    cr_assert_eq(sb_simd_resolve(99), SB_ERR_SIMD);
    cr_assert_eq(sb_simd_resolve(INT_MIN), SB_ERR_SIMD);
    cr_assert_str_eq(sb_pair_name(-1), "?");
    cr_assert_str_eq(sb_pair_name(3), "?");
    cr_assert_eq(sb_pair_resolve(7), SB_ERR_ARG);
    cr_assert_eq(sb_pair_resolve(-1), SB_ERR_ARG);
    cr_assert_str_eq(sb_class_name(SB_CLASS_COUNT), "?");
    cr_assert_str_eq(sb_class_name(-1), "?");
    cr_assert_str_eq(sb_symmetry_name(-1), "?");
    cr_assert_str_eq(sb_symmetry_name(SB_SYM_COUNT), "?");
    cr_assert_eq(sb_symmetry_parse(NULL), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_parse("spiral"), SB_ERR_ARG);
}

Test(misuse, grids)
{
    sb_grid g = tu_grid(P1);
    char text[SB_GRID_TEXT];
    memset(text, 'x', sizeof text);
    sb_grid_format(NULL, text);
    cr_assert_eq(text[0], 'x');
    sb_grid_format(&g, NULL);
    g.cell[0] = 10;
    sb_grid_format(&g, text);
    cr_assert_eq(text[0], '?');
    cr_assert_eq(text[SB_CELLS], '\0');

    uint16_t cand[SB_CELLS];
    memset(cand, 0xAB, sizeof cand);
    sb_grid_candidates(NULL, cand);
    cr_assert_eq(cand[0], 0xABAB);
    sb_grid_candidates(&g, NULL);
    sb_grid_candidates(&g, cand); /* cell 0 above 9 counts as a blank */
    cr_assert_eq(cand[0] & ~SB_ALL_DIGITS, 0);

    int a = -1, b = -1;
    cr_assert_eq(sb_grid_conflict(NULL, &a, &b), 0);
    cr_assert_eq(a, -1);
    memset(&g, 0, sizeof g);
    g.cell[0] = g.cell[1] = 1;
    cr_assert_eq(sb_grid_conflict(&g, NULL, NULL), 1);
    cr_assert_eq(sb_grid_conflict(&g, &a, NULL), 1);
    cr_assert_eq(a, 0);

    cr_assert_eq(sb_solution_check(NULL, &g), 0);
    cr_assert_eq(sb_solution_check(&g, NULL), 0);
}

Test(misuse, parse_and_reader)
{
    sb_grid g;
    char why[SB_WHY_LEN];
    size_t col = 99;
    cr_assert_eq(sb_parse_line(NULL, SB_CELLS, &g, why, &col), SB_LINE_INVALID);
    cr_assert_str_eq(why, "no line or no grid");
    cr_assert_eq(col, 0);
    cr_assert_eq(sb_parse_line(P1, SB_CELLS, NULL, NULL, NULL), SB_LINE_INVALID);
    cr_assert_eq(sb_line_is_grid(NULL, 5), 0);

    const sb_geometry *nine = sb_geometry_9x9();
    sb_reader *r = (sb_reader *)&g; /* any non-NULL value: must stay as it is */
    cr_assert_eq(sb_reader_open(NULL, nine, stdin), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, nine, NULL), SB_ERR_ARG);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    uint64_t cand[SB_CELLS];
    cr_assert_eq(sb_reader_next(NULL, &rec, cells, cand), SB_ERR_ARG);
    sb_reader_close(NULL);
    sb_reader_set_stop(NULL, NULL);

    FILE *f = fmemopen((void *)P1, sizeof P1 - 1, "r");
    cr_assert_not_null(f);
    cr_assert_eq(sb_reader_open(&r, nine, f), SB_OK);
    cr_assert_eq(sb_reader_next(r, NULL, cells, cand), SB_ERR_ARG);
    cr_assert_eq(sb_reader_next(r, &rec, NULL, cand), SB_ERR_ARG);
    size_t n = 7;
    cr_assert_eq(sb_reader_read_cells(NULL, cells, 1, &n, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_read_cells(r, NULL, 1, &n, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_read_cells(r, cells, 1, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_read_cells(r, cells, SIZE_MAX / SB_CELLS + 1, &n, NULL), SB_ERR_ARG);
    cr_assert_eq(n, 7);
    /* nothing was consumed by the refusals */
    cr_assert_eq(sb_reader_read_cells(r, cells, 1, &n, NULL), 1);
    cr_assert_eq(n, 1);
    sb_reader_close(r);
    fclose(f);
}

Test(misuse, techniques_and_pipelines)
{
    cr_assert_not_null(sb_techniques(NULL));
    cr_assert_not_null(sb_pipelines(NULL));
    uint16_t cand[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = SB_ALL_DIGITS;
    cr_assert_eq(sb_technique_step(-1, cand, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_technique_step(SB_TECH_COUNT, cand, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_technique_step(SB_TECH_NAKED_SINGLE, NULL, NULL), SB_ERR_ARG);
    cand[40] = 0x200; /* digit 10 */
    cr_assert_eq(sb_technique_step(SB_TECH_HIDDEN_SINGLE, cand, NULL), SB_ERR_ARG);
    cr_assert_eq(cand[40], 0x200);
    cr_assert_eq(cand[0], SB_ALL_DIGITS);

    cr_assert_eq(sb_pipeline_find(NULL), SB_ERR_PIPELINE);
    cr_assert_eq(sb_pipeline_check(NULL), SB_ERR_PIPELINE);
    cr_assert_eq(sb_pipeline_explain(NULL, NULL, 64), SB_ERR_PIPELINE);
    char why[8] = "x";
    cr_assert_eq(sb_pipeline_explain("list:zz", why, 0), SB_ERR_PIPELINE);
    cr_assert_eq(why[0], 'x');
}

Test(misuse, options_and_solver)
{
    sb_options_default(NULL);
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_options_pipeline(NULL, "fast"), SB_ERR_ARG);
    cr_assert_eq(sb_options_pipeline(&o, NULL), SB_ERR_ARG);
    cr_assert_eq(o.pipeline, 0);
    cr_assert_eq(sb_result_verdict(NULL), SB_UNSOLVABLE);

    sb_solver *s = NULL;
    cr_assert_eq(sb_solver_new(NULL, &o), SB_ERR_ARG);
    cr_assert_eq(sb_solver_new(&s, NULL), SB_ERR_ARG);
    o.pipeline = 99;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_PIPELINE);
    o.pipeline = SB_PIPELINE_CUSTOM;
    o.spec = NULL;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_PIPELINE);
    sb_options_default(&o);
    o.search = 5;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_ARG);
    sb_options_default(&o);
    o.pair = 9;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_ARG);
    sb_options_default(&o);
    o.simd = 77;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_SIMD);
    cr_assert_null(s);
    sb_solver_free(NULL);

    cr_assert_eq(sb_solver_simd(NULL), SB_ERR_ARG);
    sb_technique_counts tc[SB_TECH_COUNT];
    memset(tc, 0xCD, sizeof tc);
    sb_solver_counts(NULL, tc);
    cr_assert_eq(tc[0].calls, UINT64_C(0xCDCDCDCDCDCDCDCD));
    sb_solver_counts_reset(NULL);
    cr_assert_eq(sb_solver_paired(NULL), 0);

    sb_options_default(&o);
    cr_assert_eq(sb_solver_new(&s, &o), SB_OK);
    sb_solver_counts(s, NULL);
    sb_grid g = tu_grid(P1);
    sb_result res;
    cr_assert_eq(sb_solve(NULL, &g, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve(s, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve(s, &g, NULL), SB_ERR_ARG);
    g.cell[3] = 10;
    cr_assert_eq(sb_solve(s, &g, &res), SB_ERR_ARG);
    g.cell[3] = 255;
    cr_assert_eq(sb_solve(s, &g, &res), SB_ERR_ARG);

    sb_grid two[2] = {tu_grid(P1), g};
    sb_result rs[2];
    int st[2];
    cr_assert_eq(sb_solve_many(NULL, two, 2, rs, st), SB_ERR_ARG);
    cr_assert_eq(sb_solve_many(s, NULL, 2, rs, st), SB_ERR_ARG);
    cr_assert_eq(sb_solve_many(s, two, 2, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_solve_many(s, two, 2, rs, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_solve_many(s, NULL, 0, NULL, NULL), SB_OK);
    cr_assert_eq(sb_solve_many(s, two, 2, rs, st), SB_OK);
    cr_assert_eq(st[0], SB_OK);
    cr_assert_eq(rs[0].count, 1);
    cr_assert_eq(st[1], SB_ERR_ARG);
    cr_assert_eq(rs[1].count, 0);

    uint16_t cand[SB_CELLS];
    sb_grid p = tu_grid(P1);
    sb_grid_candidates(&p, cand);
    cr_assert_eq(sb_solve_candidates(NULL, cand, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_candidates(s, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve_candidates(s, cand, NULL), SB_ERR_ARG);
    cand[7] |= 0x400;
    cr_assert_eq(sb_solve_candidates(s, cand, &res), SB_ERR_ARG);
    sb_solver_free(s);
}

Test(misuse, rating)
{
    sb_grid g = tu_grid(P1);
    sb_rating rt;
    cr_assert_eq(sb_rate(NULL, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_rate(&g, NULL), SB_ERR_ARG);
    g.cell[80] = 12;
    cr_assert_eq(sb_rate(&g, &rt), SB_ERR_ARG);
    uint16_t cand[SB_CELLS];
    g = tu_grid(P1);
    sb_grid_candidates(&g, cand);
    cr_assert_eq(sb_rate_candidates(NULL, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_rate_candidates(cand, NULL), SB_ERR_ARG);
    cand[80] = 0xFFFF;
    cr_assert_eq(sb_rate_candidates(cand, &rt), SB_ERR_ARG);
}

Test(misuse, rng_and_transforms)
{
    sb_rng_seed(NULL, 1, 2);
    cr_assert_eq(sb_rng_next(NULL), 0);
    cr_assert_eq(sb_rng_below(NULL, 10), 0);
    sb_transform_identity(NULL);

    sb_transform t, keep;
    cr_assert_eq(sb_transform_from_index(NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_transform_from_index(&t, SB_TRANSFORMS), SB_ERR_ARG);
    cr_assert_eq(sb_transform_from_index(&t, UINT64_MAX), SB_ERR_ARG);
    sb_transform_identity(&t);
    keep = t;
    sb_rng rng;
    sb_rng_seed(&rng, 1, 2);
    sb_transform_random(NULL, &rng);
    sb_transform_random(&t, NULL);
    cr_assert(!memcmp(&t, &keep, sizeof t));

    const sb_grid in = tu_grid(P1);
    sb_grid out, bad = in;
    char text[SB_CELLS];
    memset(&out, 0x77, sizeof out);
    memset(text, 'x', sizeof text);
    sb_transform_apply(NULL, &in, &out);
    sb_transform_apply(&t, NULL, &out);
    sb_transform_apply(&t, &in, NULL);
    sb_transform_format(NULL, &in, text);
    sb_transform_format(&t, NULL, text);
    sb_transform_format(&t, &in, NULL);
    bad.cell[5] = 10; /* digit[10] would be read past the table */
    sb_transform_apply(&t, &bad, &out);
    sb_transform_format(&t, &bad, text);
    bad = in;
    sb_transform shuffle;
    cr_assert_eq(sb_transform_from_index(&shuffle, 123456789), SB_OK);
    sb_transform_apply(&shuffle, &bad, &bad); /* aliased */
    cr_assert(!memcmp(&bad, &in, sizeof in));
    sb_transform_apply(&shuffle, &in, &out);
    cr_assert(memcmp(&out, &in, sizeof in), "the shuffle would have changed the grid");
    memset(&out, 0x77, sizeof out);
    sb_transform u = t;
    u.cell[9] = SB_CELLS; /* reads past the input grid */
    sb_transform_apply(&u, &in, &out);
    sb_transform_format(&u, &in, text);
    u = t;
    u.digit[4] = 10;
    sb_transform_apply(&u, &in, &out);
    sb_transform_format(&u, &in, text);
    u = t;
    u.digit[0] = 1; /* blanks would become givens */
    sb_transform_apply(&u, &in, &out);
    sb_transform_format(&u, &in, text);
    cr_assert_eq(out.cell[0], 0x77);
    cr_assert_eq(out.cell[80], 0x77);
    cr_assert_eq(text[0], 'x');
    cr_assert_eq(text[80], 'x');
    sb_transform_apply(&t, &in, &out); /* and a usable one works */
    cr_assert(!memcmp(&out, &in, sizeof in));
    sb_transform_format(&t, &in, text);
    cr_assert(!memcmp(text, P1, SB_CELLS));
}

Test(misuse, symmetry_image_bounds)
{
    /* n = 0 divided by zero; cell 1000 on 9x9 gave -920 */
    cr_assert_eq(sb_symmetry_image(SB_SYM_ROT180, 0, 0), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_ROT180, 9, 1000), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_ROT180, 9, 81), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_ROT90, 9, -1), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_MIRROR, -3, 0), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_DIAGONAL, SB_GEO_MAX_DIGITS + 1, 0), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_NONE, INT_MAX, INT_MAX), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_image(SB_SYM_ROT180, 9, 0), 80);
    cr_assert_eq(sb_symmetry_image(99, 9, 5), 5); /* an unknown sym is the identity */
}

Test(misuse, generator)
{
    sb_gen_options_default(NULL);
    sb_gen_options o;
    sb_gen_options_default(&o);
    sb_generator *gen = NULL;
    cr_assert_eq(sb_generator_new(NULL, &o), SB_ERR_ARG);
    cr_assert_eq(sb_generator_new(&gen, NULL), SB_ERR_ARG);
    o.max_clues = SB_MIN_CLUES - 1;
    cr_assert_eq(sb_generator_new(&gen, &o), SB_ERR_ARG);
    sb_gen_options_default(&o);
    o.symmetry = SB_SYM_COUNT;
    cr_assert_eq(sb_generator_new(&gen, &o), SB_ERR_ARG);
    sb_gen_options_default(&o);
    o.max_attempts = 0;
    cr_assert_eq(sb_generator_new(&gen, &o), SB_ERR_ARG);
    sb_generator_free(NULL);

    sb_gen_options_default(&o);
    cr_assert_eq(sb_generator_new(&gen, &o), SB_OK);
    sb_generated out;
    cr_assert_eq(sb_generate(NULL, 0, &out), SB_ERR_ARG);
    cr_assert_eq(sb_generate(gen, 0, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_class(NULL, 0, -1, 1, &out), SB_ERR_ARG);
    cr_assert_eq(sb_generate_class(gen, 0, -1, 0, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_class(gen, 0, SB_CLASS_COUNT, 1, &out), SB_ERR_ARG);
    cr_assert_eq(sb_generate_class(gen, 0, -2, 1, &out), SB_ERR_ARG);
    sb_generator_free(gen);
}

Test(misuse, geometry_making)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse(NULL, &g, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "no geometry spec");
    cr_assert_eq(sb_geometry_parse("2x2", NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_for_cells(16, NULL, why, sizeof why), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_for_cells(-5, &g, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_for_cells(INT_MAX, &g, NULL, 0), SB_ERR_ARG);
    cr_assert_null(g);

    const int houses[4] = {0, 1, 1, 0};
    cr_assert_eq(sb_geometry_from_houses(2, 2, 2, NULL, NULL, &g, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "need 1..4096 cells, 1..64 digits and 1..65536 houses");
    cr_assert_eq(sb_geometry_from_houses(2, 2, 2, houses, NULL, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_from_houses(0, 2, 2, houses, NULL, &g, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_from_houses(2, SB_GEO_MAX_DIGITS + 1, 2, houses, NULL, &g, NULL, 0),
                 SB_ERR_ARG);
    cr_assert_eq(sb_geometry_from_houses(2, 2, -1, houses, NULL, &g, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_from_houses(SB_GEO_MAX_CELLS + 1, 2, 2, houses, NULL, &g, NULL, 0),
                 SB_ERR_ARG);

    cr_assert_eq(sb_geometry_read(NULL, "x", &g, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "no input");
    cr_assert_eq(sb_geometry_read(stdin, "x", NULL, NULL, 0), SB_ERR_ARG);
    /* it said "(null): cannot open: Success" */
    cr_assert_eq(sb_geometry_load(NULL, &g, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "no geometry file named");
    cr_assert_eq(sb_geometry_load("/nonexistent/sb-misuse", NULL, why, sizeof why), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_load("/nonexistent/sb-misuse", &g, why, sizeof why), SB_ERR_IO);
    cr_assert_str_eq(why, "/nonexistent/sb-misuse: cannot open: No such file or directory");
    cr_assert_null(g);
    sb_geometry_free(NULL);
}

Test(misuse, geometry_accessors)
{
    cr_assert_null(sb_geometry_name(NULL));
    cr_assert_eq(sb_geometry_kind_of(NULL), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_cells(NULL), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_digits(NULL), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_houses(NULL), SB_ERR_ARG);
    sb_geometry *g = g4();
    cr_assert_null(sb_geometry_house(NULL, 0));
    cr_assert_null(sb_geometry_house(g, -1));
    cr_assert_null(sb_geometry_house(g, 12));
    cr_assert_not_null(sb_geometry_house(g, 11));
    int n = 99;
    /* cells out of range read past the offsets and overflowed the heap */
    cr_assert_null(sb_geometry_peers(g, 16, &n));
    cr_assert_eq(n, 0);
    n = 99;
    cr_assert_null(sb_geometry_peers(g, -1, &n));
    cr_assert_eq(n, 0);
    cr_assert_null(sb_geometry_peers(g, INT_MAX, &n));
    cr_assert_null(sb_geometry_peers(NULL, 0, &n));
    cr_assert_null(sb_geometry_peers(g, 0, NULL));
    n = 99;
    cr_assert_null(sb_geometry_cell_houses(g, 16, &n));
    cr_assert_eq(n, 0);
    cr_assert_null(sb_geometry_cell_houses(g, INT_MIN, &n));
    cr_assert_null(sb_geometry_cell_houses(NULL, 0, &n));
    cr_assert_null(sb_geometry_cell_houses(g, 0, NULL));
    cr_assert_not_null(sb_geometry_cell_houses(g, 15, &n));
    cr_assert_eq(n, 3);

    sb_geometry_layout l = {9, 9, 9, 9};
    sb_geometry_layout_of(NULL, &l);
    cr_assert_eq(l.rows + l.cols + l.box_rows + l.box_cols, 0);
    sb_geometry_layout_of(g, NULL);

    const uint8_t sol[16] = {1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1};
    cr_assert_eq(sb_gsolution_check(NULL, NULL, sol), 0);
    cr_assert_eq(sb_gsolution_check(g, NULL, NULL), 0);
    cr_assert_eq(sb_gsolution_check(g, NULL, sol), 1);
    sb_geometry_free(g);
}

Test(misuse, codec)
{
    sb_geometry *g = g4();
    uint8_t cells[16];
    char why[SB_GEO_WHY_LEN];
    size_t col = 99;
    cr_assert_eq(sb_gparse(NULL, "1...", 4, cells, NULL, why, sizeof why, &col), SB_ERR_ARG);
    cr_assert_str_eq(why, "no geometry, line or cells");
    cr_assert_eq(sb_gparse(g, NULL, 4, cells, NULL, NULL, 0, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gparse(g, "1...", 4, NULL, NULL, NULL, 0, NULL), SB_ERR_ARG);

    char out[64];
    cr_assert_eq(sb_gformat(NULL, C4, SB_GFORM_CHARS, out, sizeof out), SB_ERR_ARG);
    cr_assert_eq(sb_gformat(g, NULL, SB_GFORM_CHARS, out, sizeof out), SB_ERR_ARG);
    cr_assert_eq(sb_gformat(g, C4, SB_GFORM_CHARS, NULL, 10), SB_ERR_ARG);
    cr_assert_eq(sb_gformat(g, C4, SB_GFORM_CHARS, NULL, 0), 16); /* a length query */
    cr_assert_eq(sb_gformat(g, C4, 7, out, sizeof out), SB_ERR_ARG);
    cr_assert_eq(sb_gformat(g, C4, -1, out, sizeof out), SB_ERR_ARG);
    uint8_t big[16];
    memcpy(big, C4, 16);
    big[15] = 5;
    cr_assert_eq(sb_gformat(g, big, SB_GFORM_INTS, out, sizeof out), SB_ERR_ARG);
    sb_geometry_free(g);
}

/* An enumeration callback that is never to be reached by a refused call. */
static int never(const uint8_t *solution, uint64_t index, void *user)
{
    (void)solution;
    (void)index;
    (void)user;
    cr_assert_fail("a refused enumeration called its callback");
    return 1;
}

Test(misuse, general_solver)
{
    sb_geometry *g = g4();
    sb_gsolver *s = NULL;
    cr_assert_eq(sb_gsolver_new(NULL, &s), SB_ERR_ARG);
    cr_assert_eq(sb_gsolver_new(g, NULL), SB_ERR_ARG);
    sb_gsolver_free(NULL);
    cr_assert_eq(sb_gsolver_simd(NULL, SB_SIMD_SCALAR), SB_ERR_ARG);
    sb_gsolver_budget(NULL, 5);
    sb_gsolver_stop(NULL, NULL);
    sb_gsolver_techniques(NULL, SB_GTECH_ALL);

    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    cr_assert_eq(sb_gsolver_simd(s, 99), SB_ERR_SIMD);
    sb_gresult res;
    uint8_t bad[16];
    memcpy(bad, C4, 16);
    bad[1] = 5;
    cr_assert_eq(sb_gsolve(NULL, C4, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve(s, NULL, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve(s, C4, 0, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve(s, bad, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_each(s, C4, 0, NULL, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_each(NULL, C4, 0, never, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_each(s, bad, 0, never, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve(s, C4, 0, &res, NULL), SB_OK);
    sb_gsolver_free(s);

    sb_options o;
    sb_options_default(&o);
    uint64_t counts[2];
    cr_assert_eq(sb_gsolve_batch(g, NULL, C4, 1, 1, counts, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_batch(g, &o, NULL, 1, 1, counts, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_batch(g, &o, C4, SIZE_MAX / 16 + 1, 1, NULL, NULL, NULL, NULL),
                 SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_batch(sb_geometry_9x9(), &o, C4, SIZE_MAX / SB_CELLS + 1, 1, NULL, NULL, NULL,
                                 NULL),
                 SB_ERR_ARG);
    sb_geometry_free(g);
}

Test(misuse, engines)
{
    cr_assert_not_null(sb_engines(NULL));
    sb_geometry *g = g4();
    sb_options o;
    sb_options_default(&o);
    sb_engine *e = NULL;
    cr_assert_eq(sb_engine_new(g, &o, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_new(g, NULL, &e), SB_ERR_ARG);
    o.pipeline = 99;
    cr_assert_eq(sb_engine_new(g, &o, &e), SB_ERR_PIPELINE);
    sb_options_default(&o);
    o.search = SB_SEARCH_BFS;
    cr_assert_eq(sb_engine_new(g, &o, &e), SB_ERR_ARG);
    cr_assert_null(e);
    sb_engine_free(NULL);
    cr_assert_null(sb_engine_name(NULL));
    sb_engine_budget(NULL, 1);
    sb_engine_stop(NULL, NULL);
    cr_assert_eq(sb_engine_skipped(NULL), 0);
    sb_technique_counts tc[SB_TECH_COUNT];
    memset(tc, 0xCD, sizeof tc);
    sb_engine_counts(NULL, tc);
    cr_assert_eq(tc[3].eliminations, UINT64_C(0xCDCDCDCDCDCDCDCD));
    sb_engine_counts_reset(NULL);

    sb_options_default(&o);
    cr_assert_eq(sb_engine_new(g, &o, &e), SB_OK);
    sb_engine_counts(e, NULL);
    sb_gresult res;
    uint8_t bad[16];
    memcpy(bad, C4, 16);
    bad[0] = 200;
    cr_assert_eq(sb_engine_solve(NULL, C4, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(e, NULL, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(e, C4, 0, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(e, bad, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_each(e, C4, 0, NULL, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_engine_each(e, bad, 0, never, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_engine_each(NULL, C4, 0, never, NULL, &res), SB_ERR_ARG);
    int st[2];
    sb_gresult two[2];
    cr_assert_eq(sb_engine_solve_many(NULL, C4, 1, 0, two, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_many(e, NULL, 1, 0, two, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_many(e, C4, 1, 0, NULL, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_many(e, C4, 1, 0, two, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_many(e, NULL, 0, 0, NULL, NULL, NULL), SB_OK);
    cr_assert_eq(sb_engine_solve_many(e, C4, SIZE_MAX, 0, two, NULL, st), SB_ERR_ARG);
    uint8_t pair[32];
    memcpy(pair, bad, 16);
    memcpy(pair + 16, C4, 16);
    cr_assert_eq(sb_engine_solve_many(e, pair, 2, 0, two, NULL, st), SB_OK);
    cr_assert_eq(st[0], SB_ERR_ARG); /* the refused puzzle alone */
    cr_assert_eq(two[0].count, 0);
    cr_assert_eq(st[1], SB_OK);
    cr_assert_gt(two[1].count, 0);
    uint64_t cand[16];
    for (int c = 0; c < 16; c++)
        cand[c] = 0xF;
    cr_assert_eq(sb_engine_solve_candidates(NULL, cand, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_candidates(e, NULL, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_candidates(e, cand, 0, NULL, NULL), SB_ERR_ARG);
    cand[5] = 0x10; /* digit 5 on a 4-digit grid */
    cr_assert_eq(sb_engine_solve_candidates(e, cand, 0, &res, NULL), SB_ERR_ARG);
    sb_engine_free(e);
    sb_geometry_free(g);
}

Test(misuse, reading_and_rating_any_geometry)
{
    sb_geometry *g = g4();
    sb_reader *r = NULL;
    FILE *f = fmemopen((void *)"1...............\n", 17, "r");
    cr_assert_not_null(f);
    cr_assert_eq(sb_reader_open(NULL, g, f), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, g, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, NULL, f), SB_ERR_ARG);
    sb_record rec;
    uint8_t cells[16];
    cr_assert_eq(sb_reader_next(NULL, &rec, cells, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, g, f), SB_OK);
    cr_assert_eq(sb_reader_next(r, NULL, cells, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_next(r, &rec, NULL, NULL), SB_ERR_ARG);
    size_t n = 7;
    cr_assert_eq(sb_reader_read_cells(r, cells, SIZE_MAX / 16 + 1, &n, NULL), SB_ERR_ARG);
    cr_assert_eq(n, 7);
    cr_assert_eq(sb_reader_read_cells(r, cells, 1, &n, NULL), 1, "nothing consumed");
    cr_assert_eq(n, 1);
    cr_assert_eq(cells[0], 1);
    sb_reader_close(r);
    fclose(f);

    sb_geometry *d = NULL;
    cr_assert_eq(sb_geometry_detect(NULL, 5, 0, &d, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_detect("1..4", 4, 0, NULL, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_detect(NULL, 0, 0, &d, NULL, NULL, 0), SB_OK);
    cr_assert_eq(d, sb_geometry_9x9());

    sb_grater *rt = NULL;
    sb_rating rating;
    cr_assert_eq(sb_grater_new(g, NULL), SB_ERR_ARG);
    sb_grater_free(NULL);
    cr_assert_eq(sb_grater_new(g, &rt), SB_OK);
    uint8_t bad[16];
    memcpy(bad, C4, 16);
    bad[2] = 5;
    cr_assert_eq(sb_grater_rate(NULL, C4, &rating), SB_ERR_ARG);
    cr_assert_eq(sb_grater_rate(rt, NULL, &rating), SB_ERR_ARG);
    cr_assert_eq(sb_grater_rate(rt, C4, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grater_rate(rt, bad, &rating), SB_ERR_ARG);
    sb_ladder_rating lr;
    uint16_t cand[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = 0x1ff;
    cr_assert_eq(sb_grater_ladder(NULL, C4, NULL, &lr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder(rt, NULL, NULL, &lr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder(rt, C4, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder(rt, bad, NULL, &lr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder_candidates(rt, cand, NULL, &lr), SB_ERR_ARG); /* not 9x9 */
    cr_assert_null(sb_grater_plugin_why(rt));
    cr_assert_null(sb_grater_plugin_why(NULL));
    sb_grater_free(rt);
    cr_assert_eq(sb_grater_new(sb_geometry_9x9(), &rt), SB_OK);
    cr_assert_eq(sb_grater_ladder_candidates(NULL, cand, NULL, &lr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder_candidates(rt, NULL, NULL, &lr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_ladder_candidates(rt, cand, NULL, NULL), SB_ERR_ARG);
    cand[5] = 0x200; /* digit 10 */
    cr_assert_eq(sb_grater_ladder_candidates(rt, cand, NULL, &lr), SB_ERR_ARG);
    sb_grater_free(rt);
    cr_assert_eq(sb_grate(g, NULL, &rating), SB_ERR_ARG);
    cr_assert_eq(sb_grate(g, C4, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grate(g, bad, &rating), SB_ERR_ARG);

    int8_t classes[2];
    cr_assert_eq(sb_grate_batch(g, NULL, 1, 1, classes, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grate_batch(g, C4, 1, 1, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grate_batch(g, C4, SIZE_MAX / 16 + 1, 1, classes, NULL, NULL), SB_ERR_ARG);
    uint64_t elim[SB_TECH_COUNT];
    cr_assert_eq(sb_grate_batch(g, C4, SIZE_MAX / (SB_TECH_COUNT * 8) + 1, 1, classes, elim,
                                NULL),
                 SB_ERR_ARG);
    cr_assert_eq(sb_grate_batch(g, bad, 1, 1, classes, elim, NULL), SB_ERR_ARG);
    cr_assert_eq(classes[0], -1);
    sb_geometry_free(g);
}

Test(misuse, batches)
{
    char why[SB_WHY_LEN * 2] = "x";
    cr_assert_eq(sb_threads_check(-5, NULL, 0), SB_OK);
    cr_assert_eq(sb_threads_check(INT_MIN, why, 0), SB_OK);
    cr_assert_eq(why[0], 'x');

    uint8_t cells[2 * SB_CELLS];
    p1_cells(cells);
    p1_cells(cells + SB_CELLS);
    const size_t huge = SIZE_MAX / SB_CELLS + 1;
    sb_options o;
    sb_options_default(&o);
    uint64_t counts[2];
    int8_t st[2];
    cr_assert_eq(sb_solve_batch(NULL, cells, 1, 1, counts, NULL, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_solve_batch(&o, NULL, 1, 1, counts, NULL, NULL, st), SB_ERR_ARG);
    cr_assert_eq(sb_solve_batch(&o, cells, huge, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);
    o.simd = 99;
    cr_assert_eq(sb_solve_batch(&o, cells, 1, 1, counts, NULL, NULL, st), SB_ERR_SIMD);

    int8_t classes[2];
    cr_assert_eq(sb_rate_batch(NULL, 1, 1, classes), SB_ERR_ARG);
    cr_assert_eq(sb_rate_batch(cells, 1, 1, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_rate_batch(cells, huge, 1, classes), SB_ERR_ARG);
    cr_assert_eq(sb_rate_batch_stop(NULL, 1, 1, classes, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_rate_batch_stop(cells, huge, 1, classes, NULL), SB_ERR_ARG);
    cells[SB_CELLS + 4] = 10;
    cr_assert_eq(sb_rate_batch(cells, 2, 1, classes), SB_ERR_ARG);
    cr_assert_eq(classes[1], -1);

    sb_gen_options go;
    sb_gen_options_default(&go);
    uint8_t puzzles[SB_CELLS];
    cr_assert_eq(sb_generate_batch(NULL, 0, 1, 1, puzzles, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch(&go, 0, 1, 1, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch(&go, UINT64_MAX, 2, 1, puzzles, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch(&go, 0, huge, 1, puzzles, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch_stop(NULL, 0, 1, 1, puzzles, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_generate_batch_stop(&go, 0, huge, 1, puzzles, NULL, NULL, NULL), SB_ERR_ARG);
    go.max_clues = 5;
    cr_assert_eq(sb_generate_batch(&go, 0, 1, 1, puzzles, NULL, NULL), SB_ERR_ARG);

    uint8_t out[SB_CELLS];
    cr_assert_eq(sb_augment_batch(NULL, 1, 0, 0, 1, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 0, 0, 0, 1, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 1, 0, 0, 1, 1, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 1, 0, UINT64_MAX, 2, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, huge, 0, 0, 1, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 1, 0, 0, huge, 1, out), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch(cells, 2, 0, 0, 1, 1, out), SB_ERR_ARG); /* cell 10 */
    cr_assert_eq(sb_augment_batch(NULL, 5, 0, 0, 0, 1, NULL), SB_OK);     /* nothing to do */
    cr_assert_eq(sb_augment_batch_stop(NULL, 1, 0, 0, 1, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_augment_batch_stop(cells, 2, 0, 0, 1, 1, out, NULL), SB_ERR_ARG);
}

Test(misuse, generic_pipelines)
{
    sb_geometry *g = g4();
    sb_gpipeline *p = NULL;
    cr_assert_eq(sb_gpipeline_new(NULL, "list", &p), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_new(g, NULL, &p), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_new(g, "list", NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_new(g, "fast", &p), SB_ERR_PIPELINE);
    cr_assert_eq(sb_gpipeline_new(g, "list:zz", &p), SB_ERR_PIPELINE);
    cr_assert_null(p);
    sb_gpipeline_free(NULL);
    sb_gpipeline_budget(NULL, 1);
    sb_gpipeline_stop(NULL, NULL);
    cr_assert_eq(sb_gpipeline_skipped(NULL), 0);
    sb_technique_counts tc[SB_TECH_COUNT];
    memset(tc, 0xCD, sizeof tc);
    sb_gpipeline_counts(NULL, tc);
    cr_assert_eq(tc[0].applications, UINT64_C(0xCDCDCDCDCDCDCDCD));
    sb_gpipeline_counts_reset(NULL);

    cr_assert_eq(sb_gpipeline_new(g, "list", &p), SB_OK);
    sb_gpipeline_counts(p, NULL);
    sb_gresult res;
    uint8_t bad[16];
    memcpy(bad, C4, 16);
    bad[3] = 5;
    cr_assert_eq(sb_gpipeline_solve(NULL, C4, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_solve(p, NULL, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_solve(p, C4, 0, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_solve(p, bad, 0, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_each(p, C4, 0, NULL, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_each(p, bad, 0, never, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_root(NULL, C4), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_root(p, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_root(p, bad), SB_ERR_ARG);
    sb_gpipeline_free(p);
    sb_geometry_free(g);
}

Test(misuse, datasets_on_any_geometry)
{
    sb_ggen_options_default(NULL);
    sb_geometry *g = g4();
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_gsymmetry_check(g, 99, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "unknown symmetry 99");
    cr_assert_eq(sb_gsymmetry_check(g, -1, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_gsymmetry_check(sb_geometry_9x9(), SB_SYM_ROT90, NULL, 0), SB_OK);
    cr_assert_eq(sb_gsymmetry_check(NULL, SB_SYM_ROT90, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "no geometry");

    sb_ggenerator *gen = NULL;
    cr_assert_eq(sb_ggenerator_new(g, 0, NULL, why, sizeof why), SB_ERR_ARG);
    sb_ggen_options o;
    sb_ggen_options_default(&o);
    o.max_attempts = 0;
    cr_assert_eq(sb_ggenerator_new_opts(g, &o, &gen, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "max_attempts must be at least 1");
    sb_ggen_options_default(&o);
    o.max_clues = -1;
    cr_assert_eq(sb_ggenerator_new_opts(g, &o, &gen, why, sizeof why), SB_ERR_ARG);
    cr_assert_str_eq(why, "-1 clues is outside 0..16, the cells of 2x2");
    sb_ggen_options_default(&o);
    o.symmetry = SB_SYM_COUNT;
    cr_assert_eq(sb_ggenerator_new_opts(g, &o, &gen, NULL, 0), SB_ERR_ARG);
    cr_assert_null(gen);
    sb_ggenerator_free(NULL);
    sb_ggenerator_stop(NULL, NULL);
    cr_assert_eq(sb_ggenerator_simd(NULL, SB_SIMD_AUTO), SB_ERR_ARG);
    cr_assert_null(sb_ggenerator_geometry(NULL));

    cr_assert_eq(sb_ggenerator_new(g, 1, &gen, NULL, 0), SB_OK);
    uint8_t puzzle[16], sol[16];
    cr_assert_eq(sb_ggenerate(NULL, 0, puzzle, sol, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate(gen, 0, NULL, sol, NULL), SB_ERR_ARG);
    sb_ggenerator_free(gen);

    uint8_t in[32], out[32];
    memcpy(in, C4, 16);
    memcpy(in + 16, C4, 16);
    cr_assert_eq(sb_gaugment(g, 0, 0, NULL, out), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(g, 0, 0, in, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(g, 0, 0, in, in), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(g, 0, 0, in, in + 8), SB_ERR_ARG); /* overlapping */
    cr_assert_eq(sb_gaugment(g, 0, 0, in + 8, in), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(g, 0, 0, in, in + 16), SB_OK);      /* adjacent is fine */
    memcpy(in + 16, C4, 16);
    in[20] = 5;
    cr_assert_eq(sb_gaugment(g, 0, 0, in + 16, out), SB_ERR_ARG);

    cr_assert_eq(sb_ggenerate_batch(g, 0, 0, 1, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch(g, 0, UINT64_MAX, 2, 1, puzzle, NULL, NULL, NULL),
                 SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch(g, 0, 0, SIZE_MAX / 16 + 1, 1, puzzle, NULL, NULL, NULL),
                 SB_ERR_ARG);
    sb_ggen_options_default(&o);
    o.max_attempts = 0;
    cr_assert_eq(sb_ggenerate_batch_opts(g, &o, 0, 1, 1, puzzle, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch_opts(g, NULL, 0, 1, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);

    cr_assert_eq(sb_gaugment_batch(g, NULL, 1, 0, 0, 1, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, 0, 0, 0, 1, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, 1, 0, 0, 1, 1, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, 1, 0, UINT64_MAX, 2, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, SIZE_MAX / 16 + 1, 0, 0, 1, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, 1, 0, 0, SIZE_MAX / 16 + 1, 1, out, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(g, in, 2, 0, 0, 1, 1, out, NULL), SB_ERR_ARG); /* a 5 */
    sb_geometry_free(g);
}

/* A 9x9 bench set holding P1, prepared with the defaults on one thread when prepare is set. */
static sb_bench *bench_of(int prepare)
{
    sb_bench *b = NULL;
    uint8_t cells[SB_CELLS];
    p1_cells(cells);
    cr_assert_eq(sb_bench_new(sb_geometry_9x9(), &b), SB_OK);
    cr_assert_eq(sb_bench_add(b, cells), SB_OK);
    sb_options o;
    sb_options_default(&o);
    if (prepare)
        cr_assert_eq(sb_bench_prepare(b, &o, 1), SB_OK);
    return b;
}

Test(misuse, bench_set)
{
    cr_assert_eq(sb_bench_new(NULL, NULL), SB_ERR_ARG);
    sb_bench *b = bench_of(0);
    uint8_t cells[SB_CELLS];
    p1_cells(cells);
    cr_assert_eq(sb_bench_add(NULL, cells), SB_ERR_ARG);
    cr_assert_eq(sb_bench_add(b, NULL), SB_ERR_ARG);
    cells[10] = 10; /* would not survive packing into a nibble beside its neighbour */
    cr_assert_eq(sb_bench_add(b, cells), SB_ERR_ARG);
    cells[10] = 0x1F;
    cr_assert_eq(sb_bench_add_at(b, cells, SB_GFORM_CHARS, 3), SB_ERR_ARG);
    p1_cells(cells);
    cr_assert_eq(sb_bench_add_at(NULL, cells, SB_GFORM_CHARS, 3), SB_ERR_ARG);
    cr_assert_eq(sb_bench_size(b), 1);
    cr_assert_eq(sb_bench_size(NULL), 0);
    sb_bench_truncate(NULL, 0);

    uint8_t got[SB_CELLS];
    memset(got, 0xEE, sizeof got);
    sb_bench_puzzle(b, 1, got); /* past the end */
    sb_bench_puzzle(b, SIZE_MAX, got);
    sb_bench_puzzle(NULL, 0, got);
    cr_assert_eq(got[0], 0xEE);
    sb_bench_puzzle(b, 0, NULL);
    char text[SB_GRID_TEXT] = "x";
    cr_assert_eq(sb_bench_text(b, 1, text, sizeof text), 0);
    cr_assert_str_eq(text, "");
    text[0] = 'x';
    cr_assert_eq(sb_bench_text(NULL, 0, text, sizeof text), 0);
    cr_assert_str_eq(text, "");
    cr_assert_eq(sb_bench_text(b, 0, NULL, sizeof text), 0);
    cr_assert_eq(sb_bench_text(b, 0, text, sizeof text), SB_CELLS);
    cr_assert_eq(sb_bench_form(NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_bench_form(b, 1), SB_ERR_ARG);
    cr_assert_eq(sb_bench_form(b, 0), SB_GFORM_CHARS);
    cr_assert_eq(sb_bench_line(NULL, 0), 0);
    cr_assert_eq(sb_bench_line(b, 1), 0);
    cr_assert_eq(sb_bench_before(NULL, 5), 0);
    sb_bench_free(NULL);
    sb_bench_free(b);

    sb_geometry *g = g4();
    cr_assert_eq(sb_bench_new(g, &b), SB_OK);
    uint8_t bad[16];
    memcpy(bad, C4, 16);
    bad[7] = 5;
    cr_assert_eq(sb_bench_add(b, bad), SB_ERR_ARG);
    cr_assert_eq(sb_bench_add_at(b, C4, 7, 2), SB_ERR_ARG, "a form that is no sb_gform");
    cr_assert_eq(sb_bench_add_at(b, C4, SB_GFORM_INTS, 2), SB_OK);
    cr_assert_eq(sb_bench_line(b, 0), 2);
    cr_assert_eq(sb_bench_line(b, 1), 0);
    cr_assert_eq(sb_bench_form(b, 1), SB_ERR_ARG);
    sb_bench_free(b);
    sb_geometry_free(g);
}

Test(misuse, bench_unprepared)
{
    sb_bench *b = bench_of(0);
    uint64_t passes = 7;
    double seconds = -1;
    uint8_t v[1];
    sb_bench_warmup w;
    /* each read the solvers of a row that was never made */
    cr_assert_eq(sb_bench_time(b, 0, &passes, &seconds), SB_ERR_ARG);
    cr_assert_eq(sb_bench_warm(b, v, &w), SB_ERR_ARG);
    cr_assert_eq(sb_bench_simd(b), SB_ERR_ARG);
    cr_assert_eq(sb_bench_simd(NULL), SB_ERR_ARG);
    cr_assert_eq(passes, 7);

    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_bench_prepare(b, &o, -1), SB_ERR_ARG); /* aborted in calloc */
    cr_assert_eq(sb_bench_prepare(b, &o, 0), SB_ERR_ARG);
    cr_assert_eq(sb_bench_prepare(b, &o, INT_MIN), SB_ERR_ARG);
    cr_assert_eq(sb_bench_prepare(NULL, &o, 1), SB_ERR_ARG);
    cr_assert_eq(sb_bench_prepare(b, NULL, 1), SB_ERR_ARG);
    o.simd = 99;
    cr_assert_eq(sb_bench_prepare(b, &o, 2), SB_ERR_SIMD);
    /* a failed prepare leaves no half-made row behind */
    cr_assert_eq(sb_bench_time(b, 0, &passes, &seconds), SB_ERR_ARG);
    cr_assert_eq(sb_bench_warm(b, v, &w), SB_ERR_ARG);
    sb_bench_free(b);
}

Test(misuse, bench_time_bounds)
{
    sb_bench *b = bench_of(1);
    uint64_t passes = 7;
    double seconds = -1;
    /* NaN, infinities and huge durations never ended: elapsed >= min_seconds was never true */
    const double bad[] = {NAN, -NAN, INFINITY, -INFINITY, -1.0, -1e-300,
                          SB_BENCH_MAX_SECONDS + 1.0, 1e300, 1.79e308};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(sb_bench_time(b, bad[i], &passes, &seconds), SB_ERR_ARG, "%g", bad[i]);
        cr_assert_eq(passes, 7);
        cr_assert_eq(seconds, -1);
    }
    cr_assert_eq(sb_bench_time(NULL, 0, &passes, &seconds), SB_ERR_ARG);
    cr_assert_eq(sb_bench_time(b, 0, NULL, &seconds), SB_ERR_ARG);
    cr_assert_eq(sb_bench_time(b, 0, &passes, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_bench_time(b, 0, &passes, &seconds), SB_OK);
    cr_assert_eq(passes, 1); /* at least one pass, and 0 s are up after it */
    cr_assert_eq(sb_bench_time(b, -0.0, &passes, &seconds), SB_OK);

    sb_bench_warmup w;
    uint8_t v[1];
    cr_assert_eq(sb_bench_warm(NULL, v, &w), SB_ERR_ARG);
    cr_assert_eq(sb_bench_warm(b, NULL, &w), SB_ERR_ARG);
    cr_assert_eq(sb_bench_warm(b, v, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_bench_warm(b, v, &w), SB_OK);
    cr_assert_eq(w.verdicts[SB_SOLVED], 1);
    cr_assert_eq(sb_bench_simd(b), sb_simd_resolve(SB_SIMD_AUTO));
    sb_bench_truncate(b, 0);
    cr_assert_eq(sb_bench_warm(b, NULL, &w), SB_OK); /* no puzzles: no verdicts to write */
    sb_bench_free(b);
}

Test(misuse, buffers)
{
    cr_assert_null(sb_buf_reserve(NULL, 5));
    sb_buf b = {0};
    cr_assert_null(sb_buf_reserve(&b, 0)); /* no memory yet: no pointer into it */
    cr_assert_eq(b.oom, 0);
    cr_assert_null(sb_buf_reserve(&b, SIZE_MAX)); /* the doubling would wrap: never ended */
    cr_assert_eq(b.oom, 1);
    sb_buf_free(&b);
    sb_buf_put(NULL, "x", 1);
    sb_buf_put(&b, NULL, 3);
    cr_assert_eq(b.len, 0);
    cr_assert_eq(b.oom, 0);
    sb_buf_printf(NULL, "%d", 1);
    /* through a pointer without the format attribute: a NULL format is the misuse tested */
    void (*const printf_to)(sb_buf *, const char *, ...) = sb_buf_printf;
    printf_to(&b, NULL);
    cr_assert_eq(b.len, 0);
    sb_buf_free(NULL);
    sb_stream_sink_clear(NULL);
    sb_stream_sink_free(NULL);
}

/* Callbacks of a job that does nothing. */
static int w_new(void *ctx, void **worker)
{
    (void)ctx;
    *worker = NULL;
    return 0;
}
static void w_end(void *ctx, void *worker)
{
    (void)ctx;
    (void)worker;
}
static int w_record(void *ctx, void *worker, uint32_t input, const sb_record *rec,
                    const uint8_t *cells, const uint64_t *cand, sb_buf *out, sb_buf *err,
                    void *tag)
{
    (void)ctx, (void)worker, (void)input, (void)rec, (void)cells, (void)cand, (void)out;
    (void)err, (void)tag;
    return SB_OK;
}
static int w_item(void *ctx, void *worker, uint64_t index, sb_buf *out, sb_buf *err, void *tag)
{
    (void)ctx, (void)worker, (void)index, (void)out, (void)err, (void)tag;
    return SB_OK;
}
static int w_write(void *ctx, const char *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
    return 0;
}
static void w_message(void *ctx, const char *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
}
static void w_input_error(void *ctx, int input, sb_stream_fail why, int status, int err,
                          sb_buf *msg)
{
    (void)ctx, (void)input, (void)why, (void)status, (void)err, (void)msg;
}
static void w_error(void *ctx, int status, const char *why)
{
    (void)ctx, (void)status, (void)why;
}

/* A job of n items with every callback it needs. */
static sb_stream_job items_job(uint64_t n)
{
    return (sb_stream_job){.threads = 1, .items = n, .worker_new = w_new, .worker_end = w_end,
                           .item = w_item, .write = w_write, .message = w_message,
                           .error = w_error};
}

/* 1 when fd is closed. */
static int closed(int fd)
{
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

Test(misuse, streams)
{
    sb_stream *s = (sb_stream *)&s;
    sb_stream_job job = items_job(3);
    cr_assert_eq(sb_stream_new(NULL, &job), SB_ERR_ARG);
    cr_assert_eq(sb_stream_new(&s, NULL), SB_ERR_ARG);
    cr_assert_null(s);
    job.worker_new = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job = items_job(3);
    job.item = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job = items_job(3);
    job.write = NULL; /* without a sink */
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    sb_stream_sink sink = {0};
    job.sink = &sink;
    job.message = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_OK);
    sb_stream_free(s);
    job = items_job(3);
    job.error = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job = items_job(3);
    job.tag_size = SIZE_MAX;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);

    /* records: a name missing, first out of range, no geometry */
    char *files[] = {"-", NULL};
    job = items_job(0);
    job.files = files;
    job.nfiles = 2;
    job.record = w_record;
    job.input_error = w_input_error;
    job.g = sb_geometry_9x9();
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job.nfiles = 1;
    job.first = 2;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job.first = -1;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job.first = 0;
    job.input_error = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job.input_error = w_input_error;
    job.g = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    job.g = sb_geometry_9x9();
    job.marks = 1;
    cr_assert_eq(sb_stream_new(&s, &job), SB_OK);
    sb_stream_free(s);
    job.marks = 0;

    /* the given stream is closed by a refused sb_stream_new, as by any other */
    int p[2];
    cr_assert_eq(pipe(p), 0);
    job.given = fdopen(p[0], "r");
    cr_assert_not_null(job.given);
    job.record = NULL;
    cr_assert_eq(sb_stream_new(&s, &job), SB_ERR_ARG);
    cr_assert(closed(p[0]));
    close(p[1]);

    cr_assert_eq(sb_stream_run(NULL), SB_ERR_ARG);
    sb_stream_stats st;
    memset(&st, 0xAB, sizeof st);
    sb_stream_progress(NULL, &st);
    cr_assert_eq(st.failed, (int)0xABABABAB);
    sb_stream_free(NULL);
    job = items_job(3);
    cr_assert_eq(sb_stream_new(&s, &job), SB_OK);
    cr_assert_eq(sb_stream_run(s), SB_OK);
    sb_stream_progress(s, NULL);
    sb_stream_progress(s, &st);
    cr_assert_eq(st.done, 3);
    sb_stream_free(s);
    sb_stream_sink_free(&sink);
}

/* A temporary file holding text. @return its descriptor (unlinked: gone once closed). */
static int temp_fd(const char *text)
{
    char path[] = "/tmp/sb-test-misuse-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    unlink(path);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    return fd;
}

Test(misuse, segments)
{
    const int fd = temp_fd("123\n456\n");
    errno = 0;
    cr_assert_eq(sb_segment_cut(fd, 2, -1, 1), -1);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(sb_segment_cut(-1, 2, 8, 1), -1);
    cr_assert_eq(errno, EBADF);
    cr_assert_eq(sb_segment_cut(fd, 2, 8, 1), 8); /* the end of "456", the first line at 2+ */
    errno = 0;
    cr_assert_eq(sb_segment_lines(fd, -5, 8), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(sb_segment_lines(fd, 8, 0), 0);
    cr_assert_eq(sb_text_lines(NULL, 10), 0);

    sb_buf b = {0};
    errno = 0;
    cr_assert_eq(sb_segment_read(NULL, fd, 0, 4, 100), -1);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(sb_segment_read(&b, fd, 5, 4, 100), -1);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(sb_segment_read(&b, fd, -1, 4, 100), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(sb_segment_read(&b, fd, 0, 4, 100), 1);
    cr_assert_eq(b.len, 4);
    sb_buf_free(&b);
    errno = 0;
    cr_assert_null(sb_segment_open(fd, 5, 4));
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_null(sb_segment_open(fd, -2, 4));
    cr_assert_eq(errno, EINVAL);

    cr_assert_eq(sb_segment_fill(NULL, fd, 10, 0, NULL), 0);
    sb_segment_take(NULL, 5);
    sb_segment_piece piece = {0};
    sb_buf_put(&piece.buf, "abc", 3);
    sb_segment_take(&piece, 4); /* more than it holds: nothing is dropped */
    cr_assert_eq(piece.buf.len, 3);
    sb_segment_take(&piece, 3);
    cr_assert_eq(piece.buf.len, 0);
    sb_buf_free(&piece.buf);
    close(fd);

    int err = 0;
    cr_assert_eq(sb_segment_writer_wait(NULL, &err), 0);
    cr_assert_eq(err, EINVAL);
    err = 0;
    cr_assert_eq(sb_segment_writer_failed(NULL, &err), 0);
    cr_assert_eq(err, EINVAL);
    cr_assert_eq(sb_segment_writer_wait(NULL, NULL), 0);
    sb_segment_writer_put(NULL, &b, 0);
    sb_segment_writer_free(NULL);
    sb_segment_writer *w = sb_segment_writer_new(-1, NULL, NULL); /* a bad descriptor */
    cr_assert_not_null(w);
    sb_segment_writer_put(w, NULL, 0);
    sb_buf_put(&b, "xyz", 3);
    sb_segment_writer_put(w, &b, 10);
    cr_assert_eq(sb_segment_writer_wait(w, NULL), 10);
    cr_assert_eq(sb_segment_writer_failed(w, &err), 10);
    cr_assert_eq(err, EBADF);
    sb_segment_writer_free(w);
    sb_buf_free(&b);
}

Test(misuse, sources)
{
    char buf[256];
    errno = 0;
    cr_assert_eq(sb_input_peek(NULL, buf, sizeof buf), -1);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(sb_input_peek("-", NULL, sizeof buf), -1);
    cr_assert_eq(errno, EINVAL);

    int at = 7, fifo = 7;
    errno = 0;
    cr_assert_eq(sb_input_pick(NULL, 2, buf, sizeof buf, &at, &fifo), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(at, 0);
    cr_assert_eq(fifo, -1);
    const char *one[] = {"-"};
    cr_assert_eq(sb_input_pick(one, 1, buf, sizeof buf, NULL, &fifo), -1);
    cr_assert_eq(sb_input_pick(one, 1, buf, sizeof buf, &at, NULL), -1);
    cr_assert_eq(sb_input_pick(one, 1, NULL, sizeof buf, &at, &fifo), -1);

    char path[] = "/tmp/sb-test-misuse-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, P1, SB_CELLS), SB_CELLS);
    close(fd);
    const char *paths[] = {NULL, path}; /* a NULL name passes to the next input */
    cr_assert_eq(sb_input_pick(paths, 2, buf, sizeof buf, &at, &fifo), SB_CELLS);
    cr_assert_eq(at, 1);

    sb_input_head h = {.at = 7, .fifo = 7};
    errno = 0;
    cr_assert_eq(sb_input_pick_head(NULL, 2, buf, sizeof buf, &h), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(h.at, 0);
    cr_assert_eq(h.fifo, -1);
    cr_assert_eq(sb_input_pick_head(paths, 2, buf, sizeof buf, NULL), -1);
    cr_assert_eq(sb_input_pick_head(paths, 2, NULL, sizeof buf, &h), -1);
    cr_assert_eq(sb_input_pick_head(paths, 2, buf, sizeof buf, &h), SB_CELLS);
    cr_assert_eq(h.at, 1);
    unlink(path);
}

Test(misuse, compressed_inputs)
{
    cr_assert_eq(sb_input_sniff(NULL, 9), SB_INPUT_TEXT);
    cr_assert_eq(sb_input_sniff("\x1f\x8b", 2), SB_INPUT_GZIP);
    cr_assert_eq(sb_input_sniff("\x28\xb5\x2f\xfd", 4), SB_INPUT_ZSTD);
    cr_assert_eq(sb_input_sniff("\xfd" "7zXZ\0", 6), SB_INPUT_XZ);
    cr_assert_eq(sb_input_sniff("PK\x03\x04", 4), SB_INPUT_ZIP);
    cr_assert_eq(sb_input_sniff("BZh9", 4), SB_INPUT_BZIP2);
    cr_assert_eq(sb_input_sniff("12\0", 3), SB_INPUT_BINARY);
    cr_assert_eq(sb_input_sniff("\x1f", 1), SB_INPUT_TEXT, "too short to tell");
    cr_assert_str_eq(sb_input_kind_name(SB_INPUT_GZIP), "gzip-compressed");
    cr_assert_str_eq(sb_input_kind_name((sb_input_kind)99), "text");
    cr_assert_null(sb_input_kind_missing(SB_INPUT_TEXT));
    cr_assert_null(sb_input_kind_missing(SB_INPUT_ZIP));
    cr_assert(sb_input_readable(SB_INPUT_TEXT));
    cr_assert_not(sb_input_readable(SB_INPUT_ZIP));
    cr_assert_not(sb_input_readable(SB_INPUT_BINARY));
    cr_assert_eq(sb_input_readable(SB_INPUT_GZIP), sb_input_kind_missing(SB_INPUT_GZIP) == NULL);
    cr_assert_str_eq(sb_input_strerror(EBADMSG), "compressed data is truncated or corrupt");
    cr_assert_str_eq(sb_input_strerror(ENOENT), strerror(ENOENT));

    FILE *in = (FILE *)&in;
    sb_input_kind kind = SB_INPUT_ZIP;
    errno = 0;
    cr_assert_eq(sb_input_open(NULL, &in, &kind), -1);
    cr_assert_eq(errno, EINVAL);
    cr_assert_eq(sb_input_open("-", NULL, &kind), -1);
    cr_assert_eq(sb_input_open("-", &in, NULL), -1);
    cr_assert_eq(sb_input_open("/nonexistent/sb-misuse", &in, &kind), -1);
    cr_assert_eq(errno, ENOENT);
    errno = 0;
    cr_assert_null(sb_unpack_fd(SB_INPUT_GZIP, -1, 0, 0));
    cr_assert_eq(errno, EINVAL);
    cr_assert_null(sb_unpack_fd(SB_INPUT_TEXT, 0, -1, 0));
    cr_assert_eq(errno, ENOTSUP);
    cr_assert_null(sb_unpack_mem(SB_INPUT_GZIP, NULL, 4));
    cr_assert_eq(errno, EINVAL);
    cr_assert_null(sb_unpack_mem(SB_INPUT_ZIP, "PK", 2));
    cr_assert_eq(errno, ENOTSUP);
    if (sb_input_readable(SB_INPUT_GZIP)) {
        /* gzip -n of "12\n", and the same cut short: a read error (EBADMSG), not text */
        static const unsigned char gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
                                           0x00, 0x03, 0x33, 0x34, 0xe2, 0x02, 0x00, 0xda,
                                           0xeb, 0x4d, 0xd7, 0x03, 0x00, 0x00, 0x00};
        char out[8] = {0};
        FILE *f = sb_unpack_mem(SB_INPUT_GZIP, gz, sizeof gz);
        cr_assert_not_null(f);
        cr_assert_eq(fread(out, 1, sizeof out, f), 3);
        cr_assert_str_eq(out, "12\n");
        cr_assert_not(ferror(f));
        fclose(f);
        f = sb_unpack_mem(SB_INPUT_GZIP, gz, sizeof gz - 4);
        cr_assert_not_null(f);
        errno = 0;
        fread(out, 1, sizeof out, f);
        cr_assert(ferror(f));
        cr_assert_eq(errno, EBADMSG);
        fclose(f);
    }
}

Test(misuse, record_solvers)
{
    sb_rsolver *s = (sb_rsolver *)&s;
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_rsolver_new(NULL, NULL, NULL, &s), SB_ERR_ARG);
    cr_assert_null(s);
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &o, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_new(NULL, &o, NULL, &s), SB_ERR_ARG, "a geometry is needed");
    cr_assert_null(s);
    sb_rsolver_free(NULL);

    sb_record recs[2];
    memset(recs, 0, sizeof recs);
    recs[0].kind = SB_LINE_INVALID;
    recs[1].kind = SB_LINE_PUZZLE;
    const sb_record *rec = &recs[1];
    uint8_t cells[2][SB_CELLS] = {{0}};
    const sb_grid p1 = tu_grid(P1);
    memcpy(cells[1], p1.cell, SB_CELLS);
    uint64_t cand[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = 1u << 9; /* above digit 9 */
    sb_gresult res;
    sb_ladder_rating rt;
    sb_gresult gr;
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &o, &o, &s), SB_OK);
    sb_rsolver_ahead(NULL, recs, cells[0], 2);
    sb_rsolver_ahead(s, NULL, cells[0], 2);
    sb_rsolver_ahead(s, recs, NULL, 2);
    sb_rsolver_ahead(s, recs, cells[0], SIZE_MAX);
    sb_rsolver_ahead(s, recs, cells[0], 2); /* the invalid record is passed over */
    cr_assert_eq(sb_rsolver_solve(s, rec, cells[1], NULL, &res), SB_OK);
    cr_assert_eq(res.count, 1);
    cr_assert_eq(sb_rsolver_solve(NULL, rec, cells[1], NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_solve(s, NULL, cells[1], NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_solve(s, rec, NULL, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_solve(s, rec, cells[1], NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_solve(s, rec, cells[1], cand, &res), SB_ERR_ARG, "a mask above 9");
    cr_assert_null(sb_rsolver_solution(NULL));
    cr_assert_null(sb_rsolver_plugin_why(NULL));
    cr_assert_eq(sb_rsolver_solve(s, rec, cells[1], NULL, &res), SB_OK);
    cr_assert_not_null(sb_rsolver_solution(s));
    cr_assert_eq(sb_solution_check(&p1, (const sb_grid *)(const void *)sb_rsolver_solution(s)),
                 1);
    cr_assert_eq(sb_rsolver_rate(NULL, cells[1], NULL, NULL, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_rate(s, NULL, NULL, NULL, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_rate(s, cells[1], NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_rate(s, cells[1], cand, NULL, &rt), SB_ERR_ARG, "a mask above 9");
    cr_assert_eq(sb_rsolver_each(NULL, cells[1], never, NULL, &gr), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_each(s, cells[1], never, NULL, &gr), SB_ERR_ARG); /* 9x9 */
    sb_rsolver_free(s);

    /* a solver whose making failed is freed, and refuses, without a crash */
    o.simd = 99;
    cr_assert_eq(sb_rsolver_new(sb_geometry_9x9(), &o, NULL, &s), SB_ERR_SIMD);
    sb_rsolver_ahead(s, recs, cells[0], 2);
    cr_assert_eq(sb_rsolver_solve(s, rec, cells[1], NULL, &res), SB_ERR_ARG);
    sb_rsolver_free(s);

    sb_geometry *g = g4();
    sb_options_default(&o);
    cr_assert_eq(sb_rsolver_new(g, &o, NULL, &s), SB_OK);
    cr_assert_eq(sb_rsolver_each(s, NULL, never, NULL, &gr), SB_ERR_ARG);
    cr_assert_eq(sb_rsolver_rate(s, cells[1], NULL, NULL, &rt), SB_ERR_ARG); /* no rater */
    sb_rsolver_free(s);
    sb_geometry_free(g);
}

Test(misuse, side_files)
{
    char path[SB_SIDE_PATH];
    cr_assert_eq(sb_side_path(NULL, path), SB_ERR_ARG);
    cr_assert_eq(sb_side_path("out", NULL), SB_ERR_ARG);

    sb_side s;
    char *argv[] = {"solve", NULL};
    char *files[] = {NULL};
    cr_assert_eq(sb_side_open(NULL, "out", 1, "solve", 1, argv, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, NULL, 1, "solve", 1, argv, NULL, 0), SB_ERR_ARG);
    sb_side_free(&s);
    cr_assert_eq(sb_side_open(&s, "out", 1, NULL, 1, argv, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", -1, argv, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", 2, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", 2, argv, NULL, 0), SB_ERR_ARG); /* NULL */
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", 1, argv, NULL, 1), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", 1, argv, files, 1), SB_ERR_ARG);
    cr_assert_eq(sb_side_open(&s, "out", 1, "solve", 1, argv, files, -1), SB_ERR_ARG);
    sb_side_free(&s);
    sb_side_free(NULL);

    uint64_t records = 7, counts[2] = {7, 7};
    int has_header = 7;
    cr_assert_eq(sb_side_cut(NULL, 1, 0, &records, &has_header), SB_ERR_ARG);
    cr_assert_eq(sb_side_cut("out", 1, -1, &records, &has_header), SB_ERR_ARG);
    cr_assert_eq(sb_side_cut("out", 1, 0, NULL, &has_header), SB_ERR_ARG);
    cr_assert_eq(sb_side_cut("out", 1, 0, &records, NULL), SB_ERR_ARG);
    cr_assert_eq(records, 7);
    cr_assert_eq(has_header, 7);

    /* a side file as sb_side_open keeps it: its identity, then what followed it */
    sb_side side;
    memset(&side, 0, sizeof side);
    sb_buf_put(&side.id, "ID\n", 3);
    cr_assert_eq(sb_side_counts(NULL, &records, counts, 2), SB_ERR_ARG);
    cr_assert_eq(sb_side_counts(&side, NULL, counts, 2), SB_ERR_ARG);
    cr_assert_eq(sb_side_counts(&side, &records, NULL, 2), SB_ERR_ARG);
    cr_assert_eq(sb_side_counts(&side, &records, counts, -1), SB_ERR_ARG);
    sb_buf_put(&side.old, "ID", 3); /* shorter than the identity: read past its end */
    cr_assert_eq(sb_side_counts(&side, &records, counts, 2), SB_ERR_ARG);
    side.old.len = 0;
    sb_buf_put(&side.old, "ID\nd", 5); /* "d": no checkpoint; read past its end */
    cr_assert_eq(sb_side_counts(&side, &records, counts, 2), SB_ERR_ARG);
    cr_assert_eq(records, 7);
    cr_assert_eq(counts[0], 7);
    side.old.len = 0;
    sb_buf_put(&side.old, "ID\nat 5 1 2\n", 13);
    cr_assert_eq(sb_side_counts(&side, &records, counts, 2), SB_OK);
    cr_assert_eq(records, 5);
    cr_assert_eq(counts[1], 2);
    cr_assert_eq(sb_side_checkpoint(NULL, 0, counts, 2), SB_ERR_ARG);
    cr_assert_eq(sb_side_checkpoint(&side, 0, NULL, 2), SB_ERR_ARG);
    cr_assert_eq(sb_side_checkpoint(&side, 0, counts, -1), SB_ERR_ARG);
    sb_side_free(&side);

    cr_assert_eq(sb_side_append(NULL, "done 0\n", 1), SB_ERR_ARG);
    cr_assert_eq(sb_side_append("out", NULL, 1), SB_ERR_ARG);
}

Test(misuse, plugins)
{
    char why[SB_PLUGIN_WHY] = "";
    sb_plugin *p = (sb_plugin *)(uintptr_t)1; /* must be cleared on failure */
    cr_assert_eq(sb_plugin_open(NULL, &p, why, sizeof why), SB_ERR_ARG);
    cr_assert_null(p);
    cr_assert_eq(sb_plugin_open("x.so", NULL, why, sizeof why), SB_ERR_ARG);
    cr_assert_eq(sb_plugin_open("/nonexistent/x.so", &p, why, sizeof why), SB_ERR_PLUGIN);
    cr_assert_null(p);
    cr_assert(strstr(why, "/nonexistent/x.so"), "the reason names the file: %s", why);
    cr_assert_eq(sb_plugin_open("/nonexistent/x.so", &p, NULL, 0), SB_ERR_PLUGIN);
    sb_plugin_close(NULL);
    cr_assert_null(sb_plugin_name(NULL));
    cr_assert_null(sb_plugin_about(NULL));
    cr_assert_eq(sb_plugin_accepts(NULL, NULL), 0);
    cr_assert_eq(sb_plugin_one_thread(NULL), 0);
    cr_assert_null(sb_plugin_running(), "no plug-in call runs here");
    /* a plug-in is an engine row: the 9x9 solver refuses one */
    sb_options o;
    sb_options_default(&o);
    o.plugin = (const sb_plugin *)(uintptr_t)1;
    sb_solver *s = (sb_solver *)(uintptr_t)1;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_ARG);
    cr_assert_null(s);
    /* technique plug-ins: NULL everywhere, and a list that is not one */
    cr_assert_eq(sb_plugin_is_technique(NULL), 0);
    sb_technique_counts pc[SB_TECH_PLUGINS];
    cr_assert_eq(sb_solver_plugin_counts(NULL, pc), 0);
    cr_assert_eq(sb_engine_plugin_counts(NULL, pc), 0);
    cr_assert_null(sb_solver_plugin_why(NULL));
    cr_assert_null(sb_engine_plugin_why(NULL));
    cr_assert_eq(sb_options_explain(NULL, NULL, why, sizeof why), SB_ERR_PIPELINE);
    cr_assert_eq(sb_options_explain(NULL, "restart:ns,nope", NULL, 0), SB_ERR_PIPELINE);
    sb_options_default(&o);
    o.ntechniques = 2; /* and no list */
    cr_assert_eq(sb_options_explain(&o, "restart:ns,nope", why, sizeof why), SB_ERR_PIPELINE);
    cr_assert(strstr(why, "unknown technique 'nope'"), "%s", why);
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_ARG);
    cr_assert_null(s);
    const sb_plugin *five[SB_TECH_PLUGINS + 1] = {0};
    o.techniques = five;
    o.ntechniques = SB_TECH_PLUGINS + 1;
    cr_assert_eq(sb_solver_new(&s, &o), SB_ERR_ARG);
    cr_assert_null(s);
    sb_engine *e = (sb_engine *)(uintptr_t)1;
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_ERR_ARG);
    cr_assert_null(e);
    /* a rater's rungs: too many, a list without technique plug-ins, none listed */
    sb_grater *gr = (sb_grater *)(uintptr_t)1;
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), &o, &gr), SB_ERR_ARG);
    cr_assert_null(gr);
    o.ntechniques = 1; /* five[0] is NULL */
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), &o, &gr), SB_ERR_ARG);
    o.techniques = NULL;
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), &o, &gr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), NULL, &gr), SB_ERR_ARG);
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), &o, NULL), SB_ERR_ARG);
    sb_options_default(&o);
    cr_assert_eq(sb_grater_new_opt(NULL, &o, &gr), SB_ERR_ARG); /* 9x9 is sb_geometry_9x9() */
    cr_assert_null(gr);
}
