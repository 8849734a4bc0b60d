/*
 * fake_v4l2.c — a fake V4L2 camera for an unmodified program, loaded with LD_PRELOAD.
 *
 * It answers open, ioctl, mmap, poll and close on one path (FAKE_V4L2_PATH, default
 * /dev/video0) as the kernel's V4L2 core and videobuf2 document them, and hands every other
 * call to libc (dlsym RTLD_NEXT). The camera is a UVC-like webcam:
 *
 *   formats     YUYV, MJPEG (libjpeg-turbo, 4:2:2) and RG10 (10-bit RGGB Bayer in 16-bit words,
 *               the scene's linear light at every site), 640x480, at 30 or 15 fps
 *   controls    exposure_auto (menu: 1 manual, 3 aperture priority; default 3),
 *               exposure_time_absolute (100 µs units, 1…5000, default 166; refused with EACCES
 *               unless exposure_auto is manual), gain (0…255, default 0),
 *               power_line_frequency (menu: 0 off, 1 50 Hz, 2 60 Hz; default 1)
 *   streaming   REQBUFS / QUERYBUF / mmap / QBUF / DQBUF / STREAMON / STREAMOFF on mmap
 *               buffers in a memfd; poll is readable when a frame is due (the monotonic clock,
 *               one frame per interval from STREAMON) and a queued buffer has been filled
 *   sensor      a grey scene, brighter to the right, with a faint checker, whose light is
 *               proportional to exposure time × gain factor (1 + 15 × gain / 255), clipped at
 *               full scale and encoded with the sRGB curve, as a webcam's image processor
 *               delivers it; a control set while streaming reaches the frame after the one
 *               being exposed, two frames after the one last handed out
 *   devices     opendir/readdir of the path's folder lists it while the camera is plugged in
 *
 * The environment:
 *   FAKE_V4L2_PATH     the node it fakes (default /dev/video0)
 *   FAKE_V4L2_FORMATS  the pixel formats it offers, in ENUM_FMT order: any of "YUYV", "MJPG"
 *                      and "RG10", comma-separated (default "YUYV,MJPG")
 *   FAKE_V4L2_LIGHT    the scene's mean light per 100 µs of exposure at gain ×1, as a fraction
 *                      of full scale (default 0.02: the default exposure clips it, as a webcam
 *                      facing a window; 0.0016 needs 33 ms and gain)
 *   FAKE_V4L2_CONTROL  a file whose first word is "unplugged" while the camera is unplugged
 *                      (anything else, or no file, is plugged in). Unplugged, every request on
 *                      a node fails with ENODEV, poll reports POLLERR | POLLHUP and open fails
 *                      with ENOENT; a node opened before an unplug stays dead after the replug,
 *                      and the camera comes back with its default format and controls.
 *   FAKE_V4L2_LOG      a file it appends one line to per event, for the test to read:
 *                        open fd=N | close fd=N [(K buffers still mapped)] | STREAMON | STREAMOFF
 *                        mmap B | munmap B (buffer B mapped or unmapped)
 *                        S_CTRL NAME VALUE (the value set, after clamping to the range)
 *                        S_CTRL NAME VALUE refused ERRNO
 *                        level L frame S (the code of the scene's mean light from frame S on)
 *                        unplugged | plugged
 *
 * The files are listed in fake_v4l2.h. Built by the end-to-end test itself (FakeV4L2Camera):
 *   clang -shared -fPIC -O2 -fvisibility=hidden *.c -o fake_v4l2.so -ldl -lm -lturbojpeg -lpthread
 */

#include "fake_v4l2.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>

/* ---- libc ---------------------------------------------------------------------------------- */

int (*real_open)(const char *, int, ...);
int (*real_openat)(int, const char *, int, ...);
int (*real_close)(int);
int (*real_ioctl)(int, unsigned long, ...);
void *(*real_mmap)(void *, size_t, int, int, int, off_t);
int (*real_munmap)(void *, size_t);
int (*real_poll)(struct pollfd *, nfds_t, int);
ssize_t (*real_read)(int, void *, size_t);
ssize_t (*real_write)(int, const void *, size_t);
DIR *(*real_opendir)(const char *);
struct dirent *(*real_readdir)(DIR *);
int (*real_closedir)(DIR *);

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Finds libc's functions and sets the camera up: once, at the first intercepted call. */
static void initialise(void) {
    real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    real_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    real_opendir = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
    real_readdir = (struct dirent * (*)(DIR *)) dlsym(RTLD_NEXT, "readdir");
    real_closedir = (int (*)(DIR *))dlsym(RTLD_NEXT, "closedir");

    configure_camera();
}

