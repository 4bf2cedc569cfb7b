/*
 * fuzz_reader.c — libFuzzer target: the streaming line reader (sb_reader) on any bytes.
 *
 * Invariants: no crash or sanitizer report; records in input order, at most one per line,
 * each carrying its physical line number; every line of a one-line form that is not skipped
 * (blank, '#' comment, Kaggle header) has its record, and that record is what sb_parse_line
 * says of the line (a line over SB_MAX_LINE bytes: invalid, "line too long", column
 * SB_MAX_LINE + 1), except inside a region the nine-line grid form opens (sb_line_is_grid),
 * where the reader gathers refused lines into one grid record; no skipped line has one; the
 * descriptor path (read(2), a memfd) and the stdio path (fread, fmemopen: no descriptor)
 * give the same records.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_util.h"

enum { MAX_RECORDS = 1 << 16 /* more lines than a fuzz input of 64 KiB can hold, plus one */ };

/* Reads every record of stream in into recs and their cells into cells (81 bytes each).
 * @return the count, or -1 on a reader error. */
static long read_all(FILE *in, sb_record *recs, uint8_t (*cells)[SB_CELLS])
{
    sb_reader *r;
    FUZZ_CHECK(sb_reader_open(&r, sb_geometry_9x9(), in) == SB_OK, "sb_reader_open failed");
    long n = 0;
    int st;
    while ((st = sb_reader_next(r, &recs[n], cells[n], NULL)) == 1)
        FUZZ_CHECK(++n < MAX_RECORDS, "more records than lines");
    sb_reader_close(r);
    return st == 0 ? n : -1;
}

/* The model: the record line `s` (len bytes, physical line number `line`) must give, or 0
 * when it is skipped. @return 1 with *want and *grid filled, 0 for a skip, 2 when either is
 * allowed (a first line whose byte order mark takes it over the length limit). */
static int model(const char *s, size_t len, uint64_t line, sb_record *want, sb_grid *grid)
{
    memset(want, 0, sizeof *want);
    memset(grid, 0, sizeof *grid);
    const size_t raw = len;
    if (line == 1 && len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
        s += 3;
        len -= 3;
    }
    want->line = line;
    if (len > SB_MAX_LINE) {
        want->kind = SB_LINE_INVALID;
        want->col = SB_MAX_LINE + 1;
        return 1;
    }
    const sb_line_kind k = sb_parse_line(s, len, grid, want->why, &want->col);
    want->kind = k;
    if (raw > SB_MAX_LINE)
        return 2;
    return k != SB_LINE_SKIP;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sb_record a[MAX_RECORDS], b[MAX_RECORDS];
    static uint8_t ca[MAX_RECORDS][SB_CELLS], cb[MAX_RECORDS][SB_CELLS];
    /* stdio path: fmemopen has no descriptor, so the reader uses fread */
    FILE *mem = fmemopen(size ? (void *)data : (void *)"", size, "rb");
    FUZZ_CHECK(mem != NULL, "fmemopen");
    const long na = read_all(mem, a, ca);
    fclose(mem);
    /* descriptor path: read(2) on a memfd */
    const int fd = memfd_create("fuzz", 0);
    FUZZ_CHECK(fd >= 0, "memfd_create");
    FUZZ_CHECK(write(fd, data, size) == (ssize_t)size, "write");
    lseek(fd, 0, SEEK_SET);
    FILE *f = fdopen(fd, "rb");
    const long nb = read_all(f, b, cb);
    fclose(f);
    FUZZ_CHECK(na >= 0 && nb >= 0, "read error on memory input");
    FUZZ_CHECK(na == nb, "fread path %ld records, read path %ld", na, nb);
    for (long i = 0; i < na; i++) {
        FUZZ_CHECK(a[i].line == b[i].line && a[i].kind == b[i].kind && a[i].col == b[i].col &&
                       !strcmp(a[i].why, b[i].why) && !strcmp(a[i].text, b[i].text) &&
                       (a[i].kind != SB_LINE_PUZZLE || !memcmp(ca[i], cb[i], SB_CELLS)),
                   "record %ld differs between the two paths", i);
    }
    /* Walk the lines and match them to the records: a line the model requires must have
     * its record, a line of a grid region may have one (a gathered grid carries its first
     * line's number, or its first bad row's), no other line may have one. */
    long k = 0;
    uint64_t line = 0;
    int region = 0;
    for (size_t pos = 0; pos < size;) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        const size_t len = nl ? (size_t)(nl - data) - pos : size - pos;
        sb_record want;
        sb_grid grid;
        int m = model((const char *)data + pos, len, ++line, &want, &grid);
        const size_t bom = line == 1 && len >= 3 && !memcmp(data + pos, "\xEF\xBB\xBF", 3) ? 3 : 0;
        /* A grid region: from a line of the grid form on, the reader may gather the lines
         * the one-line forms refuse into that grid (a bad row stays in its grid), until a
         * skipped line, a puzzle or a long line ends it. Lines in it may carry a record. */
        if (m == 0 || want.kind == SB_LINE_PUZZLE || len - bom > SB_MAX_LINE)
            region = 0;
        else if (sb_line_is_grid((const char *)data + pos + bom, len - bom))
            region = 1;
        if (region && m == 1)
            m = 2;
        pos += len + (nl ? 1 : 0);
        const int here = k < na && a[k].line == line;
        FUZZ_CHECK(!here || m != 0, "a record for line %llu, which is skipped",
                   (unsigned long long)line);
        if (m == 2) {
            k += here;
            continue;
        }
        if (m == 0)
            continue;
        FUZZ_CHECK(here, "line %llu has no record", (unsigned long long)line);
        const uint8_t *got_cells = ca[k];
        const sb_record *got = &a[k++];
        FUZZ_CHECK(got->kind == want.kind, "line %llu: kind %d, want %d",
                   (unsigned long long)line, got->kind, want.kind);
        FUZZ_CHECK(got->kind != SB_LINE_INVALID || got->col == want.col,
                   "line %llu: column %zu, want %zu", (unsigned long long)line, got->col,
                   want.col);
        FUZZ_CHECK(got->kind != SB_LINE_PUZZLE || !memcmp(got_cells, grid.cell, SB_CELLS),
                   "line %llu: grid differs from sb_parse_line's", (unsigned long long)line);
    }
    FUZZ_CHECK(k == na, "%ld records, %ld of them matched to lines (record %ld says line %llu)",
               na, k, k, k < na ? (unsigned long long)a[k].line : 0ULL);
    return 0;
}
