/*
 * test_geometry.c — geometries as data, the general solver, enumeration and the grid codec
 * (the library part), checked against an independent dancing-links oracle (dlx.c)
 * on house lists the tests build themselves, and against the fast 9x9 kernel on the samples.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlx.h"
#include "internal.h" /* sb_engine_solve_drop */
#include "reference.h"
#include "sudokubench.h"

#define JIGSAW_FILE "tests/data/jigsaw6.txt"

/* ------------------------------------------------------------------------------------------ */
/* Independent house lists (what each spec means, written out without the library)          */
/* ------------------------------------------------------------------------------------------ */

typedef struct houses {
    int ncells, n, nh;   /* cells, digits, houses */
    int h[256 * 64];     /* house i is h[i*n .. +n); room for 64x64's 192 houses of 64 */
} houses;

/* Rows and columns of an n x n grid, then boxes br x bc (br > 0), then diagonals. */
static void square_houses(houses *H, int n, int br, int bc, int diag)
{
    H->ncells = n * n;
    H->n = n;
    H->nh = 0;
    for (int r = 0; r < n; r++, H->nh++)
        for (int c = 0; c < n; c++)
            H->h[H->nh * n + c] = n * r + c;
    for (int c = 0; c < n; c++, H->nh++)
        for (int r = 0; r < n; r++)
            H->h[H->nh * n + r] = n * r + c;
    if (br)
        for (int r0 = 0; r0 < n; r0 += br)
            for (int c0 = 0; c0 < n; c0 += bc, H->nh++) {
                int k = 0;
                for (int r = r0; r < r0 + br; r++)
                    for (int c = c0; c < c0 + bc; c++)
                        H->h[H->nh * n + k++] = n * r + c;
            }
    if (diag) {
        for (int i = 0; i < n; i++)
            H->h[H->nh * n + i] = n * i + i;
        H->nh++;
        for (int i = 0; i < n; i++)
            H->h[H->nh * n + i] = n * i + n - 1 - i;
        H->nh++;
    }
}

/* cube:k: planes with one coordinate fixed, cell = k*k*x + k*y + z. */
static void cube_houses(houses *H, int k)
{
    const int n = k * k;
    H->ncells = k * n;
    H->n = n;
    H->nh = 0;
    for (int axis = 0; axis < 3; axis++)
        for (int v = 0; v < k; v++, H->nh++) {
            int m = 0;
            for (int x = 0; x < k; x++)
                for (int y = 0; y < k; y++)
                    for (int z = 0; z < k; z++) {
                        int coord[3] = {x, y, z};
                        if (coord[axis] == v)
                            H->h[H->nh * n + m++] = n * x + k * y + z;
                    }
        }
}

/* The test jigsaw: rows, columns and the regions of tests/data/jigsaw6.txt, typed again. */
static void jigsaw_houses(houses *H)
{
    static const char *const rows[6] = {"AAABBB", "AAABBB", "CCCDDD",
                                        "CCCFFD", "EEEDDF", "EEEFFF"};
    square_houses(H, 6, 0, 0, 0);
    /* Regions in order of first appearance, as the file format numbers them. */
    for (const char *reg = "ABCDFE"; *reg; reg++, H->nh++) {
        int k = 0;
        for (int i = 0; i < 36; i++)
            if (rows[i / 6][i % 6] == *reg)
                H->h[H->nh * 6 + k++] = i;
        cr_assert_eq(k, 6);
    }
}

/* Makes the geometry for a spec (or the jigsaw file for "jigsaw") and its independent
 * house list. */
static sb_geometry *geo_and_houses(const char *spec, houses *H)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    int r, c, k;
    int rc;
    if (!strcmp(spec, "jigsaw")) {
        rc = sb_geometry_load(JIGSAW_FILE, &g, why, sizeof why);
        jigsaw_houses(H);
    } else {
        rc = sb_geometry_parse(spec, &g, why, sizeof why);
        if (sscanf(spec, "x:%dx%d", &r, &c) == 2)
            square_houses(H, r * c, r, c, 1);
        else if (sscanf(spec, "latin:%d", &k) == 1)
            square_houses(H, k, 0, 0, 0);
        else if (sscanf(spec, "cube:%d", &k) == 1)
            cube_houses(H, k);
        else if (sscanf(spec, "%dx%d", &r, &c) == 2)
            square_houses(H, r * c, r, c, 0);
        else
            cr_assert_fail("no house list for %s", spec);
    }
    cr_assert_eq(rc, SB_OK, "%s: %s", spec, why);
    return g;
}

/* 1 when sol is a complete solution of puzzle under H (checked without the library). */
static int houses_valid(const houses *H, const uint8_t *puzzle, const uint8_t *sol)
{
    for (int c = 0; c < H->ncells; c++)
        if (sol[c] < 1 || sol[c] > H->n || (puzzle && puzzle[c] && puzzle[c] != sol[c]))
            return 0;
    for (int h = 0; h < H->nh; h++) {
        int seen[65] = {0};
        for (int i = 0; i < H->n; i++)
            if (seen[sol[H->h[h * H->n + i]]]++)
                return 0;
    }
    return 1;
}

static uint64_t oracle(const houses *H, const uint8_t *cells, uint64_t limit, uint8_t *first)
{
    return dlx_count(H->ncells, H->n, H->nh, H->h, cells, limit, first);
}

/* Solves with a fresh general solver, asserting the call succeeded. */
static sb_gresult gsolve(const sb_geometry *g, const uint8_t *cells, uint64_t limit,
                         uint8_t *first)
{
    sb_gsolver *s = NULL;
    sb_gresult res;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    int rc = sb_gsolve(s, cells, limit, &res, first);
    cr_assert_eq(rc, SB_OK, "sb_gsolve = %d (%s)", rc, sb_strerror(rc));
    sb_gsolver_free(s);
    return res;
}

/* ------------------------------------------------------------------------------------------ */
/* The geometry tables                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* Sorted copy of a house, for set comparison. */
static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static const char *const SPECS[] = {"2x2", "2x3", "3x3", "3x4", "4x4", "4x2", "latin:5",
                                    "x:3x3", "cube:3", "cube:2", "jigsaw", "8x8", "5x5"};

Test(geometry, houses_cells_and_peers_match_the_definitions)
{
    static houses H;
    for (size_t s = 0; s < sizeof SPECS / sizeof *SPECS; s++) {
        sb_geometry *g = geo_and_houses(SPECS[s], &H);
        cr_assert_eq(sb_geometry_cells(g), H.ncells, "%s", SPECS[s]);
        cr_assert_eq(sb_geometry_digits(g), H.n, "%s", SPECS[s]);
        cr_assert_eq(sb_geometry_houses(g), H.nh, "%s", SPECS[s]);
        /* Same houses in the same order; each house ascending. */
        for (int h = 0; h < H.nh; h++) {
            int want[64];
            memcpy(want, &H.h[h * H.n], (size_t)H.n * sizeof *want);
            qsort(want, (size_t)H.n, sizeof *want, cmp_int);
            const uint16_t *got = sb_geometry_house(g, h);
            for (int i = 0; i < H.n; i++)
                cr_assert_eq(got[i], want[i], "%s house %d cell %d", SPECS[s], h, i);
        }
        /* Peers: exactly the cells sharing a house, ascending; houses of each cell. */
        for (int c = 0; c < H.ncells; c++) {
            static char share[4096];
            memset(share, 0, (size_t)H.ncells);
            int nh_expect = 0;
            for (int h = 0; h < H.nh; h++) {
                int in = 0;
                for (int i = 0; i < H.n; i++)
                    in |= H.h[h * H.n + i] == c;
                nh_expect += in;
                if (in)
                    for (int i = 0; i < H.n; i++)
                        share[H.h[h * H.n + i]] = 1;
            }
            share[c] = 0;
            int np, nhc, expect = 0;
            const uint16_t *p = sb_geometry_peers(g, c, &np);
            sb_geometry_cell_houses(g, c, &nhc);
            for (int i = 0; i < H.ncells; i++)
                expect += share[i];
            cr_assert_eq(np, expect, "%s cell %d: %d peers, want %d", SPECS[s], c, np, expect);
            cr_assert_eq(nhc, nh_expect, "%s cell %d houses", SPECS[s], c);
            for (int i = 0; i < np; i++) {
                cr_assert(share[p[i]], "%s cell %d: %d is no peer", SPECS[s], c, p[i]);
                cr_assert(i == 0 || p[i - 1] < p[i], "%s cell %d: peers not ascending", SPECS[s], c);
            }
        }
        sb_geometry_free(g);
    }
}

Test(geometry, sudoku_peer_counts_and_names)
{
    struct { const char *spec; int cells, digits, houses, peers0; int kind; } t[] = {
        {"3x3", 81, 9, 27, 20, SB_GEO_BOXED},   {"2x2", 16, 4, 12, 7, SB_GEO_BOXED},
        {"4x4", 256, 16, 48, 39, SB_GEO_BOXED}, {"latin:5", 25, 5, 10, 8, SB_GEO_LATIN},
        {"x:3x3", 81, 9, 29, 26, SB_GEO_X},     {"cube:3", 27, 9, 9, 18, SB_GEO_CUBE},
        {"8x8", 4096, 64, 192, 175, SB_GEO_BOXED},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        sb_geometry *g = NULL;
        cr_assert_eq(sb_geometry_parse(t[i].spec, &g, NULL, 0), SB_OK, "%s", t[i].spec);
        int np;
        sb_geometry_peers(g, 0, &np);
        cr_assert_eq(sb_geometry_cells(g), t[i].cells, "%s", t[i].spec);
        cr_assert_eq(sb_geometry_digits(g), t[i].digits, "%s", t[i].spec);
        cr_assert_eq(sb_geometry_houses(g), t[i].houses, "%s", t[i].spec);
        cr_assert_eq(np, t[i].peers0, "%s: cell 0 has %d peers", t[i].spec, np);
        cr_assert_eq(sb_geometry_kind_of(g), t[i].kind, "%s", t[i].spec);
        cr_assert_str_eq(sb_geometry_name(g), t[i].spec);
        sb_geometry_free(g);
    }
}

Test(geometry, the_9x9_constant_is_the_3x3_geometry_and_the_peer_tables)
{
    const sb_geometry *k = sb_geometry_9x9();
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    cr_assert_eq(k, sb_geometry_9x9(), "one constant");
    cr_assert_str_eq(sb_geometry_name(k), sb_geometry_name(g));
    cr_assert_eq(sb_geometry_kind_of(k), SB_GEO_BOXED);
    cr_assert_eq(sb_geometry_cells(k), SB_CELLS);
    cr_assert_eq(sb_geometry_digits(k), SB_DIGITS);
    cr_assert_eq(sb_geometry_houses(k), SB_HOUSES);
    sb_geometry_layout lk, lg;
    sb_geometry_layout_of(k, &lk);
    sb_geometry_layout_of(g, &lg);
    cr_assert_eq(memcmp(&lk, &lg, sizeof lk), 0);
    const sb_peer_tables *t = sb_tables();
    for (int h = 0; h < SB_HOUSES; h++) {
        const uint16_t *a = sb_geometry_house(k, h), *b = sb_geometry_house(g, h);
        for (int i = 0; i < SB_DIGITS; i++) {
            cr_assert_eq(a[i], b[i], "house %d cell %d", h, i);
            cr_assert_eq(a[i], t->house_cells[h][i], "house %d cell %d: the peer tables", h, i);
        }
    }
    for (int c = 0; c < SB_CELLS; c++) {
        int na, nb;
        const uint16_t *a = sb_geometry_cell_houses(k, c, &na), *b = sb_geometry_cell_houses(g, c, &nb);
        cr_assert_eq(na, 3);
        cr_assert_eq(nb, 3);
        for (int i = 0; i < 3; i++)
            cr_assert_eq(a[i], b[i], "cell %d house %d", c, i);
        a = sb_geometry_peers(k, c, &na);
        b = sb_geometry_peers(g, c, &nb);
        cr_assert_eq(na, SB_PEERS);
        cr_assert_eq(nb, SB_PEERS);
        for (int i = 0; i < SB_PEERS; i++) {
            cr_assert_eq(a[i], b[i], "cell %d peer %d", c, i);
            cr_assert_eq(a[i], t->peers[c][i], "cell %d peer %d: the peer tables", c, i);
        }
    }
    sb_geometry_free((sb_geometry *)(uintptr_t)k); /* ignored: the constant stays */
    cr_assert_eq(sb_geometry_cells(sb_geometry_9x9()), SB_CELLS);
    sb_geometry_free(g);
}

