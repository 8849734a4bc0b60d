import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// A second Ctrl-C while a take is being finished, as an impatient user or `timeout` (which signals
/// the process and its group) sends it: the take is still saved, never left for `repair`. The
/// release binary, whose real-time camera keeps up on a loaded machine.
@Suite("Signals while a take is finished", .serialized,
       .enabled(if: ServeProcess.releaseBinary != nil, "needs CAMERASUN_RELEASE_BINARY (make test sets it)"))
struct SignalEndToEndTests {
    /// Files a take leaves behind when it was not finished: the half-written movie and its reserved room.
    static func leftovers(in library: URL) -> [String] {
        let files = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.map(\.lastPathComponent).filter { $0.hasSuffix(".partial") || $0.hasSuffix(".room") }
    }

    /// Whether process `pid` runs with a SIGINT sent to it still pending (not yet read by its
    /// handler), in the process's set or a thread's (libdispatch passes a signal a thread caught
    /// on to its manager thread); nil once it has ended. Two signals of one kind pending at once
    /// are one signal (POSIX), so a second Ctrl-C can be answered only when the first was read.
    static func interruptPending(in pid: Int32) -> Bool? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var pending = false
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "State", parts[1].hasPrefix("Z") { return nil }
                if parts[0] == "SigPnd" || parts[0] == "ShdPnd", let set = UInt64(parts[1], radix: 16) {
                    pending = pending || set & (1 << UInt64(SIGINT - 1)) != 0
                }
            }
        }
        return pending
    }

    @Test("record: two SIGINTs 10 ms apart once the take is on the disk save it with its JSON, 10 runs of 10")
    func recordDoubleInterrupt() async throws {
        let binary = try #require(ServeProcess.releaseBinary)
        try await withScratchDirectory { directory in
            var saved = 0, answered = 0
            for run in 1...10 {
                let library = directory.appendingPathComponent("Library\(run)")
                let output = directory.appendingPathComponent("stdout\(run)"), errors = directory.appendingPathComponent("stderr\(run)")
                _ = FileManager.default.createFile(atPath: output.path, contents: nil)
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                let process = Process()
                process.executableURL = binary
                // The default 1280×720: its take takes ~60 ms to finish, time for the second Ctrl-C to come while it does.
                process.arguments = ["record", "--library", library.path, "--json"]
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = try FileHandle(forWritingTo: output)
                process.standardError = try FileHandle(forWritingTo: errors)
                try process.run()
                #expect(try await RecordEndToEndTests.firstFragmentWritten(in: library), "run \(run): the take never reached the disk")
                kill(process.processIdentifier, SIGINT)
                usleep(10_000)
                // The line is due when the first signal was read and the take is still being finished (its JSON not out).
                let answerable = Self.interruptPending(in: process.processIdentifier) == false
                    && (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) == 0
                kill(process.processIdentifier, SIGINT)
                #expect(try await eventually(timeout: .seconds(60)) { !process.isRunning }, "run \(run): still running a minute on")
                process.waitUntilExit()

                let printed = String(decoding: try Data(contentsOf: output), as: UTF8.self)
                let complaint = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
                let object = try? JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
                let asset = object?["asset"] as? [String: Any]
                let path = asset?["path"] as? String
                let whole = process.terminationReason == .exit && process.terminationStatus == 0 && asset?["stopReason"] as? String == "interrupted"
                    && path.map { FileManager.default.fileExists(atPath: $0) } == true && Self.leftovers(in: library).isEmpty
                let ending = "\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)"
                #expect(whole, "run \(run): \(ending), stdout \(printed), stderr \(complaint), left \(Self.leftovers(in: library))")
                if answerable {
                    answered += 1
                    #expect(complaint.contains("Ctrl-C ignored"), "run \(run): the second Ctrl-C is answered with a line: \(complaint)")
                }
                if whole { saved += 1 }
            }
            #expect(saved == 10)
            #expect(answered > 0, "in none of the 10 runs was the first Ctrl-C read within 10 ms while the take was being finished")
        }
    }

    @Test("serve: two SIGINTs 10 ms apart while a take records save the take and exit 0")
    func serveDoubleInterrupt() async throws {
        let server = try await ServeProcess.start(binary: ServeProcess.releaseBinary, ServeTests.smallCamera)
        let connection = try server.connect()
        let started = try await connection.json("POST", "/api/record", #"{"action":"start"}"#)
        #expect(started.status == 200, "\(started.object)")
        let state = try await connection.state { state in
            let recording = state["recording"] as? [String: Any]
            return recording?["isRecording"] as? Bool == true && (recording?["frames"] as? Int ?? 0) >= 15
        }
        #expect((state["recording"] as? [String: Any])?["isRecording"] as? Bool == true, "the take never started: \(state)")
        #expect(try await server.interrupt(times: 2) == 0, "\(server.diagnostics)")
        #expect(Self.leftovers(in: server.library).isEmpty, "\(Self.leftovers(in: server.library))")
        let listed = try await CameraSunBinary.run(["library", "list", "--library", server.library.path, "--json"])
        let assets = try #require(try listed.jsonObject()["assets"] as? [[String: Any]], "\(listed)")
        #expect(assets.map { $0["kind"] as? String } == ["movie"], "\(listed)")
    }
}
