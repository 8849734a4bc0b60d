/*
 * camera.c — the fake camera's state: its configuration, whether it is plugged in, its buffers
 * and the log the test reads.
 */

#include "fake_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct camera camera = {.lock = PTHREAD_MUTEX_INITIALIZER, .log_fd = -1, .buffer_memory = -1, .owner = -1, .logged_level = -1,
                        .frame_key = -1};
unsigned node_unplugs[FD_LIMIT];
int node_blocking[FD_LIMIT];

static const char *const exposure_menu[] = {"Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode"};
static const char *const power_line_menu[] = {"Disabled", "50 Hz", "60 Hz"};

/* By id, ascending, as V4L2_CTRL_FLAG_NEXT_CTRL walks them. */
struct control controls[CONTROL_COUNT] = {
    {.id = V4L2_CID_GAIN, .name = "gain", .type = V4L2_CTRL_TYPE_INTEGER, .minimum = 0, .maximum = 255, .step = 1, .default_value = 0},
    {.id = V4L2_CID_POWER_LINE_FREQUENCY, .name = "power_line_frequency", .type = V4L2_CTRL_TYPE_MENU, .minimum = 0, .maximum = 2,
     .step = 1, .default_value = 1, .menu = 0x7, .menu_names = power_line_menu},
    {.id = V4L2_CID_EXPOSURE_AUTO, .name = "exposure_auto", .type = V4L2_CTRL_TYPE_MENU, .minimum = 0, .maximum = 3, .step = 1,
     .default_value = 3, .menu = 0xA, .menu_names = exposure_menu},
    {.id = V4L2_CID_EXPOSURE_ABSOLUTE, .name = "exposure_time_absolute", .type = V4L2_CTRL_TYPE_INTEGER, .minimum = 1, .maximum = 5000,
     .step = 1, .default_value = 166},
};

