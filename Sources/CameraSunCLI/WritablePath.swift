import Foundation

/// A file a command writes at the end of its work, checked before the work starts, so that a
/// long run does not end in an error it could have given at once.
enum WritablePath {
    /// Throws when `path`'s directory is not writable, naming `what` is written there and the `flag` to change.
    static func check(_ path: String, writing what: String, flag: String) throws(CLIError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw .runtime("cannot write \(what) to \(path): \(directory) is not a writable directory — choose another \(flag) path")
        }
    }
}
