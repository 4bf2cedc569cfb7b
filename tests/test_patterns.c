/*
 * test_patterns.c — the whole-board techniques (xw sf jf xy xyz ww sky kite col xc): hand-made
 * 9x9 candidate boards built from each technique's definition, where it must fire (the exact
 * resulting board and counters) and where it must not; and soundness properties: on unique
 * puzzles no step removes the solution's digit, on puzzles with several solutions no step
 * removes a candidate some solution uses (all solutions enumerated), and solution counts of
 * specs using them equal the dancing-links oracle's on 9x9, 4x4 and 2x3.
 *
 * Cells of the hand-made boards are written here (row r, column c, box 3*(r/3)+c/3).
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlx.h"
#include "sudokubench.h"
#include "test_util.h"

#define ALL ((uint16_t)SB_ALL_DIGITS)
#define D1 ((uint16_t)1)

/* The new techniques, first to last (enum order). */
enum { FIRST = SB_TECH_XWING, LAST = SB_TECH_XCHAIN };

static int rc(int r, int c)
{
    return 9 * r + c;
}

/* The mask of the digits written in s ("13" -> digits 1 and 3). */
static uint16_t dm(const char *s)
{
    uint16_t m = 0;
    for (; *s; s++)
        m |= (uint16_t)(1u << (*s - '1'));
    return m;
}

/* Leaves digit 1 in row r only at the columns in cols (a 9-bit set). */
static void row_only(uint16_t *cand, int r, unsigned cols)
{
    for (int c = 0; c < 9; c++)
        if (!(cols >> c & 1))
            cand[rc(r, c)] &= (uint16_t)~D1;
}

/* Leaves digit 1 in column c only at the rows in rows. */
static void col_only(uint16_t *cand, int c, unsigned rows)
{
    for (int r = 0; r < 9; r++)
        if (!(rows >> r & 1))
            cand[rc(r, c)] &= (uint16_t)~D1;
}

static void fill(uint16_t *cand)
{
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = ALL;
}

/* One step of tech on cand: the verdict, the exact board (want = cand with the cells of
 * `gone` losing digits `lose`), and the counters. */
static void expect(int tech, const uint16_t *cand, const int *gone, uint16_t lose, uint64_t apps)
{
    uint16_t got[SB_CELLS], want[SB_CELLS];
    memcpy(got, cand, sizeof got);
    memcpy(want, cand, sizeof want);
    uint64_t elims = 0;
    for (const int *g = gone; *g >= 0; g++) {
        cr_assert(want[*g] & lose, "test board: cell %d lacks the digit", *g);
        want[*g] &= (uint16_t)~lose;
        elims++;
    }
    sb_technique_counts tc = {0, 0, 0, 0};
    size_t n;
    const char *name = sb_techniques(&n)[tech].name;
    const int rv = sb_technique_step(tech, got, &tc);
    cr_assert_eq(rv, elims ? SB_STEP_CHANGED : SB_STEP_UNCHANGED, "%s: verdict %d", name, rv);
    for (int c = 0; c < SB_CELLS; c++)
        cr_assert_eq(got[c], want[c], "%s: r%dc%d is %#x, expected %#x", name, c / 9 + 1,
                     c % 9 + 1, got[c], want[c]);
    cr_assert_eq(tc.eliminations, elims, "%s: eliminations %llu", name,
                 (unsigned long long)tc.eliminations);
    cr_assert_eq(tc.placements, 0, "%s: placements", name);
    cr_assert_eq(tc.applications, apps, "%s: applications %llu, expected %llu", name,
                 (unsigned long long)tc.applications, (unsigned long long)apps);
}

static const int NONE[] = {-1};

/* Writes into out (-1 ended) the cells of the lines in cover (a 9-bit set; columns when
 * cols, else rows) outside the crossing lines in base: a fish's eliminations. */
