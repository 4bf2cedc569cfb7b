/*
 * reader.c — the streaming reader of every geometry (sb_reader; docs/geometry.md "Reading and
 * rating any geometry"): its object, the path of every geometry other than 9x9 (the 9x9 path
 * is parse.c's, beside its line parser), and the geometry of an input from its first record
 * (sb_geometry_detect).
 *
 * On a geometry other than 9x9 the reader keeps one fixed buffer whatever the input: a line
 * longer than SB_GEO_MAX_LINE is reported ("line too long") and the rest of it discarded as it
 * arrives, so memory stays bounded for any input (/dev/zero included); a comment line of any
 * length is discarded the same way without a record, as a short one is skipped; the stop flag
 * is polled while discarding, because such a line may never end. Each line is parsed for the geometry (sb_gparse) and
 * checked for givens that clash in a house, so a record reaching a solver is a puzzle whose
 * only possible fault is having no solution; the clash message names both cells and the
 * house in the geometry's own terms (r1c5, x1y2z3, plane y=2, region 3).
 *
 * On sb_geometry_9x9() the 9x9 path does the reading, with every form it knows and its hot
 * path for 81-character lines straight into the caller's cells, so a caller needs one loop
 * and one record type for every geometry.
 *
 * Resuming: a read() that fails (EINTR from a signal handler without SA_RESTART) returns
 * SB_ERR_IO having consumed nothing, and a stop request while a long line is discarded
 * leaves the discard in the reader's state: a later call goes on where this one stopped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "parse.h"

enum {
    ALPHABET_MAX = 35 /* the largest N the character form can write ('1'-'9', 'A'-'Z') */
};

_Static_assert(SB_READ_BUF > SB_GEO_MAX_LINE + 1, "a whole accepted line fits the buffer");

/* ------------------------------------------------------------------------------------------ */
/* Lines and the clash message                                                                */
/* ------------------------------------------------------------------------------------------ */

/* @return how many of s's first len bytes come before the first byte that is not in set
 * (in 1) or that is in set (in 0); a NUL byte is never in set. */
static size_t span(const char *s, size_t len, const char *set, int in)
{
    size_t i = 0;
    while (i < len && (s[i] && strchr(set, s[i])) == in)
        i++;
    return i;
}

/* @return 1 when the line (no '\n') is skipped: blank, or a '#' comment after spaces. */
static int skip_line(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == len || s[i] == '#';
}

/* @return 1 when a line longer than SB_GEO_MAX_LINE (s: its first len bytes; first: it is
 * line 1, whose UTF-8 BOM is passed over) is a comment, which is skipped whatever its length
 * as a short one is: its first byte after the blanks skip_line passes over is '#', within its
 * first SB_GEO_MAX_LINE bytes (so the answer does not depend on how the line arrives). */
static int long_comment(const char *s, size_t len, int first)
{
    if (first && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
        s += 3;
        len -= 3;
    }
    if (len > SB_GEO_MAX_LINE)
        len = SB_GEO_MAX_LINE;
    const size_t i = span(s, len, " \t\r", 1);
    return i < len && s[i] == '#';
}

/* The 1-based column of cell k of a line sb_gparse accepted in form. */
static size_t cell_column(const char *s, size_t len, int form, int k)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (form == SB_GFORM_CHARS)
        return i + (size_t)k + 1;
    for (int t = 0; t < k && i < len; t++) {
        while (i < len && s[i] != ',' && s[i] != ' ' && s[i] != '\t')
            i++;
        int comma = 0;
        while (i < len && (s[i] == ' ' || s[i] == '\t' || (s[i] == ',' && !comma)))
            comma |= s[i++] == ',';
    }
    return i + 1;
}

/* Writes the name of cell c ("r1c2", "x1y2z3" or "cell 7") into out. */
static void cell_name(const sb_geometry *g, int c, char *out, size_t len)
{
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    const int kind = sb_geometry_kind_of(g);
    if (kind == SB_GEO_CUBE) {
        const int k = l.rows;
        snprintf(out, len, "x%dy%dz%d", c / (k * k) + 1, c / k % k + 1, c % k + 1);
    } else if (kind == SB_GEO_HOUSES) {
        snprintf(out, len, "cell %d", c);
    } else {
        snprintf(out, len, "r%dc%d", c / l.cols + 1, c % l.cols + 1);
    }
}

