import CameraSystem
import Foundation
@testable import PhotoLibrary
import Testing

/// Stand-ins for the recorder and its validator: any bytes stand for a movie file here.
enum TakeDouble {
    static let facts = MovieFacts(width: 1920, height: 1080, duration: 12, frameCount: 360, videoCodec: "h264",
                                  audioCodec: "aac")
    static let thumbnail = Data(JPEGBytes.make(width: 160, height: 90))

    /// The bytes of a take: `count` of them, varying with `seed`.
    static func bytes(_ count: Int = 40_000, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(($0 * 7 + seed) % 251) }
    }

    /// Writes `bytes` into the reservation's partial file as the recorder does: into the file the
    /// reservation created (the same inode, so its lock stays on the take).
    static func record(_ bytes: [UInt8], into reservation: MovieReservation) throws {
        let handle = try #require(FileHandle(forWritingAtPath: reservation.partialPath))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    /// Waits until no process holds the take's lock, as when its recorder has died. The lock can
    /// outlive the reservation by a moment: a process another test spawns while the reservation
    /// is open holds a copy of its descriptor until it execs.
    static func awaitRecorderGone(_ path: String) throws {
        _ = try FileDescriptor.open(path, .readOnly, operation: "open").lock(waiting: true)
    }

    /// Records `bytes` and saves the take as the recorder does: renamed from the partial name to the final one.
    static func recordAndSave(_ bytes: [UInt8], into reservation: MovieReservation) throws {
        try record(bytes, into: reservation)
        try FileManager.default.moveItem(atPath: reservation.partialPath, toPath: reservation.path)
    }
}

/// A validator that answers `facts` (nil: nothing plays) and keeps the paths it was asked about.
final class ValidatorDouble {
    private(set) var paths: [String] = []
    private let answer: Result<MovieFacts?, Failure>

    init(_ answer: Result<MovieFacts?, Failure>) {
        self.answer = answer
    }

    func validate(_ path: String) throws -> MovieFacts? {
        paths.append(path)
        return try answer.get()
    }
}
