import CameraCore
@testable import CameraEvaluation
import CameraTestSupport
import Foundation
import Testing

/// OpenCV's Reinhard, Mantiuk and Drago tone mappers run by Debian's python3-opencv.
@Suite struct OpenCVToneMappersTests {
    /// 64×48: the left half dark and grey, 0.2 to 1 left to right; the right half bright and orange
    /// (R 1.3, G 1, B 0.6 times 40 to 160, top to bottom).
    private static let scene: RadianceImage = {
        var image = RadianceImage(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                if x < 32 {
                    let value = Float(0.2 + 0.8 * Double(x) / 31)
                    image[x, y] = SIMD3(value, value, value)
                } else {
                    let value = Float(40 + 120 * Double(y) / 47)
                    image[x, y] = SIMD3(1.3 * value, value, 0.6 * value)
                }
            }
        }
        return image
    }()

    /// The mean R, G, B and the Rec. 709 lumas of columns `columns` of a bgra8 buffer.
    private static func colours(_ buffer: PixelBuffer, columns: Range<Int>) -> (mean: SIMD3<Double>, lumas: [Double]) {
        var sum = SIMD3<Double>(), lumas = [Double]()
        for y in 0..<buffer.height {
            for x in columns {
                let rgb = SIMD3(Double(buffer[plane: 0, x: 4 * x + 2, y: y]), Double(buffer[plane: 0, x: 4 * x + 1, y: y]),
                                Double(buffer[plane: 0, x: 4 * x, y: y]))
                sum += rgb
                lumas.append(0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z)
            }
        }
        return (sum / Double(lumas.count), lumas)
    }

    @Test("Each mapper renders the bright half brighter, keeps its colour and the gradients, and is timed")
    func threeRenderings() async throws {
        let outputs = try await onOwnThread { try OpenCVToneMappers(runs: 3).render(Self.scene) }
        #expect(outputs.map(\.name) == ["opencv-reinhard", "opencv-mantiuk", "opencv-drago"])
        for output in outputs {
            let image = output.image
            #expect(image.format == .bgra8 && image.width == 64 && image.height == 48, "\(output.name)")
            let dark = Self.colours(image, columns: 0..<32), bright = Self.colours(image, columns: 32..<64)
            let darkLuma = dark.lumas.reduce(0, +) / Double(dark.lumas.count)
            let brightLuma = bright.lumas.reduce(0, +) / Double(bright.lumas.count)
            #expect(brightLuma > darkLuma + 50, "\(output.name): dark \(darkLuma), bright \(brightLuma)")
            #expect(darkLuma > 10 && brightLuma < 245, "\(output.name): dark \(darkLuma), bright \(brightLuma)")
            // Channels in BGR order both ways: the orange half stays redder than it is blue.
            #expect(bright.mean.x > bright.mean.z + 10, "\(output.name): \(bright.mean)")
            #expect(Set((dark.lumas + bright.lumas).map { Int($0) }).count > 16, "\(output.name): too few levels")
            #expect((0..<48).allSatisfy { y in image[plane: 0, x: 4 * 63 + 3, y: y] == 255 }, "\(output.name): alpha")
            #expect(output.milliseconds > 0 && output.milliseconds.isFinite, "\(output.name): \(output.milliseconds)")
        }
    }

    @Test("A missing interpreter, or one without cv2, is reported as the mappers being unavailable")
    func unavailable() throws {
        try withScratchDirectory { folder in
            for python in [try StandInPython.withoutSitePackages(in: folder), StandInPython.missing(in: folder)] {
                let error = #expect(throws: OpenCVScript.Failure.self) {
                    try OpenCVToneMappers(runs: 1, python: python).render(Self.scene)
                }
                #expect(error?.message == "OpenCV tone mappers unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)")
            }
        }
    }

    @Test("A failing script is reported with its exit status and the last line it wrote on stderr")
    func scriptFailure() throws {
        try withScratchDirectory { folder in
            let failing = try StandInPython.failing(writing: ["first line", "cv2.error: out of memory"], status: 1, in: folder)
            let error = #expect(throws: OpenCVScript.Failure.self) { try OpenCVToneMappers(runs: 1, python: failing).render(Self.scene) }
            #expect(error?.message == "OpenCV tone mappers failed: \(failing) exited with status 1: cv2.error: out of memory — "
                + "check that `\(failing) -c 'import cv2'` works")
        }
    }
}
