/*
 * fuzz_geometry.c — libFuzzer target: the geometry parser, grid codec and general solver
 * (src/geometry: sb_geometry_parse / sb_geometry_read, sb_gparse, sb_gformat, sb_gsolve).
 *
 * Input: when the first byte is even, the first line is a built-in spec ("4x4", "latin:5",
 * "cube:2", "x:2x3", ...); when odd, everything up to a line "%%" is a geometry file
 * ("jigsaw N" / "houses CELLS N"). The next line is a puzzle for that geometry.
 * Invariants: no crash; a refused spec, file or line comes with a reason; a parsed puzzle
 * formats back (sb_gformat, in the detected form) to text that parses to the same cells; for
 * geometries of at most MAX_ORACLE_CELLS cells, sb_gsolve's count with limit 2 equals the
 * dancing-links oracle's (tests/dlx.c) unless the guess budget ran out; every first solution
 * passes sb_gsolution_check.
 */
#include "dlx.h"
#include "fuzz_util.h"

enum {
    MAX_ORACLE_CELLS = 100, /* larger grids: only the rules check (the oracle can be slow) */
    BUDGET = 5000,          /* guesses per general solve */
    TEXT_MAX = 1 << 16      /* room for a formatted grid */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *text = (const char *)data + 1;
    const size_t len = size - 1;
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    size_t rest;
    int st;
    if (data[0] % 2 == 0) {
        const char *nl = memchr(text, '\n', len);
        const size_t n = nl ? (size_t)(nl - text) : len;
        if (n > 64)
            return 0;
        char spec[65];
        memcpy(spec, text, n);
        spec[n] = '\0';
        st = sb_geometry_parse(spec, &g, why, sizeof why);
        rest = nl ? n + 1 : len;
    } else {
        const char *sep = memmem(text, len, "\n%%\n", 4);
        const size_t n = sep ? (size_t)(sep - text) + 1 : len;
        /* fmemopen refuses size 0: an empty file is given as one blank line */
        FILE *f = n ? fmemopen((void *)text, n, "rb") : fmemopen((void *)"\n", 1, "rb");
        FUZZ_CHECK(f != NULL, "fmemopen");
        st = sb_geometry_read(f, "fuzz", &g, why, sizeof why);
        fclose(f);
        rest = sep ? n + 3 : len;
    }
    if (st != SB_OK) {
        FUZZ_CHECK(st == SB_ERR_ARG || st == SB_ERR_NOMEM || st == SB_ERR_IO, "status %d", st);
        FUZZ_CHECK(st != SB_ERR_ARG || why[0] != 0, "refused without a reason");
        return 0;
    }
    const int ncells = sb_geometry_cells(g), nd = sb_geometry_digits(g);
    const int nh = sb_geometry_houses(g);
    const char *line = text + rest;
    const char *nl = memchr(line, '\n', len - rest);
    const size_t llen = nl ? (size_t)(nl - line) : len - rest;
    uint8_t *cells = malloc((size_t)ncells), *again = malloc((size_t)ncells);
    uint8_t *first = malloc((size_t)ncells);
    char *out = malloc(TEXT_MAX);
    FUZZ_CHECK(cells && again && first && out, "out of memory");
    int form;
    size_t col = 0;
    st = sb_gparse(g, line, llen, cells, &form, why, sizeof why, &col);
    if (st != SB_OK) {
        FUZZ_CHECK(st == SB_ERR_ARG && why[0] && col >= 1 && col <= llen + 1,
                   "bad refusal: status %d, column %zu of %zu", st, col, llen);
        goto done;
    }
    const int w = sb_gformat(g, cells, form, out, TEXT_MAX);
    FUZZ_CHECK(w >= 0, "a parsed grid does not format back");
    if (w < TEXT_MAX) {
        FUZZ_CHECK(sb_gparse(g, out, (size_t)w, again, NULL, why, sizeof why, NULL) == SB_OK &&
                       !memcmp(cells, again, (size_t)ncells),
                   "format then parse changes the grid: %s", why);
    }
    sb_gsolver *s;
    FUZZ_CHECK(sb_gsolver_new(g, &s) == SB_OK, "sb_gsolver_new");
    sb_gsolver_budget(s, BUDGET);
    sb_gresult res;
    st = sb_gsolve(s, cells, 2, &res, first);
    sb_gsolver_free(s);
    FUZZ_CHECK(st == SB_OK || st == SB_ERR_BUDGET, "sb_gsolve: %s", sb_strerror(st));
    if (res.count >= 1)
        FUZZ_CHECK(sb_gsolution_check(g, cells, first), "a first solution breaks the rules");
    if (st == SB_OK && ncells <= MAX_ORACLE_CELLS) {
        int *houses = malloc((size_t)nh * (size_t)nd * sizeof *houses);
        FUZZ_CHECK(houses, "out of memory");
        for (int h = 0; h < nh; h++) {
            const uint16_t *hc = sb_geometry_house(g, h);
            for (int i = 0; i < nd; i++)
                houses[h * nd + i] = hc[i];
        }
        const uint64_t want = dlx_count(ncells, nd, nh, houses, cells, 2, NULL);
        free(houses);
        FUZZ_CHECK(res.count == want, "%s: sb_gsolve counts %llu, oracle %llu",
                   sb_geometry_name(g), (unsigned long long)res.count,
                   (unsigned long long)want);
    }
done:
    free(cells);
    free(again);
    free(first);
    free(out);
    sb_geometry_free(g);
    return 0;
}
