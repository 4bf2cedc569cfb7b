/*
 * test_sidefile.c — the side file of a resumable output (sb_side_*, src/app/): a fresh run
 * writes it, the same run finds it again, another run or a finished, broken or damaged one is
 * told apart, checkpoints come back as written, and an output is cut after its last whole
 * line (before a hole of NUL bytes) with its records counted. The expected texts are written
 * out here by hand.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"

/* A scratch directory with an input file in.txt and an empty output out.txt. */
typedef struct scratch {
    char dir[64], in[96], out[96];
    int out_fd;
} scratch;

static void scratch_make(scratch *s, const char *out_text)
{
    strcpy(s->dir, "/tmp/sb-test-side-XXXXXX");
    cr_assert_not_null(mkdtemp(s->dir));
    snprintf(s->in, sizeof s->in, "%s/in.txt", s->dir);
    snprintf(s->out, sizeof s->out, "%s/out.txt", s->dir);
    FILE *f = fopen(s->in, "w");
    cr_assert_not_null(f);
    fputs("1234\n", f);
    fclose(f);
    s->out_fd = open(s->out, O_RDWR | O_CREAT | O_TRUNC, 0644);
    cr_assert(s->out_fd >= 0);
    cr_assert_eq(write(s->out_fd, out_text, strlen(out_text)), (ssize_t)strlen(out_text));
}

static void scratch_free(scratch *s)
{
    char side[SB_SIDE_PATH];
    close(s->out_fd);
    cr_assert_eq(sb_side_path(s->out, side), SB_OK);
    unlink(side);
    unlink(s->in);
    unlink(s->out);
    rmdir(s->dir);
}

/* Opens the side file of a run "solve ARGS --resume in.txt" (args: extra arguments). */
static int side_open(sb_side *side, scratch *s, const char *arg)
{
    char *argv[] = {"solve", (char *)arg, "--resume", s->in};
    char *files[] = {s->in};
    return sb_side_open(side, s->out, s->out_fd, "solve", 4, argv, files, 1);
}

/* @return the side file's text (static buffer). */
static const char *side_text(const scratch *s)
{
    static char text[4096];
    char side[SB_SIDE_PATH];
    cr_assert_eq(sb_side_path(s->out, side), SB_OK);
    FILE *f = fopen(side, "r");
    cr_assert_not_null(f, "no side file %s", side);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    return text;
}

Test(sidefile, a_fresh_run_is_named_and_found_again)
{
    scratch s;
    scratch_make(&s, "");
    sb_side side;
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_FRESH);
    sb_side_free(&side);
    char want[512];
    snprintf(want, sizeof want,
             "sudokubench resume 1\ncommand solve\narg -fcsv\narg %s\ninput %s size 5 mtime ",
             s.in, s.in);
    cr_assert(!strncmp(side_text(&s), want, strlen(want)), "side file: %s", side_text(&s));
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_RESUME);
    uint64_t records = 99, counts[2] = {9, 9};
    cr_assert_eq(sb_side_counts(&side, &records, counts, 2), SB_OK);
    cr_assert_eq(records, 0, "no checkpoint: nothing covered");
    cr_assert_eq(counts[0] + counts[1], 0);
    /* A checkpoint comes back as written. */
    const uint64_t c[3] = {1, 20, 300};
    cr_assert_eq(sb_side_checkpoint(&side, 7, c, 3), SB_OK);
    sb_side_free(&side);
    cr_assert(strstr(side_text(&s), "\nat 7 1 20 300\n") != NULL, "%s", side_text(&s));
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_RESUME);
    uint64_t got[4];
    cr_assert_eq(sb_side_counts(&side, &records, got, 3), SB_OK);
    cr_assert_eq(records, 7);
    cr_assert(!memcmp(got, c, sizeof c));
    cr_assert_eq(sb_side_counts(&side, &records, got, 4), SB_ERR_ARG, "a count missing");
    sb_side_free(&side);
    /* Other options: another run's output. */
    cr_assert_eq(side_open(&side, &s, "-fjson"), SB_SIDE_OTHER);
    sb_side_free(&side);
    /* "done RC": finished. */
    cr_assert_eq(sb_side_append(s.out, "done 1\n", 0), SB_OK);
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_DONE);
    cr_assert_eq(side.done_rc, 1);
    sb_side_free(&side);
    scratch_free(&s);
}

/* sb_side_open of "solve" with argv (argc of them, argv[0] the command). */
static int side_open_argv(sb_side *side, scratch *s, int argc, char **argv)
{
    char *files[] = {s->in};
    return sb_side_open(side, s->out, s->out_fd, "solve", argc, argv, files, 1);
}

