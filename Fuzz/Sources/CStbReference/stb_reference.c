// Compiles a private copy of stb_image (Radiance HDR only, Debian's libstb-dev) with the limits
// CameraCodecs' copy uses; static, so its names cannot meet that copy's.

#include "stb_reference.h"

#include <stdlib.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS 32768
#include <stb/stb_image.h>

float *stb_reference_load_hdr(const unsigned char *bytes, int length, int *width, int *height) {
    int components = 0;
    if (bytes == NULL || length <= 0) return NULL;
    return stbi_loadf_from_memory(bytes, length, width, height, &components, 3);
}

void stb_reference_free(float *pixels) {
    free(pixels);
}
