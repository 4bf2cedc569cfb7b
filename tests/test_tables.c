/*
 * test_tables.c — properties of the read-only peer tables (sb_tables()).
 * Expected geometry is recomputed here from row/column/box arithmetic.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "sudokubench.h"

static int cell_in_house(int cell, int house)
{
    int r = cell / 9, c = cell % 9;
    if (house < 9)
        return r == house;
    if (house < 18)
        return c == house - 9;
    int b = house - 18;
    return r / 3 == b / 3 && c / 3 == b % 3;
}

static int in_mask(const uint64_t m[2], int cell)
{
    return (int)((m[cell / 64] >> (cell % 64)) & 1u);
}

Test(tables, not_null_and_stable)
{
    const sb_peer_tables *a = sb_tables();
    cr_assert_not_null(a);
    cr_assert_eq(a, sb_tables(), "sb_tables() should return the same shared tables");
}

Test(tables, houses_have_nine_distinct_ascending_cells)
{
    const sb_peer_tables *t = sb_tables();
    for (int h = 0; h < SB_HOUSES; h++) {
        int seen[SB_CELLS] = {0};
        for (int k = 0; k < 9; k++) {
            int c = t->house_cells[h][k];
            cr_assert_lt(c, SB_CELLS, "house %d slot %d: cell %d", h, k, c);
            cr_assert_eq(seen[c], 0, "house %d repeats cell %d", h, c);
            seen[c] = 1;
            cr_assert(cell_in_house(c, h), "house %d lists cell %d which is not in it", h, c);
            if (k > 0)
                cr_assert_lt(t->house_cells[h][k - 1], c, "house %d not ascending", h);
        }
    }
}

Test(tables, house_numbering_rows_columns_boxes)
{
    const sb_peer_tables *t = sb_tables();
    /* Spot checks of the documented numbering. */
    for (int k = 0; k < 9; k++) {
        cr_assert_eq(t->house_cells[0][k], k);                  /* row 0 */
        cr_assert_eq(t->house_cells[9][k], 9 * k);              /* column 0 */
        cr_assert_eq(t->house_cells[17][k], 9 * k + 8);         /* column 8 */
    }
    const int box4[9] = {30, 31, 32, 39, 40, 41, 48, 49, 50};
    const int box8[9] = {60, 61, 62, 69, 70, 71, 78, 79, 80};
    for (int k = 0; k < 9; k++) {
        cr_assert_eq(t->house_cells[18 + 4][k], box4[k]);
        cr_assert_eq(t->house_cells[18 + 8][k], box8[k]);
    }
}

Test(tables, each_cell_in_exactly_three_houses)
{
    const sb_peer_tables *t = sb_tables();
    int count[SB_CELLS] = {0};
    for (int h = 0; h < SB_HOUSES; h++)
        for (int k = 0; k < 9; k++)
            count[t->house_cells[h][k]]++;
    for (int c = 0; c < SB_CELLS; c++) {
        cr_assert_eq(count[c], 3, "cell %d appears in %d houses", c, count[c]);
        int r = c / 9, col = c % 9, b = 3 * (r / 3) + col / 3;
        cr_assert_eq(t->cell_houses[c][0], r, "cell %d row house", c);
        cr_assert_eq(t->cell_houses[c][1], 9 + col, "cell %d column house", c);
        cr_assert_eq(t->cell_houses[c][2], 18 + b, "cell %d box house", c);
        /* Consistent with house_cells: the cell is listed by each of its houses. */
        for (int j = 0; j < 3; j++) {
            int h = t->cell_houses[c][j], listed = 0;
            cr_assert_lt(h, SB_HOUSES);
            for (int k = 0; k < 9; k++)
                listed += t->house_cells[h][k] == c;
            cr_assert_eq(listed, 1, "house %d does not list cell %d", h, c);
        }
    }
}

Test(tables, twenty_distinct_ascending_peers)
{
    const sb_peer_tables *t = sb_tables();
    for (int c = 0; c < SB_CELLS; c++) {
        int seen[SB_CELLS] = {0};
        for (int k = 0; k < SB_PEERS; k++) {
            int p = t->peers[c][k];
            cr_assert_lt(p, SB_CELLS);
            cr_assert_neq(p, c, "cell %d is its own peer", c);
            cr_assert_eq(seen[p], 0, "cell %d lists peer %d twice", c, p);
            seen[p] = 1;
            if (k > 0)
                cr_assert_lt(t->peers[c][k - 1], p, "peers of %d not ascending", c);
        }
        /* Exactly the cells sharing a house. */
        for (int o = 0; o < SB_CELLS; o++) {
            int share = 0;
            if (o != c)
                for (int h = 0; h < SB_HOUSES; h++)
                    share |= cell_in_house(c, h) && cell_in_house(o, h);
            cr_assert_eq(seen[o], share, "cell %d / cell %d: listed %d, share a house %d", c,
                         o, seen[o], share);
        }
    }
}

