/*
 * geometry.c — geometries as data: built-in specs, geometry files, derived cell/peer tables.
 *
 * Layout: a geometry keeps its houses as one flat array (house h = house_cells[h*N .. +N),
 * ascending) and derives, once, each cell's houses and peers in compressed-row form
 * (cell c's entries are list[start[c] .. start[c+1])). Cell and house indices fit uint16_t
 * because SB_GEO_MAX_CELLS is 4096 and a geometry has at most GEO_MAX_HOUSES houses. Nothing
 * is mutated after construction, so threads share.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sudokubench.h"

enum {
    /* Houses in a geometry: a cell's houses are uint16_t indices (sb_geometry_cell_houses). */
    GEO_MAX_HOUSES = 65536,
    /* The longest line of a geometry file, its newline and a final '\r' not counted. The
     * longest line a file needs is a house of the largest geometry, 64 cells of up to 4
     * digits with ", " between them: 382 bytes (a jigsaw row is at most 64); the bound gives
     * ten times that for alignment and comments, and a line still fits a stack buffer. */
    GEO_LINE_MAX = 4096
};

/* The one definition of the geometry; other sources read it through the public accessors. */
struct sb_geometry {
    int kind;                   /* an sb_geometry_kind */
    int ncells;                 /* cells, 1..SB_GEO_MAX_CELLS */
    int ndigits;                /* N: digits, and cells per house, 1..SB_GEO_MAX_DIGITS */
    int nhouses;                /* houses */
    int rows, cols;             /* printing layout (sb_geometry_layout) */
    int box_rows, box_cols;     /* box size for printing, 0 without boxes */
    char name[SB_GEO_NAME_LEN]; /* spec or file kind, for messages and output */
    uint16_t *house_cells;      /* nhouses * ndigits cells, each house ascending */
    int *cell_house_start;      /* ncells + 1 offsets into cell_house_list */
    uint16_t *cell_house_list;  /* houses of each cell, ascending */
    int *peer_start;            /* ncells + 1 offsets into peer_list */
    uint16_t *peer_list;        /* peers of each cell, ascending, the cell itself excluded */
};

