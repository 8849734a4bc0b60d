import CameraCore
import CameraFilters
import CameraTestSupport
import Foundation
import Testing

/// `serve --lut …`: the preview shows the filters' look; the camera's analysis does not see it.
@Suite struct PreviewFilterTests {
    /// The mean red, green and blue of the JPEG `data`, decoded by ffmpeg.
    static func meanColour(of data: Data, in directory: URL) async throws -> [Double] {
        let path = directory.appendingPathComponent("snapshot.jpg")
        try data.write(to: path)
        let pixels = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).output
        let count = Double(max(pixels.count / 3, 1))
        return (0..<3).map { channel in Double(stride(from: channel, to: pixels.count, by: 3).reduce(0) { $0 + Int(pixels[$1]) }) / count }
    }

    @Test("A LUT that makes every colour red: the preview's snapshot is red, the plain one is not, and /state's brightness is the same")
    func lutInThePreview() async throws {
        try await withScratchDirectory { directory in
            let cube = directory.appendingPathComponent("red.cube")
            try ("LUT_3D_SIZE 2\n" + String(repeating: "1 0 0\n", count: 8)).write(to: cube, atomically: true, encoding: .utf8)
            var colours: [[Double]] = []
            var brightness: [Double] = []
            for filters in [FilterSettings(), FilterSettings(lutPath: cube.path)] {
                let camera = try await LiveViewfinder.start(filters: filters)
                let snapshot = try await RawHTTPConnection(port: camera.viewfinder.server.port).request("GET", "/snapshot")
                #expect(snapshot.status == 200)
                colours.append(try await Self.meanColour(of: snapshot.body, in: directory))
                brightness.append(try await camera.json("GET", "/state").object["brightness"] as? Double ?? -1)
                await camera.stop()
            }
            #expect(colours[1][0] > 240 && colours[1][1] < 15 && colours[1][2] < 15, "filtered \(colours[1])")
            #expect(abs(colours[0][0] - colours[0][1]) < 40, "plain \(colours[0])")
            #expect(brightness[0] == brightness[1] && brightness[0] > 0, "\(brightness)")
        }
    }

    @Test("Watched, the stream's frames show a halving LUT once, and /snapshot of such a frame is not halved again")
    func lutOnTheWatchedStream() async throws {
        try await withScratchDirectory { directory in
            let cube = directory.appendingPathComponent("half.cube")
            var lines = "LUT_3D_SIZE 2\n"
            for blue in 0...1 { for green in 0...1 { for red in 0...1 { lines += "\(0.5 * Double(red)) \(0.5 * Double(green)) \(0.5 * Double(blue))\n" } } }
            try lines.write(to: cube, atomically: true, encoding: .utf8)
            let plainCamera = try await LiveViewfinder.start()
            let plainSnapshot = try await RawHTTPConnection(port: plainCamera.viewfinder.server.port).request("GET", "/snapshot")
            let plain = try await Self.meanColour(of: plainSnapshot.body, in: directory)[1]
            await plainCamera.stop()

            let camera = try await LiveViewfinder.start(filters: FilterSettings(lutPath: cube.path))
            let stream = try RawHTTPConnection(port: camera.viewfinder.server.port)
            #expect(try await onOwnThread { try stream.openStream("/stream") }.status == 200)
            camera.device.allowFrames(2)
            let part = try await onOwnThread { try stream.nextPart() }
            let streamed = try await Self.meanColour(of: part.body, in: directory)[1]
            // Zebra stripes paint nothing on this mid-grey picture, but miss the plain stream's encoded frame.
            let snapshot = try await RawHTTPConnection(port: camera.viewfinder.server.port).request("GET", "/snapshot?overlay=zebra")
            let snapped = try await Self.meanColour(of: snapshot.body, in: directory)[1]
            await camera.stop()
            #expect(abs(streamed - plain / 2) < 6, "streamed green \(streamed), plain \(plain)")
            #expect(abs(snapped - plain / 2) < 6, "snapshot green \(snapped), plain \(plain)")
        }
    }
}
