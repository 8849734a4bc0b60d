import CameraBenchmarks
import Testing

@Suite("bench filters")
struct FilterBenchmarkTests {
    @Test("The LUT beside FFmpeg's lut3d and a memory read, beauty on two frames beside OpenCV's guided filter and a memory read")
    func rowsBesideEachPeer() async throws {
        let rows = try await FilterBenchmark.run(runs: 1, progress: .silent)
        #expect(rows.map(\.name) == ["lut-1080p-bgra8", "lut-1080p-bgra8", "beauty-1080p-portrait", "beauty-1080p-portrait",
                                     "beauty-1080p-all-skin", "beauty-1080p-all-skin"])
        #expect(rows.map(\.peer) == ["ffmpeg-lut3d", "memory-read", "opencv-guided-filter", "memory-read", "opencv-guided-filter", "memory-read"])
        for row in rows {
            let ours = row.ours, peer = try #require(row.peerValue), ratio = try #require(row.ratio)
            #expect(ours > 0 && peer > 0 && row.unit == "ms/frame", "\(row)")
            #expect(abs(ratio - peer / ours) < 1e-12)
        }
    }
}