Test(geometry, layouts_for_printing)
{
    struct { const char *spec; sb_geometry_layout want; } t[] = {
        {"3x4", {12, 12, 3, 4}}, {"latin:5", {5, 5, 0, 0}}, {"cube:3", {3, 9, 3, 3}},
        {"x:2x2", {4, 4, 2, 2}}, {"jigsaw", {6, 6, 0, 0}},
    };
    static houses H;
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        sb_geometry *g = geo_and_houses(t[i].spec, &H);
        sb_geometry_layout l;
        sb_geometry_layout_of(g, &l);
        cr_assert(l.rows == t[i].want.rows && l.cols == t[i].want.cols &&
                      l.box_rows == t[i].want.box_rows && l.box_cols == t[i].want.box_cols,
                  "%s: %dx%d boxes %dx%d", t[i].spec, l.rows, l.cols, l.box_rows, l.box_cols);
        sb_geometry_free(g);
    }
}

Test(geometry, for_cells_picks_the_most_square_boxes_or_names_the_choices)
{
    struct { int cells; const char *want; } ok[] = {
        {16, "2x2"}, {36, "2x3"}, {64, "2x4"}, {81, "3x3"}, {144, "3x4"},
        {256, "4x4"}, {400, "4x5"}, {625, "5x5"}, {1296, "6x6"}, {4096, "8x8"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        sb_geometry *g = NULL;
        char why[SB_GEO_WHY_LEN] = "";
        cr_assert_eq(sb_geometry_for_cells(ok[i].cells, &g, why, sizeof why), SB_OK, "%d: %s",
                     ok[i].cells, why);
        cr_assert_str_eq(sb_geometry_name(g), ok[i].want, "%d cells", ok[i].cells);
        cr_assert_eq(sb_geometry_kind_of(g), SB_GEO_BOXED);
        sb_geometry_free(g);
    }
    struct { int cells; const char *says; } bad[] = {
        {27, "say cube:3"}, {25, "say latin:5"}, {49, "latin:7"}, {80, "not an N x N grid"},
        {64 * 64 + 1, "not an N x N grid"}, {0, "not an N x N grid"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sb_geometry *g = NULL;
        char why[SB_GEO_WHY_LEN] = "";
        cr_assert_eq(sb_geometry_for_cells(bad[i].cells, &g, why, sizeof why), SB_ERR_ARG);
        cr_assert_null(g);
        cr_assert(strstr(why, bad[i].says), "%d cells: '%s' lacks '%s'", bad[i].cells, why,
                  bad[i].says);
    }
}

Test(geometry, bad_specs_are_refused_with_the_valid_forms)
{
    const char *bad[] = {"", "3x", "x3", "0x3", "3x0", "8x9", "65x1", "latin:0", "latin:65",
                         "latin:", "cube:0", "cube:9", "x:3", "sudoku", "3x3 ", "-3x3", "cube:3x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sb_geometry *g = NULL;
        char why[SB_GEO_WHY_LEN] = "";
        cr_assert_eq(sb_geometry_parse(bad[i], &g, why, sizeof why), SB_ERR_ARG, "'%s'", bad[i]);
        cr_assert_null(g);
        cr_assert(strstr(why, "unknown geometry") && strstr(why, "RxC") && strstr(why, "cube:K"),
                  "'%s': %s", bad[i], why);
    }
    cr_assert_eq(sb_geometry_parse(NULL, &(sb_geometry *){NULL}, NULL, 0), SB_ERR_ARG);
}

/* Reads a geometry from text; returns the status and leaves the message in why. */
static int read_text(const char *text, sb_geometry **g, char *why, size_t len)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    cr_assert_not_null(f);
    int rc = sb_geometry_read(f, "t.geo", g, why, len);
    fclose(f);
    return rc;
}

Test(geometry, files_read_and_bad_files_name_line_and_reason)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    /* A house list: a 2x2 latin square (4 cells, 2 digits) written as houses. */
    cr_assert_eq(read_text("# comment\n\nhouses 4 2\n0 1\n2,3\n0 2 # column\n1 3\n", &g, why,
                           sizeof why),
                 SB_OK, "%s", why);
    cr_assert_eq(sb_geometry_kind_of(g), SB_GEO_HOUSES);
    cr_assert_eq(sb_geometry_houses(g), 4);
    uint8_t empty[4] = {0}, sol[4];
    cr_assert_eq(gsolve(g, empty, 0, sol).count, 2, "a 2x2 latin square has 2 fillings");
    sb_geometry_free(g);

    struct { const char *text, *says; int rc; } bad[] = {
        {"", "t.geo:0: empty", SB_ERR_ARG},
        {"# only\n", "t.geo:1: empty", SB_ERR_ARG},
        {"sudoku 9\n", "t.geo:1: expected 'jigsaw N'", SB_ERR_ARG},
        {"jigsaw 99\n", "t.geo:1: expected", SB_ERR_ARG},
        {"jigsaw 4 4\n", "t.geo:1: expected", SB_ERR_ARG},
        {"houses 99999999999999999999 2\n", "t.geo:1: expected", SB_ERR_ARG},
        {"houses 4 8\n", "t.geo:1: expected", SB_ERR_ARG},
        {"jigsaw 2\nAB\n", "t.geo:2: file ends after 1 of 2 region rows", SB_ERR_ARG},
        {"jigsaw 2\nAB\nABC\n", "t.geo:3: region row has 3 characters, need 2", SB_ERR_ARG},
        {"jigsaw 2\nAB\nAC\n", "t.geo:3: column 2: 'C' would be region 3 of 2", SB_ERR_ARG},
        {"jigsaw 2\nAA\nAB\n", "t.geo:3: column 1: region 'A' has more than 2 cells", SB_ERR_ARG},
        {"houses 4 2\n0 1\n2 2\n", "t.geo:3: column 3: '2' is listed twice", SB_ERR_ARG},
        {"houses 4 2\n0 1\n2 7\n", "t.geo:3: column 3: '7' is not a cell index", SB_ERR_ARG},
        {"houses 4 2\n0 1 2\n", "t.geo:2: column 5: '2' is one cell too many", SB_ERR_ARG},
        {"houses 4 2\n0\n", "t.geo:2: house has 1 cells, need 2", SB_ERR_ARG},
        {"houses 4 2\n0 1\n", "t.geo: cell 2 is in no house", SB_ERR_ARG},
        {"houses 4 2\n", "t.geo:1: no houses listed", SB_ERR_ARG},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        g = NULL;
        why[0] = '\0';
        cr_assert_eq(read_text(bad[i].text, &g, why, sizeof why), bad[i].rc, "case %zu", i);
        cr_assert_null(g);
        cr_assert(strstr(why, bad[i].says), "case %zu: '%s' lacks '%s'", i, why, bad[i].says);
    }
    cr_assert_eq(sb_geometry_load("tests/data/no-such.geo", &g, why, sizeof why), SB_ERR_IO);
    cr_assert(strstr(why, "no-such.geo: cannot open"), "%s", why);
}

/* ------------------------------------------------------------------------------------------ */
/* Seed 002's puzzles                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Solves text under spec: exactly one solution, valid by the test's own house check and the
 * library's, agreeing with the oracle; returns the solution text. */
static void seed_puzzle(const char *spec, const char *text, const char *want)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    uint8_t p[4096], sol[4096], osol[4096];
    char why[SB_GEO_WHY_LEN] = "", out[4096];
    size_t col = 0;
    cr_assert_eq(sb_gparse(g, text, strlen(text), p, NULL, why, sizeof why, &col), SB_OK, "%s", why);
    sb_gresult r = gsolve(g, p, 0, sol);
    cr_assert_eq(r.count, 1, "%s: %llu solutions", spec, (unsigned long long)r.count);
    cr_assert(houses_valid(&H, p, sol), "%s: solution breaks a rule", spec);
    cr_assert(sb_gsolution_check(g, p, sol));
    cr_assert_eq(oracle(&H, p, 0, osol), 1, "%s: oracle disagrees", spec);
    cr_assert_eq(memcmp(sol, osol, (size_t)H.ncells), 0, "%s: oracle's solution differs", spec);
    cr_assert_eq(sb_gformat(g, sol, SB_GFORM_CHARS, out, sizeof out), H.ncells);
    cr_assert_str_eq(out, want, "%s", spec);
    sb_geometry_free(g);
}

Test(seed002, s44_s99_s333_have_one_solution_each)
{
    /* s44 <- 4 4 rho 0 0 0 0  0 0 2 1  3 0 0 4  0 0 0 0 */
    seed_puzzle("2x2", "0000002130040000", "2143432132141432");
    /* s99, rows 1..9 as the seed types them. */
    seed_puzzle("3x3",
                "001690500" "400270001" "070000090" "000000030" "000430007"
                "000780600" "006000805" "020140060" "010350040",
                "281693574469275381573814296792561438658439127134782659346927815925148763817356942");
    /* s333: planes 1..3 (x), each 3x3 in row-major (y, z) order, ravelled plane-major. */
    seed_puzzle("cube:3", "000810002" "060070904" "500003000", "349816752168275934527493681");
}

Test(seed002, s44_in_the_integer_form)
{
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("2x2", &g, NULL, 0), SB_OK);
    uint8_t p[16], sol[16];
    int form = -1;
    const char *t = "0,0,0,0, 0,0,2,1, 3,0,0,4, 0,0,0,0";
    cr_assert_eq(sb_gparse(g, t, strlen(t), p, &form, NULL, 0, NULL), SB_OK);
    cr_assert_eq(form, SB_GFORM_INTS);
    cr_assert_eq(gsolve(g, p, 2, sol).count, 1);
    char out[64];
    cr_assert_eq(sb_gformat(g, sol, SB_GFORM_INTS, out, sizeof out), 31);
    cr_assert_str_eq(out, "2,1,4,3,4,3,2,1,3,2,1,4,1,4,3,2");
    sb_geometry_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* Counts against the oracle on mutated puzzles                                               */
/* ------------------------------------------------------------------------------------------ */

/* A full solution of H's geometry: the general solver's first filling of the empty grid with
 * its digits relabelled at random (checked by the test's own rules). */
static void full_grid(const sb_geometry *g, const houses *H, ref_rng *rng, uint8_t *full)
{
    uint8_t empty[4096] = {0}, perm[65];
    cr_assert_eq(gsolve(g, empty, 1, full).count, 1, "%s: no filling", sb_geometry_name(g));
    int d[64];
    for (int i = 0; i < H->n; i++)
        d[i] = i + 1;
    ref_shuffle(rng, d, H->n);
    for (int i = 0; i < H->n; i++)
        perm[i + 1] = (uint8_t)d[i];
    for (int c = 0; c < H->ncells; c++)
        full[c] = perm[full[c]];
    cr_assert(houses_valid(H, NULL, full), "%s: filling breaks a rule", sb_geometry_name(g));
}

/* Digs full down to a puzzle with one solution: the first `tries` cells of a random order
 * leave while the general solver still finds one solution (the oracle re-checks the result).
 * tries < ncells keeps big grids well above minimal, where proving 0 or 2+ solutions of a
 * mutation can take the oracle seconds. */
static void dig_unique(const sb_geometry *g, const houses *H, ref_rng *rng, const uint8_t *full,
                       uint8_t *p, int tries)
{
    int order[4096];
    memcpy(p, full, (size_t)H->ncells);
    for (int i = 0; i < H->ncells; i++)
        order[i] = i;
    ref_shuffle(rng, order, H->ncells);
    sb_gsolver *s = NULL;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    for (int i = 0; i < tries && i < H->ncells; i++) {
        sb_gresult r;
        const uint8_t keep = p[order[i]];
        p[order[i]] = 0;
        cr_assert_eq(sb_gsolve(s, p, 2, &r, NULL), SB_OK);
        if (r.count != 1)
            p[order[i]] = keep;
    }
    sb_gsolver_free(s);
}

