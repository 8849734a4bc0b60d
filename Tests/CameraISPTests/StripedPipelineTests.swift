import CameraCore
@testable import CameraISP
import Testing

@Suite("The image pipeline in stripes")
struct StripedPipelineTests {
    /// Two frames of a scene with edges and colour, noisy, at a size whose rows the stripes do not divide evenly.
    static func frames(width: Int, height: Int) throws -> [Frame] {
        try (1...2).map { seed in
            try NoisyFrames.raw(width: width, height: height, gain: 4, seed: UInt64(seed)) { x, y in
                let lit = x > width / 3 && y < 2 * height / 3
                return lit ? SIMD3(0.9, 0.6, 0.3) : SIMD3(0.02, 0.03, 0.05) * Double(1 + (x + y) % 5)
            }
        }
    }

    /// `frames` developed (denoised in space and time) and rendered to `format` by a pipeline on `pool`.
    static func rendered(_ frames: [Frame], on pool: StripePool, format: PixelFormat, toneMapping: ToneMapping) throws -> [UInt8] {
        var pipeline = ImagePipeline(denoising: .temporal, stripes: pool)
        var bytes: [UInt8] = []
        for frame in frames {
            try pipeline.develop(frame)
            let output = try PixelBuffer(format: format, width: frame.buffer.width, height: frame.buffer.height)
            try pipeline.render(RenderGain(subjectLevel: 0.02, ev: 3), toneMapping: toneMapping, into: output)
            for plane in output.planes.indices { bytes += output.bytes(plane: plane) }
        }
        return bytes
    }

    @Test("Stripes on three threads give the one-thread picture byte for byte", arguments: [
        (PixelFormat.bgra8, ToneMapping.local), (.bgra8, .global), (.nv12(.video), .local), (.yuyv422, .local),
    ])
    func stripesMatchOneThread(format: PixelFormat, toneMapping: ToneMapping) throws {
        let frames = try Self.frames(width: 150, height: 106)
        let one = try Self.rendered(frames, on: StripePool(threads: 1), format: format, toneMapping: toneMapping)
        let three = try Self.rendered(frames, on: StripePool(threads: 3), format: format, toneMapping: toneMapping)
        #expect(one.count > 150 * 106)
        #expect(one == three)
    }
}
