@testable import CameraSunCLI
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// `camerasun serve` end to end: the built binary on a free port, driven over HTTP as the page
/// drives it. The simulated camera runs at 160×90 and 15 fps, small enough for a debug build.
@Suite("camerasun serve end to end", .serialized)
struct ServeTests {
    static let smallCamera = ["--width", "160", "--height", "90", "--framerate", "15"]

    @Test("/state has every field of docs/CLI.md and the page's extensions, with their types and ranges")
    func stateFields() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        let connection = try server.connect()
        let (status, state) = try await connection.json("GET", "/state")
        #expect(status == 200)
        let numbers = ["brightness", "linearMean", "evBias", "exposureTime", "sensorExposureTime", "renderGainEV", "iso", "gain",
                       "clippedFraction", "sunFraction", "fps", "drops", "targetBrightness", "zoom"]
        for key in numbers {
            #expect(jsonNumber(state[key]) != nil, "\(key) is not a number in \(state.keys.sorted())")
        }
        for key in ["aeState", "afState", "awbState", "meteringMode", "advice", "adviceZh", "device", "format"] {
            #expect((state[key] as? String)?.isEmpty == false, "\(key) is not a string")
        }
        #expect((0...1).contains(jsonNumber(state["brightness"]) ?? -1))
        #expect(state["hdr"] as? Bool == true)
        #expect(jsonNumber(state["sensorExposureTime"]) == jsonNumber(state["exposureTime"]))
        // The backlit portrait: once the loop has found its subject, /state outlines it.
        var subject = state["subjectRegion"] as? [String: Any]
        _ = try await eventually {
            if subject == nil { subject = try await connection.json("GET", "/state").object["subjectRegion"] as? [String: Any] }
            return subject != nil
        }
        let region = try #require(subject, "no subjectRegion in /state within 30 s")
        let bounds = ["x", "y", "width", "height"].compactMap { jsonNumber(region[$0]) }
        #expect(bounds.count == 4 && bounds.allSatisfy { (0...1).contains($0) } && bounds[2] > 0 && bounds[3] > 0, "\(region)")
        #expect((state["evRange"] as? [Any])?.compactMap(jsonNumber) == [-8, 8])
        #expect((state["zoomRange"] as? [Any])?.compactMap(jsonNumber) == [1, 10])
        let histogram = try #require((state["histogram"] as? [Any])?.compactMap(jsonNumber))
        #expect(histogram.count == 64)
        #expect(abs(histogram.reduce(0, +) - 1) < 1e-6, "the bins are fractions of the samples: \(histogram.reduce(0, +))")
        #expect(state["locks"] as? [String: Bool] == ["ae": false, "af": false, "awb": false])
        #expect(state["meteringMode"] as? String == "sun")
        #expect(state["exposurePoint"] is NSNull)
        #expect(state["focusPoint"] as? [String: Double] == ["x": 0.5, "y": 0.5])
        #expect(state["device"] as? String == "sim:backlit-portrait")
        #expect((state["format"] as? String)?.hasPrefix("160x90 bayer16-rggb12 @ 15 fps, preview 160x90") == true, "\(state["format"] ?? "")")
        #expect(["searching", "converged", "locked"].contains(state["aeState"] as? String ?? ""))
        #expect((state["flicker"] as? [String: Any])?["mode"] as? String == "auto", "anti-flicker is on auto by default")
        #expect((state["whiteBalance"] as? [String: Any])?["mode"] as? String == "auto")
        #expect((state["focus"] as? [String: Any])?["mode"] as? String == "continuous")
        #expect(jsonNumber(state["torch"]) == 0, "the simulated camera has a torch, off")
        for key in ["watchdog", "interruption", "formatFallback"] {
            #expect(state[key] is NSNull, "\(key): \(state[key] ?? "absent")")
        }
        #expect(try await server.interrupt() == 0)
    }

    @Test("The settings flags show in /state, and the setting routes change it; bad values are 400s")
    func cameraSettings() async throws {
        let server = try await ServeProcess.start(Self.smallCamera + ["--flicker", "60", "--awb", "cloudy", "--torch"])
        let connection = try server.connect()
        let state = try await connection.json("GET", "/state").object
        #expect((state["flicker"] as? [String: Any])?["mode"] as? String == "60")
        let balance = try #require(state["whiteBalance"] as? [String: Any])
        #expect(balance["mode"] as? String == "temperature" && jsonNumber(balance["temperature"]) == 7000)
        #expect(jsonNumber(state["torch"]) == 1)

        #expect((try await connection.json("POST", "/api/flicker", #"{"mode":"off"}"#).object["flicker"] as? [String: Any])?["mode"] as? String == "off")
        let incandescent = try await connection.json("POST", "/api/whitebalance", #"{"temperature":2850}"#).object
        #expect(jsonNumber((incandescent["whiteBalance"] as? [String: Any])?["temperature"]) == 2850)
        let tooWarm = try await connection.json("POST", "/api/whitebalance", #"{"temperature":900}"#)
        #expect(tooWarm.status == 400 && (tooWarm.object["error"] as? String)?.contains("2000…12000 K") == true, "\(tooWarm.object)")
        let focused = try await connection.json("POST", "/api/focus", #"{"lensPosition":0.4}"#).object
        #expect((focused["focus"] as? [String: Any])?["mode"] as? String == "manual")
        let lens = try await connection.state { jsonNumber(($0["focus"] as? [String: Any])?["lensPosition"]) == 0.4 }
        #expect(jsonNumber((lens["focus"] as? [String: Any])?["lensPosition"]) == 0.4, "the frames are made at the lens position asked for")
        #expect(jsonNumber(try await connection.json("POST", "/api/torch", #"{"on":false}"#).object["torch"]) == 0)
        #expect(try await connection.json("POST", "/api/torch", #"{"on":"bright"}"#).status == 400)
        #expect(try await server.interrupt() == 0)
    }

    @Test("An exposure bias moves /state's evBias to it; out-of-range values are 400s naming the range; reset returns to 0")
    func exposureRoundTrip() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        let connection = try server.connect()
        let answer = try await connection.json("POST", "/api/exposure", #"{"bias":1}"#)
        #expect(answer.status == 200)
        #expect(answer.object["evRange"] != nil, "a control answers the new /state")
        #expect(jsonNumber(answer.object["evBias"]) == 1, "the answer shows the bias asked for, not the one before: \(answer.object["evBias"] ?? "none")")
        let biased = try await connection.state { abs((jsonNumber($0["evBias"]) ?? 0) - 1) < 0.01 }
        #expect(abs((jsonNumber(biased["evBias"]) ?? 0) - 1) < 0.01, "evBias \(biased["evBias"] ?? "none") did not reach 1")

        let tooFar = try await connection.json("POST", "/api/exposure", #"{"bias":9}"#)
        #expect(tooFar.status == 400)
        #expect((tooFar.object["error"] as? String)?.contains("-8…8") == true, "\(tooFar.object)")
        let tooLong = try await connection.json("POST", "/api/exposure", #"{"mode":"custom","exposureTime":1,"gain":1}"#)
        #expect(tooLong.status == 400)
        #expect((tooLong.object["error"] as? String)?.contains("2e-05…0.25") == true, "\(tooLong.object)")

        #expect(try await connection.json("POST", "/api/meter", #"{"point":{"x":0.2,"y":0.7}}"#).status == 200)
        #expect(try await connection.json("POST", "/api/exposure", #"{"reset":true}"#).status == 200)
        let reset = try await connection.state { abs(jsonNumber($0["evBias"]) ?? 1) < 0.01 }
        #expect(abs(jsonNumber(reset["evBias"]) ?? 1) < 0.01)
        #expect(reset["exposurePoint"] is NSNull)
        #expect(try await server.interrupt() == 0)
    }

    @Test("A tap meters at the device point PreviewGeometry gives for the view, gravity and preview size")
    func meterConvertsViewPoints() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        let connection = try server.connect()
        let taps: [(x: Double, y: Double, width: Double, height: Double, gravity: VideoGravity)] = [
            (422, 407, 1280, 657, .fill), (100, 300, 390, 844, .fill), (200, 150, 400, 400, .fit), (10, 20, 640, 480, .stretch),
        ]
        for tap in taps {
            let body = #"{"view":{"x":\#(tap.x),"y":\#(tap.y),"width":\#(tap.width),"height":\#(tap.height)},"gravity":"\#(tap.gravity)"}"#
            let answer = try await connection.json("POST", "/api/meter", body)
            #expect(answer.status == 200, "\(body): \(answer.object)")
            let geometry = try PreviewGeometry(imageSize: PixelSize(width: 160, height: 90), viewWidth: tap.width, viewHeight: tap.height,
                                               gravity: tap.gravity)
            let expected = try #require(geometry.devicePoint(fromViewPoint: PreviewGeometry.ViewPoint(x: tap.x, y: tap.y)))
            let point = try #require(answer.object["point"] as? [String: Double])
            #expect(abs((point["x"] ?? -1) - expected.x) < 1e-9 && abs((point["y"] ?? -1) - expected.y) < 1e-9,
                    "\(body): answered \(point), PreviewGeometry gives \(expected)")
            let state = try await connection.json("GET", "/state").object
            #expect(state["exposurePoint"] as? [String: Double] == point)
            #expect(state["focusPoint"] as? [String: Double] == point)
        }
        let inBars = try await connection.json("POST", "/api/meter", #"{"view":{"x":200,"y":10,"width":400,"height":400},"gravity":"fit"}"#)
        #expect(inBars.status == 400, "a tap on fit's letterbox bar meters nothing: \(inBars.object)")
        let outside = try await connection.json("POST", "/api/meter", #"{"point":{"x":1.5,"y":0.5}}"#)
        #expect(outside.status == 400)
        #expect((outside.object["error"] as? String)?.contains("0…1") == true, "\(outside.object)")
        #expect(try await server.interrupt() == 0)
    }

    @Test("Locks, zoom and metering mode change /state at once; bad values are 400s")
    func locksZoomAndMetering() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        let connection = try server.connect()
        let locked = try await connection.json("POST", "/api/lock", #"{"ae":true,"af":true,"awb":true}"#)
        #expect(locked.object["locks"] as? [String: Bool] == ["ae": true, "af": true, "awb": true])
        let engine = try await connection.state { $0["aeState"] as? String == "locked" && $0["afState"] as? String == "locked" }
        #expect(engine["aeState"] as? String == "locked" && engine["afState"] as? String == "locked" && engine["awbState"] as? String == "locked")
        let released = try await connection.json("POST", "/api/lock", #"{"ae":false}"#)
        #expect(released.object["locks"] as? [String: Bool] == ["ae": false, "af": true, "awb": true])

        #expect(jsonNumber(try await connection.json("POST", "/api/zoom", #"{"factor":2}"#).object["zoom"]) == 2)
        let tooFar = try await connection.json("POST", "/api/zoom", #"{"factor":20}"#)
        #expect(tooFar.status == 400)
        #expect((tooFar.object["error"] as? String)?.contains("1…10") == true, "\(tooFar.object)")
        #expect(try await connection.json("POST", "/api/zoom", #"{"rampTo":4,"rate":8}"#).status == 200)
        let zoomed = try await connection.state { jsonNumber($0["zoom"]) == 4 }
        #expect(jsonNumber(zoomed["zoom"]) == 4, "the ramp ends exactly on its target")

        for mode in ["average", "centre", "spot", "matrix", "sun"] {
            #expect(try await connection.json("POST", "/api/metering", #"{"mode":"\#(mode)"}"#).object["meteringMode"] as? String == mode)
        }
        #expect(try await connection.json("POST", "/api/metering", #"{"mode":"evaluative"}"#).status == 400)
        #expect(try await server.interrupt() == 0)
    }

    @Test("The shutter adds a library asset; /library lists it by id and serves its JPEG, never by path")
    func photoAndLibrary() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        let connection = try server.connect()
        #expect((try await connection.json("GET", "/library").object["assets"] as? [Any])?.count == 0)
        let photo = try await connection.json("POST", "/api/photo", "{}")
        #expect(photo.status == 200, "\(photo.object)")
        let id = try #require(photo.object["id"] as? String)
        #expect(photo.object["url"] as? String == "/library/\(id)")
        #expect(photo.object["path"] == nil, "the API shows ids, not paths")
        #expect(jsonNumber(photo.object["width"]) == 160 && jsonNumber(photo.object["height"]) == 90)
        #expect(photo.object["meteringMode"] as? String == "sun")
        #expect(jsonNumber(photo.object["exposureTime"]) ?? 0 > 0)

        let assets = try #require(try await connection.json("GET", "/library").object["assets"] as? [[String: Any]])
        #expect(assets.compactMap { $0["id"] as? String } == [id])
        let file = try await connection.request("GET", "/library/\(id)")
        #expect(file.status == 200)
        #expect(file.headers["content-type"] == "image/jpeg")
        #expect(file.body.prefix(2) == Data([0xFF, 0xD8]))
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: server.library.path).filter { $0.hasSuffix("\(id).jpg") }
        #expect(onDisk.count == 1, "the photo is a file in the library: \(onDisk)")

        // The page's flash button: {"flash":"on"} fires it, as the photo's EXIF says; no flash said off.
        let flashed = try await connection.json("POST", "/api/photo", #"{"flash":"on"}"#)
        #expect(flashed.status == 200, "\(flashed.object)")
        let flashedID = try #require(flashed.object["id"] as? String)
        let flash = try #require(flashed.object["flash"] as? [String: Any], "what the flash did: \(flashed.object)")
        #expect(flash["mode"] as? String == "on" && flash["fired"] as? Bool == true, "\(flash)")
        #expect((1.0 / 64...1).contains(jsonNumber(flash["power"]) ?? 0) && flash["outOfReach"] is Bool, "\(flash)")
        #expect(jsonNumber(flash["subjectEV"]) != nil, "\(flash)")
        #expect(photo.object["flash"] == nil || (photo.object["flash"] as? [String: Any])?["fired"] as? Bool == false, "\(photo.object)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: server.library.path)
        let paths = try [id, flashedID].map { asset in
            server.library.appendingPathComponent(try #require(files.first { $0.hasSuffix("\(asset).jpg") })).path
        }
        let exif = try await exiftool(paths)
        #expect(jsonNumber(exif[paths[0]]?["Flash"]) == 0x10, "off, did not fire")
        #expect(jsonNumber(exif[paths[1]]?["Flash"]) == 0x09, "on, fired")
        let badFlash = try await connection.json("POST", "/api/photo", #"{"flash":"bright"}"#)
        #expect(badFlash.status == 400 && (badFlash.object["error"] as? String)?.contains("not off, on or auto") == true, "\(badFlash.object)")

        #expect(try await connection.json("GET", "/library/20000101-000000000-000000000000").status == 404)
        #expect(try await connection.json("GET", "/library/..%2fcatalog.sqlite").status == 400)
        #expect(try await server.interrupt() == 0)
    }

    @Test("/stream sends JPEG parts numbered by frame, with overlays when asked; /snapshot is one JPEG")
    func streamAndSnapshot() async throws {
        let server = try await ServeProcess.start(Self.smallCamera)
        for path in ["/stream", "/stream?overlay=zebra,sun"] {
            let connection = try server.connect()
            let head = try await connection.openStream(path)
            #expect(head.status == 200)
            #expect(head.headers["content-type"]?.hasPrefix("multipart/x-mixed-replace; boundary=") == true)
            var frames: [UInt64] = []
            for _ in 0..<4 {
                let part = try await connection.nextPart()
                #expect(part.headers["content-type"] == "image/jpeg")
                #expect(part.body.prefix(2) == Data([0xFF, 0xD8]) && part.body.suffix(2) == Data([0xFF, 0xD9]))
                frames.append(try #require(part.headers["x-frame-number"].flatMap { UInt64($0) }))
            }
            #expect(frames == frames.sorted() && Set(frames).count == frames.count, "\(path): frames \(frames)")
        }
        let connection = try server.connect()
        let snapshot = try await connection.request("GET", "/snapshot?overlay=sun")
        #expect(snapshot.status == 200 && snapshot.headers["content-type"] == "image/jpeg")
        #expect(snapshot.body.prefix(2) == Data([0xFF, 0xD8]))
        #expect(try await connection.json("GET", "/stream?overlay=rainbow").status == 400)
        #expect(try await server.interrupt() == 0)
    }

    @Test("With a token the printed URL carries it and every route but the page needs it; a non-loopback address gets a generated one")
    func tokens() async throws {
        let given = try await ServeProcess.start(Self.smallCamera + ["--token", "correct-horse-battery"])
        #expect(given.url.hasSuffix("/?token=correct-horse-battery"))
        // A refused request closes its connection (the server reads no body it would not take).
        #expect(try await given.connect().json("POST", "/api/zoom", #"{"factor":1}"#).status == 401)
        let bearer = try await given.connect().request("POST", "/api/zoom", headers: ["Authorization": "Bearer correct-horse-battery",
                                                                             "Content-Type": "application/json"],
                                                  body: Data(#"{"factor":1}"#.utf8))
        #expect(bearer.status == 200)
        #expect(try await given.interrupt() == 0)

        let open = try await ServeProcess.start(Self.smallCamera, listen: "0.0.0.0:0")
        let token = try #require(open.url.split(separator: "=").last)
        #expect(open.url.contains("/?token="))
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "a generated token is 128 random bits in hex: \(open.url)")
        #expect(!open.url.hasPrefix("http://0.0.0.0:"), "the printed URL names an address other machines can open: \(open.url)")
        for path in ["/state", "/snapshot", "/stream", "/library"] {
            #expect(try await open.connect().request("GET", path).status == 401, "\(path) without the token")
        }
        #expect(try await open.connect().request("GET", "/state", headers: ["Authorization": "Bearer \(token)"]).status == 200)
        #expect(try await open.interrupt() == 0)
    }

    @Test("Bad flags are usage errors (exit 2) that say what to do", arguments: [
        (["--listen", "localhost"], "HOST:PORT"), (["--token", "short"], "8 to 256 characters"), (["--width", "0"], "--width"),
    ])
    func badFlags(arguments: [String], mentions: String) async throws {
        let result = try await CameraSunBinary.run(["serve"] + arguments)
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.hasPrefix("camerasun: error: ") && result.stderr.contains(mentions) && result.stderr.contains(" — "), "\(result)")
    }

    @Test("A port in use is a runtime error naming the address")
    func portInUse() async throws {
        let first = try await ServeProcess.start(Self.smallCamera)
        let arguments = ["serve", "--listen", "127.0.0.1:\(first.port)", "--library", first.library.path] + Self.smallCamera
        let result = try await CameraSunBinary.run(arguments)
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.stderr.contains("127.0.0.1:\(first.port)") && result.stderr.contains("choose another port"), "\(result)")
        #expect(try await first.interrupt() == 0)
    }
}

@Suite("serve's terminal output and help")
struct ServeOutputTests {
    @Test("The status line shows the brightness bar, EV, shutter, ISO, fps and viewers")
    func statusLine() {
        let line = ServeCommand.statusLine(brightness: 0.42, evBias: -0.66, exposureTime: 0.002, iso: 100, fps: 29.96, viewers: 2)
        #expect(line == "▕████████░░░░░░░░░░░░▏ 0.42  EV -0.7  1/500 s  ISO 100  30.0 fps  2 viewers")
        #expect(ServeCommand.statusLine(brightness: 0, evBias: 0, exposureTime: 0.01, iso: 50, fps: 0, viewers: 1).hasSuffix("  1 viewer"))
    }

    @Test("The status line warns of an interruption first, else of the exposure watchdog")
    func statusLineWarnings() {
        let watchdog = "frames black for 5.0 s at 0.250000 s·gain — restarted auto-exposure"
        let interrupted = ServeCommand.warning(interruption: "deviceRemoved", watchdog: watchdog)
        #expect(interrupted == "camera interrupted (deviceRemoved)")
        #expect(ServeCommand.warning(interruption: nil, watchdog: watchdog) == "auto-exposure watchdog: \(watchdog)")
        #expect(ServeCommand.warning(interruption: nil, watchdog: nil) == nil)
        let line = ServeCommand.statusLine(brightness: 0.42, evBias: 0, exposureTime: 0.002, iso: 100, fps: 30, viewers: 1, warning: interrupted)
        #expect(line.hasSuffix("  1 viewer  ⚠ camera interrupted (deviceRemoved)"), "\(line)")
    }

    @Test("help lists serve as the default command and help serve documents its flags")
    func help() async throws {
        let overview = try await CameraSunBinary.run(["help"])
        #expect(overview.stdout.contains("serve         the browser viewfinder"), "\(overview)")
        let page = try await CameraSunBinary.run(["help", "serve"])
        #expect(page.exitCode == 0)
        #expect(page.stdout.hasPrefix("usage: camerasun serve"))
        for flag in ["--listen HOST:PORT", "--token T", "--library DIR", "--no-realtime", "port 0"] {
            #expect(page.stdout.contains(flag), "help serve does not mention \(flag)")
        }
    }
}
