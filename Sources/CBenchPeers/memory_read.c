// The memory-read peer: sums every byte with psadbw against zero (which adds 8 bytes into one 64-bit
// lane per instruction), four independent accumulators so that loads, not the add chain, set the pace.
// Loads go through the unaligned vector types (__m256i_u, alignment 1), as frames need not be
// aligned. Only the AVX2 function is compiled for AVX2, so the rest of the package stays baseline x86-64.

#include "cbenchpeers.h"

static uint64_t sum_tail(const uint8_t *bytes, size_t count) {
    uint64_t sum = 0;
    for (size_t i = 0; i < count; i++) sum += bytes[i];
    return sum;
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static uint64_t sum_avx2(const uint8_t *bytes, size_t count) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
    size_t i = 0;
    for (; i + 128 <= count; i += 128) {
        acc0 = _mm256_add_epi64(acc0, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i_u *)(bytes + i)), zero));
        acc1 = _mm256_add_epi64(acc1, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i_u *)(bytes + i + 32)), zero));
        acc2 = _mm256_add_epi64(acc2, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i_u *)(bytes + i + 64)), zero));
        acc3 = _mm256_add_epi64(acc3, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i_u *)(bytes + i + 96)), zero));
    }
    for (; i + 32 <= count; i += 32) {
        acc0 = _mm256_add_epi64(acc0, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i_u *)(bytes + i)), zero));
    }
    __m256i total = _mm256_add_epi64(_mm256_add_epi64(acc0, acc1), _mm256_add_epi64(acc2, acc3));
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
    uint64_t sum = (uint64_t)_mm_cvtsi128_si64(half) + (uint64_t)_mm_extract_epi64(half, 1);
    return sum + sum_tail(bytes + i, count - i);
}

static uint64_t sum_sse2(const uint8_t *bytes, size_t count) {
    const __m128i zero = _mm_setzero_si128();
    __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
    size_t i = 0;
    for (; i + 64 <= count; i += 64) {
        acc0 = _mm_add_epi64(acc0, _mm_sad_epu8(_mm_loadu_si128((const __m128i_u *)(bytes + i)), zero));
        acc1 = _mm_add_epi64(acc1, _mm_sad_epu8(_mm_loadu_si128((const __m128i_u *)(bytes + i + 16)), zero));
        acc2 = _mm_add_epi64(acc2, _mm_sad_epu8(_mm_loadu_si128((const __m128i_u *)(bytes + i + 32)), zero));
        acc3 = _mm_add_epi64(acc3, _mm_sad_epu8(_mm_loadu_si128((const __m128i_u *)(bytes + i + 48)), zero));
    }
    for (; i + 16 <= count; i += 16) {
        acc0 = _mm_add_epi64(acc0, _mm_sad_epu8(_mm_loadu_si128((const __m128i_u *)(bytes + i)), zero));
    }
    __m128i total = _mm_add_epi64(_mm_add_epi64(acc0, acc1), _mm_add_epi64(acc2, acc3));
    uint64_t sum = (uint64_t)_mm_cvtsi128_si64(total) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(total, total));
    return sum + sum_tail(bytes + i, count - i);
}

int cbp_memory_read_uses_avx2(void) {
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

uint64_t cbp_memory_read_sum(const uint8_t *bytes, size_t count) {
    if (count == 0) return 0;
    return cbp_memory_read_uses_avx2() ? sum_avx2(bytes, count) : sum_sse2(bytes, count);
}

#else

int cbp_memory_read_uses_avx2(void) {
    return 0;
}

uint64_t cbp_memory_read_sum(const uint8_t *bytes, size_t count) {
    if (count == 0) return 0;
    return sum_tail(bytes, count);
}

#endif
