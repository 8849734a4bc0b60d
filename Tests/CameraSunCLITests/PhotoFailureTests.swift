import CameraCore
import CameraTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `camerasun photo` when things go wrong: killed mid-burst, a full disk, a library that refuses
/// writes, bad flags. Whatever happens, no catalogue row lacks its file and no photo is silently lost.
@Suite("camerasun photo failures")
struct PhotoFailureTests {
    @Test("SIGKILL in the middle of a burst: verify reports only crash states, repair makes the library consistent")
    func killedMidBurst() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let binary = try #require(CameraSunBinary.url, "camerasun binary not found next to the test bundle — run 'swift build' first")
            let process = Process()
            process.executableURL = binary
            process.arguments = ["photo", "--source", "sim:gray-card", "--count", "1000", "--library", libraryDirectory.path]
                + PhotoEndToEndTests.small
            process.standardInput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Killed once a first photo's line is out (its file and row are committed) while the others are on their
            // way. The burst cannot finish first however fast the machine: nothing reads its output after that line,
            // so it blocks when the pipe's 64 KiB are full, a few hundred lines into the 1000.
            let firstPhoto = await onOwnThread {
                let line = Self.firstLine(from: output.fileHandleForReading) { $0.hasPrefix("photo ") }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return line
            }
            try #require(firstPhoto != nil && process.terminationReason == .uncaughtSignal,
                         "the burst ended before it could be killed: status \(process.terminationStatus)")
            let rowsAfterKill = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(!rowsAfterKill.isEmpty && rowsAfterKill.count < 1000, "\(rowsAfterKill.count) rows after the kill")

            let verify = try await libraryCommand("verify", libraryDirectory)
            #expect([0, 1].contains(verify.result.exitCode), "\(verify.result)")
            let issues = try #require(verify.json["issues"] as? [[String: Any]])
            let kinds = Set(issues.compactMap { $0["kind"] as? String })
            #expect(kinds.isSubset(of: ["orphanFile", "incompleteFile", "restoredFile"]), "after a crash: \(issues)")
            #expect((verify.json["recordedProblems"] as? [Any])?.isEmpty == true)
            #expect(jsonNumber(verify.json["inProgressCount"]) == 0, "a dead writer holds no lock")

            let repair = try await libraryCommand("repair", libraryDirectory)
            #expect(repair.result.exitCode == 0, "\(repair.result)")
            let actions = Set((repair.json["actions"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String })
            #expect(actions.isSubset(of: ["catalogued", "removedIncomplete"]), "\(repair.result.stdout)")

            let clean = try await libraryCommand("verify", libraryDirectory)
            #expect(clean.result.exitCode == 0 && clean.json["isClean"] as? Bool == true, "\(clean.result)")
            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            let paths = rows.compactMap { $0["path"] as? String }
            #expect(paths.count == rows.count && rows.count >= rowsAfterKill.count)
            for path in paths {
                #expect(FileManager.default.fileExists(atPath: libraryDirectory.appendingPathComponent(path).path), "row without its file: \(path)")
            }
            #expect(Set(paths) == Set(files(under: libraryDirectory).filter { $0.hasSuffix(".jpg") }), "every photo file is catalogued")
        }
    }

    @Test("A catalogue that refuses the row (as on a full disk at COMMIT): the photo is kept once, in the rescue folder, not also in the library")
    func catalogueRefusesRow() async throws {
        try await withScratchDirectory { directory in
            let (libraryDirectory, catalog, temporary) = try await libraryRefusingRows(in: directory)

            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "1", "--library",
                                                        libraryDirectory.path] + PhotoEndToEndTests.small,
                                                       environment: ["TMPDIR": temporary.path])
            #expect(result.exitCode == 1, "\(result)")
            let rescue = temporary.appendingPathComponent("camerasun-rescue")
            let rescued = files(under: rescue)
            #expect(rescued.count == 1, "\(rescued)")
            #expect(files(under: libraryDirectory).filter { $0.hasSuffix(".jpg") }.count == 1, "only the first photo is in the library")
            let line = try #require(result.stderrLines.first, "\(result.stderr)")
            #expect(line.contains("(its JPEG is kept at \(rescue.path)/\(rescued.first ?? "")): the photo was not saved: its "
                + "catalogue row could not be committed, so its file \(libraryDirectory.path)/"), "\(line)")
            #expect(line.contains(".jpg was removed again: catalogue \(catalog): ") && line.contains("database or disk is full"), "\(line)")
            let verify = try await libraryCommand("verify", libraryDirectory)
            #expect(verify.result.exitCode == 0 && verify.json["isClean"] as? Bool == true, "\(verify.result)")
        }
    }

    @Test("On a full disk (a 512 KiB tmpfs) photo fails before capturing, says how much is free and what to do, and writes nothing")
    func fullDisk() async throws {
        // The tmpfs needs root: the binary takes no injected free-space provider, so without root the
        // test fails (the mount's error) rather than skipping (CapacityTests cover the library alone).
        try await Tmpfs.with(bytes: 512 * 1024) { volume in
            let libraryDirectory = volume.appendingPathComponent("Library")

            let result = try await CameraSunBinary.run(["photo", "--count", "3", "--library", libraryDirectory.path])
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            let line = result.stderrLines.first ?? ""
            #expect(line.hasPrefix("camerasun: error: cannot take 3 photos of 1920x1080 (about 1244160 bytes each): "
                + "not enough free space in the photo library \(libraryDirectory.path): "), "\(line)")
            #expect(line.contains(" MiB) free, ") && line.contains(" — free some space on that disk or choose another directory with --library DIR"),
                    "\(line)")
            #expect(files(under: libraryDirectory).allSatisfy { $0.hasPrefix("catalog.sqlite") }, "\(files(under: libraryDirectory))")
            let rows = try await #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [Any])
            #expect(rows.isEmpty)
        }
    }

    @Test("A library that refuses every write: each photo is named with the reason and kept in the rescue folder, exit 1")
    func libraryRefusesWrites() async throws {
        try await withScratchDirectory { directory in
            // A file where this year's dated folder belongs: creating the folder fails for every photo.
            let libraryDirectory = directory.appendingPathComponent("Library")
            try FileManager.default.createDirectory(at: libraryDirectory, withIntermediateDirectories: false)
            let year = String(Calendar(identifier: .gregorian).component(.year, from: Date()))
            try Data("not a folder".utf8).write(to: libraryDirectory.appendingPathComponent(year))
            let temporary = directory.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)

            let result = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "2", "--library",
                                                        libraryDirectory.path, "--json"] + PhotoEndToEndTests.small,
                                                       environment: ["TMPDIR": temporary.path])
            #expect(result.exitCode == 1, "\(result)")
            #expect(try result.jsonObject()["assets"] as? [Any] != nil && result.stdout == "{\"assets\":[]}\n")
            let rescued = files(under: temporary.appendingPathComponent("camerasun-rescue")).map {
                temporary.appendingPathComponent("camerasun-rescue").appendingPathComponent($0).path
            }
            #expect(rescued.count == 2, "\(rescued)")
            for path in rescued {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9], "\(path) is not a whole JPEG")
            }
            let lines = result.stderrLines
            try #require(lines.count == 3, "\(result.stderr)")
            for number in 1...2 {
                let line = try #require(lines.first { $0.hasPrefix("camerasun: error: photo \(number)/2 is not in the library ") }, "\(lines)")
                #expect(rescued.contains { line.contains("(its JPEG is kept at \($0)): ") }, "\(line)")
                #expect(line.contains("cannot create the folder \(libraryDirectory.path)/\(year)"), "\(line)")
            }
            #expect(lines[2].hasPrefix("camerasun: error: 2 of 2 photos were not saved in the library — "))
            await #expect(try #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [Any]).isEmpty)
        }
    }

    @Test("Bad flags are usage errors (exit 2) that name the value and its range, before anything is written",
          arguments: [
              ErrorCase(["photo", "--count", "0"], exit: 2, ["--count 0", "1…1000"]),
              ErrorCase(["photo", "--count", "many"], exit: 2, ["--count 'many'"]),
              ErrorCase(["photo", "--quality", "101"], exit: 2, ["--quality 101", "1…100"]),
              ErrorCase(["photo", "--quality", "0"], exit: 2, ["--quality 0", "1…100"]),
              ErrorCase(["photo", "--ev", "9"], exit: 2, ["--ev 9", "-8…8"]),
              ErrorCase(["photo", "--shutter", "1s"], exit: 2, ["--shutter 1 s", "2e-05…0.25"]),
              ErrorCase(["photo", "--gain", "2"], exit: 2, ["--gain", "--shutter"]),
              ErrorCase(["photo", "--ev", "1", "--shutter", "1/250"], exit: 2, ["--ev", "--shutter"]),
              ErrorCase(["photo", "--metering", "spot@2,2"], exit: 2, ["--metering 'spot@2,2'"]),
              ErrorCase(["photo", "--flash", "bright"], exit: 2, ["--flash 'bright' is not off, on or auto"]),
              ErrorCase(["photo", "--fill-flash"], exit: 2, ["'--fill-flash'"]),
          ])
    func usageErrors(_ error: ErrorCase) async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try await CameraSunBinary.run(error.arguments + ["--library", libraryDirectory.path])
            #expect(result.exitCode == error.exitCode, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            let line = result.stderrLines.first ?? ""
            #expect(line.hasPrefix("camerasun: error: ") && line.contains(" — "), "\(line)")
            for fragment in error.mentions {
                #expect(line.contains(fragment), "'\(fragment)' missing from: \(line)")
            }
            #expect(!FileManager.default.fileExists(atPath: libraryDirectory.path), "nothing is created on a usage error")
        }
    }

    /// The first line read from `handle` that `matches`, or nil when the output ends without one.
    /// Reads only as far as that line.
    static func firstLine(from handle: FileHandle, where matches: (String) -> Bool) -> String? {
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if matches(line) { return line }
            }
        }
    }
}
