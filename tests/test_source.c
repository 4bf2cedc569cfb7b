/*
 * test_source.c — the look ahead at an input (sb_input_peek; sb_input_pick over several), and
 * the records a stream reads through sb_reader on any geometry: each puzzle line's cells,
 * form and line number and each invalid line's kind; a look ahead returns an input's first
 * bytes and leaves them to be read, and the pick passes over inputs that cannot tell.
 *
 * The expected cells are written out by hand from the test's own text (one digit a cell).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"

static const char TEXT4[] = "12..34..........\nxyz\n# a comment\n\n..3.............\n";

/* Reads every record of text with the reader of geometry g, as a stream opens it (a stop
 * flag set), into recs and cells (sb_geometry_cells bytes each, up to max). @return the
 * records read. */
static int read_all(const sb_geometry *g, const char *text, sb_record *recs, uint8_t *cells,
                    size_t max)
{
    static volatile sig_atomic_t stop = 0;
    const size_t nc = (size_t)sb_geometry_cells(g);
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    cr_assert_not_null(in);
    sb_reader *reader = NULL;
    cr_assert_eq(sb_reader_open(&reader, g, in), SB_OK);
    sb_reader_set_stop(reader, &stop);
    int n = 0;
    while ((size_t)n < max &&
           sb_reader_next(reader, &recs[n], cells + (size_t)n * nc, NULL) == 1)
        n++;
    sb_reader_close(reader);
    fclose(in);
    return n;
}

Test(source, another_geometry_gives_cells_and_lines)
{
    sb_geometry *g;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse("2x2", &g, why, sizeof why), SB_OK);
    sb_record recs[8];
    uint8_t cells[8 * 16];
    cr_assert_eq(read_all(g, TEXT4, recs, cells, 8), 3, "two puzzles and one invalid line");
    const sb_record *a = &recs[0], *b = &recs[1], *c = &recs[2];
    static const uint8_t want_a[16] = {1, 2, 0, 0, 3, 4};
    static const uint8_t want_c[16] = {0, 0, 3};
    cr_assert_eq(a->kind, SB_LINE_PUZZLE);
    cr_assert_eq(a->line, 1);
    cr_assert(!memcmp(cells, want_a, 16));
    cr_assert_eq(a->form, SB_GFORM_CHARS);
    cr_assert_eq(a->marks, 0);
    cr_assert_eq(b->kind, SB_LINE_INVALID);
    cr_assert_eq(b->line, 2);
    cr_assert(strstr(b->why, "out of range") != NULL, "why: %s", b->why);
    cr_assert_eq(c->kind, SB_LINE_PUZZLE);
    cr_assert_eq(c->line, 5, "blank and comment lines are skipped but counted");
    cr_assert(!memcmp(cells + 2 * 16, want_c, 16));
    sb_geometry_free(g);
}

Test(source, nine_by_nine_gives_the_readers_records)
{
    static const char text[] =
        "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..\n"
        "bad\n";
    sb_record recs[4];
    uint8_t cells[4 * SB_CELLS];
    cr_assert_eq(read_all(sb_geometry_9x9(), text, recs, cells, 4), 2);
    cr_assert_eq(recs[0].kind, SB_LINE_PUZZLE);
    cr_assert_eq(recs[0].form, SB_GFORM_CHARS);
    cr_assert_eq(cells[2], 5);
    cr_assert_eq(cells[0], 0);
    cr_assert_eq(recs[1].kind, SB_LINE_INVALID);
    cr_assert_eq(recs[1].line, 2);
}

/* Writes text to a new temporary file. @return its descriptor (path in path). */
static int temp_file(char *path, const char *text)
{
    strcpy(path, "/tmp/sb-test-src-XXXXXX");
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    return fd;
}

