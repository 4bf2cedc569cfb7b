/*
 * kernel_pair.h — the paired search of the AVX2 band kernel: two puzzles searched side by side,
 * one in each 16-byte half of every 32-byte vector.
 *
 * Included by the AVX2 stamp (kernel_avx2.c, where a vector holds two digit groups: SBB_DPV
 * == 2) after kernel_band.h, the single-board kernel, whose helpers it reuses. It defines
 * SB_KERNEL_PAIR(stacks, puzzles, n, limit, runs): the depth-first search of search.h run on
 * n puzzles, two at a time.
 *
 * Why: the single-board settle is bound by the latency of the naked-singles chain and by
 * branch mispredictions, and the second 16-byte half of an AVX2 vector bought it little
 * (docs/performance.md). Two independent searches side by side fill that
 * half: every vector instruction of a settle (the cell counts, the hidden-singles and
 * locked-candidates passes) works for both boards at once, and one loop exit serves both.
 *
 * Data layout (sbp_state, local to the search; the boards on the stacks stay sb_boards)
 *   v[d]      digit d+1 of both boards: lanes 0..2 board 0's three band words, lane 3 zero,
 *             lanes 4..6 board 1's, lane 7 zero (the single kernel's 16-byte digit group,
 *             twice);
 *   done      both boards' placed-cell words, the same way;
 *   dirty[l]  board l's dirty digits (kernel_band.h's SBB_DIRTY).
 * A board is loaded into its half when its lane starts settling it and stored back when the
 * lane needs it on the stack (a push copies it); an idle lane's half is zero and does no work.
 *
 * Algorithm: one turn of the loop is one naked-singles iteration of both boards (the cell
 * counts and the new singles' eliminations of both in one pass). A board whose singles stall
 * waits, at no cost, until the other one stalls too, so that the hidden-singles and
 * locked-candidates passes (the expensive whole-board work) serve both boards at once; a board
 * that reaches a contradiction moves on at once. After the passes, a board that is stable or
 * solved takes its lane's next search step (search.h's DFS as a state machine, sbp_advance).
 * Each board reaches the fixpoint of sbb_settle's rules (eliminations by monotone rules: the
 * order of their application does not change the fixpoint), so counts, solutions and guesses
 * equal the single search's (tests/test_many.c).
 *
 * Measured (docs/performance.md): 1.14-1.25x the single AVX2 search on the standard corpora
 * when it was written. Since the single search's naked singles fill 32-byte vectors too,
 * the pair is level with it on 17-clue and 6-9% behind on the harder
 * corpora (Zen 5), so the pair policy (solver.c) gives it only the easy puzzles. Syncing
 * everything (a contradicted board waiting too) and two singles per loop trip were slower.
 */
#if SBB_DPV != 2 || SB_KERNEL_TECH
#error "kernel_pair.h pairs the 32-byte band kernel of a plain stamp (kernel_avx2.c)"
#endif

/* Word arrays stored to as whole vectors (a vector store needs the vector's alignment). */
#define SBP_ALIGNED __attribute__((aligned(SBV_BYTES)))

/* Bit i set when lane i of x (8 lanes) is not zero. The AVX2 stamp is the one dispatched;
 * the other branches let the file build for every target (vec.h's rule for stamps). */
static inline unsigned sbp_lanes(sbv x)
{
#if defined(__AVX2__)
    /* (x == 0) inverted after the move: x != 0 costs a second compare (a negation). */
    return (unsigned)_mm256_movemask_ps((__m256)(x == 0)) ^ 0xFFu;
#else
    unsigned m = 0;
    for (int i = 0; i < 8; i++)
        m |= (unsigned)(x[i] != 0) << i;
    return m;
#endif
}

/* Board h's four words of x then y interleaved (x's word 0, y's word 0, x's word 1, ...):
 * lane pairs that read as the 64-bit words of sbb_digit_at. */
#if defined(__clang__)
#define SBP_ZIP(x, y, h)                                                                       \
    __builtin_shufflevector((x), (y), 4 * (h), 4 * (h) + 8, 4 * (h) + 1, 4 * (h) + 9,             \
                            4 * (h) + 2, 4 * (h) + 10, 4 * (h) + 3, 4 * (h) + 11)
