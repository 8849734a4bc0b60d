import CameraCore
import Foundation
import HTTPServer

/// What the viewfinder routes need from the camera side. The capture session implements it; the
/// HTTP layer stays independent of how frames are made. Methods throw `HTTPError` for a refusal
/// with a chosen status, or `ValueOutOfRangeError` for a value the device does not support (400).
public protocol ViewfinderBackend: Sendable {
    /// The `/state` JSON object (docs/CLI.md lists its fields).
    func state() async throws -> Data
    /// One JPEG of the preview, with `overlays` drawn.
    func snapshot(overlays: PreviewOverlays) async throws -> Data
    func setExposure(_ command: ExposureCommand) async throws
    /// Sets the shadows control (`DeviceSettings.shadows`); outside −2…2 is a `ValueOutOfRangeError`.
    func setShadows(_ command: ShadowsCommand) async throws
    /// Meters and focuses at the command's point; returns the device point used.
    func meter(_ command: MeterCommand) async throws -> NormalizedPoint
    func setLocks(_ command: LockCommand) async throws
    func zoom(_ command: ZoomCommand) async throws
    func setMetering(_ command: MeteringCommand) async throws
    func setFlicker(_ command: FlickerCommand) async throws
    func setWhiteBalance(_ command: WhiteBalanceCommand) async throws
    func setFocus(_ command: FocusCommand) async throws
    /// Sets the torch's level; turning it on on a camera without one is refused (409).
    func setTorch(_ command: TorchCommand) async throws
    /// Turns local tone mapping on or off.
    func setHDR(_ command: HDRCommand) async throws
    /// Makes the shutter's photos RAW + JPEG pairs, or JPEGs only; on is refused (409) when the
    /// main camera's format is not raw.
    func setRaw(_ command: RawCommand) async throws
    /// Makes the camera facing the command's position the main one (the preview's, the photos'
    /// and the takes'); no such camera is a 400, a take recording a 409.
    func switchCamera(_ command: CameraCommand) async throws
    /// Takes a photo into the library, with the command's flash; returns the asset's JSON.
    func takePhoto(_ command: PhotoCommand) async throws -> Data
    /// Starts a take into the library, ending by itself after `maxDuration` seconds when given,
    /// with `watermark` burnt in; returns the recording's state (`RecordingState`) as JSON.
    /// Refused while a take runs (409).
    func startRecording(maxDuration: Double?, watermark: String?) async throws -> Data
    /// Ends the take and returns its library asset's JSON; refused when none runs (409).
    func stopRecording() async throws -> Data
    /// Pushes the main camera live to `url` (`rtmp://HOST[:PORT]/APP/KEY`) at `bitrateKbps`
    /// (2500 when nil); returns the stream's status as JSON. A bad URL is a 400, a stream running a 409.
    func startLive(url: String, bitrateKbps: Int?) async throws -> Data
    /// Ends the live stream and returns its final status as JSON; refused when none runs (409).
    func stopLive() async throws -> Data
    /// The library's assets as JSON (`{"assets":[…]}`, oldest first).
    func library() async throws -> Data
    /// The file of the catalogued asset `id`; an unknown id is a 404.
    func libraryFile(id: String) async throws -> ServedFile
    /// The thumbnail of the movie `id`; a photo, or a movie without one, is a 404.
    func libraryThumbnail(id: String) async throws -> ServedFile
}
