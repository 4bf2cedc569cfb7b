/*
 * simd.c — SIMD level names, CPU detection (CPUID + XGETBV) and the resolution of
 * SB_SIMD_AUTO / $SUDOKUBENCH_SIMD. Nothing is cached: detection runs once per solver
 * context, which keeps the library free of mutable globals.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const char *const level_names[SB_SIMD_LEVELS] = {"scalar", "sse4",  "avx2",
                                                        "avx512", "neon", "avx512bw"};

/* The orders auto tries the levels in, best first (the numbering keeps old levels' values),
 * one row per CPU family where the best differs. AMD family 19h with AVX-512 (Zen 4) ran the
 * avx512bw stamp's word permutes 1.4% faster in the median (0-5%, four make compare runs)
 * than avx512's byte permutes, which Intel runs as one uop where a word permute takes two
 * or three (docs/performance.md). */
enum { AUTO_ANY, AUTO_AMD_19H, AUTO_ROWS };
static const int auto_order[AUTO_ROWS][SB_SIMD_LEVELS - 1] = {
    [AUTO_ANY] = {SB_SIMD_AVX512, SB_SIMD_AVX512BW, SB_SIMD_AVX2, SB_SIMD_SSE4, SB_SIMD_NEON},
    [AUTO_AMD_19H] = {SB_SIMD_AVX512BW, SB_SIMD_AVX512, SB_SIMD_AVX2, SB_SIMD_SSE4, SB_SIMD_NEON},
};

const char *sb_simd_name(int level)
{
    return level >= 0 && level < SB_SIMD_LEVELS ? level_names[level] : "?";
}

int sb_simd_parse(const char *name)
{
    if (!name)
        return SB_ERR_SIMD;
    if (!strcmp(name, "auto"))
        return SB_SIMD_AUTO;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (!strcmp(name, level_names[l]))
            return l;
    return SB_ERR_SIMD;
}

#if defined(__x86_64__) || defined(__i386__)
/* Reads extended control register 0: which register states the OS saves on a switch. */
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

int sb_simd_supported(int level)
{
    enum {
        XCR0_AVX = 0x6,      /* SSE + AVX state */
        XCR0_AVX512 = 0xE6,  /* + opmask, upper ZMM0-15, ZMM16-31 */
    };
    unsigned a, b, c, d;
    if (level == SB_SIMD_SCALAR)
        return 1;
    if (level <= SB_SIMD_SCALAR || level >= SB_SIMD_LEVELS || level == SB_SIMD_NEON)
        return 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1,
              popcnt = (c >> 23) & 1;
    if (level == SB_SIMD_SSE4)
        return sse41 && popcnt;
    if (!osxsave || !avx || !popcnt)
        return 0;
    const uint64_t xcr0 = read_xcr0();
    if ((xcr0 & XCR0_AVX) != XCR0_AVX)
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    const int avx2 = (b >> 5) & 1, bmi1 = (b >> 3) & 1, bmi2 = (b >> 8) & 1;
    const int avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    const int vpopcntdq = (c >> 14) & 1, vbmi = (c >> 1) & 1, bitalg = (c >> 12) & 1;
    unsigned a8, b8, c8, d8;
    const int lzcnt = __get_cpuid(0x80000001, &a8, &b8, &c8, &d8) && ((c8 >> 5) & 1);
    const int has_avx2 = avx2 && bmi1 && bmi2 && lzcnt;
    if (level == SB_SIMD_AVX2)
        return has_avx2;
    const int has_bw = has_avx2 && avx512f && avx512bw && avx512vl &&
                       (xcr0 & XCR0_AVX512) == XCR0_AVX512;
    if (level == SB_SIMD_AVX512BW)
        return has_bw;
    /* BITALG's 16-bit popcount counts the root's triad digits in the round (kernel.h); every
     * CPU with VBMI and VPOPCNTDQ has it (Ice Lake and later, Zen 4 and later). */
    return has_bw && vpopcntdq && vbmi && bitalg;
}

/* auto's row for this CPU: AUTO_AMD_19H for AMD family 19h (CPUID's vendor string and its
 * family, base plus extended), else AUTO_ANY. */
static int auto_row(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return AUTO_ANY;
    /* "AuthenticAMD" in EBX, EDX, ECX */
    if (b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u || !__get_cpuid(1, &a, &b, &c, &d))
        return AUTO_ANY;
    const unsigned base = (a >> 8) & 0xF, family = base == 0xF ? base + ((a >> 20) & 0xFF) : base;
    return family == 0x19 ? AUTO_AMD_19H : AUTO_ANY;
}
#elif defined(__aarch64__)
/* Advanced SIMD (NEON) is mandatory in AArch64. */
int sb_simd_supported(int level)
{
    return level == SB_SIMD_SCALAR || level == SB_SIMD_NEON;
}
#else
int sb_simd_supported(int level)
{
    return level == SB_SIMD_SCALAR;
}
#endif
#if !defined(__x86_64__) && !defined(__i386__)
/* Beyond x86-64 no CPU family changes the order. */
static int auto_row(void)
{
    return AUTO_ANY;
}
#endif

int sb_simd_resolve(int level)
{
    if (level == SB_SIMD_AUTO) {
        const char *env = getenv("SUDOKUBENCH_SIMD");
        if (env && *env) {
            level = sb_simd_parse(env);
            if (level == SB_ERR_SIMD)
                return SB_ERR_SIMD;
        }
    }
    if (level == SB_SIMD_AUTO) {
        const int *order = auto_order[auto_row()];
        for (int i = 0; i < SB_SIMD_LEVELS - 1; i++)
            if (sb_simd_supported(order[i]))
                return order[i];
        return SB_SIMD_SCALAR;
    }
    return sb_simd_supported(level) ? level : SB_ERR_SIMD;
}
