/*
 * sensor.c — the fake camera's frames: the scene, the controls as they land on the frames,
 * rendering in YUYV, MJPEG or RG10, and the frame clock.
 */

#include "fake_v4l2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { JPEG_QUALITY = 85 };

/* The analogue gain of a gain control value: ×1 at 0 to ×16 at 255. */
static double gain_factor(int32_t gain) {
    return 1 + 15.0 * gain / 255;
}

/* The scene's mean light as the controls in effect make it, 1 at full scale (before clipping). */
static double scene_light(void) {
    return control_with_id(V4L2_CID_EXPOSURE_ABSOLUTE)->value * gain_factor(control_with_id(V4L2_CID_GAIN)->value)
        * camera.light_per_exposure_unit;
}

/* The 8-bit code of linear `light`, clipped at full scale and encoded with the sRGB curve, as a
 * webcam's image processor outputs it. */
static uint8_t encoded(double light) {
    if (light >= 1) return 255;
    double value = light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055;
    return (uint8_t)lround(255 * value);
}

/* Renders the scene at `light` into `camera.frame` in the current format, unless it holds that. */
static void render(double light) {
    long key = lround(light * 1e6) * 4 + (camera.pixel_format == V4L2_PIX_FMT_MJPEG ? 1 : camera.pixel_format == V4L2_PIX_FMT_SRGGB10 ? 2 : 0);
    if (key == camera.frame_key) return;
    uint8_t code[TEXTURE_LIMIT];
    for (int relative = 0; relative < TEXTURE_LIMIT; relative++) code[relative] = encoded(light * relative / TEXTURE_ONE);
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) camera.luma[y * WIDTH + x] = code[camera.texture[y][x]];
    size_t capacity = frame_buffer_size(V4L2_PIX_FMT_MJPEG);
    if (capacity < frame_buffer_size(V4L2_PIX_FMT_YUYV)) capacity = frame_buffer_size(V4L2_PIX_FMT_YUYV);
    if (!camera.frame) camera.frame = malloc(capacity);
    if (camera.pixel_format == V4L2_PIX_FMT_MJPEG) {
        const unsigned char *planes[3] = {camera.luma, camera.chroma, camera.chroma + WIDTH * HEIGHT / 2};
        unsigned long length = capacity;
        if (tjCompressFromYUVPlanes(camera.jpeg, planes, WIDTH, NULL, HEIGHT, TJSAMP_422, &camera.frame, &length, JPEG_QUALITY,
                                    TJFLAG_NOREALLOC) != 0)
            length = 0;
        camera.frame_bytes = length;
    } else if (camera.pixel_format == V4L2_PIX_FMT_SRGGB10) {
        /* A raw sensor's mosaic of the grey scene: every site, red, green or blue, the same linear
         * 10-bit value on a black level of 0, clipped at 1023 (little-endian words, as this host's). */
        uint16_t *samples = (uint16_t *)camera.frame;
        for (int y = 0; y < HEIGHT; y++)
            for (int x = 0; x < WIDTH; x++) {
                double value = light * camera.texture[y][x] / TEXTURE_ONE;
                samples[y * WIDTH + x] = value >= 1 ? 1023 : (uint16_t)lround(1023 * value);
            }
        camera.frame_bytes = (size_t)WIDTH * HEIGHT * 2;
    } else {
        for (int pixel = 0; pixel < WIDTH * HEIGHT; pixel += 2) {
            uint8_t *out = camera.frame + pixel * 2;
            out[0] = camera.luma[pixel];
            out[1] = 128;
            out[2] = camera.luma[pixel + 1];
            out[3] = 128;
        }
        camera.frame_bytes = (size_t)WIDTH * HEIGHT * 2;
    }
    camera.frame_key = key;
}

/* Exposes frame `camera.sequence`: the controls due by then take effect, and the first queued
 * buffer is filled and moves to the done queue; with none queued the frame is lost. */
static void expose_frame(uint64_t timestamp_ns) {
    for (unsigned index = 0; index < CONTROL_COUNT; index++) {
        struct control *control = &controls[index];
        while (control->pending_count > 0 && control->pending[0].from <= camera.sequence) {
            control->value = control->pending[0].value;
            memmove(control->pending, control->pending + 1, --control->pending_count * sizeof control->pending[0]);
        }
    }
    double light = scene_light();
    if (encoded(light) != camera.logged_level) {
        camera.logged_level = encoded(light);
        log_line("level %d frame %u", camera.logged_level, camera.sequence);
    }
    if (camera.queue_length > 0) {
        unsigned index = camera.queue[0];
        memmove(camera.queue, camera.queue + 1, --camera.queue_length * sizeof camera.queue[0]);
        render(light);
        memcpy(camera.buffer_bytes + index * camera.buffer_stride, camera.frame, camera.frame_bytes);
        struct buffer *buffer = &camera.buffers[index];
        buffer->queued = 0;
        buffer->done = 1;
        buffer->bytes_used = (uint32_t)camera.frame_bytes;
        buffer->sequence = camera.sequence;
        buffer->timestamp_ns = timestamp_ns;
        camera.done[camera.done_length++] = index;
    }
    camera.sequence++;
}

/* The time between frames, as S_PARM set it. */
uint64_t frame_interval_ns(void) {
    return 1000000000ull * camera.interval_numerator / camera.interval_denominator;
}

/* Exposes every frame due by now. After a stall of more than a second (the process stopped)
 * the frames missed are lost at once, as a driver whose buffers were all full loses them. */
void advance(void) {
    if (!camera.streaming) return;
    uint64_t now = now_ns(), interval = frame_interval_ns();
    if (now > camera.next_frame_ns + 1000000000ull) {
        uint64_t missed = (now - camera.next_frame_ns) / interval;
        camera.sequence += (uint32_t)missed;
        camera.next_frame_ns += missed * interval;
    }
    while (camera.next_frame_ns <= now) {
        expose_frame(camera.next_frame_ns);
        camera.next_frame_ns += interval;
    }
}

/* The scene: 0.85 of its mean light at the left edge to 1.15 at the right, ±0.03 in 40-pixel
 * squares, grey (chroma 128). */
void make_scene(void) {
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            double relative = 0.85 + 0.30 * x / (WIDTH - 1) + (((x / 40) + (y / 40)) % 2 ? 0.03 : -0.03);
            camera.texture[y][x] = (uint16_t)(relative * TEXTURE_ONE + 0.5);
        }
    memset(camera.chroma, 128, sizeof camera.chroma);
    camera.jpeg = tjInitCompress();
}