static void fish_cells(unsigned base, unsigned cover, int cols, int *out)
{
    int k = 0;
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            if ((cover >> b & 1) && !(base >> a & 1))
                out[k++] = cols ? rc(a, b) : rc(b, a);
    out[k] = -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Registry and parsing                                                                       */
/* ------------------------------------------------------------------------------------------ */

Test(patterns, registry_tokens_and_specs)
{
    static const char *const want[] = {"xw", "sf", "jf", "xy", "xyz", "ww", "sky", "kite", "col",
                                       "xc"};
    size_t n;
    const sb_technique_info *t = sb_techniques(&n);
    cr_assert_eq(n, 19);
    cr_assert_eq(SB_TECH_XWING, SB_TECH_HIDDEN_QUAD + 1);
    for (int i = FIRST; i <= LAST; i++)
        cr_assert_str_eq(t[i].name, want[i - FIRST]);
    cr_assert_eq(sb_pipeline_check("restart:ns,hs,lc,xw,xy"), SB_OK);
    cr_assert_eq(sb_pipeline_check("list:xw,sf,jf,xy,xyz,ww,sky,kite,col,xc"), SB_OK);
    cr_assert_eq(sb_pipeline_check("array:xc"), SB_OK);
    char why[256];
    cr_assert_eq(sb_pipeline_explain("restart:ns,xx", why, sizeof why), SB_ERR_PIPELINE);
    cr_assert(strstr(why, "xw, sf, jf, xy, xyz, ww, sky, kite, col, xc"), "%s", why);
}

/* ------------------------------------------------------------------------------------------ */
/* Fish                                                                                       */
/* ------------------------------------------------------------------------------------------ */

Test(patterns, xwing_rows_and_columns)
{
    uint16_t b[SB_CELLS];
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 7);
    row_only(b, 4, 1u << 1 | 1u << 7);
    int gone[82];
    fish_cells(1u << 0 | 1u << 4, 1u << 1 | 1u << 7, 1, gone);
    expect(SB_TECH_XWING, b, gone, D1, 1);
    expect(SB_TECH_SWORDFISH, b, NONE, D1, 0); /* two lines only */
    /* The same on columns 2 and 6, rows 2 and 5. */
    fill(b);
    col_only(b, 2, 1u << 2 | 1u << 5);
    col_only(b, 6, 1u << 2 | 1u << 5);
    fish_cells(1u << 2 | 1u << 6, 1u << 2 | 1u << 5, 0, gone);
    expect(SB_TECH_XWING, b, gone, D1, 1);
    /* Must not: the second row's places differ. */
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 7);
    row_only(b, 4, 1u << 1 | 1u << 6);
    expect(SB_TECH_XWING, b, NONE, D1, 0);
}

Test(patterns, swordfish_and_jellyfish)
{
    uint16_t b[SB_CELLS];
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 4);
    row_only(b, 3, 1u << 4 | 1u << 7);
    row_only(b, 6, 1u << 1 | 1u << 7);
    int gone[82];
    fish_cells(1u << 0 | 1u << 3 | 1u << 6, 1u << 1 | 1u << 4 | 1u << 7, 1, gone);
    expect(SB_TECH_SWORDFISH, b, gone, D1, 1);
    expect(SB_TECH_XWING, b, NONE, D1, 0); /* no two of the rows share their columns */
    expect(SB_TECH_JELLYFISH, b, NONE, D1, 0);
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 3);
    row_only(b, 2, 1u << 3 | 1u << 5);
    row_only(b, 4, 1u << 5 | 1u << 8);
    row_only(b, 6, 1u << 0 | 1u << 8);
    fish_cells(1u << 0 | 1u << 2 | 1u << 4 | 1u << 6, 1u << 0 | 1u << 3 | 1u << 5 | 1u << 8, 1,
               gone);
    expect(SB_TECH_JELLYFISH, b, gone, D1, 1);
    expect(SB_TECH_SWORDFISH, b, NONE, D1, 0);
    /* Three rows whose places fit in two columns: no solution. */
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 4);
    row_only(b, 3, 1u << 1 | 1u << 4);
    row_only(b, 6, 1u << 1 | 1u << 4);
    sb_technique_counts tc = {0, 0, 0, 0};
    cr_assert_eq(sb_technique_step(SB_TECH_SWORDFISH, b, &tc), SB_STEP_CONTRADICTION);
}

/* ------------------------------------------------------------------------------------------ */
/* Skyscraper and kite                                                                        */
/* ------------------------------------------------------------------------------------------ */

Test(patterns, skyscraper)
{
    uint16_t b[SB_CELLS];
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4); /* joined in column 0, free ends r0c4 and r4c5 */
    row_only(b, 4, 1u << 0 | 1u << 5);
    const int gone[] = {rc(1, 5), rc(2, 5), rc(3, 4), rc(5, 4), -1};
    expect(SB_TECH_SKYSCRAPER, b, gone, D1, 1);
    expect(SB_TECH_KITE, b, NONE, D1, 0); /* no column link */
    expect(SB_TECH_XWING, b, NONE, D1, 0);
    /* Must not: no end shares a column. */
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 4);
    row_only(b, 4, 1u << 0 | 1u << 5);
    expect(SB_TECH_SKYSCRAPER, b, NONE, D1, 0);
}

