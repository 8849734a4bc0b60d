import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading and writing whole files for the encoders and decoders, with errors a user can act on.
enum FileAccess {
    /// Writes `data` to `url` so that readers see either the old file or the complete new one,
    /// never a partial file: the bytes go to a temporary file in the same directory, are flushed to
    /// disk, and the temporary file is renamed over `url`.
    static func writeAtomically(_ data: Data, to url: URL) throws(CodecError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw unwritable(path, "cannot create a temporary file in \(directory)", errno) }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        var failure = data.withUnsafeBytes { bytes in writeAll(bytes, to: descriptor) } ? 0 : errno
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else { throw unwritable(path, "writing \(data.count) bytes failed", failure) }
        guard rename(temporary, path) == 0 else { throw unwritable(path, "cannot replace it", errno) }
        renamed = true
    }

    /// The reason a Foundation file operation failed, from its POSIX error when there is one.
    static func reason(_ error: any Error) -> String {
        if let posix = (error as? CocoaError)?.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return error.localizedDescription
    }

    /// Writes every byte, retrying after interruptions and short writes; false on an error.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    private static func unwritable(_ path: String, _ what: String, _ error: Int32) -> CodecError {
        CodecError(.unwritable, "cannot write \(path): \(what) (\(String(cString: strerror(error))))"
            + " — check that the directory exists, is writable and has free space")
    }
}
