/*
 * parse.c — 9x9 puzzle lines, and the reader's 9x9 path and input buffer (parse.h: the
 * reader object).
 *
 * The reader keeps one fixed buffer (SB_READ_BUF bytes) whatever the input: a line longer than
 * SB_MAX_LINE is reported as invalid and skipped without being stored, so memory stays
 * constant for any input size or shape; a comment line of any length is skipped without a
 * record, as a short one is. Input order and physical line numbers are kept.
 *
 * Speed: batch runs parse millions of lines a second, nearly all of them plain 81-character
 * puzzles, so sb_parse_line first tries a branch-free pass over exactly 81 cells (compiled to
 * vector compares) and only falls back to the careful scan, which finds the reason and
 * column of a bad line, when that pass fails.
 *
 * Forms (docs/cli.md "Input"), told apart per record: one-line puzzles (81 cells, a Kaggle
 * row, a tdoku record PUZZLE:COUNT:SOLUTION, 729-character pencilmarks) are recognised by
 * sb_parse_line; a nine-line grid (rows of 9 cells with optional '|' and spaces, optional
 * rule lines of '-', '+', '=', '|') is gathered by the reader, because only it sees several
 * lines. Every line the fast path takes is still an 81-cell line: the other forms cost
 * nothing on plain files.
 *
 * Resuming: a read() that fails with EINTR (a signal handler installed without SA_RESTART,
 * as a program does to stop on Ctrl-C) or EAGAIN (a non-blocking descriptor) makes
 * sb_reader_next return SB_ERR_IO with errno set, having consumed nothing: the caller may
 * check its own state and call again. A long line being skipped stays in the reader's state
 * for the same reason, and so does a stop request (sb_reader_set_stop) while skipping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "parse.h"

_Static_assert((int)SB_READ_BUF > (int)SB_MAX_LINE, "a whole accepted line fits the buffer");

enum {
    KAGGLE_LEN = 2 * SB_CELLS + 1, /* "puzzle,solution" */
    PENCIL_LEN = SB_CELLS * SB_DIGITS /* tdoku -p: 9 characters per cell */
};

static const char kaggle_header[] = "quizzes,solutions";

/* What a line is to the nine-line grid form. */
typedef enum grid_line {
    GRID_NONE = 0, /* neither a row nor a rule (why/col say what is wrong as a row) */
    GRID_ROW = 1,  /* 9 cells (or pretty output's 9 + 9 side by side: the first 9) */
    GRID_RULE = 2  /* a rule line between bands or grids */
} grid_line;

/* Returns the digit value of a cell character: 1..9, 0 for a blank, -1 if not a cell. */
static int cell_value(unsigned char ch)
{
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch == '.' || ch == '0' || ch == '-' || ch == '_')
        return 0;
    return -1;
}

/* Writes why = "unexpected character ..." for byte ch, printable or not. */
static void why_unexpected(char *why, unsigned char ch)
{
    if (ch >= 0x20 && ch < 0x7f)
        snprintf(why, SB_WHY_LEN, "unexpected character '%c'", ch);
    else
        snprintf(why, SB_WHY_LEN, "unexpected character '\\x%02x'", ch);
}

/* A comment after a puzzle's cells (line[i..hi) is blanks, then '#'): why says so and *col
 * points at the '#', the same message as the other geometries' path. @return 1 when it is
 * one, else 0. */
static int comment_at(const char *line, size_t i, size_t hi, char *why, size_t *col)
{
    while (i < hi && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == hi || line[i] != '#')
        return 0;
    *col = i + 1;
    snprintf(why, SB_WHY_LEN, "%s", SB_WHY_COMMENT);
    return 1;
}

size_t sb_tdoku_count(const char *line, size_t i, size_t hi, char *why, size_t *col)
{
    const size_t start = i;
    while (i < hi && line[i] >= '0' && line[i] <= '9')
        i++;
    if (i == start) {
        while (i < hi && line[i] >= 'a' && line[i] <= 'z')
            i++;
        const size_t wl = i - start;
        if (wl == 7 && !memcmp(line + start, "invalid", 7)) {
            *col = start + 1;
            snprintf(why, SB_WHY_LEN, "tdoku record of an invalid line");
            return 0;
        }
        if (wl != 6 || memcmp(line + start, "budget", 6)) {
            *col = start + 1;
            snprintf(why, SB_WHY_LEN, "bad count field");
            return 0;
        }
    }
    if (i < hi && line[i] != ':') {
        *col = i + 1;
        snprintf(why, SB_WHY_LEN, "bad count field");
        return 0;
    }
    return i;
}

