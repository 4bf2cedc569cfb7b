"""Builds sudokubench._sb, the cffi extension over libsudokubench (run by `make python`).

Usage: python3 _build.py --lib BUILD/pic/libsudokubench_pic.a --include include --out DIR
(python/sudokubench_build.py, what `pip install ./python` runs, calls make_ffi the same way.)

API mode (the C compiler checks every declaration below against include/sudokubench.h, so
a changed struct cannot be misread) and the library's -fPIC archive linked in: the module
needs no installed library and no rpath. cffi releases the GIL around every call, so the
batch calls (OpenMP inside) let other Python threads run while they solve.
"""
import argparse
import os
import shutil

import cffi

CDEF = """
typedef struct { uint8_t cell[81]; } sb_grid;
typedef enum { SB_LINE_PUZZLE = 0, SB_LINE_SKIP = 1, SB_LINE_INVALID = 2 } sb_line_kind;
typedef struct {
    uint64_t line; sb_line_kind kind; int form; int marks; size_t col; char why[64];
    char text[82]; ...;
} sb_record;
typedef int... sig_atomic_t;
typedef struct sb_plugin sb_plugin;
typedef struct {
    uint64_t limit; int pipeline; const char *spec; int simd; uint64_t max_guesses;
    const volatile sig_atomic_t *stop; int pair; const sb_plugin *plugin;
    const sb_plugin *const *techniques; size_t ntechniques; ...;
} sb_options;
typedef struct {
    uint64_t seed; int minimal; int max_clues; int symmetry; uint64_t min_guesses;
    uint64_t max_guesses; uint64_t max_attempts; int simd; ...;
} sb_gen_options;
typedef struct sb_reader sb_reader;
typedef struct sb_geometry sb_geometry;
static const int SB_ERR_THREADS;

const char *sb_strerror(int status);
const char *sb_class_name(int cls);
int sb_simd_parse(const char *name);
int sb_symmetry_parse(const char *name);
void sb_options_default(sb_options *opt);
int sb_options_pipeline(sb_options *opt, const char *name_or_spec);
void sb_gen_options_default(sb_gen_options *opt);
sb_line_kind sb_parse_line(const char *line, size_t len, sb_grid *grid, char *why, size_t *col);
int sb_reader_open(sb_reader **out, const sb_geometry *g, FILE *in);
int sb_reader_next(sb_reader *r, sb_record *rec, uint8_t *cells, uint64_t *cand);
void sb_reader_close(sb_reader *r);
FILE *fdopen(int fd, const char *mode);
FILE *fmemopen(void *buf, size_t size, const char *mode);
int fclose(FILE *f);

int sb_solve_batch(const sb_options *opt, const uint8_t *cells, size_t n, int threads,
                   uint64_t *counts, uint64_t *guesses, uint8_t *solutions, int8_t *status);
int sb_rate_batch(const uint8_t *cells, size_t n, int threads, int8_t *classes);
int sb_generate_batch(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                      uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses);
int sb_augment_batch(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first, size_t n,
                     int threads, uint8_t *out);
int sb_rate_batch_stop(const uint8_t *cells, size_t n, int threads, int8_t *classes,
                       const volatile sig_atomic_t *stop);
int sb_generate_batch_stop(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                           uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                           const volatile sig_atomic_t *stop);
int sb_augment_batch_stop(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first,
                          size_t n, int threads, uint8_t *out,
                          const volatile sig_atomic_t *stop);
int sb_reader_read_cells(sb_reader *r, uint8_t *cells, size_t max, size_t *n, sb_record *bad);

typedef struct { int rows; int cols; int box_rows; int box_cols; } sb_geometry_layout;
typedef struct { const char *name; const char *description; } sb_technique_info;
static const int SB_GEO_WHY_LEN;
static const int SB_ERR_ARG;
static const int SB_ERR_IO;
static const int SB_ERR_PLUGIN;
static const int SB_ERR_BUDGET;
static const int SB_TECH_COUNT;
int sb_geometry_parse(const char *spec, sb_geometry **out, char *why, size_t whylen);
static const int SB_PLUGIN_WHY;
int sb_plugin_open(const char *path, sb_plugin **out, char *why, size_t cap);
void sb_plugin_close(sb_plugin *p);
const char *sb_plugin_name(const sb_plugin *p);
const char *sb_plugin_about(const sb_plugin *p);
int sb_plugin_one_thread(const sb_plugin *p);
int sb_plugin_is_technique(const sb_plugin *p);
int sb_plugin_accepts(const sb_plugin *p, const sb_geometry *g);
int sb_geometry_for_cells(int ncells, sb_geometry **out, char *why, size_t whylen);
int sb_geometry_read(FILE *in, const char *source, sb_geometry **out, char *why,
                     size_t whylen);
void sb_geometry_free(sb_geometry *g);
const sb_geometry *sb_geometry_9x9(void);
const char *sb_geometry_name(const sb_geometry *g);
int sb_geometry_kind_of(const sb_geometry *g);
int sb_geometry_cells(const sb_geometry *g);
int sb_geometry_digits(const sb_geometry *g);
int sb_geometry_houses(const sb_geometry *g);
const uint16_t *sb_geometry_house(const sb_geometry *g, int h);
const uint16_t *sb_geometry_peers(const sb_geometry *g, int c, int *count);
void sb_geometry_layout_of(const sb_geometry *g, sb_geometry_layout *out);
int sb_gsolution_check(const sb_geometry *g, const uint8_t *puzzle, const uint8_t *solution);
int sb_gformat(const sb_geometry *g, const uint8_t *cells, int form, char *out, size_t outlen);
int sb_geometry_detect(const char *text, size_t len, int more, sb_geometry **out,
                       uint64_t *line, char *why, size_t whylen);
const sb_technique_info *sb_techniques(size_t *count);
int sb_grate_batch(const sb_geometry *g, const uint8_t *cells, size_t n, int threads,
                   int8_t *classes, uint64_t *eliminations, const volatile sig_atomic_t *stop);
int sb_gsolve_batch(const sb_geometry *g, const sb_options *opt, const uint8_t *cells,
                    size_t n, int threads, uint64_t *counts, uint64_t *guesses,
                    uint8_t *solutions, int8_t *status);

int sb_threads_check(int threads, char *why, size_t whylen);
int omp_get_max_threads(void);
const char *sb_simd_name(int level);
const char *sb_pair_name(int policy);
typedef struct { uint64_t applications; uint64_t placements; uint64_t eliminations;
                 uint64_t calls; ...; } sb_technique_counts;
typedef struct sb_bench sb_bench;
typedef struct {
    uint64_t guesses; uint64_t no_guess; uint64_t verdicts[3]; uint64_t paired; size_t wrong;
    sb_technique_counts counts[...]; ...;
} sb_bench_warmup;
static const int SB_CELLS;
static const int SB_MIN_CLUES;
static const int SB_BENCH_MAX_SECONDS;
int sb_bench_new(const sb_geometry *g, sb_bench **out);
void sb_bench_free(sb_bench *b);
int sb_bench_add(sb_bench *b, const uint8_t *cells);
size_t sb_bench_size(const sb_bench *b);
int sb_bench_prepare(sb_bench *b, const sb_options *opt, int threads);
int sb_bench_simd(const sb_bench *b);
int sb_bench_warm(sb_bench *b, uint8_t *verdicts, sb_bench_warmup *out);
int sb_bench_time(sb_bench *b, double min_seconds, uint64_t *passes, double *seconds);
"""