Test(source, peek_reads_a_file_without_consuming_it)
{
    char path[32], buf[64];
    const int fd = temp_file(path, TEXT4);
    cr_assert_eq(sb_input_peek(path, buf, sizeof buf), (int64_t)strlen(TEXT4));
    cr_assert(!memcmp(buf, TEXT4, strlen(TEXT4)));
    cr_assert_eq(sb_input_peek(path, buf, 5), 5, "at most cap bytes");
    /* standard input redirected from the file, part read already: from where it stands */
    cr_assert_eq(lseek(fd, 3, SEEK_SET), 3);
    cr_assert(dup2(fd, STDIN_FILENO) >= 0);
    cr_assert_eq(sb_input_peek("-", buf, sizeof buf), (int64_t)strlen(TEXT4) - 3);
    cr_assert(!memcmp(buf, TEXT4 + 3, strlen(TEXT4) - 3));
    cr_assert_eq(lseek(STDIN_FILENO, 0, SEEK_CUR), 3, "nothing consumed");
    close(fd);
    unlink(path);
    cr_assert_eq(sb_input_peek(path, buf, sizeof buf), -1, "a missing file");
}

Test(source, peek_leaves_a_pipe_to_be_read)
{
    int p[2];
    char buf[64], again[64];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(write(p[1], TEXT4, strlen(TEXT4)), (ssize_t)strlen(TEXT4));
    close(p[1]);
    cr_assert(dup2(p[0], STDIN_FILENO) >= 0);
    close(p[0]);
    const int64_t n = sb_input_peek("-", buf, sizeof buf);
    cr_assert_eq(n, (int64_t)strlen(TEXT4));
    cr_assert(!memcmp(buf, TEXT4, (size_t)n));
    size_t got = 0;
    ssize_t k;
    while ((k = read(STDIN_FILENO, again + got, sizeof again - got)) > 0)
        got += (size_t)k;
    cr_assert_eq(got, strlen(TEXT4), "the pipe still holds every byte");
    cr_assert(!memcmp(again, TEXT4, got));
}

Test(source, peek_refuses_a_named_pipe)
{
    char path[] = "/tmp/sb-test-fifo-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    unlink(path);
    cr_assert_eq(mkfifo(path, 0600), 0);
    char buf[8];
    cr_assert_eq(sb_input_peek(path, buf, sizeof buf), -1, "a named pipe is not read ahead");
    unlink(path);
}

Test(source, pick_passes_over_inputs_that_cannot_tell)
{
    char missing[32], comments[32], six[32], fifo[40], buf[256];
    static const char SIX[] = "# a 2x3\n12..34............................\n";
    const int fc = temp_file(comments, "# only a comment\n\n");
    const int fs = temp_file(six, SIX);
    const int fm = temp_file(missing, "");
    close(fm);
    unlink(missing);
    snprintf(fifo, sizeof fifo, "%s.fifo", missing);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    int at = -1, ff = -2;
    /* a missing file, a FIFO (not opened: it could be read only once) and a file of comments
     * only pass the turn; the 2x3 file decides */
    const char *paths[] = {missing, fifo, comments, six};
    cr_assert_eq(sb_input_pick(paths, 4, buf, sizeof buf, &at, &ff), (int64_t)strlen(SIX));
    cr_assert_eq(at, 3);
    cr_assert_eq(ff, 1, "the FIFO passed over");
    cr_assert(!memcmp(buf, SIX, strlen(SIX)));
    /* none decides: -1, input 0 (the run is 9x9), the FIFO named */
    cr_assert_eq(sb_input_pick(paths, 3, buf, sizeof buf, &at, &ff), -1);
    cr_assert_eq(at, 0);
    cr_assert_eq(ff, 1);
    const char *only[] = {comments};
    cr_assert_eq(sb_input_pick(only, 1, buf, sizeof buf, &at, &ff), -1);
    cr_assert_eq(ff, -1, "no FIFO");
    close(fc);
    close(fs);
    unlink(comments);
    unlink(six);
    unlink(fifo);
}
