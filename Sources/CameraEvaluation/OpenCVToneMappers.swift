import CameraCore
import Foundation

/// OpenCV's three tone mappers — Reinhard and Devlin (2005), Mantiuk et al. (2006), Drago et al. (2003) —
/// run by Debian's python3-opencv on one thread, as quality and speed peers for our own rendering
/// of an HDR frame: each mapper's 8-bit output, to score (e.g. with `TMQI`), and its median time,
/// measured inside Python so the process start and the file transfer are not counted.
///
/// Every parameter is OpenCV's documented default except gamma, 2.2 here as in OpenCV's HDR
/// tutorial (the default 1.0 would leave linear values to be read as encoded ones); the [0, 1]
/// float outputs become 8-bit as the tutorial does it, clipped × 255. The frame goes to Python as a
/// temporary file of its float32 RGB samples, and the three outputs come back in one file of BGR bytes.
public struct OpenCVToneMappers: Sendable {
    /// One mapper's rendering.
    public struct Output: Sendable {
        /// `opencv-reinhard`, `opencv-mantiuk` or `opencv-drago`.
        public let name: String
        /// The 8-bit rendering, bgra8, alpha 255.
        public let image: PixelBuffer
        /// Median milliseconds of one `process` call.
        public let milliseconds: Double
    }

    /// Why the peer could not run: what failed, then " — " and what to do.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The mappers' names, in the order the script runs them and `render` returns them.
    public static let names = ["opencv-reinhard", "opencv-mantiuk", "opencv-drago"]

    /// Debian's Python, where apt's python3-opencv lives (a `python3` on PATH may be another one).
    public static let debianPython = "/usr/bin/python3"

    /// The script's exit status when `import cv2, numpy` fails.
    private static let importFailedStatus: Int32 = 3

    /// Timed runs of each mapper, after one untimed warm-up run.
    public let runs: Int
    /// The gamma every mapper encodes its output with.
    public let gamma: Double
    /// The interpreter that runs the script (tests point it elsewhere to see the unavailable path).
    public let python: String

    public init(runs: Int = 5, gamma: Double = 2.2, python: String = OpenCVToneMappers.debianPython) {
        precondition(runs > 0, "the OpenCV tone mappers need at least one run")
        self.runs = runs
        self.gamma = gamma
        self.python = python
    }

    /// `hdr` rendered by each of the three mappers, in the order of `names`.
    public func render(_ hdr: RadianceImage) throws(Failure) -> [Output] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("camerasun-tonemap-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("radiance.f32")
        let outputFile = directory.appendingPathComponent("renderings.bgr")
        let errorFile = directory.appendingPathComponent("stderr.txt")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try hdr.samples.withUnsafeBytes { Data($0) }.write(to: inputFile)
            try Data().write(to: errorFile)
        } catch {
            throw Failure(message: "OpenCV tone mappers: cannot write the frame to \(directory.path): \(error) — check the temporary directory")
        }
        let arguments = [inputFile.path, outputFile.path, "\(hdr.width)", "\(hdr.height)", "\(runs)", "\(gamma)"]
        let (status, output) = try run(arguments: arguments, errorFile: errorFile)
        if status == OpenCVToneMappers.importFailedStatus { throw unavailable }
        let pixels = hdr.width * hdr.height
        let line = output.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
        guard status == 0, let milliseconds = try? JSONDecoder().decode([Double].self, from: line),
              milliseconds.count == OpenCVToneMappers.names.count,
              let renderings = try? Data(contentsOf: outputFile), renderings.count == 3 * pixels * 3 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            let reason = errors.split(separator: "\n").last.map(String.init) ?? "no answer on stdout"
            throw Failure(message: "OpenCV tone mappers failed: \(python) exited with status \(status): \(reason) — "
                + "check that `\(python) -c 'import cv2'` works")
        }
        return try OpenCVToneMappers.names.enumerated().map { index, name throws(Failure) in
            let bytes = renderings[(index * pixels * 3)..<((index + 1) * pixels * 3)]
            return Output(name: name, image: try bgra8(bgr: bytes, width: hdr.width, height: hdr.height),
                          milliseconds: milliseconds[index])
        }
    }

    /// A bgra8 buffer of packed BGR bytes, alpha 255.
    private func bgra8(bgr: Data, width: Int, height: Int) throws(Failure) -> PixelBuffer {
        let buffer: PixelBuffer
        do {
            buffer = try PixelBuffer(format: .bgra8, width: width, height: height)
        } catch {
            throw Failure(message: "OpenCV tone mappers: no \(width)x\(height) bgra8 buffer: \(error) — use a smaller frame")
        }
        let bytesPerRow = buffer.planes[0].bytesPerRow
        bgr.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            buffer.withUnsafeMutableBytes(plane: 0) { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let from = (y * width + x) * 3, to = y * bytesPerRow + x * 4
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                        target[to + 3] = 255
                    }
                }
            }
        }
        return buffer
    }

    /// Runs the script with `arguments`; its exit status and everything it wrote on stdout.
    private func run(arguments: [String], errorFile: URL) throws(Failure) -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", OpenCVToneMappers.script] + arguments
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
    private var unavailable: Failure {
        Failure(message: "OpenCV tone mappers unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)")
    }

    /// Arguments: radiance file (float32 RGB), output file, width, height, runs, gamma. Writes the
    /// three renderings' BGR bytes one after another; prints one JSON line, the median milliseconds of each.
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

        source, target = sys.argv[1], sys.argv[2]
        width, height, runs, gamma = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
        cv2.setNumThreads(1)
        rgb = numpy.fromfile(source, dtype="<f4").reshape(height, width, 3)
        bgr = numpy.ascontiguousarray(rgb[:, :, ::-1])
        mappers = [cv2.createTonemapReinhard(gamma), cv2.createTonemapMantiuk(gamma), cv2.createTonemapDrago(gamma)]
        times = []
        with open(target, "wb") as output:
            for mapper in mappers:
                result = mapper.process(bgr)
                elapsed = []
                for _ in range(runs):
                    start = time.perf_counter()
                    mapper.process(bgr)
                    elapsed.append(time.perf_counter() - start)
                times.append(statistics.median(elapsed) * 1000)
                output.write(numpy.clip(result * 255, 0, 255).astype(numpy.uint8).tobytes())
        print(json.dumps(times))
        """
}