/* A random digit for cell c of p that no peer already gives (0 when none fits). */
static int fitting_digit(const houses *H, const uint8_t *p, int c, int avoid, ref_rng *rng)
{
    int ok[64], k = 0;
    for (int d = 1; d <= H->n; d++) {
        if (d == avoid)
            continue;
        int clash = 0;
        for (int h = 0; h < H->nh && !clash; h++) {
            int in = 0;
            for (int i = 0; i < H->n; i++)
                in |= H->h[h * H->n + i] == c;
            for (int i = 0; in && i < H->n; i++)
                clash |= H->h[h * H->n + i] != c && p[H->h[h * H->n + i]] == d;
        }
        if (!clash)
            ok[k++] = d;
    }
    return k ? ok[ref_rng_below(rng, k)] : 0;
}

/* Writes into p mutation number m of base (full is its solution): givens removed, a fitting
 * wrong digit added, a given changed, a clash added, by m % 5. */
static void mutate(const houses *H, ref_rng *rng, const uint8_t *base, const uint8_t *full,
                   int m, uint8_t *p)
{
    memcpy(p, base, (size_t)H->ncells);
    const int kind = m % 5;
    if (kind == 0 || kind == 4) { /* remove 1..4 givens (then maybe add a wrong one) */
        for (int k = 1 + ref_rng_below(rng, 4); k > 0; k--)
            p[ref_rng_below(rng, H->ncells)] = 0;
    }
    if (kind == 1 || kind == 4) { /* a blank gets a digit no peer gives */
        int c = ref_rng_below(rng, H->ncells);
        if (!p[c])
            p[c] = (uint8_t)fitting_digit(H, p, c, full[c], rng);
    }
    if (kind == 2) { /* a given changes to another digit that fits */
        int c = ref_rng_below(rng, H->ncells);
        if (p[c])
            p[c] = (uint8_t)fitting_digit(H, p, c, p[c], rng);
    }
    if (kind == 3) { /* a blank copies a peer's digit: a clash */
        int c = ref_rng_below(rng, H->ncells), h = 0;
        while (!p[c] && h < H->nh) {
            for (int i = 0; i < H->n; i++)
                if (H->h[h * H->n + i] != c && p[H->h[h * H->n + i]] && H->h[h * H->n] <= c)
                    p[c] = p[H->h[h * H->n + i]];
            h++;
        }
    }
}

/* For one geometry: several bases, each with mutations (mutate); counts up to 3 must equal
 * the oracle's, the first solution must be valid, and 0, 1 and 2+ must all occur. */
static void mutations_agree(const char *spec, int bases, int per_base, int tries, uint64_t seed)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    ref_rng rng;
    ref_rng_seed(&rng, seed);
    static uint8_t full[4096], base[4096], p[4096], sol[4096];
    int seen[3] = {0}; /* puzzles with 0, 1, 2+ solutions */
    for (int b = 0; b < bases; b++) {
        full_grid(g, &H, &rng, full);
        dig_unique(g, &H, &rng, full, base, tries);
        cr_assert_eq(oracle(&H, base, 2, NULL), 1, "%s: dug base not unique per the oracle", spec);
        for (int m = 0; m < per_base; m++) {
            mutate(&H, &rng, base, full, m, p);
            const uint64_t want = oracle(&H, p, 3, NULL);
            memset(sol, 0, (size_t)H.ncells);
            const sb_gresult r = gsolve(g, p, 3, sol);
            cr_assert_eq(r.count, want, "%s base %d mutation %d: %llu solutions, oracle %llu",
                         spec, b, m, (unsigned long long)r.count, (unsigned long long)want);
            if (want)
                cr_assert(houses_valid(&H, p, sol), "%s: first solution invalid", spec);
            seen[want > 2 ? 2 : want]++;
        }
    }
    cr_assert(seen[0] && seen[1] && seen[2], "%s: 0/1/2+ seen %d/%d/%d times", spec, seen[0],
              seen[1], seen[2]);
    sb_geometry_free(g);
}

Test(oracle, boxed_2x2) { mutations_agree("2x2", 6, 30, 4096, 1); }
Test(oracle, boxed_2x3) { mutations_agree("2x3", 6, 30, 4096, 2); }
Test(oracle, boxed_3x4) { mutations_agree("3x4", 3, 25, 4096, 3); }
Test(oracle, boxed_4x4) { mutations_agree("4x4", 2, 25, 150, 4); }
Test(oracle, latin_5) { mutations_agree("latin:5", 6, 30, 4096, 5); }
Test(oracle, x_3x3) { mutations_agree("x:3x3", 4, 30, 4096, 6); }
Test(oracle, cube_3) { mutations_agree("cube:3", 6, 30, 4096, 7); }
Test(oracle, jigsaw_file) { mutations_agree("jigsaw", 6, 30, 4096, 8); }

/* The oracle's count of p's solutions up to limit whose cell c holds none of the digits of
 * mask drop: the sum over c's other digits of the counts with that digit given there. */
static uint64_t oracle_drop(const houses *H, uint8_t *p, int c, uint64_t drop, uint64_t limit)
{
    const uint8_t keep = p[c];
    uint64_t n = 0;
    for (int d = 1; d <= H->n && n < limit; d++)
        if (!(drop >> (d - 1) & 1) && (!keep || keep == d)) {
            p[c] = (uint8_t)d;
            n += oracle(H, p, limit - n, NULL);
        }
    p[c] = keep;
    return n;
}

static int levels_here(int *lv);

/* The engine's drop search (sb_engine_solve_drop) against the oracle, on every geometry
 * whose engine has one (9x9's kernel, box16's, the per-cell engine), at limits 1 and 2: the
 * generator's check (a given of a unique puzzle blanked, its digit dropped: no solution
 * exactly when the puzzle less the given is unique), a given's own digit (none), another
 * digit than the solution's in a blank of a unique puzzle (the solution alone), and one
 * digit on mutated puzzles with 1/blank_div of the cells blanked. The bases are dug by `tries`
 * cells only, so that some of their givens can go. every_level: an engine at each level the
 * CPU runs (box16's stamps and the per-cell engine at scalar), else the default level's. */
static void drop_agrees(const char *spec, int bases, int per_base, int tries, int blank_div,
                        uint64_t seed, int every_level)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    sb_options o;
    sb_options_default(&o);
    int lv[SB_SIMD_LEVELS] = {SB_SIMD_AUTO};
    const int nl = every_level ? levels_here(lv) : 1;
    sb_engine *es[SB_SIMD_LEVELS] = {NULL};
    for (int i = 0; i < nl; i++) {
        o.simd = lv[i];
        cr_assert_eq(sb_engine_new(g, &o, &es[i]), SB_OK);
        if (every_level && lv[i] != SB_SIMD_SCALAR) /* so the kernel's drop is what is tested */
            cr_assert_str_eq(sb_engine_name(es[i]), "box16", "%s at %s", spec,
                             sb_simd_name(lv[i]));
    }
    ref_rng rng;
    ref_rng_seed(&rng, seed);
    static uint8_t full[4096], base[4096], p[4096];
    int checks = 0, unique_after = 0, seen[3] = {0};
    for (int b = 0; b < bases; b++) {
        full_grid(g, &H, &rng, full);
        dig_unique(g, &H, &rng, full, base, tries);
        for (int m = 0; m < per_base; m++) {
            int c = ref_rng_below(&rng, H.ncells);
            uint64_t drop;
            if (m % 3 == 0) { /* the generator's check on a given of the base */
                while (!base[c])
                    c = (c + 1) % H.ncells;
                memcpy(p, base, (size_t)H.ncells);
                p[c] = 0;
                drop = UINT64_C(1) << (full[c] - 1);
            } else if (m % 6 == 1) { /* a given's own digit */
                memcpy(p, base, (size_t)H.ncells);
                while (!p[c])
                    c = (c + 1) % H.ncells;
                drop = UINT64_C(1) << (p[c] - 1);
            } else if (m % 6 == 4) { /* a blank of the base, a digit not its solution's */
                memcpy(p, base, (size_t)H.ncells);
                while (p[c])
                    c = (c + 1) % H.ncells;
                drop = UINT64_C(1) << (full[c] % H.n); /* digit full[c] + 1, or 1 */
            } else { /* one digit on a mutation with more cells blanked */
                mutate(&H, &rng, base, full, m, p);
                for (int k = H.ncells / blank_div; k > 0; k--)
                    p[ref_rng_below(&rng, H.ncells)] = 0;
                drop = UINT64_C(1) << ref_rng_below(&rng, H.n);
            }
            for (uint64_t limit = 1; limit <= 2; limit++) {
                const uint64_t want = oracle_drop(&H, p, c, drop, limit);
                for (int i = 0; i < nl; i++) {
                    sb_gresult r;
                    const int st = sb_engine_solve_drop(es[i], p, c, drop, limit, &r);
                    cr_assert_eq(st, SB_OK, "%s, engine %s: sb_engine_solve_drop = %d (%s)",
                                 spec, sb_engine_name(es[i]), st, sb_strerror(st));
                    cr_assert_eq(r.count, want, "%s, engine %s, base %d case %d, cell %d "
                                 "without %#llx, limit %llu: %llu solutions, oracle %llu",
                                 spec, sb_engine_name(es[i]), b, m, c,
                                 (unsigned long long)drop, (unsigned long long)limit,
                                 (unsigned long long)r.count, (unsigned long long)want);
                }
                if (limit == 2)
                    seen[want]++;
            }
            if (m % 3 == 0) {
                checks++;
                const int after = oracle(&H, p, 2, NULL) == 1;
                unique_after += after;
                cr_assert_eq(oracle_drop(&H, p, c, drop, 1) == 0, after,
                             "%s: the drop and the count of the puzzle less a given disagree",
                             spec);
            }
        }
    }
    cr_assert(seen[0] && seen[1] && seen[2], "%s: 0/1/2 seen %d/%d/%d times", spec, seen[0],
              seen[1], seen[2]);
    cr_assert(unique_after > 0 && unique_after < checks, "%s: %d of %d generator checks "
              "unique", spec, unique_after, checks);
    for (int i = 0; i < nl; i++)
        sb_engine_free(es[i]);
    sb_geometry_free(g);
}

/* Every geometry family; tries digs each base by about a third to a half of its cells (on
 * 16x16, where the oracle is slower, by a third). */
