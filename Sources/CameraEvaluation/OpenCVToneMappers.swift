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

    /// The mappers' names, in the order the script runs them and `render` returns them.
    public static let names = ["opencv-reinhard", "opencv-mantiuk", "opencv-drago"]

    /// The file the script writes its renderings into, in its folder.
    static let renderingsFile = "renderings.bgr"

    /// Timed runs of each mapper, after one untimed warm-up run.
    public let runs: Int
    /// The gamma every mapper encodes its output with.
    public let gamma: Double
    private let script: OpenCVScript

    /// `python` runs the script (tests point it elsewhere to see the unavailable path).
    public init(runs: Int = 5, gamma: Double = 2.2, python: String = OpenCVScript.debianPython) {
        precondition(runs > 0, "the OpenCV tone mappers need at least one run")
        self.runs = runs
        self.gamma = gamma
        script = OpenCVScript(label: "OpenCV tone mappers", body: Self.body, python: python)
    }

    /// `hdr` rendered by each of the three mappers, in the order of `names`.
    public func render(_ hdr: RadianceImage) throws(OpenCVScript.Failure) -> [Output] {
        let pixels = hdr.width * hdr.height
        let input = hdr.samples.withUnsafeBytes { Data($0) }
        let arguments = ["\(hdr.width)", "\(hdr.height)", "\(runs)", "\(gamma)"]
        let (renderings, milliseconds) = try script.run(input: input, arguments: arguments) { answer -> (Data, [Double])? in
            guard let milliseconds = try? JSONDecoder().decode([Double].self, from: answer.lastLine),
                  milliseconds.count == Self.names.count,
                  let renderings = try? Data(contentsOf: answer.folder.appendingPathComponent(Self.renderingsFile)),
                  renderings.count == Self.names.count * pixels * 3 else { return nil }
            return (renderings, milliseconds)
        }
        return try Self.names.enumerated().map { index, name throws(OpenCVScript.Failure) in
            let bytes = renderings[(index * pixels * 3)..<((index + 1) * pixels * 3)]
            return Output(name: name, image: try bgra8(bgr: bytes, width: hdr.width, height: hdr.height),
                          milliseconds: milliseconds[index])
        }
    }

    /// A bgra8 buffer of packed BGR bytes, alpha 255.
    private func bgra8(bgr: Data, width: Int, height: Int) throws(OpenCVScript.Failure) -> PixelBuffer {
        do {
            return try bgr.withUnsafeBytes { (bytes) throws(PixelBufferError) in try PixelBuffer.bgra8(packed: bytes, width: width, height: height, order: .bgr) }
        } catch {
            throw OpenCVScript.Failure(message: "OpenCV tone mappers: no \(width)x\(height) bgra8 buffer: \(error) — use a smaller frame")
        }
    }

    /// Arguments: radiance file (float32 RGB), width, height, runs, gamma. Writes the three
    /// renderings' BGR bytes one after another into `renderingsFile` beside the radiance file;
    /// prints one JSON line, the median milliseconds of each.
    static let body = """
        import json
        import os
        import statistics
        import time

        source = sys.argv[1]
        width, height, runs, gamma = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
        cv2.setNumThreads(1)
        rgb = numpy.fromfile(source, dtype="<f4").reshape(height, width, 3)
        bgr = numpy.ascontiguousarray(rgb[:, :, ::-1])
        mappers = [cv2.createTonemapReinhard(gamma), cv2.createTonemapMantiuk(gamma), cv2.createTonemapDrago(gamma)]
        times = []
        with open(os.path.join(os.path.dirname(source), "\(renderingsFile)"), "wb") as output:
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