/* Writes a formatted reason into why (when given); keeps call sites one line. */
static void say(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

/* The arrays of the 9x9 grid, generated at build time (src/tables/gen_tables.c). */
#include "geometry9.inc"

/* The 9x9 grid (sb_geometry_9x9): the boxed 3x3 geometry as const data, shared by every
 * thread and never freed. The fields point at const arrays through non-const pointers only
 * because the geometries made at run time fill the same fields; nothing writes a geometry
 * once it is made. */
static const sb_geometry geo9 = {
    .kind = SB_GEO_BOXED,
    .ncells = SB_CELLS,
    .ndigits = SB_DIGITS,
    .nhouses = SB_HOUSES,
    .rows = 9,
    .cols = 9,
    .box_rows = 3,
    .box_cols = 3,
    .name = "3x3",
    .house_cells = (uint16_t *)geo9_house_cells,
    .cell_house_start = (int *)geo9_cell_house_start,
    .cell_house_list = (uint16_t *)geo9_cell_house_list,
    .peer_start = (int *)geo9_peer_start,
    .peer_list = (uint16_t *)geo9_peer_list,
};

const sb_geometry *sb_geometry_9x9(void)
{
    return &geo9;
}

void sb_geometry_free(sb_geometry *g)
{
    if (!g || g == &geo9)
        return;
    free(g->house_cells);
    free(g->cell_house_start);
    free(g->cell_house_list);
    free(g->peer_start);
    free(g->peer_list);
    free(g);
}

/* Derives cell_houses and peers from the house list; checks distinct, in-range cells and
 * that every cell is covered. @return SB_OK, SB_ERR_ARG (why set) or SB_ERR_NOMEM. */
static int derive(sb_geometry *g, char *why, size_t whylen)
{
    const int n = g->ndigits, nc = g->ncells, nh = g->nhouses;
    int rc = SB_ERR_NOMEM;
    uint64_t *seen = NULL; /* per-cell bitset of peers, reused per cell: (nc+63)/64 words */
    const size_t words = ((size_t)nc + 63) / 64;

    g->cell_house_start = calloc((size_t)nc + 1, sizeof *g->cell_house_start);
    g->peer_start = calloc((size_t)nc + 1, sizeof *g->peer_start);
    seen = calloc(words, sizeof *seen);
    if (!g->cell_house_start || !g->peer_start || !seen)
        goto out;

    /* Range and distinctness per house (the bitset marks this house's cells). */
    for (int h = 0; h < nh; h++) {
        const uint16_t *hc = &g->house_cells[(size_t)h * n];
        for (int i = 0; i < n; i++) {
            if (hc[i] >= nc) {
                say(why, whylen, "house %d: cell %d out of range 0..%d", h + 1, hc[i], nc - 1);
                rc = SB_ERR_ARG;
                goto out;
            }
            if (seen[hc[i] / 64] >> (hc[i] % 64) & 1) {
                say(why, whylen, "house %d: cell %d listed twice", h + 1, hc[i]);
                rc = SB_ERR_ARG;
                goto out;
            }
            seen[hc[i] / 64] |= UINT64_C(1) << (hc[i] % 64);
            g->cell_house_start[hc[i] + 1]++;
        }
        for (int i = 0; i < n; i++)
            seen[hc[i] / 64] = 0;
    }
    for (int c = 0; c < nc; c++) {
        if (g->cell_house_start[c + 1] == 0) {
            say(why, whylen, "cell %d is in no house", c);
            rc = SB_ERR_ARG;
            goto out;
        }
        g->cell_house_start[c + 1] += g->cell_house_start[c];
    }
    g->cell_house_list = malloc((size_t)g->cell_house_start[nc] * sizeof *g->cell_house_list);
    if (!g->cell_house_list)
        goto out;
    {
        /* Fill in house order, so each cell's list comes out ascending. */
        int *fill = malloc((size_t)nc * sizeof *fill);
        if (!fill)
            goto out;
        memcpy(fill, g->cell_house_start, (size_t)nc * sizeof *fill);
        for (int h = 0; h < nh; h++)
            for (int i = 0; i < n; i++)
                g->cell_house_list[fill[g->house_cells[(size_t)h * n + i]]++] = (uint16_t)h;
        free(fill);
    }

    /* Peers: the union of the cell's houses minus itself, written ascending in one pass over
     * the houses (the list grows as needed; a second counting pass would double the work,
     * which is most of loading a long house list). */
    size_t total = 0, cap = 0;
    for (int c = 0; c < nc; c++) {
        for (int k = g->cell_house_start[c]; k < g->cell_house_start[c + 1]; k++) {
            const uint16_t *hc = &g->house_cells[(size_t)g->cell_house_list[k] * n];
            for (int i = 0; i < n; i++)
                seen[hc[i] / 64] |= UINT64_C(1) << (hc[i] % 64);
        }
        seen[c / 64] &= ~(UINT64_C(1) << (c % 64));
        size_t cnt = 0;
        for (size_t w = 0; w < words; w++)
            cnt += (size_t)__builtin_popcountll(seen[w]);
        if (total + cnt > cap) {
            size_t ncap = cap ? 2 * cap : 1024;
            while (ncap < total + cnt)
                ncap *= 2;
            uint16_t *p = realloc(g->peer_list, ncap * sizeof *p);
            if (!p)
                goto out;
            g->peer_list = p;
            cap = ncap;
        }
        g->peer_start[c] = (int)total;
        for (size_t w = 0; w < words; w++) {
            for (uint64_t m = seen[w]; m; m &= m - 1)
                g->peer_list[total++] = (uint16_t)(w * 64 + (size_t)__builtin_ctzll(m));
            seen[w] = 0;
        }
    }
    g->peer_start[nc] = (int)total;
    if (!g->peer_list && !(g->peer_list = malloc(1 * sizeof *g->peer_list)))
        goto out;
    if (total < cap) { /* give back the slack; a failed shrink keeps the larger block */
        uint16_t *p = realloc(g->peer_list, total ? total * sizeof *p : sizeof *p);
        if (p)
            g->peer_list = p;
    }
    rc = SB_OK;
out:
    free(seen);
    return rc;
}

/* Sorts a house's cells ascending (insertion sort: houses hold at most 64 cells). */
static void sort_cells(uint16_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint16_t v = a[i];
        int j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Allocates a geometry with room for nhouses houses, or taking over cells (nhouses * ndigits,
 * malloc'd) when given; fields derived later. NULL on OOM (cells then stay the caller's). */
static sb_geometry *geo_alloc(int kind, int ncells, int ndigits, int nhouses, const char *name,
                              uint16_t *cells)
{
    sb_geometry *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->kind = kind;
    g->ncells = ncells;
    g->ndigits = ndigits;
    g->nhouses = nhouses;
    snprintf(g->name, sizeof g->name, "%s", name ? name : "houses");
    g->house_cells =
        cells ? cells : malloc((size_t)nhouses * (size_t)ndigits * sizeof *g->house_cells);
    if (!g->house_cells) {
        free(g);
        return NULL;
    }
    return g;
}

/* Sorts every house, derives the tables and hands g out, or frees it on failure. */
static int finish(sb_geometry *g, sb_geometry **out, char *why, size_t whylen)
{
    for (int h = 0; h < g->nhouses; h++)
        sort_cells(&g->house_cells[(size_t)h * g->ndigits], g->ndigits);
    int rc = derive(g, why, whylen);
    if (rc != SB_OK) {
        if (rc == SB_ERR_NOMEM)
            say(why, whylen, "out of memory");
        sb_geometry_free(g);
        return rc;
    }
    *out = g;
    return SB_OK;
}

int sb_geometry_from_houses(int ncells, int ndigits, int nhouses, const int *cells,
                            const char *name, sb_geometry **out, char *why, size_t whylen)
{
    if (!out || !cells || ncells < 1 || ncells > SB_GEO_MAX_CELLS || ndigits < 1 ||
        ndigits > SB_GEO_MAX_DIGITS || nhouses < 1 || nhouses > GEO_MAX_HOUSES) {
        say(why, whylen, "need 1..%d cells, 1..%d digits and 1..%d houses", SB_GEO_MAX_CELLS,
            SB_GEO_MAX_DIGITS, GEO_MAX_HOUSES);
        return SB_ERR_ARG;
    }
    sb_geometry *g = geo_alloc(SB_GEO_HOUSES, ncells, ndigits, nhouses, name, NULL);
    if (!g) {
        say(why, whylen, "out of memory");
        return SB_ERR_NOMEM;
    }
    g->rows = 1;
    g->cols = ncells;
    for (size_t i = 0; i < (size_t)nhouses * (size_t)ndigits; i++) {
        if (cells[i] < 0 || cells[i] >= ncells) {
            say(why, whylen, "house %d: cell %d out of range 0..%d", (int)(i / (size_t)ndigits) + 1,
                cells[i], ncells - 1);
            sb_geometry_free(g);
            return SB_ERR_ARG;
        }
        g->house_cells[i] = (uint16_t)cells[i];
    }
    return finish(g, out, why, whylen);
}

/* Builds an N x N grid: rows, columns, then boxes of br x bc when br > 0, then the two
 * diagonals when diag. */
static int make_square(int kind, int n, int br, int bc, int diag, const char *name,
                       sb_geometry **out, char *why, size_t whylen)
{
    const int nh = 2 * n + (br ? n : 0) + (diag ? 2 : 0);
    sb_geometry *g = geo_alloc(kind, n * n, n, nh, name, NULL);
    if (!g) {
        say(why, whylen, "out of memory");
        return SB_ERR_NOMEM;
    }
    g->rows = g->cols = n;
    g->box_rows = br;
    g->box_cols = bc;
    uint16_t *hc = g->house_cells;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            *hc++ = (uint16_t)(n * r + c);
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++)
            *hc++ = (uint16_t)(n * r + c);
    if (br) {
        /* n/bc = br boxes side by side in each band of br rows. */
        for (int b = 0; b < n; b++)
            for (int i = 0; i < n; i++)
                *hc++ = (uint16_t)(n * (br * (b / br) + i / bc) + bc * (b % br) + i % bc);
    }
    if (diag) {
        for (int i = 0; i < n; i++)
            *hc++ = (uint16_t)(n * i + i);
        for (int i = 0; i < n; i++)
            *hc++ = (uint16_t)(n * i + (n - 1 - i));
    }
    return finish(g, out, why, whylen);
}

/* Builds cube:K: planes x = i, then y = i, then z = i, cell = K*K*x + K*y + z. */
static int make_cube(int k, const char *name, sb_geometry **out, char *why, size_t whylen)
{
    const int n = k * k;
    sb_geometry *g = geo_alloc(SB_GEO_CUBE, k * n, n, 3 * k, name, NULL);
    if (!g) {
        say(why, whylen, "out of memory");
        return SB_ERR_NOMEM;
    }
    g->rows = k;
    g->cols = n;
    g->box_rows = k;
    g->box_cols = k;
    uint16_t *hc = g->house_cells;
    for (int axis = 0; axis < 3; axis++)
        for (int i = 0; i < k; i++)
            for (int a = 0; a < k; a++)
                for (int b = 0; b < k; b++) {
                    const int x = axis == 0 ? i : a;
                    const int y = axis == 1 ? i : axis == 0 ? a : b;
                    const int z = axis == 2 ? i : b;
                    *hc++ = (uint16_t)(n * x + k * y + z);
                }
    return finish(g, out, why, whylen);
}

/* Parses a whole decimal number in [lo, hi] from s up to end (end NULL: to the NUL).
 * @return the number, or -1 when s is not one. */
static long whole_number(const char *s, const char *end, long lo, long hi)
{
    long v = 0;
    const char *p = s;
    if (!end)
        end = s + strlen(s);
    if (p == end)
        return -1;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
        if (v > hi)
            return -1;
    }
    return v < lo ? -1 : v;
}

