import CameraCapture
import CameraCore
import CameraMovie
import CameraPhotos
import CameraRecording
import Foundation
import PhotoLibrary

/// `camerasun record`: records the camera into the library until Ctrl-C, SIGTERM or a limit
/// (CLI.md). The take is written beside its final name, validated, renamed and catalogued; a
/// signal finishes it as cleanly as a limit does, and one left behind by a crash is recovered by
/// `camerasun library repair`.
enum RecordCommand {
    /// The saved take in `--json` output (CLI.md): `size` in bytes, `video` and `audio` the codecs.
    struct AssetReport: Encodable {
        let id: String
        let path: String
        let duration: Double
        let frames: Int
        let size: Int
        let video: String
        let audio: String?
        let stopReason: String
        let recovered: Bool
    }

    struct Report: Encodable {
        let asset: AssetReport
    }

    /// How often the progress line is redrawn.
    static let progressInterval = Duration.seconds(1)

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        let capture = try CaptureFlags(&arguments, size: PixelSize(width: 1280, height: 720), realtime: true)
        let limits = try limits(&arguments, frameRate: capture.frameRate)
        let audio = try AudioFlag(&arguments, source: capture.source)
        let directory = try LibraryCommand.libraryDirectory(&arguments)
        let filters = try FilterFlags(&arguments)
        try arguments.finish()
        let chain = try filters.chain()
        let sound = audio.sound(seed: capture.seed)

        let library = try LibraryCommand.open(directory)
        let movie = MovieFileOutput()
        let take = try LibraryCommand.reporting { () throws(PhotoLibraryError) in try MovieTake(library: library, output: movie) }
        let opened = try capture.openCamera()
        if let note = opened.fallbackNote { terminal.error(note) }
        let events = movie.events
        let session = CaptureSession(), watcher = VideoDataOutput()
        try await session.configure { config in
            try config.add(DeviceInput(opened.device))
            try config.add(movie)
            try config.add(watcher)
        }
        let encoder = H264EncoderChoice.probed(size: opened.device.activeFormat.size)
        let ending = session.events()
        try await session.start()
        let live = terminal.stdoutIsTTY && !json
        if live {
            terminal.print("recording \(opened.device.localizedName) into \(take.path) with \(encoder.summary) — Ctrl-C to stop")
        }
        let (saved, failure): (MovieRecording.Saved, CaptureError?)
        do {
            (saved, failure) = try await record(movie, events: events, ending: ending, live: live, terminal: terminal) {
                await SettledStart.wait(on: watcher, in: session, for: opened.device)
                try Task.checkCancellation()
                try take.start(limits: limits, encoder: encoder, sound: sound, filters: chain)
            }
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
        let facts = MovieFacts(saved.validation)
        let asset = try LibraryCommand.reporting { () throws(PhotoLibraryError) in try take.catalogue(saved) }
        if saved.reason == .diskFull {
            terminal.error("camerasun: the disk under \(saved.path) filled up \(String(format: "%.1f", facts.duration)) s into the take; it is saved "
                + "up to its last whole second — free some space before the next take")
        }
        let report = AssetReport(id: asset.id, path: saved.path, duration: facts.duration, frames: facts.frameCount, size: asset.byteCount,
                                 video: facts.videoCodec, audio: facts.audioCodec, stopReason: saved.reason.rawValue,
                                 recovered: false)
        try printSaved(report, saved: saved, dropped: movie.status.droppedFrames, json: json, live: live, terminal: terminal)
        if let failure {
            throw CLIError.runtime("\(failure) — the take \(asset.id) is saved up to there; check the source and record again")
        }
    }

    /// The saved take: `--json`'s object, or the line naming it, its figures and why it stopped.
    private static func printSaved(_ report: AssetReport, saved: MovieRecording.Saved, dropped: Int, json: Bool, live: Bool,
                                   terminal: Terminal) throws {
        if json { return try terminal.json(Report(asset: report)) }
        if live { terminal.print("") }
        let bytes = ByteCountFormatter.string(fromByteCount: Int64(report.size), countStyle: .file)
        let soundCodec = report.audio.map { " + \($0)" } ?? ""
        let drops = dropped > 0 ? ", \(dropped) frames dropped" : ""
        terminal.print("saved \(report.id): \(saved.path), \(String(format: "%.2f", report.duration)) s, \(report.frames) frames, \(bytes), "
            + "\(report.video) (\(saved.encoder))\(soundCodec) — \(saved.reason.sentence)\(drops)")
    }

