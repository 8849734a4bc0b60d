import CameraCapture
import CameraCore
import CameraSimulated
import CameraTestSupport
import Foundation
import HTTPServer
import PhotoLibrary
import Testing
@testable import Viewfinder

extension ServerTests {
    /// `/state`'s flicker on the simulated office under 50 Hz mains: the same frequency in
    /// `detected`, in the mode's units and in the advice, and still reported once auto's
    /// flicker-safe exposures leave no bands to see.
    @Suite struct FlickerState {
        @Test func theOfficesFlickerIsFiftyHertzInStateAndAdviceAndStaysReported() async throws {
            let format = DeviceFormat(size: PixelSize(width: 96, height: 120), pixelFormat: .bgra8,
                                      frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
            let device = try SimulatedCamera(scene: .flickerOffice, format: format)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-flicker-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let viewfinder = try await CameraViewfinder.start(
                device: device, library: try PhotoLibrary(directory: directory),
                configuration: CameraViewfinder.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0)))
            let running = Task { try await viewfinder.run() }
            defer { running.cancel() }
            try await viewfinder.firstFrame()
            func state() async throws -> [String: Any] {
                let response = try await RawHTTPConnection(port: viewfinder.server.port).request("GET", "/state")
                return try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)")
            }
            var seen: [String: Any] = [:]
            let detected = try await eventually {
                seen = try await state()
                return (seen["flicker"] as? [String: Any])?["detected"] is NSNumber
            }
            #expect(detected, "\(seen["flicker"] ?? "absent")")
            #expect(seen["flicker"] as? NSDictionary == ["mode": "auto", "detected": 50], "\(seen["flicker"] ?? "absent")")
            #expect((seen["advice"] as? String)?.contains("50 Hz light flicker") == true, "\(seen["advice"] ?? "absent")")
            // Thirty frames on, the exposures are whole 10 ms periods: no bands, the flicker still reported.
            let frame = (seen["frame"] as? NSNumber)?.intValue ?? 0
            var later: [String: Any] = [:]
            _ = try await eventually {
                later = try await state()
                return ((later["frame"] as? NSNumber)?.intValue ?? 0) >= frame + 30
            }
            #expect(later["flicker"] as? NSDictionary == ["mode": "auto", "detected": 50], "\(later["flicker"] ?? "absent")")
            #expect(((later["exposureTime"] as? NSNumber)?.doubleValue ?? 0) * 100 >= 0.999, "\(later["exposureTime"] ?? "absent") s")
        }
    }
}