/* Parses "RxC" into *r, *c with R*C <= 64. @return 1 if it is one. */
static int parse_rxc(const char *s, int *r, int *c)
{
    const char *x = strchr(s, 'x');
    if (!x)
        return 0;
    long rr = whole_number(s, x, 1, SB_GEO_MAX_DIGITS);
    long cc = whole_number(x + 1, NULL, 1, SB_GEO_MAX_DIGITS);
    if (rr < 0 || cc < 0 || rr * cc > SB_GEO_MAX_DIGITS)
        return 0;
    *r = (int)rr;
    *c = (int)cc;
    return 1;
}

static const char SPEC_FORMS[] =
    "RxC (N=R*C<=64), latin:N (N<=64), cube:K (K<=8) or x:RxC";

int sb_geometry_parse(const char *spec, sb_geometry **out, char *why, size_t whylen)
{
    int r, c;
    long v;
    if (!spec || !out) {
        say(why, whylen, "no geometry spec");
        return SB_ERR_ARG;
    }
    if (parse_rxc(spec, &r, &c))
        return make_square(SB_GEO_BOXED, r * c, r, c, 0, spec, out, why, whylen);
    if (!strncmp(spec, "x:", 2) && parse_rxc(spec + 2, &r, &c))
        return make_square(SB_GEO_X, r * c, r, c, 1, spec, out, why, whylen);
    if (!strncmp(spec, "latin:", 6) && (v = whole_number(spec + 6, NULL, 1, SB_GEO_MAX_DIGITS)) > 0)
        return make_square(SB_GEO_LATIN, (int)v, 0, 0, 0, spec, out, why, whylen);
    if (!strncmp(spec, "cube:", 5) && (v = whole_number(spec + 5, NULL, 1, 8)) > 0)
        return make_cube((int)v, spec, out, why, whylen);
    say(why, whylen, "unknown geometry '%.40s': use %s, or a geometry file", spec, SPEC_FORMS);
    return SB_ERR_ARG;
}

