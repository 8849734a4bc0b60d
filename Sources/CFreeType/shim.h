#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H

// FreeType 2 (Debian libfreetype-dev) for CameraFilters' watermark. Functions and structs import as
// they are; the load flags, which are macros built from casts and shifts, have static inline shims.

#include <ft2build.h>
#include <freetype/freetype.h>

/// FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL: load a glyph and render it as 8-bit anti-aliased coverage.
static inline FT_Int32 cft_load_render_antialiased(void) { return FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL; }

#endif
