import CameraBenchmarks
import CameraEvaluation
import Testing

@Suite("bench tonemap")
struct TonemapBenchmarkTests {
    @Test("Local and global tone mapping of the 1080p frame, each beside OpenCV's three tone mappers on the same frame")
    func rowsBesideEachPeer() async throws {
        let rows = try await TonemapBenchmark.run(runs: 1, progress: .silent)
        #expect(rows.map(\.name) == Array(repeating: "tonemap-1080p-local", count: 3) + Array(repeating: "tonemap-1080p-global", count: 3))
        #expect(rows.map(\.peer) == (OpenCVToneMappers.names + OpenCVToneMappers.names).map(Optional.some))
        for row in rows {
            let ours = row.ours, peer = try #require(row.peerValue), ratio = try #require(row.ratio)
            #expect(ours > 0 && peer > 0 && row.unit == "ms/frame")
            #expect(abs(ratio - peer / ours) < 1e-12)
        }
    }
}