Test(sidefile, threads_simd_and_progress_are_no_part_of_the_identity)
{
    scratch s;
    scratch_make(&s, "");
    sb_side side;
    char *first[] = {"solve", "-t", "8", "--simd", "scalar", "-o", "-t", "--progress=always",
                     "--resume", s.in};
    cr_assert_eq(side_open_argv(&side, &s, 10, first), SB_SIDE_FRESH);
    sb_side_free(&side);
    char want[512];
    /* "-o -t": the -t is -o's value, kept */
    snprintf(want, sizeof want, "sudokubench resume 1\ncommand solve\narg -o\narg -t\narg %s\n"
             "input %s size 5 mtime ", s.in, s.in);
    cr_assert(!strncmp(side_text(&s), want, strlen(want)), "side file: %s", side_text(&s));
    char *other_spelling[] = {"solve", "--threads=1", "-o", "-t", "-t2", "--resume",
                              "--simd=avx2", "--progress", "never", "--threads", "3", s.in};
    cr_assert_eq(side_open_argv(&side, &s, 12, other_spelling), SB_SIDE_RESUME);
    sb_side_free(&side);
    char *other_out[] = {"solve", "-t", "8", "-o", "-u", "--resume", s.in};
    cr_assert_eq(side_open_argv(&side, &s, 7, other_out), SB_SIDE_OTHER);
    sb_side_free(&side);
    /* After "--" a "-t" is an operand: part of the identity */
    char *operand[] = {"solve", "-o", "-t", "--resume", "--", "-t", s.in};
    cr_assert_eq(side_open_argv(&side, &s, 7, operand), SB_SIDE_OTHER);
    sb_side_free(&side);
    scratch_free(&s);
}

Test(sidefile, a_broken_run_is_refused_and_takes_no_checkpoint)
{
    scratch s;
    scratch_make(&s, "");
    sb_side side;
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_FRESH);
    cr_assert_eq(sb_side_append(s.out, "broken\n", 1), SB_OK);
    cr_assert_eq(sb_side_append(s.out, "broken\n", 1), SB_OK);
    const char *text = side_text(&s);
    cr_assert(strstr(text, "broken\n") && !strstr(strstr(text, "broken\n") + 1, "broken"),
              "once: %s", text);
    const uint64_t c[1] = {5};
    cr_assert_eq(sb_side_checkpoint(&side, 1, c, 1), SB_ERR_STOPPED);
    sb_side_free(&side);
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_BROKEN);
    sb_side_free(&side);
    scratch_free(&s);
}

Test(sidefile, refusals_name_what_is_wrong)
{
    scratch s;
    scratch_make(&s, "old output\n");
    sb_side side;
    cr_assert_eq(side_open(&side, &s, "-fcsv"), SB_SIDE_ORPHAN, "output but no side file");
    sb_side_free(&side);
    char *argv[] = {"rate", "-"}, *files[] = {s.in, "-"};
    cr_assert_eq(sb_side_open(&side, s.out, s.out_fd, "rate", 2, argv, files, 2), SB_SIDE_STDIN);
    cr_assert_eq(side.bad, 1);
    sb_side_free(&side);
    cr_assert_eq(sb_side_open(&side, s.out, s.out_fd, "rate", 1, argv, files, 0), SB_SIDE_STDIN);
    cr_assert_eq(side.bad, -1);
    sb_side_free(&side);
    char *missing[] = {"/nonexistent/sb-test"};
    cr_assert_eq(sb_side_open(&side, s.out, s.out_fd, "rate", 1, argv, missing, 1),
                 SB_SIDE_EXAMINE);
    cr_assert_eq(side.err, ENOENT);
    sb_side_free(&side);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(sb_side_open(&side, s.out, p[1], "rate", 1, argv, files, 1), SB_SIDE_IRREGULAR);
    sb_side_free(&side);
    close(p[0]);
    close(p[1]);
    scratch_free(&s);
}

/* Cuts an output holding text with header_lines; checks what is left and counted. */
static void cut_case(const char *text, size_t len, int header_lines, const char *left,
                     uint64_t records, int has_header)
{
    scratch s;
    scratch_make(&s, "");
    cr_assert_eq(write(s.out_fd, text, len), (ssize_t)len);
    uint64_t got = 99;
    int hh = 9;
    cr_assert_eq(sb_side_cut(s.out, s.out_fd, header_lines, &got, &hh), SB_OK);
    cr_assert_eq(got, records, "records of %s", text);
    cr_assert_eq(hh, has_header);
    struct stat st;
    cr_assert_eq(fstat(s.out_fd, &st), 0);
    cr_assert_eq((size_t)st.st_size, strlen(left), "size %lld", (long long)st.st_size);
    cr_assert_eq(lseek(s.out_fd, 0, SEEK_CUR), (off_t)strlen(left), "left at its end");
    char buf[64] = "";
    cr_assert_eq(pread(s.out_fd, buf, sizeof buf - 1, 0), (ssize_t)strlen(left));
    cr_assert_str_eq(buf, left);
    scratch_free(&s);
}

Test(sidefile, an_output_is_cut_after_its_last_whole_record)
{
    cut_case("h\nr1\nr2\npart", 13, 1, "h\nr1\nr2\n", 2, 1);
    cut_case("r1\nr2\n", 6, 0, "r1\nr2\n", 2, 0);
    cut_case("r1\n\0\0r3\n", 8, 0, "r1\n", 1, 0); /* a hole: the records end before it */
    cut_case("x", 1, 1, "", 0, 0);                /* not even the header */
    cut_case("h\n", 2, 1, "h\n", 0, 1);
}
