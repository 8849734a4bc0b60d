import Glibc

/// CLOCK_MONOTONIC: the clock V4L2 drivers stamp frames with and deadlines are measured on,
/// which no change of the wall clock moves.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start (the machine's boot).
    public static var nanoseconds: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
