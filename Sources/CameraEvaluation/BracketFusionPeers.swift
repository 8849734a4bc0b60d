import CameraCore
import Foundation

/// Two exposure fusions of Mertens, Kautz and Van Reeth ("Exposure Fusion", Pacific Graphics 2007)
/// run on one bracket of 8-bit frames, as peers for CameraSun's own fusion: enfuse (Debian's enfuse)
/// and OpenCV's `createMergeMertens` (python3-opencv). Each gives its fused frame, to score with
/// `MEFSSIM` against the bracket, and the milliseconds it took.
///
/// Each runs with its own defaults, pinned: enfuse weighs exposure 1, saturation 0.2, contrast 0 (its
/// documented defaults), OpenCV contrast, saturation and exposure 1 each (its constructor's defaults,
/// the paper's setting), so that each is the fusion its users get. The frames go to enfuse as PPM files
/// and its PPM output comes back; OpenCV gets their BGR bytes and returns its [0, 1] float output
/// clipped × 255 to 8 bits, as OpenCV's HDR tutorial does. Times: enfuse's whole process (reading,
/// fusing, writing), OpenCV's `process` call alone, on one thread.
public struct BracketFusionPeers: Sendable {
    /// Why a peer could not fuse the bracket: what failed, then " — " and what to do.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// One peer's fused frame.
    public struct Output: Sendable {
        /// `enfuse` or `opencv-mertens`.
        public let name: String
        /// The fused frame, bgra8, alpha 255, at the bracket's size.
        public let image: PixelBuffer
        /// Milliseconds the fusion took (see the type's note on what each includes).
        public let milliseconds: Double
    }

    /// The peers' names, in the order `fuse` returns them.
    public static let names = ["enfuse", "opencv-mertens"]

    /// enfuse's weights, its defaults written out so that another version's defaults cannot change them.
    static let enfuseWeights = ["--exposure-weight=1", "--saturation-weight=0.2", "--contrast-weight=0"]

    /// The file the Mertens script writes its fused frame into, in its folder.
    static let fusedFile = "fused.bgr"

    /// The enfuse executable (tests point it elsewhere to see the missing path).
    public let enfuse: String
    private let mertens: OpenCVScript

    public init(enfuse: String = "/usr/bin/enfuse", python: String = OpenCVScript.debianPython) {
        self.enfuse = enfuse
        mertens = OpenCVScript(label: "OpenCV Mertens fusion", body: Self.mertensBody, python: python)
    }

    /// The bracket (two or more frames of one size, any format `rgb8()` reads) fused by each peer, in
    /// the order of `names`.
    public func fuse(_ bracket: [PixelBuffer]) throws(Failure) -> [Output] {
        try Self.validate(bracket)
        return [try fuseWithEnfuse(bracket), try fuseWithOpenCV(bracket)]
    }

    /// Throws unless the bracket has two or more frames, all of the first one's size.
    private static func validate(_ bracket: [PixelBuffer]) throws(Failure) {
        guard let first = bracket.first, bracket.count >= 2 else {
            throw Failure(message: "bracket fusion: \(bracket.count) frame(s) — give a bracket of two or more exposures")
        }
        for (index, frame) in bracket.enumerated() where frame.width != first.width || frame.height != first.height {
            throw Failure(message: "bracket fusion: frame \(index + 1) is \(frame.width)x\(frame.height) but frame 1 is "
                + "\(first.width)x\(first.height) — give the bracket's frames at one size")
        }
    }

    /// enfuse on the frames written as PPM files into a folder of its own, removed afterwards.
    private func fuseWithEnfuse(_ bracket: [PixelBuffer]) throws(Failure) -> Output {
        guard FileManager.default.isExecutableFile(atPath: enfuse) else {
            throw Failure(message: "enfuse peer unavailable: no enfuse at \(enfuse) — run make deps (installs enfuse)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-enfuse-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = bracket.indices.map { folder.appendingPathComponent("frame-\($0 + 1).ppm") }
        let output = folder.appendingPathComponent("fused.ppm"), errorFile = folder.appendingPathComponent("stderr.txt")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (frame, input) in zip(bracket, inputs) { try PortablePixmap.encode(frame).write(to: input) }
            try Data().write(to: errorFile)
        } catch {
            throw Failure(message: "enfuse peer: cannot write the bracket to \(folder.path): \(error) — check the temporary directory")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: enfuse)
        process.arguments = Self.enfuseWeights + ["--output=\(output.path)"] + inputs.map(\.path)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        do {
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        } catch {
            throw Failure(message: "enfuse peer: cannot start \(enfuse): \(error) — run make deps (installs enfuse)")
        }
        process.waitUntilExit()
        let milliseconds = (clock.now - start) / .milliseconds(1)
        guard process.terminationStatus == 0, let data = try? Data(contentsOf: output), let image = PortablePixmap.decode(data) else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            let reason = errors.split(separator: "\n").last.map(String.init) ?? "no readable \(output.lastPathComponent)"
            throw Failure(message: "enfuse peer failed: \(enfuse) exited with status \(process.terminationStatus): \(reason) — "
                + "check that `\(enfuse) --version` runs")
        }
        return Output(name: "enfuse", image: image, milliseconds: milliseconds)
    }

    /// OpenCV's Mertens fusion on the frames' BGR bytes.
    private func fuseWithOpenCV(_ bracket: [PixelBuffer]) throws(Failure) -> Output {
        let width = bracket[0].width, height = bracket[0].height
        let input = bracket.reduce(into: Data()) { $0.append(contentsOf: $1.rgb8()) }
        let arguments = ["\(width)", "\(height)", "\(bracket.count)"]
        do {
            return try mertens.run(input: input, arguments: arguments) { answer -> Output? in
                guard let milliseconds = Double(String(decoding: answer.lastLine, as: UTF8.self)),
                      let fused = try? Data(contentsOf: answer.folder.appendingPathComponent(Self.fusedFile)), fused.count == width * height * 3,
                      let image = try? fused.withUnsafeBytes({ try PixelBuffer.bgra8(packed: $0, width: width, height: height, order: .rgb) })
                else { return nil }
                return Output(name: "opencv-mertens", image: image, milliseconds: milliseconds)
            }
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// Arguments: the frames' RGB bytes one after another, width, height, frame count. Writes the fused
    /// frame's RGB bytes into `fusedFile` beside them; prints the milliseconds of the `process` call.
    static let mertensBody = """
        import os
        import time

        source = sys.argv[1]
        width, height, count = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        cv2.setNumThreads(1)
        rgb = numpy.fromfile(source, dtype=numpy.uint8).reshape(count, height, width, 3)
        frames = [numpy.ascontiguousarray(frame[:, :, ::-1]) for frame in rgb]
        merge = cv2.createMergeMertens(1, 1, 1)
        start = time.perf_counter()
        fused = merge.process(frames)
        elapsed = time.perf_counter() - start
        fused8 = numpy.clip(fused * 255, 0, 255).astype(numpy.uint8)
        numpy.ascontiguousarray(fused8[:, :, ::-1]).tofile(os.path.join(os.path.dirname(source), "\(fusedFile)"))
        print(elapsed * 1000)
        """
}