#else
#define SBP_ZIP(x, y, h)                                                                       \
    __builtin_shuffle((x), (y), (sbv){4 * (h), 4 * (h) + 8, 4 * (h) + 1, 4 * (h) + 9, 4 * (h) + 2, \
                                      4 * (h) + 10, 4 * (h) + 3, 4 * (h) + 11})
#endif

/* sbp_halves' table: entry m has bit 0 set when m's low nibble is not zero, bit 1 when its
 * high nibble is not. One load, where the arithmetic took eight operations on the passes'
 * per-digit path (conditionals were compiled to branches, and they mispredicted). */
#define SBP_ROW(a, b) a, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b
static const uint8_t sbp_half_of[256] = {
    SBP_ROW(0, 1), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3),
    SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3),
    SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3), SBP_ROW(2, 3)};
#undef SBP_ROW

/* Bit l set when half l (lanes 4l..4l+3) of x has a bit set. */
static inline unsigned sbp_halves(sbv x)
{
    return sbp_half_of[sbp_lanes(x)];
}

/* All ones in the halves of the lanes in mask live (bit l: half l, live < 4): one load, where
 * building the vector from the bits took eight operations, once a turn and once a pass. */
static inline sbv sbp_keep(unsigned live)
{
    static const sbv keeps[4] = {{0},
                                 {~0u, ~0u, ~0u, ~0u, 0, 0, 0, 0},
                                 {0, 0, 0, 0, ~0u, ~0u, ~0u, ~0u},
                                 {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u}};
    return keeps[live];
}

SBB_COUNT_CELLS(sbp_count_cells, sbv)
SBB_INDEX_PLANES(sbp_index_planes, sbv)

/* One-hot digit selectors, per board: row l (entries SBP_ROW * l .. SBP_ROW * l + 16) has
 * all ones in half l of its entry SB_DIGITS - 1 and zeros elsewhere, so that the nine entries
 * from SBP_ROW * l + SB_DIGITS - 1 - d on, indexed by e, select half l of digit e's vector
 * exactly when e == d. A single's elimination then ANDs each digit vector with a loaded mask
 * instead of building it by a compare (one instruction fewer per digit, and no broadcast of
 * the digit). One array, so that a lane's row is a byte table entry (sbp_sel_at), not a
 * multiply (callgrind: 1.0-1.6% fewer instructions in the pair). */
#define SBP_ROW (2 * SB_DIGITS - 1)
#define SBP_ROW_HOT(...)                                                                       \
    {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {__VA_ARGS__}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}
static const sbv sbp_one_hot[2 * SBP_ROW] = {SBP_ROW_HOT(~0u, ~0u, ~0u, ~0u, 0, 0, 0, 0),
                                             SBP_ROW_HOT(0, 0, 0, 0, ~0u, ~0u, ~0u, ~0u)};
#undef SBP_ROW_HOT

/* Per lane j of a pair vector (board j / 4, band j % 4): the band's first cell (a table load,
 * not a multiply: 0.6-1.2% fewer instructions in the pair), and where board j / 4's selectors
 * of digit index 0 are in sbp_one_hot. */
static const uint8_t sbp_band_cell[8] = {0, 27, 54, 0, 0, 27, 54, 0};
#define SBP_SEL(l) (SBP_ROW * (l) + SB_DIGITS - 1)
static const uint8_t sbp_sel_at[8] = {SBP_SEL(0), SBP_SEL(0), SBP_SEL(0), SBP_SEL(0),
                                      SBP_SEL(1), SBP_SEL(1), SBP_SEL(1), SBP_SEL(1)};
#undef SBP_SEL
#undef SBP_ROW

/* The pair state of a settle: both boards' digit words, placed cells and dirty digits. */
typedef struct sbp_state {
    sbv v[SB_DIGITS];   /* digit d+1 of both boards (lanes 0..2 board 0, 4..6 board 1) */
    sbv done;           /* both boards' placed cells */
    uint32_t dirty[2];  /* each board's dirty digits (kernel_band.h's SBB_DIRTY) */
} sbp_state;