int sb_geometry_for_cells(int ncells, sb_geometry **out, char *why, size_t whylen)
{
    if (!out) {
        say(why, whylen, "nowhere to put the geometry");
        return SB_ERR_ARG;
    }
    int n = 1;
    while (n * n < ncells && n <= SB_GEO_MAX_DIGITS)
        n++;
    int cube = 0; /* K with K^3 == ncells, to name it as the alternative */
    for (int k = 1; k <= 8; k++)
        if (k * k * k == ncells)
            cube = k;
    if (ncells < 1 || n * n != ncells || n > SB_GEO_MAX_DIGITS) {
        if (cube)
            say(why, whylen, "%d cells is not an N x N grid: say cube:%d", ncells, cube);
        else
            say(why, whylen, "%d cells is not an N x N grid with N <= %d: no geometry fits",
                ncells, SB_GEO_MAX_DIGITS);
        return SB_ERR_ARG;
    }
    /* The most square factorisation R x C with 1 < R <= C: R the largest divisor <= sqrt N. */
    int best = 0;
    for (int r = 2; r * r <= n; r++)
        if (n % r == 0)
            best = r;
    if (!best) {
        if (cube)
            say(why, whylen, "%d cells: %d has no boxes; say latin:%d or cube:%d", ncells, n, n,
                cube);
        else
            say(why, whylen, "%d cells: N = %d is prime, so no boxes fit; say latin:%d", ncells, n,
                n);
        return SB_ERR_ARG;
    }
    char name[SB_GEO_NAME_LEN];
    snprintf(name, sizeof name, "%dx%d", best, n / best);
    return make_square(SB_GEO_BOXED, n, best, n / best, 0, name, out, why, whylen);
}

/* ---- geometry files ---- */

/* A geometry file being read: the stream, its name for messages and the current line. */
typedef struct georeader {
    FILE *in;
    const char *src;            /* the input's name in messages */
    int lineno;                 /* the current line's number (lines begun so far) */
    char *text;                 /* the current line, NUL-terminated: no '\n', no final '\r',
                                   no UTF-8 BOM on line 1 */
    char buf[GEO_LINE_MAX + 2]; /* the bound, a final '\r' and the NUL */
} georeader;

/* Reads the next line into r->text, never more than GEO_LINE_MAX + 1 bytes of it, so an
 * endless line (/dev/zero) costs this buffer, not memory. @return 1 with the line, 0 at the
 * end of input; SB_ERR_ARG (too long) or SB_ERR_IO with why "SOURCE:LINE: ...". */
static int next_line(georeader *r, char *why, size_t whylen)
{
    size_t n = 0;
    int ch;
    errno = 0; /* so a stream that fails without saying why is not given a stale cause */
    while ((ch = getc(r->in)) != EOF && ch != '\n') {
        if (n == GEO_LINE_MAX + 1)
            break; /* past the bound even if a '\r' ends the kept bytes */
        r->buf[n++] = (char)ch;
    }
    if (ch == EOF && ferror(r->in)) {
        const int err = errno;
        say(why, whylen, "%s:%d: read error: %s", r->src, r->lineno + 1,
            err ? strerror(err) : "cause unknown");
        return SB_ERR_IO;
    }
    if (ch == EOF && n == 0)
        return 0;
    r->lineno++;
    const int cut = ch != EOF && ch != '\n'; /* stopped at the bound, the line goes on */
    if (!cut && n && r->buf[n - 1] == '\r')
        n--;
    if (cut || n > GEO_LINE_MAX) {
        say(why, whylen, "%s:%d: line longer than %d bytes", r->src, r->lineno, GEO_LINE_MAX);
        return SB_ERR_ARG;
    }
    /* The parsers below read the line as a C string: a NUL would end it there and drop the
     * rest of the line without a word. */
    const char *nul = memchr(r->buf, '\0', n);
    if (nul) {
        say(why, whylen, "%s:%d: column %d: NUL byte (a geometry file is text)", r->src,
            r->lineno, (int)(nul - r->buf) + 1);
        return SB_ERR_ARG;
    }
    r->buf[n] = '\0';
    /* A BOM some editors put first: skipped as puzzle input skips it. */
    r->text = r->buf + (r->lineno == 1 && n >= 3 && !memcmp(r->buf, "\xEF\xBB\xBF", 3) ? 3 : 0);
    return 1;
}

