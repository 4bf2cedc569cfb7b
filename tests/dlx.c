/*
 * dlx.c — dancing links (see dlx.h). Nodes live in parallel int arrays (left, right, up,
 * down, column, row); node 0 is the root, nodes 1..ncols the column headers, then the row
 * nodes. The search is the textbook recursive one, choosing the column with fewest rows.
 */
#include "dlx.h"

#include <stdlib.h>
#include <string.h>

typedef struct dlx {
    int *l, *r, *u, *d;  /* links of each node */
    int *col;            /* column header of each node */
    int *row;            /* row number of each node (-1 for headers) */
    int *size;           /* rows left in each column (by header index) */
    int ncols;           /* columns */
    int nodes;           /* nodes in use */
    int *pick;           /* row chosen at each depth */
    int ndigits;         /* digits, to decode row = cell * ndigits + digit - 1 */
    int ncells;          /* cells */
    uint64_t count;      /* solutions found */
    uint64_t limit;      /* stop at this many (0: never) */
    uint8_t *first;      /* first solution, or NULL */
} dlx;

/* Removes column c from the header list and its rows from the other columns. */
static void cover(dlx *x, int c)
{
    x->r[x->l[c]] = x->r[c];
    x->l[x->r[c]] = x->l[c];
    for (int i = x->d[c]; i != c; i = x->d[i])
        for (int j = x->r[i]; j != i; j = x->r[j]) {
            x->d[x->u[j]] = x->d[j];
            x->u[x->d[j]] = x->u[j];
            x->size[x->col[j]]--;
        }
}

/* Undoes cover(c), in exactly the reverse order. */
static void uncover(dlx *x, int c)
{
    for (int i = x->u[c]; i != c; i = x->u[i])
        for (int j = x->l[i]; j != i; j = x->l[j]) {
            x->size[x->col[j]]++;
            x->d[x->u[j]] = j;
            x->u[x->d[j]] = j;
        }
    x->r[x->l[c]] = c;
    x->l[x->r[c]] = c;
}

/* Algorithm X from depth k; returns 1 when the limit is reached (stop everything). */
static int search(dlx *x, int k)
{
    if (x->r[0] == 0) {
        if (x->count == 0 && x->first)
            for (int i = 0; i < k; i++)
                x->first[x->pick[i] / x->ndigits] = (uint8_t)(x->pick[i] % x->ndigits + 1);
        x->count++;
        return x->limit && x->count >= x->limit;
    }
    /* The column with fewest rows; one with 0 or 1 cannot be beaten, so the scan stops
     * there (on 25x25 the scan over 2,500 columns was most of the oracle's time). */
    int c = x->r[0];
    for (int j = x->r[c]; j != 0 && x->size[c] > 1; j = x->r[j])
        if (x->size[j] < x->size[c])
            c = j;
    if (x->size[c] == 0)
        return 0;
    cover(x, c);
    int stop = 0;
    for (int r = x->d[c]; r != c && !stop; r = x->d[r]) {
        x->pick[k] = x->row[r];
        for (int j = x->r[r]; j != r; j = x->r[j])
            cover(x, x->col[j]);
        stop = search(x, k + 1);
        for (int j = x->l[r]; j != r; j = x->l[j])
            uncover(x, x->col[j]);
    }
    uncover(x, c);
    return stop;
}

/* Appends a node for (row, column c) below column c; links it after prev in its row
 * (prev < 0: it starts the row). @return the node. */
static int add_node(dlx *x, int rowno, int c, int prev)
{
    int n = x->nodes++;
    x->col[n] = c;
    x->row[n] = rowno;
    x->u[n] = x->u[c];
    x->d[n] = c;
    x->d[x->u[c]] = n;
    x->u[c] = n;
    x->size[c]++;
    if (prev < 0) {
        x->l[n] = x->r[n] = n;
    } else {
        x->r[n] = x->r[prev];
        x->l[n] = prev;
        x->l[x->r[prev]] = n;
        x->r[prev] = n;
    }
    return n;
}

uint64_t dlx_count(int ncells, int ndigits, int nhouses, const int *houses,
                   const uint8_t *cells, uint64_t limit, uint8_t *first)
{
    /* Each cell's houses, from the house list. */
    int *nh_of = calloc((size_t)ncells, sizeof *nh_of);
    int *h_of = malloc((size_t)ncells * (size_t)nhouses * sizeof *h_of);
    for (int h = 0; h < nhouses; h++)
        for (int i = 0; i < ndigits; i++) {
            int c = houses[h * ndigits + i];
            h_of[c * nhouses + nh_of[c]++] = h;
        }
    dlx x;
    memset(&x, 0, sizeof x);
    x.ncols = ncells + nhouses * ndigits;
    size_t maxnodes = (size_t)x.ncols + 1;
    for (int c = 0; c < ncells; c++)
        maxnodes += (size_t)ndigits * (size_t)(1 + nh_of[c]);
    x.l = malloc(maxnodes * sizeof(int));
    x.r = malloc(maxnodes * sizeof(int));
    x.u = malloc(maxnodes * sizeof(int));
    x.d = malloc(maxnodes * sizeof(int));
    x.col = malloc(maxnodes * sizeof(int));
    x.row = malloc(maxnodes * sizeof(int));
    x.size = calloc((size_t)x.ncols + 1, sizeof(int));
    x.pick = malloc(((size_t)ncells + 1) * sizeof(int));
    x.ndigits = ndigits;
    x.ncells = ncells;
    x.limit = limit;
    x.first = first;
    for (int i = 0; i <= x.ncols; i++) {
        x.l[i] = i == 0 ? x.ncols : i - 1;
        x.r[i] = i == x.ncols ? 0 : i + 1;
        x.u[i] = x.d[i] = i;
        x.col[i] = i;
        x.row[i] = -1;
    }
    x.nodes = x.ncols + 1;
    for (int c = 0; c < ncells; c++)
        for (int d = 1; d <= ndigits; d++) {
            if (cells[c] && cells[c] != d)
                continue;
            int rowno = c * ndigits + d - 1;
            int prev = add_node(&x, rowno, 1 + c, -1);
            for (int k = 0; k < nh_of[c]; k++)
                prev = add_node(&x, rowno, 1 + ncells + h_of[c * nhouses + k] * ndigits + d - 1,
                                prev);
        }
    search(&x, 0);
    free(x.l);
    free(x.r);
    free(x.u);
    free(x.d);
    free(x.col);
    free(x.row);
    free(x.size);
    free(x.pick);
    free(nh_of);
    free(h_of);
    return x.count;
}
