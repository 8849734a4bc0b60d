import CameraCore
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

    /// Debian's Python, where apt's python3-opencv lives (a `python3` on PATH may be another one).
    static let debianPython = "/usr/bin/python3"

    /// The script's exit status when `import cv2, numpy` fails.
    private static let importFailedStatus: Int32 = 3

    /// Timed runs, after one untimed warm-up run.
    let runs: Int
    /// The interpreter that runs the script (tests point it elsewhere to see the unavailable path).
    let python: String

    init(runs: Int, python: String = OpenCVPeer.debianPython) {
        precondition(runs > 0, "the OpenCV peer needs at least one run")
        self.runs = runs
        self.python = python
    }

    /// Runs the OpenCV analysis of `buffer` (bgra8 or nv12) `runs` times in Python.
    func measure(_ buffer: PixelBuffer) throws(BenchmarkError) -> Result {
        let formatName: String
        switch buffer.format {
        case .bgra8: formatName = "bgra8"
        case .nv12: formatName = "nv12"
        default: throw BenchmarkError("OpenCV peer: no analysis for \(buffer.format.name) frames — use bgra8 or nv12")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("camerasun-opencv-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let frameFile = directory.appendingPathComponent("frame.raw")
        let errorFile = directory.appendingPathComponent("stderr.txt")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(buffer.planes.indices.flatMap { buffer.bytes(plane: $0) }).write(to: frameFile)
            try Data().write(to: errorFile)
        } catch {
            throw BenchmarkError("OpenCV peer: cannot write the frame to \(directory.path): \(error) — check the temporary directory")
        }
        let (status, output) = try run(arguments: [frameFile.path, formatName, "\(buffer.width)", "\(buffer.height)", "\(runs)"],
                                       errorFile: errorFile)
        if status == OpenCVPeer.importFailedStatus { throw unavailable }
        let line = output.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
        guard status == 0, let result = try? JSONDecoder().decode(Result.self, from: line) else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            let reason = errors.split(separator: "\n").last.map(String.init) ?? "no answer on stdout"
            throw BenchmarkError("OpenCV peer failed: \(python) exited with status \(status): \(reason) — "
                + "check that `\(python) -c 'import cv2'` works")
        }
        return result
    }

    /// Runs the script with `arguments`; its exit status and everything it wrote on stdout.
    private func run(arguments: [String], errorFile: URL) throws(BenchmarkError) -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", OpenCVPeer.script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        } catch {
            throw unavailable
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// The error when the interpreter is missing or cannot import cv2 and numpy.
    private var unavailable: BenchmarkError {
        BenchmarkError("OpenCV peer unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)")
    }

    /// Arguments: frame file, bgra8|nv12, width, height, runs. Prints one JSON line.
    static let script = """
        import sys
        try:
            import cv2
            import numpy
        except ImportError as error:
            print(error, file=sys.stderr)
            sys.exit(3)
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
