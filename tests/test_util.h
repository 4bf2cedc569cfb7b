/*
 * test_util.h — small helpers shared by the unit tests (header-only, static inline).
 */
#ifndef SB_TESTS_TEST_UTIL_H
#define SB_TESTS_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sudokubench.h"

/* TU_SAMPLE(n): the puzzles a heavy cross-check takes, n in the plain build and n / TU_SCALE
 * (at least 1) in the slow ones (make's UNIT_SCALE: ASan, qemu). Only for samples whose every
 * puzzle runs the same code paths; a fixed case list is never scaled. */
#ifndef TU_SCALE
#define TU_SCALE 1
#endif
#define TU_SAMPLE(n) ((n) / TU_SCALE > 0 ? (n) / TU_SCALE : 1)

/* Fills a grid from 81 characters ('1'-'9' given, anything else blank), skipping '/' and
 * ' ' separators so puzzles can be written row by row. Asserts exactly 81 cells. */
static inline sb_grid tu_grid(const char *text)
{
    sb_grid g;
    int n = 0;
    memset(&g, 0, sizeof g);
    for (const char *p = text; *p; p++) {
        if (*p == '/' || *p == ' ')
            continue;
        cr_assert(n < SB_CELLS, "grid text has more than 81 cells: %s", text);
        g.cell[n++] = (uint8_t)((*p >= '1' && *p <= '9') ? *p - '0' : 0);
    }
    cr_assert_eq(n, SB_CELLS, "grid text has %d cells: %s", n, text);
    return g;
}

static inline sb_grid tu_from_cells(const uint8_t cells[81])
{
    sb_grid g;
    memcpy(g.cell, cells, SB_CELLS);
    return g;
}

/* 81 chars + NUL: digits, '.' for 0, '#' for anything out of range. Independent of the
 * library's sb_grid_format so messages do not depend on the code under test. */
static inline void tu_text(const uint8_t cells[81], char out[82])
{
    for (int i = 0; i < 81; i++)
        out[i] = cells[i] == 0 ? '.' : cells[i] <= 9 ? (char)('0' + cells[i]) : '#';
    out[81] = '\0';
}

/* Fills levels[] with every SIMD level this CPU supports (scalar first); returns the number.
 * A level the CPU lacks is named on stderr (once per test process): its kernel goes untested
 * here, and a green run on such a machine must not read as if it had been. */
static inline int tu_supported_levels(int levels[SB_SIMD_LEVELS])
{
    static int told;
    int n = 0;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l))
            levels[n++] = l;
        else if (!told)
            fprintf(stderr, "note: this CPU lacks %s: its kernel is not tested on this machine\n",
                    sb_simd_name(l));
    told = 1;
    return n;
}

/* Creates a solver with explicit limit, pipeline and level, asserting success. */
static inline sb_solver *tu_solver(uint64_t limit, int pipeline, int simd)
{
    sb_options opt;
    sb_solver *s = NULL;
    sb_options_default(&opt);
    opt.limit = limit;
    opt.pipeline = pipeline;
    opt.simd = simd;
    int rc = sb_solver_new(&s, &opt);
    cr_assert_eq(rc, SB_OK, "sb_solver_new(limit %llu, pipeline %d, simd %d) = %d (%s)",
                 (unsigned long long)limit, pipeline, simd, rc, sb_strerror(rc));
    cr_assert_not_null(s);
    cr_assert_eq(sb_solver_simd(s), simd, "solver runs level %d, asked for %d",
                 sb_solver_simd(s), simd);
    return s;
}

/* Solves and asserts the call itself succeeded. */
static inline sb_result tu_solve(sb_solver *s, const uint8_t cells[81])
{
    sb_grid g = tu_from_cells(cells);
    sb_result res;
    memset(&res, 0xA5, sizeof res); /* make stale fields visible */
    int rc = sb_solve(s, &g, &res);
    char t[82];
    tu_text(cells, t);
    cr_assert_eq(rc, SB_OK, "sb_solve(%s) = %d (%s)", t, rc, sb_strerror(rc));
    return res;
}

/* Reads the first n puzzles of a committed sample into cells (n*81 bytes); asserts the file
 * holds that many before any invalid line. */
static inline void tu_load_cells(const char *path, uint8_t *cells, size_t n)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s (tests run from the repository root)", path);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    size_t got;
    cr_assert_eq(sb_reader_read_cells(r, cells, n, &got, NULL), 1);
    cr_assert_eq(got, n);
    sb_reader_close(r);
    fclose(f);
}

#endif /* SB_TESTS_TEST_UTIL_H */
