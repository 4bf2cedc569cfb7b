/*
 * vec.h — the thin portable vector layer of the band kernel (kernel_band.h): one type of
 * 32-bit lanes, 16 or 32 bytes wide, over GCC/clang vector extensions, so the same source
 * compiles to SSE4.1, AVX2, aarch64 NEON and x86-64's baseline SSE2 (kernel_base.c). Element-wise &, |, ^, ~, <<, >>, - and + are the
 * compilers' own; this header adds only what the extensions spell differently per compiler
 * (lane shuffles) or lack (an any-bit test, half swaps), and the hot loops' bit scans.
 *
 * The includer defines SBV_BYTES (16 or 32) before including. Lanes come in groups of four:
 * the band kernel keeps one digit's three bands in lanes 0..2 of a group and 0 in lane 3.
 */
#ifndef SB_KERNEL_VEC_H
#define SB_KERNEL_VEC_H

#include <stdint.h>
#include <string.h>

#if SBV_BYTES != 16 && SBV_BYTES != 32
#error "SBV_BYTES must be 16 or 32"
#endif

#define SBV_LANES (SBV_BYTES / 4)

/* The vector: SBV_LANES lanes of uint32_t; may alias the board's storage. */
typedef uint32_t sbv __attribute__((vector_size(SBV_BYTES), aligned(SBV_BYTES), may_alias));

/* A 16-byte vector of four 32-bit lanes whatever SBV_BYTES is: one digit's band words. */
typedef uint32_t sbv4 __attribute__((vector_size(16), aligned(16), may_alias));

#if defined(__SSE2__)
#include <immintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/* Bit scans and counts of the hot loops. At x86 with BMI, tzcnt as written: gcc zeroes its
 * output register first, for a false dependency only Haswell and Broadwell have (1-2% of the
 * avx2 stamp's instructions on hard puzzles). With POPCNT, popcnt overwriting its input: a
 * popcnt into another register depends on that register's last write on Sandy Bridge to
 * Cascade Lake, which gcc's zeroing breaks, and a count in place has no such dependency. */
#if defined(__x86_64__) && defined(__BMI__)
static inline uint32_t sbv_ctz(uint32_t x) /* x not 0 */
{
    uint32_t r;
    __asm__("tzcnt %1, %0" : "=r"(r) : "r"(x) : "cc");
    return r;
}
static inline uint64_t sbv_ctz64(uint64_t x) /* x not 0 */
{
    uint64_t r;
    __asm__("tzcnt %1, %0" : "=r"(r) : "r"(x) : "cc");
    return r;
}
#elif defined(__x86_64__)
/* Without BMI, tzcnt runs as bsf, whose output depends on its last write (all of Intel's
 * cores before Skylake): counted in place, that write is the input's own. */
static inline uint32_t sbv_ctz(uint32_t x) /* x not 0 */
{
    __asm__("tzcnt %0, %0" : "+r"(x) : : "cc");
    return x;
}
static inline uint64_t sbv_ctz64(uint64_t x) /* x not 0 */
{
    __asm__("tzcnt %0, %0" : "+r"(x) : : "cc");
    return x;
}
#else
static inline uint32_t sbv_ctz(uint32_t x)
{
    return (uint32_t)__builtin_ctz(x);
}
static inline uint64_t sbv_ctz64(uint64_t x)
{
    return (uint64_t)(uint32_t)__builtin_ctzll(x);
}
#endif
#if defined(__x86_64__) && defined(__POPCNT__)
static inline uint32_t sbv_popcount64(uint64_t x)
{
    __asm__("popcnt %0, %0" : "+r"(x) : : "cc");
    return (uint32_t)x;
}
#else
static inline uint32_t sbv_popcount64(uint64_t x)
{
    return (uint32_t)__builtin_popcountll(x);
}
#endif

/* A vector with every lane x. */
static inline sbv sbv_splat(uint32_t x)
{
    return (sbv){0} + x;
}

/* A constant of band words: x in lanes 0..2 of every group, 0 in lane 3 (the padding lane,
 * 0 in every board vector, so a mask loses nothing there). Not sbv_splat: gcc 12 builds a
 * 32-byte splat from a general register (a move, a vmovd and a vpbroadcastd, then a spill
 * where registers run short), where a constant with unequal lanes is one load from its
 * constant pool, most often folded into the instruction that uses it (callgrind at avx2:
 * -0.9..-1.8% instructions a puzzle). At 16 bytes both are a pool load. */
#define SBV4_BAND(x) ((sbv4){(x), (x), (x), 0})
#if SBV_BYTES == 32
#define SBV_BAND(x) ((sbv){(x), (x), (x), 0, (x), (x), (x), 0})
#else
#define SBV_BAND(x) SBV4_BAND(x)
#endif

/* Permutes the lanes of every group of four: lane i takes lane a, b, c, d of its group for
 * i = 0, 1, 2, 3. (GCC spells a constant shuffle __builtin_shuffle, clang
 * __builtin_shufflevector; both lower it to one pshufd / vpshufd / NEON permute.) */
#if SBV_BYTES == 16
#if defined(__clang__)
#define SBV_SHUF4(x, a, b, c, d) __builtin_shufflevector((x), (x), a, b, c, d)
#else
#define SBV_SHUF4(x, a, b, c, d) __builtin_shuffle((x), (sbv){a, b, c, d})
#endif
#else
#if defined(__clang__)
#define SBV_SHUF4(x, a, b, c, d) \
    __builtin_shufflevector((x), (x), a, b, c, d, (a) + 4, (b) + 4, (c) + 4, (d) + 4)
#else
#define SBV_SHUF4(x, a, b, c, d) \
    __builtin_shuffle((x), (sbv){a, b, c, d, (a) + 4, (b) + 4, (c) + 4, (d) + 4})
#endif
#endif

#if SBV_BYTES == 32
/* Swaps the two 16-byte halves (the two digits a 32-byte vector holds). */
static inline sbv sbv_swap_halves(sbv x)
{
#if defined(__clang__)
    return __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3);
#else
    return __builtin_shuffle(x, (sbv){4, 5, 6, 7, 0, 1, 2, 3});
#endif
}
#endif