Test(patterns, kite)
{
    uint16_t b[SB_CELLS];
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 6); /* r0c1 and r2c0 meet in box 0 */
    col_only(b, 0, 1u << 2 | 1u << 7);
    const int gone[] = {rc(7, 6), -1};
    expect(SB_TECH_KITE, b, gone, D1, 1);
    expect(SB_TECH_SKYSCRAPER, b, NONE, D1, 0);
    /* Must not: the column link's ends are outside the row link's boxes. */
    fill(b);
    row_only(b, 0, 1u << 1 | 1u << 6);
    col_only(b, 0, 1u << 4 | 1u << 7);
    expect(SB_TECH_KITE, b, NONE, D1, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Wings                                                                                      */
/* ------------------------------------------------------------------------------------------ */

Test(patterns, xy_wing)
{
    uint16_t b[SB_CELLS];
    fill(b);
    b[rc(0, 0)] = dm("12");
    b[rc(0, 4)] = dm("13");
    b[rc(4, 0)] = dm("23");
    const int gone[] = {rc(4, 4), -1};
    expect(SB_TECH_XY_WING, b, gone, dm("3"), 1);
    expect(SB_TECH_XYZ_WING, b, NONE, dm("3"), 0);
    b[rc(4, 0)] = dm("24"); /* must not: the pincers share no digit */
    expect(SB_TECH_XY_WING, b, NONE, dm("3"), 0);
}

Test(patterns, xyz_wing)
{
    uint16_t b[SB_CELLS];
    fill(b);
    b[rc(0, 0)] = dm("123");
    b[rc(0, 4)] = dm("13");
    b[rc(1, 1)] = dm("23");
    const int gone[] = {rc(0, 1), rc(0, 2), -1};
    expect(SB_TECH_XYZ_WING, b, gone, dm("3"), 1);
    expect(SB_TECH_XY_WING, b, NONE, dm("3"), 0);
    b[rc(1, 1)] = dm("24"); /* must not */
    expect(SB_TECH_XYZ_WING, b, NONE, dm("3"), 0);
}

Test(patterns, w_wing)
{
    uint16_t b[SB_CELLS];
    fill(b);
    b[rc(0, 0)] = dm("12");
    b[rc(4, 5)] = dm("12");
    row_only(b, 8, 1u << 0 | 1u << 5); /* the strong link on 1: r8c0 sees r0c0, r8c5 r4c5 */
    const int gone[] = {rc(0, 5), rc(4, 0), -1};
    expect(SB_TECH_W_WING, b, gone, dm("2"), 1);
    /* A second strong link, on 2 in row 2 (r2c1 sees r0c0 in box 0, r2c5 sees r4c5 in
     * column 5): 1 leaves the same two cells as well, a second application. */
    fill(b);
    b[rc(0, 0)] = dm("12");
    b[rc(4, 5)] = dm("12");
    row_only(b, 8, 1u << 0 | 1u << 5);
    for (int c = 0; c < 9; c++)
        if (c != 1 && c != 5)
            b[rc(2, c)] &= (uint16_t)~dm("2");
    uint16_t got[SB_CELLS];
    memcpy(got, b, sizeof got);
    sb_technique_counts tc = {0, 0, 0, 0};
    cr_assert_eq(sb_technique_step(SB_TECH_W_WING, got, &tc), SB_STEP_CHANGED);
    cr_assert_eq(tc.applications, 2);
    cr_assert_eq(got[rc(0, 5)], (uint16_t)(ALL & ~dm("12")), "both digits leave r0c5");
    cr_assert_eq(got[rc(4, 0)], (uint16_t)(ALL & ~dm("12")), "both digits leave r4c0");
    cr_assert_eq(tc.eliminations, 4);
    fill(b);
    b[rc(0, 0)] = dm("12");
    b[rc(4, 5)] = dm("12");
    row_only(b, 8, 1u << 0 | 1u << 6); /* must not: r8c6 does not see r4c5 */
    expect(SB_TECH_W_WING, b, NONE, dm("2"), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Colouring and X-chains                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Digit 1's strong links r0c0=r0c4, r0c4=r6c4, r6c4=r6c8, r6c8=r2c8: colours {r0c0, r6c4,
 * r2c8} and {r0c4, r6c8}; r2c3 and r2c5 see r0c4 (box 1) and r2c8 (row 2). */
static void trap_board(uint16_t *b)
{
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4);
    col_only(b, 4, 1u << 0 | 1u << 6);
    row_only(b, 6, 1u << 4 | 1u << 8);
    col_only(b, 8, 1u << 2 | 1u << 6);
}

Test(patterns, colouring_trap_and_wrap)
{
    uint16_t b[SB_CELLS];
    trap_board(b);
    const int trap[] = {rc(2, 3), rc(2, 5), -1};
    expect(SB_TECH_COLOURING, b, trap, D1, 1);
    /* Wrap: r0c0=r0c4, r0c4=r7c4, r7c4=r7c1, r7c1=r1c1: r0c0 and r1c1 share colour and box. */
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4);
    col_only(b, 4, 1u << 0 | 1u << 7);
    row_only(b, 7, 1u << 1 | 1u << 4);
    col_only(b, 1, 1u << 1 | 1u << 7);
    const int wrap[] = {rc(0, 0), rc(7, 4), rc(1, 1), -1};
    expect(SB_TECH_COLOURING, b, wrap, D1, 1);
    /* Must not: one strong link. */
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4);
    expect(SB_TECH_COLOURING, b, NONE, D1, 0);
}