/* Writes the name of house h ("row 1", "box 3", "plane y=2", "house 5") into out. */
static void house_name(const sb_geometry *g, int h, char *out, size_t len)
{
    const int n = sb_geometry_digits(g), kind = sb_geometry_kind_of(g);
    if (kind == SB_GEO_CUBE) {
        sb_geometry_layout l;
        sb_geometry_layout_of(g, &l);
        snprintf(out, len, "plane %c=%d", "xyz"[h / l.rows], h % l.rows + 1);
    } else if (kind == SB_GEO_HOUSES || h >= 3 * n + 2) {
        snprintf(out, len, "house %d", h + 1);
    } else if (h >= 3 * n) {
        snprintf(out, len, "%s", h == 3 * n ? "main diagonal" : "anti-diagonal");
    } else {
        static const char *const what[] = {"row", "column", "box", "region"};
        const int w = h / n == 2 && kind == SB_GEO_JIGSAW ? 3 : h / n;
        snprintf(out, len, "%s %d", what[w], h % n + 1);
    }
}

/* Finds two givens with the same digit in one house (the first house in order that has
 * any, its second such cell last). @return 1 with *a < *b and *house set, else 0. */
static int find_clash(const sb_geometry *g, const uint8_t *cells, int *a, int *b, int *house)
{
    const int n = sb_geometry_digits(g), nh = sb_geometry_houses(g);
    int seen[SB_GEO_MAX_DIGITS + 1];
    for (int h = 0; h < nh; h++) {
        const uint16_t *hc = sb_geometry_house(g, h);
        for (int d = 0; d <= n; d++)
            seen[d] = -1;
        for (int i = 0; i < n; i++) {
            const int d = cells[hc[i]];
            if (!d)
                continue;
            if (seen[d] >= 0) {
                *a = seen[d];
                *b = hc[i];
                *house = h;
                return 1;
            }
            seen[d] = hc[i];
        }
    }
    return 0;
}

static int count_cells(const char *s, size_t len);
static int marks_like(const char *s, size_t len);
static void trim(const char *s, size_t len, size_t *lo, size_t *hi);

/* @return 1 when g has the 9x9 shape (3x3 boxes): its reader also takes the 9x9 reader's
 * other one-line forms (sb_parse_line), so --grid 3x3 and 9x9 `solve --all` read them. */
static int nine_by_nine(const sb_geometry *g)
{
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    return sb_geometry_kind_of(g) == SB_GEO_BOXED && l.box_rows == 3 && l.box_cols == 3;
}

/* Checks a tdoku record's tail after "PUZZLE:" (s[at..len)) by the 9x9 reader's rules: the
 * count (sb_tdoku_count), then optionally ':' and an empty solution or a whole one of g (no
 * blank cell), checked for its form and otherwise ignored. scratch holds the solution's
 * cells. @return 1 when the tail is good, else 0 with rec->why and rec->col set. */
static int tdoku_tail(const sb_geometry *g, const char *s, size_t at, size_t len,
                      uint8_t *scratch, sb_record *rec)
{
    size_t lo, hi;
    trim(s, len, &lo, &hi);
    const size_t i = sb_tdoku_count(s, at, hi, rec->why, &rec->col);
    size_t col = 0;
    if (i && i + 1 < hi) { /* a solution: whole, no blank cell */
        const size_t n = hi - i - 1;
        const int nc = sb_geometry_cells(g);
        char why[SB_GEO_WHY_LEN];
        int form, k = 0;
        if (sb_gparse(g, s + i + 1, n, scratch, &form, why, sizeof why, &col) == SB_OK) {
            while (k < nc && scratch[k])
                k++;
            col = k < nc ? cell_column(s + i + 1, n, form, k) : 0;
        }
        if (col) {
            rec->col = i + 1 + col;
            snprintf(rec->why, sizeof rec->why, "bad solution column");
        }
    }
    if (i && !col)
        return 1;
    rec->kind = SB_LINE_INVALID;
    return 0;
}

/* Takes a line of g's 9x9 shape that sb_gparse refused as the 9x9 reader would: a Kaggle
 * row, pencilmarks (without eliminations beyond their givens) or '-' blanks give their cells;
 * a pencilmark line's fault, or a row or rule of a nine-line grid, is said for that form.
 * @return 1 with cells (a puzzle) or rec (invalid) filled, 0 when the line is none of these. */