Test(tables, peer_relation_symmetric)
{
    const sb_peer_tables *t = sb_tables();
    for (int c = 0; c < SB_CELLS; c++)
        for (int k = 0; k < SB_PEERS; k++) {
            int p = t->peers[c][k], back = 0;
            for (int j = 0; j < SB_PEERS; j++)
                back += t->peers[p][j] == c;
            cr_assert_eq(back, 1, "%d lists %d but not the reverse", c, p);
        }
}

Test(tables, masks_agree_with_lists)
{
    const sb_peer_tables *t = sb_tables();
    for (int h = 0; h < SB_HOUSES; h++) {
        int listed[128] = {0};
        for (int k = 0; k < 9; k++)
            listed[t->house_cells[h][k]] = 1;
        for (int c = 0; c < 128; c++)
            cr_assert_eq(in_mask(t->house_mask[h], c), listed[c], "house %d mask bit %d", h, c);
    }
    for (int c = 0; c < SB_CELLS; c++) {
        int listed[128] = {0};
        for (int k = 0; k < SB_PEERS; k++)
            listed[t->peers[c][k]] = 1;
        for (int b = 0; b < 128; b++)
            cr_assert_eq(in_mask(t->peer_mask[c], b), listed[b], "cell %d peer mask bit %d", c,
                         b);
        cr_assert_eq(__builtin_popcountll(t->peer_mask[c][0]) +
                         __builtin_popcountll(t->peer_mask[c][1]),
                     SB_PEERS);
    }
}

Test(tables, peers_are_union_of_houses_minus_self)
{
    const sb_peer_tables *t = sb_tables();
    for (int c = 0; c < SB_CELLS; c++) {
        uint64_t u[2] = {0, 0};
        for (int j = 0; j < 3; j++) {
            u[0] |= t->house_mask[t->cell_houses[c][j]][0];
            u[1] |= t->house_mask[t->cell_houses[c][j]][1];
        }
        u[c / 64] &= ~(UINT64_C(1) << (c % 64));
        cr_assert_eq(u[0], t->peer_mask[c][0], "cell %d", c);
        cr_assert_eq(u[1], t->peer_mask[c][1], "cell %d", c);
    }
}

/* The AVX-512 kernel's lane tables (internal.h), recomputed from the public geometry. Their
 * mistakes would only show as a level mismatch on an AVX-512 machine, so they are checked
 * here on every machine. The tables address 16-bit lane w as the byte pair 2w, 2w+1 (the
 * kernel's byte permutes) and double each lane's mask bit. */
#include "internal.h"

/* Asserts that byte table t holds word lane w at word position i: bytes 2w, 2w+1. */
#define ASSERT_WORD_LANE(t, i, w, ...)                                                        \
    do {                                                                                      \
        cr_assert_eq((t)[2 * (i)], 2 * (w), __VA_ARGS__);                                     \
        cr_assert_eq((t)[2 * (i) + 1], 2 * (w) + 1, __VA_ARGS__);                             \
    } while (0)

/* @return word lane i's bit of byte mask m (1 or 0), after asserting both its bits agree. */
static unsigned word_bit(uint64_t m, int i)
{
    const unsigned two = (unsigned)(m >> (2 * i)) & 3;
    cr_assert(two == 0 || two == 3, "lane %d: the two bits of its bytes differ", i);
    return two & 1;
}

/* The AVX-512 board's register of cell c, from the rule internal.h states (sb_lane_map):
 * register x holds the cells whose row and column are both other than x mod 3, and the
 * cells whose row and column are both x + 2 mod 3. */
static int rule_register(int c)
{
    const int r = c / 9 % 3, k = c % 9 % 3;
    for (int x = 0; x < 3; x++)
        if (r == k ? r == (x + 2) % 3 : r != x && k != x)
            return x;
    return -1;
}