/* Checks the end of a tdoku record after "PUZZLE:" from byte i: the count (sb_tdoku_count),
 * then optionally ':' and an empty or 81-digit solution, which is checked for its form and
 * otherwise ignored (as a Kaggle solution column). The record of an invalid line
 * ("TEXT:invalid:") stays invalid: its text may happen to be 81 cells. */
static sb_line_kind parse_tdoku_tail(const char *line, size_t i, size_t hi, char *why,
                                     size_t *col)
{
    i = sb_tdoku_count(line, i, hi, why, col);
    if (!i)
        return SB_LINE_INVALID;
    if (i == hi)
        return SB_LINE_PUZZLE;
    size_t j = ++i;
    while (j < hi && line[j] >= '1' && line[j] <= '9')
        j++;
    if (j != hi || (hi - i != 0 && hi - i != SB_CELLS)) {
        *col = j + 1;
        snprintf(why, SB_WHY_LEN, "bad solution column");
        return SB_LINE_INVALID;
    }
    return SB_LINE_PUZZLE;
}

/* Where a pencilmark line's candidates go (the reader's records); NULL for sb_parse_line. */
typedef struct marks_sink {
    uint64_t *cand; /* receives the 81 candidate masks, eliminations beyond the givens
                       accepted; NULL: none (such a line is refused) */
    int *found;     /* set to 1 when the line was a pencilmark line whose masks went to cand */
} marks_sink;

/* Reads a 729-character pencilmark line (tdoku -p): cell c is characters 9c..9c+8, the k-th
 * either the digit k+1 (a candidate) or '.' (eliminated). A cell with one candidate is a
 * given; a cell with no candidate is refused. grid gets the givens. Without a sink that
 * accepts them (sb_parse_line: an sb_grid holds givens only) a line whose marks eliminate
 * more than its givens imply is refused: it would be a different puzzle. base is s's offset
 * in its line, for columns. */
static sb_line_kind parse_pencilmarks(const char *s, size_t base, uint8_t *cells,
                                      const marks_sink *sink, char *why, size_t *col)
{
    uint16_t marks[SB_CELLS];
    for (int c = 0; c < SB_CELLS; c++) {
        unsigned m = 0;
        for (int k = 0; k < SB_DIGITS; k++) {
            const char ch = s[SB_DIGITS * c + k];
            if (ch == '1' + k) {
                m |= 1u << k;
            } else if (ch != '.') {
                *col = base + (size_t)(SB_DIGITS * c + k) + 1;
                if (ch >= '1' && ch <= '9')
                    snprintf(why, SB_WHY_LEN, "pencilmark '%c' in place of digit %d", ch, k + 1);
                else
                    why_unexpected(why, (unsigned char)ch);
                return SB_LINE_INVALID;
            }
        }
        if (!m) {
            *col = base + (size_t)(SB_DIGITS * c) + 1;
            snprintf(why, SB_WHY_LEN, "pencilmarks: cell r%dc%d has no candidate",
                     c / SB_DIGITS + 1, c % SB_DIGITS + 1);
            return SB_LINE_INVALID;
        }
        marks[c] = (uint16_t)m;
        cells[c] = (uint8_t)((m & (m - 1)) ? 0 : __builtin_ctz(m) + 1);
    }
    if (sink && sink->cand) {
        for (int c = 0; c < SB_CELLS; c++)
            sink->cand[c] = marks[c];
        *sink->found = 1;
        return SB_LINE_PUZZLE;
    }
    uint16_t allowed[SB_CELLS];
    sb_grid_candidates((const sb_grid *)(const void *)cells, allowed);
    for (int c = 0; c < SB_CELLS; c++) {
        const unsigned lost = cells[c] ? 0u : (unsigned)(allowed[c] & ~marks[c]);
        if (lost) {
            *col = base + (size_t)(SB_DIGITS * c + __builtin_ctz(lost)) + 1;
            snprintf(why, SB_WHY_LEN, "pencilmarks: elimination beyond the givens (r%dc%d)",
                     c / SB_DIGITS + 1, c % SB_DIGITS + 1);
            return SB_LINE_INVALID;
        }
    }
    return SB_LINE_PUZZLE;
}

