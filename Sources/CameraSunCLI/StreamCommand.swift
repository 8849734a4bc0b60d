import CameraCapture
import CameraCore
import CameraMovie
import CameraPhotos
import CameraRecording
import Foundation
import PhotoLibrary

/// `camerasun stream --to rtmp://HOST[:PORT]/APP/KEY`: pushes the camera live to a streaming
/// server until Ctrl-C, SIGTERM or `--duration` (CLI.md), surviving a lost server (it reconnects)
/// and a slow link (whole groups of pictures are dropped, and counted). `--record` keeps the stream in
/// the library as a take, sharing the stream's encode (OBS's "same as stream": one encoder, and a
/// take that goes on through the server's outages). `--json` prints the stream's status
/// (`LiveStreamOutput.Status`) each second and once at the end.
enum StreamCommand {
    static let reportInterval = Duration.seconds(1)
    /// `--bitrate`, kilobits a second: from the encoder's lowest (below it nothing would be sent) to
    /// a gigabit.
    static let bitrateRange = (LiveEncoder.minimumBitRate / 1000)...1_000_000

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let json = arguments.flag("json")
        guard let url = try arguments.option("to") else {
            throw CLIError.usage("stream needs --to rtmp://HOST[:PORT]/APP/KEY — the server's ingest URL with the stream key")
        }
        let kilobits = try arguments.integer("bitrate", in: bitrateRange, unit: "kb/s") ?? 2500
        let capture = try CaptureFlags(&arguments, size: PixelSize(width: 1280, height: 720), realtime: true)
        let duration = try RecordCommand.duration(&arguments, frameRate: capture.frameRate)
        let audio = try AudioFlag(&arguments, source: capture.source)
        let records = arguments.flag("record")
        let directory = try LibraryCommand.libraryDirectory(&arguments)
        try arguments.finish()

        let opened = try capture.openCamera()
        if let note = opened.fallbackNote { terminal.error(note) }
        let encoder = H264EncoderChoice.probed(size: opened.device.activeFormat.size)
        let live = LiveStreamOutput(), watcher = VideoDataOutput()
        do {
            try live.start(url: url, settings: LiveStreamOutput.Settings(bitRate: kilobits * 1000, encoder: encoder.name,
                                                                          sound: audio.sound(seed: capture.seed)))
        } catch {
            throw CLIError.usage("--to: \(error)")
        }
        let take = try records ? recorder(directory) : nil
        let session = CaptureSession()
        // The push connects while the exposure settles; its frames flow once it has.
        try await session.configure { config in
            try config.add(DeviceInput(opened.device))
            try config.add(live).isEnabled = false
            try config.add(watcher)
            if let take { try config.add(take.output) }
        }
        try take?.take.start(limits: MovieRecording.Limits(), sharingEncodeOf: live)
        let ending = session.events()
        let events = live.events
        try await session.start()
        let onTerminal = terminal.stdoutIsTTY && !json
        if onTerminal { terminal.print("streaming \(opened.device.localizedName) to \(live.status.url ?? "the server") — Ctrl-C to stop") }
        let failure: (any Error)?
        do {
            let finishing = records ? "closing the stream and saving its take" : "closing the stream"
            _ = try await Interrupt.runUntilSignalled(finishing: finishing, terminal: terminal) {
                await SettledStart.wait(on: watcher, in: session, for: opened.device)
                await session.connection(for: live)?.isEnabled = true
                try await SessionEnding.run({ try await report(live, events: events, until: duration, json: json, onTerminal: onTerminal,
                                                               terminal: terminal) },
                                            endingWith: ending)
            }
            failure = nil
        } catch {
            failure = error
        }
        let final = await live.stop()
        let reason: MovieRecording.StopReason = failure is CaptureError ? .sourceFailed : .stopped
        let saved = if let take { try await take.output.stopRecording(reason: reason) } else { nil as MovieRecording.Saved? }
        await session.stop()
        if onTerminal { terminal.print("") }
        if let take, let saved {
            let asset = try LibraryCommand.reporting { () throws(PhotoLibraryError) in try take.take.catalogue(saved) }
            if !json { terminal.print("saved \(asset.id): \(saved.path)") }
        }
        if let failure { throw failure }
        if json { return try terminal.json(final) }
        terminal.print(summary(final))
    }

    /// The take kept beside the stream (`--record`), in the library at `directory`.
    private static func recorder(_ directory: URL) throws -> (take: MovieTake, output: MovieFileOutput) {
        let library = try LibraryCommand.open(directory)
        let output = MovieFileOutput()
        return (try LibraryCommand.reporting { () throws(PhotoLibraryError) in try MovieTake(library: library, output: output) }, output)
    }

    /// Reports the stream's status every second (a line on a terminal, a JSON object with
    /// `--json`) until `duration` has passed, or the stream fails, which throws.
    private static func report(_ live: LiveStreamOutput, events: AsyncStream<LiveStreamOutput.Event>, until duration: Double?, json: Bool,
                               onTerminal: Bool, terminal: Terminal) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    if case .failed(let error) = event { throw CLIError.runtime("\(error)") }
                }
            }
            group.addTask {
                let start = ContinuousClock.now
                while duration.map({ ContinuousClock.now - start < .seconds($0) }) ?? true {
                    try await Task.sleep(for: reportInterval)
                    if json { try terminal.json(live.status) }
                    if onTerminal { terminal.status(statusLine(live.status)) }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// "live · 2480 kb/s · 912 sent · 0 dropped · 1 reconnect".
    static func statusLine(_ status: LiveStreamOutput.Status) -> String {
        "\(status.state.rawValue) · \(status.bitRate / 1000) kb/s · \(status.sentFrames) sent · \(status.droppedFrames) dropped · "
            + "\(status.reconnects) reconnect\(status.reconnects == 1 ? "" : "s")"
    }

    private static func summary(_ status: LiveStreamOutput.Status) -> String {
        "streamed \(status.sentFrames) frames to \(status.url ?? "the server"), \(status.droppedFrames) dropped, "
            + "\(status.reconnects) reconnect\(status.reconnects == 1 ? "" : "s")"
    }
}