void ensure_initialised(void) {
    pthread_once(&once, initialise);
}

/* ---- the intercepted calls ----------------------------------------------------------------- */

/* Whether `path` is the fake node's. */
static int is_node_path(const char *path) {
    ensure_initialised();
    return strcmp(path, camera.path) == 0;
}

/* Opens the node: ENOENT while the camera is unplugged. */
static int open_node(int flags) {
    pthread_mutex_lock(&camera.lock);
    check_plug();
    int result;
    if (!camera.plugged) {
        result = fail(ENOENT);
    } else {
        /* A memfd gives the node an fd number of its own; the buffers live in another. */
        result = memfd_create("fake-v4l2-node", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
        if (result >= FD_LIMIT) {
            real_close(result);
            result = fail(EMFILE);
        } else if (result >= 0) {
            node_unplugs[result] = camera.unplugs + 1;
            node_blocking[result] = !(flags & O_NONBLOCK);
            log_line("open fd=%d", result);
        }
    }
    pthread_mutex_unlock(&camera.lock);
    return result;
}

static int open_with_mode(const char *path, int flags, mode_t mode) {
    return is_node_path(path) ? open_node(flags) : real_open(path, flags, mode);
}

/* The mode argument open(2) reads when it may create a file. */
#define OPEN_MODE(flags, mode)                                                                  \
    do {                                                                                        \
        if ((flags) & O_CREAT || ((flags) & O_TMPFILE) == O_TMPFILE) {                          \
            va_list arguments;                                                                  \
            va_start(arguments, flags);                                                         \
            mode = va_arg(arguments, mode_t);                                                   \
            va_end(arguments);                                                                  \
        }                                                                                       \
    } while (0)

INTERPOSED int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    OPEN_MODE(flags, mode);
    return open_with_mode(path, flags, mode);
}

INTERPOSED int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    OPEN_MODE(flags, mode);
    return open_with_mode(path, flags | O_LARGEFILE, mode);
}

INTERPOSED int __open_2(const char *path, int flags) {
    return open_with_mode(path, flags, 0);
}

INTERPOSED int __open64_2(const char *path, int flags) {
    return open_with_mode(path, flags | O_LARGEFILE, 0);
}

static int openat_with_mode(int directory, const char *path, int flags, mode_t mode) {
    if ((path[0] == '/' || directory == AT_FDCWD) && is_node_path(path)) return open_node(flags);
    return real_openat(directory, path, flags, mode);
}

INTERPOSED int openat(int directory, const char *path, int flags, ...) {
    mode_t mode = 0;
    OPEN_MODE(flags, mode);
    return openat_with_mode(directory, path, flags, mode);
}

INTERPOSED int openat64(int directory, const char *path, int flags, ...) {
    mode_t mode = 0;
    OPEN_MODE(flags, mode);
    return openat_with_mode(directory, path, flags | O_LARGEFILE, mode);
}

INTERPOSED int __openat_2(int directory, const char *path, int flags) {
    return openat_with_mode(directory, path, flags, 0);
}

INTERPOSED int __openat64_2(int directory, const char *path, int flags) {
    return openat_with_mode(directory, path, flags | O_LARGEFILE, 0);
}

/* Closing the node that owns the buffers stops the stream and frees them, as vb2's release does. */
INTERPOSED int close(int fd) {
    ensure_initialised();
    if (is_node(fd)) {
        pthread_mutex_lock(&camera.lock);
        node_unplugs[fd] = 0;
        if (camera.owner == fd) {
            unsigned mapped = live_mappings();
            if (mapped > 0) log_line("close fd=%d (%u buffers still mapped)", fd, mapped);
            else log_line("close fd=%d", fd);
            if (camera.streaming) log_line("STREAMOFF");
            free_buffers();
        } else {
            log_line("close fd=%d", fd);
        }
        pthread_mutex_unlock(&camera.lock);
    }
    return real_close(fd);
}

