/*
 * replay.c — runs a fuzz target's checks without libFuzzer: every file named on the command
 * line (or in a directory named there) goes through LLVMFuzzerTestOneInput once. Linked with
 * each tests/fuzz/fuzz_*.c by the normal compiler, it makes the committed seed corpora and
 * the regression inputs (tests/fuzz/regress/NAME: every crash the fuzzers found) part of
 * `make test` on every toolchain, ASan and qemu included.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Runs one file through the target. @return 0, or 1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *p = realloc(buf, cap *= 2);
            if (!p)
                free(buf);
            buf = p;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue; /* a target may have no regression directory yet */
        if (!S_ISDIR(st.st_mode)) {
            bad |= replay_file(argv[i]);
            runs++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            bad |= replay_file(path);
            runs++;
        }
        if (d)
            closedir(d);
    }
    printf("%s: %d inputs replayed\n", argv[0], runs);
    return bad;
}
