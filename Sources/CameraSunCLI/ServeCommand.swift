import CameraAudio
import CameraCapture
import CameraCore
import CameraMovie
import CameraSystem
import Foundation
import HTTPServer
import PhotoLibrary
import Viewfinder

/// `camerasun serve` (and bare `camerasun`): the browser viewfinder on a camera. Prints the URL to
/// open once the first frame is in, then, on a terminal, one status line updated in place until
/// Ctrl-C, which saves a take still recording and stops the server and the camera cleanly. Takes
/// on the simulated camera carry the simulated microphone's sound, a file's its own; other cameras
/// record video only. Sync marks (`sim:SCENE,syncmarks`) are refused: they would flash the preview
/// every second. With
/// `--source2` a second camera, facing the other way, shows picture-in-picture; `POST /api/camera`
/// makes it the main one, which takes the photos and the takes.
enum ServeCommand {
    /// How often the terminal status line is rewritten.
    static let statusInterval = Duration.milliseconds(500)

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        var arguments = arguments
        let capture = try CaptureFlags(&arguments, size: PixelSize(width: 1280, height: 720), realtime: true)
        let second = try arguments.option("source2").map { (text: String) throws(CLIError) in try SecondSource(parsing: text) }
        let address = try listenAddress(try arguments.option("listen") ?? "127.0.0.1:8080")
        let token = try arguments.option("token").map { (text: String) throws(CLIError) in try accessToken(text) }
        let libraryDirectory = try LibraryCommand.libraryDirectory(&arguments)
        let location = try arguments.location()
        let filters = try FilterFlags(&arguments)
        try arguments.finish()
        _ = try filters.chain()  // bad filter flags are usage errors before the camera opens
        if capture.source.syncMarks || second?.source.syncMarks == true {
            throw CLIError.usage("serve does not take \(SourceSpec.syncMarksOption): the marks would flash the viewfinder every second — "
                + "measure A/V sync with record or stream")
        }

        let opened = try capture.openCamera()
        let camera = opened.device
        if let note = opened.fallbackNote { terminal.error(note) }
        let secondCamera = try second.map { second in try openSecondCamera(second, capture: capture, main: camera) }
        let library = try LibraryCommand.open(libraryDirectory)
        let microphone: (any TimelineSound)? = if case .simulated = capture.source { SimulatedMicrophone(seed: capture.seed) } else {
            try capture.source.fileSound()
        }
        let viewfinder: CameraViewfinder
        do {
            viewfinder = try await CameraViewfinder.start(device: camera, secondDevice: secondCamera, library: library,
                                                          configuration: CameraViewfinder.Configuration(
                                                              address: address, token: token, formatFallback: opened.format.fallbackReason,
                                                              location: location, microphone: microphone, filters: filters.settings))
        } catch let error as HTTPServerError {
            throw CLIError.runtime(error.message)
        }
        let live = terminal.stdoutIsTTY
        let signal: Interrupt.Signal?
        do {
            signal = try await serve(viewfinder, camera: camera, second: secondCamera, library: library, live: live, terminal: terminal)
        } catch {
            await viewfinder.stop()
            throw error
        }
        await viewfinder.stop(reason: signal.map { $0 == .terminate ? .signal : .interrupted } ?? .stopped)
        if live { terminal.print(signal != nil ? "\nstopped" : "") }
    }

    /// Runs `viewfinder` and, once its first frame is in, prints the URL and keeps the status line
    /// up to date, until Ctrl-C or SIGTERM (the signal) or a failure (thrown).
    private static func serve(_ viewfinder: CameraViewfinder, camera: any CaptureDevice, second: (any CaptureDevice)?,
                              library: PhotoLibrary, live: Bool, terminal: Terminal) async throws -> Interrupt.Signal? {
        try await Interrupt.runUntilSignalled(finishing: "stopping the viewfinder and saving any take", terminal: terminal) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await viewfinder.run() }
                group.addTask {
                    while true {
                        try await Task.sleep(for: FreeMemory.trimInterval)
                        FreeMemory.release()
                    }
                }
                group.addTask {
                    try await viewfinder.firstFrame()
                    terminal.print("viewfinder: \(viewfinder.url)")
                    let settings = camera.settings
                    terminal.print("\(camera.localizedName), \(settings.activeFormat.size) @ \(String(format: "%g", settings.frameRate)) fps, "
                        + (second.map { "\($0.localizedName) picture-in-picture (POST /api/camera switches), " } ?? "")
                        + "photos and movies in \(library.directory.path) — Ctrl-C to stop")
                    while true {
                        try await Task.sleep(for: statusInterval)
                        if live, let state = viewfinder.backend.currentState {
                            terminal.status(statusLine(brightness: state.brightness, evBias: state.evBias, exposureTime: state.exposureTime,
                                                       iso: state.iso, fps: state.fps, viewers: viewfinder.viewerCount,
                                                       warning: warning(interruption: state.interruption, watchdog: state.watchdog)))
                        }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }.signal
    }

    /// The `--source2` camera; one that cannot join `main` in the viewfinder (facing the same way,
    /// another size) is a usage error that says why.
    private static func openSecondCamera(_ second: SecondSource, capture: CaptureFlags,
                                         main: any CaptureDevice) throws -> any CaptureDevice {
        let camera = try capture.openSecondCamera(second).device
        do {
            try CameraViewfinder.checkSecondCamera(camera, main: main)
        } catch {
            throw CLIError.usage("--source2: \(error)")
        }
        return camera
    }

    /// "▕████████░░░░░░░░░░░░▏ 0.42  EV +0.0  1/500 s  ISO 50  30.0 fps  2 viewers", then
    /// "  ⚠ " and `warning` when there is one.
    static func statusLine(brightness: Double, evBias: Double, exposureTime: Double, iso: Double, fps: Double, viewers: Int,
                           warning: String? = nil) -> String {
        "▕\(Terminal.bar(brightness))▏ \(String(format: "%.2f", brightness))"
            + "  EV \(String(format: "%+.1f", evBias))"
            + "  \(ShutterSpeed.describe(MediaTime(seconds: exposureTime, preferredTimescale: 1_000_000)))"
            + "  ISO \(Int(iso.rounded()))"
            + "  \(String(format: "%.1f", fps)) fps"
            + "  \(viewers) viewer\(viewers == 1 ? "" : "s")"
            + (warning.map { "  ⚠ \($0)" } ?? "")
    }

    /// What the status line warns of: the camera's interruption (its frames stopped), else the
    /// exposure watchdog's last restart.
    static func warning(interruption: String?, watchdog: String?) -> String? {
        if let interruption { return "camera interrupted (\(interruption))" }
        return watchdog.map { "auto-exposure watchdog: \($0)" }
    }

    /// `--listen HOST:PORT` (port 0 picks a free port).
    private static func listenAddress(_ text: String) throws(CLIError) -> ListenAddress {
        do {
            return try ListenAddress(parsing: text)
        } catch {
            throw .usage("--listen: \(error.message)")
        }
    }

    private static func accessToken(_ text: String) throws(CLIError) -> AccessToken {
        do {
            return try AccessToken(text)
        } catch {
            throw .usage("--token: \(error.message)")
        }
    }
}
