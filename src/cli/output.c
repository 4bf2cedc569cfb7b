/*
 * output.c — the record formats of `solve` (docs/cli.md): solution, tdoku, csv, json, pretty.
 * One record per input puzzle, invalid lines included, so records never shift.
 *
 * Records are formatted straight into a cli_buf (one per chunk of the batch engine) with
 * hand-written digit and grid writers instead of stdio: at a million easy puzzles a second
 * per core, printf's format parsing alone would cost more than solving. Each record reserves
 * its worst-case size once, then writes through a plain pointer.
 */
#include <stdlib.h>

#include "cli.h"

static const char *const format_names[FMT_COUNT] = {"solution", "tdoku", "csv", "json",
                                                     "pretty"};

/* Status words shared by every format and command, indexed by sb_verdict, then the status
 * of a search cut short by --max-guesses (CLI_STATUS_BUDGET). */
static const char *const verdict_names[] = {"unsolvable", "solved", "multiple", "budget"};

const char *cli_verdict_name(sb_verdict v)
{
    return verdict_names[v];
}
static const char invalid_name[] = "invalid";

enum {
    /* Worst case of one record without its file name: a pretty grid (14 lines of 26 bytes)
     * plus header words and three 20-digit numbers, or a json record with an escaped reason
     * (6 * SB_WHY_LEN). Generous on purpose: one reserve per record, no per-field checks. */
    RECORD_MAX = 1024 + 6 * SB_WHY_LEN /* pretty with givens beside: 13 lines of 54 bytes;
                                          json of pencilmarks: 729 + 81 cells, ~950 bytes */
};

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

void cli_write_header(FILE *out, cli_format f, int with_file)
{
    if (f == FMT_CSV)
        fputs(with_file ? "file,line,status,count,guesses,solution\n"
                        : "line,status,count,guesses,solution\n", out);
}

/* @return the length of the valid UTF-8 sequence at s (2..4), or 0 when it is not one
 * (overlong forms, surrogates and code points above U+10FFFF are not). */
static size_t utf8_len(const unsigned char *s)
{
    const unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return n;
}

size_t cli_json_escape(char *dst, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    char *p = dst;
    *p++ = '"';
    while (*u) {
        const unsigned char ch = *u;
        if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
            u++;
        } else if (ch < 0x20 || ch == 0x7f) {
            memcpy(p, "\\u00", 4);
            p[4] = hex[ch >> 4];
            p[5] = hex[ch & 15];
            p += 6;
            u++;
        } else if (ch < 0x80) {
            *p++ = (char)ch;
            u++;
        } else {
            const size_t n = utf8_len(u);
            if (n) {
                memcpy(p, u, n);
                p += n;
                u += n;
            } else { /* JSON text is Unicode: a stray byte cannot be carried, only marked */
                memcpy(p, "\\ufffd", 6);
                p += 6;
                u++;
            }
        }
    }
    *p++ = '"';
    *p = '\0';
    return (size_t)(p - dst);
}

size_t cli_msg_escape(char *dst, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    char *p = dst;
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f) {
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hex[ch >> 4];
            *p++ = hex[ch & 15];
        } else {
            *p++ = (char)ch;
        }
    }
    *p = '\0';
    return (size_t)(p - dst);
}

char *cli_msg_dup(const char *s)
{
    char *d = malloc(4 * strlen(s) + 1);
    if (d)
        cli_msg_escape(d, s);
    return d;
}

/* Writes s as one CSV field into dst (room for 2 * strlen(s) + 3): quoted, quotes doubled,
 * when it holds a comma, a quote or a line break (RFC 4180). @return the length. */
static size_t csv_escape(char *dst, const char *s)
{
    char *p = dst;
    if (!s[strcspn(s, ",\"\r\n")]) {
        const size_t n = strlen(s);
        memcpy(dst, s, n + 1);
        return n;
    }
    *p++ = '"';
    for (; *s; s++) {
        if (*s == '"')
            *p++ = '"';
        *p++ = *s;
    }
    *p++ = '"';
    *p = '\0';
    return (size_t)(p - dst);
}

