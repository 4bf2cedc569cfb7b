// gbench.cc — Google Benchmark over the public C API (the project's only C++).
//
// Benchmarks are registered at run time, one per pipeline x corpus x SIMD level, by walking
// the registries (sb_pipelines(), the SIMD levels sb_simd_supported() reports), so a new
// pipeline or kernel level is benchmarked without touching this file. Names are
// solve/PIPELINE/DATASET/LEVEL. One iteration is one pass of the library's measurement
// (sb_bench_time, what `sudokubench bench` times) over a fixed slice of the corpus (its first
// N valid puzzles) on one thread, with limit 2 (uniqueness check, as `sudokubench bench`), so
// every iteration does the same work and items_per_second is puzzles/sec.
//
// Slices: the fused pipeline takes up to --fast-puzzles (default 10000) puzzles; the generic
// pipelines, 100 to 10,000 times slower per puzzle, take --generic-puzzles (default 64), so
// that `make gbench` runs in minutes on the standard corpora. The generic pipelines are
// portable C that runs the same instructions at every level, so they are registered at
// scalar only unless --all-levels is given.
//
// Before its first iteration a benchmark makes its set (sb_bench_new, its slice added, one
// solver prepared) and runs the library's checked warm-up pass (sb_bench_warm, shared by all
// its repetitions), taking the counters from it: guesses per puzzle, % solved without a
// guess, and for generic pipelines the eliminations per puzzle summed over the technique
// counters. A wrong answer skips the benchmark with an error.
//
// Usage: gbench [--benchmark_* flags] [--fast-puzzles=N] [--generic-puzzles=N]
//               [--all-levels] FILE...

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sudokubench.h"