static int as_9x9(const char *s, size_t len, sb_record *rec, uint8_t *cells)
{
    sb_grid grid;
    char why[SB_WHY_LEN];
    size_t col = 0;
    const sb_line_kind k = sb_parse_line(s, len, &grid, why, &col);
    if (k == SB_LINE_PUZZLE) {
        memcpy(cells, grid.cell, SB_CELLS);
        rec->form = SB_GFORM_CHARS;
        return 1;
    }
    const char *colon = memchr(s, ':', len);
    if (marks_like(s, colon ? (size_t)(colon - s) : len)) {
        rec->col = col;
        snprintf(rec->why, sizeof rec->why, "%s", why);
    } else if (sb_line_is_grid(s, len)) {
        rec->col = 1;
        snprintf(rec->why, sizeof rec->why, "%s",
                 "nine-line grid: --all and 3x3 read one line a puzzle");
    } else {
        return 0;
    }
    rec->kind = SB_LINE_INVALID;
    return 1;
}

/* Fills rec and cells from one puzzle line (no '\n'): the cells, or the reason the line is
 * invalid (a parse error, at the first cell past the geometry's count when the line has too
 * many; a '#' after the cells; a bad tdoku tail; the character form on a geometry of more
 * than 35 digits, which it cannot write back; two givens clashing in a house, at the second
 * one's column). A tdoku record PUZZLE:COUNT[:SOLUTION] (`solve -f tdoku` output) is its
 * puzzle. scratch holds sb_geometry_cells bytes. */
static void parse_record(const sb_geometry *g, const char *s, size_t len, sb_record *rec,
                         uint8_t *cells, uint8_t *scratch)
{
    const char *colon = memchr(s, ':', len); /* a tdoku record's tail: no cell is ':' */
    const size_t plen = colon ? (size_t)(colon - s) : len;
    sb_read_echo(rec->text, s, len);
    rec->why[0] = '\0';
    rec->col = 0;
    rec->kind = SB_LINE_PUZZLE;
    const char *hash = memchr(s, '#', len); /* never a cell, never in a tdoku tail */
    if (hash) {
        rec->kind = SB_LINE_INVALID;
        rec->col = (size_t)(hash - s) + 1;
        snprintf(rec->why, sizeof rec->why, "%s", SB_WHY_COMMENT);
        return;
    }
    char why[SB_GEO_WHY_LEN];
    if (sb_gparse(g, s, plen, cells, &rec->form, why, sizeof why, &rec->col) != SB_OK) {
        if (nine_by_nine(g) && as_9x9(s, len, rec, cells)) {
            if (rec->kind == SB_LINE_INVALID)
                return;
            colon = NULL; /* sb_parse_line checked the tail */
        } else {
            rec->kind = SB_LINE_INVALID;
            const int nc = sb_geometry_cells(g);
            if (count_cells(s, plen) > nc) { /* say so rather than what lies past the grid */
                rec->col = cell_column(s, plen, rec->form, nc);
                snprintf(rec->why, sizeof rec->why, "too many cells (more than %d)", nc);
            } else {
                snprintf(rec->why, sizeof rec->why, "%.*s", (int)sizeof rec->why - 1, why);
            }
            return;
        }
    }
    if (colon && !tdoku_tail(g, s, plen + 1, len, scratch, rec))
        return;
    const int n = sb_geometry_digits(g);
    if (rec->form == SB_GFORM_CHARS && n > ALPHABET_MAX) {
        rec->kind = SB_LINE_INVALID;
        rec->col = cell_column(s, len, rec->form, 0);
        /* N <= 64 always: the mask tells the compiler the text fits */
        snprintf(rec->why, sizeof rec->why,
                 "one character per cell needs N <= 35, not %d: write integers", n & 0x7f);
        return;
    }
    int a, b, h;
    if (find_clash(g, cells, &a, &b, &h)) {
        char ca[48], cb[48], hn[48];
        cell_name(g, a, ca, sizeof ca);
        cell_name(g, b, cb, sizeof cb);
        house_name(g, h, hn, sizeof hn);
        rec->kind = SB_LINE_INVALID;
        rec->col = cell_column(s, len, rec->form, b);
        snprintf(rec->why, sizeof rec->why, "%d twice in %.14s (%.12s, %.12s)", cells[b], hn,
                 ca, cb);
    }
}

