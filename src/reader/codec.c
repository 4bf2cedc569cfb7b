/*
 * codec.c — grid text for any geometry: one character per cell while N <= 35, or separated
 * integers for any N (docs/geometry.md "Grid text"). A line is parsed whole or refused with
 * a 1-based column and a reason; nothing is guessed.
 */
#include <string.h>

#include "internal.h"
#include "sudokubench.h"

enum {
    ALPHABET_MAX = 35 /* '1'-'9' then 'A'-'Z': the largest N the character form can write */
};

/* The value of a cell character: 0 for a blank, 1..35 for a digit, -1 for anything else. */
static int char_value(unsigned char ch)
{
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 10;
    return -1;
}

/* Sets *col (when given) to the 1-based column of byte at. @return SB_ERR_ARG. */
static int at_col(size_t *col, size_t at)
{
    if (col)
        *col = at + 1;
    return SB_ERR_ARG;
}

/* An error at byte at: its column into *col, the reason into why. @return SB_ERR_ARG. */
#define fail(col, at, why, whylen, ...) sb_why(at_col(col, at), why, whylen, __VA_ARGS__)

/* fail() for byte ch at i: printable as itself, else as \xHH (as the 9x9 reader says it: a
 * '?' would read as a literal question mark). */
static int unexpected(size_t *col, size_t i, char *why, size_t whylen, unsigned char ch)
{
    if (ch >= 0x20 && ch < 0x7F)
        return fail(col, i, why, whylen, "unexpected character '%c'", ch);
    return fail(col, i, why, whylen, "unexpected character '\\x%02x'", ch);
}

int sb_gparse(const sb_geometry *g, const char *line, size_t len, uint8_t *cells, int *form,
              char *why, size_t whylen, size_t *col)
{
    if (!g || !line || !cells)
        return fail(col, 0, why, whylen, "no geometry, line or cells");
    const int n = sb_geometry_digits(g), nc = sb_geometry_cells(g);
    size_t lo = 0, hi = len;
    if (hi && line[hi - 1] == '\r')
        hi--;
    while (lo < hi && (line[lo] == ' ' || line[lo] == '\t'))
        lo++;
    while (hi > lo && (line[hi - 1] == ' ' || line[hi - 1] == '\t'))
        hi--;
    int ints = 0;
    for (size_t i = lo; i < hi; i++)
        if (line[i] == ',' || line[i] == ' ' || line[i] == '\t')
            ints = 1;
    if (form)
        *form = ints ? SB_GFORM_INTS : SB_GFORM_CHARS;

    int k = 0;
    if (!ints) {
        for (size_t i = lo; i < hi; i++) {
            const unsigned char ch = (unsigned char)line[i];
            const int v = char_value(ch);
            if (v < 0)
                return unexpected(col, i, why, whylen, ch);
            if (v > n)
                return fail(col, i, why, whylen, "digit '%c' out of range 1..%d", ch, n);
            if (k == nc)
                return fail(col, i, why, whylen, "too many cells (more than %d)", nc);
            cells[k++] = (uint8_t)v;
        }
    } else {
        size_t i = lo;
        for (;;) {
            /* One value, then one ',' (with spaces around it) or a run of spaces/tabs. */
            const size_t start = i;
            unsigned v = 0;
            while (i < hi && line[i] >= '0' && line[i] <= '9') {
                if (v <= 999)
                    v = v * 10 + (unsigned)(line[i] - '0');
                i++;
            }
            if (i == start) {
                if (i < hi && line[i] == '.') /* '.' is a blank here too */
                    i++;
                else
                    return fail(col, i, why, whylen, "%s",
                                i < hi ? "expected a number" : "expected a number after ','");
            } else if (v > (unsigned)n) {
                return fail(col, start, why, whylen, "value %.*s out of range 0..%d",
                            (int)(i - start > 8 ? 8 : i - start), line + start, n);
            }
            if (k == nc)
                return fail(col, start, why, whylen, "too many cells (more than %d)", nc);
            cells[k++] = (uint8_t)v;
            if (i == hi)
                break;
            int comma = 0;
            while (i < hi && (line[i] == ' ' || line[i] == '\t' || (line[i] == ',' && !comma))) {
                comma |= line[i] == ',';
                i++;
            }
            if (i < hi && (line[i] < '0' || line[i] > '9') && line[i] != '.')
                return unexpected(col, i, why, whylen, (unsigned char)line[i]);
        }
    }
    if (k < nc)
        return fail(col, hi, why, whylen, "too few cells (%d of %d)", k, nc);
    return SB_OK;
}

int sb_gformat(const sb_geometry *g, const uint8_t *cells, int form, char *out, size_t outlen)
{
    if (!g || !cells || (!out && outlen))
        return SB_ERR_ARG;
    const int n = sb_geometry_digits(g), nc = sb_geometry_cells(g);
    if (form != SB_GFORM_CHARS && form != SB_GFORM_INTS)
        return SB_ERR_ARG;
    if (form == SB_GFORM_CHARS && n > ALPHABET_MAX)
        return SB_ERR_ARG;
    if (form == SB_GFORM_CHARS) {
        /* A byte a cell: one pass checks the cells and one writes them, neither with a
         * branch a cell, so gcc vectorises both. A cell at a time through a text buffer, a
         * 9x9 line took about 950 instructions (250 now; `generate` writes one or two a
         * puzzle). */
        const uint8_t *restrict in = cells;
        char *restrict text = out; /* out never overlaps cells: a char may alias anything */
        uint8_t top = 0;
        for (int c = 0; c < nc; c++)
            top = in[c] > top ? in[c] : top;
        if (top > n)
            return SB_ERR_ARG;
        const size_t fit = (size_t)nc < outlen ? (size_t)nc : outlen ? outlen - 1 : 0;
        for (size_t c = 0; c < fit; c++) {
            const uint8_t v = in[c]; /* '.', '1'-'9', then 'A'-'Z' */
            text[c] = (char)(v == 0 ? '.' : v + (v < 10 ? '0' : 'A' - 10));
        }
        if (outlen)
            out[fit] = '\0';
        return nc;
    }
    size_t need = 0, fit = 0; /* fit: bytes actually written (a prefix of whole cells) */
    for (int c = 0; c < nc; c++) {
        if (cells[c] > n)
            return SB_ERR_ARG;
        /* ",v" (no comma first), v at most 64: by hand, where snprintf took about 700
         * instructions a cell (callgrind, 16x16 grids: 50 now). */
        const unsigned v = cells[c];
        char tmp[4];
        size_t k = 0;
        if (c)
            tmp[k++] = ',';
        if (v >= 10)
            tmp[k++] = (char)('0' + v / 10);
        tmp[k++] = (char)('0' + v % 10);
        if (need + k < outlen) {
            memcpy(out + need, tmp, k);
            fit = need + k;
        }
        need += k;
    }
    if (outlen)
        out[fit] = '\0';
    return (int)need;
}
