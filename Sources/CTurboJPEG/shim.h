#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

// libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev) for CameraCodecs. Its functions, enums
// and integer flag macros import into Swift as they are, so no wrappers are needed.

#include <turbojpeg.h>

#endif