/* x with its half l replaced by y's (l: 0 or 1). */
static inline sbv sbp_with_half(sbv x, sbv y, int l)
{
    /* Its own table: through sbp_keep's the pair ran 0.02% more instructions (callgrind). */
    static const sbv mine[2] = {{~0u, ~0u, ~0u, ~0u, 0, 0, 0, 0},
                                {0, 0, 0, 0, ~0u, ~0u, ~0u, ~0u}};
#if defined(__AVX2__)
    /* One byte blend, where selecting by AND, ANDN and OR took three operations. */
    return (sbv)_mm256_blendv_epi8((__m256i)x, (__m256i)y, (__m256i)mine[l]);
#else
    return (x & ~mine[l]) | (y & mine[l]);
#endif
}

/* Half l of x (l: 0 or 1). */
static inline sbv4 sbp_half(sbv x, int l)
{
#if defined(__AVX2__)
    /* One lane permute, where the lanes were read one by one. */
    static const sbv pick[2] = {{0, 1, 2, 3, 0, 1, 2, 3}, {4, 5, 6, 7, 4, 5, 6, 7}};
    return sbv_lo((sbv)_mm256_permutevar8x32_epi32((__m256i)x, (__m256i)pick[l]));
#else
    const int o = 4 * l;
    return (sbv4){x[o], x[o + 1], x[o + 2], x[o + 3]};
#endif
}

/* Loads board b into half l of the pair state. */
static inline void sbp_get(sbp_state *st, int l, const sb_board *b)
{
    const sbb_word *w = sbb_words((sb_board *)b);
    for (int d = 0; d < SB_DIGITS; d++)
        st->v[d] = sbp_with_half(st->v[d], sbv_dup(*(const sbv4 *)(const void *)&w[4 * d]), l);
    st->done = sbp_with_half(st->done, sbv_dup(*sbb_done_vec(w)), l);
    st->dirty[l] = w[SBB_DIRTY];
}

/* Stores half l of the pair state into board b, with its nsolved. Lane 3 of a half is 0 in
 * the digit words; in done it holds the dirty word, stored over at once. */
static inline void sbp_put(const sbp_state *st, int l, sb_board *b)
{
    sbb_word *w = sbb_words(b);
    for (int d = 0; d < SB_DIGITS; d++)
        *(sbv4 *)(void *)&w[4 * d] = sbp_half(st->v[d], l);
    const sbv4 dn = sbp_half(st->done, l);
    *sbb_done_vec(w) = dn;
    w[SBB_DIRTY] = st->dirty[l];
    b->nsolved = (uint16_t)(__builtin_popcount(dn[0]) + __builtin_popcount(dn[1]) +
                            __builtin_popcount(dn[2]));
}

/* The lanes of x (digit d's change, 0 in lanes 3 and 7) that are not zero, at bits 7d..7d+6
 * of the passes' set of changes: nine digits fit 64 bits since lane 7 is always zero. */
static inline uint64_t sbp_changed(sbv x, int d)
{
    return (uint64_t)sbp_lanes(x) << (7 * d);
}

/* From a pass's set of changes (sbp_changed), moved[l] bit d: digit d of board l changed. */
static inline void sbp_moved(uint64_t changed, uint32_t moved[2])
{
    const uint64_t any = changed | changed >> 1 | changed >> 2; /* bit 7d: lanes 0..2, 7d+4: 4..6 */
#if defined(__BMI2__)
    /* Two bit extracts, where each digit's halves took five operations. */
    const uint64_t first = 0x0102040810204081ull; /* bit 7d of each digit d */
    moved[0] = (uint32_t)_pext_u64(any, first);
    moved[1] = (uint32_t)_pext_u64(any, first << 4);
#else
    moved[0] = moved[1] = 0;
    for (int d = 0; d < SB_DIGITS; d++) {
        moved[0] |= (uint32_t)(any >> (7 * d) & 1) << d;
        moved[1] |= (uint32_t)(any >> (7 * d + 4) & 1) << d;
    }
#endif
}

/* Hidden singles (sbb_hidden) on the boards of the lanes in mask on; the other half is left
 * as it is. @return in *bad the lanes with a contradiction, and the lanes that lost
 * candidates. */
