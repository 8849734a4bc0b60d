@testable import CameraSunCLI
import CameraSystem
import CameraTestSupport
import Foundation
import Testing

/// `camerasun bench` runs the `camerasun-bench` program beside `camerasun`, which alone links the
/// benchmarks' peers and test doubles.
@Suite("The benchmarks as a program of their own")
struct BenchProgramTests {
    @Test("bench with camerasun-bench missing names its path and how to build it")
    func missingProgram() throws {
        let seam = SystemCallSeam()
        seam.fail(.execv, with: .noSuchFileOrDirectory)
        let error = seam.run { cliError { try BenchCommand.run(["sim"]) } }
        let expected = try ProcessImage.sibling("camerasun-bench")
        #expect(error?.kind == .runtime)
        #expect(error?.message == "\(expected) is missing: the benchmarks are a program of their own — build it with `make build`")
        #expect(seam.calls(of: [.execv]) == [SystemCallSeam.Call(.execv, expected)])
    }

    @Test("bench SUITE runs camerasun-bench: its usage errors come back with their exit code")
    func suitesRunThroughCamerasun() async throws {
        let result = try await CameraSunBinary.run(["bench", "--json", "nope"])
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderr.contains("unknown benchmark suite 'nope'") && result.stderr.contains("startup"), "\(result)")
    }

    @Test("The release camerasun links no benchmark, peer or test double; camerasun-bench beside it does",
          .enabled(if: ServeProcess.releaseBinary != nil, "needs CAMERASUN_RELEASE_BINARY (make test sets it)"))
    func productLinksNoTestDoubles() async throws {
        let camerasun = try #require(ServeProcess.releaseBinary)
        let bench = camerasun.deletingLastPathComponent().appendingPathComponent("camerasun-bench")
        let modules = ["CameraTestSupport", "CameraBenchmarks", "cbp_memory_read"]
        func symbols(_ binary: URL) async throws -> String {
            let result = try await runTool("/usr/bin/nm", [binary.path])
            #expect(result.status == 0, "nm \(binary.path): \(result.errors)")
            return String(decoding: result.output, as: UTF8.self)
        }
        let linked = try await symbols(camerasun), benchLinked = try await symbols(bench)
        #expect(linked.contains("CameraSunCLI"), "nm read no Swift symbols from \(camerasun.path)")
        for module in modules {
            #expect(!linked.contains(module), "\(camerasun.path) links \(module)")
            #expect(benchLinked.contains(module), "\(bench.path) does not link \(module)")
        }
    }
}
