/*
 * fake_v4l2.h — what the fake camera's files share (fake_v4l2.c says what the shim does).
 *
 *   fake_v4l2.c  the libc calls intercepted: open, close, ioctl, mmap, munmap, poll
 *   listing.c    the node in its folder: opendir, readdir, closedir
 *   camera.c     the camera's state: configuration, plugged in or not, buffers, the log
 *   sensor.c     the frames: the scene, exposure and gain as they land, rendering, timing
 *   requests.c   the V4L2 requests (ioctl) on a node, and what poll reports for it
 *
 * Everything here is hidden (-fvisibility=hidden): the process sees only the intercepted calls.
 */

#ifndef FAKE_V4L2_H
#define FAKE_V4L2_H

#define _GNU_SOURCE
#include <dirent.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <turbojpeg.h>

/* A libc call the shim replaces, seen by the process. */
#define INTERPOSED __attribute__((visibility("default")))

enum {
    WIDTH = 640,
    HEIGHT = 480,
    MAX_BUFFERS = 8,
    MIN_BUFFERS = 2,
    MAX_MAPPINGS = 64,
    MAX_PENDING = 4,
    FD_LIMIT = 4096,
    CONTROL_COUNT = 4,
    /* How often a poll waiting for nothing else looks at the control file. */
    PLUG_CHECK_NS = 20 * 1000 * 1000,
    /* The scene texture's fixed point: its 1.0, and a bound above its brightest value. */
    TEXTURE_ONE = 1024,
    TEXTURE_LIMIT = 1280,
};

/* The libc functions, found with dlsym(RTLD_NEXT). */
extern int (*real_open)(const char *, int, ...);
extern int (*real_openat)(int, const char *, int, ...);
extern int (*real_close)(int);
extern int (*real_ioctl)(int, unsigned long, ...);
extern void *(*real_mmap)(void *, size_t, int, int, int, off_t);
extern int (*real_munmap)(void *, size_t);
extern int (*real_poll)(struct pollfd *, nfds_t, int);
extern ssize_t (*real_read)(int, void *, size_t);
extern ssize_t (*real_write)(int, const void *, size_t);
extern DIR *(*real_opendir)(const char *);
extern struct dirent *(*real_readdir)(DIR *);
extern int (*real_closedir)(DIR *);

struct control {
    uint32_t id;
    const char *name;
    enum v4l2_ctrl_type type;
    int32_t minimum, maximum, step, default_value;
    /* Menu entries present, as a bit per index. */
    uint32_t menu;
    const char *const *menu_names;
    /* What frames are made with, and the values set since, each reaching the frames from its own. */
    int32_t value;
    unsigned pending_count;
    struct { int32_t value; uint32_t from; } pending[MAX_PENDING];
};

struct buffer {
    int queued, done;
    uint32_t bytes_used, sequence;
    uint64_t timestamp_ns;
};

struct mapping {
    void *address;
    size_t length;
    unsigned buffer;
    /* The allocation it maps: buffers freed and allocated again are another. */
    unsigned allocation;
};

/* The camera, behind `lock`: every intercepted call on a node holds it. */
struct camera {
    pthread_mutex_t lock;
    char path[256], folder[256], name[64];
    const char *control_path;
    /* The scene's mean light, as a fraction of full scale, per 100 µs of exposure at gain ×1. */
    double light_per_exposure_unit;
    int log_fd;
    uint32_t formats[3];
    unsigned format_count;

    int plugged;
    /* Unplugs so far: a node remembers the count it was opened at. */
    unsigned unplugs;

    uint32_t pixel_format;
    uint32_t interval_numerator, interval_denominator;

    int buffer_memory;      /* memfd holding the buffers, -1 when none */
    uint8_t *buffer_bytes;  /* the shim's own view of it */
    size_t buffer_size;     /* one buffer's length */
    size_t buffer_stride;   /* page-rounded */
    unsigned buffer_count, allocation;
    int owner;              /* the fd that allocated them, -1 */
    struct buffer buffers[MAX_BUFFERS];
    unsigned queue[MAX_BUFFERS], queue_length;  /* filled next, in QBUF order */
    unsigned done[MAX_BUFFERS], done_length;    /* dequeued next, in fill order */
    struct mapping mappings[MAX_MAPPINGS];

    int streaming;
    uint32_t sequence;      /* the next frame's */
    uint64_t next_frame_ns;
    int logged_level;

    tjhandle jpeg;
    uint16_t texture[HEIGHT][WIDTH];  /* the scene's relative light, ×TEXTURE_ONE */
    uint8_t luma[HEIGHT * WIDTH], chroma[HEIGHT * WIDTH];  /* Cb then Cr, 4:2:2 */
    uint8_t *frame;         /* the last frame rendered, of `frame_bytes` bytes */
    size_t frame_bytes;
    long frame_key;         /* the light and format it was rendered for */
};

extern struct camera camera;
/* By id, ascending, as V4L2_CTRL_FLAG_NEXT_CTRL walks them. */
extern struct control controls[CONTROL_COUNT];
/* The open fake nodes: by fd, the unplug count at open + 1 (0: not a fake node). */
extern unsigned node_unplugs[FD_LIMIT];
extern int node_blocking[FD_LIMIT];

/* camera.c */
void configure_camera(void);
void log_line(const char *format, ...) __attribute__((format(printf, 1, 2)));
uint64_t now_ns(void);
int fail(int code);
struct control *control_with_id(uint32_t id);
int32_t control_value(const struct control *control);
size_t frame_buffer_size(uint32_t code);
int offers(uint32_t code);
void free_buffers(void);
void check_plug(void);
int is_node(int fd);
int is_alive(int fd);
unsigned live_mappings(void);
int next_change_ms(void);

/* sensor.c */
void make_scene(void);
void advance(void);
uint64_t frame_interval_ns(void);

/* requests.c */
int node_request(int fd, unsigned long request, void *argument);
short node_events(int fd, short requested);

/* fake_v4l2.c */
void ensure_initialised(void);

#endif
