/*
 * reference.h — an independent, deliberately simple reference for the unit tests.
 *
 * Nothing here uses libsudokubench: the solver is a plain recursive backtracker over a
 * 9x9 array that checks rows, columns and boxes by scanning, so the tests can compare the
 * library against something written from scratch. Also a small deterministic PRNG and
 * helpers that build random full grids and random puzzles.
 */
#ifndef SB_TESTS_REFERENCE_H
#define SB_TESTS_REFERENCE_H

#include <stdint.h>

/* ---- deterministic PRNG (splitmix64) ---------------------------------------------------- */

typedef struct ref_rng {
    uint64_t state;
} ref_rng;

void ref_rng_seed(ref_rng *r, uint64_t seed);
uint64_t ref_rng_next(ref_rng *r);
/* Uniform integer in [0, n), n > 0. */
int ref_rng_below(ref_rng *r, int n);
/* Fisher-Yates shuffle of n ints. */
void ref_shuffle(ref_rng *r, int *a, int n);

/* ---- rules ------------------------------------------------------------------------------ */

/* 1 if digit (1..9) could be written into cell without repeating a digit already present in
 * its row, column or box (the cell itself is ignored), else 0. */
int ref_digit_fits(const uint8_t cells[81], int cell, int digit);

/* 1 if two nonzero cells sharing a row, column or box hold the same digit, else 0. */
int ref_has_conflict(const uint8_t cells[81]);

/* 1 if sol is a complete grid (every cell 1..9), every row, column and box holds each digit
 * exactly once and every nonzero cell of puzzle has the same value in sol; else 0. */
int ref_is_valid_solution(const uint8_t puzzle[81], const uint8_t sol[81]);

/* ---- brute force counting ----------------------------------------------------------------- */

/* Counts the solutions of cells (0 = blank), stopping once limit are found (limit 0 = all).
 * Cells with values above 9 or conflicting givens give 0. first_solution (may be NULL) gets
 * the first solution found, or all zeros when there is none. */
int ref_count(const uint8_t cells[81], int limit, uint8_t first_solution[81]);

/* As ref_count, for a grid given as candidates: cand[i] bit d-1 set when cell i may hold
 * digit d (a pencilmark line). Counts the complete valid grids with every cell's digit among
 * its candidates; a cell with no candidate gives 0. */
int ref_count_marks(const uint16_t cand[81], int limit, uint8_t first_solution[81]);

/* ---- generators --------------------------------------------------------------------------- */

/* A uniformly shuffled-search (not uniformly distributed) random complete valid grid. */
void ref_random_full_grid(ref_rng *r, uint8_t out[81]);

/* Keeps `clues` randomly chosen cells of full and blanks the rest. */
void ref_random_puzzle(ref_rng *r, const uint8_t full[81], int clues, uint8_t out[81]);

/* Removes clues of full in random order, keeping a removal only when the puzzle stays
 * uniquely solvable, until `target` clues remain or no clue can go. Returns the clue count. */
int ref_unique_puzzle(ref_rng *r, const uint8_t full[81], int target, uint8_t out[81]);

/* Number of nonzero cells. */
int ref_clues(const uint8_t cells[81]);

/* Copies p to out and repeatedly fills every blank cell that has exactly one digit fitting
 * its peers (naked singles on the digits alone, no candidate bookkeeping). Returns 1 when that
 * completes the grid, else 0. */
int ref_naked_singles(const uint8_t p[81], uint8_t out[81]);

/* ---- geometry, written independently of the library ------------------------------------ */

/* The image of cell (r, c) under clue-pattern symmetry sym (the sb_symmetry numbering: 1 half
 * turn, 2 quarter turn, 3 left-right mirror, 4 main diagonal; anything else: the cell itself). */
int ref_symmetry_image(int sym, int r, int c);

/* Fills houses with the 27 houses of the 9x9 grid, 9 cells each, as tests/dlx.c takes them:
 * rows, then columns, then boxes. */
void ref_sudoku_houses(int houses[27 * 9]);

#endif /* SB_TESTS_REFERENCE_H */