Test(oracle, drop_search_on_each_geometry_family)
{
    static const struct {
        const char *spec;
        int bases, per_base, tries;
    } cases[] = {{"2x3", 6, 30, 12},    {"3x3", 4, 30, 30},    {"3x4", 3, 24, 80},
                 {"latin:5", 6, 30, 15}, {"x:3x3", 4, 30, 30}, {"cube:3", 6, 30, 9},
                 {"jigsaw", 6, 30, 30}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        drop_agrees(cases[i].spec, cases[i].bases, cases[i].per_base, cases[i].tries, 4,
                    21 + i, 0);
}

/* box16's stamps (the baseline one at sse4 and neon, AVX2's above) and, at scalar, the
 * per-cell engine, all against the oracle on the same puzzles; the mutations blank 8 cells
 * more, not a quarter (the oracle's proofs of no solution grow fast on 16x16). */
Test(oracle, drop_search_on_box16_at_every_level)
{
    drop_agrees("4x4", 2, 18, 200, 32, 31, 1);
    drop_agrees("2x8", 2, 18, 170, 32, 32, 1);
}

/* Engines without a drop search refuse it (the generator then counts to 2): the other
 * pipelines; and a cell off the grid or a digit above N. */
Test(oracle, drop_refused_where_there_is_none)
{
    static houses H;
    static uint8_t p[36];
    sb_geometry *g6 = geo_and_houses("2x3", &H);
    sb_options o;
    sb_options_default(&o);
    sb_engine *e6 = NULL, *list6 = NULL;
    cr_assert_eq(sb_engine_new(g6, &o, &e6), SB_OK);
    cr_assert_eq(sb_options_pipeline(&o, "list"), SB_OK);
    cr_assert_eq(sb_engine_new(g6, &o, &list6), SB_OK);
    sb_gresult r;
    cr_assert_eq(sb_engine_solve_drop(list6, p, 0, 1, 1, &r), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_drop(e6, p, 0, 1, 1, &r), SB_OK);
    cr_assert_eq(r.count, 1);
    cr_assert_eq(sb_engine_solve_drop(e6, p, -1, 1, 1, &r), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_drop(e6, p, 36, 1, 1, &r), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_drop(e6, p, 0, 1u << 6, 1, &r), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve_drop(NULL, p, 0, 1, 1, &r), SB_ERR_ARG);
    sb_engine_free(e6);
    sb_engine_free(list6);
    sb_geometry_free(g6);
}

/* 25x25 with about half the cells given (a random half of a full grid), and the same with
 * one given changed: counts up to 2 against the oracle. */
Test(oracle, boxed_5x5_half_given)
{
    static houses H;
    static uint8_t full[625], p[625], sol[625];
    sb_geometry *g = geo_and_houses("5x5", &H);
    ref_rng rng;
    ref_rng_seed(&rng, 25);
    int seen[3] = {0};
    for (int t = 0; t < 5; t++) {
        full_grid(g, &H, &rng, full);
        /* Random halves until one the general solver settles in at most 2000 guesses: some
         * halves leave a second solution that takes both solvers minutes to find, which is a
         * benchmark, not a unit test (the draw is seeded, so the puzzles are fixed). */
        sb_gsolver *s = NULL;
        sb_gresult probe;
        cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
        sb_gsolver_budget(s, 2000);
        int rc;
        do {
            for (int c = 0; c < 625; c++)
                p[c] = ref_rng_below(&rng, 100) < 50 ? full[c] : 0;
            rc = sb_gsolve(s, p, 2, &probe, NULL);
            cr_assert(rc == SB_OK || (rc == SB_ERR_BUDGET && probe.guesses == 2000), "rc %d", rc);
        } while (rc != SB_OK);
        sb_gsolver_free(s);
        if (t == 4) { /* a given changed to a digit that fits its peers: no solution */
            int c;
            do
                c = ref_rng_below(&rng, 625);
            while (!p[c]);
            p[c] = (uint8_t)fitting_digit(&H, p, c, p[c], &rng);
        }
        const uint64_t want = oracle(&H, p, 2, NULL);
        const sb_gresult r = gsolve(g, p, 2, sol);
        cr_assert_eq(r.count, want, "5x5 puzzle %d: %llu, oracle %llu", t,
                     (unsigned long long)r.count, (unsigned long long)want);
        if (want)
            cr_assert(houses_valid(&H, p, sol));
        seen[want]++;
    }
    cr_assert(seen[1] || seen[2], "no solvable 5x5 puzzle");
    sb_geometry_free(g);
}

/* A 2x3 puzzle found by search where, after singles, one cell holds exactly two digits and
 * is the only place for both in a house: propagation alone must reject it (no guess). An
 * earlier version took that cell for a solved single and needed a guess. */
Test(oracle, two_hidden_digits_in_one_cell_fail_without_search)
{
    static houses H;
    sb_geometry *g = geo_and_houses("2x3", &H);
    const char *t = "030005000410000000102000400050006000";
    uint8_t p[36];
    cr_assert_eq(sb_gparse(g, t, strlen(t), p, NULL, NULL, 0, NULL), SB_OK);
    cr_assert_eq(oracle(&H, p, 0, NULL), 0);
    const sb_gresult r = gsolve(g, p, 0, NULL);
    cr_assert_eq(r.count, 0);
    cr_assert_eq(r.guesses, 0, "%llu guesses", (unsigned long long)r.guesses);
    sb_geometry_free(g);
}

/* Three top1465 puzzles that `rate` puts in class "locked" (singles alone stall, locked
 * candidates finish them): the general solver, which has locked candidates over every pair of
 * houses meeting in 2..N-1 cells, proves each unique without a guess, with the oracle's answer. */
Test(oracle, locked_candidates_solve_without_search)
{
    static houses H;
    sb_geometry *g = geo_and_houses("3x3", &H);
    static const char *const t[] = {
        ".......92.37.......4.......8...6.1.......43.......9...2...5...6...1..74....8.....",
        "...7....2.8....1...9.......7.6....3.....91...2............5.84.3..6........4..5..",
        ".1.65..4.8.......9.......3.15........76..........28......7..5..3..4...........2.."};
    for (int i = 0; i < 3; i++) {
        uint8_t p[81], want[81], got[81];
        cr_assert_eq(sb_gparse(g, t[i], 81, p, NULL, NULL, 0, NULL), SB_OK);
        cr_assert_eq(oracle(&H, p, 2, want), 1);
        const sb_gresult r = gsolve(g, p, 2, got);
        cr_assert_eq(r.count, 1);
        cr_assert_eq(r.guesses, 0, "puzzle %d: %llu guesses", i, (unsigned long long)r.guesses);
        cr_assert_arr_eq(got, want, 81);
    }
    sb_geometry_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* Enumeration                                                                                */
/* ------------------------------------------------------------------------------------------ */

typedef struct listing {
    const houses *H;        /* the rules */
    const uint8_t *puzzle;  /* the givens */
    uint8_t *all;           /* every solution, back to back */
    uint64_t n, cap;        /* solutions listed, room */
    uint64_t stop_at;       /* ask to stop after this many (0: never) */
} listing;

static int collect(const uint8_t *sol, uint64_t index, void *user)
{
    listing *l = user;
    /* Plain ifs: hundreds of callbacks, and a Criterion assert per call costs. */
    if (index != l->n || l->n >= l->cap)
        cr_assert_fail("callback index %llu, expected %llu (room %llu)", (unsigned long long)index,
                       (unsigned long long)l->n, (unsigned long long)l->cap);
    if (!houses_valid(l->H, l->puzzle, sol))
        cr_assert_fail("listed solution %llu invalid", (unsigned long long)index);
    memcpy(l->all + l->n * (uint64_t)l->H->ncells, sol, (size_t)l->H->ncells);
    l->n++;
    return l->stop_at && l->n >= l->stop_at;
}

/* Lists all solutions of p, checks count = oracle = callbacks (= known unless UINT64_MAX),
 * valid, distinct, and the same order on a second run. */
static void enumerate_all(const char *spec, const uint8_t *p, uint64_t known)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    const uint64_t want = oracle(&H, p, 0, NULL);
    if (known != UINT64_MAX) /* a count known from the literature or by hand */
        cr_assert_eq(want, known, "%s: oracle %llu", spec, (unsigned long long)want);
    listing l = {&H, p, malloc(want * (uint64_t)H.ncells + 1), 0, want, 0};
    sb_gsolver *s = NULL;
    sb_gresult r;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    cr_assert_eq(sb_gsolve_each(s, p, 0, collect, &l, &r), SB_OK);
    cr_assert_eq(r.count, want, "%s: %llu, oracle %llu", spec, (unsigned long long)r.count,
                 (unsigned long long)want);
    cr_assert_eq(l.n, want);
    /* Distinct: sort-free check by pairwise compare (the lists are small). */
    for (uint64_t i = 0; i < l.n; i++)
        for (uint64_t j = i + 1; j < l.n; j++)
            if (!memcmp(l.all + i * H.ncells, l.all + j * H.ncells, (size_t)H.ncells))
                cr_assert_fail("%s: solutions %llu and %llu equal", spec, (unsigned long long)i,
                               (unsigned long long)j);
    /* The same order again (deterministic), and sb_gsolve's first is the first listed. */
    uint8_t first[4096];
    cr_assert_eq(sb_gsolve(s, p, 0, &r, first), SB_OK);
    cr_assert_eq(r.count, want);
    if (want)
        cr_assert_eq(memcmp(first, l.all, (size_t)H.ncells), 0, "%s: first differs", spec);
    /* A limit caps the callbacks; a callback's stop ends the run with the stop counted. */
    if (want >= 3) {
        listing l2 = {&H, p, malloc(want * (uint64_t)H.ncells), 0, want, 0};
        cr_assert_eq(sb_gsolve_each(s, p, 2, collect, &l2, &r), SB_OK);
        cr_assert_eq(r.count, 2);
        cr_assert_eq(l2.n, 2);
        l2.n = 0;
        l2.stop_at = 3;
        cr_assert_eq(sb_gsolve_each(s, p, 0, collect, &l2, &r), SB_ERR_STOPPED);
        cr_assert_eq(r.count, 3);
        cr_assert_eq(memcmp(l2.all, l.all, 3 * (size_t)H.ncells), 0, "%s: order changed", spec);
        free(l2.all);
    }
    sb_gsolver_free(s);
    free(l.all);
    sb_geometry_free(g);
}

Test(enumerate, every_solution_once_in_a_fixed_order)
{
    uint8_t empty[36] = {0};
    enumerate_all("2x2", empty, 288);      /* all 288 4x4 Sudoku grids */
    enumerate_all("latin:4", empty, 576);  /* all 576 4x4 latin squares */
    enumerate_all("cube:2", empty, UINT64_MAX); /* 8 cells, 4 digits: the oracle counts */
    /* A full first row, one given below it and one at the end: 1632 of the 28200 grids. */
    uint8_t six[36] = {1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0,
                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    enumerate_all("2x3", six, 1632);
    uint8_t none[16] = {1, 1};
    enumerate_all("2x2", none, 0);         /* a clash: no callback at all */
}

/* ------------------------------------------------------------------------------------------ */
/* The whole-board kernel of 16-digit boxed grids against the per-cell reference              */
/* ------------------------------------------------------------------------------------------ */

/* The SIMD levels this CPU runs, scalar (the per-cell reference) first. @return how many. */
static int levels_here(int *lv)
{
    int n = 0;
    for (int l = SB_SIMD_SCALAR; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l))
            lv[n++] = l;
    return n;
}

/* What one level's solver found for a puzzle: the count and guesses at limit 3, and up to
 * 40 solutions listed in order; the same count from pencil marks. */
typedef struct run16 {
    sb_gresult r;           /* sb_gsolve at limit 3 */
    uint8_t first[256];     /* its first solution */
    listing l;              /* sb_gsolve_each at limit 40 */
    sb_gresult each;        /* its result */
    sb_gresult cand;        /* sb_gsolve_candidates at limit 3 */
    uint8_t cfirst[256];    /* its first solution */
} run16;

/* Runs p on a solver at level lv with budget (UINT64_MAX: none) into *out, and (cand not
 * NULL) the pencil marks cand. @return what sb_gsolve returned. */
static int run_level(const sb_geometry *g, const houses *H, int lv, uint64_t budget,
                     const uint8_t *p, const uint64_t *cand, run16 *out)
{
    sb_gsolver *s = NULL;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    cr_assert_eq(sb_gsolver_simd(s, lv), SB_OK, "level %s", sb_simd_name(lv));
    sb_gsolver_budget(s, budget);
    memset(out->first, 0, sizeof out->first);
    const int rc = sb_gsolve(s, p, 3, &out->r, out->first);
    memset(out->cfirst, 0, sizeof out->cfirst);
    if (cand)
        cr_assert_eq(sb_gsolve_candidates(s, cand, 3, &out->cand, out->cfirst), SB_OK);
    if (rc == SB_OK) {
        out->l = (listing){H, p, out->l.all, 0, 40, 0};
        cr_assert_eq(sb_gsolve_each(s, p, 40, collect, &out->l, &out->each), SB_OK);
    }
    sb_gsolver_free(s);
    return rc;
}

/* For one 16-digit boxed geometry: on dug puzzles (half of them minimal, so the search goes
 * deep) and their mutations, every level finds the
 * reference's count (= the oracle's), guesses, first solution and the same first 40
 * solutions in the same order; with a small guess budget every level stops at the same
 * point. From pencil marks (the puzzle's, with digits cut from some blanks, the solution's
 * among them at times) every level finds the reference's count, guesses and first solution. */
static void kernel16_agrees(const char *spec, int bases, int per_base, uint64_t seed)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    int lv[SB_SIMD_LEVELS];
    const int nl = levels_here(lv);
    ref_rng rng;
    ref_rng_seed(&rng, seed);
    static uint8_t full[256], base[256], p[256];
    static run16 runs[SB_SIMD_LEVELS];
    for (int i = 0; i < nl; i++)
        runs[i].l.all = malloc(40 * 256);
    int seen[3] = {0}, cseen[3] = {0};
    static uint64_t cand[256];
    for (int b = 0; b < bases; b++) {
        full_grid(g, &H, &rng, full);
        dig_unique(g, &H, &rng, full, base, b % 2 ? 256 : 150); /* every other one minimal */
        for (int m = 0; m < per_base; m++) {
            mutate(&H, &rng, base, full, m, p);
            if (m % 7 == 6) /* more blanks: many solutions to list */
                for (int k = 0; k < 12; k++)
                    p[ref_rng_below(&rng, 256)] = 0;
            /* The pencil marks' cuts draw from their own stream: the puzzles stay as they
             * were. */
            ref_rng cuts;
            ref_rng_seed(&cuts, seed * 1000 + (uint64_t)b * 100 + (uint64_t)m);
            for (int c = 0; c < 256; c++)
                cand[c] = p[c] ? UINT64_C(1) << (p[c] - 1) : 0xFFFF;
            for (int k = m % 3 * 8; k > 0; k--) {
                const int c = ref_rng_below(&cuts, 256);
                if (!p[c])
                    cand[c] &= ~(UINT64_C(1) << ref_rng_below(&cuts, 16));
            }
            for (int i = 0; i < nl; i++)
                cr_assert_eq(run_level(g, &H, lv[i], UINT64_MAX, p, cand, &runs[i]), SB_OK);
            cseen[runs[0].cand.count > 2 ? 2 : runs[0].cand.count]++;
            const uint64_t want = oracle(&H, p, 3, NULL);
            cr_assert_eq(runs[0].r.count, want, "%s: reference %llu, oracle %llu", spec,
                         (unsigned long long)runs[0].r.count, (unsigned long long)want);
            seen[want > 2 ? 2 : want]++;
            for (int i = 1; i < nl; i++) {
                const char *ln = sb_simd_name(lv[i]);
                cr_assert_eq(runs[i].r.count, want, "%s %s: count", spec, ln);
                cr_assert_eq(runs[i].r.guesses, runs[0].r.guesses, "%s %s: %llu guesses, "
                             "reference %llu", spec, ln, (unsigned long long)runs[i].r.guesses,
                             (unsigned long long)runs[0].r.guesses);
                cr_assert_eq(memcmp(runs[i].first, runs[0].first, 256), 0, "%s %s: first", spec, ln);
                cr_assert_eq(runs[i].each.count, runs[0].each.count, "%s %s: listed", spec, ln);
                cr_assert_eq(runs[i].each.guesses, runs[0].each.guesses, "%s %s: listing guesses",
                             spec, ln);
                cr_assert_eq(memcmp(runs[i].l.all, runs[0].l.all, runs[0].l.n * 256), 0,
                             "%s %s: solutions listed in another order", spec, ln);
                cr_assert_eq(runs[i].cand.count, runs[0].cand.count, "%s %s: count from pencil "
                             "marks %llu, reference %llu", spec, ln,
                             (unsigned long long)runs[i].cand.count,
                             (unsigned long long)runs[0].cand.count);
                cr_assert_eq(runs[i].cand.guesses, runs[0].cand.guesses, "%s %s: guesses from "
                             "pencil marks", spec, ln);
                cr_assert_eq(memcmp(runs[i].cfirst, runs[0].cfirst, 256), 0,
                             "%s %s: first solution from pencil marks", spec, ln);
            }
            if (want && runs[0].r.guesses > 2) { /* the budget stops every level alike */
                const uint64_t budget = runs[0].r.guesses / 2;
                for (int i = 0; i < nl; i++)
                    cr_assert_eq(run_level(g, &H, lv[i], budget, p, NULL, &runs[i]), SB_ERR_BUDGET,
                                 "%s %s: budget", spec, sb_simd_name(lv[i]));
                for (int i = 1; i < nl; i++)
                    cr_assert_eq(runs[i].r.count, runs[0].r.count, "%s: count in budget", spec);
            }
        }
    }
    cr_assert(seen[0] && seen[1] && seen[2], "%s: 0/1/2+ seen %d/%d/%d times", spec, seen[0],
              seen[1], seen[2]);
    cr_assert(cseen[0] && cseen[1] && cseen[2], "%s: from pencil marks 0/1/2+ seen %d/%d/%d "
              "times", spec, cseen[0], cseen[1], cseen[2]);
    for (int i = 0; i < nl; i++)
        free(runs[i].l.all);
    sb_geometry_free(g);
}

