import CameraCapture
import CameraCore
import CameraMetering
import CameraPhotos
import CameraStills
import Foundation
import PhotoLibrary

/// `camerasun photo`: converges auto-exposure, takes N photos as overlapping requests and writes
/// each into the photo library (CLI.md), reporting each the moment it lands — in the order the
/// photos land, which a burst's overlapping encodes and writes may make differ from the order they
/// were asked for (each line names its request). A photo the library cannot take is named on
/// stderr with the reason and kept in a rescue folder; the others go on, and the exit code is 1.
enum PhotoCommand {
    /// One saved photo in `--json` output. `path` is absolute; `iso` is the EXIF ISO speed (analogue
    /// × digital gain); `flash` the `--flash` mode, `flashFired` whether it fired, `flashPower`
    /// at what power (0…1), `flashOutOfReach` whether even full power left the subject under its
    /// target and `flashSubjectEV` where the subject was expected against that target, in EV (the
    /// three absent when it did not fire); `rawPath` the absolute path of a RAW + JPEG
    /// pair's DNG (absent without `--raw`); `shutterToFileMs` runs from the request to the
    /// fsynced files and committed row, read on the thread that committed it.
    struct AssetReport: Encodable {
        let id: String
        let path: String
        let width: Int
        let height: Int
        let exposureTime: Double
        let iso: Double
        let evBias: Double
        let meteringMode: String
        let flash: String
        let flashFired: Bool
        let flashPower: Double?
        let flashOutOfReach: Bool?
        let flashSubjectEV: Double?
        let rawPath: String?
        let shutterToFileMs: Double
        /// With `--bracket-frames`, each frame of the bracket kept as a photo of its own (those saved).
        let bracketFrames: [AssetReport]?
    }

    struct Report: Encodable {
        /// In the order the photos landed.
        let assets: [AssetReport]
    }

