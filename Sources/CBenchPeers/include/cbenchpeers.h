#ifndef CBENCHPEERS_H
#define CBENCHPEERS_H

// Peers that `camerasun bench` measures beside CameraSun's own kernels, under `cbp_` names.

#include <stddef.h>
#include <stdint.h>

/// The sum of `count` bytes from `bytes`: the bare cost of reading the memory once, the floor any
/// frame analysis that touches every byte must pay. Uses AVX2 when the CPU has it, else SSE2 (x86-64),
/// or a plain loop on other architectures. `bytes` may be NULL when `count` is 0.
uint64_t cbp_memory_read_sum(const uint8_t *bytes, size_t count);

/// 1 when cbp_memory_read_sum uses the AVX2 path on this CPU, 0 otherwise.
int cbp_memory_read_uses_avx2(void);

#endif
