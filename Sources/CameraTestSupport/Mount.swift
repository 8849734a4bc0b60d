import Foundation

/// Runs `body` with `mount ARGUMENTS MOUNT-POINT` in place (a tmpfs, a read-only bind mount), and
/// unmounts it lazily (nothing still open holds it) once `body` returns or throws. Mounting needs root.
public func withMount<R>(_ arguments: [String], at mountPoint: URL, _ body: () async throws -> R) async throws -> R {
    let mounted = try await runTool("/bin/mount", arguments + [mountPoint.path])
    guard mounted.status == 0 else {
        throw MountFailure(description: "mount \((arguments + [mountPoint.path]).joined(separator: " ")) failed: \(mounted.errors)"
            + " — mounting needs root")
    }
    let result: R
    do {
        result = try await body()
    } catch {
        _ = try? await runTool("/bin/umount", ["--lazy", mountPoint.path])
        throw error
    }
    _ = try? await runTool("/bin/umount", ["--lazy", mountPoint.path])
    return result
}

/// A mount failed; the message has mount's own words.
public struct MountFailure: Error, CustomStringConvertible {
    public let description: String
}
