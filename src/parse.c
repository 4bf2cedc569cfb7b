/*
 * parse.c — puzzle lines and the streaming reader.
 *
 * The reader keeps one fixed buffer (READ_BUF bytes) whatever the input: a line longer than
 * SB_MAX_LINE is reported as invalid and skipped without being stored, so memory stays
 * constant for any input size or shape. Input order and physical line numbers are kept.
 *
 * Speed: batch runs parse millions of lines a second, nearly all of them plain 81-character
 * puzzles, so sb_parse_line first tries a branch-free pass over exactly 81 cells (compiled to
 * vector compares) and only falls back to the careful scan, which finds the reason and
 * column of a bad line, when that pass fails.
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

enum {
    READ_BUF = 1 << 16,       /* bytes read at once; must exceed SB_MAX_LINE */
    KAGGLE_LEN = 2 * SB_CELLS + 1 /* "puzzle,solution" */
};

static const char kaggle_header[] = "quizzes,solutions";

struct sb_reader {
    FILE *in;        /* the stream read (not owned) */
    int fd;          /* its descriptor, or -1 when it has none (e.g. fmemopen) */
    char *buf;       /* READ_BUF bytes */
    size_t start;    /* first unread byte of buf */
    size_t end;      /* one past the last valid byte of buf */
    int eof;         /* the stream reported end of input */
    int skipping;    /* inside a line already reported too long: discard up to its '\n' */
    uint64_t line;   /* physical lines consumed so far */
    const volatile sig_atomic_t *stop; /* polled while skipping (sb_reader_set_stop), or NULL */
};

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

sb_line_kind sb_parse_line(const char *line, size_t len, sb_grid *grid, char *why, size_t *col)
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
            grid->cell[i] = digit ? d : 0;
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
    if (hi - lo == sizeof kaggle_header - 1 && !memcmp(line + lo, kaggle_header, hi - lo))
        return SB_LINE_SKIP;

    size_t i = lo;
    int n = 0;
    for (; i < hi && n < SB_CELLS; i++, n++) {
        const int v = cell_value((unsigned char)line[i]);
        if (v < 0) {
            *col = i + 1;
            if (line[i] == ',')
                snprintf(why, SB_WHY_LEN, "too few cells (%d of %d)", n, SB_CELLS);
            else
                why_unexpected(why, (unsigned char)line[i]);
            return SB_LINE_INVALID;
        }
        grid->cell[n] = (uint8_t)v;
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

int sb_reader_open(sb_reader **out, FILE *in)
{
    if (!out || !in)
        return SB_ERR_ARG;
    *out = NULL;
    sb_reader *r = calloc(1, sizeof *r);
    if (!r)
        return SB_ERR_NOMEM;
    r->buf = malloc(READ_BUF);
    if (!r->buf) {
        free(r);
        return SB_ERR_NOMEM;
    }
    r->in = in;
    r->fd = fileno(in);
    *out = r;
    return SB_OK;
}

void sb_reader_close(sb_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r);
}

void sb_reader_set_stop(sb_reader *r, const volatile sig_atomic_t *stop)
{
    if (r)
        r->stop = stop;
}

/* Moves the unread bytes to the front and reads more after them.
 * @return SB_OK (r->eof set at end of input) or SB_ERR_IO. */
static int refill(sb_reader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    const size_t room = READ_BUF - r->end;
    /* read() returns what a pipe has now, so records stream; fread() serves streams
     * without a descriptor. EINTR and EAGAIN are returned, not retried (see the top). */
    if (r->fd >= 0) {
        const ssize_t got = read(r->fd, r->buf + r->end, room);
        if (got < 0)
            return SB_ERR_IO;
        if (got == 0)
            r->eof = 1;
        r->end += (size_t)got;
    } else {
        const size_t got = fread(r->buf + r->end, 1, room, r->in);
        if (got == 0) {
            if (ferror(r->in))
                return SB_ERR_IO;
            r->eof = 1;
        }
        r->end += got;
    }
    return SB_OK;
}

/* Copies the first bytes of a line into rec->text, unprintables and ':' shown as '?'. */
static void echo_text(sb_record *rec, const char *s, size_t len)
{
    size_t n = len < SB_CELLS ? len : SB_CELLS;
    for (size_t i = 0; i < n; i++) { /* a select, not a branch: vectorises */
        const unsigned char ch = (unsigned char)s[i];
        const int shown = (unsigned char)(ch - 0x20) < 0x5f && ch != ':';
        rec->text[i] = shown ? (char)ch : '?';
    }
    rec->text[n] = '\0';
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
        const int st = refill(r);
        if (st != SB_OK)
            return st;
    }
}

int sb_reader_next(sb_reader *r, sb_record *rec)
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
        size_t len;
        if (nl) {
            len = (size_t)(nl - s);
        } else if (avail > SB_MAX_LINE) {
            r->line++;
            rec->line = r->line;
            rec->kind = SB_LINE_INVALID;
            rec->col = SB_MAX_LINE + 1;
            snprintf(rec->why, SB_WHY_LEN, "line too long");
            echo_text(rec, s, avail);
            /* The rest of the line is discarded by the next call: this record is returned
             * now, without waiting for the line's end to arrive. */
            r->start = r->end;
            r->skipping = 1;
            return 1;
        } else if (!r->eof) {
            const int st = refill(r);
            if (st != SB_OK)
                return st;
            continue;
        } else if (avail == 0) {
            return 0;
        } else {
            len = avail; /* last line without a final newline */
        }
        r->start += nl ? len + 1 : len;
        r->line++;
        if (r->line == 1 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
            s += 3; /* UTF-8 byte order mark */
            len -= 3;
        }
        if (len > SB_MAX_LINE) {
            rec->line = r->line;
            rec->kind = SB_LINE_INVALID;
            rec->col = SB_MAX_LINE + 1;
            snprintf(rec->why, SB_WHY_LEN, "line too long");
            echo_text(rec, s, len);
            return 1;
        }
        const sb_line_kind kind = sb_parse_line(s, len, &rec->grid, rec->why, &rec->col);
        if (kind == SB_LINE_SKIP)
            continue;
        rec->line = r->line;
        rec->kind = kind;
        echo_text(rec, s, len);
        return 1;
    }
}
