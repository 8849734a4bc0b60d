import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
@testable import Viewfinder

/// A camera side that records the commands it receives and answers a small `/state`; its one
/// library asset, `1`, is a synthetic JPEG in a temporary file.
final class FakeBackend: ViewfinderBackend {
    private let recorded = Locked<[String]>([])
    private let bias = Locked(0.0)
    private let photo: URL

    init() throws {
        photo = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-fake-\(UUID().uuidString).jpg")
        try SyntheticJPEG.make().write(to: photo)
    }

    deinit { try? FileManager.default.removeItem(at: photo) }

    /// The overlays of each `/snapshot` asked for.
    let snapshotOverlays = Locked<[PreviewOverlays]>([])

    /// The commands received so far, as text (e.g. `exposure bias(0.5)`).
    var commands: [String] { recorded.withLock { $0 } }

    func state() async throws -> Data {
        try JSONSerialization.data(withJSONObject: ["evBias": bias.withLock { $0 }, "aeState": "converged"], options: .sortedKeys)
    }

    func snapshot(overlays: PreviewOverlays) async throws -> Data {
        snapshotOverlays.withLock { $0.append(overlays) }
        return SyntheticJPEG.make()
    }

    func setExposure(_ command: ExposureCommand) async throws {
        if case .bias(let value) = command {
            let checked = try ValueOutOfRangeError.check(value, in: -8...8, setting: "EV bias", unit: "EV")
            bias.withLock { $0 = checked }
        }
        record("exposure \(command)")
    }

    func meter(_ command: MeterCommand) async throws -> NormalizedPoint {
        record("meter \(command)")
        return NormalizedPoint(x: 0.25, y: 0.75)
    }

    func setLocks(_ command: LockCommand) async throws { record("lock \(command)") }
    func zoom(_ command: ZoomCommand) async throws { record("zoom \(command)") }
    func setMetering(_ command: MeteringCommand) async throws { record("metering \(command.mode.name)") }
    func setFlicker(_ command: FlickerCommand) async throws { record("flicker \(command.mode.rawValue)") }
    func setWhiteBalance(_ command: WhiteBalanceCommand) async throws { record("white balance \(command.mode)") }
    func setFocus(_ command: FocusCommand) async throws { record("focus \(command.mode)") }
    func setTorch(_ command: TorchCommand) async throws { record("torch \(command.level)") }
    func setHDR(_ command: HDRCommand) async throws { record("hdr \(command.on)") }
    func setShadows(_ command: ShadowsCommand) async throws { record("shadows \(command.shadows)") }
    func setRaw(_ command: RawCommand) async throws { record("raw \(command.on)") }
    func switchCamera(_ command: CameraCommand) async throws { record("camera \(command.position.rawValue)") }
    func takePhoto(_ command: PhotoCommand) async throws -> Data {
        record("photo flash \(command.flash)")
        return Data(#"{"id":"1"}"#.utf8)
    }

    func startRecording(maxDuration: Double?, watermark: String?) async throws -> Data {
        record("record start \(maxDuration.map { "\($0) s" } ?? "unlimited") \(watermark.map { "\"\($0)\"" } ?? "no watermark")")
        return Data(#"{"isRecording":true}"#.utf8)
    }

    func stopRecording() async throws -> Data {
        record("record stop")
        return Data(#"{"id":"2","kind":"movie"}"#.utf8)
    }

    func startLive(url: String, bitrateKbps: Int?) async throws -> Data {
        record("live start \(url) \(bitrateKbps.map { "\($0) kb/s" } ?? "default bitrate")")
        return Data(#"{"state":"connecting"}"#.utf8)
    }

    func stopLive() async throws -> Data {
        record("live stop")
        return Data(#"{"state":"stopped"}"#.utf8)
    }

    func library() async throws -> Data { Data(#"{"assets":[{"id":"1"}]}"#.utf8) }

    func libraryFile(id: String) async throws -> ServedFile {
        guard id == "1" else { throw HTTPError.notFound("no asset \(id)") }
        return ServedFile(url: photo, contentType: "image/jpeg")
    }

    func libraryThumbnail(id: String) async throws -> ServedFile {
        throw HTTPError.notFound("asset \(id) has no thumbnail")
    }

    private func record(_ command: String) {
        recorded.withLock { $0.append(command) }
    }
}

/// A viewfinder server on 127.0.0.1 with a free port, the real routes and a fake camera.
struct TestServer {
    let server: HTTPServer
    let backend: FakeBackend
    let preview = MJPEGFeed()
    let events = EventFeed()
    static let page = Data("<!doctype html><title>CameraSun</title>".utf8)

    init(
        token: AccessToken? = nil, maxBodyBytes: Int = 64 * 1024, connectionLimit: Int = 64,
        page: Data = Self.page, sounds: SoundFolder = SoundFolder(directory: URL(fileURLWithPath: "/nonexistent/camerasun/sounds"))
    ) throws {
        backend = try FakeBackend()
        let routes = ViewfinderRoutes(backend: backend, page: page, previews: PreviewFeeds(plain: preview), events: events, sounds: sounds)
        let configuration = HTTPServer.Configuration(
            address: try ListenAddress(host: "127.0.0.1", port: 0), connectionLimit: connectionLimit, maxBodyBytes: maxBodyBytes)
        server = try HTTPServer(configuration: configuration, policy: AccessPolicy(token: token, address: configuration.address), router: routes.router())
    }

    var port: UInt16 { server.port }

    func connect() throws -> RawHTTPConnection {
        try RawHTTPConnection(port: port)
    }

    /// The `Host` header a browser on this machine sends.
    var host: String { "127.0.0.1:\(port)" }
}

/// Valid baseline JPEG files made in the test: an 8×8 mid-grey image, optionally padded with comment
/// segments to the size of a real preview frame (any decoder skips them).
enum SyntheticJPEG {
    static func make(paddedTo size: Int = 0) -> Data {
        var jpeg: [UInt8] = [0xFF, 0xD8]
        var padding = max(0, size - base.count - 2)
        while padding > 4 {
            let length = min(padding - 2, 0xFFFF)
            jpeg += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: 0x20, count: length - 2)
            padding -= length + 2
        }
        return Data(jpeg + base)
    }

    /// Quantisation table of ones, one 8×8 greyscale component, one-code Huffman tables, and one
    /// block: DC difference 0 (mid-grey) then end-of-block.
    private static let base: [UInt8] = {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
        return segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
            + segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
            + segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
            + segment(0xDA, [1, 1, 0x00, 0, 63, 0])
            + [0x3F, 0xFF, 0xD9]
    }()
}
