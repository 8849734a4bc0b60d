import Foundation

/// A Python script run by Debian's python3 with OpenCV (python3-opencv): the one way the
/// evaluation's and the benchmarks' OpenCV peers run. It gets a temporary folder of its own
/// holding its input file, prints its answer as the last line of standard output, and may write
/// files of its own into the folder, which is removed afterwards; standard error goes to a file,
/// so a chatty script can never block on a full pipe. A script starts with `imports`, so that a
/// Python without cv2 or numpy is told apart from one whose script failed.
public struct OpenCVScript: Sendable {
    /// Why the script could not run or answer: what failed, then " — " and what to do.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// What the script has left when it has run.
    public struct Answer {
        /// The last line it printed on standard output.
        public let lastLine: Data
        /// Its temporary folder, with anything it wrote there (gone once `run` returns).
        public let folder: URL
    }

    /// Debian's Python, where apt's python3-opencv lives (a `python3` on PATH may be another one).
    public static let debianPython = "/usr/bin/python3"

    /// The opening of every script: imports cv2 and numpy, or exits with `importFailedStatus`.
    public static let imports = """
        import sys
        try:
            import cv2
            import numpy
        except ImportError as error:
            print(error, file=sys.stderr)
            sys.exit(3)

        """

    /// The exit status of `imports` when cv2 or numpy is missing.
    static let importFailedStatus: Int32 = 3

    /// What the failures call the peer: "OpenCV peer", "OpenCV tone mappers".
    public let label: String
    /// The script after `imports`.
    public let body: String
    /// The interpreter (tests point it elsewhere to see the unavailable path).
    public let python: String

    public init(label: String, body: String, python: String = OpenCVScript.debianPython) {
        self.label = label
        self.body = body
        self.python = python
    }

    /// Runs the script with `input` written to the file it is given as its first argument, then
    /// `arguments`, and returns what `read` makes of its answer; nil from `read` (or an exit status
    /// other than 0) is a failure quoting the last line the script wrote on standard error.
    public func run<Value>(input: Data, arguments: [String], read: (Answer) -> Value?) throws(Failure) -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camerasun-opencv-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("input")
        let errorFile = folder.appendingPathComponent("stderr.txt")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try input.write(to: inputFile)
            try Data().write(to: errorFile)
        } catch {
            throw Failure(message: "\(label): cannot write the frame to \(folder.path): \(error) — check the temporary directory")
        }
        let (status, output) = try launch(arguments: [inputFile.path] + arguments, errorFile: errorFile)
        if status == Self.importFailedStatus { throw unavailable }
        let line = output.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
        guard status == 0, let value = read(Answer(lastLine: line, folder: folder)) else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            let reason = errors.split(separator: "\n").last.map(String.init) ?? "no answer on stdout"
            throw Failure(message: "\(label) failed: \(python) exited with status \(status): \(reason) — "
                + "check that `\(python) -c 'import cv2'` works")
        }
        return value
    }

    /// Starts the interpreter on the script and waits for it: its exit status and its standard output.
    private func launch(arguments: [String], errorFile: URL) throws(Failure) -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.imports + body] + arguments
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

    /// The failure when the interpreter is missing or cannot import cv2 and numpy.
    private var unavailable: Failure {
        Failure(message: "\(label) unavailable: \(python) cannot import cv2 — run make deps (installs python3-opencv)")
    }
}
