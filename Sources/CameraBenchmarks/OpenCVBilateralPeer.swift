import CameraCore
import CameraEvaluation
import Foundation

/// The `opencv-bilateral` peer of `bench tonemap`'s denoise figure: OpenCV's bilateral filter
/// (`cv2.bilateralFilter`, python3-opencv, one thread) of the rendered 8-bit BGR frame, a 9-pixel
/// neighbourhood, colour σ 20 and space σ 4, timed inside Python: an edge-aware denoise of every
/// pixel and channel, the classic cheap one.
struct OpenCVBilateralPeer {
    let runs: Int

    func milliseconds(_ frame: PixelBuffer) throws(BenchmarkError) -> Double {
        guard frame.format == .bgra8 else { throw BenchmarkError("opencv-bilateral peer: bgra8 frames only, not \(frame.format)") }
        let script = OpenCVScript(label: "OpenCV bilateral filter", body: Self.body)
        do {
            return try script.run(input: Data(frame.bytes(plane: 0)), arguments: ["\(frame.width)", "\(frame.height)", "\(runs)"]) { answer in
                Double(String(decoding: answer.lastLine, as: UTF8.self))
            }
        } catch {
            throw BenchmarkError(error.message)
        }
    }

    /// Arguments: frame file (packed bgra), width, height, runs. Prints the median milliseconds.
    static let body = """
        import statistics
        import time

        path, width, height, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        cv2.setNumThreads(1)
        image = numpy.fromfile(path, dtype=numpy.uint8)[: width * height * 4].reshape(height, width, 4)
        bgr = numpy.ascontiguousarray(image[:, :, :3])
        cv2.bilateralFilter(bgr, 9, 20, 4)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            cv2.bilateralFilter(bgr, 9, 20, 4)
            times.append((time.perf_counter() - start) * 1000)
        print(statistics.median(times))
        """
}
