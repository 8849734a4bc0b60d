/// The C functions that CameraSystem calls, by name: what `SystemCallSeam` records and what a test
/// scripts a failure for.
public enum SystemFunction: String, Sendable, Hashable, CaseIterable {
    case open, close, read, pread, write, pwrite, ftruncate, fallocate, fsync, fstat, flock, ioctl, mmap, munmap, poll
    case rename, unlink, mkdir, lstat, stat, opendir, readdir, statvfs, access, readlink, execv
}
