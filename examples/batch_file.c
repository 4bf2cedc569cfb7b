/*
 * batch_file.c — the same tallies as count_file.c through the library's batch calls: read the
 * file a chunk at a time into an array (sb_reader_read_cells) and solve each chunk on every
 * core (sb_solve_batch: OpenMP, one solver per thread inside the library).
 *
 *   cc batch_file.c $(pkg-config --cflags --libs sudokubench) -o batch_file
 *   ./batch_file puzzles.txt 4
 */
#include <stdio.h>
#include <stdlib.h>

#include <sudokubench.h>

enum { CHUNK = 4096 /* puzzles per batch call */ };

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: batch_file FILE [THREADS]\n");
        return 2;
    }
    const int threads = argc > 2 ? atoi(argv[2]) : 0; /* 0: every core */
    FILE *in = fopen(argv[1], "r");
    sb_reader *r;
    if (!in || sb_reader_open(&r, sb_geometry_9x9(), in) != SB_OK) {
        perror(argv[1]);
        return 2;
    }
    static uint8_t cells[CHUNK * SB_CELLS];
    static uint64_t counts[CHUNK], guesses[CHUNK];
    sb_options opt;
    sb_options_default(&opt);
    unsigned long long n = 0, invalid = 0, v[3] = {0}, total_guesses = 0;
    int got;
    do {
        size_t k;
        sb_record bad;
        got = sb_reader_read_cells(r, cells, CHUNK, &k, &bad);
        if (got == 2) {
            fprintf(stderr, "%s:%llu:%zu: %s\n", argv[1], (unsigned long long)bad.line, bad.col,
                    bad.why);
            invalid++;
        }
        const int st = sb_solve_batch(&opt, cells, k, threads, counts, guesses, NULL, NULL);
        if (st != SB_OK || got < 0) {
            fprintf(stderr, "batch_file: %s\n", sb_strerror(st != SB_OK ? st : got));
            return 2;
        }
        for (size_t i = 0; i < k; i++) {
            v[counts[i] > 2 ? 2 : counts[i]]++;
            total_guesses += guesses[i];
        }
        n += k;
    } while (got != 0);
    sb_reader_close(r);
    fclose(in);
    printf("puzzles %llu unsolvable %llu unique %llu multiple %llu invalid %llu guesses %llu\n", n,
           v[0], v[1], v[2], invalid, total_guesses);
    return invalid ? 1 : 0;
}