#if SBV_BYTES == 32
/* The low and the high 16-byte half of x. */
static inline sbv4 sbv_lo(sbv x)
{
#if defined(__AVX2__)
    return (sbv4)_mm256_castsi256_si128((__m256i)x);
#else
    return (sbv4){x[0], x[1], x[2], x[3]};
#endif
}
static inline sbv4 sbv_hi(sbv x)
{
#if defined(__AVX2__)
    return (sbv4)_mm256_extracti128_si256((__m256i)x, 1);
#else
    return (sbv4){x[4], x[5], x[6], x[7]};
#endif
}

/* The 32-byte vector of halves lo and hi. */
static inline sbv sbv_join(sbv4 lo, sbv4 hi)
{
    return (sbv){lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]};
}

/* x in both halves (one broadcast, from memory when x is loaded). */
static inline sbv sbv_dup(sbv4 x)
{
#if defined(__AVX2__)
    return (sbv)_mm256_broadcastsi128_si256((__m128i)x);
#else
    return sbv_join(x, x);
#endif
}
#endif

/* x in every group of four lanes (one digit's band words in each). */
static inline sbv sbv_wide(sbv4 x)
{
#if SBV_BYTES == 16
    return x;
#else
    return sbv_dup(x);
#endif
}

/* The vector at p, which need only be aligned as its lanes are. */
static inline sbv sbv_loadu(const void *p)
{
    sbv x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* @return 1 if any bit of x is set, else 0. */
static inline int sbv4_any(sbv4 x)
{
#if defined(__SSE4_1__)
    return !_mm_testz_si128((__m128i)x, (__m128i)x);
#elif defined(__ARM_NEON)
    return vmaxvq_u32((uint32x4_t)x) != 0;
#elif defined(__SSE2__)
    /* x86-64's baseline (kernel_base.c): one byte compare and a mask move, not three lane
     * extracts. */
    return _mm_movemask_epi8(_mm_cmpeq_epi8((__m128i)x, _mm_setzero_si128())) != 0xFFFF;
#else
    return (x[0] | x[1] | x[2] | x[3]) != 0;
#endif
}

/* @return 1 if any bit of x is set, else 0. */
static inline int sbv_any(sbv x)
{
#if SBV_BYTES == 32 && defined(__AVX2__)
    return !_mm256_testz_si256((__m256i)x, (__m256i)x);
#elif SBV_BYTES == 16 && defined(__SSE4_1__)
    return !_mm_testz_si128((__m128i)x, (__m128i)x);
#elif SBV_BYTES == 16 && defined(__ARM_NEON)
    return vmaxvq_u32((uint32x4_t)x) != 0;
#elif SBV_BYTES == 16 && defined(__SSE2__)
    return sbv4_any(x);
#else
    uint32_t acc = 0;
    for (int i = 0; i < SBV_LANES; i++)
        acc |= x[i];
    return acc != 0;
#endif
}

/* Lanes a, b, c, d of the eight lanes of x then y (0..3 from x, 4..7 from y). */
#if defined(__clang__)
#define SBV4_SHUF2(x, y, a, b, c, d) __builtin_shufflevector((x), (y), a, b, c, d)
#else
#define SBV4_SHUF2(x, y, a, b, c, d) __builtin_shuffle((x), (y), (sbv4){a, b, c, d})
#endif

/* Lane-wise majority: the bits set in at least two of a, b, c. */
static inline sbv sbv_maj(sbv a, sbv b, sbv c)
{
    return (a & b) | (c & (a | b));
}

#endif /* SB_KERNEL_VEC_H */
