/*
 * parse.h — the reader object (sb_reader) as parse.c gives it to reader.c: its state, shared
 * by its two paths (the 9x9 path here in parse.c, beside the 9x9 line parser it runs, and the
 * path of every other geometry in reader.c, which also opens, closes and dispatches), and the
 * buffer calls both use. Private to src/reader/.
 */
#ifndef SB_READER_PARSE_H
#define SB_READER_PARSE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "sudokubench.h"

enum { SB_READ_BUF = 1 << 16 /* bytes read at once; more than either path's longest line */ };

struct sb_reader {
    const sb_geometry *g; /* the geometry; NULL: the 9x9 path */
    FILE *in;             /* the stream read (not owned) */
    int fd;               /* its descriptor, or -1 when it has none (e.g. fmemopen) */
    char *buf;            /* SB_READ_BUF bytes */
    size_t start;         /* first unread byte of buf */
    size_t end;           /* one past the last valid byte of buf */
    int eof;              /* the stream reported end of input */
    int skipping;         /* inside a line already reported too long: discard up to its '\n' */
    uint64_t line;        /* physical lines consumed so far */
    const volatile sig_atomic_t *stop; /* polled while skipping (sb_reader_set_stop), or NULL */
    /* the 9x9 path: a nine-line grid being gathered */
    int grid_open;        /* a nine-line grid is being gathered (a row or a rule line seen) */
    int grid_rows;        /* its rows read so far (bad rows count: a grid stays one record) */
    int grid_bad;         /* a row was bad: grid.why/col/line say the first fault */
    int after_grid;       /* the previous line closed a grid: a rule line now is its bottom rule */
    sb_record grid;       /* the grid's record: line of its first line, first fault */
    uint8_t grid_cells[SB_CELLS]; /* the grid's cells */
    /* the other geometries' path */
    uint8_t *scratch;     /* a tdoku record's solution cells (sb_geometry_cells bytes) */
    int reported;         /* after a nine-line grid's message, its rows still to come + 1
                             (0: none): its lines are one record, whose rules are skipped */
};

/* Moves the unread bytes to the front and reads more after them: read() returns what a pipe
 * holds now, so records stream; fread() serves streams without a descriptor. EINTR and EAGAIN
 * are returned, not retried. @return SB_OK (r->eof set at the end of input) or SB_ERR_IO
 * (errno set). */
int sb_read_refill(sb_reader *r);

/* Copies the first bytes of a line (len) into text for echoing (SB_GRID_TEXT bytes): at most
 * 81, unprintables and ':' shown as '?' (a tdoku record of the line stays one record). */
void sb_read_echo(char *text, const char *s, size_t len);

/* sb_reader_next on the 9x9 path (r->g NULL), its arguments checked. */
int sb_read_9x9(sb_reader *r, sb_record *rec, uint8_t *cells, uint64_t *cand);

#endif /* SB_READER_PARSE_H */