/* 1 when the line is blank or a '#' comment (after leading spaces/tabs). */
static int skippable(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0' || *s == '#';
}

/* Strips leading and trailing spaces/tabs in place. @return the first kept byte. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* 1 when comment s (from its '#', trailing blanks aside) is n printable characters: a region
 * row whose first region was named '#', to explain a missing row with. */
static int reads_as_row(const char *s, int n)
{
    int k = 0;
    while (isgraph((unsigned char)s[k]))
        k++;
    for (int i = k; s[i]; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return k == n;
}

/* Reads the rest of a "jigsaw N" file: N lines of N region characters, then nothing but
 * blank and comment lines. Houses: rows, columns, then regions in order of first
 * appearance. @return SB_OK with *out set; SB_ERR_ARG, SB_ERR_IO or SB_ERR_NOMEM with why. */
static int read_jigsaw(georeader *r, int n, sb_geometry **out, char *why, size_t whylen)
{
    unsigned char region_char[SB_GEO_MAX_DIGITS]; /* the character of each region, by number */
    int region_line[SB_GEO_MAX_DIGITS];            /* the line where each region first shows */
    int region_size[SB_GEO_MAX_DIGITS] = {0};      /* cells seen so far in each region */
    int nregions = 0, rc = SB_ERR_ARG;
    int hash_row = 0; /* the first comment line among the rows that reads like a row */
    char name[SB_GEO_NAME_LEN];
    snprintf(name, sizeof name, "jigsaw:%d", n);
    sb_geometry *g = geo_alloc(SB_GEO_JIGSAW, n * n, n, 3 * n, name, NULL);
    if (!g) {
        say(why, whylen, "%s:%d: out of memory", r->src, r->lineno);
        return SB_ERR_NOMEM;
    }
    g->rows = g->cols = n;
    uint16_t *rows = g->house_cells, *cols = rows + n * n, *regs = cols + n * n;
    int row = 0;
    while (row < n && (rc = next_line(r, why, whylen)) == 1) {
        char *s = r->text;
        while (*s == ' ' || *s == '\t')
            s++;
        /* '#' starts a comment; right after a region character it would be a region, which
         * it cannot name (docs/geometry.md). */
        char *hash = strchr(s, '#');
        if (hash && hash > s && hash[-1] != ' ' && hash[-1] != '\t') {
            say(why, whylen, "%s:%d: column %d: '#' cannot name a region (it starts a comment)",
                r->src, r->lineno, (int)(hash - s) + 1);
            rc = SB_ERR_ARG;
            goto fail;
        }
        if (hash == s && !hash_row && reads_as_row(s, n))
            hash_row = r->lineno;
        if (hash)
            *hash = '\0';
        s = trim(s);
        if (*s == '\0')
            continue;
        if ((int)strlen(s) != n) {
            say(why, whylen, "%s:%d: region row has %d characters, need %d", r->src, r->lineno,
                (int)strlen(s), n);
            rc = SB_ERR_ARG;
            goto fail;
        }
        for (int c = 0; c < n; c++) {
            const unsigned char ch = (unsigned char)s[c];
            int k = 0;
            while (k < nregions && region_char[k] != ch)
                k++;
            if (!isgraph(ch) || (k == nregions && nregions == n)) {
                say(why, whylen, "%s:%d: column %d: '%c' would be region %d of %d allowed",
                    r->src, r->lineno, c + 1, isgraph(ch) ? ch : '?', nregions + 1, n);
                rc = SB_ERR_ARG;
                goto fail;
            }
            if (k == nregions) {
                region_char[nregions] = ch;
                region_line[nregions++] = r->lineno;
            }
            if (region_size[k] == n) {
                say(why, whylen, "%s:%d: column %d: region '%c' has more than %d cells", r->src,
                    r->lineno, c + 1, ch, n);
                rc = SB_ERR_ARG;
                goto fail;
            }
            regs[k * n + region_size[k]++] = (uint16_t)(n * row + c);
            rows[n * row + c] = (uint16_t)(n * row + c);
            cols[n * c + row] = (uint16_t)(n * row + c);
        }
        row++;
    }
    if (rc < 0)
        goto fail;
    if (row < n) {
        if (hash_row)
            say(why, whylen,
                "%s:%d: file ends after %d of %d region rows (line %d is a comment: '#' is no "
                "region)",
                r->src, r->lineno, row, n, hash_row);
        else
            say(why, whylen, "%s:%d: file ends after %d of %d region rows", r->src, r->lineno,
                row, n);
        rc = SB_ERR_ARG;
        goto fail;
    }
    for (int k = 0; k < n; k++)
        if (k >= nregions || region_size[k] != n) {
            if (k >= nregions)
                say(why, whylen, "%s:%d: %d regions, need %d", r->src, r->lineno, nregions, n);
            else
                say(why, whylen, "%s:%d: region '%c' has %d cells, need %d", r->src,
                    region_line[k], region_char[k], region_size[k], n);
            rc = SB_ERR_ARG;
            goto fail;
        }
    /* Nothing may follow the rows: a stray row or a second grid is a mistake, not extra. */
    while ((rc = next_line(r, why, whylen)) == 1)
        if (!skippable(r->text)) {
            say(why, whylen, "%s:%d: text after the %d region rows", r->src, r->lineno, n);
            rc = SB_ERR_ARG;
            goto fail;
        }
    if (rc < 0)
        goto fail;
    char inner[SB_GEO_WHY_LEN];
    rc = finish(g, out, inner, sizeof inner);
    if (rc != SB_OK)
        say(why, whylen, "%s: %s", r->src, inner);
    return rc;
fail:
    sb_geometry_free(g);
    return rc;
}

/* The houses of a house list read so far (each sorted) and a hash set of them, so a repeated
 * house is found in constant time, not by comparing it with every earlier one. */
typedef struct hlist {
    int n;            /* cells per house */
    int nh, cap;      /* houses held, room for */
    uint16_t *cells;  /* house h: cells[h*n .. +n), ascending */
    int *line;        /* the line each house was on */
    int *slot;        /* open addressing: house index + 1, 0 for empty */
    size_t nslot;     /* slots, a power of two, at least twice the houses */
} hlist;

/* A hash of a sorted house: FNV-1a over its cells, then mixed so the low bits (the slot)
 * depend on all of them. */
static uint64_t house_hash(const uint16_t *c, int n)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (int i = 0; i < n; i++)
        h = (h ^ c[i]) * UINT64_C(1099511628211);
    h ^= h >> 31;
    h *= UINT64_C(0x9e3779b97f4a7c15);
    return h ^ (h >> 29);
}

