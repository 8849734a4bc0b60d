import Glibc

/// Runs one C system call — the only place CameraSystem calls one. It asks the installed
/// `SystemCallSeam` first (which records the call and may script a failure), retries while the
/// call is interrupted (EINTR) unless `retryingInterrupts` is false (close(2) must not be
/// retried on Linux), and turns a result that `failed` recognises into a `SystemCallError`
/// naming `operation` and `path` with the errno.
func systemCall<Result>(
    _ function: SystemFunction, _ operation: String, _ path: String?, retryingInterrupts: Bool = true,
    failed: (Result) -> Bool, _ call: () -> Result
) throws(SystemCallError) -> Result {
    let seam = SystemCallSeam.current
    while true {
        let code: Errno
        if let injected = seam?.intercept(function, path: path) {
            code = injected
        } else {
            let result = call()
            guard failed(result) else { return result }
            code = .current
        }
        if code == .interrupted && retryingInterrupts { continue }
        throw SystemCallError(operation: operation, path: path, errno: code)
    }
}

/// `systemCall` for the many calls that return a negative number on failure.
@discardableResult
func systemCall<Result: BinaryInteger>(
    _ function: SystemFunction, _ operation: String, _ path: String?, retryingInterrupts: Bool = true,
    _ call: () -> Result
) throws(SystemCallError) -> Result {
    try systemCall(function, operation, path, retryingInterrupts: retryingInterrupts, failed: { $0 < 0 }, call)
}