    /// `--max-size`, megabytes: a take smaller than a megabyte is hardly begun; a petabyte still fits
    /// a byte count.
    static let maximumSizeRange = 1.0...1_000_000_000
    /// `--min-free`, megabytes.
    static let minimumFreeRange = 0.0...1_000_000_000

    /// `--duration S` of a take or a stream: at least one frame at `frameRate`.
    static func duration(_ arguments: inout ArgumentList, frameRate: Double) throws(CLIError) -> Double? {
        try arguments.number("duration", in: MovieRecording.Limits.durations(frameRate: frameRate), unit: "seconds")
    }

    /// `--duration S`, `--max-size MB` and `--min-free MB`.
    private static func limits(_ arguments: inout ArgumentList, frameRate: Double) throws(CLIError) -> MovieRecording.Limits {
        let duration = try duration(&arguments, frameRate: frameRate)
        let size = try arguments.number("max-size", in: maximumSizeRange, unit: "megabytes")
        let free = try arguments.number("min-free", in: minimumFreeRange, unit: "megabytes")
        let megabyte = 1_048_576.0
        do {
            return try MovieRecording.Limits(maximumDuration: duration, maximumBytes: size.map { Int64($0 * megabyte) },
                                             minimumFreeBytes: free.map { Int64($0 * megabyte) })
        } catch {
            throw .usage("\(error)")
        }
    }

    /// Begins the take (`begin`), then waits for it to end by a limit, or ends it at a signal or
    /// when the camera ends (a file played once) or fails (`sourceFailed`, with the failure),
    /// saving what it recorded; a progress line meanwhile.
    private static func record(_ movie: MovieFileOutput, events: AsyncStream<MovieFileOutput.Event>, ending: AsyncStream<SessionEvent>,
                               live: Bool, terminal: Terminal,
                               begin: @escaping @Sendable () async throws -> Void) async throws -> (MovieRecording.Saved, CaptureError?) {
        typealias Ended = (event: MovieFileOutput.Event, failure: CaptureError?)
        let outcome = try await Interrupt.runUntilSignalled(finishing: "saving the take",
                                                            terminal: terminal) { () async throws -> Ended? in
            try await begin()
            return try await withThrowingTaskGroup(of: Ended?.self) { group in
                group.addTask {
                    for await event in events {
                        if case .started = event { continue }
                        // A take the source's failure ended is reported below, with the failure.
                        if case .finished(let saved) = event, saved.reason == .sourceFailed { continue }
                        return (event, nil)
                    }
                    // The events end early only when a signal cancelled the wait.
                    try Task.checkCancellation()
                    return nil
                }
                group.addTask {
                    switch await SessionEnding.first(of: ending) {
                    case .ended: return (.finished(try await movie.stopRecording()), nil)
                    case .failed(let error): return (.finished(try await movie.stopRecording(reason: .sourceFailed)), error)
                    case nil: throw CancellationError()
                    }
                }
                if live {
                    group.addTask {
                        while true {
                            try await Task.sleep(for: progressInterval)
                            terminal.status(RecordingProgress(status: movie.status).line)
                        }
                    }
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        }
        switch outcome {
        case .signalled where !movie.status.isRecording:
            throw CLIError.runtime("stopped while the exposure settled, before the take began — nothing was recorded")
        case .signalled(let signal): return (try await movie.stopRecording(reason: signal == .interrupt ? .interrupted : .signal), nil)
        case .finished((.finished(let saved), let failure)?): return (saved, failure)
        case .finished((.failed(let error), _)?): throw CLIError.runtime("\(error)")
        case .finished((.started, _)?), .finished(nil):
            throw CLIError.runtime("the recording ended without a word from the recorder — run camerasun library repair")
        }
    }
}