int cli_input_init(cli_input *in, const char *path)
{
    in->name = strcmp(path, "-") ? path : "<stdin>";
    in->name_len = strlen(in->name);
    in->json_name = malloc(6 * in->name_len + 3);
    in->msg_name = malloc(4 * in->name_len + 1);
    in->csv_name = malloc(2 * in->name_len + 3);
    if (!in->json_name || !in->msg_name || !in->csv_name) {
        cli_input_free(in);
        return -1;
    }
    in->json_len = cli_json_escape(in->json_name, in->name);
    in->msg_len = cli_msg_escape(in->msg_name, in->name);
    in->csv_len = csv_escape(in->csv_name, in->name);
    return 0;
}

void cli_input_free(cli_input *in)
{
    free(in->json_name);
    free(in->msg_name);
    free(in->csv_name);
    in->json_name = in->msg_name = in->csv_name = NULL;
}

void cli_json_string(FILE *out, const char *s)
{
    char *buf = malloc(6 * strlen(s) + 3);
    if (!buf)
        return;
    fwrite(buf, 1, cli_json_escape(buf, s), out);
    free(buf);
}

/* ------------------------------------------------------------------------------------------ */
/* Field writers: each writes at p and returns the position after what it wrote              */
/* ------------------------------------------------------------------------------------------ */

