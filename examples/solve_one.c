/*
 * solve_one.c — the smallest sudokubench program: solve one puzzle given on the command line
 * (or a built-in one) and print its solution and whether it is unique: the 9x9 grid's engine,
 * asked for up to 2 solutions, finds one and checks that it is the only one. The code from
 * the first #include on is the quick start of include/sudokubench.h (tests/install/run.sh
 * checks that they agree).
 *
 *   cc solve_one.c $(pkg-config --cflags --libs sudokubench) -o solve_one
 *   ./solve_one 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
 */
#include <stdio.h>
#include <string.h>

#include <sudokubench.h>

int main(int argc, char **argv)
{
    const char *text = argc > 1 ? argv[1]
                                : "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    sb_grid puzzle, solution;
    char why[SB_WHY_LEN];
    size_t col;
    if (sb_parse_line(text, strlen(text), &puzzle, why, &col) != SB_LINE_PUZZLE) {
        fprintf(stderr, "solve_one: column %zu: %s\n", col, why);
        return 2;
    }
    sb_options opt;
    sb_options_default(&opt);
    sb_engine *engine;
    sb_gresult res;
    int st = sb_engine_new(sb_geometry_9x9(), &opt, &engine);
    if (st == SB_OK) {
        st = sb_engine_solve(engine, puzzle.cell, 2, &res, solution.cell);
        sb_engine_free(engine);
    }
    if (st != SB_OK) {
        fprintf(stderr, "solve_one: %s\n", sb_strerror(st));
        return 2;
    }
    if (res.count == 0) {
        puts("unsolvable");
        return 1;
    }
    char out[SB_GRID_TEXT];
    sb_grid_format(&solution, out);
    printf("%s %s (%llu guesses)\n", out, res.count == 1 ? "unique" : "multiple",
           (unsigned long long)res.guesses);
    return sb_solution_check(&puzzle, &solution) ? 0 : 1;
}
