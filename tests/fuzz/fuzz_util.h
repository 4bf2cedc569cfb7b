/*
 * fuzz_util.h — shared helpers of the libFuzzer targets (tests/fuzz/, `make fuzz`).
 *
 * A target states its invariants with FUZZ_CHECK: a broken invariant prints what broke and
 * aborts, which libFuzzer records as a crash with the input that caused it (kept as
 * crash-* and turned into a regression test, docs/reliability.md).
 */
#ifndef SB_FUZZ_UTIL_H
#define SB_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudokubench.h"

/* Aborts with a message when cond is false. */
#define FUZZ_CHECK(cond, ...)                                                                 \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "fuzz invariant broken at %s:%d: %s: ", __FILE__, __LINE__,       \
                    #cond);                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* Makes a 9x9 puzzle from fuzz bytes: the first 81 bytes, '1'-'9' a given, anything else a
 * blank (missing bytes are blanks), so puzzle text mutates into puzzles. */
static inline void fuzz_grid(const uint8_t *data, size_t size, sb_grid *g)
{
    for (int c = 0; c < SB_CELLS; c++) {
        const uint8_t b = (size_t)c < size ? data[c] : 0;
        g->cell[c] = b >= '1' && b <= '9' ? (uint8_t)(b - '0') : 0;
    }
}

/* Reads a little-endian 64-bit number from the input at *pos (zero past the end). */
static inline uint64_t fuzz_u64(const uint8_t *data, size_t size, size_t *pos)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++, (*pos)++)
        v |= (uint64_t)(*pos < size ? data[*pos] : 0) << (8 * i);
    return v;
}

#endif /* SB_FUZZ_UTIL_H */
