/*
 * requests.c — the V4L2 requests on a node of the fake camera, answered as the V4L2 core, the
 * control framework and videobuf2 answer them, and what poll reports for a node.
 */

#include "fake_v4l2.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* A control set while streaming reaches the frame after the one being exposed. */
static const uint32_t CONTROL_LATENCY_FRAMES = 1;

/* The format the camera delivers frames of `code` in. */
static void describe_format(struct v4l2_pix_format *pix, uint32_t code) {
    memset(pix, 0, sizeof *pix);
    pix->width = WIDTH;
    pix->height = HEIGHT;
    pix->pixelformat = code;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = code == V4L2_PIX_FMT_MJPEG ? 0 : WIDTH * 2;
    pix->sizeimage = (uint32_t)frame_buffer_size(code);
    pix->colorspace = code == V4L2_PIX_FMT_MJPEG ? V4L2_COLORSPACE_JPEG : code == V4L2_PIX_FMT_SRGGB10 ? V4L2_COLORSPACE_RAW
                                                                                                  : V4L2_COLORSPACE_SRGB;
}

/* G_FMT, TRY_FMT and S_FMT: the size is always 640x480; a format not offered becomes the first. */
static int format_request(int fd, unsigned long request, struct v4l2_format *format) {
    if (format->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
    if (request == VIDIOC_G_FMT) {
        describe_format(&format->fmt.pix, camera.pixel_format);
        return 0;
    }
    uint32_t code = offers(format->fmt.pix.pixelformat) ? format->fmt.pix.pixelformat : camera.formats[0];
    if (request == VIDIOC_S_FMT) {
        if (camera.buffer_count > 0 && (camera.owner != fd || code != camera.pixel_format)) return fail(EBUSY);
        camera.pixel_format = code;
    }
    describe_format(&format->fmt.pix, code);
    return 0;
}

/* G_PARM and S_PARM: 30 fps, or 15 fps for a rate asked below 22.5. */
static int parameter_request(unsigned long request, struct v4l2_streamparm *parameters) {
    if (parameters->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
    struct v4l2_fract asked = parameters->parm.capture.timeperframe;
    if (request == VIDIOC_S_PARM && asked.numerator != 0 && asked.denominator != 0) {
        camera.interval_numerator = 1;
        camera.interval_denominator = (double)asked.denominator / asked.numerator < 22.5 ? 15 : 30;
    }
    memset(&parameters->parm, 0, sizeof parameters->parm);
    parameters->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
    parameters->parm.capture.timeperframe.numerator = camera.interval_numerator;
    parameters->parm.capture.timeperframe.denominator = camera.interval_denominator;
    return 0;
}

/* REQBUFS: between MIN_BUFFERS and MAX_BUFFERS mmap buffers in a memfd; 0 frees them. */
static int request_buffers(int fd, struct v4l2_requestbuffers *request) {
    if (request->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || request->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
    if (camera.buffer_count > 0 && camera.owner != fd) return fail(EBUSY);
    if (camera.streaming || live_mappings() > 0) return fail(EBUSY);
    free_buffers();
    memset(request->reserved, 0, sizeof request->reserved);
    request->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
    if (request->count == 0) return 0;
    unsigned count = request->count < MIN_BUFFERS ? MIN_BUFFERS : request->count > MAX_BUFFERS ? MAX_BUFFERS : request->count;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    camera.buffer_size = frame_buffer_size(camera.pixel_format);
    camera.buffer_stride = (camera.buffer_size + page - 1) / page * page;
    camera.buffer_memory = memfd_create("fake-v4l2-buffers", MFD_CLOEXEC);
    if (camera.buffer_memory < 0 || ftruncate(camera.buffer_memory, (off_t)(camera.buffer_stride * count)) != 0) {
        free_buffers();
        return fail(ENOMEM);
    }
    void *bytes = real_mmap(NULL, camera.buffer_stride * count, PROT_READ | PROT_WRITE, MAP_SHARED, camera.buffer_memory, 0);
    if (bytes == MAP_FAILED) {
        free_buffers();
        return fail(ENOMEM);
    }
    camera.buffer_bytes = bytes;
    camera.buffer_count = count;
    camera.owner = fd;
    memset(camera.buffers, 0, sizeof camera.buffers);
    request->count = count;
    return 0;
}

/* What QUERYBUF, QBUF and DQBUF say of buffer `index`. */
static void describe_buffer(unsigned index, struct v4l2_buffer *buffer) {
    const struct buffer *state = &camera.buffers[index];
    memset(buffer, 0, sizeof *buffer);
    buffer->index = index;
    buffer->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer->memory = V4L2_MEMORY_MMAP;
    buffer->m.offset = (uint32_t)(index * camera.buffer_stride);
    buffer->length = (uint32_t)camera.buffer_size;
    buffer->field = V4L2_FIELD_NONE;
    buffer->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF | (state->queued ? V4L2_BUF_FLAG_QUEUED : 0)
        | (state->done ? V4L2_BUF_FLAG_DONE : 0);
    buffer->bytesused = state->done ? state->bytes_used : 0;
    buffer->sequence = state->sequence;
    buffer->timestamp.tv_sec = (time_t)(state->timestamp_ns / 1000000000u);
    buffer->timestamp.tv_usec = (suseconds_t)(state->timestamp_ns % 1000000000u / 1000);
}

/* QUERYBUF, QBUF and DQBUF (which, on a blocking node, waits for a frame). */
static int buffer_request(int fd, unsigned long request, struct v4l2_buffer *buffer) {
    if (buffer->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || buffer->memory != V4L2_MEMORY_MMAP) return fail(EINVAL);
    if (request == VIDIOC_DQBUF) {
        if (camera.owner != fd) return fail(EBUSY);
        if (!camera.streaming) return fail(EINVAL);
        while (camera.done_length == 0) {
            if (!node_blocking[fd]) return fail(EAGAIN);
            pthread_mutex_unlock(&camera.lock);
            struct timespec pause = {0, (long)next_change_ms() * 1000000};
            nanosleep(&pause, NULL);
            pthread_mutex_lock(&camera.lock);
            check_plug();
            if (!is_alive(fd)) return fail(ENODEV);
            if (!camera.streaming) return fail(EINVAL);
            advance();
        }
        unsigned index = camera.done[0];
        memmove(camera.done, camera.done + 1, --camera.done_length * sizeof camera.done[0]);
        describe_buffer(index, buffer);
        camera.buffers[index].done = 0;
        buffer->flags &= ~(uint32_t)V4L2_BUF_FLAG_DONE;
        return 0;
    }
    if (buffer->index >= camera.buffer_count) return fail(EINVAL);
    if (request == VIDIOC_QBUF) {
        if (camera.owner != fd) return fail(EBUSY);
        struct buffer *state = &camera.buffers[buffer->index];
        if (state->queued || state->done) return fail(EINVAL);
        state->queued = 1;
        camera.queue[camera.queue_length++] = buffer->index;
    }
    describe_buffer(buffer->index, buffer);
    return 0;
}

/* STREAMON (frames from one interval on, numbered from 0) and STREAMOFF. */
static int stream_request(int fd, unsigned long request, const int *type) {
    if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) return fail(EINVAL);
    if (camera.buffer_count > 0 && camera.owner != fd) return fail(EBUSY);
    if (request == VIDIOC_STREAMON) {
        if (camera.buffer_count == 0) return fail(EINVAL);
        if (camera.streaming) return 0;
        camera.streaming = 1;
        camera.sequence = 0;
        camera.next_frame_ns = now_ns() + frame_interval_ns();
        log_line("STREAMON");
        return 0;
    }
    /* STREAMOFF: every buffer leaves the queues. */
    if (camera.streaming) log_line("STREAMOFF");
    camera.streaming = 0;
    camera.queue_length = camera.done_length = 0;
    for (unsigned index = 0; index < camera.buffer_count; index++) camera.buffers[index].queued = camera.buffers[index].done = 0;
    return 0;
}

/* QUERYCTRL, with V4L2_CTRL_FLAG_NEXT_CTRL to walk the controls. */
static int query_control(struct v4l2_queryctrl *query) {
    const struct control *control = NULL;
    if (query->id & V4L2_CTRL_FLAG_NEXT_CTRL) {
        uint32_t after = query->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
        for (unsigned index = 0; index < CONTROL_COUNT && !control; index++)
            if (controls[index].id > after) control = &controls[index];
    } else {
        control = control_with_id(query->id);
    }
    if (!control) return fail(EINVAL);
    memset(query, 0, sizeof *query);
    query->id = control->id;
    query->type = control->type;
    snprintf((char *)query->name, sizeof query->name, "%s", control->name);
    query->minimum = control->minimum;
    query->maximum = control->maximum;
    query->step = control->step;
    query->default_value = control->default_value;
    if (control->id == V4L2_CID_EXPOSURE_ABSOLUTE && control_value(control_with_id(V4L2_CID_EXPOSURE_AUTO)) != V4L2_EXPOSURE_MANUAL)
        query->flags = V4L2_CTRL_FLAG_INACTIVE;
    return 0;
}

/* QUERYMENU: the entries a menu lists; EINVAL for one it skips. */
static int query_menu(struct v4l2_querymenu *query) {
    const struct control *control = control_with_id(query->id);
    if (!control || control->type != V4L2_CTRL_TYPE_MENU || query->index > (uint32_t)control->maximum
        || !(control->menu & (1u << query->index)))
        return fail(EINVAL);
    memset(query->name, 0, sizeof query->name);
    snprintf((char *)query->name, sizeof query->name, "%s", control->menu_names[query->index]);
    query->reserved = 0;
    return 0;
}

/* S_CTRL as the control framework checks it: an integer is clamped onto the range's steps, a
 * menu value outside the range is ERANGE and a missing entry EINVAL; exposure time is refused
 * (EACCES) unless exposure is manual, as many UVC cameras refuse it. */
static int set_control(struct v4l2_control *request) {
    struct control *control = control_with_id(request->id);
    if (!control) return fail(EINVAL);
    int32_t value = request->value;
    int code = 0;
    if (control->type == V4L2_CTRL_TYPE_MENU) {
        if (value < control->minimum || value > control->maximum) code = ERANGE;
        else if (!(control->menu & (1u << value))) code = EINVAL;
    } else {
        if (value < control->minimum) value = control->minimum;
        if (value > control->maximum) value = control->maximum;
        value = control->minimum + (value - control->minimum) / control->step * control->step;
        if (control->id == V4L2_CID_EXPOSURE_ABSOLUTE
            && control_value(control_with_id(V4L2_CID_EXPOSURE_AUTO)) != V4L2_EXPOSURE_MANUAL)
            code = EACCES;
    }
    if (code) {
        log_line("S_CTRL %s %d refused %s", control->name, request->value, code == EACCES ? "EACCES" : code == ERANGE ? "ERANGE" : "EINVAL");
        return fail(code);
    }
    request->value = value;
    if (!camera.streaming) {
        control->value = value;
        control->pending_count = 0;
    } else {
        /* Set again before the oldest landed (more than MAX_PENDING times a frame): it lands now. */
        if (control->pending_count == MAX_PENDING) {
            control->value = control->pending[0].value;
            memmove(control->pending, control->pending + 1, --control->pending_count * sizeof control->pending[0]);
        }
        control->pending[control->pending_count].value = value;
        control->pending[control->pending_count++].from = camera.sequence + CONTROL_LATENCY_FRAMES;
    }
    log_line("S_CTRL %s %d", control->name, value);
    return 0;
}

/* ENUM_FMT: the formats offered, in order. */
static int enumerate_format(struct v4l2_fmtdesc *description) {
    if (description->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || description->index >= camera.format_count) return fail(EINVAL);
    uint32_t code = camera.formats[description->index];
    memset(description->description, 0, sizeof description->description);
    snprintf((char *)description->description, sizeof description->description, "%s",
             code == V4L2_PIX_FMT_MJPEG ? "Motion-JPEG" : code == V4L2_PIX_FMT_SRGGB10 ? "10-bit Bayer RGRG/GBGB" : "YUYV 4:2:2");
    description->flags = code == V4L2_PIX_FMT_MJPEG ? V4L2_FMT_FLAG_COMPRESSED : 0;
    description->pixelformat = code;
    description->mbus_code = 0;
    return 0;
}

/* ENUM_FRAMESIZES: 640x480 alone, for each format. */
static int enumerate_size(struct v4l2_frmsizeenum *size) {
    if (!offers(size->pixel_format) || size->index != 0) return fail(EINVAL);
    size->type = V4L2_FRMSIZE_TYPE_DISCRETE;
    size->discrete.width = WIDTH;
    size->discrete.height = HEIGHT;
    return 0;
}

/* ENUM_FRAMEINTERVALS: 1/30 s, then 1/15 s. */
static int enumerate_interval(struct v4l2_frmivalenum *interval) {
    if (!offers(interval->pixel_format) || interval->width != WIDTH || interval->height != HEIGHT || interval->index > 1)
        return fail(EINVAL);
    interval->type = V4L2_FRMIVAL_TYPE_DISCRETE;
    interval->discrete.numerator = 1;
    interval->discrete.denominator = interval->index == 0 ? 30 : 15;
    return 0;
}

/* One request on node `fd`, under the camera's lock: ENODEV on a node of an unplugged camera, and
 * ENOTTY for a request it does not know, as the kernel answers. */
int node_request(int fd, unsigned long request, void *argument) {
    if (!is_alive(fd)) return fail(ENODEV);
    advance();
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *capability = argument;
        memset(capability, 0, sizeof *capability);
        snprintf((char *)capability->driver, sizeof capability->driver, "fake_v4l2");
        snprintf((char *)capability->card, sizeof capability->card, "Fake V4L2 Camera");
        snprintf((char *)capability->bus_info, sizeof capability->bus_info, "platform:fake_v4l2");
        capability->version = (6u << 16) | (1u << 8);
        capability->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        capability->capabilities = capability->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: return enumerate_format(argument);
    case VIDIOC_ENUM_FRAMESIZES: return enumerate_size(argument);
    case VIDIOC_ENUM_FRAMEINTERVALS: return enumerate_interval(argument);
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT: return format_request(fd, request, argument);
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: return parameter_request(request, argument);
    case VIDIOC_REQBUFS: return request_buffers(fd, argument);
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF: return buffer_request(fd, request, argument);
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF: return stream_request(fd, request, argument);
    case VIDIOC_QUERYCTRL: return query_control(argument);
    case VIDIOC_QUERYMENU: return query_menu(argument);
    case VIDIOC_G_CTRL: {
        struct v4l2_control *control = argument;
        const struct control *found = control_with_id(control->id);
        if (!found) return fail(EINVAL);
        control->value = control_value(found);
        return 0;
    }
    case VIDIOC_S_CTRL: return set_control(argument);
    default: return fail(ENOTTY);
    }
}

/* What poll reports for node `fd`, as the V4L2 core and vb2_core_poll do: POLLERR | POLLHUP
 * for a node of an unplugged camera, POLLERR when not streaming, POLLIN when a buffer is done. */
short node_events(int fd, short requested) {
    if (!is_alive(fd)) return (short)(POLLERR | POLLHUP | (requested & POLLPRI));
    if (!camera.streaming || camera.owner != fd) return POLLERR;
    if (camera.done_length > 0) return (short)(requested & (POLLIN | POLLRDNORM));
    return 0;
}