/* Looks house h (held, not yet in the set) up among houses 0..h-1, entering it when new:
 * *twin is the earlier equal house, or -1. @return 0, or -1 when the set cannot grow. */
static int house_twin(hlist *L, int h, int *twin)
{
    const size_t n = (size_t)L->n;
    if (((size_t)h + 1) * 2 > L->nslot) {
        const size_t ns = L->nslot ? 2 * L->nslot : 1024;
        int *s = calloc(ns, sizeof *s);
        if (!s)
            return -1;
        for (int k = 0; k < h; k++) { /* houses 0..h-1 are distinct: no comparisons */
            size_t i = house_hash(L->cells + (size_t)k * n, L->n) & (ns - 1);
            while (s[i])
                i = (i + 1) & (ns - 1);
            s[i] = k + 1;
        }
        free(L->slot);
        L->slot = s;
        L->nslot = ns;
    }
    const uint16_t *c = L->cells + (size_t)h * n;
    size_t i = house_hash(c, L->n) & (L->nslot - 1);
    for (; L->slot[i]; i = (i + 1) & (L->nslot - 1))
        if (!memcmp(L->cells + (size_t)(L->slot[i] - 1) * n, c, n * sizeof *c)) {
            *twin = L->slot[i] - 1;
            return 0;
        }
    L->slot[i] = h + 1;
    *twin = -1;
    return 0;
}

/* Makes room for one more house. @return 0, or -1 when out of memory. */
static int hlist_room(hlist *L)
{
    if (L->nh < L->cap)
        return 0;
    const int cap = L->cap ? 2 * L->cap : 64;
    uint16_t *c = realloc(L->cells, (size_t)cap * (size_t)L->n * sizeof *c);
    if (!c)
        return -1;
    L->cells = c;
    int *l = realloc(L->line, (size_t)cap * sizeof *l);
    if (!l)
        return -1;
    L->line = l;
    L->cap = cap;
    return 0;
}

/* Reads the rest of a "houses CELLS N" file: one house per line, N distinct cell indices,
 * no house twice, at most GEO_MAX_HOUSES. Linear in the input: each line is checked against
 * a bitset and the hash set, and sorted by reading its bitset back.
 * @return SB_OK with *out set; SB_ERR_ARG, SB_ERR_IO or SB_ERR_NOMEM with why. */