Test(patterns, xchain)
{
    uint16_t b[SB_CELLS];
    trap_board(b);
    /* r2c8=r6c8-r6c4=r0c4: r2c8 or r0c4 holds 1. Pairs of ends (s < e) that eliminate:
     * (r0c4, r2c8) only, the other ends' common peers lack 1. */
    const int gone[] = {rc(2, 3), rc(2, 5), -1};
    expect(SB_TECH_XCHAIN, b, gone, D1, 1);
    /* A skyscraper is a three-link X-chain. */
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4);
    row_only(b, 4, 1u << 0 | 1u << 5);
    const int sky[] = {rc(1, 5), rc(2, 5), rc(3, 4), rc(5, 4), -1};
    expect(SB_TECH_XCHAIN, b, sky, D1, 1);
    fill(b);
    row_only(b, 0, 1u << 0 | 1u << 4);
    expect(SB_TECH_XCHAIN, b, NONE, D1, 0);
}

/* 1 when cells a and b (a != b) share a row, a column or a box. */
static int sees(int a, int b)
{
    return a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
}

/* The fewest links of an X-chain on digit 1 of cand from cell s to cell e (a strong link:
 * a house where exactly those two cells hold 1; a weak one: two cells holding 1 that see each
 * other; strong first and last, alternating), by a breadth-first search written from the
 * definition for this test, or -1 beyond 31 links. */
static int chain_links(const uint16_t *cand, int s, int e)
{
    int strong[SB_CELLS][SB_CELLS] = {{0}};
    for (int h = 0; h < 27; h++) { /* rows, columns, boxes */
        int at[SB_CELLS], n = 0;
        for (int c = 0; c < SB_CELLS; c++) {
            const int in = h < 9 ? c / 9 == h : h < 18 ? c % 9 == h - 9
                                                       : c / 27 * 3 + c % 9 / 3 == h - 18;
            if (in && (cand[c] & D1))
                at[n++] = c;
        }
        if (n == 2)
            strong[at[0]][at[1]] = strong[at[1]][at[0]] = 1;
    }
    /* lacks: the cells a walk of the links so far reaches lacking 1 (if s lacks it) */
    unsigned char lacks[SB_CELLS] = {0};
    lacks[s] = 1;
    for (int links = 1; links < 32; links += 2) {
        unsigned char next_holds[SB_CELLS] = {0}, next_lacks[SB_CELLS] = {0};
        for (int u = 0; u < SB_CELLS; u++)
            for (int v = 0; v < SB_CELLS; v++)
                if (lacks[u] && strong[u][v])
                    next_holds[v] = 1;
        if (next_holds[e])
            return links;
        for (int u = 0; u < SB_CELLS; u++)
            for (int v = 0; v < SB_CELLS; v++)
                if (next_holds[u] && v != u && (cand[v] & D1) && sees(u, v))
                    next_lacks[v] = 1;
        memcpy(lacks, next_lacks, sizeof lacks);
    }
    return -1;
}

/* Leaves digit 1 only in the n cells of ones (every other digit everywhere). */
static void ones_only(uint16_t *cand, const int *ones, int n)
{
    fill(cand);
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] &= (uint16_t)~D1;
    for (int i = 0; i < n; i++)
        cand[ones[i]] |= D1;
}