/* The board lane of cell c: its register's lanes in cell order. */
static int rule_lane(int c)
{
    int n = 0;
    for (int p = 0; p < c; p++)
        n += rule_register(p) == rule_register(c);
    return 32 * rule_register(c) + n;
}

Test(tables, lane_map)
{
    const sb_peer_tables *t = sb_tables();
    int cell_of[SB_LANES];
    for (int l = 0; l < SB_LANES; l++)
        cell_of[l] = -1;
    for (int c = 0; c < SB_CELLS; c++) {
        const int l = rule_lane(c);
        cr_assert_lt(l % 32, 27, "cell %d in a padding lane", c);
        cr_assert_eq(sb_lane_map.lane[c], l, "lane of cell %d", c);
        cell_of[l] = c;
    }
    for (int l = 0; l < SB_LANES; l++)
        cr_assert_eq(sb_lane_map.cell[l], cell_of[l] < 0 ? 127 : cell_of[l], "cell of lane %d", l);
    for (int c = 0; c < SB_CELLS; c++) {
        uint64_t want[2] = {0, 0};
        for (int p = 0; p < SB_CELLS; p++)
            if (t->peer_mask[c][p / 64] >> (p % 64) & 1)
                want[rule_lane(p) / 64] |= UINT64_C(1) << (rule_lane(p) % 64);
        cr_assert_eq(sb_lane_map.peers[c][0], want[0], "peers of %d", c);
        cr_assert_eq(sb_lane_map.peers[c][1], want[1], "peers of %d", c);
    }
    for (int h = 0; h < SB_HOUSES; h++) {
        uint64_t want[2] = {0, 0};
        for (int j = 0; j < 9; j++)
            want[rule_lane(t->house_cells[h][j]) / 64] |=
                UINT64_C(1) << (rule_lane(t->house_cells[h][j]) % 64);
        cr_assert_eq(sb_lane_map.house[h][0], want[0], "house %d", h);
        cr_assert_eq(sb_lane_map.house[h][1], want[1], "house %d", h);
    }
}

Test(tables, house_gather_lanes)
{
    const sb_peer_tables *t = sb_tables();
    for (int i = 0; i < 9; i++) {
        /* One permute of the two registers other than i % 3: the first's lanes 0..31, the
         * second's 32..63. */
        const int a = (i % 3 + 1) % 3, b = (i % 3 + 2) % 3;
        for (int h = 0; h < 32; h++) {
            int want = 27; /* padding: the first register's lane 27, always 0 */
            if (h < 27) {
                const int l = rule_lane(t->house_cells[h][i]);
                cr_assert(l / 32 == a || l / 32 == b, "position %d of house %d outside its pair",
                          i, h);
                want = (l / 32 == a ? 0 : 32) + l % 32;
            }
            ASSERT_WORD_LANE(sb_house_lanes[i], h, want, "house_lanes[%d][%d]", i, h);
        }
    }
}

Test(tables, lane_order)
{
    for (int l = 0; l < SB_LANES; l++) {
        /* to_lane: board lane l takes its cell from cell-order registers (padding: cell 81,
         * a zero lane of the third). */
        const int c = sb_lane_map.cell[l] == 127 ? 81 : sb_lane_map.cell[l];
        ASSERT_WORD_LANE(sb_lane_order.to_lane, l, c, "to_lane[%d]", l);
        cr_assert_eq(word_bit(sb_lane_order.to_lane_hi[l / 32], l % 32), (unsigned)(c >= 64),
                     "to_lane_hi of %d", l);
        /* to_cell: cell l takes its board lane (past 80: lane 27, a padding lane). */
        const int w = l < SB_CELLS ? rule_lane(l) : 27;
        ASSERT_WORD_LANE(sb_lane_order.to_cell, l, w, "to_cell[%d]", l);
        cr_assert_eq(word_bit(sb_lane_order.to_cell_hi[l / 32], l % 32), (unsigned)(w >= 64),
                     "to_cell_hi of %d", l);
    }
}

Test(tables, cell_house_lanes)
{
    for (int l = 0; l < SB_LANES; l++) {
        const int c = sb_lane_map.cell[l], r = c / 9, col = c % 9;
        const int want[3] = {r, 9 + col, 18 + 3 * (r / 3) + col / 3};
        for (int k = 0; k < 3; k++)
            ASSERT_WORD_LANE(sb_cell_house_lanes[k], l, c < 81 ? want[k] : 27,
                             "lane %d house %d", l, k);
    }
}