/* Fills rec as the record of a line longer than SB_GEO_MAX_LINE (its first line). */
static void too_long(sb_record *rec, uint64_t line)
{
    rec->line = line;
    rec->kind = SB_LINE_INVALID;
    rec->form = SB_GFORM_CHARS;
    rec->col = SB_GEO_MAX_LINE + 1;
    snprintf(rec->why, sizeof rec->why, "line too long");
    memcpy(rec->text, "?", 2);
}

/* ------------------------------------------------------------------------------------------ */
/* The reader                                                                                 */
/* ------------------------------------------------------------------------------------------ */

int sb_reader_open(sb_reader **out, const sb_geometry *g, FILE *in)
{
    if (!out || !in || !g)
        return SB_ERR_ARG;
    *out = NULL;
    sb_reader *r = calloc(1, sizeof *r);
    if (!r)
        return SB_ERR_NOMEM;
    r->g = sb_geo_in(g); /* NULL: the 9x9 path */
    r->in = in;
    r->fd = fileno(in);
    r->buf = malloc(SB_READ_BUF);
    if (r->g)
        r->scratch = malloc((size_t)sb_geometry_cells(g));
    if (!r->buf || (r->g && !r->scratch)) {
        sb_reader_close(r);
        return SB_ERR_NOMEM;
    }
    *out = r;
    return SB_OK;
}

void sb_reader_close(sb_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->scratch);
    free(r);
}

void sb_reader_set_stop(sb_reader *r, const volatile sig_atomic_t *stop)
{
    if (r)
        r->stop = stop;
}

/* Whether line s is part of the nine-line grid r last reported as one record (r->reported):
 * its rows and rule lines while rows are still to come, and, once a row of it was read, any
 * line solve's reader refuses as a one-line puzzle, which that reader counts as a bad row of
 * the grid (so a grid with a typo stays one record here too); after its ninth row only its
 * bottom rule. */
static int in_reported_grid(const sb_reader *r, const char *s, size_t len)
{
    sb_grid grid;
    if (r->reported > 1 && r->reported <= SB_DIGITS) /* a row read: grid text or a bad row */
        return sb_parse_line(s, len, &grid, NULL, NULL) == SB_LINE_INVALID;
    if (r->reported > SB_DIGITS) /* its top rule only so far */
        return sb_line_is_grid(s, len);
    return r->reported == 1 && sb_grid_rule_line(s, len) && sb_line_is_grid(s, len);
}

/* sb_reader_next on a geometry other than 9x9 (r->g). Not inlined: its frame would cost the
 * 9x9 path's every record. */
static __attribute__((noinline)) int next_other(sb_reader *r, sb_record *rec, uint8_t *cells)
{
    for (;;) {
        const char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (!nl && !r->eof) {
            if (r->end - r->start > SB_GEO_MAX_LINE) { /* too long: drop what is buffered */
                const int comment = !r->skipping && long_comment(r->buf + r->start,
                                                                 r->end - r->start, r->line == 0);
                r->start = r->end;
                if (!r->skipping) { /* reported now, before its end arrives */
                    r->skipping = 1;
                    ++r->line;
                    if (comment)
                        r->reported = 0; /* no record, as for a short comment */
                    else
                        return too_long(rec, r->line), 1;
                }
            }
            if (r->skipping && r->stop && *r->stop)
                return SB_ERR_STOPPED;
            if (sb_read_refill(r) != SB_OK)
                return SB_ERR_IO;
            continue;
        }
        size_t len = nl ? (size_t)(nl - (r->buf + r->start)) : r->end - r->start;
        if (!nl && len == 0)
            return 0;
        const char *s = r->buf + r->start;
        r->start += len + (nl != NULL);
        if (r->skipping) { /* the end of a line reported too long */
            r->skipping = 0;
            continue;
        }
        r->line++;
        if (len > SB_GEO_MAX_LINE && !long_comment(s, len, r->line == 1)) {
            /* whole in the buffer, refused all the same */
            too_long(rec, r->line);
            return 1;
        }
        if (r->line == 1 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
            s += 3; /* a UTF-8 byte order mark */
            len -= 3;
        }
        if (skip_line(s, len) || (nine_by_nine(r->g) && sb_kaggle_header(s, len))) {
            r->reported = 0; /* the Kaggle header too, as the 9x9 path skips it */
            continue;
        }
        if (in_reported_grid(r, s, len)) {
            r->reported -= !sb_grid_rule_line(s, len); /* the rest of a grid already reported */
            continue;
        }
        r->reported = 0;
        rec->line = r->line;
        parse_record(r->g, s, len, rec, cells, r->scratch);
        if (rec->kind == SB_LINE_INVALID && nine_by_nine(r->g) && sb_line_is_grid(s, len))
            r->reported = SB_DIGITS + 1 - !sb_grid_rule_line(s, len); /* rows to come, + 1 */
        return 1;
    }
}