Test(kernel16, a_level_this_cpu_lacks_is_refused_and_the_solver_still_works)
{
    static houses H;
    sb_geometry *g = geo_and_houses("4x4", &H);
    sb_gsolver *s = NULL;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    int lacked = -1;
    for (int l = SB_SIMD_LEVELS - 1; l > SB_SIMD_SCALAR && lacked < 0; l--)
        if (!sb_simd_supported(l))
            lacked = l;
    cr_assert_geq(lacked, 0, "every SIMD level supported: none to refuse");
    cr_assert_eq(sb_gsolver_simd(s, SB_SIMD_SCALAR), SB_OK);
    cr_assert_eq(sb_gsolver_simd(s, lacked), SB_ERR_SIMD, "%s", sb_simd_name(lacked));
    cr_assert_eq(sb_gsolver_simd(s, 99), SB_ERR_SIMD);
    uint8_t empty[256] = {0}, sol[256];
    sb_gresult r;
    cr_assert_eq(sb_gsolve(s, empty, 1, &r, sol), SB_OK); /* still a working solver */
    cr_assert_eq(r.count, 1);
    cr_assert(houses_valid(&H, empty, sol));
    sb_gsolver_free(s);
    sb_geometry_free(g);
}

Test(kernel16, boxed_4x4_every_level_equals_the_reference)
{
    kernel16_agrees("4x4", 2, 21, 31);
}
Test(kernel16, boxed_2x8_every_level_equals_the_reference)
{
    kernel16_agrees("2x8", 2, 14, 32);
}
Test(kernel16, boxed_8x2_every_level_equals_the_reference)
{
    kernel16_agrees("8x2", 2, 14, 33);
}

/* ------------------------------------------------------------------------------------------ */
/* The general solver on 9x9 against the fast kernel                                          */
/* ------------------------------------------------------------------------------------------ */

/* The first `take` puzzles of each committed sample: count (limit 2) and first solution of
 * the general solver equal sb_solve's. */
Test(fast_kernel, general_solver_agrees_on_the_samples)
{
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/hardest_11plus_1000.txt",
                                        "datasets/samples/top1465.txt"};
    const int take = 100;
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    sb_gsolver *gs = NULL;
    cr_assert_eq(sb_gsolver_new(g, &gs), SB_OK);
    sb_options opt;
    sb_options_default(&opt);
    sb_solver *fs = NULL;
    cr_assert_eq(sb_solver_new(&fs, &opt), SB_OK);
    int total = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        FILE *in = fopen(files[f], "r");
        cr_assert_not_null(in, "%s: run the tests from the repository root", files[f]);
        char line[1100];
        int n = 0;
        while (n < take && fgets(line, sizeof line, in)) {
            size_t len = strcspn(line, "\r\n");
            sb_grid grid;
            if (sb_parse_line(line, len, &grid, NULL, NULL) != SB_LINE_PUZZLE)
                continue;
            uint8_t cells[81], sol[81];
            char why[SB_GEO_WHY_LEN];
            cr_assert_eq(sb_gparse(g, line, len, cells, NULL, why, sizeof why, NULL), SB_OK,
                         "%s: %s", files[f], why);
            cr_assert_eq(memcmp(cells, grid.cell, 81), 0);
            sb_result fr;
            cr_assert_eq(sb_solve(fs, &grid, &fr), SB_OK);
            sb_gresult gr;
            cr_assert_eq(sb_gsolve(gs, cells, 2, &gr, sol), SB_OK);
            cr_assert_eq(gr.count, fr.count, "%s puzzle %d: general %llu, fast %llu", files[f],
                         n + 1, (unsigned long long)gr.count, (unsigned long long)fr.count);
            if (fr.count)
                cr_assert_eq(memcmp(sol, fr.solution.cell, 81), 0, "%s puzzle %d: solutions differ",
                             files[f], n + 1);
            n++;
        }
        fclose(in);
        cr_assert_eq(n, take, "%s: only %d puzzles", files[f], n);
        total += n;
    }
    cr_assert_eq(total, 300);
    sb_solver_free(fs);
    sb_gsolver_free(gs);
    sb_geometry_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* The generic pipelines on any geometry (sb_gpipeline)                                       */
/* ------------------------------------------------------------------------------------------ */

/* The pipelines run on every geometry: the registry's but fast (the general solver), and
 * custom specs putting every technique in every order. */
static const char *const GPIPES[] = {"list", "array", "restart", "singles", "none",
                                     "array:ns,hs,lc,nt,ht", "list:ht,nt,lc,hs",
                                     "restart:hs,ht2,nt3,lc,ns,ht4,nt2"};
#define NGPIPES (sizeof GPIPES / sizeof *GPIPES)

/* Creates pipeline spec on g, asserting it is accepted. */
static sb_gpipeline *gpipe(const sb_geometry *g, const char *spec)
{
    sb_gpipeline *p = NULL;
    const int rc = sb_gpipeline_new(g, spec, &p);
    cr_assert_eq(rc, SB_OK, "%s on %s: %d (%s)", spec, sb_geometry_name(g), rc, sb_strerror(rc));
    return p;
}

/* For one geometry: puzzles made as mutations_agree makes them; every pipeline of GPIPES
 * counts each to 2 as the oracle does, its first solution valid by the test's own rules (the
 * oracle's when unique), and 0, 1 and 2+ all occur (2+ where at least half the cells were
 * tried for digging: a lightly dug 5x5 keeps one solution after a few removals). */
static void gpipelines_agree(const char *spec, int bases, int per_base, int tries, uint64_t seed)
{
    static houses H;
    sb_geometry *g = geo_and_houses(spec, &H);
    sb_gpipeline *gp[NGPIPES];
    for (size_t i = 0; i < NGPIPES; i++)
        gp[i] = gpipe(g, GPIPES[i]);
    ref_rng rng;
    ref_rng_seed(&rng, seed);
    static uint8_t full[4096], base[4096], p[4096], sol[4096], want_sol[4096];
    int seen[3] = {0};
    for (int b = 0; b < bases; b++) {
        full_grid(g, &H, &rng, full);
        dig_unique(g, &H, &rng, full, base, tries);
        for (int m = 0; m < per_base; m++) {
            mutate(&H, &rng, base, full, m, p);
            const uint64_t want = oracle(&H, p, 2, want_sol);
            for (size_t i = 0; i < NGPIPES; i++) {
                sb_gresult r;
                memset(sol, 0, (size_t)H.ncells);
                const int rc = sb_gpipeline_solve(gp[i], p, 2, &r, sol);
                cr_assert_eq(rc, SB_OK, "%s %s: %d", spec, GPIPES[i], rc);
                cr_assert_eq(r.count, want, "%s %s base %d mutation %d: %llu solutions, oracle %llu",
                             spec, GPIPES[i], b, m, (unsigned long long)r.count,
                             (unsigned long long)want);
                if (want)
                    cr_assert(houses_valid(&H, p, sol), "%s %s: first solution invalid", spec,
                              GPIPES[i]);
                if (want == 1)
                    cr_assert_arr_eq(sol, want_sol, (size_t)H.ncells, "%s %s: not the oracle's",
                                     spec, GPIPES[i]);
            }
            seen[want]++;
        }
    }
    cr_assert(seen[0] && seen[1] && (seen[2] || tries < H.ncells / 2),
              "%s: 0/1/2+ seen %d/%d/%d times", spec, seen[0], seen[1], seen[2]);
    for (size_t i = 0; i < NGPIPES; i++)
        sb_gpipeline_free(gp[i]);
    sb_geometry_free(g);
}

