// Compiles stb_image (Radiance HDR reading only) and stb_image_write (PNG and HDR to memory) from
// Debian's libstb-dev, and wraps them in the cstb_ functions declared in cstb.h.

#include "cstb.h"

#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS 32768
#include <stb/stb_image.h>

// Not STBI_WRITE_NO_STDIO: in this stb version it also compiles out the HDR writer.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

float *cstb_load_hdr_from_memory(const unsigned char *bytes, int length, int *width, int *height) {
    int components = 0;
    if (bytes == NULL || length <= 0 || width == NULL || height == NULL) return NULL;
    return stbi_loadf_from_memory(bytes, length, width, height, &components, 3);
}

unsigned char *cstb_write_png_to_memory(const unsigned char *pixels, int bytes_per_row,
                                        int width, int height, int components, int *length) {
    if (pixels == NULL || length == NULL || width <= 0 || height <= 0) return NULL;
    if (components != 3 && components != 4) return NULL;
    return stbi_write_png_to_mem(pixels, bytes_per_row, width, height, components, length);
}

/// A growing byte buffer that stbi_write_hdr_to_func appends to.
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} cstb_sink;

static void cstb_sink_append(void *context, void *data, int size) {
    cstb_sink *sink = (cstb_sink *)context;
    if (sink->failed || size <= 0) return;
    if (sink->length + (size_t)size > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < sink->length + (size_t)size) capacity *= 2;
        unsigned char *grown = realloc(sink->bytes, capacity);
        if (grown == NULL) {
            sink->failed = 1;
            return;
        }
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->length, data, (size_t)size);
    sink->length += (size_t)size;
}

unsigned char *cstb_write_hdr_to_memory(const float *rgb, int width, int height, int *length) {
    if (rgb == NULL || length == NULL || width <= 0 || height <= 0) return NULL;
    cstb_sink sink = {NULL, 0, 0, 0};
    int ok = stbi_write_hdr_to_func(cstb_sink_append, &sink, width, height, 3, rgb);
    if (!ok || sink.failed || sink.length > (size_t)0x7fffffff) {
        free(sink.bytes);
        return NULL;
    }
    *length = (int)sink.length;
    return sink.bytes;
}

const char *cstb_failure_reason(void) {
    return stbi_failure_reason();
}

void cstb_free(void *buffer) {
    free(buffer);
}