# The generator and augmenter of any geometry, declared only when the header has them (they
# came into the library after the calls above): the package then says generate(grid=...)
# is not available instead of failing to build.
CDEF_GDATASET = """
typedef struct sb_ggenerator sb_ggenerator;
int sb_ggenerator_new(const sb_geometry *g, uint64_t seed, sb_ggenerator **out, char *why,
                      size_t whylen);
void sb_ggenerator_free(sb_ggenerator *gen);
int sb_ggenerate_batch(const sb_geometry *g, uint64_t seed, uint64_t first, size_t n,
                       int threads, uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                       const volatile sig_atomic_t *stop);
int sb_gaugment_batch(const sb_geometry *g, const uint8_t *in, size_t n_in, uint64_t seed,
                      uint64_t first, size_t n, int threads, uint8_t *out,
                      const volatile sig_atomic_t *stop);
"""


# The generator's options on any geometry (a symmetry of its own, a clue bound), declared
# when the header has them: generate(grid=..., symmetry=, max_clues=) needs them.
CDEF_GGEN_OPTS = """
typedef struct {
    uint64_t seed; int symmetry; int max_clues; uint64_t max_attempts; ...;
} sb_ggen_options;
void sb_ggen_options_default(sb_ggen_options *opt);
int sb_ggenerator_new_opts(const sb_geometry *g, const sb_ggen_options *opt,
                           sb_ggenerator **out, char *why, size_t whylen);
int sb_ggenerate_batch_opts(const sb_geometry *g, const sb_ggen_options *opt, uint64_t first,
                            size_t n, int threads, uint8_t *puzzles, uint8_t *solutions,
                            uint64_t *guesses, const volatile sig_atomic_t *stop);
"""


def cdef_for(header):
    """The declarations to give cffi for the header at path header."""
    with open(header, encoding="utf-8") as f:
        text = f.read()
    have = all(f"{name}(" in text for name in ("sb_ggenerate_batch", "sb_gaugment_batch",
                                                "sb_ggenerator_new"))
    opts = have and "sb_ggenerate_batch_opts(" in text
    return CDEF + (CDEF_GDATASET if have else "") + (CDEF_GGEN_OPTS if opts else "")


def make_ffi(lib, include, ldflags):
    """The cffi builder of sudokubench._sb: API mode over the header in directory include,
    the library's -fPIC archive lib linked in, ldflags (a list) added to the link."""
    ffi = cffi.FFI()
    ffi.cdef(cdef_for(os.path.join(include, "sudokubench.h")))
    ffi.set_source(
        "_sb",
        # omp.h: omp_get_max_threads, the team bench() runs when threads=0 (the other calls'
        # default, which the library picks itself)
        # SB_EXPERT: the expert tier too (the technique registry, sb_threads_check, the
        # benchmark sets, the generator on any geometry, ...)
        '#include <stdio.h>\n#include <omp.h>\n#define SB_EXPERT\n#include "sudokubench.h"\n',
        include_dirs=[os.path.abspath(include)],
        extra_objects=[os.path.abspath(lib)],
        extra_compile_args=["-O2"],
        extra_link_args=ldflags,
    )
    return ffi


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", required=True, help="the library's -fPIC static archive")
    ap.add_argument("--include", required=True, help="directory of sudokubench.h")
    ap.add_argument("--out", required=True, help="directory the module is copied to")
    ap.add_argument("--tmp", required=True, help="scratch directory for the C build")
    ap.add_argument("--ldflags", default="-fopenmp", help="extra link flags (OpenMP runtime)")
    args = ap.parse_args()
    ffi = make_ffi(args.lib, args.include, args.ldflags.split())
    built = ffi.compile(tmpdir=args.tmp, verbose=False)
    os.makedirs(args.out, exist_ok=True)
    shutil.copy2(built, os.path.join(args.out, os.path.basename(built)))


if __name__ == "__main__":
    main()
