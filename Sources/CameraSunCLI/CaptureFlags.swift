import CameraCapture
import CameraCore
import CameraSimulated

/// The capture flags `meter`, `photo` and `serve` share (CLI.md, "Common capture flags"): the
/// source, the format asked for, the simulated camera's noise seed and its pacing. Each command
/// gives its own defaults.
struct CaptureFlags {
    let source: SourceSpec
    /// bgra8 at `--width`×`--height`, with frame rates up to `--framerate` (at least 30).
    let format: DeviceFormat
    let frameRate: Double?
    let seed: UInt64
    let realtime: Bool

    /// Takes the flags out of `arguments`.
    init(_ arguments: inout ArgumentList, size: PixelSize, frameRate defaultFrameRate: Double? = nil, realtime defaultRealtime: Bool) throws(CLIError) {
        source = try arguments.option("source").map { (text: String) throws(CLIError) in try SourceSpec(parsing: text) } ?? .defaultSpec
        let width = try arguments.positiveInt("width") ?? size.width
        let height = try arguments.positiveInt("height") ?? size.height
        frameRate = try arguments.double("framerate") ?? defaultFrameRate
        seed = try arguments.seed()
        realtime = arguments.toggle("realtime") ?? defaultRealtime
        format = DeviceFormat(size: PixelSize(width: width, height: height), pixelFormat: .bgra8,
                              frameRateRanges: [FrameRateRange(minimum: 1, maximum: max(frameRate ?? 30, 30))])
    }

    /// The camera the flags describe.
    func openCamera() throws -> SimulatedCamera {
        try source.openCamera(format: format, frameRate: frameRate, seed: seed, pacing: realtime ? .realtime : .virtual)
    }
}
