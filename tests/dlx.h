/*
 * dlx.h — the tests' independent exact-cover oracle: Knuth's Algorithm X with dancing links
 * over any geometry given as a plain house list. Shares no code with libsudokubench; it is
 * slow and obvious on purpose, so counts from the general solver can be checked against it.
 */
#ifndef SB_TESTS_DLX_H
#define SB_TESTS_DLX_H

#include <stdint.h>

/* Counts the solutions of a puzzle up to limit (0 = all).
 * The geometry: ncells cells, ndigits digits, nhouses houses of ndigits cells each, house h
 * being houses[h*ndigits .. +ndigits). cells holds ncells values, 0 blank, 1..ndigits given.
 * The exact-cover matrix has a column per cell ("filled once") and per (house, digit)
 * ("digit once in house"), and a row per (cell, digit) allowed by the givens.
 * @param first  receives the first solution found (may be NULL)
 * @return the number of solutions, at most limit when limit > 0. */
uint64_t dlx_count(int ncells, int ndigits, int nhouses, const int *houses,
                   const uint8_t *cells, uint64_t limit, uint8_t *first);

#endif /* SB_TESTS_DLX_H */
