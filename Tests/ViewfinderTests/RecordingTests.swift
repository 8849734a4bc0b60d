import CameraCapture
import CameraCore
import CameraTestSupport
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

extension ServerTests {
    /// `POST /api/record`, `/state`'s `recording` and the movies in `/library` on a real session:
    /// the scripted camera captures only the frames a test allows, so a take holds exactly those.
    @Suite struct Recording {
        /// `/state`'s recording object.
        static func recording(_ state: [String: Any]) -> [String: Any] {
            state["recording"] as? [String: Any] ?? [:]
        }

        @Test func aTakeStoppedBeforeItsFirstFrameIsAConflictNotAServerError() async throws {
            let camera = try await LiveViewfinder.start()
            // The camera's two frames have come: the take will get none until the test allows more.
            _ = try await camera.awaitState { (jsonNumber($0["frame"]) ?? 0) >= 1 }
            #expect(try await camera.json("POST", "/api/record", #"{"action":"start"}"#).status == 200)
            let stopped = try await camera.json("POST", "/api/record", #"{"action":"stop"}"#)
            #expect(stopped.status == 409 && stopped.error.contains("stopped before its first frame"), "\(stopped.status) \(stopped.object)")
            camera.device.allowFrames(2)
            let again = try await camera.json("POST", "/api/record", #"{"action":"start"}"#)
            #expect(again.status == 200, "the next take starts: \(again.object)")
            await camera.stop()
        }

        @Test func aTakeIsRecordedCataloguedAndServedInRanges() async throws {
            let camera = try await LiveViewfinder.start()
            let idle = Self.recording(try await camera.json("GET", "/state").object)
            #expect(idle["isRecording"] as? Bool == false && jsonNumber(idle["frames"]) == 0 && jsonNumber(idle["bytes"]) == 0, "\(idle)")

            let started = try await camera.json("POST", "/api/record", #"{"action":"start"}"#)
            #expect(started.status == 200, "\(started.object)")
            #expect(started.object["isRecording"] as? Bool == true && jsonNumber(started.object["frames"]) == 0, "\(started.object)")
            let again = try await camera.json("POST", "/api/record", #"{"action":"start"}"#)
            #expect(again.status == 409 && again.error == #"already recording — stop that take first ({"action":"stop"})"#, "\(again.object)")

            // The take starts with the first frame after the start (one of the two the camera began with may still come).
            camera.device.allowFrames(12)
            let state = Self.recording(try await camera.awaitState { state in
                let recording = Self.recording(state)
                return (jsonNumber(recording["frames"]) ?? 0) + (jsonNumber(recording["droppedFrames"]) ?? 0) >= 12
            })
            // Bytes count once a fragment is flushed (every second), so these frames may still show none.
            #expect(state["isRecording"] as? Bool == true && jsonNumber(state["bytes"]) != nil, "\(state)")

            let stopped = try await camera.json("POST", "/api/record", #"{"action":"stop"}"#)
            #expect(stopped.status == 200, "\(stopped.object)")
            let ended = Self.recording(try await camera.json("GET", "/state").object)
            let written = try #require(jsonNumber(ended["frames"]).map(Int.init))
            #expect(ended["isRecording"] as? Bool == false && written >= 12 - Int(jsonNumber(ended["droppedFrames"]) ?? 0), "\(ended)")
            // The take spans its written frames and any the encoder's queue dropped between them.
            let elapsed = jsonNumber(ended["elapsed"]) ?? 0, dropped = jsonNumber(ended["droppedFrames"]) ?? 0
            #expect(elapsed >= Double(written) / 30 - 1e-6 && elapsed <= (Double(written) + dropped) / 30 + 1e-6,
                    "\(written) frames at 30 fps: \(ended)")
            let movie = stopped.object
            let id = try #require(movie["id"] as? String)
            #expect(movie["kind"] as? String == "movie" && movie["url"] as? String == "/library/\(id)")
            #expect(jsonNumber(movie["frames"]) == Double(written), "every frame written is in the file: \(movie)")
            #expect(movie["video"] as? String == "h264" && movie["audio"] == nil, "video only without a microphone: \(movie)")
            #expect(movie["stopReason"] as? String == "stopped" && movie["recovered"] as? Bool == false)
            #expect(movie["thumbnailUrl"] as? String == "/library/\(id)/thumbnail")
            #expect(jsonNumber(movie["width"]) == 64 && jsonNumber(movie["height"]) == 48)
            #expect(movie["exposureTime"] == nil)

            let listing = try #require(try await camera.json("GET", "/library").object["assets"] as? [[String: Any]])
            #expect(listing.map { $0["kind"] as? String } == ["movie"] && listing.first?["id"] as? String == id)

            let connection = try RawHTTPConnection(port: camera.viewfinder.server.port)
            let whole = try await connection.request("GET", "/library/\(id)")
            #expect(whole.status == 200 && whole.headers["content-type"] == "video/mp4" && whole.headers["accept-ranges"] == "bytes")
            let size = whole.body.count
            #expect(Double(size) == jsonNumber(movie["byteCount"]))
            #expect(whole.body.subdata(in: 4..<8) == Data("ftyp".utf8), "an MP4 starts with its ftyp box")
            let part = try await connection.request("GET", "/library/\(id)", headers: ["Range": "bytes=100-199"])
            #expect(part.status == 206 && part.headers["content-range"] == "bytes 100-199/\(size)" && part.headers["content-length"] == "100")
            #expect(part.body == whole.body.subdata(in: 100..<200))
            let tail = try await connection.request("GET", "/library/\(id)", headers: ["Range": "bytes=\(size - 10)-"])
            #expect(tail.status == 206 && tail.body == whole.body.suffix(10))
            #expect(try await connection.request("GET", "/library/\(id)", headers: ["Range": "bytes=\(size)-"]).status == 416)
            let thumbnail = try await connection.request("GET", "/library/\(id)/thumbnail")
            #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg" && thumbnail.body.prefix(2) == Data([0xFF, 0xD8]))

            let none = try await camera.json("POST", "/api/record", #"{"action":"stop"}"#)
            #expect(none.status == 409 && none.error == #"no take is being recorded — start one with {"action":"start"}"#, "\(none.object)")
            await camera.stop()
        }

        /// A take `maxDuration` ends is saved with its reason without a stop, and the next take may start.
        @Test func aTakeEndedByItsLimitIsCatalogued() async throws {
            let camera = try await LiveViewfinder.start()
            #expect(try await camera.json("POST", "/api/record", #"{"action":"start","maxDuration":0.2}"#).status == 200)
            camera.device.allowFrames(30)
            let ended = Self.recording(try await camera.awaitState { state in
                Self.recording(state)["isRecording"] as? Bool == false && (jsonNumber(Self.recording(state)["frames"]) ?? 0) > 0
            })
            var movies: [[String: Any]] = []
            #expect(try await eventually {
                movies = try await camera.json("GET", "/library").object["assets"] as? [[String: Any]] ?? []
                return !movies.isEmpty
            }, "the take the limit ended was not catalogued")
            let movie = try #require(movies.first)
            #expect(movie["kind"] as? String == "movie" && movie["stopReason"] as? String == "maximumDuration", "\(movie)")
            #expect(jsonNumber(movie["frames"]) == jsonNumber(ended["frames"]), "\(movie) against \(ended)")
            #expect(try await eventually { try await camera.json("POST", "/api/record", #"{"action":"start"}"#).status == 200 },
                    "a new take may start once the last is catalogued")
            await camera.stop()
        }

        @Test func anOddFrameSizeCannotRecordButStillServesThePreview() async throws {
            let odd = DeviceFormat(size: PixelSize(width: 65, height: 48), pixelFormat: .bgra8, frameRateRanges: [FrameRateRange(minimum: 1, maximum: 30)])
            let camera = try await LiveViewfinder.start(format: odd)
            let state = try await camera.json("GET", "/state")
            #expect(state.status == 200 && state.object["recording"] is NSNull)
            let refused = try await camera.json("POST", "/api/record", #"{"action":"start"}"#)
            #expect(refused.status == 409)
            #expect(refused.error == "the camera runs at 65x48, and H.264 takes even widths and heights only — choose an even --width and --height "
                + "to record or stream")
            await camera.stop()
        }

        @Test func anUnwritableLibraryRefusesTheTakeSayingWhy() async throws {
            let camera = try await LiveViewfinder.start()
            // The library's folder becomes a plain file: nothing can be reserved in it.
            try FileManager.default.removeItem(at: camera.directory)
            try Data("not a folder".utf8).write(to: camera.directory)
            let refused = try await camera.json("POST", "/api/record", #"{"action":"start"}"#)
            #expect(refused.status == 500 && refused.error.hasPrefix("the library cannot take the recording: "), "\(refused.object)")
            #expect(Self.recording(try await camera.json("GET", "/state").object)["isRecording"] as? Bool == false)
            #expect(try await camera.json("POST", "/api/record", #"{"action":"stop"}"#).status == 409)
            await camera.stop()
        }
    }
}