/* The cap of X-chains (15 links: 8 strong, 7 weak). Digit 1 is left in a walk of cells, each
 * seeing the one before, and in a cell t seeing both ends of the walk. t loses 1 when an
 * X-chain joins two cells it sees: on the first board the shortest such chain has exactly
 * 15 links (so xc removes 1 from t), on the second 17 (so xc must leave t alone, although a
 * chain proves 1 false there). The lengths are checked first with chain_links; the other
 * cells the boards' shorter chains clear are not asserted. */
Test(patterns, xchain_cap)
{
    uint16_t b[SB_CELLS];
    sb_technique_counts tc = {0, 0, 0, 0};
    const struct { /* automatic: rc() is no constant */
        int ones[19], n, t, links, falls;
    } boards[] = {
        {{rc(6, 4), rc(6, 1), rc(8, 1), rc(8, 8), rc(3, 8), rc(4, 6), rc(2, 6), rc(2, 2),
          rc(1, 2), rc(1, 3), rc(0, 3), rc(0, 5), rc(5, 5), rc(5, 0), rc(3, 0), rc(3, 7),
          rc(6, 7)}, 17, rc(6, 7), 15, 1},
        {{rc(8, 0), rc(8, 8), rc(2, 8), rc(2, 3), rc(0, 3), rc(0, 1), rc(1, 1), rc(5, 1),
          rc(3, 2), rc(3, 7), rc(4, 6), rc(4, 4), rc(6, 4), rc(7, 5), rc(6, 5), rc(6, 0),
          rc(7, 0), rc(7, 7), rc(8, 7)}, 19, rc(8, 7), 17, 0},
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        const int t = boards[i].t;
        ones_only(b, boards[i].ones, boards[i].n);
        int fewest = -1; /* over the pairs of cells holding 1 that t sees */
        for (int s = 0; s < SB_CELLS; s++)
            for (int e = 0; e < SB_CELLS; e++)
                if (s != e && s != t && e != t && (b[s] & D1) && (b[e] & D1) && sees(t, s) &&
                    sees(t, e)) {
                    const int l = chain_links(b, s, e);
                    if (l > 0 && (fewest < 0 || l < fewest))
                        fewest = l;
                }
        cr_assert_eq(fewest, boards[i].links, "board %zu: the shortest chain has %d links", i,
                     fewest);
        cr_assert_eq(sb_technique_step(SB_TECH_XCHAIN, b, &tc), SB_STEP_CHANGED);
        cr_assert_eq(!(b[t] & D1), boards[i].falls, "board %zu: a %d-link chain %s r%dc%d", i,
                     boards[i].links, boards[i].falls ? "must clear" : "is past the cap of",
                     t / 9 + 1, t % 9 + 1);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Soundness                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Reads up to max 9x9 puzzles of path into cells (the library's reader: the files are
 * well-formed). @return how many. */
static size_t samples(const char *path, uint8_t *cells, size_t max)
{
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    sb_reader *r;
    size_t n = 0;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
    cr_assert_geq(sb_reader_read_cells(r, cells, max, &n, NULL), 0, "%s", path);
    sb_reader_close(r);
    fclose(in);
    return n;
}

/* Runs the techniques of order (n of them) to a fixpoint, back to the first after any change;
 * after every step checks that cand keeps every digit of allowed (the union of the solutions'
 * digits per cell) and that the counters match the change. fired[t] counts the steps of t
 * that removed something. */
static void run_order(uint16_t *cand, const uint16_t *allowed, const char *what,
                      const int *order, size_t n, uint64_t fired[SB_TECH_COUNT])
{
    for (size_t i = 0; i < n;) {
        const int t = order[i];
        uint16_t before[SB_CELLS];
        memcpy(before, cand, sizeof before);
        sb_technique_counts tc = {0, 0, 0, 0};
        const int rv = sb_technique_step(t, cand, &tc);
        cr_assert_neq(rv, SB_STEP_CONTRADICTION, "technique %d on %s", t, what);
        uint64_t elims = 0, singles = 0;
        for (int c = 0; c < SB_CELLS; c++) {
            cr_assert_eq(cand[c] & (uint16_t)~before[c], 0);
            cr_assert_eq(cand[c] & allowed[c], allowed[c],
                         "technique %d removed a solution's digit from cell %d of %s", t, c,
                         what);
            elims += (uint64_t)__builtin_popcount(before[c] & (uint16_t)~cand[c]);
            singles += before[c] != cand[c] && __builtin_popcount(cand[c]) == 1;
        }
        cr_assert_eq(tc.eliminations, elims, "technique %d on %s", t, what);
        cr_assert_eq(tc.placements, singles, "technique %d on %s", t, what);
        cr_assert_eq(rv == SB_STEP_CHANGED, elims > 0);
        cr_assert_eq(tc.applications > 0, elims > 0, "technique %d on %s", t, what);
        fired[t] += elims > 0;
        i = elims ? 0 : i + 1;
    }
}

/* From the givens' candidates: each new technique alone after ns, hs, lc (ns, hs, lc, T to a
 * fixpoint), then all of them together, every step checked by run_order. */
static void run_checked(const uint16_t *start, const uint16_t *allowed, const char *what,
                        uint64_t fired[SB_TECH_COUNT])
{
    uint16_t cand[SB_CELLS];
    for (int t = FIRST; t <= LAST; t++) {
        const int order[] = {SB_TECH_NAKED_SINGLE, SB_TECH_HIDDEN_SINGLE, SB_TECH_LOCKED, t};
        memcpy(cand, start, sizeof cand);
        run_order(cand, allowed, what, order, 4, fired);
    }
    static const int all[] = {SB_TECH_NAKED_SINGLE, SB_TECH_HIDDEN_SINGLE, SB_TECH_LOCKED,
                              SB_TECH_XWING,        SB_TECH_SWORDFISH,     SB_TECH_JELLYFISH,
                              SB_TECH_SKYSCRAPER,   SB_TECH_KITE,          SB_TECH_XY_WING,
                              SB_TECH_XYZ_WING,     SB_TECH_W_WING,        SB_TECH_COLOURING,
                              SB_TECH_XCHAIN};
    memcpy(cand, start, sizeof cand);
    run_order(cand, allowed, what, all, sizeof all / sizeof all[0], fired);
}

/* Unique puzzles (top1465 and generated ones): no step removes the solution's digit. */
Test(patterns, never_removes_the_solution, .timeout = 600)
{
    enum { MAX = 1465, GEN = 1500 };
    uint8_t *cells = malloc((size_t)SB_CELLS * (MAX + GEN)),
            *sols = malloc((size_t)SB_CELLS * GEN);
    size_t n = samples("datasets/samples/top1465.txt", cells, MAX);
    cr_assert_eq(n, MAX);
    cr_assert_eq(sb_ggenerate_batch(sb_geometry_9x9(), 25, 0, GEN, 1, cells + SB_CELLS * n, sols, NULL, NULL),
                 SB_OK);
    n += GEN;
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    uint64_t fired[SB_TECH_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = cells + SB_CELLS * i;
        const sb_result res = tu_solve(s, p);
        cr_assert_eq(res.count, 1, "puzzle %zu", i);
        uint16_t cand[SB_CELLS], allowed[SB_CELLS];
        sb_grid g = tu_from_cells(p);
        sb_grid_candidates(&g, cand);
        for (int c = 0; c < SB_CELLS; c++)
            allowed[c] = (uint16_t)(1u << (res.solution.cell[c] - 1));
        char what[40];
        snprintf(what, sizeof what, "puzzle %zu", i);
        run_checked(cand, allowed, what, fired);
    }
    for (int t = FIRST; t <= LAST; t++) /* the sample exercises every technique */
        cr_assert_gt(fired[t], 0, "technique %d never fired", t);
    sb_solver_free(s);
    free(cells);
    free(sols);
}

/* Collects per cell the digits some solution uses. */
static int union_of(const uint8_t *solution, uint64_t index, void *user)
{
    uint16_t *u = user;
    (void)index;
    for (int c = 0; c < SB_CELLS; c++)
        u[c] |= (uint16_t)(1u << (solution[c] - 1));
    return 0;
}

/* Puzzles with several solutions: no step removes a digit some solution uses. */
Test(patterns, keeps_every_solutions_digits, .timeout = 600)
{
    enum { MAX = 2000 };
    uint8_t *cells = malloc((size_t)SB_CELLS * MAX);
    const size_t n = samples("datasets/multi/multi_2000_seed1.txt", cells, MAX);
    cr_assert_eq(n, MAX);
    sb_geometry *g;
    sb_gsolver *gs;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    cr_assert_eq(sb_gsolver_new(g, &gs), SB_OK);
    uint64_t fired[SB_TECH_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = cells + SB_CELLS * i;
        uint16_t cand[SB_CELLS], allowed[SB_CELLS] = {0};
        sb_gresult res;
        cr_assert_eq(sb_gsolve_each(gs, p, 0, union_of, allowed, &res), SB_OK);
        cr_assert_geq(res.count, 2, "puzzle %zu", i);
        sb_grid gr = tu_from_cells(p);
        sb_grid_candidates(&gr, cand);
        char what[40];
        snprintf(what, sizeof what, "multi puzzle %zu", i);
        run_checked(cand, allowed, what, fired);
    }
    sb_gsolver_free(gs);
    sb_geometry_free(g);
    free(cells);
}

/* Every house of g as the oracle's flat list. */
static int *houses_of(const sb_geometry *g)
{
    const int n = sb_geometry_digits(g), nh = sb_geometry_houses(g);
    int *h = malloc((size_t)(n * nh) * sizeof *h);
    for (int k = 0; k < nh; k++)
        for (int i = 0; i < n; i++)
            h[k * n + i] = sb_geometry_house(g, k)[i];
    return h;
}

/* Specs that use the new techniques, each order. */
static const char *const specs[] = {
    "restart:ns,hs,lc,xw,sf,jf",      "list:ns,hs,lc,sky,kite",   "array:ns,hs,xy,xyz,ww",
    "restart:ns,hs,lc,col,xc",        "list:ns,xc,col,ww,xw",     "restart:xc",
    "restart:ns,hs,lc,xw,xy",         "list:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc",
};

/* Counts of every spec on geometry spec geo (generated unique puzzles and the same with
 * givens removed, so with several solutions or none when a given is changed) equal the
 * oracle's; the 9x9 multi sample too. */
static void counts_equal_oracle(const char *geo, size_t count)
{
    sb_geometry *g;
    cr_assert_eq(sb_geometry_parse(geo, &g, NULL, 0), SB_OK);
    const int nc = sb_geometry_cells(g), n = sb_geometry_digits(g), nh = sb_geometry_houses(g);
    int *h = houses_of(g);
    uint8_t *cells = malloc((size_t)nc * count), *sols = malloc((size_t)nc * count);
    cr_assert_eq(sb_ggenerate_batch(g, 7, 0, count, 1, cells, sols, NULL, NULL), SB_OK);
    for (size_t i = 0; i < count; i++) { /* mutate: drop two givens, or change one */
        uint8_t *p = cells + (size_t)nc * i;
        int k = 0;
        for (int c = 0; c < nc && k < 2; c++)
            if (p[c] && (c + (int)i) % 3 == 0) {
                p[c] = i % 4 == 3 ? (uint8_t)(p[c] % n + 1) : 0;
                k++;
            }
    }
    uint64_t *want = malloc(count * sizeof *want);
    for (size_t i = 0; i < count; i++)
        want[i] = dlx_count(nc, n, nh, h, cells + (size_t)nc * i, 0, NULL);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        sb_gpipeline *p;
        cr_assert_eq(sb_gpipeline_new(g, specs[s], &p), SB_OK, "%s", specs[s]);
        for (size_t i = 0; i < count; i++) {
            const uint8_t *pz = cells + (size_t)nc * i;
            sb_gresult res;
            cr_assert_eq(sb_gpipeline_solve(p, pz, 0, &res, NULL), SB_OK);
            cr_assert_eq(res.count, want[i], "%s on %s puzzle %zu: %llu, oracle %llu", specs[s],
                         geo, i, (unsigned long long)res.count, (unsigned long long)want[i]);
        }
        sb_gpipeline_free(p);
    }
    free(want);
    free(cells);
    free(sols);
    free(h);
    sb_geometry_free(g);
}

Test(patterns, counts_equal_the_oracle_on_4x4_and_2x3, .timeout = 600)
{
    counts_equal_oracle("2x2", TU_SAMPLE(400));
    counts_equal_oracle("2x3", TU_SAMPLE(400));
}

/* The 9x9 multi sample counted to LIMIT: the first 300 puzzles hold 39,969 solutions, and the
 * 29 with more than 256 (up to 5,304) hold 65% of them, so the cap halves the time while 271
 * puzzles are still counted whole. */
Test(patterns, counts_equal_the_oracle_on_9x9, .timeout = 600)
{
    enum { LIMIT = 256 };
    const size_t max = TU_SAMPLE(300);
    uint8_t *cells = malloc((size_t)SB_CELLS * max);
    uint64_t *want = malloc(max * sizeof *want);
    const size_t n = samples("datasets/multi/multi_2000_seed1.txt", cells, max);
    sb_geometry *g;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    int *h = houses_of(g);
    for (size_t i = 0; i < n; i++)
        want[i] = dlx_count(SB_CELLS, 9, 27, h, cells + SB_CELLS * i, LIMIT, NULL);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        sb_options opt;
        sb_solver *sv;
        sb_options_default(&opt);
        opt.limit = LIMIT;
        opt.pipeline = SB_PIPELINE_CUSTOM;
        opt.spec = specs[s];
        cr_assert_eq(sb_solver_new(&sv, &opt), SB_OK, "%s", specs[s]);
        for (size_t i = 0; i < n; i++) {
            const sb_result res = tu_solve(sv, cells + SB_CELLS * i);
            cr_assert_eq(res.count, want[i], "%s puzzle %zu", specs[s], i);
        }
        sb_solver_free(sv);
    }
    free(h);
    free(want);
    free(cells);
    sb_geometry_free(g);
}

