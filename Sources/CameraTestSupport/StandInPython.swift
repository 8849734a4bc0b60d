import Foundation

/// Interpreters that stand in for Debian's python3 where a test needs an OpenCV peer to fail: each
/// a shell script written into a folder the test owns.
public enum StandInPython {
    /// One that runs Debian's python3 without its site packages (`-S` leaves dist-packages, where
    /// apt puts cv2 and numpy, off the module path): it cannot import cv2.
    public static func withoutSitePackages(in folder: URL) throws -> String {
        try script("python3-without-site", "exec /usr/bin/python3 -S \"$@\"", in: folder)
    }

    /// One that writes `errors`, a line each, on standard error and exits with `status`.
    public static func failing(writing errors: [String], status: Int32, in folder: URL) throws -> String {
        try script("python3-failing", (errors.map { "echo '\($0)' >&2" } + ["exit \(status)"]).joined(separator: "\n"), in: folder)
    }

    /// A path in `folder` where no interpreter is.
    public static func missing(in folder: URL) -> String {
        folder.appendingPathComponent("missing-python3").path
    }

    /// `body` as an executable shell script named `name` in `folder`.
    private static func script(_ name: String, _ body: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }
}
