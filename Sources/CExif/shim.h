#ifndef CEXIF_SHIM_H
#define CEXIF_SHIM_H

// libexif (Debian libexif-dev) for CameraCodecs' EXIF writer.

#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-mem.h>
#include <libexif/exif-utils.h>

/// The entries of IFD `ifd` in `data`. ExifData keeps them in a C array, which Swift sees as a
/// tuple that cannot be indexed by an ExifIfd.
static inline ExifContent *cexif_content(ExifData *data, ExifIfd ifd) {
    return data->ifd[ifd];
}

#endif
