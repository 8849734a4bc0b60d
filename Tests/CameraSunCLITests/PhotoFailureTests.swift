import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `camerasun photo` when things go wrong: killed mid-burst, a full disk, a library that refuses
/// writes, bad flags. Whatever happens, no catalogue row lacks its file and no photo is silently lost.
@Suite("camerasun photo failures")
struct PhotoFailureTests {
    @Test("SIGKILL in the middle of a 50-photo burst: verify reports only crash states, repair makes the library consistent")
    func killedMidBurst() throws {
        try withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let process = try CameraSunBinary.launch(["photo", "--source", "sim:gray-card", "--count", "50", "--library",
                                                      libraryDirectory.path] + PhotoEndToEndTests.small)
            // Killed as soon as the first photo is in its dated folder, while the others are on their way.
            let deadline = Date(timeIntervalSinceNow: 60)
            while process.isRunning, Date() < deadline, !files(under: libraryDirectory).contains(where: { $0.hasSuffix(".jpg") }) {
                usleep(1_000)
            }
            let killedWhileRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try #require(killedWhileRunning && process.terminationReason == .uncaughtSignal,
                         "the burst ended (or wrote nothing for 60 s) before it could be killed: status \(process.terminationStatus)")
            let rowsAfterKill = try #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            #expect(rowsAfterKill.count < 50, "the kill came after the burst had finished")

            let verify = try libraryCommand("verify", libraryDirectory)
            #expect([0, 1].contains(verify.result.exitCode), "\(verify.result)")
            let issues = try #require(verify.json["issues"] as? [[String: Any]])
            let kinds = Set(issues.compactMap { $0["kind"] as? String })
            #expect(kinds.isSubset(of: ["orphanFile", "incompleteFile", "restoredFile"]), "after a crash: \(issues)")
            #expect((verify.json["recordedProblems"] as? [Any])?.isEmpty == true)
            #expect(jsonNumber(verify.json["inProgressCount"]) == 0, "a dead writer holds no lock")

            let repair = try libraryCommand("repair", libraryDirectory)
            #expect(repair.result.exitCode == 0, "\(repair.result)")
            let actions = Set((repair.json["actions"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String })
            #expect(actions.isSubset(of: ["catalogued", "removedIncomplete"]), "\(repair.result.stdout)")

            let clean = try libraryCommand("verify", libraryDirectory)
            #expect(clean.result.exitCode == 0 && clean.json["isClean"] as? Bool == true, "\(clean.result)")
            let rows = try #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [[String: Any]])
            let paths = rows.compactMap { $0["path"] as? String }
            #expect(paths.count == rows.count && rows.count >= rowsAfterKill.count)
            for path in paths {
                #expect(FileManager.default.fileExists(atPath: libraryDirectory.appendingPathComponent(path).path), "row without its file: \(path)")
            }
            #expect(Set(paths) == Set(files(under: libraryDirectory).filter { $0.hasSuffix(".jpg") }), "every photo file is catalogued")
        }
    }

    @Test("On a full disk (a 512 KiB tmpfs) photo fails before capturing, says how much is free and what to do, and writes nothing")
    func fullDisk() throws {
        try withScratchDirectory { directory in
            let volume = directory.appendingPathComponent("volume", isDirectory: true)
            try FileManager.default.createDirectory(at: volume, withIntermediateDirectories: false)
            let mount = try runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", volume.path])
            let mounted = mount.status == 0
            try #require(mounted, "cannot mount a tmpfs (\(mount.errors)) — this test needs root; the binary takes no injected free-space provider, so it fails rather than skipping (CapacityTests cover the library alone)")
            defer { _ = try? runTool("/bin/umount", ["--lazy", volume.path]) }
            let libraryDirectory = volume.appendingPathComponent("Library")

            let result = try CameraSunBinary.run(["photo", "--count", "3", "--library", libraryDirectory.path])
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines.count == 1, "\(result.stderr)")
            let line = result.stderrLines.first ?? ""
            #expect(line.hasPrefix("camerasun: error: cannot take 3 photos of 1920x1080 (about 1244160 bytes each): "
                + "not enough free space in the photo library \(libraryDirectory.path): "), "\(line)")
            #expect(line.contains(" MiB) free, ") && line.contains(" — free some space on that disk or choose another directory with --library DIR"),
                    "\(line)")
            #expect(files(under: libraryDirectory).allSatisfy { $0.hasPrefix("catalog.sqlite") }, "\(files(under: libraryDirectory))")
            let rows = try #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [Any])
            #expect(rows.isEmpty)
        }
    }

    @Test("A library that refuses every write: each photo is named with the reason and kept in the rescue folder, exit 1")
    func libraryRefusesWrites() throws {
        try withScratchDirectory { directory in
            // A file where this year's dated folder belongs: creating the folder fails for every photo.
            let libraryDirectory = directory.appendingPathComponent("Library")
            try FileManager.default.createDirectory(at: libraryDirectory, withIntermediateDirectories: false)
            let year = String(Calendar(identifier: .gregorian).component(.year, from: Date()))
            try Data("not a folder".utf8).write(to: libraryDirectory.appendingPathComponent(year))
            let temporary = directory.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)

            let result = try CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "2", "--library",
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
            #expect(try #require(try libraryCommand("list", libraryDirectory).json["assets"] as? [Any]).isEmpty)
        }
    }

    @Test("Bad flags are usage errors (exit 2) that name the value and its range, before anything is written",
          arguments: [
              ErrorCase(["photo", "--count", "0"], exit: 2, ["--count 0", "1…1000"]),
              ErrorCase(["photo", "--count", "many"], exit: 2, ["--count 'many'"]),
              ErrorCase(["photo", "--quality", "101"], exit: 2, ["--quality 101", "1…100"]),
              ErrorCase(["photo", "--quality", "0"], exit: 2, ["--quality 0", "1…100"]),
              ErrorCase(["photo", "--ev", "9"], exit: 2, ["--ev 9", "-8…8"]),
              ErrorCase(["photo", "--shutter", "1s"], exit: 2, ["--shutter 1 s", "0.000125…0.25"]),
              ErrorCase(["photo", "--gain", "2"], exit: 2, ["--gain", "--shutter"]),
              ErrorCase(["photo", "--ev", "1", "--shutter", "1/250"], exit: 2, ["--ev", "--shutter"]),
              ErrorCase(["photo", "--metering", "spot@2,2"], exit: 2, ["--metering 'spot@2,2'"]),
              ErrorCase(["photo", "--flash", "bright"], exit: 2, ["--flash 'bright' is not off, on or auto"]),
              ErrorCase(["photo", "--fill-flash"], exit: 2, ["'--fill-flash'"]),
          ])
    func usageErrors(_ error: ErrorCase) throws {
        try withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let result = try CameraSunBinary.run(error.arguments + ["--library", libraryDirectory.path])
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
}