/* Classifies a line for the nine-line grid form. A rule holds only '-', '+', '=', '|',
 * spaces and tabs, and is not 9 cells (a '+' or '=', or a dash count other than 9: "---------"
 * is a row of blanks). A row holds cells (as the one-line form: '1'-'9' givens, '.', '0',
 * '-', '_' blanks) separated by any spaces, tabs and '|': 9 of them, or 18 with a gap of two
 * spaces after the ninth (pretty output: the givens' grid beside the solution's; the first 9
 * are the puzzle). For GRID_NONE why/col say what is wrong with the line as a row. */
static grid_line classify_grid_line(const char *s, size_t len, uint8_t row[SB_DIGITS],
                                    char *why, size_t *col)
{
    size_t lo = 0, hi = len;
    while (hi > lo && (s[hi - 1] == '\r' || s[hi - 1] == ' ' || s[hi - 1] == '\t'))
        hi--;
    int dashes = 0, other_rule = 0, rule_only = 1;
    for (size_t i = lo; i < hi; i++) {
        const char ch = s[i];
        dashes += ch == '-';
        other_rule |= ch == '+' || ch == '=';
        rule_only &= ch == '-' || ch == '+' || ch == '=' || ch == '|' || ch == ' ' || ch == '\t';
    }
    if (rule_only && (other_rule || dashes != SB_DIGITS))
        return GRID_RULE;
    int n = 0, gap = 0;
    size_t ninth_end = 0, tenth = 0; /* after the ninth cell; the tenth cell */
    for (size_t i = lo; i < hi; i++) {
        const char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '|')
            continue;
        const int v = cell_value((unsigned char)ch);
        if (v < 0) {
            *col = i + 1;
            why_unexpected(why, (unsigned char)ch);
            return GRID_NONE;
        }
        if (n < SB_DIGITS) {
            row[n] = (uint8_t)v;
        } else if (n == SB_DIGITS) {
            tenth = i;
            gap = memmem(s + ninth_end, i - ninth_end, "  ", 2) != NULL;
        }
        if (++n == SB_DIGITS)
            ninth_end = i + 1;
    }
    if (n == SB_DIGITS || (n == 2 * SB_DIGITS && gap))
        return GRID_ROW;
    *col = n > SB_DIGITS ? tenth + 1 : hi + 1;
    snprintf(why, SB_WHY_LEN, "grid row has %d cells (9 needed)", n);
    return GRID_NONE;
}

int sb_kaggle_header(const char *line, size_t len)
{
    size_t lo = 0, hi = len;
    while (hi > lo && (line[hi - 1] == '\r' || line[hi - 1] == ' ' || line[hi - 1] == '\t'))
        hi--;
    while (lo < hi && (line[lo] == ' ' || line[lo] == '\t'))
        lo++;
    return hi - lo == sizeof kaggle_header - 1 && !memcmp(line + lo, kaggle_header, hi - lo);
}

int sb_grid_rule_line(const char *line, size_t len)
{
    uint8_t row[SB_DIGITS];
    char why[SB_WHY_LEN];
    size_t col;
    return classify_grid_line(line, len, row, why, &col) == GRID_RULE;
}

int sb_line_is_grid(const char *line, size_t len)
{
    uint8_t row[SB_DIGITS];
    char why[SB_WHY_LEN];
    size_t col;
    sb_grid grid;
    if (!line || sb_parse_line(line, len, &grid, NULL, NULL) != SB_LINE_INVALID)
        return 0;
    return classify_grid_line(line, len, row, why, &col) != GRID_NONE;
}

/* sb_parse_line into 81 cells, with the candidates of a pencilmark line going to sink (may
 * be NULL). */
static sb_line_kind parse_line(const char *line, size_t len, uint8_t *cells,
                               const marks_sink *sink, char *why, size_t *col);

sb_line_kind sb_parse_line(const char *line, size_t len, sb_grid *grid, char *why, size_t *col)
{
    if (!line || !grid) {
        if (why)
            snprintf(why, SB_WHY_LEN, "no line or no grid");
        if (col)
            *col = 0;
        return SB_LINE_INVALID;
    }
    return parse_line(line, len, grid->cell, NULL, why, col);
}

