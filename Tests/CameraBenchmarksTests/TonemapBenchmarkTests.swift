import CameraBenchmarks
import CameraEvaluation
import Testing

@Suite("bench tonemap")
struct TonemapBenchmarkTests {
    @Test("Local and global tone mapping of the 1080p frame, each beside OpenCV's three tone mappers on the same frame; the denoiser beside OpenCV's bilateral filter; the whole render beside the fastest mapper")
    func rowsBesideEachPeer() async throws {
        let rows = try await TonemapBenchmark.run(runs: 1, progress: .silent)
        #expect(rows.map(\.name) == Array(repeating: "tonemap-1080p-local", count: 3) + Array(repeating: "tonemap-1080p-global", count: 3)
            + ["denoise-1080p-spatial", "denoise-1080p-temporal", "render-1080p-whole"])
        #expect(rows.dropLast().map(\.peer) == (OpenCVToneMappers.names + OpenCVToneMappers.names + ["opencv-bilateral", "opencv-bilateral"]).map(Optional.some))
        for row in rows {
            let ours = row.ours, peer = try #require(row.peerValue), ratio = try #require(row.ratio)
            // The denoisers' figures are each a difference of two timings (develop with it less without it), which
            // noise may take below zero in one run: the spatial one read −12.3 ms in a clean clone's loaded pass.
            #expect((ours > 0 || row.name.hasPrefix("denoise-1080p-")) && peer > 0 && row.unit == "ms/frame", "\(row)")
            #expect(abs(ratio - peer / ours) < 1e-12)
        }
        // The whole render's peer is the fastest of the three mappers in the same run.
        let whole = try #require(rows.last), mappers = rows.prefix(3)
        let fastest = try #require(mappers.min { ($0.peerValue ?? .infinity) < ($1.peerValue ?? .infinity) })
        #expect(whole.peer == fastest.peer && whole.peerValue == fastest.peerValue)
    }
}
