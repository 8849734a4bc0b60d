import CameraCapture
import CameraCore
import CameraFilters
import CameraTestSupport
import Foundation
import HTTPServer
import PhotoLibrary
import Testing
@testable import Viewfinder

/// A `CameraViewfinder` on 127.0.0.1 over a scripted camera (64x48 bgra8 unless told) that captures
/// the frames a test allows (two to start with), and a second camera when given, with a library in
/// a temporary directory.
struct LiveViewfinder {
    let device: ScriptedDevice
    let second: ScriptedDevice?
    let viewfinder: CameraViewfinder
    let running: Task<Void, any Error>
    let directory: URL

    static func start(capabilities: DeviceCapabilities = ScriptedDevice.standardCapabilities, sceneLuminance: Double = 100,
                      formatFallback: String? = nil, format: DeviceFormat = ScriptedDevice.standardFormats[1],
                      filters: FilterSettings = FilterSettings(), device: ScriptedDevice? = nil,
                      second: ScriptedDevice? = nil) async throws -> LiveViewfinder {
        let device = device ?? ScriptedDevice(formats: [format], capabilities: capabilities, sceneLuminance: sceneLuminance, frameBudget: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-viewfinder-\(UUID().uuidString)")
        let viewfinder = try await CameraViewfinder.start(
            device: device, secondDevice: second, library: try PhotoLibrary(directory: directory),
            configuration: CameraViewfinder.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0), formatFallback: formatFallback,
                                                          filters: filters))
        let running = Task { try await viewfinder.run() }
        try await viewfinder.firstFrame()
        return LiveViewfinder(device: device, second: second, viewfinder: viewfinder, running: running, directory: directory)
    }

    /// `method path` with a JSON body or none: the status and the body as a JSON object.
    func json(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, object: [String: Any], error: String) {
        let response = try await RawHTTPConnection(port: viewfinder.server.port).request(
            method, path, headers: body == nil ? [:] : ["Content-Type": "application/json"], body: body.map { Data($0.utf8) })
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
        return (response.status, object, response.errorMessage ?? "")
    }

    /// The first state of `/events` (one every `CameraViewfinder.eventInterval`) that `accept`
    /// takes; fails after 100 states that it does not.
    func awaitState(_ accept: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let events = try RawHTTPConnection(port: viewfinder.server.port)
        try events.send("GET /events HTTP/1.1\r\nHost: \(events.host)\r\n\r\n")
        #expect(try await events.readHead().status == 200)
        var last: [String: Any] = [:]
        for _ in 0..<100 {
            var line = try await events.readLine()
            while !line.hasPrefix("data: ") { line = try await events.readLine() }
            last = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
            if accept(last) { return last }
        }
        Issue.record("no state on /events was the one awaited; the last: \(last)")
        return last
    }

    func stop() async {
        running.cancel()
        await viewfinder.stop()
        _ = await running.result
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A JSON number as a Double (JSONSerialization gives NSNumber).
func jsonNumber(_ value: Any?) -> Double? {
    (value as? NSNumber).map(\.doubleValue)
}