static sb_line_kind parse_line(const char *line, size_t len, uint8_t *cells,
                               const marks_sink *sink, char *why, size_t *col)
{
    char scratch[SB_WHY_LEN];
    size_t scratch_col;
    if (!why)
        why = scratch;
    if (!col)
        col = &scratch_col;
    why[0] = '\0';
    *col = 0;

    /* Fast path: exactly 81 cells, optionally a '\r'. No early exit and no branch on the
     * byte values, so the loop vectorises; any odd byte sends the line to the full scan. */
    if (len == SB_CELLS || (len == SB_CELLS + 1 && line[SB_CELLS] == '\r')) {
        const unsigned char *u = (const unsigned char *)line;
        unsigned char bad = 0;
        for (int i = 0; i < SB_CELLS; i++) {
            const unsigned char c = u[i];
            const unsigned char d = (unsigned char)(c - '0'); /* wraps for c < '0' */
            const unsigned char digit = d <= 9;               /* '0' is a blank: value 0 */
            /* '+' rather than '|': gcc turns an or of compares into a 64-bit bit test,
             * which does not vectorise. At most one term is 1. */
            const unsigned char blank = (unsigned char)((c == '.') + (c == '-') + (c == '_'));
            bad |= (unsigned char)((digit | blank) ^ 1);
            cells[i] = digit ? d : 0;
        }
        if (!bad)
            return SB_LINE_PUZZLE;
    }

    size_t lo = 0, hi = len;
    while (hi > lo && (line[hi - 1] == '\r' || line[hi - 1] == ' ' || line[hi - 1] == '\t'))
        hi--;
    while (lo < hi && (line[lo] == ' ' || line[lo] == '\t'))
        lo++;
    if (lo == hi || line[lo] == '#')
        return SB_LINE_SKIP;
    if (sb_kaggle_header(line + lo, hi - lo))
        return SB_LINE_SKIP;

    /* A pencilmark line, alone or as the puzzle of a tdoku record (`solve -f tdoku` output
     * of one): no other form has 729 cell characters before its end or a ':'. */
    if (hi - lo == PENCIL_LEN || (hi - lo > PENCIL_LEN && line[lo + PENCIL_LEN] == ':')) {
        const sb_line_kind k = parse_pencilmarks(line + lo, lo, cells, sink, why, col);
        if (k != SB_LINE_PUZZLE || hi - lo == PENCIL_LEN)
            return k;
        const sb_line_kind t = parse_tdoku_tail(line, lo + PENCIL_LEN + 1, hi, why, col);
        if (t != SB_LINE_PUZZLE && sink)
            *sink->found = 0;
        return t;
    }

    size_t i = lo;
    int n = 0;
    for (; i < hi && n < SB_CELLS; i++, n++) {
        const int v = cell_value((unsigned char)line[i]);
        if (v < 0 && comment_at(line, i, hi, why, col))
            return SB_LINE_INVALID;
        if (v < 0) {
            *col = i + 1;
            if (line[i] == ',')
                snprintf(why, SB_WHY_LEN, "too few cells (%d of %d)", n, SB_CELLS);
            else
                why_unexpected(why, (unsigned char)line[i]);
            return SB_LINE_INVALID;
        }
        cells[n] = (uint8_t)v;
    }
    if (n < SB_CELLS) {
        *col = i + 1;
        snprintf(why, SB_WHY_LEN, "too few cells (%d of %d)", n, SB_CELLS);
        return SB_LINE_INVALID;
    }
    if (i == hi)
        return SB_LINE_PUZZLE;
    if (cell_value((unsigned char)line[i]) >= 0) {
        *col = i + 1;
        snprintf(why, SB_WHY_LEN, "too many cells");
        return SB_LINE_INVALID;
    }
    if (line[i] == ':')
        return parse_tdoku_tail(line, i + 1, hi, why, col);
    if (comment_at(line, i, hi, why, col))
        return SB_LINE_INVALID;
    if (line[i] != ',') {
        *col = i + 1;
        why_unexpected(why, (unsigned char)line[i]);
        return SB_LINE_INVALID;
    }
    /* A Kaggle row: the solution column must be 81 digits 1-9. */
    size_t j = i + 1;
    while (j < hi && line[j] >= '1' && line[j] <= '9')
        j++;
    if (hi - lo != KAGGLE_LEN || j != hi) {
        *col = j + 1;
        snprintf(why, SB_WHY_LEN, "bad solution column");
        return SB_LINE_INVALID;
    }
    return SB_LINE_PUZZLE;
}

int sb_read_refill(sb_reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    const size_t room = SB_READ_BUF - r->end;
    ssize_t got;
    if (r->fd >= 0) {
        got = read(r->fd, r->buf + r->end, room);
        if (got < 0)
            return SB_ERR_IO;
    } else {
        got = (ssize_t)fread(r->buf + r->end, 1, room, r->in);
        if (got == 0 && ferror(r->in))
            return SB_ERR_IO;
    }
    if (got == 0)
        r->eof = 1;
    r->end += (size_t)got;
    return SB_OK;
}

