/*
 * listing.c — the fake node in its folder: a listing of the folder (opendir, readdir) names it,
 * once, at its end, while the camera is plugged in — unless the folder really holds it.
 */

#include "fake_v4l2.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The folder listings of the node's folder in progress, and whether each has listed it yet. */
static struct { DIR *directory; int listed; } listings[8];

INTERPOSED DIR *opendir(const char *path) {
    ensure_initialised();
    DIR *directory = real_opendir(path);
    if (!directory || strcmp(path, camera.folder) != 0) return directory;
    pthread_mutex_lock(&camera.lock);
    for (unsigned index = 0; index < sizeof listings / sizeof listings[0]; index++)
        if (!listings[index].directory) {
            listings[index].directory = directory;
            listings[index].listed = 0;
            break;
        }
    pthread_mutex_unlock(&camera.lock);
    return directory;
}

/* Whether `directory`, a listing of the node's folder now at its end, should list the node:
 * once, while the camera is plugged in, unless the folder really holds it. */
static int lists_node(DIR *directory, const char *seen) {
    int lists = 0;
    pthread_mutex_lock(&camera.lock);
    for (unsigned index = 0; index < sizeof listings / sizeof listings[0]; index++) {
        if (listings[index].directory != directory) continue;
        if (seen && strcmp(seen, camera.name) == 0) listings[index].listed = 1;
        if (!seen && !listings[index].listed) {
            check_plug();
            listings[index].listed = 1;
            lists = camera.plugged;
        }
    }
    pthread_mutex_unlock(&camera.lock);
    return lists;
}

INTERPOSED struct dirent *readdir(DIR *directory) {
    ensure_initialised();
    int code = errno;
    struct dirent *entry = real_readdir(directory);
    if (entry || errno != code) {
        if (entry) lists_node(directory, entry->d_name);
        return entry;
    }
    static __thread struct dirent node;
    if (!lists_node(directory, NULL)) return NULL;
    memset(&node, 0, sizeof node);
    node.d_type = DT_CHR;
    node.d_reclen = sizeof node;
    snprintf(node.d_name, sizeof node.d_name, "%s", camera.name);
    return &node;
}

/* On a 64-bit system a dirent64 is a dirent, and readdir64 the same call. */
_Static_assert(sizeof(struct dirent64) == sizeof(struct dirent) && sizeof(ino64_t) == sizeof(ino_t), "dirent64 is dirent");

INTERPOSED struct dirent64 *readdir64(DIR *directory) {
    return (struct dirent64 *)readdir(directory);
}

INTERPOSED int closedir(DIR *directory) {
    ensure_initialised();
    pthread_mutex_lock(&camera.lock);
    for (unsigned index = 0; index < sizeof listings / sizeof listings[0]; index++)
        if (listings[index].directory == directory) listings[index].directory = NULL;
    pthread_mutex_unlock(&camera.lock);
    return real_closedir(directory);
}