static inline unsigned sbp_hidden(sbp_state *st, unsigned on, unsigned *bad_lanes)
{
    const sbv keep = sbp_keep(on);
    sbv hid[SB_DIGITS];
    sbv bad = {0}, hid1 = {0}, hid2 = {0};
    for (int d = 0; d < SB_DIGITS; d++)
        hid[d] = (sbv){0};
    /* The digits dirty on either board: a clean digit rescanned finds what was applied. */
    const uint32_t dirt = (st->dirty[0] & (0u - (on & 1))) | (st->dirty[1] & (0u - (on >> 1 & 1)));
    for (uint32_t todo = dirt & 0x1FFu; todo; todo &= todo - 1) {
        const int d = __builtin_ctz(todo);
        sbv none;
        hid[d] = sbb_hidden_of(st->v[d], &none) & keep;
        bad |= none; /* 0 in the padding lanes: the house masks are SBV_BAND's */
        hid2 |= hid1 & hid[d];
        hid1 |= hid[d];
    }
    *bad_lanes = sbp_halves((bad & keep) | hid2);
    uint32_t moved[2] = {0, 0};
    /* A placed cell shows as hidden for its own digit and loses nothing: when every hidden
     * cell is placed (43% of the passes on hardest_11plus) the nine words stay as they are. */
    if (sbv_any(hid1 & ~st->done)) {
        uint64_t changed = 0;
        for (int d = 0; d < SB_DIGITS; d++) {
            const sbv nv = st->v[d] & ~(hid1 & ~hid[d]);
            changed |= sbp_changed(nv ^ st->v[d], d);
            st->v[d] = nv;
        }
        sbp_moved(changed, moved);
    }
    for (int l = 0; l < 2; l++) {
        const uint32_t m = 0u - (on >> l & 1); /* selects, not branches: they mispredicted */
        st->dirty[l] = ((moved[l] | ((st->dirty[l] >> 16 | moved[l]) << 16)) & m) |
                       (st->dirty[l] & ~m);
    }
    return (moved[0] != 0) | (unsigned)(moved[1] != 0) << 1;
}

/* Locked candidates (sbb_locked_pass) on the boards of the lanes in mask on. @return the
 * lanes that lost candidates. */
static inline unsigned sbp_locked(sbp_state *st, unsigned on)
{
    const sbv keep = sbp_keep(on);
    uint32_t moved[2];
    uint64_t changed = 0;
    const uint32_t dirt = (st->dirty[0] & (0u - (on & 1))) | (st->dirty[1] & (0u - (on >> 1 & 1)));
    for (uint32_t todo = (dirt >> 16) & 0x1FFu; todo; todo &= todo - 1) {
        const int d = __builtin_ctz(todo);
        const sbv w = st->v[d];
        const sbv nv = (sbb_locked_of(w) & keep) | (w & ~keep);
        changed |= sbp_changed(nv ^ w, d);
        st->v[d] = nv;
    }
    sbp_moved(changed, moved);
    for (int l = 0; l < 2; l++) { /* moved[l] is 0 for a lane not in on */
        st->dirty[l] |= moved[l] | moved[l] << 16;
        st->dirty[l] &= 0xFFFFu | moved[l] << 16 | (0u - (~on >> l & 1));
    }
    return (moved[0] != 0) | (unsigned)(moved[1] != 0) << 1;
}

/* One lane of the paired search: search.h's DFS on one puzzle at a time. */
typedef struct sbp_lane {
    sb_board *stack;                     /* SB_STACK_DEPTH boards */
    int depth;                           /* level of the board being settled */
    int root;                            /* 1 until the root board has settled */
    uint8_t cell[SB_STACK_DEPTH];        /* cell of each alternative on the stack */
    uint16_t digit[SB_STACK_DEPTH];      /* digit that alternative must drop */
    sb_search_run *run;                  /* the puzzle's result, NULL when the lane is idle */
    uint64_t poll_at;                    /* guesses at which the budget and stop flag are checked */
} sbp_lane;

