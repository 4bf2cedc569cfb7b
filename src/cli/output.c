/*
 * output.c — the record formats of `solve` (docs/cli.md): solution, tdoku, csv, json, pretty.
 * One record per input puzzle, invalid lines included, so records never shift.
 */
#include <string.h>

#include "cli.h"

static const char *const format_names[FMT_COUNT] = {"solution", "tdoku", "csv", "json",
                                                     "pretty"};

/* Status words shared by every format, indexed by sb_verdict. */
static const char *const verdict_names[] = {"unsolvable", "solved", "multiple"};
static const char invalid_name[] = "invalid";

cli_format cli_format_find(const char *name)
{
    for (int f = 0; f < FMT_COUNT; f++)
        if (!strcmp(name, format_names[f]))
            return (cli_format)f;
    return FMT_COUNT;
}

const char *cli_format_name(cli_format f)
{
    return f < FMT_COUNT ? format_names[f] : "?";
}

void cli_write_header(FILE *out, cli_format f)
{
    if (f == FMT_CSV)
        fputs("line,status,count,guesses,solution\n", out);
}

void cli_json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            putc(ch, out);
    }
    putc('"', out);
}

/* Writes a grid as the 13-line boxed picture of the pretty format. */
static void write_boxed(FILE *out, const sb_grid *g)
{
    static const char rule[] = "+-------+-------+-------+\n";
    for (int r = 0; r < 9; r++) {
        if (r % 3 == 0)
            fputs(rule, out);
        for (int c = 0; c < 9; c++) {
            const uint8_t v = g->cell[9 * r + c];
            fprintf(out, "%s%c ", c % 3 == 0 ? "| " : "", v ? '0' + v : '.');
        }
        fputs("|\n", out);
    }
    fputs(rule, out);
}

void cli_write_record(FILE *out, cli_format f, const char *name, const sb_record *rec,
                      const sb_result *res)
{
    const unsigned long long line = (unsigned long long)rec->line;
    if (!res) {
        switch (f) {
        case FMT_SOLUTION: fprintf(out, "%s\n", invalid_name); break;
        case FMT_TDOKU: fprintf(out, "%s:%s:\n", rec->text, invalid_name); break;
        case FMT_CSV: fprintf(out, "%llu,%s,,,\n", line, invalid_name); break;
        case FMT_JSON:
            fputs("{\"file\":", out);
            cli_json_string(out, name);
            fprintf(out, ",\"line\":%llu,\"status\":\"%s\",\"error\":", line, invalid_name);
            cli_json_string(out, rec->why);
            fprintf(out, ",\"column\":%zu}\n", rec->col);
            break;
        case FMT_PRETTY: fprintf(out, "# %s:%llu %s: %s\n\n", name, line, invalid_name, rec->why);
            break;
        default: break;
        }
        return;
    }
    const sb_verdict v = sb_result_verdict(res);
    const int solved = v == SB_SOLVED;
    const unsigned long long count = (unsigned long long)res->count;
    const unsigned long long guesses = (unsigned long long)res->guesses;
    char puzzle[SB_GRID_TEXT], solution[SB_GRID_TEXT];
    sb_grid_format(&rec->grid, puzzle);
    sb_grid_format(&res->solution, solution);
    switch (f) {
    case FMT_SOLUTION: fprintf(out, "%s\n", solved ? solution : verdict_names[v]); break;
    case FMT_TDOKU: fprintf(out, "%s:%llu:%s\n", puzzle, count, solved ? solution : ""); break;
    case FMT_CSV:
        fprintf(out, "%llu,%s,%llu,%llu,%s\n", line, verdict_names[v], count, guesses,
                solved ? solution : "");
        break;
    case FMT_JSON:
        fputs("{\"file\":", out);
        cli_json_string(out, name);
        fprintf(out, ",\"line\":%llu,\"status\":\"%s\",\"count\":%llu,\"guesses\":%llu,"
                     "\"puzzle\":\"%s\",\"solution\":",
                line, verdict_names[v], count, guesses, puzzle);
        if (solved)
            fprintf(out, "\"%s\"}\n", solution);
        else
            fputs("null}\n", out);
        break;
    case FMT_PRETTY:
        fprintf(out, "# %s:%llu %s (count %llu, guesses %llu)\n", name, line, verdict_names[v],
                count, guesses);
        write_boxed(out, solved ? &res->solution : &rec->grid);
        putc('\n', out);
        break;
    default: break;
    }
}
