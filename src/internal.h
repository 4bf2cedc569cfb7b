/*
 * internal.h — declarations shared inside the library (never installed, never public).
 *
 * The fast solver kernel is written once (kernel.h) and compiled once per SIMD level
 * (kernel/kernel_<level>.c); solver.c picks one through the
 * dispatch table, chosen once per solver context. The generic pipelines (pipeline.c, the 9x9
 * stamp of technique.h) run the seed documents' technique orders on the same board with the
 * same search (search.h).
 */
#ifndef SB_INTERNAL_H
#define SB_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sudokubench.h"
#include "sudokubench_plugin.h"

/* Writes the reason fmt, ... into why (whylen bytes; nothing when why is NULL or whylen is
 * 0): the one message helper of the library's parsers (pipeline specs, geometry records).
 * @return status, so a parser returns its error and the reason in one call. */
static inline int sb_why(int status, char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int sb_why(int status, char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* sb_transform_apply without its checks, for callers whose transform came from the library
 * and whose cells are known to be 0..9 (sb_augment_batch checks its input once). */
static inline void sb_transform_map(const sb_transform *t, const sb_grid *in, sb_grid *out)
{
    for (int i = 0; i < SB_CELLS; i++)
        out->cell[i] = t->digit[in->cell[t->cell[i]]];
}

/* The generator's PRNG (sb_rng_*), inline for the generator's inner loops, which draw
 * once per cell. splitmix64: SB_RNG_GAMMA, the golden-ratio odd increment, makes the state
 * visit every value, and sb_rng_mix, its output function, is a bijection that spreads every
 * input bit over the whole word. */
#define SB_RNG_GAMMA UINT64_C(0x9E3779B97F4A7C15)

static inline uint64_t sb_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* sb_rng_next on a non-NULL rng. */
static inline uint64_t sb_rng_draw(sb_rng *rng)
{
    return sb_rng_mix(rng->state += SB_RNG_GAMMA);
}

/* sb_rng_below for n > 0 on a non-NULL rng: Lemire's multiply-shift with rejection, exactly
 * uniform, and the division only runs in the rare case the low product lands in the biased
 * zone. 128-bit products are a GCC/Clang extension, hence __extension__. */
static inline uint64_t sb_rng_draw_below(sb_rng *rng, uint64_t n)
{
    __extension__ typedef unsigned __int128 u128;
    u128 m = (u128)sb_rng_draw(rng) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        const uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = (u128)sb_rng_draw(rng) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* The batch calls' team (batch_api.c, engine/gbatch.c): picks the team for n items
 * (threads, 0 = OpenMP's default, at most n, at least 1) into *team and checks that it can
 * start (sb_threads_check). @return SB_OK, or sb_threads_check's error (errno set). */
int sb_batch_team(int threads, size_t n, int *team);

/* The count field of a tdoku record PUZZLE:COUNT[:SOLUTION] at line[i..hi) (i just past the
 * puzzle's ':', i > 0): digits or the word "budget", then the end or ':'; one rule for both
 * paths of the reader (9x9 and the other geometries). @return the index of its end (hi or
 * the ':'), or 0 with why (SB_WHY_LEN bytes) and *col set: "bad count field", or "tdoku
 * record of an invalid line" for "invalid" (the record of an invalid line stays invalid). */
size_t sb_tdoku_count(const char *line, size_t i, size_t hi, char *why, size_t *col);

/* 1 when line (blanks and a '\r' around it trimmed) is the Kaggle header "quizzes,solutions",
 * which the reader skips on 9x9 (and on the 3x3 geometry too). */
int sb_kaggle_header(const char *line, size_t len);

/* 1 when line is a rule line of a nine-line grid (only '-', '+', '=', '|' and blanks, and not
 * nine '-': that is a row of blanks), for both paths of the reader. */
int sb_grid_rule_line(const char *line, size_t len);

/* The reader's message for a '#' after a puzzle's cells (at the '#'), on every geometry. */
#define SB_WHY_COMMENT "unexpected '#': a comment takes its own line"

/* Records an error a team's thread met in *shared (SB_OK is ignored). With several errors one
 * of them is kept, which one depends on timing: the caller only needs to learn that one did. */
void sb_batch_error(int *shared, int st);

/* The team of a batch call whose first per-thread object (solver, generator, engine: made
 * before the team, it checks the options and serves thread 0) is first: sb_batch_team's team
 * for n items into *team; when it cannot start, release(first) frees that object with errno
 * kept for the caller (batch_api.c). @return as sb_batch_team. */
int sb_batch_begin(int threads, size_t n, int *team, void (*release)(void *), void *first);

/* Lanes of a board: 81 cells padded to a multiple of 32 16-bit lanes (one AVX-512 vector
 * holds 32, an AVX2 vector 16) so whole-board vector passes need no tail handling. */
#define SB_LANES 96

/* The search state: everything a guess copies. 192 bytes = three 64-byte cache lines,
 * 96 16-bit lanes so whole-board vector passes need no tail handling. The fields below are
 * the reference's and the generic pipelines' layout; the band kernel keeps digit words in
 * the first 160 bytes (kernel_band.h), and the AVX-512 stamps keep the cells in the lanes
 * sb_lane_map gives (0..26, 32..58, 64..90; the others 0). nsolved is lane 95 in every
 * layout. */
typedef struct sb_board {
    uint16_t cand[SB_CELLS]; /* lanes 0..80: candidate mask of each cell */
    uint16_t zero[3];        /* lanes 81..83: always 0 */
    uint16_t assigned[6];    /* lanes 84..89: generic pipelines only, bit c%16 of word c/16 set
                                once cell c is assigned (digit removed from its peers); the
                                fast kernel, for which single-bit = assigned, leaves it 0 */
    uint16_t spare[5];       /* lanes 90..94: 0 */
    uint16_t nsolved;        /* lane 95: cells assigned so far */
} __attribute__((aligned(64))) sb_board;

_Static_assert(sizeof(sb_board) == 2 * SB_LANES, "a board is exactly SB_LANES lanes");

/* One 9x9 search's result with what bounds it: what sb_solve hands a kernel's entry (and the
 * generic pipelines'), which read the budget and stop flag and write the rest. */
typedef struct sb_search_run {
    sb_result res;                     /* the result */
    uint64_t max_guesses;              /* guesses allowed (UINT64_MAX: no budget) */
    const volatile sig_atomic_t *stop; /* stop flag polled between guesses, or NULL */
    int status;                        /* out: SB_OK, SB_ERR_BUDGET or SB_ERR_STOPPED */
    int drop_cell;                     /* the cell whose root candidates lose drop */
    uint16_t drop;                     /* digit mask the root's cell drop_cell starts without,
                                          read by the one-board depth-first entries (0: none;
                                          sb_solve_drop) */
} sb_search_run;

/* The AVX2 band kernel's paired search (kernel_pair.h): solutions of puzzles[0..n) counted up
 * to limit, two puzzles at a time, with 2 * SB_STACK_DEPTH boards at stacks; runs[i] gets
 * puzzle i's result and status (its max_guesses and stop set by the caller). */
typedef void (*sb_pair_fn)(sb_board *stacks, const sb_grid *puzzles, size_t n, uint64_t limit,
                           sb_search_run *runs);
void sb_kernel_pair_avx2(sb_board *stacks, const sb_grid *puzzles, size_t n, uint64_t limit,
                         sb_search_run *runs);

/* Guesses between two polls of the stop flag: a few milliseconds of search at most, and
 * one compare per guess on the hot path. */
#define SB_SEARCH_POLL 4096

/* Depth bound of the search stack: each level assigns at least one more cell. */
/* Grows a search stack of boards of `words` 64-bit words (the geometry solvers') to hold at
 * least need boards, at most max: doubling, so a deep search reallocates rarely.
 * @return 1, or 0 when out of memory (the stack is left as it was). */
static inline int sb_stack_reserve(uint64_t **stack, size_t *cap, size_t need, size_t max,
                                   size_t words)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap * 2 > need ? *cap * 2 : need;
    if (n > max)
        n = max;
    uint64_t *s = realloc(*stack, n * words * sizeof *s);
    if (!s)
        return 0;
    *stack = s;
    *cap = n;
    return 1;
}

#define SB_STACK_DEPTH (SB_CELLS + 1)

/* A kernel's depth-first entry: counts solutions of puzzle up to limit (0 = all) using stack
 * (SB_STACK_DEPTH boards) into run->res under run's budget and stop flag, and sets
 * run->status (SB_OK, SB_ERR_BUDGET or SB_ERR_STOPPED). Cell values are already checked to
 * be 0..9. */
typedef void sb_dfs_entry(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                          sb_search_run *run);
typedef sb_dfs_entry *sb_dfs_fn;

/* A kernel's breadth-first entry: as sb_dfs_fn over a frontier ring (*ring of *ring_len
 * boards, grown up to cap, owned by the caller). @return SB_OK, SB_ERR_FRONTIER,
 * SB_ERR_NOMEM, SB_ERR_BUDGET or SB_ERR_STOPPED (run->status is not set). */
typedef int sb_bfs_entry(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                         uint64_t limit, sb_search_run *run);
typedef sb_bfs_entry *sb_bfs_fn;

/* Each stamp's entries (kernel_<level>.c). */
sb_dfs_entry sb_kernel_dfs_scalar, sb_kernel_dfs_sse4, sb_kernel_dfs_avx2, sb_kernel_dfs_avx512,
    sb_kernel_dfs_avx512bw, sb_kernel_dfs_neon, sb_kernel_dfs_base;
sb_bfs_entry sb_kernel_bfs_scalar, sb_kernel_bfs_sse4, sb_kernel_bfs_avx2, sb_kernel_bfs_avx512,
    sb_kernel_bfs_avx512bw, sb_kernel_bfs_neon, sb_kernel_bfs_base;

/* The prefix of "fast+T[,T...]", and the generic order that runs the same rules where there is
 * no fused kernel (the kernel's propagation ns, hs, lc, then the techniques T): the fused
 * kernel's candidate solves (solver.c) and 9x9 enumeration (engine.c). */
#define SB_FAST_PLUS "fast+"
#define SB_FAST_GENERIC "restart:ns,hs,lc"

/* "fast+T[,T...]" (kernel_tech.h): the fused kernel with whole-board techniques run on its
 * own board when its propagation stalls. The techniques it runs natively (bit t: sb_technique
 * t): every technique but the singles and locked candidates, which the kernel's own
 * propagation does; those tokens after "fast+" are refused. */
#define SB_FAST_NATIVE                                                                         \
    (1u << SB_TECH_XWING | 1u << SB_TECH_SWORDFISH | 1u << SB_TECH_JELLYFISH |                 \
     1u << SB_TECH_SKYSCRAPER | 1u << SB_TECH_KITE | 1u << SB_TECH_XY_WING |                   \
     1u << SB_TECH_XYZ_WING | 1u << SB_TECH_W_WING | 1u << SB_TECH_COLOURING |               \
     1u << SB_TECH_XCHAIN | 1u << SB_TECH_NAKED_PAIR | 1u << SB_TECH_NAKED_TRIPLE |           \
     1u << SB_TECH_NAKED_QUAD | 1u << SB_TECH_HIDDEN_PAIR | 1u << SB_TECH_HIDDEN_TRIPLE |     \
     1u << SB_TECH_HIDDEN_QUAD)

/* What a "fast+" search runs and where it counts. check (tests only, else NULL) sees every
 * application: technique t, the planes w (kernel_tech.h's layout) and their eliminations el. */
typedef struct sb_tech_ext sb_tech_ext;

typedef struct sb_fast_tech {
    int nsteps;                   /* techniques in steps */
    uint8_t steps[SB_SPEC_MAX];   /* sb_technique of each, in spec order */
    sb_technique_counts *counts;  /* SB_TECH_SLOTS counters, or NULL */
    void (*check)(void *user, int t, const uint32_t *w, const uint32_t *el);
    void *user;                   /* check's argument */
    struct sb_tech_ext *ext;      /* the technique plug-ins' states (steps SB_TECH_COUNT + k),
                                     or NULL */
} sb_fast_tech;

/* A pipeline spec parsed once (sb_options_pipeline keeps one in sb_options.parsed): what
 * sb_solver_new, sb_engine_new and the generic pipelines make their plans from. The key
 * (pipeline, spec, techniques) says which options it was parsed for. */
typedef struct sb_spec_parsed {
    int valid;                     /* 1: filled by sb_spec_parse */
    int pipeline;                  /* key: sb_options.pipeline it was parsed for */
    const char *spec;              /* key: sb_options.spec (NULL for a registry name) */
    const struct sb_plugin *const *techniques; /* key: sb_options.techniques */
    size_t ntechniques;            /* key: sb_options.ntechniques */
    int fast;                      /* 1: "fast" or "fast+T" (the fused kernel) */
    int tech;                      /* 1: "fast+T" */
    int ft_nsteps;                 /* fast+T: its techniques */
    uint8_t ft_steps[SB_SPEC_MAX];
    int order;                     /* the generic plan: an sb_order (SB_FAST_GENERIC's for fast,
                                      with the techniques after it for fast+T) */
    int nsteps;
    uint8_t steps[SB_SPEC_MAX];
} sb_spec_parsed;

/* Parses spec text (a registry entry's spec, "fast", "fast+T..." or ORDER:T,...) with opt's
 * technique plug-ins into *out (key unset). @return SB_OK, or SB_ERR_PIPELINE with the
 * reason in why (len bytes; may be NULL). */
int sb_spec_parse(const sb_options *opt, const char *text, sb_spec_parsed *out, char *why,
                  size_t len);

/* @return opt's parsed spec when sb_options_pipeline made it for opt's pipeline, spec and
 * techniques as they are now, else NULL (the caller parses). */
const sb_spec_parsed *sb_options_parsed(const sb_options *opt);
_Static_assert(sizeof(sb_spec_parsed) <= sizeof(((sb_options *)0)->parsed),
               "a parsed spec fits sb_options.parsed");


/* Parses "fast+T[,T...]" into *out (counts and check NULL). @return SB_OK, or SB_ERR_PIPELINE
 * with the reason in why (len bytes; why may be NULL) for anything else. */
int sb_fast_parse(const sb_options *opt, const char *spec, sb_fast_tech *out, char *why,
                  size_t len);

/* A plug-in step of "fast+" on the kernel's planes w (kernel_tech.h's layout): converts them
 * to cells for plug-in k of x, and its eliminations back into el. @return as
 * sb_tech_ext_step. */
int sb_fast_plugin_step(struct sb_tech_ext *x, int k, const uint32_t *w, uint32_t *el);

/* The "fast+T" entries (kernel_<level>_tech.c): sb_dfs_fn and sb_bfs_fn with the techniques
 * to run. */
typedef void sb_tdfs_entry(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                           sb_search_run *run, const sb_fast_tech *t);
typedef sb_tdfs_entry *sb_tdfs_fn;
typedef int sb_tbfs_entry(sb_board **ring, size_t *ring_len, size_t cap, const sb_grid *puzzle,
                          uint64_t limit, sb_search_run *run, const sb_fast_tech *t);
typedef sb_tbfs_entry *sb_tbfs_fn;
sb_tdfs_entry sb_tkernel_dfs_scalar, sb_tkernel_dfs_sse4, sb_tkernel_dfs_avx2,
    sb_tkernel_dfs_avx512, sb_tkernel_dfs_avx512bw, sb_tkernel_dfs_neon, sb_tkernel_dfs_base;
sb_tbfs_entry sb_tkernel_bfs_scalar, sb_tkernel_bfs_sse4, sb_tkernel_bfs_avx2,
    sb_tkernel_bfs_avx512, sb_tkernel_bfs_avx512bw, sb_tkernel_bfs_neon, sb_tkernel_bfs_base;

/* A resolved generic pipeline: an order and the technique steps it walks. */
typedef struct sb_plan {
    sb_order order;             /* SB_ORDER_LIST, _ARRAY or _RESTART */
    int nsteps;                 /* techniques in steps */
    uint8_t steps[SB_SPEC_MAX]; /* sb_technique of each step, in spec order (SB_TECH_COUNT + k:
                                   technique plug-in k) */
    struct sb_tech_ext *ext;    /* the thread's technique plug-ins, when steps name one */
} sb_plan;

/* Parses "ORDER:T1,T2,..." into plan. @return SB_OK or SB_ERR_PIPELINE. */
int sb_plan_parse(const char *spec, sb_plan *plan);
/* sb_plan_parse with opt's technique plug-ins as tokens (steps SB_TECH_COUNT + k). */
int sb_plan_parse_opt(const sb_options *opt, const char *spec, sb_plan *plan);
/* Copies a parsed spec's generic plan into *plan (ext NULL). */
void sb_spec_plan(const sb_spec_parsed *p, sb_plan *plan);

/* Generic (portable) search for a plan, DFS and BFS, adding technique work into counts.
 * The search starts from the givens of puzzle, or when marks is not NULL from those 81
 * candidate masks (a cell with one candidate is a given; puzzle is then unused). */
void sb_generic_dfs(const sb_plan *plan, sb_technique_counts *counts, sb_board *stack,
                    const sb_grid *puzzle, const uint16_t *marks, uint64_t limit,
                    sb_search_run *run);
int sb_generic_bfs(const sb_plan *plan, sb_technique_counts *counts, sb_board **ring,
                   size_t *ring_len, size_t cap, const sb_grid *puzzle, const uint16_t *marks,
                   uint64_t limit, sb_search_run *run);

/* Writes into givens the cells of cand with one candidate (the rest blank).
 * @return 1 when cand keeps every candidate those givens imply (sb_grid_candidates): the
 * same puzzle as givens; 0 when cand eliminates more. */
int sb_candidates_givens(const uint16_t cand[SB_CELLS], sb_grid *givens);

/* Loads the givens (or the candidates marks, as sb_generic_dfs) and runs plan to its fixpoint
 * without guessing, adding work into counts.
 * @return 0 on contradiction, 1 when the board is complete, 2 when stuck (needs search). */
/* The restart spec of rating class cls (0 .. SB_CLASS_SEARCH-1): the one table sb_rate and
 * sb_grater both run. */
const char *sb_class_spec(int cls);

int sb_generic_root(const sb_plan *plan, sb_technique_counts *counts, const sb_grid *puzzle,
                    const uint16_t *marks, sb_board *b);

/* The peer tables themselves (sb_tables() returns this): kernels read them directly so the
 * hot loops need no call. */
extern const sb_peer_tables sb_peer_tables_data;

/* For each cell, its three houses as a 27-bit set: which houses an elimination touches. */
extern const uint32_t sb_cell_house_bits[SB_CELLS];

/* The AVX-512 lane tables below but sb_lane_map (plain lane numbers and lane sets) address
 * 16-bit lanes as byte pairs (word lane w is bytes 2w, 2w+1; a mask has each lane's bit
 * doubled), because the kernel moves words with VBMI byte permutes: one uop on Intel where a
 * word permute takes two or three. The avx512bw stamp (no VBMI) keeps its own copies in
 * word form (kernel.h, gen_tables ... w). */

/* The AVX-512 board's layout: register x (lanes 32x..32x+31) holds, in cell order, the 27
 * cells (r, c) with x neither r % 3 nor c % 3 and those with r % 3 == c % 3 == (x + 2) % 3;
 * lanes 27..31 of each register are padding, always 0. Position i of every house lies in
 * the two registers other than i % 3, so a round gathers it with one two-register permute
 * (gen_tables.c, lane_of). */
typedef struct sb_lane_map_t {
    uint8_t lane[SB_CELLS];        /* cell -> board lane (32 * register + lane) */
    uint8_t cell[SB_LANES];        /* board lane -> cell; 127 for padding */
    uint64_t peers[SB_CELLS][2];   /* a cell's peers as board lanes (word 1: lanes 64..95) */
    uint64_t house[SB_HOUSES][2];  /* a house's cells as board lanes */
} sb_lane_map_t;
extern const sb_lane_map_t sb_lane_map;

/* For each position i of a house, the lanes of its two registers (0..31 the first of
 * (i % 3 + 1) % 3 and (i % 3 + 2) % 3, 32..63 the second) holding cell i of every house:
 * lane h of the gathered vector = house h; lanes 27..31 read the first register's padding. */
extern const uint8_t sb_house_lanes[SB_DIGITS][64] __attribute__((aligned(64)));

/* The moves between cell order and the board's lanes, each a gather from three 32-lane
 * registers (a two-register permute, then the lanes of *_hi from the third): to_lane gives
 * each board lane its cell from cell-order registers (padding: cell 81, 0 there); to_cell
 * gives each cell (96, padding past 80) its board lane (padding: lane 27). */
typedef struct sb_lane_order_t {
    uint8_t to_lane[2 * SB_LANES] __attribute__((aligned(64)));
    uint8_t to_cell[2 * SB_LANES] __attribute__((aligned(64)));
    uint64_t to_lane_hi[3], to_cell_hi[3];
} sb_lane_order_t;
extern const sb_lane_order_t sb_lane_order;

/* For each board lane, the lane of its row (k = 0), column (1) and box (2) in the 27-lane
 * house vector that sb_house_lanes gathers; padding lanes read the always-zero lane 27. */
extern const uint8_t sb_cell_house_lanes[3][2 * SB_LANES] __attribute__((aligned(64)));

/* Lane tables of vector locked candidates (AVX-512 kernel). Segment vector A_k holds in lane
 * r the candidates of row r within stack k and in lane 9+c those of column c within band k;
 * lines 0..17 come in triples, one per band (rows) or stack (columns). */
typedef struct sb_locked_lanes_t {
    uint8_t rot[2][64] __attribute__((aligned(64))); /* rot[n][L]: the line n+1 places on
                                                        from L in its triple (L < 18) */
    uint8_t row[2 * SB_LANES] __attribute__((aligned(64))); /* board lane → its row
                                                               segment's lane, +32 for stack 1 */
    uint8_t col[2 * SB_LANES] __attribute__((aligned(64))); /* board lane → its column
                                                               segment's lane, +32 for band 1 */
    uint64_t row_hi[3]; /* per 32-lane register: lanes whose row segment is in stack 2 */
    uint64_t col_hi[3]; /* per 32-lane register: lanes whose column segment is in band 2 */
} sb_locked_lanes_t;
extern const sb_locked_lanes_t sb_locked_lanes;

/* Band-kernel peer masks: for each cell, its 20 peers as band words (word k: band k, bit
 * 9*i + j = row 3k+i, column j; word 3 is 0), one 16-byte vector per cell. */
extern const uint32_t sb_band_peers[SB_CELLS][4] __attribute__((aligned(16)));
/* Each cell's own bit as band words (word 3 is 0): the band kernel's cell masks, read where
 * dividing by 27 took a dozen instructions a guess. */
extern const uint32_t sb_band_cell[SB_CELLS][4] __attribute__((aligned(16)));
/* sb_band_peers without the cell's row ([0][c]) or its column ([1][c]): a line pair's reach
 * leaves its line out (line.h). */
extern const uint32_t sb_band_cross[2][SB_CELLS][4] __attribute__((aligned(16)));
/* The same masks by band position, 32 * band + bit (positions 27..31 of a band hold 0): the
 * entry of a cell found in a 64-bit word of band words (bands 0 and 1 in one) at bit p of
 * word h is 64 * h + p, with no division by 27. */
extern const uint32_t sb_band_peers_at[3 * 32][4] __attribute__((aligned(16)));
/* The band walk's masks, so that a single's peers leave its digit's word of a board held in
 * registers with one AND a word (kernel_band.h): the complement of position i's peers
 * (sb_band_peers_at) at entry 9 * i + 8 between runs of eight all-ones entries, so that the
 * nine 16-byte words a single at position i of digit index d (0..8) keeps are the nine
 * entries from 9 * i + 8 - d: its digit's word meets its peers, every other word all ones.
 * Read 32 bytes at a time (two digits a vector, the tenth digit an empty phantom), the
 * phantom's half reads the next position's entry, which leaves it empty. */
extern const uint32_t sb_band_walk_keep[3 * 32 * 9 + 8][4] __attribute__((aligned(64)));

/* Popcount of a 9-bit candidate mask, without relying on the POPCNT instruction. */
extern const uint8_t sb_popcount9[512];

/* The plug-in row's calls (plugin.c), each marking the thread as inside the plug-in for its
 * duration (sb_plugin_running). */
void sb_plugin_geometry_of(const sb_plugin *p, const sb_geometry *g, sb_plugin_geometry *out);
void *sb_plugin_state_new(const sb_plugin *p, const sb_plugin_geometry *g);
void sb_plugin_state_free(const sb_plugin *p, void *state);
/* Solves cells through state for limit under opt's budget and stop flag into res and first.
 * @return SB_OK, SB_ERR_STOPPED, SB_ERR_BUDGET, or SB_ERR_PLUGIN for a broken answer. */
int sb_plugin_solve(const sb_plugin *p, void *state, const uint8_t *cells, uint64_t limit,
                    const sb_options *opt, uint8_t *first, sb_gresult *res);

/* Technique plug-ins. A pipeline names up to SB_TECH_PLUGINS of them (sb_options.techniques,
 * in that order); step SB_TECH_COUNT + k of a plan or a fast+ spec is the k-th. Counters are
 * kept for SB_TECH_SLOTS techniques: the built-ins, then the plug-ins. */
enum { SB_TECH_SLOTS = SB_TECH_COUNT + SB_TECH_PLUGINS };

/* Adds the n counters src to dst (engines summing their solvers', bench its threads'). */
static inline void sb_counts_add(sb_technique_counts *dst, const sb_technique_counts *src, int n)
{
    for (int t = 0; t < n; t++) {
        dst[t].applications += src[t].applications;
        dst[t].placements += src[t].placements;
        dst[t].eliminations += src[t].eliminations;
        dst[t].calls += src[t].calls;
    }
}

/* One thread's technique plug-ins: their states and the step's arguments, and the check a
 * warm-up pass makes (truth: a solution of the puzzle being solved, or NULL). */
struct sb_tech_ext {
    int n;                                 /* plug-ins */
    const sb_plugin *p[SB_TECH_PLUGINS];   /* each */
    sb_plugin_geometry pg[SB_TECH_PLUGINS]; /* the grid as each sees it */
    void *state[SB_TECH_PLUGINS];          /* each one's state for this thread (or NULL) */
    size_t ncells;                         /* cells of the grid */
    uint64_t *cand, *elim;                 /* ncells masks each: a step's board and answer */
    const uint8_t *truth;                  /* a solution to hold eliminations to, or NULL */
    int fault;                             /* SB_OK, or SB_ERR_PLUGIN after a breach */
    char why[SB_PLUGIN_WHY];               /* the first breach, named */
};

/* Makes one thread's set of the n technique plug-ins techs for geometry g (NULL: 9x9); n 0
 * gives *out NULL. @return SB_OK; SB_ERR_ARG when one is not a technique plug-in or refuses
 * g; SB_ERR_NOMEM. */
int sb_tech_ext_new(const sb_plugin *const *techs, size_t n, const sb_geometry *g,
                    sb_tech_ext **out);
void sb_tech_ext_free(sb_tech_ext *x);

/* Runs plug-in k on x->cand, its eliminations into x->elim (masked to x->cand), holding it to
 * its contract (and to x->truth when set). @return the patterns found, or -1: a contradiction,
 * or a breach (x->fault then says so). */
int sb_tech_ext_step(sb_tech_ext *x, int k);

/* sb_gpipeline_new with opt's technique plug-ins (sb_options.techniques) as spec tokens. */
int sb_gpipeline_new_opt(const sb_geometry *g, const sb_options *opt, const char *name_or_spec,
                         sb_gpipeline **out);
/* Solve from candidate masks (cand: sb_geometry_cells masks, bit d-1 = digit d; a cell of one
 * candidate is placed, a cell of none is a contradiction): the grids whose every cell holds
 * one of its candidates, counted as sb_gsolve / sb_gpipeline_solve count from givens.
 * @return as those; SB_ERR_ARG for NULL arguments or a mask above digit N. */
int sb_gsolve_candidates(sb_gsolver *s, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                         uint8_t *first);
int sb_gpipeline_solve_candidates(sb_gpipeline *p, const uint64_t *cand, uint64_t limit,
                                  sb_gresult *res, uint8_t *first);
/* sb_gpipeline_new_opt from a parsed spec's generic plan (no parse). */
int sb_gpipeline_new_parsed(const sb_geometry *g, const sb_options *opt,
                            const sb_spec_parsed *pp, sb_gpipeline **out);
/* Copies the technique plug-ins' counters (one per plug-in, in sb_options.techniques order)
 * into out. @return how many (0: none). */
int sb_gpipeline_plugin_counts(const sb_gpipeline *p, sb_technique_counts out[SB_TECH_PLUGINS]);
/* The solver's technique plug-ins (NULL: none): bench's warm-up sets their truth and reads
 * their breach. */
sb_tech_ext *sb_gpipeline_ext(sb_gpipeline *p);
sb_tech_ext *sb_solver_ext(sb_solver *s);

/* sb_solver_new from a parsed spec (NULL: parse opt's here); out and opt not NULL. */
int sb_solver_new_parsed(sb_solver **out, const sb_options *opt, const sb_spec_parsed *pp);

/* Sets the limit, budget and stop flag of every later solve of s, as sb_options gave them at
 * sb_solver_new: each solve reads them afresh, so one solver serves an engine whose limit is
 * a per-call argument. NULL s: nothing. */
void sb_solver_limits(sb_solver *s, uint64_t limit, uint64_t max_guesses,
                      const volatile sig_atomic_t *stop);
sb_tech_ext *sb_engine_ext(sb_engine *e);
/* sb_engine_solve's count of cells's solutions up to limit, with cell `cell` barred from the
 * digits of mask drop (as sb_solve_drop on 9x9), res's count and guesses set (no first
 * solution). Rows: the 9x9 fused kernel (sb_solve_drop), box16's kernel (its root from
 * candidate masks) and the general per-cell engine (from candidates); SB_ERR_ARG on the
 * plug-in and pipeline rows, for a cell off the grid or a digit above N. */
int sb_engine_solve_drop(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop,
                         uint64_t limit, sb_gresult *res);

/* Counts up to limit the solutions of puzzle whose cell `cell` holds none of the digits in
 * mask drop, as sb_solve counts (s's kernel and budget; the guesses are of that search).
 * Where puzzle has one solution S, puzzle less the given at cell has another exactly when
 * this finds one with drop = S's digit there: one search of a smaller tree than counting
 * that puzzle to 2 (the generator's check, docs/performance.md). The root loses the digits
 * before it settles, so the search is the kernel's own and no copy is made.
 * @return as sb_solve; SB_ERR_ARG unless s runs the fused kernel depth-first ("fast",
 * DFS) or drop has bits above digit 9. */
int sb_solve_drop(sb_solver *s, const sb_grid *puzzle, int cell, uint16_t drop, uint64_t limit,
                  sb_result *res);
/* @return the puzzles e has handed to a paired kernel (sb_solver_paired of its 9x9 row; 0 on
 * the others or for NULL e). */
uint64_t sb_engine_paired(const sb_engine *e);

/* The public calls take sb_geometry_9x9() for the 9x9 grid and refuse NULL; inside the
 * library NULL still selects the 9x9 paths (the 9x9 reader, packed sets, the 9x9 rater and
 * generator). sb_geo_in maps a public argument to that convention, sb_geo_out maps back where
 * the library hands a geometry to a public call. */
static inline const sb_geometry *sb_geo_in(const sb_geometry *g)
{
    return g == sb_geometry_9x9() ? NULL : g;
}
static inline const sb_geometry *sb_geo_out(const sb_geometry *g)
{
    return g ? g : sb_geometry_9x9();
}

/* The candidate mask of all n digits of a geometry (1 <= n <= 64: one uint64_t), bit d-1 for
 * digit d; a shift by 64 would be undefined, hence the case. */
static inline uint64_t sb_all_digits(int n)
{
    return n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* The class of a proper 9x9 puzzle as far as singles decide it: SB_CLASS_SINGLES when naked
 * singles alone complete it, SB_CLASS_HIDDEN when naked and hidden singles do, else
 * SB_CLASS_LOCKED for "locked or harder": sb_rate's verdict cut at locked. Those fixpoints do
 * not depend on the order of placements, so one pass over a bit plane a digit gives the
 * rating engine's answer (sb_generate_class). Only for proper puzzles, as the generator's
 * are: it places whole rounds of singles at once and does not look for contradictions. */
int sb_singles_class(const sb_grid *puzzle);

#endif /* SB_INTERNAL_H */
