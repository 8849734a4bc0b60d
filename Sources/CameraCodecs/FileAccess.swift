import CameraSystem
import Foundation

/// Reading and writing whole files for the encoders and decoders, through CameraSystem, with
/// errors a user can act on.
enum FileAccess {
    /// Writes `data` to `url` so that readers see either the old file or the complete new one,
    /// never a partial file, and the new one survives a power cut (`AtomicFile.replace`).
    static func writeAtomically(_ data: Data, to url: URL) throws(CodecError) {
        let written = data.withUnsafeBytes { bytes in
            Result { () throws(SystemCallError) in try AtomicFile.replace(url.path, with: bytes) }
        }
        do {
            try written.get()
        } catch {
            throw CodecError(.unwritable, "cannot write \(url.path): \(error)"
                + " — check that the directory exists, is writable and has free space")
        }
    }

    /// The whole contents of the file at `url`.
    static func read(_ url: URL) throws(CodecError) -> [UInt8] {
        do {
            return try FileDescriptor.open(url.path, .readOnly).readAll()
        } catch {
            throw CodecError(.unreadable, "cannot read \(url.path): \(error.reason) — check the path and its permissions")
        }
    }
}