Test(tables, locked_candidate_lanes)
{
    for (int n = 0; n < 2; n++)
        for (int l = 0; l < 32; l++) {
            const int want = l < 18 ? 3 * (l / 3) + (l % 3 + n + 1) % 3 : l;
            ASSERT_WORD_LANE(sb_locked_lanes.rot[n], l, want, "rot[%d][%d]", n, l);
        }
    for (int l = 0; l < SB_LANES; l++) {
        const int c = sb_lane_map.cell[l];
        if (c == 127) {
            cr_assert_eq(word_bit(sb_locked_lanes.row_hi[l / 32], l % 32), 0u,
                         "padding lane %d in row_hi", l);
            cr_assert_eq(word_bit(sb_locked_lanes.col_hi[l / 32], l % 32), 0u,
                         "padding lane %d in col_hi", l);
            continue;
        }
        const int r = c / 9, col = c % 9, stack = col / 3, band = r / 3;
        ASSERT_WORD_LANE(sb_locked_lanes.row, l, r + (stack == 1 ? 32 : 0), "row lane of %d", c);
        ASSERT_WORD_LANE(sb_locked_lanes.col, l, 9 + col + (band == 1 ? 32 : 0),
                         "col lane of %d", c);
        cr_assert_eq(word_bit(sb_locked_lanes.row_hi[l / 32], l % 32), (unsigned)(stack == 2),
                     "row_hi of %d", c);
        cr_assert_eq(word_bit(sb_locked_lanes.col_hi[l / 32], l % 32), (unsigned)(band == 2),
                     "col_hi of %d", c);
    }
}

/* The band kernel's peer masks (sse4, avx2, neon), against the public peer sets: cell p is
 * bit p % 27 of word p / 27, word 3 empty. A wrong bit would only show as a level mismatch on
 * the machines that run those stamps, so it is checked here on every machine. */
Test(tables, band_peer_masks)
{
    const sb_peer_tables *t = sb_tables();
    for (int c = 0; c < SB_CELLS; c++) {
        uint32_t want[4] = {0, 0, 0, 0};
        for (int p = 0; p < SB_CELLS; p++)
            if (t->peer_mask[c][p / 64] >> (p % 64) & 1)
                want[p / 27] |= 1u << (p % 27);
        for (int k = 0; k < 4; k++)
            cr_assert_eq(sb_band_peers[c][k], want[k], "cell %d word %d", c, k);
    }
}

/* The same masks by band position: position 32 * band + bit is the cell's entry, and the
 * five positions past each band's 27 cells hold no peers. */
Test(tables, band_peer_masks_by_position)
{
    for (int i = 0; i < 3 * 32; i++)
        for (int k = 0; k < 4; k++)
            cr_assert_eq(sb_band_peers_at[i][k], i % 32 < 27 ? sb_band_peers[27 * (i / 32) + i % 32][k] : 0u,
                         "position %d word %d", i, k);
}

/* The line pairs' masks: each cell's peers (from the cell coordinates) outside its row, then
 * outside its column, as band words. */
Test(tables, band_peer_masks_outside_a_line)
{
    for (int c = 0; c < SB_CELLS; c++)
        for (int line = 0; line < 2; line++) {
            uint32_t want[4] = {0, 0, 0, 0};
            for (int p = 0; p < SB_CELLS; p++) {
                const int same_row = p / 9 == c / 9, same_col = p % 9 == c % 9;
                const int same_box = p / 27 == c / 27 && p % 9 / 3 == c % 9 / 3;
                if ((same_row || same_col || same_box) && !(line == 0 ? same_row : same_col))
                    want[p / 27] |= 1u << (p % 27);
            }
            for (int k = 0; k < 4; k++)
                cr_assert_eq(sb_band_cross[line][c][k], want[k], "cell %d line %d word %d", c,
                             line, k);
        }
}

/* The version's numbers, its text and the library's answers are one version. */
Test(tables, version_numbers_text_and_library_agree)
{
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", SB_VERSION_MAJOR, SB_VERSION_MINOR, SB_VERSION_PATCH);
    cr_assert_str_eq(text, SB_VERSION);
    cr_assert_eq(sb_version(), (unsigned)SB_VERSION_NUMBER);
    cr_assert_eq(sb_version(), (unsigned)(SB_VERSION_MAJOR * 10000 + SB_VERSION_MINOR * 100 +
                                          SB_VERSION_PATCH));
    cr_assert_str_eq(sb_version_string(), SB_VERSION);
}