void sb_read_echo(char *text, const char *s, size_t len)
{
    size_t n = len < SB_CELLS ? len : SB_CELLS;
    for (size_t i = 0; i < n; i++) { /* a select, not a branch: vectorises */
        const unsigned char ch = (unsigned char)s[i];
        const int shown = (unsigned char)(ch - 0x20) < 0x5f && ch != ':';
        text[i] = shown ? (char)ch : '?';
    }
    text[n] = '\0';
}

/* @return 1 when a line longer than SB_MAX_LINE (s: its first len bytes, BOM removed) is a
 * comment: its first byte other than a space or tab is '#', within its first SB_MAX_LINE
 * bytes. Such a line is skipped whatever its length, as a short one is; any other long line
 * is "line too long". Looking no further than SB_MAX_LINE bytes keeps the answer the same
 * however the line arrives (whole in one read or in pieces). */
static int long_comment(const char *s, size_t len)
{
    const size_t n = len < SB_MAX_LINE ? len : SB_MAX_LINE;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i < n && s[i] == '#';
}

/* The length of a UTF-8 byte order mark at s (avail bytes) when s starts line 1, else 0. */
static size_t bom_at(const sb_reader *r, const char *s, size_t avail)
{
    return r->line == 0 && avail >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* Discards input up to and including the next '\n' (or to end of input), then clears
 * r->skipping. On a read error or a stop request r->skipping stays set, so a later call
 * resumes the skip. The stop flag is read once per buffer: a line may never end. */
static int skip_rest_of_line(sb_reader *r)
{
    for (;;) {
        if (r->stop && *r->stop)
            return SB_ERR_STOPPED;
        const char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (nl) {
            r->start = (size_t)(nl - r->buf) + 1;
            r->skipping = 0;
            return SB_OK;
        }
        r->start = r->end;
        if (r->eof) {
            r->skipping = 0;
            return SB_OK;
        }
        const int st = sb_read_refill(r);
        if (st != SB_OK)
            return st;
    }
}

/* Opens a grid record at the current line (its first line: a row or a top rule). */
static void grid_begin(sb_reader *r, const char *s, size_t len)
{
    r->grid_open = 1;
    r->grid_rows = 0;
    r->grid_bad = 0;
    memset(&r->grid, 0, sizeof r->grid);
    memset(r->grid_cells, 0, sizeof r->grid_cells);
    r->grid.line = r->line;
    r->grid.kind = SB_LINE_PUZZLE;
    r->grid.form = SB_GFORM_CHARS;
    sb_read_echo(r->grid.text, s, len);
}

/* Ends the open grid before its ninth row (a blank line, a comment, a one-line puzzle, a long
 * line or the end of input came first) and puts its record, invalid, in *rec and its cells in
 * cells: the first bad row's fault, else "grid ends after K of 9 rows" at the grid's first
 * line. */
static void grid_cut(sb_reader *r, sb_record *rec, uint8_t *cells)
{
    *rec = r->grid;
    memcpy(cells, r->grid_cells, SB_CELLS);
    if (!r->grid_bad) {
        rec->kind = SB_LINE_INVALID;
        rec->col = 1;
        snprintf(rec->why, SB_WHY_LEN, "grid ends after %d of 9 rows", r->grid_rows);
    }
    r->grid_open = 0;
}

/* Offers a line one-line parsing refused to the nine-line grid form. @return 1 when the line
 * completed a grid (its record in *rec, its cells in cells), 0 when the line was taken (a
 * row, or a rule line: inside a grid, opening one, or right after one), -1 when it is no grid
 * text and no grid with rows is open (the caller reports the line itself). A bad line inside
 * a grid counts as one of its rows, so a grid with a typo is still one record, not several. */
static int grid_take(sb_reader *r, const char *s, size_t len, sb_record *rec, uint8_t *cells)
{
    uint8_t row[SB_DIGITS];
    char why[SB_WHY_LEN] = "";
    size_t col = 0;
    const grid_line g = classify_grid_line(s, len, row, why, &col);
    if (g == GRID_RULE) {
        if (!r->grid_open && !r->after_grid)
            grid_begin(r, s, len); /* a top rule; alone it is only a separator */
        return 0;
    }
    r->after_grid = 0;
    if (g == GRID_NONE && (!r->grid_open || r->grid_rows == 0)) {
        r->grid_open = 0; /* a rule before it was a separator */
        return -1;
    }
    if (!r->grid_open)
        grid_begin(r, s, len);
    if (g == GRID_ROW && !r->grid_bad) {
        memcpy(r->grid_cells + SB_DIGITS * r->grid_rows, row, SB_DIGITS);
    } else if (g == GRID_NONE && !r->grid_bad) {
        r->grid_bad = 1;
        r->grid.line = r->line;
        r->grid.kind = SB_LINE_INVALID;
        r->grid.col = col;
        memcpy(r->grid.why, why, SB_WHY_LEN);
    }
    if (++r->grid_rows < SB_DIGITS)
        return 0;
    *rec = r->grid;
    memcpy(cells, r->grid_cells, SB_CELLS);
    r->grid_open = 0;
    r->after_grid = 1;
    return 1;
}

int sb_read_9x9(sb_reader *r, sb_record *rec, uint8_t *cells, uint64_t *cand)
{
    if (r->skipping) {
        const int st = skip_rest_of_line(r);
        if (st != SB_OK)
            return st;
    }
    for (;;) {
        const char *s = r->buf + r->start;
        const size_t avail = r->end - r->start;
        const char *nl = memchr(s, '\n', avail);
        /* A grid with rows still open when its input ends or an over-long line comes is cut
         * first; the line is then read again by the next call. */
        const int cut = r->grid_open && r->grid_rows > 0;
        size_t len;
        if (nl) {
            len = (size_t)(nl - s);
        } else if (avail > SB_MAX_LINE) {
            if (cut)
                return grid_cut(r, rec, cells), 1;
            const size_t bom = bom_at(r, s, avail);
            r->line++;
            if (long_comment(s + bom, avail - bom)) {
                /* a comment: no record, its bytes discarded as they come; as a short one,
                 * it ends a grid begun by a rule alone (one with rows was cut above) */
                r->start = r->end;
                r->skipping = 1;
                r->grid_open = 0;
                r->after_grid = 0;
                const int st = skip_rest_of_line(r);
                if (st != SB_OK)
                    return st;
                continue;
            }
            rec->line = r->line;
            rec->kind = SB_LINE_INVALID;
            rec->col = SB_MAX_LINE + 1;
            snprintf(rec->why, SB_WHY_LEN, "line too long");
            sb_read_echo(rec->text, s, avail);
            /* The rest of the line is discarded by the next call: this record is returned
             * now, without waiting for the line's end to arrive. */
            r->start = r->end;
            r->skipping = 1;
            return 1;
        } else if (!r->eof) {
            const int st = sb_read_refill(r);
            if (st != SB_OK)
                return st;
            continue;
        } else if (avail == 0) {
            if (cut)
                return grid_cut(r, rec, cells), 1;
            r->grid_open = 0;
            return 0;
        } else {
            len = avail; /* last line without a final newline */
        }
        const size_t bom = bom_at(r, s, len);
        /* a comment line of any length is parsed (skipped) as a short one */
        const int too_long = len - bom > SB_MAX_LINE && !long_comment(s + bom, len - bom);
        if (too_long && cut)
            return grid_cut(r, rec, cells), 1;
        const size_t start = r->start;
        r->start += nl ? len + 1 : len;
        r->line++;
        s += bom; /* UTF-8 byte order mark */
        len -= bom;
        if (too_long) {
            rec->line = r->line;
            rec->kind = SB_LINE_INVALID;
            rec->col = SB_MAX_LINE + 1;
            snprintf(rec->why, SB_WHY_LEN, "line too long");
            sb_read_echo(rec->text, s, len);
            r->grid_open = 0;
            r->after_grid = 0;
            return 1;
        }
        rec->marks = 0;
        const marks_sink sink = {cand, &rec->marks};
        const sb_line_kind kind = parse_line(s, len, cells, &sink, rec->why, &rec->col);
        if (kind == SB_LINE_INVALID) {
            const int g = grid_take(r, s, len, rec, cells);
            if (g == 1)
                return 1;
            if (g == 0)
                continue;
        } else {
            r->after_grid = 0;
            if (r->grid_open && r->grid_rows > 0) {
                if (kind == SB_LINE_PUZZLE) { /* read again after the grid's record */
                    r->start = start;
                    r->line--;
                }
                return grid_cut(r, rec, cells), 1;
            }
            r->grid_open = 0;
        }
        if (kind == SB_LINE_SKIP)
            continue;
        rec->line = r->line;
        rec->kind = kind;
        sb_read_echo(rec->text, s, len);
        return 1;
    }
}