Test(gpipelines, boxed_2x2) { gpipelines_agree("2x2", 4, 20, 4096, 11); }
Test(gpipelines, boxed_2x3) { gpipelines_agree("2x3", 4, 20, 4096, 12); }
Test(gpipelines, boxed_3x4) { gpipelines_agree("3x4", 2, 15, 4096, 13); }
Test(gpipelines, boxed_4x4) { gpipelines_agree("4x4", 1, 15, 150, 14); }
Test(gpipelines, boxed_5x5_light) { gpipelines_agree("5x5", 1, 10, 200, 15); }
Test(gpipelines, latin_5) { gpipelines_agree("latin:5", 4, 20, 4096, 16); }
Test(gpipelines, x_3x3) { gpipelines_agree("x:3x3", 3, 20, 4096, 17); }
Test(gpipelines, cube_3) { gpipelines_agree("cube:3", 4, 20, 4096, 18); }
Test(gpipelines, jigsaw_file) { gpipelines_agree("jigsaw", 4, 20, 4096, 19); }

/* Orders two 16-cell grids (qsort). */
static int cmp_grid16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* Every pipeline enumerates the 288 4x4 Sudoku grids and the 576 order-4 latin squares, each
 * valid and distinct. */
Test(gpipelines, enumerate_every_solution_once)
{
    static const struct {
        const char *spec; /* geometry */
        uint64_t count;   /* its full grids */
    } cases[] = {{"2x2", 288}, {"latin:4", 576}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        static houses H;
        sb_geometry *g = geo_and_houses(cases[k].spec, &H);
        const uint8_t empty[16] = {0};
        for (size_t i = 0; i < NGPIPES; i++) {
            sb_gpipeline *p = gpipe(g, GPIPES[i]);
            listing l = {&H, empty, malloc(cases[k].count * 16), 0, cases[k].count, 0};
            sb_gresult r;
            cr_assert_eq(sb_gpipeline_each(p, empty, 0, collect, &l, &r), SB_OK);
            cr_assert_eq(r.count, cases[k].count, "%s %s: %llu", cases[k].spec, GPIPES[i],
                         (unsigned long long)r.count);
            cr_assert_eq(l.n, cases[k].count);
            qsort(l.all, l.n, 16, cmp_grid16);
            for (uint64_t j = 1; j < l.n; j++)
                cr_assert_neq(memcmp(l.all + 16 * (j - 1), l.all + 16 * j, 16), 0,
                              "%s %s: a solution listed twice", cases[k].spec, GPIPES[i]);
            free(l.all);
            sb_gpipeline_free(p);
        }
        sb_geometry_free(g);
    }
}

/* Locked candidates need two houses meeting in 2..N-1 cells: a latin square has none, so a
 * plan with lc says it is skipped there (and nowhere else); "fast" and bad specs are refused;
 * a budget stops a search that needs guesses. */
Test(gpipelines, skipped_techniques_refusals_and_budget)
{
    static const char *const specs[] = {"2x2", "3x3", "x:3x3", "cube:3", "latin:5", "latin:9"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        sb_geometry *g = NULL;
        cr_assert_eq(sb_geometry_parse(specs[i], &g, NULL, 0), SB_OK);
        const unsigned want = !strncmp(specs[i], "latin:", 6) ? 1u << SB_TECH_LOCKED : 0;
        sb_gpipeline *p = gpipe(g, "restart:ns,hs,lc");
        cr_assert_eq(sb_gpipeline_skipped(p), want, "%s: skipped %#x", specs[i],
                     sb_gpipeline_skipped(p));
        sb_gpipeline_free(p);
        p = gpipe(g, "list:ns,hs,nt,ht");
        cr_assert_eq(sb_gpipeline_skipped(p), 0, "%s: no lc, nothing skipped", specs[i]);
        sb_gpipeline_free(p);
        sb_gpipeline *bad = (sb_gpipeline *)1;
        cr_assert_eq(sb_gpipeline_new(g, "fast", &bad), SB_ERR_PIPELINE);
        cr_assert_null(bad);
        cr_assert_eq(sb_gpipeline_new(g, "list:ns,xx", &bad), SB_ERR_PIPELINE);
        cr_assert_eq(sb_gpipeline_new(g, "nosuch", &bad), SB_ERR_PIPELINE);
        cr_assert_eq(sb_gpipeline_new(g, NULL, &bad), SB_ERR_ARG);
        sb_geometry_free(g);
    }
    /* The empty 2x3 grid needs guesses: a budget of 0 stops it; a digit above N is refused. */
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("2x3", &g, NULL, 0), SB_OK);
    sb_gpipeline *p = gpipe(g, "array");
    uint8_t cells[36] = {0};
    sb_gresult r;
    sb_gpipeline_budget(p, 0);
    cr_assert_eq(sb_gpipeline_solve(p, cells, 2, &r, NULL), SB_ERR_BUDGET);
    cr_assert_eq(sb_gpipeline_root(p, cells), 2);
    sb_gpipeline_budget(p, UINT64_MAX);
    cr_assert_eq(sb_gpipeline_solve(p, cells, 2, &r, NULL), SB_OK);
    cr_assert_eq(r.count, 2);
    cells[5] = 7;
    cr_assert_eq(sb_gpipeline_solve(p, cells, 2, &r, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gpipeline_root(p, cells), SB_ERR_ARG);
    sb_gpipeline_free(p);
    sb_geometry_free(g);
}

/* On the 3x3 geometry the generic engine is pipeline.c's: for every registry pipeline but
 * fast and a few custom specs, on sample puzzles and on copies with three givens removed
 * (many with several solutions, where the first found depends on the whole search), the
 * count, guesses and first solution equal sb_solve's, and so do the technique counters. */
Test(gpipelines, equal_the_9x9_engine_on_9x9)
{
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/hardest_11plus_1000.txt",
                                        "datasets/samples/top1465.txt"};
    static const char *const specs[] = {"list", "array", "restart", "singles", "none",
                                        "array:ns,hs,lc,nt,ht", "list:ht,nt,lc,hs",
                                        "restart:lc,ht3,nt2,hs,ns"};
    enum { TAKE = 8 };
    static uint8_t puzzles[2 * 3 * TAKE][81];
    int np = 0;
    ref_rng rng;
    ref_rng_seed(&rng, 99);
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        FILE *in = fopen(files[f], "r");
        cr_assert_not_null(in, "%s: run the tests from the repository root", files[f]);
        char line[1100];
        int n = 0;
        while (n < TAKE && fgets(line, sizeof line, in)) {
            sb_grid grid;
            if (sb_parse_line(line, strcspn(line, "\r\n"), &grid, NULL, NULL) != SB_LINE_PUZZLE)
                continue;
            memcpy(puzzles[np++], grid.cell, 81);
            memcpy(puzzles[np], grid.cell, 81);
            for (int k = 0; k < 3; k++)
                puzzles[np][ref_rng_below(&rng, 81)] = 0;
            np++;
            n++;
        }
        fclose(in);
    }
    cr_assert_eq(np, 2 * 3 * TAKE);
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    int multiple = 0;
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        sb_options opt;
        sb_options_default(&opt);
        cr_assert_eq(sb_options_pipeline(&opt, specs[s]), SB_OK);
        sb_solver *ref = NULL;
        cr_assert_eq(sb_solver_new(&ref, &opt), SB_OK);
        sb_gpipeline *p = gpipe(g, specs[s]);
        for (int i = 0; i < np; i++) {
            sb_grid grid;
            memcpy(grid.cell, puzzles[i], 81);
            sb_result want;
            sb_gresult got;
            uint8_t sol[81] = {0};
            cr_assert_eq(sb_solve(ref, &grid, &want), SB_OK);
            cr_assert_eq(sb_gpipeline_solve(p, puzzles[i], 2, &got, sol), SB_OK);
            cr_assert_eq(got.count, want.count, "%s puzzle %d: count %llu, 9x9 %llu", specs[s], i,
                         (unsigned long long)got.count, (unsigned long long)want.count);
            cr_assert_eq(got.guesses, want.guesses, "%s puzzle %d: guesses %llu, 9x9 %llu",
                         specs[s], i, (unsigned long long)got.guesses,
                         (unsigned long long)want.guesses);
            if (want.count)
                cr_assert_arr_eq(sol, want.solution.cell, 81, "%s puzzle %d: first solutions differ",
                                 specs[s], i);
            multiple += want.count == 2;
        }
        sb_technique_counts a[SB_TECH_COUNT], b[SB_TECH_COUNT];
        sb_solver_counts(ref, a);
        sb_gpipeline_counts(p, b);
        for (int t = 0; t < SB_TECH_COUNT; t++)
            cr_assert(a[t].applications == b[t].applications && a[t].placements == b[t].placements &&
                          a[t].eliminations == b[t].eliminations,
                      "%s technique %d: counters %llu/%llu/%llu, 9x9 %llu/%llu/%llu", specs[s], t,
                      (unsigned long long)b[t].applications, (unsigned long long)b[t].placements,
                      (unsigned long long)b[t].eliminations, (unsigned long long)a[t].applications,
                      (unsigned long long)a[t].placements, (unsigned long long)a[t].eliminations);
        sb_gpipeline_counts_reset(p);
        sb_gpipeline_counts(p, b);
        cr_assert_eq(b[SB_TECH_NAKED_SINGLE].eliminations, 0);
        sb_gpipeline_free(p);
        sb_solver_free(ref);
    }
    cr_assert(multiple > 0, "no puzzle with several solutions among the copies");
    sb_geometry_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* Grid text                                                                                  */
/* ------------------------------------------------------------------------------------------ */

Test(codec, characters_and_integers_round_trip)
{
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("4x4", &g, NULL, 0), SB_OK);
    uint8_t cells[256], back[256];
    for (int c = 0; c < 256; c++)
        cells[c] = (uint8_t)((c * 7) % 17); /* 0..16: blanks and every digit */
    char text[1024];
    int form;
    for (int f = SB_GFORM_CHARS; f <= SB_GFORM_INTS; f++) {
        int len = sb_gformat(g, cells, f, text, sizeof text);
        cr_assert_eq((size_t)len, strlen(text));
        cr_assert_eq(sb_gparse(g, text, (size_t)len, back, &form, NULL, 0, NULL), SB_OK, "%s",
                     text);
        cr_assert_eq(form, f);
        cr_assert_eq(memcmp(cells, back, 256), 0);
    }
    cr_assert_eq(text[0], '0');
    sb_gformat(g, cells, SB_GFORM_CHARS, text, sizeof text);
    cr_assert_eq(text[0], '.', "blanks are written as '.'");
    cr_assert_eq(text[12], 'G', "16 (cell 12) is written as 'G'");
    /* Too small a buffer: the needed length back, and a NUL-terminated prefix of whole
     * cells ("0,7" of "0,7,14,..."). */
    const int need = sb_gformat(g, cells, SB_GFORM_INTS, NULL, 0);
    char small[5];
    cr_assert_eq(sb_gformat(g, cells, SB_GFORM_INTS, small, sizeof small), need);
    cr_assert_gt(need, 256);
    cr_assert_str_eq(small, "0,7");
    sb_geometry_free(g);

    /* N = 64: only the integer form writes it. */
    cr_assert_eq(sb_geometry_parse("8x8", &g, NULL, 0), SB_OK);
    static uint8_t big[4096], big2[4096];
    static char bigtext[4096 * 4];
    big[4095] = 64;
    cr_assert_eq(sb_gformat(g, big, SB_GFORM_CHARS, bigtext, sizeof bigtext), SB_ERR_ARG);
    int len = sb_gformat(g, big, SB_GFORM_INTS, bigtext, sizeof bigtext);
    cr_assert_gt(len, 0);
    cr_assert_eq(sb_gparse(g, bigtext, (size_t)len, big2, NULL, NULL, 0, NULL), SB_OK);
    cr_assert_eq(big2[4095], 64);
    sb_geometry_free(g);
}

/* The character form at its widest (N = 35): every value's character, a prefix of whole
 * cells when the buffer is short, and a cell above N refused. */