static int read_houses(georeader *r, int ncells, int n, sb_geometry **out, char *why,
                       size_t whylen)
{
    hlist L = {.n = n};
    uint64_t seen[SB_GEO_MAX_CELLS / 64] = {0}; /* this line's cells; emptied as it is read */
    const int words = (ncells + 63) / 64;
    int rc;
    while ((rc = next_line(r, why, whylen)) == 1) {
        char *line = r->text;
        if (skippable(line))
            continue;
        if (L.nh == GEO_MAX_HOUSES) {
            say(why, whylen, "%s:%d: more than %d houses", r->src, r->lineno, GEO_MAX_HOUSES);
            rc = SB_ERR_ARG;
            goto out;
        }
        if (hlist_room(&L)) {
            say(why, whylen, "%s:%d: out of memory", r->src, r->lineno);
            rc = SB_ERR_NOMEM;
            goto out;
        }
        int k = 0;
        for (char *s = line;;) {
            while (*s == ' ' || *s == '\t' || *s == ',')
                s++;
            if (*s == '\0' || *s == '#')
                break;
            char *e = s;
            while (*e && *e != ' ' && *e != '\t' && *e != ',' && *e != '#')
                e++;
            long v = whole_number(s, e, 0, ncells - 1);
            const char *fail = NULL;
            if (v < 0)
                fail = "is not a cell index";
            else if (k == n)
                fail = "is one cell too many";
            else if (seen[v / 64] >> (v % 64) & 1)
                fail = "is listed twice";
            if (fail) {
                say(why, whylen, "%s:%d: column %d: '%.*s' %s (cells 0..%d, %d per house)",
                    r->src, r->lineno, (int)(s - line) + 1, (int)(e - s > 12 ? 12 : e - s), s,
                    fail, ncells - 1, n);
                rc = SB_ERR_ARG;
                goto out;
            }
            seen[v / 64] |= UINT64_C(1) << (v % 64);
            k++;
            s = e;
        }
        if (k != n) {
            say(why, whylen, "%s:%d: house has %d cells, need %d", r->src, r->lineno, k, n);
            rc = SB_ERR_ARG;
            goto out;
        }
        /* The cells ascending, straight from the bitset, which is left empty. */
        uint16_t *hc = L.cells + (size_t)L.nh * (size_t)n;
        for (int w = 0, i = 0; w < words; w++) {
            for (uint64_t m = seen[w]; m; m &= m - 1)
                hc[i++] = (uint16_t)(64 * w + __builtin_ctzll(m));
            seen[w] = 0;
        }
        int twin;
        if (house_twin(&L, L.nh, &twin)) {
            say(why, whylen, "%s:%d: out of memory", r->src, r->lineno);
            rc = SB_ERR_NOMEM;
            goto out;
        }
        if (twin >= 0) {
            say(why, whylen, "%s:%d: house duplicates line %d", r->src, r->lineno,
                L.line[twin]);
            rc = SB_ERR_ARG;
            goto out;
        }
        L.line[L.nh++] = r->lineno;
    }
    if (rc < 0)
        goto out;
    if (L.nh == 0) {
        say(why, whylen, "%s:%d: no houses listed", r->src, r->lineno);
        rc = SB_ERR_ARG;
        goto out;
    }
    char name[SB_GEO_NAME_LEN];
    snprintf(name, sizeof name, "houses:%d:%d", ncells, n);
    /* The geometry takes the cell array over (trimmed to size; kept as is if that fails). */
    uint16_t *cells = realloc(L.cells, (size_t)L.nh * (size_t)n * sizeof *cells);
    if (cells)
        L.cells = cells;
    sb_geometry *g = geo_alloc(SB_GEO_HOUSES, ncells, n, L.nh, name, L.cells);
    if (!g) {
        say(why, whylen, "%s: out of memory", r->src);
        rc = SB_ERR_NOMEM;
        goto out;
    }
    L.cells = NULL;
    g->rows = 1;
    g->cols = ncells;
    char inner[SB_GEO_WHY_LEN];
    rc = finish(g, out, inner, sizeof inner);
    if (rc != SB_OK)
        say(why, whylen, "%s: %s", r->src, inner);
out:
    free(L.cells);
    free(L.line);
    free(L.slot);
    return rc;
}

