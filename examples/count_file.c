/*
 * count_file.c — count a file of puzzles with one engine per thread (POSIX threads): each
 * thread takes every T-th puzzle, so no state is shared but the read-only puzzle array.
 * Prints how many puzzles have 0, 1 and 2+ solutions, and the guesses made.
 *
 *   cc count_file.c $(pkg-config --cflags --libs sudokubench) -pthread -o count_file
 *   ./count_file puzzles.txt 4
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <sudokubench.h>

/* One thread's share of the work and its tallies. */
typedef struct job {
    const sb_grid *puzzles; /* all puzzles (read-only, shared) */
    size_t n;               /* how many */
    size_t first, step;     /* this thread solves puzzles first, first + step, ... */
    unsigned long long verdicts[3]; /* puzzles per sb_verdict: unsolvable, solved, multiple */
    unsigned long long guesses;     /* guesses summed */
    int status;                     /* SB_OK, or the first error */
} job;

/* Thread body: its own engine, its own tallies. */
static void *count_part(void *arg)
{
    job *j = arg;
    sb_options opt;
    sb_options_default(&opt);
    sb_engine *e;
    j->status = sb_engine_new(sb_geometry_9x9(), &opt, &e);
    for (size_t i = j->first; j->status == SB_OK && i < j->n; i += j->step) {
        sb_gresult res;
        j->status = sb_engine_solve(e, j->puzzles[i].cell, 2, &res, NULL);
        j->verdicts[sb_count_verdict(res.count)]++;
        j->guesses += res.guesses;
    }
    sb_engine_free(e);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: count_file FILE [THREADS]\n");
        return 2;
    }
    const int nthreads = argc > 2 ? atoi(argv[2]) : 2;
    FILE *in = fopen(argv[1], "r");
    sb_reader *r;
    if (!in || sb_reader_open(&r, sb_geometry_9x9(), in) != SB_OK) {
        perror(argv[1]);
        return 2;
    }
    sb_grid *puzzles = NULL;
    size_t n = 0, cap = 0, invalid = 0;
    sb_record rec;
    sb_grid grid;
    int got;
    while ((got = sb_reader_next(r, &rec, grid.cell, NULL)) == 1) {
        if (rec.kind != SB_LINE_PUZZLE) {
            fprintf(stderr, "%s:%llu:%zu: %s\n", argv[1], (unsigned long long)rec.line, rec.col,
                    rec.why);
            invalid++;
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            sb_grid *more = realloc(puzzles, cap * sizeof *puzzles);
            if (!more)
                return 2;
            puzzles = more;
        }
        puzzles[n++] = grid;
    }
    sb_reader_close(r);
    fclose(in);
    if (got < 0 || nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "count_file: %s\n", got < 0 ? sb_strerror(got) : "threads must be 1..64");
        return 2;
    }
    pthread_t tid[64];
    job jobs[64] = {{0}};
    for (int t = 0; t < nthreads; t++) {
        jobs[t] = (job){.puzzles = puzzles, .n = n, .first = (size_t)t, .step = (size_t)nthreads};
        pthread_create(&tid[t], NULL, count_part, &jobs[t]);
    }
    unsigned long long v[3] = {0}, guesses = 0;
    int status = SB_OK;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(tid[t], NULL);
        for (int k = 0; k < 3; k++)
            v[k] += jobs[t].verdicts[k];
        guesses += jobs[t].guesses;
        if (jobs[t].status != SB_OK)
            status = jobs[t].status;
    }
    free(puzzles);
    if (status != SB_OK) {
        fprintf(stderr, "count_file: %s\n", sb_strerror(status));
        return 2;
    }
    printf("puzzles %zu unsolvable %llu unique %llu multiple %llu invalid %zu guesses %llu\n", n,
           v[0], v[1], v[2], invalid, guesses);
    return invalid ? 1 : 0;
}