/* Inputs shared by the lanes: the puzzles and where the next one starts. */
typedef struct sbp_feed {
    const sb_grid *puzzles; /* the puzzles */
    sb_search_run *runs;    /* their results (max_guesses and stop set by the caller) */
    size_t n;               /* how many */
    size_t next;            /* the first not yet started */
    uint64_t limit;         /* solutions to count per puzzle (0: all) */
} sbp_feed;

/* Starts lane L on the next puzzle (its root board loaded, to be settled). @return 1, or 0
 * when none is left (the lane goes idle). */
static int sbp_start(sbp_lane *L, sbp_feed *f)
{
    while (f->next < f->n) {
        const size_t i = f->next++;
        sb_search_run *run = &f->runs[i];
        memset(&run->res, 0, sizeof run->res);
        /* The stop flag is looked at before each puzzle, as a caller of sb_solve would; a
         * raised flag leaves every puzzle not yet started unsolved. */
        if (run->stop && *run->stop) {
            run->status = SB_ERR_STOPPED;
            continue;
        }
        run->status = SB_OK;
        L->run = run;
        L->poll_at = srch_run_first_poll(run);
        L->depth = 0;
        L->root = 1;
        sbb_load_raw(&L->stack[0], &f->puzzles[i]);
        return 1;
    }
    L->run = NULL;
    return 0;
}

/* Moves lane L's search on from the board it just settled (ok: consistent) to the next board
 * that needs settling, as search.h's DFS does between two propagations; a finished puzzle
 * makes the lane start the next one. @return 1 with a board to settle, 0 when the lane is idle. */
static int sbp_advance(sbp_lane *L, sbp_feed *f, int ok)
{
    sb_result *res = &L->run->res;
    sb_board *b = &L->stack[L->depth];
    if (L->root) { /* the root may take the triad rules too, settled by the one-board kernel */
        L->root = 0;
        ok = ok && sbb_settle_root(b, 0, 0);
    }
    if (ok && b->nsolved == SB_CELLS) {
        if (res->count++ == 0)
            sbb_solution(b, res->solution.cell);
        if (f->limit && res->count >= f->limit)
            return sbp_start(L, f);
        ok = 0; /* counted: look for the next one */
    }
    if (ok) {
        const int c = sbb_choose(b, res->guesses >= SBL_AFTER);
        const uint16_t m = sbb_cell(b, c);
        const uint16_t d = m & (uint16_t)(m - 1) ? sbb_first(b, c, m) : m;
        if (m != d) {
            if (__builtin_expect(res->guesses >= L->poll_at, 0)) {
                const sb_glimit lim = srch_run_limit(L->run);
                if ((L->run->status = srch_poll(&lim, res->guesses + 1, &L->poll_at)) != SB_OK)
                    return sbp_start(L, f);
            }
            sbb_copy(&b[1], b);
            L->cell[L->depth] = (uint8_t)c;
            L->digit[L->depth] = d;
            L->depth++;
            res->guesses++;
            b++;
        }
        sbb_take_raw(b, c, d);
        return 1;
    }
    if (L->depth == 0)
        return sbp_start(L, f);
    L->depth--;
    sbb_drop_raw(&L->stack[L->depth], L->cell[L->depth], L->digit[L->depth]);
    return 1;
}

/* Counts the solutions of puzzles[0..n) up to limit (0 = all) two at a time, with two search
 * stacks of SB_STACK_DEPTH boards at stacks; runs[i] receives puzzle i's result and status
 * (its max_guesses and stop fields set by the caller). Cell values are already checked.
 *
 * One turn of the loop is one naked-singles iteration for both boards (counts and the new
 * singles' eliminations shared). A board whose singles stalled goes on, in the same turn, to
 * the hidden-singles pass, the locked-candidates pass and, when it is stable, solved or
 * contradicted, to its next search step and next board; the other board is not held back. */
