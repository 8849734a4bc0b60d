#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

// alsa-lib (Debian libasound2-dev) for CameraAudio's capture. Functions import as they are; the
// variadic error handler Swift cannot write has a static inline shim.

#include <alsa/asoundlib.h>

static void calsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Stops alsa-lib printing its own messages to stderr: CameraAudio reports every failure in its errors.
static inline void calsa_silence_library_messages(void) { snd_lib_error_set_handler(calsa_ignore_error); }

#endif
