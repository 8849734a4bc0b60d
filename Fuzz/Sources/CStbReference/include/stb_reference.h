#ifndef STB_REFERENCE_H
#define STB_REFERENCE_H

// stb_image's Radiance HDR reader, the reader RadianceHDRDecoder follows, as the fuzz harness's
// reference: where both read a file they must read the same pixels.

/// Decodes .hdr bytes into interleaved RGB floats (3 per pixel, row-major) and sets *width and
/// *height, or returns NULL. Release the result with stb_reference_free.
float *stb_reference_load_hdr(const unsigned char *bytes, int length, int *width, int *height);

void stb_reference_free(float *pixels);

#endif