/* Fish, sky and kite need rows and columns: a cube has none (skipped, as lc on latin:N);
 * latin squares and boxed grids have them. */
Test(patterns, skipped_without_rows_and_columns)
{
    const unsigned lines = 1u << SB_TECH_XWING | 1u << SB_TECH_SWORDFISH |
                           1u << SB_TECH_JELLYFISH | 1u << SB_TECH_SKYSCRAPER | 1u << SB_TECH_KITE;
    const char *spec = "restart:ns,hs,xw,sf,jf,sky,kite,xy,xyz,ww,col,xc";
    static const struct {
        const char *geo;
        unsigned skipped;
    } cases[] = {{"latin:4", 0}, {"2x3", 0}, {"3x3", 0}, {"cube:2", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_geometry *g;
        sb_gpipeline *p;
        cr_assert_eq(sb_geometry_parse(cases[i].geo, &g, NULL, 0), SB_OK, "%s", cases[i].geo);
        cr_assert_eq(sb_gpipeline_new(g, spec, &p), SB_OK);
        cr_assert_eq(sb_gpipeline_skipped(p), cases[i].skipped ? lines : 0u, "%s: %#x",
                     cases[i].geo, sb_gpipeline_skipped(p));
        sb_gpipeline_free(p);
        sb_geometry_free(g);
    }
}

/* One implementation: on the 3x3 geometry the any-geometry stamp does what the 9x9 stamp does,
 * step for step — the same counts, guesses and technique counters for every spec. */
Test(patterns, both_stamps_agree_on_9x9, .timeout = 600)
{
    const size_t max = TU_SAMPLE(120);
    uint8_t *cells = malloc((size_t)SB_CELLS * max);
    const size_t n = samples("datasets/samples/top1465.txt", cells, max);
    sb_geometry *g;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        sb_options opt;
        sb_solver *sv;
        sb_gpipeline *gp;
        sb_options_default(&opt);
        opt.limit = 2;
        opt.pipeline = SB_PIPELINE_CUSTOM;
        opt.spec = specs[s];
        cr_assert_eq(sb_solver_new(&sv, &opt), SB_OK, "%s", specs[s]);
        cr_assert_eq(sb_gpipeline_new(g, specs[s], &gp), SB_OK, "%s", specs[s]);
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = cells + SB_CELLS * i;
            const sb_result a = tu_solve(sv, p);
            sb_gresult b;
            cr_assert_eq(sb_gpipeline_solve(gp, p, 2, &b, NULL), SB_OK);
            cr_assert_eq(a.count, b.count, "%s puzzle %zu", specs[s], i);
            cr_assert_eq(a.guesses, b.guesses, "%s puzzle %zu", specs[s], i);
        }
        sb_technique_counts ca[SB_TECH_COUNT], cb[SB_TECH_COUNT];
        sb_solver_counts(sv, ca);
        sb_gpipeline_counts(gp, cb);
        for (int t = 0; t < SB_TECH_COUNT; t++) {
            cr_assert_eq(ca[t].applications, cb[t].applications, "%s technique %d", specs[s], t);
            cr_assert_eq(ca[t].placements, cb[t].placements, "%s technique %d", specs[s], t);
            cr_assert_eq(ca[t].eliminations, cb[t].eliminations, "%s technique %d", specs[s], t);
        }
        sb_gpipeline_free(gp);
        sb_solver_free(sv);
    }
    sb_geometry_free(g);
    free(cells);
}
