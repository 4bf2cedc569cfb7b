/*
 * tables.c — grid geometry and grid-level helpers: peer tables, formatting, candidates,
 * conflict and solution checks, status names.
 *
 * The peer tables are generated at build time by gen_tables.c into build/gen/tables.inc and
 * live here as const data shared by every thread.
 */
#include <string.h>

#include "internal.h"

const sb_peer_tables sb_peer_tables_data =
#include "tables.inc"
    ;

const uint8_t sb_house_lanes[SB_DIGITS][64] __attribute__((aligned(64))) =
#include "house_lanes.inc"
    ;

const sb_lane_map_t sb_lane_map =
#include "lane_map.inc"
    ;

const sb_lane_order_t sb_lane_order =
#include "lane_order.inc"
    ;

const sb_locked_lanes_t sb_locked_lanes =
#include "locked_lanes.inc"
    ;

const uint8_t sb_cell_house_lanes[3][2 * SB_LANES] __attribute__((aligned(64))) =
#include "cell_house_lanes.inc"
    ;

/* Popcount table by doubling: each macro level covers twice the range of the one below. */
#define SB_PC2(n) n, n + 1, n + 1, n + 2
#define SB_PC4(n) SB_PC2(n), SB_PC2(n + 1), SB_PC2(n + 1), SB_PC2(n + 2)
#define SB_PC6(n) SB_PC4(n), SB_PC4(n + 1), SB_PC4(n + 1), SB_PC4(n + 2)
#define SB_PC8(n) SB_PC6(n), SB_PC6(n + 1), SB_PC6(n + 1), SB_PC6(n + 2)
const uint8_t sb_popcount9[512] = {SB_PC8(0), SB_PC8(1)};

/* Row, column and box bits of each cell, spelled out from the house numbering. */
#define SB_HB(c) ((1u << ((c) / 9)) | (1u << (9 + (c) % 9)) | (1u << (18 + 3 * ((c) / 27) + ((c) % 9) / 3)))
#define SB_HB9(r) SB_HB(9 * (r)), SB_HB(9 * (r) + 1), SB_HB(9 * (r) + 2), SB_HB(9 * (r) + 3), \
    SB_HB(9 * (r) + 4), SB_HB(9 * (r) + 5), SB_HB(9 * (r) + 6), SB_HB(9 * (r) + 7), SB_HB(9 * (r) + 8)
const uint32_t sb_cell_house_bits[SB_CELLS] = {SB_HB9(0), SB_HB9(1), SB_HB9(2), SB_HB9(3), SB_HB9(4),
                                               SB_HB9(5), SB_HB9(6), SB_HB9(7), SB_HB9(8)};

/* Cell c's row, box and column in a band word (the column in every band, the row and box in
 * the cell's own band, SB_BOWN). */
#define SB_BROW(c) (0x1FFu << (9 * ((c) % 27 / 9)))
#define SB_BBOX(c) (0x1C0E07u << (3 * ((c) % 9 / 3)))
#define SB_BCOL(c) (0x40201u << ((c) % 9))
#define SB_BOWN(c, kk) ((kk) == (c) / 27)

/* Band word kk of cell c's peers: its column in every band; its row and box in its own band,
 * itself excluded. */
#define SB_BPW(c, kk) \
    ((SB_BCOL(c) | (SB_BOWN(c, kk) ? SB_BROW(c) | SB_BBOX(c) : 0u)) & \
     ~(SB_BOWN(c, kk) ? 1u << ((c) % 27) : 0u))
#define SB_BP(c) {SB_BPW(c, 0), SB_BPW(c, 1), SB_BPW(c, 2), 0}
#define SB_BP9(r) SB_BP(9 * (r)), SB_BP(9 * (r) + 1), SB_BP(9 * (r) + 2), SB_BP(9 * (r) + 3), \
    SB_BP(9 * (r) + 4), SB_BP(9 * (r) + 5), SB_BP(9 * (r) + 6), SB_BP(9 * (r) + 7), SB_BP(9 * (r) + 8)
const uint32_t sb_band_peers[SB_CELLS][4] __attribute__((aligned(16))) = {
    SB_BP9(0), SB_BP9(1), SB_BP9(2), SB_BP9(3), SB_BP9(4), SB_BP9(5), SB_BP9(6), SB_BP9(7), SB_BP9(8)};

/* Each cell's own bit as band words. */
#define SB_BC(c) {SB_BOWN(c, 0) ? 1u << (c) % 27 : 0u, SB_BOWN(c, 1) ? 1u << (c) % 27 : 0u, \
    SB_BOWN(c, 2) ? 1u << (c) % 27 : 0u, 0}