void SB_KERNEL_PAIR(sb_board *stacks, const sb_grid *puzzles, size_t n, uint64_t limit,
                    sb_search_run *runs)
{
    const sbv cells = sbv_join((sbv4){SBB_CELLS, SBB_CELLS, SBB_CELLS, 0},
                               (sbv4){SBB_CELLS, SBB_CELLS, SBB_CELLS, 0});
    sbp_feed f = {puzzles, runs, n, 0, limit};
    sbp_lane lane[2];
    sbp_state st;
    memset(&st, 0, sizeof st);
    unsigned busy = 0;
    for (int l = 0; l < 2; l++) {
        lane[l].stack = stacks + (size_t)l * SB_STACK_DEPTH;
        if (sbp_start(&lane[l], &f)) {
            busy |= 1u << l;
            sbp_get(&st, l, &lane[l].stack[0]);
        }
    }
    while (busy) {
        sbv once, twice, hi4;
        sbp_count_cells(st.v, &once, &twice, &hi4);
        const unsigned empty = sbp_halves(cells & ~once) & busy;
        const sbv fresh = once & ~twice & ~st.done & sbp_keep(busy & ~empty);
        const unsigned single = sbp_halves(fresh);
        if (single) {
            st.done |= fresh;
            /* Bits of each cell's digit index (exact for cells with one digit), two planes per
             * 64-bit word (sbb_digit_at), and the new singles as words: word 4l+k is band k of
             * board l. */
            sbv d[4];
            sbp_index_planes(st.v, hi4, d);
            uint64_t q01[8] SBP_ALIGNED, q23[8] SBP_ALIGNED;
            uint32_t fw[8] SBP_ALIGNED;
            *(sbv *)(void *)&q01[0] = SBP_ZIP(d[0], d[1], 0);
            *(sbv *)(void *)&q01[4] = SBP_ZIP(d[0], d[1], 1);
            *(sbv *)(void *)&q23[0] = SBP_ZIP(d[2], d[3], 0);
            *(sbv *)(void *)&q23[4] = SBP_ZIP(d[2], d[3], 1);
            *(sbv *)(void *)fw = fresh;
            unsigned nz = sbp_lanes(fresh);
            do { /* one loop over both boards' singles */
                const int j = __builtin_ctz(nz), s = __builtin_ctz(fw[j]);
                fw[j] &= fw[j] - 1;
                nz &= ~((unsigned)(fw[j] == 0) << j);
                const uint32_t d = sbb_digit_at(q01[j], q23[j], s);
                const int l = j >> 2, c = sbp_band_cell[j] + s;
                const sbv4 p4 = *(const sbv4 *)(const void *)sb_band_peers[c];
                const sbv peer = sbv_dup(p4);
                const sbv *sel = &sbp_one_hot[sbp_sel_at[j] - d];
                for (int e = 0; e < SB_DIGITS; e++)
                    st.v[e] &= ~(peer & sel[e]);
                st.dirty[l] |= SBB_HIDDEN_DIRTY(d) * 0x10001u;
            } while (nz);
        }
        /* A stalled board waits for the other one to stall too, so that the passes serve
         * both boards at once (its half of the turns costs nothing meanwhile). */
        const unsigned stalled = single ? 0u : busy & ~empty;
        if (!(stalled | empty))
            continue;
        /* Boards whose singles stalled: solved ones are done; the others take the passes. */
        const unsigned solved = sbp_halves(cells & ~st.done) ^ 3u;
        const unsigned open = stalled & ~solved;
        unsigned failed = empty, stable = stalled & solved;
        if (open) {
            unsigned bad;
            const unsigned moved = sbp_hidden(&st, open, &bad) & open;
            failed |= bad & open;
            const unsigned quiet = open & ~moved & ~bad;
            if (quiet)
                stable |= quiet & ~sbp_locked(&st, quiet);
        }
        for (unsigned next = failed | stable; next; next &= next - 1) {
            const int l = __builtin_ctz(next);
            sbp_lane *L = &lane[l];
            sb_board *b = &L->stack[L->depth];
            if (stable >> l & 1)
                sbp_put(&st, l, b);
            if (sbp_advance(L, &f, (int)(stable >> l & 1)))
                sbp_get(&st, l, &L->stack[L->depth]);
            else
                busy &= ~(1u << l);
        }
        /* An idle lane's half is cleared so that it does no work (lanes go idle only at the
         * end of a block: this branch is well predicted). */
        if (busy != 3u) {
            const sbv keep = sbp_keep(busy);
            for (int d = 0; d < SB_DIGITS; d++)
                st.v[d] &= keep;
            st.done &= keep;
        }
    }
}