    static func run(_ arguments: ArgumentList, terminal: Terminal) async throws {
        let options = try PhotoOptions(parsing: arguments)
        let opened = try options.capture.openCamera()
        let camera = opened.device
        if let note = opened.fallbackNote { terminal.error(note) }
        let settings = try options.cameraSettings(within: camera.capabilities)
        let library = try LibraryCommand.open(options.libraryDirectory)
        try checkCapacity(of: library, for: options, size: camera.activeFormat.size)

        let running = try await PhotoCamera.start(camera, settings: settings)
        let outcomes: [PhotoSaver.Outcome]
        do {
            // Reported and let go of at once: a frame held through the burst is one of the few
            // buffers the camera's stream (a flash sequence above all) has to work with.
            report(try await exposure(of: running), camera: camera, options: options, terminal: terminal)
            let saver = PhotoSaver(photos: running.photos, library: library)
            outcomes = await saver.takeBurst(count: options.count, settings: options.photoSettings) { index, outcome in
                report(outcome, number: index + 1, of: options.count, in: library, json: options.json, terminal: terminal)
            }
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
        try summarize(outcomes, library: library, json: options.json, terminal: terminal)
    }

    /// The first frame exposed as the photos will be, or the last one seen when auto-exposure was
    /// still searching after `PhotoCamera.exposureFrames`; an error when no frame came at all.
    static func exposure(of running: PhotoCamera) async throws(CLIError) -> ExposureWait {
        guard let wait = await running.waitForExposure() else {
            let camera = running.camera
            throw .runtime("no frame from \(camera.localizedName) within \(PhotoCamera.exposureWait.seconds) s — "
                + "check that the camera works (`camerasun meter --source \(camera.uniqueID) --frames 5`)")
        }
        return wait
    }

    /// Fails before the camera starts when the library's volume cannot take the whole burst at
    /// `PhotoOptions.estimatedBytesPerPixel`, so a full or read-only disk never leaves half a burst.
    private static func checkCapacity(of library: PhotoLibrary, for options: PhotoOptions, size: PixelSize) throws(CLIError) {
        let pixels = Double(size.pixelCount)
        let perPhoto = Int((pixels * PhotoOptions.estimatedBytesPerPixel(quality: options.quality)).rounded(.up))
        // A bracket's frames kept are pictures of their own.
        let picturesPerPhoto = 1 + (options.keepsBracketFrames ? options.bracket?.count ?? 0 : 0)
        do {
            try library.checkCapacity(forBytes: perPhoto * picturesPerPhoto * options.count)
        } catch {
            throw .runtime("cannot take \(options.count) photo\(options.count == 1 ? "" : "s") of \(size) "
                + "(about \(perPhoto) bytes each): \(LibraryCommand.describe(error))")
        }
    }

    /// The exposure the photos start from (not with `--json`); a warning on stderr when it never settled.
    private static func report(_ wait: ExposureWait, camera: any CaptureDevice, options: PhotoOptions, terminal: Terminal) {
        let metadata = wait.frame.metadata
        if !wait.settled {
            terminal.error("camerasun: warning: the exposure had not settled after \(PhotoCamera.exposureFrames) frames "
                + "(metering error \(String(format: "%+.1f", wait.frame.threeA.exposureError)) EV) — taking the photos anyway; "
                + "--shutter S --gain G fixes the exposure")
        }
        guard !options.json else { return }
        terminal.print("\(camera.localizedName), \(camera.activeFormat.size): exposure \(wait.frame.threeA.exposureState.rawValue) at "
            + "\(ShutterSpeed.describe(metadata.exposureDuration)), ISO \(metadata.isoSpeedRating), "
            + "EV \(String(format: "%+.1f", metadata.exposureBias)), \(wait.frame.threeA.meteringMode.commandLineName) metering")
    }

    /// A photo's line as it lands: on stdout when saved (not with `--json`), on stderr when lost.
    private static func report(_ outcome: PhotoSaver.Outcome, number: Int, of count: Int, in library: PhotoLibrary,
                               json: Bool, terminal: Terminal) {
        report(outcome, label: "photo \(number)/\(count)", in: library, json: json, terminal: terminal)
    }

    /// `outcome`'s line under `label`, then its bracket frames' lines.
    private static func report(_ outcome: PhotoSaver.Outcome, label: String, in library: PhotoLibrary, json: Bool, terminal: Terminal) {
        switch outcome {
        case .saved(let saved):
            if !json {
                let exposure = saved.exposure
                terminal.print("\(label): \(saved.asset.path)  \(saved.asset.width)x\(saved.asset.height)  "
                    + "\(ShutterSpeed.describe(MediaTime(seconds: exposure.exposureTime, preferredTimescale: 1_000_000)))  "
                    + "ISO \(Int(exposure.iso))  EV \(String(format: "%+.1f", exposure.evBias))  \(exposure.meteringMode)  "
                    + describe(saved.flash) + "\(milliseconds(saved.shutterToFile)) ms")
            }
            for (index, frame) in saved.bracketFrames.enumerated() {
                report(frame, label: "\(label) frame \(index + 1)/\(saved.bracketFrames.count)", in: library, json: json, terminal: terminal)
            }
        case .notTaken(let error):
            terminal.error("camerasun: error: \(label) was not taken: \(error)")
        case .notSaved(let error, .success(let paths)):
            terminal.error("camerasun: error: \(label) is not in the library \(library.directory.path) "
                + "(\(paths.count == 1 ? "its JPEG is" : "its JPEG and DNG are") kept at \(paths.joined(separator: " and "))): "
                + LibraryCommand.describe(error))
        case .notSaved(let error, .failure(let rescueError)):
            terminal.error("camerasun: error: \(label) is lost: the library \(library.directory.path) refused it "
                + "(\(LibraryCommand.describe(error))) and the rescue copy failed (\(rescueError))")
        }
    }

    /// Prints the JSON report or the summary line, then throws when any photo was not saved.
    private static func summarize(_ outcomes: [PhotoSaver.Outcome], library: PhotoLibrary, json: Bool, terminal: Terminal) throws {
        let saved = outcomes.compactMap { outcome -> PhotoSaver.SavedPhoto? in
            if case .saved(let photo) = outcome { return photo }
            return nil
        }
        if json {
            try terminal.json(Report(assets: saved.map { AssetReport($0, in: library) }))
        } else {
            let times = saved.map(\.shutterToFile)
            let timing = quantile(times, 0.5).map { median in
                "; shutter → file median \(milliseconds(median)) ms, slowest \(milliseconds(times.max() ?? median)) ms"
            } ?? ""
            let counted = saved.count == outcomes.count ? "\(saved.count)" : "\(saved.count) of \(outcomes.count)"
            terminal.print("\(counted) photo\(outcomes.count == 1 ? "" : "s") saved in \(library.directory.path)\(timing)")
        }
        let failed = outcomes.count - saved.count
        if failed > 0 {
            throw CLIError.runtime("\(failed) of \(outcomes.count) photos were not saved in the library — each one's line "
                + "above says why, and where its files were kept when it was taken (\(PhotoSaver.rescueDirectory.path))")
        }
        let frames = saved.flatMap(\.bracketFrames)
        let failedFrames = frames.count { if case .saved = $0 { false } else { true } }
        if failedFrames > 0 {
            throw CLIError.runtime("\(failedFrames) of \(frames.count) bracket frames were not saved in the library — each one's line "
                + "above says why, and where its files were kept (\(PhotoSaver.rescueDirectory.path))")
        }
    }

    /// "flash 23%  " when the flash fired (with a warning when the subject was out of its reach),
    /// nothing when it did not.
    static func describe(_ flash: PhotoFlash) -> String {
        guard let exposure = flash.exposure else { return "" }
        let reach = exposure.isOutOfReach
            ? " (subject out of the flash's reach: \(String(format: "%.1f", -exposure.expectedError)) EV under its target)" : ""
        return "flash \(Int((exposure.power * 100).rounded()))%\(reach)  "
    }

    /// "12.3"
    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration.seconds * 1000)
    }
}

extension PhotoCommand.AssetReport {
    init(_ photo: PhotoSaver.SavedPhoto, in library: PhotoLibrary) {
        id = photo.asset.id
        path = library.fileURL(for: photo.asset).path
        width = photo.asset.width
        height = photo.asset.height
        exposureTime = photo.exposure.exposureTime
        iso = photo.exposure.iso
        evBias = photo.exposure.evBias
        meteringMode = photo.exposure.meteringMode
        flash = photo.flash.mode.rawValue
        flashFired = photo.flash.fired
        flashPower = photo.flash.power
        flashOutOfReach = photo.flash.exposure?.isOutOfReach
        flashSubjectEV = photo.flash.exposure?.expectedError
        rawPath = photo.asset.raw.map { library.directory.appendingPathComponent($0.path).path }
        shutterToFileMs = photo.shutterToFile.seconds * 1000
        let frames = photo.bracketFrames.compactMap { outcome -> PhotoCommand.AssetReport? in
            if case .saved(let frame) = outcome { return PhotoCommand.AssetReport(frame, in: library) }
            return nil
        }
        bracketFrames = photo.bracketFrames.isEmpty ? nil : frames
    }
}