Test(codec, characters_cover_the_alphabet_and_truncate)
{
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("5x7", &g, NULL, 0), SB_OK);
    const int nc = sb_geometry_cells(g);
    cr_assert_eq(nc, 35 * 35);
    static uint8_t cells[35 * 35];
    static char text[35 * 35 + 1], want[35 * 35 + 1];
    const char *names = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int c = 0; c < nc; c++) {
        cells[c] = (uint8_t)((c * 11) % 36); /* 0..35, each value many times */
        want[c] = names[cells[c]];
    }
    want[nc] = '\0';
    cr_assert_eq(sb_gformat(g, cells, SB_GFORM_CHARS, text, sizeof text), nc);
    cr_assert_str_eq(text, want);
    cr_assert_eq(sb_gformat(g, cells, SB_GFORM_CHARS, NULL, 0), nc);
    char small[5] = "####";
    cr_assert_eq(sb_gformat(g, cells, SB_GFORM_CHARS, small, sizeof small), nc);
    cr_assert_str_eq(small, ".BMX", "the first four cells: 0, 11, 22, 33");
    cells[nc - 1] = 36;
    cr_assert_eq(sb_gformat(g, cells, SB_GFORM_CHARS, text, sizeof text), SB_ERR_ARG);
    sb_geometry_free(g);
}