int sb_reader_next(sb_reader *r, sb_record *rec, uint8_t *cells, uint64_t *cand)
{
    if (!r || !rec || !cells)
        return SB_ERR_ARG;
    rec->marks = 0;
    if (r->g)
        return next_other(r, rec, cells);
    rec->form = SB_GFORM_CHARS;
    return sb_read_9x9(r, rec, cells, cand);
}

int sb_reader_read_cells(sb_reader *r, uint8_t *cells, size_t max, size_t *n, sb_record *bad)
{
    const size_t row = r && r->g ? (size_t)sb_geometry_cells(r->g) : SB_CELLS;
    if (!r || !n || (!cells && max) || max > SIZE_MAX / row)
        return SB_ERR_ARG;
    *n = 0;
    sb_record rec;
    while (*n < max) {
        const int got = sb_reader_next(r, &rec, cells + *n * row, NULL);
        if (got != 1)
            return got; /* 0 at the end, or an error */
        if (rec.kind != SB_LINE_PUZZLE) {
            if (bad)
                *bad = rec;
            return 2;
        }
        ++*n;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* The geometry of an input                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* The line s (len bytes) without its blanks around: s[*lo..*hi) (a '\r' too at the end). */
static void trim(const char *s, size_t len, size_t *lo, size_t *hi)
{
    *lo = 0;
    *hi = len;
    while (*hi > *lo && (s[*hi - 1] == '\r' || s[*hi - 1] == ' ' || s[*hi - 1] == '\t'))
        --*hi;
    while (*lo < *hi && (s[*lo] == ' ' || s[*lo] == '\t'))
        ++*lo;
}

/* Counts the cells of a puzzle line as sb_gparse reads it (integers when a ',' or an inner
 * space or tab is there, else one character per cell), without a geometry. @return the
 * count, or -1 when the line holds anything but cells and separators. */
static int count_cells(const char *s, size_t len)
{
    size_t lo, hi;
    trim(s, len, &lo, &hi);
    const int ints = memchr(s + lo, ',', hi - lo) || memchr(s + lo, ' ', hi - lo) ||
                     memchr(s + lo, '\t', hi - lo);
    for (size_t i = lo; i < hi; i++) {
        const unsigned char ch = (unsigned char)s[i];
        const int digit = ch == '.' || (ch >= '0' && ch <= '9');
        if (!digit && !(ints ? ch == ',' || ch == ' ' || ch == '\t'
                             : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'))
            return -1;
    }
    if (!ints)
        return (int)(hi - lo);
    int n = 0, in_value = 0;
    for (size_t i = lo; i < hi; i++) {
        const int sep = s[i] == ',' || s[i] == ' ' || s[i] == '\t';
        if (!sep && !in_value)
            n++;
        in_value = !sep;
    }
    return n;
}

/* @return 1 when the line (len bytes) reads as 9x9 pencilmarks, even with a mark out of place:
 * 729 characters of digits and blanks ('.', '0') whose digits nearly all (nine in ten) stand
 * at their place in a cell's nine (digit d at place d). A 27x27 grid written with digits only
 * has a given at its place one time in nine, and an empty one has no digit at all. */
static int marks_like(const char *s, size_t len)
{
    size_t lo, hi, digits = 0, placed = 0;
    trim(s, len, &lo, &hi);
    if (hi - lo != (size_t)SB_CELLS * SB_DIGITS)
        return 0;
    for (size_t i = lo; i < hi; i++) {
        if (s[i] == '.' || s[i] == '0')
            continue;
        if (s[i] < '1' || s[i] > '9')
            return 0;
        digits++;
        placed += (size_t)(s[i] - '0') == (i - lo) % SB_DIGITS + 1;
    }
    return digits > 0 && placed * 10 >= digits * 9;
}

/* Finds the first line of text (len bytes) that is not skipped (blank, comment, the Kaggle
 * header); with whole_only it must end in a '\n'. @return 1 with *line, *n, *lineno set. */
static int first_puzzle_line(const char *text, size_t len, int whole_only, const char **line,
                             size_t *n, uint64_t *lineno)
{
    size_t s = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    sb_grid grid;
    for (uint64_t no = 1; s < len; no++) {
        const char *nl = memchr(text + s, '\n', len - s);
        const size_t e = nl ? (size_t)(nl - text) : len;
        if (!nl && whole_only)
            return 0; /* the line goes on past the text */
        if (!skip_line(text + s, e - s) &&
            sb_parse_line(text + s, e - s, &grid, NULL, NULL) != SB_LINE_SKIP) {
            *line = text + s;
            *n = e - s;
            *lineno = no;
            return 1;
        }
        s = e + 1;
    }
    return 0;
}

/* @return 1 when the 9x9 reader takes the first record of text (len > 0 bytes) as a puzzle:
 * one line or any form it reads (a nine-line grid, a Kaggle row, pencilmarks). */
static int first_is_9x9(const char *text, size_t len)
{
    /* fmemopen in "r" mode only reads the buffer */
    FILE *f = fmemopen((void *)(uintptr_t)text, len, "r");
    sb_reader *r = NULL;
    sb_record rec;
    uint8_t cells[SB_CELLS];
    uint64_t cand[SB_CELLS]; /* a pencilmark line is a 9x9 puzzle even when it eliminates
                                beyond its givens */
    const int yes = f && sb_reader_open(&r, sb_geometry_9x9(), f) == SB_OK &&
                    sb_reader_next(r, &rec, cells, cand) == 1 && rec.kind == SB_LINE_PUZZLE;
    sb_reader_close(r);
    if (f)
        fclose(f);
    return yes;
}

int sb_geometry_detect(const char *text, size_t len, int more, sb_geometry **out,
                       uint64_t *line, char *why, size_t whylen)
{
    if (!out || (!text && len))
        return SB_ERR_ARG;
    *out = NULL;
    char reason[SB_GEO_WHY_LEN] = "";
    const char *s;
    size_t n;
    uint64_t no = 0;
    int cells = SB_CELLS;
    /* Only a line of cells and nothing else can name another geometry: anything the 9x9
     * reader takes, or a garbled line, is 9x9 (whose reader reports it). */
    if (len > 0 && first_puzzle_line(text, len, more, &s, &n, &no) && !first_is_9x9(text, len)) {
        n = span(s, n, ":#", 0); /* the cells: not a tdoku tail, nor a comment after them */
        cells = count_cells(s, n);
    }
    if (line)
        *line = no;
    if (cells == SB_DIGITS || (cells == SB_CELLS * SB_DIGITS && marks_like(s, n)))
        cells = SB_CELLS; /* a row of a nine-line 9x9 grid (latin:3 must be said), or 9x9
                           * pencilmarks with a mark out of place (the 9x9 reader says which) */
    /* the 9x9 grid: a constant the caller may free as any other geometry (a no-op) */
    sb_geometry *const nine = (sb_geometry *)(uintptr_t)sb_geometry_9x9();
    if (cells == SB_CELLS) {
        *out = nine;
        return SB_OK;
    }
    const int st = sb_geometry_for_cells(cells, out, reason, sizeof reason);
    if (st == SB_ERR_NOMEM)
        return st;
    /* no boxed geometry: when the reason names one to say (latin:N, cube:K) another shape
     * fits and the caller must choose; otherwise nothing does and it is not a puzzle line,
     * which the 9x9 reader reports */
    if (st != SB_OK && !strstr(reason, "say ")) {
        *out = nine;
        return SB_OK;
    }
    if (st != SB_OK && why && whylen)
        snprintf(why, whylen, "%s", reason);
    return st;
}
