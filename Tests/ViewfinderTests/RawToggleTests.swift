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
    /// The RAW toggle (`POST /api/raw`, `/state`'s `raw`): refused with its reason on a camera whose
    /// format is not raw; on the simulated camera's raw frames, the shutter's photos become RAW +
    /// JPEG pairs in the library.
    @Suite struct RawToggle {
        static let unavailable = "RAW needs the camera's raw frames, and this camera's format bgra8 is not raw — "
            + "choose a raw (bayer16) format, or take JPEG photos"

        @Test func aCameraThatIsNotRawShowsWhyAndRefusesOn() async throws {
            let camera = try await LiveViewfinder.start()
            let state = try await camera.json("GET", "/state").object
            #expect(state["raw"] as? NSDictionary == ["on": false, "unavailable": Self.unavailable], "\(state["raw"] ?? "absent")")
            let on = try await camera.json("POST", "/api/raw", #"{"on":true}"#)
            #expect(on.status == 409 && on.error == Self.unavailable, "\(on.object)")
            let off = try await camera.json("POST", "/api/raw", #"{"on":false}"#)
            #expect(off.status == 200 && (off.object["raw"] as? [String: Any])?["on"] as? Bool == false)
            let photo = try await camera.json("POST", "/api/photo", #"{"raw":true}"#)
            #expect(photo.status == 409 && photo.error.contains("format bgra8 is not raw"), "\(photo.object)")
            await camera.stop()
        }

        @Test func onTheSimulatedCamerasRawFramesTheShutterTakesPairs() async throws {
            let format = DeviceFormat(size: PixelSize(width: 160, height: 90), pixelFormat: .bayer16(.rggb, significantBits: 12),
                                      frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
            let device = try SimulatedCamera(scene: .grayCard, format: format)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-raw-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let library = try PhotoLibrary(directory: directory)
            let viewfinder = try await CameraViewfinder.start(
                device: device, library: library,
                configuration: CameraViewfinder.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0)))
            let running = Task { try await viewfinder.run() }
            try await viewfinder.firstFrame()
            let port = viewfinder.server.port
            func json(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, object: [String: Any]) {
                let response = try await RawHTTPConnection(port: port).request(
                    method, path, headers: body == nil ? [:] : ["Content-Type": "application/json"], body: body.map { Data($0.utf8) })
                return (response.status, try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], "\(response.text)"))
            }

            #expect(try await json("GET", "/state").object["raw"] as? NSDictionary == ["on": false, "unavailable": NSNull()])
            let on = try await json("POST", "/api/raw", #"{"on":true}"#)
            #expect(on.status == 200 && on.object["raw"] as? NSDictionary == ["on": true, "unavailable": NSNull()], "\(on.object)")
            let pair = try await json("POST", "/api/photo")
            #expect(pair.status == 200, "\(pair.object)")
            let jpegOnly = try await json("POST", "/api/photo", #"{"raw":false}"#)
            #expect(jpegOnly.status == 200 && jpegOnly.object["rawByteCount"] == nil, "\(jpegOnly.object)")
            // The page's bracket button: a bracketed photo through the same route; a bracket of one frame is refused, named.
            let bracketed = try await json("POST", "/api/photo", #"{"raw":false,"bracket":[-2,0,2]}"#)
            #expect(bracketed.status == 200, "\(bracketed.object)")
            let single = try await json("POST", "/api/photo", #"{"bracket":[0]}"#)
            #expect(single.status == 400 && "\(single.object)".contains("a bracket of 1 frame"), "\(single.object)")
            running.cancel()
            await viewfinder.stop()
            _ = await running.result

            let assets = try library.list()
            #expect(assets.count == 3)
            let merged = try #require(assets.first { $0.id == bracketed.object["id"] as? String })
            let exif = try await ExifTool.read(Array(try Data(contentsOf: library.fileURL(for: merged))))
            #expect(exif["CompositeImageCount"] as? String == "3 3", "\(exif)")
            let raw = try #require(assets.first { $0.id == pair.object["id"] as? String }?.raw, "the toggle's photo is a pair")
            #expect(jsonNumber(pair.object["rawByteCount"]) == Double(raw.byteCount))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(raw.path).path))
            #expect(assets.first { $0.id == jpegOnly.object["id"] as? String }?.raw == nil)
            #expect(try library.verify().isClean)
        }
    }
}