int sb_geometry_read(FILE *in, const char *source, sb_geometry **out, char *why, size_t whylen)
{
    if (!in || !out) {
        say(why, whylen, "no input");
        return SB_ERR_ARG;
    }
    georeader rd, *r = &rd;
    r->in = in;
    r->src = source ? source : "geometry";
    r->lineno = 0;
    r->text = r->buf;
    int rc;
    /* The header: the first line that is not blank or a comment. */
    while ((rc = next_line(r, why, whylen)) == 1 && skippable(r->text))
        ;
    if (rc != 1) {
        if (rc == 0)
            say(why, whylen, "%s:%d: empty: expected 'jigsaw N' or 'houses CELLS N'", r->src,
                r->lineno);
        return rc == 0 ? SB_ERR_ARG : rc;
    }
    char *hash = strchr(r->text, '#'); /* a comment may follow the header */
    if (hash)
        *hash = '\0';
    /* Up to four whitespace-separated words; numbers parsed with bounds (no sscanf %d,
     * whose overflow is undefined). */
    char *w[4] = {NULL, NULL, NULL, NULL};
    int nw = 0;
    for (char *t = trim(r->text); *t && nw < 4;) {
        w[nw++] = t;
        while (*t && *t != ' ' && *t != '\t')
            t++;
        if (*t)
            *t++ = '\0';
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t && nw == 4)
            nw = 5; /* too many words */
    }
    long a = nw >= 2 ? whole_number(w[1], NULL, 1, SB_GEO_MAX_CELLS) : -1;
    long b = nw >= 3 ? whole_number(w[2], NULL, 1, SB_GEO_MAX_DIGITS) : -1;
    if (nw == 2 && !strcmp(w[0], "jigsaw") && a >= 1 && a <= SB_GEO_MAX_DIGITS) {
        rc = read_jigsaw(r, (int)a, out, why, whylen);
    } else if (nw == 3 && !strcmp(w[0], "houses") && a >= 1 && b >= 1 && b <= a) {
        rc = read_houses(r, (int)a, (int)b, out, why, whylen);
    } else {
        say(why, whylen,
            "%s:%d: expected 'jigsaw N' (N 1..%d) or 'houses CELLS N' (CELLS <= %d, N <= 64)",
            r->src, r->lineno, SB_GEO_MAX_DIGITS, SB_GEO_MAX_CELLS);
        rc = SB_ERR_ARG;
    }
    return rc;
}

int sb_geometry_load(const char *path, sb_geometry **out, char *why, size_t whylen)
{
    if (!path || !out) {
        say(why, whylen, "no geometry file named");
        return SB_ERR_ARG;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        say(why, whylen, "%s: cannot open: %s", path, strerror(errno));
        return SB_ERR_IO;
    }
    int rc = sb_geometry_read(f, path, out, why, whylen);
    fclose(f);
    return rc;
}

/* ---- accessors ---- */

const char *sb_geometry_name(const sb_geometry *g) { return g ? g->name : NULL; }
int sb_geometry_kind_of(const sb_geometry *g) { return g ? g->kind : SB_ERR_ARG; }
int sb_geometry_cells(const sb_geometry *g) { return g ? g->ncells : SB_ERR_ARG; }
int sb_geometry_digits(const sb_geometry *g) { return g ? g->ndigits : SB_ERR_ARG; }
int sb_geometry_houses(const sb_geometry *g) { return g ? g->nhouses : SB_ERR_ARG; }

const uint16_t *sb_geometry_house(const sb_geometry *g, int h)
{
    if (!g || h < 0 || h >= g->nhouses)
        return NULL;
    return &g->house_cells[(size_t)h * g->ndigits];
}

const uint16_t *sb_geometry_cell_houses(const sb_geometry *g, int c, int *count)
{
    if (count)
        *count = 0;
    if (!g || !count || c < 0 || c >= g->ncells)
        return NULL;
    *count = g->cell_house_start[c + 1] - g->cell_house_start[c];
    return &g->cell_house_list[g->cell_house_start[c]];
}

const uint16_t *sb_geometry_peers(const sb_geometry *g, int c, int *count)
{
    if (count)
        *count = 0;
    if (!g || !count || c < 0 || c >= g->ncells)
        return NULL;
    *count = g->peer_start[c + 1] - g->peer_start[c];
    return &g->peer_list[g->peer_start[c]];
}

void sb_geometry_layout_of(const sb_geometry *g, sb_geometry_layout *out)
{
    if (!out)
        return;
    if (!g) {
        *out = (sb_geometry_layout){0, 0, 0, 0};
        return;
    }
    out->rows = g->rows;
    out->cols = g->cols;
    out->box_rows = g->box_rows;
    out->box_cols = g->box_cols;
}

int sb_gsolution_check(const sb_geometry *g, const uint8_t *puzzle, const uint8_t *solution)
{
    if (!g || !solution)
        return 0;
    const int n = g->ndigits;
    /* No branch a cell (as sb_solution_check): the givens' places are random. */
    unsigned bad = 0;
    for (int c = 0; c < g->ncells; c++) {
        const unsigned v = solution[c], p = puzzle ? puzzle[c] : 0;
        bad |= (v - 1 >= (unsigned)n) | ((p != 0) & (p != v));
    }
    if (bad)
        return 0;
    /* N cells holding N distinct digits of 1..N: their union has N bits. */
    for (int h = 0; h < g->nhouses; h++) {
        uint64_t m = 0;
        const uint16_t *hc = sb_geometry_house(g, h);
        for (int i = 0; i < n; i++)
            m |= UINT64_C(1) << (solution[hc[i]] - 1);
        if (__builtin_popcountll(m) != n)
            return 0;
    }
    return 1;
}
