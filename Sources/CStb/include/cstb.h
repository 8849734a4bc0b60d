#ifndef CSTB_H
#define CSTB_H

// The parts of stb_image and stb_image_write that CameraCodecs uses, under `cstb_` names so that no
// stb name reaches Swift. Every returned buffer is malloc'd and must be released with cstb_free.

#include <stddef.h>

/// Decodes Radiance RGBE (.hdr) bytes into interleaved linear RGB floats (3 per pixel, row-major).
/// Returns NULL on failure (cstb_failure_reason says why); sets *width and *height on success.
float *cstb_load_hdr_from_memory(const unsigned char *bytes, int length, int *width, int *height);

/// Encodes `width`×`height` pixels of `components` bytes each (3 = RGB, 4 = RGBA), rows
/// `bytes_per_row` apart, as PNG. Returns NULL on failure; sets *length on success.
unsigned char *cstb_write_png_to_memory(const unsigned char *pixels, int bytes_per_row,
                                        int width, int height, int components, int *length);

/// Encodes interleaved linear RGB floats (3 per pixel, row-major) as Radiance RGBE (.hdr).
/// Values must be finite and in 0…1e38. Returns NULL on failure; sets *length on success.
unsigned char *cstb_write_hdr_to_memory(const float *rgb, int width, int height, int *length);

/// Why the last cstb_load_… call on this thread failed (a short static string), or NULL.
const char *cstb_failure_reason(void);

/// Releases a buffer returned by a cstb_ function; NULL is allowed.
void cstb_free(void *buffer);

#endif
