import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// The README's scale-out path as a user runs it: two cameras, each one `camerasun stream` command,
/// pushing to nginx with docs/scale-out-nginx.conf, which serves each as HLS to viewers over HTTP.
@Suite("Scale-out: cameras → nginx-rtmp → HLS", .serialized)
struct ScaleOutTests {
    @Test("two cameras' streams become two HLS playlists over HTTP, their segments H.264 that ffprobe reads")
    func twoCamerasAsHLS() async throws {
        try await withScratchDirectory { folder in
            let server = try await ScaleOutExample(in: folder)
            let cameras = ["door", "window"]
            let pushes = try cameras.map { camera in
                try CameraSunBinary.launch(["stream", "--to", server.url(camera: camera), "--duration", "8", "--audio", "none",
                                            "--width", "640", "--height", "360"])
            }
            do {
                for camera in cameras {
                    // A playlist lists its segments once the first one (2 s) is cut.
                    var playlist = ""
                    let listed = try await eventually(timeout: .seconds(30)) {
                        let response = try? await RawHTTPConnection(port: server.httpPort).request("GET", server.playlistPath(camera: camera))
                        playlist = response?.status == 200 ? response?.text ?? "" : ""
                        return playlist.contains(".ts")
                    }
                    #expect(listed && playlist.hasPrefix("#EXTM3U"), "\(camera): \(playlist)")
                    let segment = try #require(playlist.split(separator: "\n").first { $0.hasSuffix(".ts") }, "\(playlist)")
                    let response = try await RawHTTPConnection(port: server.httpPort).request("GET", "/hls/\(segment)")
                    #expect(response.status == 200 && response.headers["content-type"] == "video/mp2t", "\(response.headers)")
                    let file = folder.appendingPathComponent("\(camera).ts")
                    try response.body.write(to: file)
                    let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width",
                                                                 "-of", "csv=p=0", file.path])
                    let stream = String(decoding: probe.output, as: UTF8.self)
                    #expect(stream.hasPrefix("h264,640"), "\(camera): \(stream) \(probe.errors)")
                }
            } catch {
                for push in pushes where push.isRunning { push.terminate() }
                try await server.stop()
                throw error
            }
            for push in pushes { await onOwnThread { push.waitUntilExit() } }
            #expect(pushes.map(\.terminationStatus) == [0, 0])
            try await server.stop()
        }
    }
}
