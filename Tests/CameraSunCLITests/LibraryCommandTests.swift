@testable import CameraSunCLI
import CameraTestSupport
import Foundation
import PhotoLibrary
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `camerasun library list|show|verify|repair`: which directories it accepts, what it says.
@Suite("camerasun library")
struct LibraryCommandTests {
    @Test("a directory that is not a library is an error naming it, and nothing is created",
          arguments: [["list"], ["show", "20250601-000000000-000000000000"], ["verify"], ["repair"]])
    func notALibrary(_ verb: [String]) async throws {
        try await withScratchDirectory { directory in
            let missing = directory.appendingPathComponent("Nowhere")
            let result = try await CameraSunBinary.run(["library"] + verb + ["--library", missing.path])
            #expect(result.exitCode == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == ["camerasun: error: \(missing.path) is not a photo library: it does not exist — "
                + "pass the directory of an existing photo library with --library DIR (`camerasun photo` creates one when "
                + "it saves a first photo)"], "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: missing.path))
        }
    }

    @Test("--library '' is a usage error, and the current directory does not become a library",
          arguments: [["library", "list"], ["library", "verify"], ["photo", "--count", "1"]])
    func emptyLibraryPath(_ command: [String]) async throws {
        try await withScratchDirectory { directory in
            let result = try await CameraSunBinary.run(command + ["--library", ""], in: directory)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderrLines == ["camerasun: error: --library '' names no directory — pass the photo library's "
                + "directory, e.g. --library ~/Pictures/CameraSun"], "\(result.stderr)")
            #expect(files(under: directory).isEmpty)
        }
    }

    @Test("after repair records a lost photo, verify lists it and its summary does not call the library consistent")
    func verifyAfterRepairAgreesWithItsEntries() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let photo = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "1", "--library",
                                                       libraryDirectory.path] + PhotoEndToEndTests.small)
            try #require(photo.exitCode == 0, "\(photo)")
            let path = try #require(files(under: libraryDirectory).first { $0.hasSuffix(".jpg") })
            try FileManager.default.removeItem(at: libraryDirectory.appendingPathComponent(path))
            let repair = try await CameraSunBinary.run(["library", "repair", "--library", libraryDirectory.path])
            #expect(repair.exitCode == 0 && repair.stdout.hasPrefix("markedMissing: \(path)"), "\(repair)")

            let verify = try await CameraSunBinary.run(["library", "verify", "--library", libraryDirectory.path])
            #expect(verify.exitCode == 0, "\(verify)")
            let lines = verify.stdout.split(separator: "\n").map(String.init)
            #expect(lines == [
                "1 catalogued, 0 files in \(libraryDirectory.path)",
                "missingFile (recorded by an earlier repair): \(path) — the catalogued file is not there",
                "the catalogue agrees with the files, but 1 photo is still missing or damaged (listed above; restore its "
                    + "file from a backup, then run 'camerasun library repair')",
            ], "\(verify.stdout)")
        }
    }

    @Test("verify's summary: consistent only when nothing is listed")
    func verificationSummary() {
        let lost = VerificationReport.Issue(kind: .missingFile, path: "2025/06/01/a.jpg", assetID: "a", detail: "gone")
        let clean = VerificationReport(directory: "/L", assetCount: 2, fileCount: 2, issues: [], recordedProblems: [],
                                       inProgressCount: 0)
        #expect(LibraryCommand.verificationLines(clean) == ["2 catalogued, 2 files in /L", "library is consistent"])
        let recorded = VerificationReport(directory: "/L", assetCount: 3, fileCount: 1, issues: [],
                                          recordedProblems: [lost, lost], inProgressCount: 1)
        #expect(LibraryCommand.verificationLines(recorded).last == "the catalogue agrees with the files, but 2 photos are "
            + "still missing or damaged (listed above; restore their files from a backup, then run 'camerasun library repair')")
        let broken = VerificationReport(directory: "/L", assetCount: 1, fileCount: 0, issues: [lost], recordedProblems: [],
                                        inProgressCount: 0)
        #expect(LibraryCommand.verificationLines(broken) == ["1 catalogued, 0 files in /L", "missingFile: 2025/06/01/a.jpg — gone"])
    }

    @Test("a read-only library (a read-only bind mount) is listed, shown and verified; a photo into it says it is read-only",
          .enabled(if: geteuid() == 0, "a read-only bind mount needs root"))
    func readOnlyLibrary() async throws {
        try await withScratchDirectory { directory in
            let libraryDirectory = directory.appendingPathComponent("Library")
            let photo = try await CameraSunBinary.run(["photo", "--source", "sim:gray-card", "--count", "1", "--library",
                                                       libraryDirectory.path] + PhotoEndToEndTests.small)
            try #require(photo.exitCode == 0, "\(photo)")
            let view = directory.appendingPathComponent("view", isDirectory: true)
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: false)
            try await withMount(["--bind", "-o", "ro", libraryDirectory.path], at: view) {
                let list = try await libraryCommand("list", view)
                #expect(list.result.exitCode == 0, "\(list.result)")
                let assets = try #require(list.json["assets"] as? [[String: Any]])
                #expect(assets.count == 1)
                let id = try #require(assets.first?["id"] as? String)
                #expect(try await CameraSunBinary.run(["library", "show", id, "--library", view.path]).exitCode == 0)
                let verify = try await CameraSunBinary.run(["library", "verify", "--library", view.path])
                #expect(verify.exitCode == 0 && verify.stdout.hasSuffix("library is consistent\n"), "\(verify)")

                let refused = try await CameraSunBinary.run(["photo", "--count", "1", "--library", view.path] + PhotoEndToEndTests.small)
                #expect(refused.exitCode == 1, "\(refused)")
                #expect(refused.stderrLines.first?.hasSuffix("cannot write to the photo library \(view.path): it is read-only "
                    + "(a read-only file system or no write permission) — remount it read-write, make it writable, or choose "
                    + "another directory with --library DIR") == true, "\(refused.stderr)")
            }
        }
    }
}
