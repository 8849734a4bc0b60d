import CameraCore
import CameraEvaluation
import CameraFilters
import Foundation

/// The `opencv-guided-filter` peer of `bench filters`: OpenCV's guided filter
/// (`cv2.ximgproc.guidedFilter`, python3-opencv, one thread) of the frame's 8-bit luma by itself,
/// with the beauty filter's own window radius and ε (scaled to 8-bit luma), timed inside Python:
/// the edge-aware smoothing alone, on every pixel, without the skin weighting.
struct OpenCVGuidedFilterPeer {
    let runs: Int

    func milliseconds(_ frame: PixelBuffer) throws(BenchmarkError) -> Double {
        guard frame.format == .bgra8 else { throw BenchmarkError("opencv-guided-filter peer: bgra8 frames only, not \(frame.format)") }
        let radius = BeautyFilter.radius(height: frame.height), epsilon = Double(BeautyFilter.epsilon) * 255 * 255
        let script = OpenCVScript(label: "OpenCV guided filter", body: Self.body)
        do {
            return try script.run(input: Data(frame.bytes(plane: 0)), arguments: ["\(frame.width)", "\(frame.height)", "\(radius)", "\(epsilon)", "\(runs)"]) { answer in
                Double(String(decoding: answer.lastLine, as: UTF8.self))
            }
        } catch {
            throw BenchmarkError(error.message)
        }
    }

    /// Arguments: frame file (packed bgra), width, height, radius, ε (of 8-bit luma), runs. Prints the median milliseconds.
    static let body = """
        import statistics
        import time

        path, width, height, radius = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        epsilon, runs = float(sys.argv[5]), int(sys.argv[6])
        cv2.setNumThreads(1)
        image = numpy.fromfile(path, dtype=numpy.uint8)[: width * height * 4].reshape(height, width, 4)
        luma = cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
        cv2.ximgproc.guidedFilter(luma, luma, radius, epsilon)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            cv2.ximgproc.guidedFilter(luma, luma, radius, epsilon)
            times.append((time.perf_counter() - start) * 1000)
        print(statistics.median(times))
        """
}
