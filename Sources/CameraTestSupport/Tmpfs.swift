import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real small volume for tests of full disks: a tmpfs of `bytes`, mounted in a fresh scratch
/// directory for `body` and unmounted after it. Mounting needs root: a suite that uses it is
/// enabled `if: Tmpfs.canMount`.
public enum Tmpfs {
    public static var canMount: Bool { geteuid() == 0 }

    public static func with<R>(bytes: Int, _ body: (URL) async throws -> R) async throws -> R {
        try await withScratchDirectory { directory in
            let volume = directory.appendingPathComponent("volume", isDirectory: true)
            try FileManager.default.createDirectory(at: volume, withIntermediateDirectories: false)
            return try await withMount(["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs"], at: volume) { try await body(volume) }
        }
    }

    /// Fills `volume` with a file until only `bytes` are free.
    public static func fill(_ volume: URL, leaving bytes: Int) throws {
        let free = try FileManager.default.attributesOfFileSystem(forPath: volume.path)[.systemFreeSize] as? Int ?? 0
        guard free > bytes else { return }
        try Data(count: free - bytes).write(to: volume.appendingPathComponent("filler"))
    }
}
