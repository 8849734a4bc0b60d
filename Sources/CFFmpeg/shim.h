#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

// FFmpeg's libraries (Debian libavcodec-dev, libavformat-dev, libavutil-dev, libswscale-dev,
// libswresample-dev) for CameraMovie. Functions and structs import as they are; the macros Swift
// cannot import (function-like AVERROR, av_err2str's compound literal) have
// static inline shims.

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// AVERROR(EAGAIN): the encoder wants more input before it gives a packet.
static inline int cff_error_again(void) { return AVERROR(EAGAIN); }

/// AVERROR_EOF: the encoder or demuxer has nothing more.
static inline int cff_error_eof(void) { return AVERROR_EOF; }

/// AV_NOPTS_VALUE: a timestamp the stream does not have.
static inline int64_t cff_no_pts(void) { return AV_NOPTS_VALUE; }

/// The text of an FFmpeg error code into `buffer` (av_err2str without its compound literal).
static inline const char *cff_error_text(int code, char *buffer, size_t size) {
    return av_make_error_string(buffer, size, code);
}

#endif