/* Appends a line to the log (FAKE_V4L2_LOG), leaving errno as it was. */
void log_line(const char *format, ...) {
    if (camera.log_fd < 0) return;
    int code = errno;
    char line[256];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(line, sizeof line - 1, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    if (length > (int)sizeof line - 2) length = sizeof line - 2;
    line[length] = '\n';
    ssize_t written = real_write(camera.log_fd, line, (size_t)length + 1);
    (void)written;
    errno = code;
}

/* The monotonic clock, which frames are stamped with (V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC). */
uint64_t now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

/* A failed call's answer: -1 with errno `code`. */
int fail(int code) {
    errno = code;
    return -1;
}

/* The control `id`, or NULL when the camera lacks it. */
struct control *control_with_id(uint32_t id) {
    for (unsigned index = 0; index < CONTROL_COUNT; index++)
        if (controls[index].id == id) return &controls[index];
    return NULL;
}

/* The value a control was last set to: the driver's cached value, as G_CTRL answers. */
int32_t control_value(const struct control *control) {
    return control->pending_count ? control->pending[control->pending_count - 1].value : control->value;
}

/* A buffer's length for frames of `code`: a whole YUYV or RG10 frame, or the largest JPEG of one. */
size_t frame_buffer_size(uint32_t code) {
    return code == V4L2_PIX_FMT_MJPEG ? tjBufSize(WIDTH, HEIGHT, TJSAMP_422) : (size_t)WIDTH * HEIGHT * 2;
}

/* Whether the camera offers pixel format `code` (FAKE_V4L2_FORMATS). */
int offers(uint32_t code) {
    for (unsigned index = 0; index < camera.format_count; index++)
        if (camera.formats[index] == code) return 1;
    return 0;
}

/* Frees the buffers and stops the stream, as closing the node that owns them does. */
void free_buffers(void) {
    if (camera.buffer_bytes) real_munmap(camera.buffer_bytes, camera.buffer_stride * camera.buffer_count);
    if (camera.buffer_memory >= 0) real_close(camera.buffer_memory);
    camera.buffer_bytes = NULL;
    camera.buffer_memory = -1;
    camera.buffer_count = 0;
    camera.allocation++;
    camera.owner = -1;
    camera.queue_length = camera.done_length = 0;
    camera.streaming = 0;
}

/* The camera as it powers up: first format, 30 fps, every control at its default. */
static void reset_camera(void) {
    free_buffers();
    camera.pixel_format = camera.formats[0];
    camera.interval_numerator = 1;
    camera.interval_denominator = 30;
    for (unsigned index = 0; index < CONTROL_COUNT; index++) {
        controls[index].value = controls[index].default_value;
        controls[index].pending_count = 0;
    }
}

/* Reads the environment (fake_v4l2.c lists it), opens the log, makes the scene: the camera as it
 * powers up, plugged in. */
void configure_camera(void) {
    const char *path = getenv("FAKE_V4L2_PATH");
    snprintf(camera.path, sizeof camera.path, "%s", path && *path ? path : "/dev/video0");
    const char *slash = strrchr(camera.path, '/');
    if (!slash) snprintf(camera.folder, sizeof camera.folder, ".");
    else if (slash == camera.path) snprintf(camera.folder, sizeof camera.folder, "/");
    else snprintf(camera.folder, sizeof camera.folder, "%.*s", (int)(slash - camera.path), camera.path);
    snprintf(camera.name, sizeof camera.name, "%s", slash ? slash + 1 : camera.path);
    camera.control_path = getenv("FAKE_V4L2_CONTROL");
    const char *log_path = getenv("FAKE_V4L2_LOG");
    if (log_path) camera.log_fd = real_open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

    const char *light = getenv("FAKE_V4L2_LIGHT");
    camera.light_per_exposure_unit = light && atof(light) > 0 ? atof(light) : 0.02;

    const char *formats = getenv("FAKE_V4L2_FORMATS");
    if (!formats || !*formats) formats = "YUYV,MJPG";
    for (const char *cursor = formats; *cursor && camera.format_count < 3;) {
        if (strncmp(cursor, "YUYV", 4) == 0) camera.formats[camera.format_count++] = V4L2_PIX_FMT_YUYV;
        else if (strncmp(cursor, "MJPG", 4) == 0) camera.formats[camera.format_count++] = V4L2_PIX_FMT_MJPEG;
        else if (strncmp(cursor, "RG10", 4) == 0) camera.formats[camera.format_count++] = V4L2_PIX_FMT_SRGGB10;
        const char *comma = strchr(cursor, ',');
        if (!comma) break;
        cursor = comma + 1;
    }
    if (camera.format_count == 0) camera.formats[camera.format_count++] = V4L2_PIX_FMT_YUYV;

    make_scene();
    camera.plugged = 1;
    reset_camera();
}

/* Reads the control file: the camera unplugs (every node dies) or comes back (as new). */
void check_plug(void) {
    int code = errno, plugged = 1;
    if (camera.control_path) {
        int fd = real_open(camera.control_path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            char word[16] = {0};
            ssize_t length = real_read(fd, word, sizeof word - 1);
            real_close(fd);
            plugged = !(length >= 9 && strncmp(word, "unplugged", 9) == 0);
        }
    }
    errno = code;
    if (plugged == camera.plugged) return;
    camera.plugged = plugged;
    if (!plugged) {
        camera.unplugs++;
        camera.streaming = 0;
        camera.queue_length = camera.done_length = 0;
        log_line("unplugged");
    } else {
        reset_camera();
        log_line("plugged");
    }
}

/* Whether `fd` is a fake node (dead or alive). */
int is_node(int fd) {
    return fd >= 0 && fd < FD_LIMIT && node_unplugs[fd] != 0;
}

/* Whether `fd` is a node of the camera as it is now plugged in. */
int is_alive(int fd) {
    return camera.plugged && node_unplugs[fd] == camera.unplugs + 1;
}

/* How long to wait, at most, before something may change for the fake nodes. */
int next_change_ms(void) {
    uint64_t now = now_ns(), wait = PLUG_CHECK_NS;
    if (camera.streaming && camera.next_frame_ns > now && camera.next_frame_ns - now < wait) wait = camera.next_frame_ns - now;
    return (int)((wait + 999999) / 1000000);
}

/* The buffers of the current allocation the process has mapped and not unmapped. */
unsigned live_mappings(void) {
    unsigned count = 0;
    for (unsigned index = 0; index < MAX_MAPPINGS; index++)
        if (camera.mappings[index].address && camera.mappings[index].allocation == camera.allocation) count++;
    return count;
}