/* A request on a node is answered by the camera (requests.c); any other goes to the kernel. */
INTERPOSED int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    ensure_initialised();
    if (!is_node(fd)) return real_ioctl(fd, request, argument);
    pthread_mutex_lock(&camera.lock);
    check_plug();
    int result = node_request(fd, request, argument);
    int code = errno;
    pthread_mutex_unlock(&camera.lock);
    errno = code;
    return result;
}

/* mmap of a buffer: shared, at the offset QUERYBUF gave, no longer than the buffer. */
INTERPOSED void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    ensure_initialised();
    if (!is_node(fd)) return real_mmap(address, length, protection, flags, fd, offset);
    pthread_mutex_lock(&camera.lock);
    check_plug();
    void *result = MAP_FAILED;
    int code = 0;
    if (!is_alive(fd)) code = ENODEV;
    else if (!(flags & MAP_SHARED) || camera.buffer_count == 0 || offset < 0 || (size_t)offset % camera.buffer_stride != 0
             || (size_t)offset / camera.buffer_stride >= camera.buffer_count || length > camera.buffer_size)
        code = EINVAL;
    else {
        result = real_mmap(address, length, protection, flags, camera.buffer_memory, offset);
        if (result == MAP_FAILED) code = errno;
        unsigned buffer = (unsigned)((size_t)offset / camera.buffer_stride);
        for (unsigned index = 0; result != MAP_FAILED && index < MAX_MAPPINGS; index++)
            if (!camera.mappings[index].address) {
                camera.mappings[index] = (struct mapping){result, length, buffer, camera.allocation};
                log_line("mmap %u", buffer);
                break;
            }
    }
    pthread_mutex_unlock(&camera.lock);
    if (result == MAP_FAILED) errno = code;
    return result;
}

INTERPOSED void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    return mmap(address, length, protection, flags, fd, offset);
}

/* Forgets a buffer's mapping, so that REQBUFS and close know what is still mapped. */
INTERPOSED int munmap(void *address, size_t length) {
    ensure_initialised();
    pthread_mutex_lock(&camera.lock);
    for (unsigned index = 0; index < MAX_MAPPINGS; index++) {
        struct mapping *mapping = &camera.mappings[index];
        if (mapping->address != address || mapping->length != length) continue;
        mapping->address = NULL;
        log_line("munmap %u", mapping->buffer);
    }
    pthread_mutex_unlock(&camera.lock);
    return real_munmap(address, length);
}

/* poll with fake nodes among `fds`: their events from the camera, the others' from the kernel,
 * waiting in slices until a frame is due or the control file may have changed. */
INTERPOSED int poll(struct pollfd *fds, nfds_t count, int timeout) {
    enum { MAX_FAKE = 16 };
    ensure_initialised();
    int fake[MAX_FAKE], fake_count = 0;
    for (nfds_t index = 0; index < count && fake_count < MAX_FAKE; index++)
        if (is_node(fds[index].fd)) fake[fake_count++] = (int)index;
    if (fake_count == 0) return real_poll(fds, count, timeout);

    uint64_t deadline = timeout < 0 ? UINT64_MAX : now_ns() + (uint64_t)timeout * 1000000u;
    while (1) {
        int saved[MAX_FAKE], ready = 0;
        short events[MAX_FAKE];
        pthread_mutex_lock(&camera.lock);
        check_plug();
        advance();
        for (int index = 0; index < fake_count; index++) {
            struct pollfd *entry = &fds[fake[index]];
            events[index] = node_events(entry->fd, entry->events);
            ready += events[index] != 0;
        }
        int wait = ready ? 0 : next_change_ms();
        pthread_mutex_unlock(&camera.lock);
        if (deadline != UINT64_MAX) {
            uint64_t now = now_ns();
            int left = now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
            if (left < wait) wait = left;
        }

        /* The kernel waits for the other fds; it skips a negative one and clears its revents. */
        for (int index = 0; index < fake_count; index++) {
            saved[index] = fds[fake[index]].fd;
            fds[fake[index]].fd = -1;
        }
        int others = real_poll(fds, count, wait);
        int code = errno;
        for (int index = 0; index < fake_count; index++) {
            fds[fake[index]].fd = saved[index];
            fds[fake[index]].revents = others < 0 ? 0 : events[index];
        }
        errno = code;
        if (others < 0) return -1;
        if (ready || others > 0 || now_ns() >= deadline) return others + ready;
    }
}

