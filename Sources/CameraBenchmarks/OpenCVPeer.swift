import CameraCore
import CameraEvaluation
import Foundation

/// The `opencv` peer of `bench metering`: the same frame analysis as ours (mean Rec. 709 luma of the
/// encoded values, 16×12 zone means, 256-bin histogram, clipped ≥ 250 and crushed ≤ 5 fractions) done
/// with Debian's python3-opencv on one thread, timed inside Python so the process start and the
/// file read are not counted.
///
/// The frame goes to Python as a temporary file of its bytes, rows packed without padding.
struct OpenCVPeer {
    /// What the script measured and computed (the numbers let tests check it did the same work).
    struct Result: Decodable, Equatable {
        /// Median milliseconds per analysis.
        let milliseconds: Double
        /// Mean 8-bit luma, 0…255.
        let mean: Double
        let clippedFraction: Double
        let crushedFraction: Double
        /// Pixels the histogram counted (width × height when the analysis saw the whole frame).
        let histogramTotal: Int

        enum CodingKeys: String, CodingKey {
            case milliseconds = "ms", mean, clippedFraction = "clipped", crushedFraction = "crushed"
            case histogramTotal = "histogram_total"
        }
    }

    /// Timed runs, after one untimed warm-up run.
    let runs: Int
    private let script: OpenCVScript

    /// `python` runs the script (tests point it elsewhere to see the unavailable path).
    init(runs: Int, python: String = OpenCVScript.debianPython) {
        precondition(runs > 0, "the OpenCV peer needs at least one run")
        self.runs = runs
        script = OpenCVScript(label: "OpenCV peer", body: Self.body, python: python)
    }

    /// Runs the OpenCV analysis of `buffer` (bgra8 or nv12) `runs` times in Python.
    func measure(_ buffer: PixelBuffer) throws(BenchmarkError) -> Result {
        let formatName: String
        switch buffer.format {
        case .bgra8: formatName = "bgra8"
        case .nv12: formatName = "nv12"
        default: throw BenchmarkError("OpenCV peer: no analysis for \(buffer.format.name) frames — use bgra8 or nv12")
        }
        do {
            return try script.run(input: Data(buffer.planes.indices.flatMap { buffer.bytes(plane: $0) }),
                                  arguments: [formatName, "\(buffer.width)", "\(buffer.height)", "\(runs)"]) { answer in
                try? JSONDecoder().decode(Result.self, from: answer.lastLine)
            }
        } catch {
            throw BenchmarkError(error.message)
        }
    }

    /// Arguments: frame file, bgra8|nv12, width, height, runs. Prints one JSON line.
    static let body = """
        import json
        import statistics
        import time

        path, fmt, width, height, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        cv2.setNumThreads(1)
        data = numpy.fromfile(path, dtype=numpy.uint8)
        if fmt == "bgra8":
            image = data[: width * height * 4].reshape(height, width, 4)
        elif fmt == "nv12":
            image = data[: width * height].reshape(height, width)
        else:
            sys.exit("unknown format " + fmt)
        # Rec. 709 luma of B, G, R, A (cv2.COLOR_BGRA2GRAY would use BT.601 weights).
        rec709 = numpy.array([[0.0722, 0.7152, 0.2126, 0.0]], dtype=numpy.float32)

        def analyse():
            luma = cv2.transform(image, rec709) if fmt == "bgra8" else image
            histogram = cv2.calcHist([luma], [0], None, [256], [0, 256])
            mean = cv2.mean(luma)[0]
            zones = cv2.resize(luma, (16, 12), interpolation=cv2.INTER_AREA)
            total = float(histogram.sum())
            clipped = float(histogram[250:].sum()) / total
            crushed = float(histogram[:6].sum()) / total
            return mean, zones, total, clipped, crushed

        analyse()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            mean, zones, total, clipped, crushed = analyse()
            times.append(time.perf_counter() - start)
        print(json.dumps({"ms": statistics.median(times) * 1000, "mean": mean, "clipped": clipped,
                          "crushed": crushed, "histogram_total": int(total)}))
        """
}