/* Copies a NUL-terminated string without its NUL. */
static inline char *put_str(char *p, const char *s)
{
    const size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* Writes a 9x9 puzzle in its input's form: 81 characters, or a pencilmark record's 729
 * (digit k+1 or '.' at character k of each cell), so tdoku and json output of pencilmarks
 * reads back as the same puzzle. */
static char *put_puzzle(char *p, const cli_grids *v)
{
    if (!v->cand)
        return cli_put_grid(p, (const sb_grid *)(const void *)v->puzzle, '.');
    for (int c = 0; c < SB_CELLS; c++)
        for (int k = 0; k < SB_DIGITS; k++)
            *p++ = v->cand[c] >> k & 1 ? (char)('1' + k) : '.';
    return p;
}

/* Writes the file column of a csv record (with its comma) when the run has several inputs. */
static inline char *put_csv_file(char *p, const cli_input *in)
{
    if (!in->with_file)
        return p;
    memcpy(p, in->csv_name, in->csv_len);
    p += in->csv_len;
    *p++ = ',';
    return p;
}

/* Writes the start of a json record: {"file":F,"line":N,"status":"STATUS" */
static char *put_json_head(char *p, const cli_input *in, uint64_t line, const char *status)
{
    p = put_str(p, "{\"file\":");
    memcpy(p, in->json_name, in->json_len);
    p = put_str(p + in->json_len, ",\"line\":");
    p = cli_put_u64(p, line);
    p = put_str(p, ",\"status\":\"");
    p = put_str(p, status);
    *p++ = '"';
    return p;
}

/* Writes the start of a pretty header: # FILE:LINE STATUS */
static char *put_pretty_head(char *p, const cli_input *in, uint64_t line, const char *status)
{
    *p++ = '#';
    *p++ = ' ';
    memcpy(p, in->msg_name, in->msg_len); /* a newline in a name must not split the header */
    p += in->msg_len;
    *p++ = ':';
    p = cli_put_u64(p, line);
    *p++ = ' ';
    return put_str(p, status);
}

/* Writes the record of an invalid line. */
static char *put_invalid(char *p, cli_format f, const cli_input *in, const sb_record *rec)
{
    const unsigned long long line = (unsigned long long)rec->line;
    switch (f) {
    case FMT_SOLUTION: p = put_str(p, invalid_name); break;
    case FMT_TDOKU:
        p = put_str(p, rec->text);
        *p++ = ':';
        p = put_str(p, invalid_name);
        *p++ = ':';
        break;
    case FMT_CSV:
        p = cli_put_u64(put_csv_file(p, in), line);
        p = put_str(p, ",invalid,,,");
        break;
    case FMT_JSON:
        p = put_str(put_json_head(p, in, line, invalid_name), ",\"error\":");
        p += cli_json_escape(p, rec->why);
        p = put_str(p, ",\"column\":");
        /* column 0: a well-formed line the solver could not finish (BFS cap): no column */
        p = rec->col ? cli_put_u64(p, rec->col) : put_str(p, "null");
        *p++ = '}';
        break;
    case FMT_PRETTY:
        p = put_str(put_pretty_head(p, in, line, invalid_name), ": ");
        p = put_str(p, rec->why);
        *p++ = '\n';
        break;
    default: break;
    }
    *p++ = '\n';
    return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Grids of any geometry: 9x9 (cli_grids.g NULL) through the 81-cell writers above, the rest  */
/* through the library's text codec (sb_gformat) and a drawing of the geometry's layout       */
/* ------------------------------------------------------------------------------------------ */

/* Bytes one record of g may need beyond RECORD_MAX: its grids as text (3 bytes a cell) and a
 * pretty picture (cells of up to 3 bytes, box rules of as many again, two grids side by side). */
static size_t grids_room(const sb_geometry *g)
{
    return g ? 24 * (size_t)sb_geometry_cells(g) + 1024 : 0;
}

/* Writes cells of g in form (characters, or ',' between integers). */
static char *put_gcells(char *p, const sb_geometry *g, const uint8_t *cells, int form)
{
    const int n = sb_gformat(g, cells, form, p, 3 * (size_t)sb_geometry_cells(g) + 1);
    return n > 0 ? p + n : p;
}

/* Writes the solution of v: 81 characters (9x9) or its geometry's text. */
static inline __attribute__((always_inline)) char *put_solution_grid(char *p, const cli_grids *v)
{
    if (!v->g)
        return cli_put_grid(p, (const sb_grid *)(const void *)v->solution, '.');
    return put_gcells(p, v->g, v->solution, v->form);
}

/* Writes the puzzle of v (9x9: its cells or pencilmarks; else in its geometry's form). */
static inline __attribute__((always_inline)) char *put_puzzle_grid(char *p, const cli_grids *v)
{
    return v->g ? put_gcells(p, v->g, v->puzzle, v->form) : put_puzzle(p, v);
}

/* Writes a csv field of v's solution: quoted in the integer form, which has commas. */
static inline __attribute__((always_inline)) char *put_csv_solution(char *p, const cli_grids *v)
{
    const int quote = v->g && v->form == SB_GFORM_INTS;
    if (quote)
        *p++ = '"';
    p = put_solution_grid(p, v);
    if (quote)
        *p++ = '"';
    return p;
}

/* Writes one cell of a pretty grid: width w, '.' for a blank. */
static char *put_pretty_cell(char *p, int v, int w)
{
    static const char alphabet[] = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if (w == 1) {
        *p++ = alphabet[v];
        return p;
    }
    *p++ = v >= 10 ? (char)('0' + v / 10) : ' ';
    *p++ = v ? (char)('0' + v % 10) : '.';
    return p;
}

/* How a pretty grid is drawn: its layout, the width of a cell and whether its planes stand
 * side by side (a cube). */
typedef struct picture {
    sb_geometry_layout l;
    int w, cube;
} picture;

/* The picture of geometry g; 9x9 (g NULL): nine rows of 3x3 boxes. */
static picture picture_of(const sb_geometry *g)
{
    picture d = {.l = {9, 9, 3, 3}, .w = 1};
    if (g) {
        sb_geometry_layout_of(g, &d.l);
        d.w = sb_geometry_digits(g) <= 35 ? 1 : 2;
        d.cube = sb_geometry_kind_of(g) == SB_GEO_CUBE;
    }
    return d;
}

/* Writes printed row r of a pretty grid drawn as d (no line end): boxes drawn with '|' and
 * '+--+' rules when the geometry has them; for a cube the planes x = 1..K side by side. Rows
 * are numbered with the rules: with boxes of R rows, printed row r is a rule when r % (R+1)
 * is 0. */
static char *put_pretty_row(char *p, const picture *d, const uint8_t *cells, int r)
{
    const sb_geometry_layout l = d->l;
    const int w = d->w, cube = d->cube;
    if (l.box_rows) {
        if (r % (l.box_rows + 1) == 0) {
            for (int c = 0; c < l.cols; c++) {
                if (c % l.box_cols == 0)
                    p = put_str(p, "+-");
                for (int k = 0; k <= w; k++)
                    *p++ = '-';
            }
            *p++ = '+';
            return p;
        }
        r -= r / (l.box_rows + 1) + 1;
    }
    for (int c = 0; c < l.cols; c++) {
        if (l.box_cols && c % l.box_cols == 0)
            p = put_str(p, "| ");
        const int cell = cube ? l.rows * l.rows * (c / l.rows) + l.rows * r + c % l.rows
                              : r * l.cols + c;
        p = put_pretty_cell(p, cells[cell], w);
        if (c + 1 < l.cols || l.box_cols)
            *p++ = ' ';
    }
    if (l.box_cols)
        *p++ = '|';
    return p;
}

/* Writes the pretty picture of left of g (NULL: 9x9), with right beside it when not NULL. */
static char *put_gpretty(char *p, const sb_geometry *g, const uint8_t *left,
                         const uint8_t *right)
{
    const picture d = picture_of(g);
    const int rows = d.l.box_rows ? d.l.rows + d.l.rows / d.l.box_rows + 1 : d.l.rows;
    for (int r = 0; r < rows; r++) {
        p = put_pretty_row(p, &d, left, r);
        if (right)
            p = put_pretty_row(put_str(p, "   "), &d, right, r);
        *p++ = '\n';
    }
    return p;
}

void cli_put_gcells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    char *p = cli_buf_reserve(b, 3 * (size_t)sb_geometry_cells(g) + 1);
    if (p)
        b->len += (size_t)(put_gcells(p, g, cells, form) - p);
}

void cli_put_gcsv_cells(cli_buf *b, const sb_geometry *g, const uint8_t *cells, int form)
{
    const cli_grids v = {.g = g, .form = form, .solution = cells};
    char *p = cli_buf_reserve(b, 3 * (size_t)sb_geometry_cells(g) + 3);
    if (p)
        b->len += (size_t)(put_csv_solution(p, &v) - p);
}

void cli_put_gpretty(cli_buf *b, const sb_geometry *g, const uint8_t *left, const uint8_t *right)
{
    char *p = cli_buf_reserve(b, grids_room(g));
    if (p)
        b->len += (size_t)(put_gpretty(p, g, left, right) - p);
}

/* Writes the record of a counted puzzle (the body of cli_format_grids; see there). Inlined
 * into cli_format_record, where v->g is NULL, so the 9x9 records lose the other geometries'
 * branches. */
static inline __attribute__((always_inline)) char *put_record(char *p, cli_format f, const cli_input *in, const sb_record *rec,
                               const cli_grids *v, uint64_t count, uint64_t guesses, int status,
                               int count_only)
{
    const int solved = status == SB_SOLVED;
    const char *word = verdict_names[status];
    switch (f) {
    case FMT_SOLUTION:
        if (count_only && status != CLI_STATUS_BUDGET)
            p = cli_put_u64(p, count);
        else
            p = solved ? put_solution_grid(p, v) : put_str(p, word);
        break;
    case FMT_TDOKU:
        p = put_puzzle_grid(p, v);
        *p++ = ':';
        /* a count cut short by the budget is no count: the status word stands in for it */
        p = status == CLI_STATUS_BUDGET ? put_str(p, word) : cli_put_u64(p, count);
        *p++ = ':';
        if (solved)
            p = put_solution_grid(p, v);
        break;
    case FMT_CSV:
        p = cli_put_u64(put_csv_file(p, in), rec->line);
        *p++ = ',';
        p = put_str(p, word);
        *p++ = ',';
        p = cli_put_u64(p, count);
        *p++ = ',';
        p = cli_put_u64(p, guesses);
        *p++ = ',';
        if (solved)
            p = put_csv_solution(p, v);
        break;
    case FMT_JSON:
        p = put_str(put_json_head(p, in, rec->line, word), ",\"count\":");
        p = cli_put_u64(p, count);
        p = put_str(p, ",\"guesses\":");
        p = cli_put_u64(p, guesses);
        p = put_str(p, ",\"puzzle\":\"");
        p = put_puzzle_grid(p, v);
        p = put_str(p, "\",\"solution\":");
        if (solved) {
            *p++ = '"';
            p = put_solution_grid(p, v);
            p = put_str(p, "\"}");
        } else {
            p = put_str(p, "null}");
        }
        break;
    case FMT_PRETTY:
        p = put_str(put_pretty_head(p, in, rec->line, word), " (count ");
        p = cli_put_u64(p, count);
        p = put_str(p, ", guesses ");
        p = cli_put_u64(p, guesses);
        /* a grid shows a pencilmark record's givens only: the header says so */
        p = put_str(p, rec->marks ? ", givens of pencilmarks)\n" : ")\n");
        p = put_gpretty(p, v->g, v->puzzle, solved ? v->solution : NULL);
        break;
    default: break;
    }
    *p++ = '\n';
    return p;
}

void cli_format_grids(cli_buf *b, cli_format f, const cli_input *in, const sb_record *rec,
                      const cli_grids *v, uint64_t count, uint64_t guesses, int status,
                      int count_only)
{
    char *const start = cli_buf_reserve(b, RECORD_MAX + grids_room(v ? v->g : NULL) +
                                               in->msg_len + in->json_len + in->csv_len);
    if (!start)
        return;
    char *p = v ? put_record(start, f, in, rec, v, count, guesses, status, count_only)
                : put_invalid(start, f, in, rec);
    b->len += (size_t)(p - start);
}

void cli_format_record(cli_buf *b, cli_format f, const cli_input *in, const sb_record *rec,
                       const uint8_t *cells, const uint64_t *cand, const sb_gresult *res,
                       const uint8_t *solution, int status)
{
    char *const start =
        cli_buf_reserve(b, RECORD_MAX + in->msg_len + in->json_len + in->csv_len);
    if (!start)
        return;
    const cli_grids v = {.puzzle = cells, .cand = cand, .solution = solution};
    char *p = res ? put_record(start, f, in, rec, &v, res->count, res->guesses, status, 0)
                  : put_invalid(start, f, in, rec);
    b->len += (size_t)(p - start);
}

void cli_format_solution(cli_buf *b, cli_format f, const cli_input *in, uint64_t line,
                         const cli_grids *v, uint64_t index)
{
    char *const start = cli_buf_reserve(b, RECORD_MAX + grids_room(v->g) + in->msg_len +
                                               in->json_len + in->csv_len);
    if (!start)
        return;
    char *p = start;
    switch (f) {
    case FMT_CSV:
        p = cli_put_u64(put_csv_file(p, in), line);
        p = cli_put_u64(put_str(p, ",solution,"), index);
        p = put_csv_solution(put_str(p, ",,"), v);
        break;
    case FMT_JSON:
        p = put_json_head(p, in, line, "solution");
        p = cli_put_u64(put_str(p, ",\"index\":"), index);
        p = put_str(put_solution_grid(put_str(p, ",\"solution\":\""), v), "\"}");
        break;
    case FMT_PRETTY:
        p = cli_put_u64(put_str(put_pretty_head(p, in, line, "solution"), " "), index);
        *p++ = '\n';
        p = put_gpretty(p, v->g, v->solution, NULL);
        break;
    default: p = put_solution_grid(p, v); break;
    }
    *p++ = '\n';
    b->len += (size_t)(p - start);
}

void cli_format_invalid(cli_buf *b, const char *msg_name, const sb_record *rec)
{
    sb_buf_printf(b, CLI_NAME ": %s:%llu:%zu: invalid puzzle: %s\n", msg_name,
                  (unsigned long long)rec->line, rec->col, rec->why);
}