namespace {

// A corpus: its short name and its valid puzzles in file order.
struct Corpus {
    std::string name;
    std::vector<sb_grid> puzzles;
};

// Frees a set (a unique_ptr deleter).
struct BenchFree {
    void operator()(sb_bench *b) const { sb_bench_free(b); }
};

// One registered benchmark: what it solves, its set and the figures of its checked warm-up.
struct Workload {
    int pipeline = 0;
    int simd = SB_SIMD_SCALAR;
    bool generic = false;
    const Corpus *corpus = nullptr;
    size_t n = 0;               // slice: the corpus's first n puzzles
    std::unique_ptr<sb_bench, BenchFree> set; // the slice and its prepared solver, once warmed
    std::string error;          // why the set or the checked pass failed, empty when it passed
    double guesses = 0;         // guesses per puzzle
    double no_guess_pct = 0;    // % of puzzles solved without a guess
    double eliminations = 0;    // technique eliminations per puzzle (generic pipelines)
};

// Returns the file's name without directories and a ".txt" suffix.
std::string short_name(const char *path)
{
    std::string s(path);
    const size_t slash = s.find_last_of('/');
    if (slash != std::string::npos)
        s.erase(0, slash + 1);
    if (s.size() > 4 && s.compare(s.size() - 4, 4, ".txt") == 0)
        s.erase(s.size() - 4);
    return s;
}

// Reads the valid puzzles of path into out; returns false (message on stderr) when the file
// cannot be read. Invalid lines are skipped: benchmarks measure puzzles, not the parser.
bool load_corpus(const char *path, Corpus &out)
{
    FILE *in = std::fopen(path, "r");
    if (!in) {
        std::fprintf(stderr, "gbench: %s: %s\n", path, std::strerror(errno));
        return false;
    }
    sb_reader *reader = nullptr;
    int rc = sb_reader_open(&reader, sb_geometry_9x9(), in);
    sb_record rec;
    sb_grid grid;
    if (rc == SB_OK)
        while ((rc = sb_reader_next(reader, &rec, grid.cell, nullptr)) == 1)
            if (rec.kind == SB_LINE_PUZZLE)
                out.puzzles.push_back(grid);
    sb_reader_close(reader);
    std::fclose(in);
    if (rc < 0) {
        std::fprintf(stderr, "gbench: %s: %s\n", path, sb_strerror(rc));
        return false;
    }
    out.name = short_name(path);
    return true;
}

// Makes the workload's set (its slice, one solver for its options) and runs the library's
// checked pass over it, recording its counters; sets w.error when that fails or an answer
// is wrong.
void warm_up(Workload &w)
{
    sb_bench *set = nullptr;
    int rc = sb_bench_new(sb_geometry_9x9(), &set);
    w.set.reset(set);
    for (size_t i = 0; rc == SB_OK && i < w.n; i++)
        rc = sb_bench_add(set, w.corpus->puzzles[i].cell);
    sb_options opt;
    sb_options_default(&opt);
    opt.pipeline = w.pipeline;
    opt.simd = w.simd;
    if (rc == SB_OK)
        rc = sb_bench_prepare(set, &opt, 1);
    std::vector<uint8_t> verdicts(w.n);
    sb_bench_warmup out;
    if (rc == SB_OK)
        rc = sb_bench_warm(set, verdicts.data(), &out);
    if (rc != SB_OK) {
        w.error = sb_strerror(rc);
        return;
    }
    if (out.wrong < w.n) {
        w.error = "puzzle " + std::to_string(out.wrong + 1) + ": wrong solution";
        return;
    }
    uint64_t eliminations = 0;
    for (const sb_technique_counts &c : out.counts)
        eliminations += c.eliminations;
    const double n = w.n ? (double)w.n : 1.0;
    w.guesses = (double)out.guesses / n;
    w.no_guess_pct = 100.0 * (double)out.no_guess / n;
    w.eliminations = (double)eliminations / n;
}

// The benchmark body: one iteration is one unchecked pass over the slice (sb_bench_time with
// no minimum time runs exactly one).
void run_solve(benchmark::State &state, Workload *w)
{
    if (!w->set && w->error.empty())
        warm_up(*w);
    if (!w->error.empty()) {
        state.SkipWithError(w->error.c_str());
        return;
    }
    for (auto _ : state) {
        uint64_t passes;
        double seconds;
        const int rc = sb_bench_time(w->set.get(), 0.0, &passes, &seconds);
        if (rc != SB_OK) {
            state.SkipWithError(sb_strerror(rc));
            break;
        }
    }
    const double items = (double)state.iterations() * (double)w->n;
    state.SetItemsProcessed((int64_t)items);
    state.counters["puzzles"] = (double)w->n;
    state.counters["guesses/puzzle"] = w->guesses;
    state.counters["%no_guess"] = w->no_guess_pct;
    state.counters["time/puzzle"] =
        benchmark::Counter(items, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    if (w->generic)
        state.counters["elims/puzzle"] = w->eliminations;
}

// Parses a "--name=N" option; returns true and sets *out when arg is that option.
bool size_option(const char *arg, const char *name, size_t *out)
{
    const size_t len = std::strlen(name);
    if (std::strncmp(arg, name, len) != 0 || arg[len] != '=')
        return false;
    char *end;
    const unsigned long long v = std::strtoull(arg + len + 1, &end, 10);
    if (*end || end == arg + len + 1 || v == 0) {
        std::fprintf(stderr, "gbench: %s needs a positive count\n", name);
        std::exit(2);
    }
    *out = (size_t)v;
    return true;
}

} // namespace

// Loads the corpora named on the command line, registers one benchmark per pipeline x
// corpus x level and runs the ones Google Benchmark's flags select; returns the exit code.
int main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv); // removes the --benchmark_* flags
    size_t fast_max = 10000, generic_max = 64;
    bool all_levels = false;
    // Corpora and workloads live until exit: registered benchmarks point into them.
    static std::vector<std::unique_ptr<Corpus>> corpora;
    static std::vector<std::unique_ptr<Workload>> workloads;
    for (int i = 1; i < argc; i++) {
        if (size_option(argv[i], "--fast-puzzles", &fast_max) ||
            size_option(argv[i], "--generic-puzzles", &generic_max))
            continue;
        if (!std::strcmp(argv[i], "--all-levels")) {
            all_levels = true;
            continue;
        }
        if (argv[i][0] == '-') {
            std::fprintf(stderr, "gbench: unknown option %s\n", argv[i]);
            return 2;
        }
        auto corpus = std::make_unique<Corpus>();
        if (!load_corpus(argv[i], *corpus))
            return 2;
        corpora.push_back(std::move(corpus));
    }
    if (corpora.empty()) {
        std::fprintf(stderr, "usage: gbench [--benchmark_* flags] [--fast-puzzles=N] "
                             "[--generic-puzzles=N] [--all-levels] FILE...\n");
        return 2;
    }

    std::string levels;
    for (int level = 0; level < SB_SIMD_LEVELS; level++)
        if (sb_simd_supported(level))
            levels += std::string(levels.empty() ? "" : ",") + sb_simd_name(level);
    benchmark::AddCustomContext("sudokubench", SB_VERSION);
    benchmark::AddCustomContext("simd_levels", levels);
    benchmark::AddCustomContext("slices", "fast: first " + std::to_string(fast_max) +
                                              ", generic: first " + std::to_string(generic_max));
    benchmark::AddCustomContext("limit", "2 (uniqueness check)");

    size_t count;
    const sb_pipeline_info *pipelines = sb_pipelines(&count);
    for (size_t p = 0; p < count; p++) {
        const bool generic = sb_pipeline_check(pipelines[p].spec) == SB_OK;
        for (const auto &corpus : corpora) {
            for (int level = 0; level < SB_SIMD_LEVELS; level++) {
                if (!sb_simd_supported(level) || (generic && !all_levels && level > 0))
                    continue;
                auto w = std::make_unique<Workload>();
                w->pipeline = (int)p;
                w->simd = level;
                w->generic = generic;
                w->corpus = corpus.get();
                w->n = std::min(corpus->puzzles.size(), generic ? generic_max : fast_max);
                const std::string name = std::string("solve/") + pipelines[p].name + "/" +
                                         corpus->name + "/" + sb_simd_name(level);
                benchmark::RegisterBenchmark(name.c_str(), run_solve, w.get());
                workloads.push_back(std::move(w));
            }
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
