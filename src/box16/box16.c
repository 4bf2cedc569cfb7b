/*
 * box16.c — the whole-board kernel for 16-digit boxed grids (src/box16/box16_kernel.h) at the
 * baseline instruction set, its set-up, the test of which geometries it fits and the choice of
 * stamp (AVX2 where the CPU has it): the engine table's "box16" row (src/engine/engine.c) asks both
 * once, the 0.1 general solver (general.c) at each solve, as its level may change.
 */
#include <stdlib.h>

#define B16_SEARCH sb_box16_search_base
#include "box16.h"
#include "box16_kernel.h"

/* The box of cell c on a 16x16 grid with boxes of R rows by C columns, numbered row-major. */
static int box_of(int c, int R, int C)
{
    return c / 16 / R * (16 / C) + c % 16 / C;
}

int sb_box16_fits(const sb_geometry *g)
{
    sb_geometry_layout lay;
    if (!g || sb_geometry_kind_of(g) != SB_GEO_BOXED || sb_geometry_cells(g) != 256 ||
        sb_geometry_digits(g) != 16 || sb_geometry_houses(g) != 48)
        return 0;
    sb_geometry_layout_of(g, &lay);
    const int R = lay.box_rows, C = lay.box_cols;
    if (R * C != 16 || R < 2 || C < 2)
        return 0;
    /* The layout above is assumed, so check it: every house must be one row, one column or
     * one box of it, each once. */
    unsigned seen[3] = {0, 0, 0};
    for (int h = 0; h < 48; h++) {
        const uint16_t *hc = sb_geometry_house(g, h);
        const int id[3] = {hc[0] / 16, hc[0] % 16, box_of(hc[0], R, C)}; /* row, column, box */
        int same[3] = {1, 1, 1};
        for (int i = 1; i < 16; i++) {
            same[0] &= hc[i] / 16 == id[0];
            same[1] &= hc[i] % 16 == id[1];
            same[2] &= box_of(hc[i], R, C) == id[2];
        }
        const int kind = same[0] ? 0 : same[1] ? 1 : same[2] ? 2 : -1;
        if (kind < 0 || (seen[kind] >> id[kind] & 1))
            return 0;
        seen[kind] |= 1u << id[kind];
    }
    return 1;
}

int sb_box16_new(const sb_geometry *g, sb_box16 **out)
{
    *out = NULL;
    if (!sb_box16_fits(g))
        return SB_OK;
    sb_geometry_layout lay;
    sb_geometry_layout_of(g, &lay);
    sb_box16 *k = calloc(1, sizeof *k);
    if (!k)
        return SB_ERR_NOMEM;
    k->C = lay.box_cols;
    k->ncells = 256;
    k->stack = aligned_alloc(64, B16_DEPTH * B16_ROWS * sizeof *k->stack);
    if (!k->stack) {
        free(k);
        return SB_ERR_NOMEM;
    }
    *out = k;
    return SB_OK;
}

void sb_box16_free(sb_box16 *k)
{
    if (!k)
        return;
    free(k->stack);
    free(k);
}

sb_box16_fn sb_box16_stamp(int level)
{
    const int avx2 =
        level == SB_SIMD_AVX2 || level == SB_SIMD_AVX512 || level == SB_SIMD_AVX512BW;
    return avx2 ? sb_box16_search_avx2 : sb_box16_search_base;
}

void sb_box16_cand(const uint8_t *cells, const uint64_t *in64, uint16_t cand[256])
{
    for (int c = 0; c < 256; c++)
        cand[c] = !cells ? (uint16_t)in64[c]
                  : cells[c] ? (uint16_t)(1u << (cells[c] - 1))
                             : 0xFFFF;
}

int sb_box16_run(sb_box16 *k, int level, const uint16_t *cand, uint64_t limit,
                 sb_gsolution_fn fn, void *user, sb_gresult *res, uint8_t *first,
                 const sb_glimit *lim)
{
    return sb_box16_stamp(level)(k, cand, limit, fn, user, res, first, lim);
}
