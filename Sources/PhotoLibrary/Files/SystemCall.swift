#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call that failed: which operation, on which path, and the errno it set.
struct SystemCallError: Error {
    let operation: String
    let path: String
    let code: Int32

    /// The C library's text for `code`, e.g. "No space left on device".
    var reason: String { String(cString: strerror(code)) }
}

/// Runs one system call, retrying while it is interrupted (EINTR), and turns a negative result into
/// a `SystemCallError` naming `operation` and `path`. Every file operation of the library goes
/// through here, except close(2), which must not be retried on Linux.
@discardableResult
func systemCall<Result: BinaryInteger>(
    _ operation: String, _ path: String, _ call: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw SystemCallError(operation: operation, path: path, code: code) }
    }
}