#define SB_BC9(r) SB_BC(9 * (r)), SB_BC(9 * (r) + 1), SB_BC(9 * (r) + 2), SB_BC(9 * (r) + 3), \
    SB_BC(9 * (r) + 4), SB_BC(9 * (r) + 5), SB_BC(9 * (r) + 6), SB_BC(9 * (r) + 7), SB_BC(9 * (r) + 8)
const uint32_t sb_band_cell[SB_CELLS][4] __attribute__((aligned(16))) = {
    SB_BC9(0), SB_BC9(1), SB_BC9(2), SB_BC9(3), SB_BC9(4), SB_BC9(5), SB_BC9(6), SB_BC9(7), SB_BC9(8)};

/* sb_band_peers without the cell's row (entry 0: its column and box) or its column (entry 1:
 * its row and box), for line.h's pairs. */
#define SB_BXR(c, kk) ((SB_BCOL(c) | (SB_BOWN(c, kk) ? SB_BBOX(c) : 0u)) & \
                       ~(SB_BOWN(c, kk) ? SB_BROW(c) : 0u))
#define SB_BXC(c, kk) ((SB_BOWN(c, kk) ? SB_BROW(c) | SB_BBOX(c) : 0u) & ~SB_BCOL(c))
#define SB_BXW(c, kk, l) ((l) == 0 ? SB_BXR(c, kk) : SB_BXC(c, kk))
#define SB_BX(c, l) {SB_BXW(c, 0, l), SB_BXW(c, 1, l), SB_BXW(c, 2, l), 0}
#define SB_BX9(r, l) SB_BX(9 * (r), l), SB_BX(9 * (r) + 1, l), SB_BX(9 * (r) + 2, l), \
    SB_BX(9 * (r) + 3, l), SB_BX(9 * (r) + 4, l), SB_BX(9 * (r) + 5, l), SB_BX(9 * (r) + 6, l), \
    SB_BX(9 * (r) + 7, l), SB_BX(9 * (r) + 8, l)
#define SB_BX81(l) {SB_BX9(0, l), SB_BX9(1, l), SB_BX9(2, l), SB_BX9(3, l), SB_BX9(4, l), \
    SB_BX9(5, l), SB_BX9(6, l), SB_BX9(7, l), SB_BX9(8, l)}
const uint32_t sb_band_cross[2][SB_CELLS][4] __attribute__((aligned(16))) = {SB_BX81(0),
                                                                            SB_BX81(1)};

/* sb_band_peers by band position 32 * band + bit; bits 27..31 of a band are no cell (0). */
#define SB_BPAT(i) SB_BPATW(i, 0), SB_BPATW(i, 1), SB_BPATW(i, 2), 0
#define SB_BPATW(i, kk) ((i) % 32 < 27 ? SB_BPW(27 * ((i) / 32) + (i) % 32, kk) : 0u)
#define SB_BPAT8(i) {SB_BPAT(i)}, {SB_BPAT((i) + 1)}, {SB_BPAT((i) + 2)}, {SB_BPAT((i) + 3)}, \
    {SB_BPAT((i) + 4)}, {SB_BPAT((i) + 5)}, {SB_BPAT((i) + 6)}, {SB_BPAT((i) + 7)}
#define SB_BPAT32(i) SB_BPAT8(i), SB_BPAT8((i) + 8), SB_BPAT8((i) + 16), SB_BPAT8((i) + 24)
const uint32_t sb_band_peers_at[3 * 32][4] __attribute__((aligned(16))) = {
    SB_BPAT32(0), SB_BPAT32(32), SB_BPAT32(64)};

/* sb_band_walk_keep: position i's peers complemented at entry 9 * i + 8, every other entry
 * all ones (word 3 too, which holds no cell). */
#define SB_ONES {~0u, ~0u, ~0u, ~0u}
#define SB_ONES8 SB_ONES, SB_ONES, SB_ONES, SB_ONES, SB_ONES, SB_ONES, SB_ONES, SB_ONES
#define SB_WK(i) SB_ONES8, {~SB_BPATW(i, 0), ~SB_BPATW(i, 1), ~SB_BPATW(i, 2), ~0u}
#define SB_WK8(i) SB_WK(i), SB_WK((i) + 1), SB_WK((i) + 2), SB_WK((i) + 3), SB_WK((i) + 4), \
    SB_WK((i) + 5), SB_WK((i) + 6), SB_WK((i) + 7)
