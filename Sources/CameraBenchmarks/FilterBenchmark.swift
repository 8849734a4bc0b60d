import CameraCore
import CameraFilters
import CameraSimulated
import Foundation

/// `bench filters`: the recording path's filters on a 1080p bgra8 frame on one core — the 3D LUT
/// (33³, tetrahedral) beside FFmpeg's `lut3d` with the same `.cube` and interpolation, and the
/// beauty filter beside OpenCV's guided filter (`cv2.ximgproc.guidedFilter` on the frame's luma,
/// the same window and ε) — each also beside a bare read of the frame, the floor of any pass.
///
/// The frames: backlit-portrait from the simulated camera, and the same size filled with noisy
/// skin, the beauty filter's worst case (no block can be skipped). Each run filters a fresh copy
/// of the frame; only the filter is timed.
public enum FilterBenchmark {
    static let size = PixelSize(width: 1920, height: 1080)
    /// The bench's LUT: a smooth grade that moves every channel (no entry is the identity's).
    static let lut = CubeLUT.lattice(size: 33) { c in SIMD3(c.y * c.y, c.z.squareRoot(), 0.2 + 0.6 * c.x) }
    static let beautyStrength = 0.8

    public static func run(runs: Int, progress: BenchmarkProgress) async throws -> [Benchmark] {
        progress.show("bench filters: rendering a 1080p frame")
        let camera = try SimulatedCamera(scene: .backlitPortrait, format: MeteringBenchmark.format(size.width, size.height, .bgra8))
        try camera.updateControls { $0.exposureDuration = 1.0 / 1000 }
        try camera.startStreaming()
        let portrait = try await camera.nextFrame().buffer
        let skin = try noisySkin()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-bench-filters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cubePath = try writeCube(in: folder)

        progress.show("bench filters: the LUT")
        let lutFilter = try LUTFilter(contentsOfFile: cubePath)
        let lut = try filterMilliseconds(lutFilter, on: portrait, runs: runs)
        progress.show("bench filters: FFmpeg's lut3d")
        let ffmpeg = try await FFmpegLUTPeer(runs: runs).milliseconds(portrait, cube: cubePath, in: folder)
        progress.show("bench filters: the beauty filter")
        let beauty = try BeautyFilter(strength: beautyStrength)
        let beautyPortrait = try filterMilliseconds(beauty, on: portrait, runs: runs)
        let beautySkin = try filterMilliseconds(beauty, on: skin, runs: runs)
        progress.show("bench filters: OpenCV's guided filter")
        let guided = try OpenCVGuidedFilterPeer(runs: min(runs, 10)).milliseconds(portrait)
        progress.show("bench filters: memory read")
        let memory = await MemoryReadPeer.measure([portrait], runs: runs).milliseconds
        progress.clear()
        func row(_ name: String, _ ours: Double, _ peer: String, _ peerValue: Double) -> Benchmark {
            Benchmark(name: name, unit: "ms/frame", ours: ours, peer: peer, peerValue: peerValue, ratio: peerValue / ours)
        }
        return [
            row("lut-1080p-bgra8", lut, "ffmpeg-lut3d", ffmpeg),
            row("lut-1080p-bgra8", lut, "memory-read", memory),
            row("beauty-1080p-portrait", beautyPortrait, "opencv-guided-filter", guided),
            row("beauty-1080p-portrait", beautyPortrait, "memory-read", memory),
            row("beauty-1080p-all-skin", beautySkin, "opencv-guided-filter", guided),
            row("beauty-1080p-all-skin", beautySkin, "memory-read", memory),
        ]
    }

    /// The median milliseconds of `filter` on a copy of `frame`, the copy made outside the timing.
    static func filterMilliseconds(_ filter: some FrameFilter, on frame: PixelBuffer, runs: Int) throws -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<max(runs, 1) {
            let copy = frame.copy()
            times.append(try clock.measure { try filter.apply(to: copy, at: Date()) }.milliseconds)
        }
        return median(times)
    }

    /// The bench's LUT as a `.cube` file in `folder` (created), for our filter and FFmpeg's alike.
    private static func writeCube(in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("grade.cube").path
        let lines = lut.map { String(format: "%.6f %.6f %.6f", $0.x, $0.y, $0.z) }
        try ("LUT_3D_SIZE 33\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A 1080p frame of light skin with luma noise of σ 8, from a fixed seed.
    private static func noisySkin() throws -> PixelBuffer {
        let frame = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        var random = SplitMix64(seed: 22)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let noise = Int(random.next() % 33) - 16
                let colour = [140, 172, 224].map { UInt8(clamping: $0 + noise) }
                for (channel, value) in colour.enumerated() { frame[plane: 0, x: 4 * x + channel, y: y] = value }
                frame[plane: 0, x: 4 * x + 3, y: y] = 255
            }
        }
        return frame
    }
}