Test(codec, errors_give_column_and_reason)
{
    sb_geometry *g = NULL;
    cr_assert_eq(sb_geometry_parse("2x2", &g, NULL, 0), SB_OK);
    struct { const char *text; size_t col; const char *says; } bad[] = {
        {"000000213004000", 16, "too few cells (15 of 16)"},
        {"00000021300400000", 17, "too many cells (more than 16)"},
        {"0000002150040000", 9, "digit '5' out of range 1..4"},
        {"00000021300400?0", 15, "unexpected character '?'"},
        {"00000021300400x0", 15, "digit 'x' out of range 1..4"},
        {"0,0,0,0,0,0,2,1,3,0,0,4,0,0,0", 30, "too few cells (15 of 16)"},
        {"0,0,0,0,0,0,2,1,3,0,0,4,0,0,0,0,0", 33, "too many cells"},
        {"0,0,0,0,0,0,2,9,3,0,0,4,0,0,0,0", 15, "value 9 out of range 0..4"},
        {"0,0,0,0,0,0,2,1,3,0,0,4,0,0,0,", 31, "expected a number after ','"},
        {"0,0,0,0,0,0,2,1,3,0,0,4,0,,0,0", 27, "unexpected character ','"},
        {"1 2 3 4 x", 9, "unexpected character 'x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t cells[16];
        char why[SB_GEO_WHY_LEN] = "";
        size_t col = 0;
        cr_assert_eq(sb_gparse(g, bad[i].text, strlen(bad[i].text), cells, NULL, why, sizeof why,
                               &col),
                     SB_ERR_ARG, "'%s'", bad[i].text);
        cr_assert(strstr(why, bad[i].says), "'%s': '%s' lacks '%s'", bad[i].text, why, bad[i].says);
        cr_assert_eq(col, bad[i].col, "'%s': column %zu, want %zu", bad[i].text, col, bad[i].col);
    }
    /* Spaces as separators, surrounding blanks and CR are fine; '.' blanks in both forms. */
    uint8_t cells[16];
    const char *ok[] = {"  ....00213004.000 \r", "0 0 0 0  0 0 2 1\t3 0 0 4 0 0 0 ."};
    for (size_t i = 0; i < 2; i++) {
        cr_assert_eq(sb_gparse(g, ok[i], strlen(ok[i]), cells, NULL, NULL, 0, NULL), SB_OK, "%s",
                     ok[i]);
        cr_assert_eq(cells[6], 2);
        cr_assert_eq(cells[11], 4);
        cr_assert_eq(cells[15], 0);
    }
    /* A clash is a puzzle with no solution, not a parse error; digits above N are refused. */
    uint8_t clash[16] = {1, 1};
    cr_assert_eq(gsolve(g, clash, 0, NULL).count, 0);
    uint8_t high[16] = {5};
    sb_gsolver *s = NULL;
    sb_gresult r;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    cr_assert_eq(sb_gsolve(s, high, 0, &r, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gsolve_each(s, clash, 0, NULL, NULL, &r), SB_ERR_ARG);
    sb_gsolver_free(s);
    /* The checker: givens kept, every digit once per house. */
    uint8_t p[16] = {0}, sol[16];
    cr_assert_eq(gsolve(g, p, 1, sol).count, 1);
    cr_assert(sb_gsolution_check(g, NULL, sol));
    p[0] = (uint8_t)(sol[0] % 4 + 1);
    cr_assert_not(sb_gsolution_check(g, p, sol), "a given not kept");
    uint8_t t = sol[0];
    sol[0] = sol[1];
    sol[1] = t;
    cr_assert_not(sb_gsolution_check(g, NULL, sol), "a row with a digit twice");
    sb_geometry_free(g);
}

/* ------------------------------------------------------------------------------------------ */
/* Geometry files: the line bound, out of memory, repeated houses, the house count, text after */
/* a jigsaw, '#' and region names, a BOM, a large house list (docs/geometry.md, "Geometry     */
/* files")                                                                                    */
/* ------------------------------------------------------------------------------------------ */

#include <sys/resource.h>

/* The reader's documented bound on a line (docs/geometry.md), typed again here. */
#define GEO_LINE_BOUND 4096

/* An endless input served through a cookie stream: zero bytes (as /dev/zero gives), or a
 * "houses 4096 64" list of distinct houses. It counts the bytes the reader pulls and ends
 * after cap of them, so a reader that buffers a whole line fails a count, not the machine. */
typedef struct endless {
    int houses;                /* 0: zero bytes; 1: the house list */
    unsigned long long cap;    /* the stream ends after this many bytes */
    unsigned long long pulled; /* bytes handed out so far */
    long long next;            /* the next house to write (houses: -1 the header) */
    char line[512];            /* the current line of the house list, and how much is served */
    size_t len, pos;
} endless;

/* cookie read: the next bytes of the endless input. */
static ssize_t endless_read(void *cookie, char *buf, size_t size)
{
    endless *z = cookie;
    size_t got = 0;
    while (got < size && z->pulled < z->cap) {
        if (!z->houses) {
            buf[got] = '\0';
        } else {
            if (z->pos == z->len) { /* house i: one cell of each block of 64, distinct per i */
                int k = 0;
                if (z->next < 0)
                    k = snprintf(z->line, sizeof z->line, "houses 4096 64\n");
                for (int j = 0; j < 64 && z->next >= 0; j++) {
                    const long long f = j < 3 ? z->next >> (6 * j) : z->next + j;
                    k += snprintf(z->line + k, sizeof z->line - (size_t)k, "%lld%c",
                                  64 * j + (f & 63), j == 63 ? '\n' : ' ');
                }
                z->next++;
                z->len = (size_t)k;
                z->pos = 0;
            }
            buf[got] = z->line[z->pos++];
        }
        got++;
        z->pulled++;
    }
    return (ssize_t)got;
}

/* Reads the endless input z as a geometry file named src. */
static int read_endless(endless *z, const char *src, sb_geometry **g, char *why, size_t len)
{
    FILE *f = fopencookie(z, "r", (cookie_io_functions_t){.read = endless_read});
    cr_assert_not_null(f);
    int rc = sb_geometry_read(f, src, g, why, len);
    fclose(f);
    return rc;
}

/* Asserts a and b are the same geometry: sizes, kind, name and every house in order. */
static void same_geometry(const sb_geometry *a, const sb_geometry *b)
{
    cr_assert_eq(sb_geometry_cells(a), sb_geometry_cells(b));
    cr_assert_eq(sb_geometry_digits(a), sb_geometry_digits(b));
    cr_assert_eq(sb_geometry_houses(a), sb_geometry_houses(b));
    cr_assert_eq(sb_geometry_kind_of(a), sb_geometry_kind_of(b));
    cr_assert_str_eq(sb_geometry_name(a), sb_geometry_name(b));
    for (int h = 0; h < sb_geometry_houses(a); h++)
        cr_assert_eq(memcmp(sb_geometry_house(a, h), sb_geometry_house(b, h),
                            (size_t)sb_geometry_digits(a) * sizeof(uint16_t)),
                     0, "house %d differs", h);
}

/* Reads text, which must be accepted, and checks it is the geometry of text want. */
static void reads_as(const char *text, const char *want)
{
    sb_geometry *a = NULL, *b = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    cr_assert_eq(read_text(want, &b, why, sizeof why), SB_OK, "'%s': %s", want, why);
    cr_assert_eq(read_text(text, &a, why, sizeof why), SB_OK, "'%s': %s", text, why);
    same_geometry(a, b);
    sb_geometry_free(a);
    sb_geometry_free(b);
}

/* Reads text, which must be refused with rc and exactly the message says. */
static void refused(const char *text, int rc, const char *says)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    const int got = read_text(text, &g, why, sizeof why);
    cr_assert_eq(got, rc, "'%.60s': rc %d (%s), want %d", text, got, why, rc);
    cr_assert_null(g);
    cr_assert_str_eq(why, says, "'%.60s': got '%s'", text, why);
}

static const char JIGSAW6[] = "jigsaw 6\nAAABBB\nAAABBB\nCCCDDD\nCCCFFD\nEEEDDF\nEEEFFF\n";

Test(geometry_file, a_line_past_the_bound_is_refused_without_buffering_it)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    /* /dev/zero: refused at line 1 after reading about the bound (plus stdio's read-ahead),
     * not after buffering what it can. */
    endless z = {.cap = 64ULL << 20};
    int rc = read_endless(&z, "/dev/zero", &g, why, sizeof why);
    cr_assert_eq(rc, SB_ERR_ARG, "rc %d: %s", rc, why);
    cr_assert_null(g);
    cr_assert_str_eq(why, "/dev/zero:1: line longer than 4096 bytes");
    cr_assert_leq(z.pulled, GEO_LINE_BOUND + 65536ULL, "%llu bytes pulled", z.pulled);

    /* The bound exactly, on a house line padded with spaces: 4096 bytes pass, with a final
     * \r on top too; 4097 do not, on any line (header, house, jigsaw row, comment). */
    static char text[3 * GEO_LINE_BOUND];
    const char *tail = "\n2 3\n0 2\n1 3\n";
    const char *const ends[] = {"", "\r", " "};
    for (int i = 0; i < 3; i++) {
        int k = snprintf(text, sizeof text, "houses 4 2\n0 1");
        while (k < 11 + GEO_LINE_BOUND)
            text[k++] = ' ';
        snprintf(text + k, sizeof text - (size_t)k, "%s%s", ends[i], tail);
        if (i < 2)
            reads_as(text, "houses 4 2\n0 1\n2 3\n0 2\n1 3\n");
        else
            refused(text, SB_ERR_ARG, "t.geo:2: line longer than 4096 bytes");
    }
    char pad[GEO_LINE_BOUND + 2];
    memset(pad, 'A', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    snprintf(text, sizeof text, "# %s\nhouses 4 2\n", pad);
    refused(text, SB_ERR_ARG, "t.geo:1: line longer than 4096 bytes");
    snprintf(text, sizeof text, "jigsaw 2\nAB\n%s\n", pad);
    refused(text, SB_ERR_ARG, "t.geo:3: line longer than 4096 bytes");
    snprintf(text, sizeof text, "%s# %s\n", JIGSAW6, pad);
    refused(text, SB_ERR_ARG, "t.geo:8: line longer than 4096 bytes");
}

Test(geometry_file, a_nul_byte_is_refused_with_its_line_and_column)
{
    /* Before, the NUL ended the line as a C string: "0 1\0 junk" read as "0 1" and the
     * rest of the line vanished without a word. Every kind of line is checked. */
    static const struct {
        const char *text;
        size_t len;
        int line, col;
    } cases[] = {
        {"houses 4 2\n0 1\0 junk\n2 3\n0 2\n1 3\n", 33, 2, 4},
        {"houses\0 4 2\n0 1\n", 16, 1, 7},
        {"# c\0\njigsaw 2\nAB\nAB\n", 20, 1, 4},
        {"jigsaw 2\nA\0\nAB\n", 15, 2, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sb_geometry *g = NULL;
        char why[SB_GEO_WHY_LEN] = "";
        FILE *f = fmemopen((void *)cases[i].text, cases[i].len, "r");
        cr_assert_not_null(f);
        const int rc = sb_geometry_read(f, "t.geo", &g, why, sizeof why);
        fclose(f);
        cr_assert_eq(rc, SB_ERR_ARG, "case %zu: rc %d (%s)", i, rc, why);
        cr_assert_null(g);
        char says[SB_GEO_WHY_LEN];
        snprintf(says, sizeof says, "t.geo:%d: column %d: NUL byte (a geometry file is text)",
                 cases[i].line, cases[i].col);
        cr_assert_str_eq(why, says, "case %zu", i);
    }
}

/* Whether this build runs under AddressSanitizer, whose allocator cannot live under an
 * address-space limit (it reserves terabytes of shadow memory). */
#if defined(__SANITIZE_ADDRESS__)
#define GEO_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GEO_TEST_ASAN 1
#endif
#endif
#ifndef GEO_TEST_ASAN
#define GEO_TEST_ASAN 0
#endif

Test(geometry_file, an_allocation_failure_is_out_of_memory_at_its_line)
{
    if (GEO_TEST_ASAN)
        cr_skip_test("an address-space limit cannot be set under AddressSanitizer");
    /* The process's address space now, plus 4 MiB: the endless house list needs more (its
     * 65536 houses of 64 cells alone are 8 MiB), so an allocation of the reader fails. */
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    cr_assert_not_null(statm);
    cr_assert_eq(fscanf(statm, "%lu", &pages), 1);
    fclose(statm);
    struct rlimit old, lim;
    cr_assert_eq(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * 4096 + (4u << 20);
    if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
        lim.rlim_cur = old.rlim_cur;
    endless z = {.houses = 1, .cap = 1ULL << 40, .next = -1};
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
    /* An emulator (qemu-user) may not enforce the limit; volatile, or clang drops the probe. */
    void *volatile probe = malloc(32u << 20);
    int rc = probe ? 0 : read_endless(&z, "t.geo", &g, why, sizeof why);
    free(probe);
    cr_assert_eq(setrlimit(RLIMIT_AS, &old), 0);
    if (probe)
        cr_skip_test("the address-space limit is not enforced here");
    cr_assert_eq(rc, SB_ERR_NOMEM, "rc %d: %s", rc, why);
    cr_assert_null(g);
    int line = 0, end = 0;
    cr_assert(sscanf(why, "t.geo:%d: out of memory%n", &line, &end) == 1 && why[end] == '\0' &&
                  line > 1,
              "'%s'", why);
}

Test(geometry_file, a_repeated_house_is_refused_naming_its_first_line)
{
    /* The same cells in any order, with any separators, and comments between. */
    refused("houses 4 2\n0 1\n2 3\n# again, reversed\n1 0\n0 2\n1 3\n", SB_ERR_ARG,
            "t.geo:5: house duplicates line 2");
    refused("houses 4 2\n0 1\n2,3\n0 2\n1 3\n3\t2 # once more\n", SB_ERR_ARG,
            "t.geo:6: house duplicates line 3");
    /* Three times: the first repeat is the error, against the first time. */
    refused("houses 6 3\n0 1 2\n3 4 5\n2 1 0\n1 0 2\n", SB_ERR_ARG,
            "t.geo:4: house duplicates line 2");
    /* Houses sharing all but one cell are not repeats. */
    reads_as("houses 4 3\n0 1 2\n0 1 3\n0 2 3\n1 2 3\n", "houses 4 3\n0,1,2\n0,1,3\n0,2,3\n1,2,3\n");
}

Test(geometry_file, at_most_65536_houses_as_their_indices_are_16_bits)
{
    /* Distinct pairs of 4096 cells: (0,1), (0,2), .. (0,4095), (1,2), ... */
    const int most = 65536;
    size_t cap = (size_t)(most + 2) * 12 + 32, k = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    k += (size_t)snprintf(text, cap, "houses 4096 2\n");
    int a = 0, b = 1, last_a = 0, last_b = 0;
    for (int h = 0; h < most; h++) {
        k += (size_t)snprintf(text + k, cap - k, "%d %d\n", b, a); /* listed high first */
        last_a = a;
        last_b = b;
        if (++b == 4096) {
            a++;
            b = a + 1;
        }
    }
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    cr_assert_eq(read_text(text, &g, why, sizeof why), SB_OK, "%s", why);
    cr_assert_eq(sb_geometry_houses(g), most);
    const uint16_t *last = sb_geometry_house(g, most - 1);
    cr_assert(last[0] == last_a && last[1] == last_b, "last house %d %d", last[0], last[1]);
    int count = 0;
    const uint16_t *ch = sb_geometry_cell_houses(g, last_b, &count);
    cr_assert_gt(count, 0);
    cr_assert_eq(ch[count - 1], most - 1, "cell %d's last house %d", last_b, ch[count - 1]);
    sb_geometry_free(g);
    /* One more is refused at its line (the header is line 1). */
    snprintf(text + k, cap - k, "%d %d\n", b, a);
    g = NULL;
    cr_assert_eq(read_text(text, &g, why, sizeof why), SB_ERR_ARG, "%s", why);
    cr_assert_null(g);
    cr_assert_str_eq(why, "t.geo:65538: more than 65536 houses");
    free(text);
}

Test(geometry_file, text_after_the_jigsaw_rows_is_refused)
{
    refused("jigsaw 2\nAB\nBA\nAB\n", SB_ERR_ARG, "t.geo:4: text after the 2 region rows");
    refused("jigsaw 2\nAB\nBA\n\n# end\n  stray\n", SB_ERR_ARG,
            "t.geo:6: text after the 2 region rows");
    char text[256];
    snprintf(text, sizeof text, "%sEEEFFF\n", JIGSAW6);
    refused(text, SB_ERR_ARG, "t.geo:8: text after the 6 region rows");
    /* Blank and comment lines after the rows are fine. */
    reads_as("jigsaw 2\nAB\nBA\n\n# end\n \t\n# more", "jigsaw 2\nAB\nBA\n");
}

Test(geometry_file, hash_starts_a_comment_and_names_no_region)
{
    /* Right after a region character it would be a region: refused. */
    refused("jigsaw 2\nA#\n#A\n", SB_ERR_ARG,
            "t.geo:2: column 2: '#' cannot name a region (it starts a comment)");
    refused("jigsaw 6\nAAABBB\nAA#BBB\n", SB_ERR_ARG,
            "t.geo:3: column 3: '#' cannot name a region (it starts a comment)");
    /* First on a row it makes the row a comment; the missing row is then explained. */
    refused("jigsaw 2\n#A\n#A\n", SB_ERR_ARG,
            "t.geo:3: file ends after 0 of 2 region rows (line 2 is a comment: '#' is no region)");
    /* After a blank it is a comment on any line: header, region rows, house lines. */
    reads_as("jigsaw 6   # six by six\nAAABBB  # band 1\nAAABBB\t#\nCCCDDD # band 2\nCCCFFD\n"
             "EEEDDF #\nEEEFFF # last\n",
             JIGSAW6);
    reads_as("houses 4 2 # a 2x2 latin square\n0 1 # row\n2 3#row\n0 2\n1 3\n",
             "houses 4 2\n0 1\n2 3\n0 2\n1 3\n");
    /* A row too short before its comment is a short row. */
    refused("jigsaw 2\nA # b\n", SB_ERR_ARG, "t.geo:2: region row has 1 characters, need 2");
}

Test(geometry_file, a_utf8_bom_is_skipped)
{
    char text[256];
    snprintf(text, sizeof text, "\xEF\xBB\xBF%s", JIGSAW6);
    reads_as(text, JIGSAW6);
    reads_as("\xEF\xBB\xBF# a comment first\nhouses 4 2\n0 1\n2 3\n0 2\n1 3\n",
             "houses 4 2\n0 1\n2 3\n0 2\n1 3\n");
    reads_as("\xEF\xBB\xBF\r\nhouses 4 2\r\n0 1\r\n2 3\r\n0 2\r\n1 3\r\n",
             "houses 4 2\n0 1\n2 3\n0 2\n1 3\n");
    /* Only at the start of the file. */
    refused("\xEF\xBB\xBF", SB_ERR_ARG,
            "t.geo:1: empty: expected 'jigsaw N' or 'houses CELLS N'");
    refused("\n\xEF\xBB\xBFhouses 4 2\n", SB_ERR_ARG,
            "t.geo:2: expected 'jigsaw N' (N 1..64) or 'houses CELLS N' (CELLS <= 4096, N <= 64)");
}

Test(geometry_file, a_large_house_list_loads_whole)
{
    /* 20,000 houses of 64 of 4096 cells, each a stretch of a shuffled deck (a fixed LCG), its
     * cells listed unsorted with mixed separators; every cell is in the first 64. The test's
     * own tables: each house sorted, each cell's houses, each cell's peers as a bitset. */
    enum { CELLS = 4096, N = 64, NH = 20000, W = CELLS / 64 };
    static int deck[CELLS], house[NH][N];
    static uint64_t peers[CELLS][W];
    static int nof[CELLS];
    uint64_t seed = 12345;
    const size_t cap = (size_t)NH * N * 6 + 64;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    size_t k = (size_t)snprintf(text, cap, "houses %d %d\n", CELLS, N);
    for (int h = 0; h < NH; h++) {
        if (h % (CELLS / N) == 0) {
            for (int i = 0; i < CELLS; i++)
                deck[i] = i;
            for (int i = CELLS - 1; i > 0; i--) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                const int j = (int)((seed >> 33) % (uint64_t)(i + 1)), t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
            }
        }
        for (int i = 0; i < N; i++) {
            house[h][i] = deck[(h % (CELLS / N)) * N + i];
            k += (size_t)snprintf(text + k, cap - k, "%d%s", house[h][i],
                                  i == N - 1 ? "\n" : i % 3 ? " " : ", ");
        }
        qsort(house[h], N, sizeof house[h][0], cmp_int);
        for (int i = 0; i < N; i++) {
            const int c = house[h][i];
            nof[c]++;
            for (int j = 0; j < N; j++)
                if (house[h][j] != c)
                    peers[c][house[h][j] / 64] |= UINT64_C(1) << (house[h][j] % 64);
        }
    }
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    cr_assert_eq(read_text(text, &g, why, sizeof why), SB_OK, "%s", why);
    free(text);
    cr_assert_eq(sb_geometry_cells(g), CELLS);
    cr_assert_eq(sb_geometry_houses(g), NH);
    for (int h = 0; h < NH; h++)
        for (int i = 0; i < N; i++)
            cr_assert_eq(sb_geometry_house(g, h)[i], house[h][i], "house %d cell %d", h, i);
    for (int c = 0; c < CELLS; c++) {
        int count = 0, prev = -1;
        const uint16_t *ch = sb_geometry_cell_houses(g, c, &count);
        cr_assert_eq(count, nof[c], "cell %d: %d houses, want %d", c, count, nof[c]);
        for (int i = 0; i < count; i++) {
            cr_assert_gt(ch[i], prev, "cell %d: houses not ascending", c);
            prev = ch[i];
            const int *hc = house[ch[i]];
            int in = 0;
            for (int j = 0; j < N; j++)
                in |= hc[j] == c;
            cr_assert(in, "cell %d listed in house %d", c, ch[i]);
        }
        const uint16_t *p = sb_geometry_peers(g, c, &count);
        int want = 0;
        for (int w = 0; w < W; w++)
            want += __builtin_popcountll(peers[c][w]);
        cr_assert_eq(count, want, "cell %d: %d peers, want %d", c, count, want);
        for (int i = 0; i < count; i++)
            cr_assert(peers[c][p[i] / 64] >> (p[i] % 64) & 1, "cell %d: peer %d", c, p[i]);
        for (int i = 1; i < count; i++)
            cr_assert_gt(p[i], p[i - 1], "cell %d: peers not ascending", c);
    }
    sb_geometry_free(g);
}