#define SB_WK32(i) SB_WK8(i), SB_WK8((i) + 8), SB_WK8((i) + 16), SB_WK8((i) + 24)
const uint32_t sb_band_walk_keep[3 * 32 * 9 + 8][4] __attribute__((aligned(64))) = {
    SB_WK32(0), SB_WK32(32), SB_WK32(64), SB_ONES8};

const sb_peer_tables *sb_tables(void)
{
    return &sb_peer_tables_data;
}

unsigned sb_version(void)
{
    return SB_VERSION_NUMBER;
}

const char *sb_version_string(void)
{
    return SB_VERSION;
}

const char *sb_strerror(int status)
{
    switch (status) {
    case SB_OK: return "success";
    case SB_ERR_NOMEM: return "out of memory";
    case SB_ERR_ARG: return "invalid argument";
    case SB_ERR_SIMD: return "SIMD level unknown or not supported by this CPU";
    case SB_ERR_IO: return "input/output error";
    case SB_ERR_PIPELINE: return "unknown pipeline or bad pipeline spec";
    case SB_ERR_FRONTIER: return "BFS frontier outgrew its cap";
    case SB_ERR_BUDGET: return "guess budget ran out";
    case SB_ERR_STOPPED: return "stopped";
    case SB_ERR_THREADS: return "could not start the threads";
    case SB_ERR_PLUGIN: return "a plug-in solver failed";
    default: return "unknown status";
    }
}

void sb_grid_format(const sb_grid *grid, char out[SB_GRID_TEXT])
{
    if (!grid || !out)
        return;
    for (int c = 0; c < SB_CELLS; c++) {
        const uint8_t v = grid->cell[c];
        out[c] = v > 9 ? '?' : v ? (char)('0' + v) : '.';
    }
    out[SB_CELLS] = '\0';
}

void sb_grid_candidates(const sb_grid *grid, uint16_t cand[SB_CELLS])
{
    if (!grid || !cand)
        return;
    /* Digits given in each house, then each blank cell keeps what its three houses lack. */
    uint16_t given[SB_HOUSES] = {0};
    for (int c = 0; c < SB_CELLS; c++)
        if (grid->cell[c] >= 1 && grid->cell[c] <= 9)
            for (int k = 0; k < 3; k++)
                given[sb_peer_tables_data.cell_houses[c][k]] |= (uint16_t)(1u << (grid->cell[c] - 1));
    for (int c = 0; c < SB_CELLS; c++) {
        const uint8_t *h = sb_peer_tables_data.cell_houses[c];
        if (grid->cell[c] >= 1 && grid->cell[c] <= 9)
            cand[c] = (uint16_t)(1u << (grid->cell[c] - 1));
        else
            cand[c] = (uint16_t)(SB_ALL_DIGITS & ~(given[h[0]] | given[h[1]] | given[h[2]]));
    }
}

int sb_grid_conflict(const sb_grid *grid, int *a, int *b)
{
    if (!grid)
        return 0;
    for (int c = 0; c < SB_CELLS; c++) {
        if (!grid->cell[c])
            continue;
        /* Peers are ascending, so the first later peer found pairs with the smallest c. */
        for (int i = 0; i < SB_PEERS; i++) {
            int p = sb_peer_tables_data.peers[c][i];
            if (p > c && grid->cell[p] == grid->cell[c]) {
                if (a)
                    *a = c;
                if (b)
                    *b = p;
                return 1;
            }
        }
    }
    return 0;
}

int sb_solution_check(const sb_grid *puzzle, const sb_grid *solution)
{
    if (!puzzle || !solution)
        return 0;
    /* No branch a cell: bench's warm-up, every plug-in solve and perf_driver check each
     * solution, and a branch on each given (whose places are random) mispredicted often
     * enough to cost about as much as solving a generator-class puzzle at avx512. A value
     * outside 1..9 sets bad; its bit lands outside the nine digits (or on one, when bad
     * already says no). */
    unsigned bad = 0, row[9] = {0}, col[9] = {0}, box[9] = {0};
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            const unsigned v = solution->cell[9 * r + c], p = puzzle->cell[9 * r + c];
            const unsigned bit = 1u << ((v - 1) & 15);
            bad |= (v - 1 > 8) | ((p != 0) & (p != v));
            row[r] |= bit;
            col[c] |= bit;
            box[r / 3 * 3 + c / 3] |= bit;
        }
    }
    for (int h = 0; h < 9; h++)
        bad |= (row[h] & col[h] & box[h] & SB_ALL_DIGITS) != SB_ALL_DIGITS;
    return !bad;
}
