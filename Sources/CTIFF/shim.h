#ifndef CTIFF_SHIM_H
#define CTIFF_SHIM_H

// libtiff (Debian libtiff-dev) for CameraCodecs' DNG writer. TIFFSetField is variadic, which Swift
// cannot call, so each way of passing a tag's value has a typed wrapper below. Which one a tag takes
// follows libtiff's field table (tif_dirinfo.c): one value; a fixed-length array (pointer only); or a
// variable-length array, passed as a count and a pointer.

#include <tiffio.h>

/// DNG 1.2's PreviewColorSpace (0xC71A), which libtiff 4.5's field table does not know.
#define CTIFF_TAG_PREVIEWCOLORSPACE 50970

/// A single SHORT (libtiff reads it from the variadic arguments as an int).
static inline int ctiff_set_uint16(TIFF *tif, uint32_t tag, uint16_t value) {
    return TIFFSetField(tif, tag, (int)value);
}

/// A single LONG.
static inline int ctiff_set_uint32(TIFF *tif, uint32_t tag, uint32_t value) {
    return TIFFSetField(tif, tag, value);
}

/// A single IFD offset (libtiff keeps IFD offsets as 64-bit values, TIFFTAG_EXIFIFD).
static inline int ctiff_set_uint64(TIFF *tif, uint32_t tag, uint64_t value) {
    return TIFFSetField(tif, tag, value);
}

/// A single RATIONAL or SRATIONAL (libtiff reads a double and stores a float).
static inline int ctiff_set_double(TIFF *tif, uint32_t tag, double value) {
    return TIFFSetField(tif, tag, value);
}

/// An ASCII string, NUL-terminated.
static inline int ctiff_set_string(TIFF *tif, uint32_t tag, const char *value) {
    return TIFFSetField(tif, tag, value);
}

/// A fixed-length array of BYTEs or UNDEFINED bytes (DNGVersion: 4), pointer only.
static inline int ctiff_set_fixed_bytes(TIFF *tif, uint32_t tag, const uint8_t *values) {
    return TIFFSetField(tif, tag, values);
}

/// A fixed-length array of SHORTs (CFARepeatPatternDim: 2), pointer only.
static inline int ctiff_set_fixed_uint16s(TIFF *tif, uint32_t tag, const uint16_t *values) {
    return TIFFSetField(tif, tag, values);
}

/// A variable-length array of BYTEs (CFAPattern, CFAPlaneColor): count, then values.
static inline int ctiff_set_uint8s(TIFF *tif, uint32_t tag, uint16_t count, const uint8_t *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}

/// A variable-length array of SHORTs (ISOSpeedRatings).
static inline int ctiff_set_uint16s(TIFF *tif, uint32_t tag, uint16_t count, const uint16_t *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}

/// A variable-length array of LONGs (WhiteLevel).
static inline int ctiff_set_uint32s(TIFF *tif, uint32_t tag, uint16_t count, const uint32_t *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}

/// A variable-length array of RATIONALs or SRATIONALs (BlackLevel, ColorMatrix1, AsShotNeutral),
/// which libtiff takes as floats.
static inline int ctiff_set_floats(TIFF *tif, uint32_t tag, uint16_t count, const float *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}

/// A variable-length array of IFD offsets (SubIFDs), placeholders libtiff fills in as it writes
/// the sub-directories that follow.
static inline int ctiff_set_uint64s(TIFF *tif, uint32_t tag, uint16_t count, const uint64_t *values) {
    return TIFFSetField(tif, tag, (int)count, values);
}

/// Teaches `tif` the tags libtiff 4.5 does not know (PreviewColorSpace). libtiff forgets them with
/// each new directory, so call this in the directory that uses them.
static inline int ctiff_register_dng_tags(TIFF *tif) {
    static const TIFFFieldInfo fields[] = {
        {CTIFF_TAG_PREVIEWCOLORSPACE, 1, 1, TIFF_LONG, FIELD_CUSTOM, 1, 0, (char *)"PreviewColorSpace"},
    };
    return TIFFMergeFieldInfo(tif, fields, sizeof fields / sizeof fields[0]);
}

#endif
