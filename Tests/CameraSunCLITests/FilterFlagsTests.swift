import CameraFilters
@testable import CameraSunCLI
import Foundation
import Testing

@Suite("FilterFlags: --watermark [TEXT], --lut F.cube, --beauty 0…1")
struct FilterFlagsTests {
    static func flags(_ arguments: [String]) throws -> (FilterFlags, ArgumentList) {
        var list = ArgumentList(arguments, command: "record")
        let flags = try FilterFlags(&list)
        return (flags, list)
    }

    @Test("--watermark takes TEXT when a value follows; alone, before another flag or at the end, the timestamp only", arguments: [
        (["--watermark", "Trip to the coast"], "Trip to the coast" as String?),
        (["--watermark=Day 2"], "Day 2"),
        (["--watermark", "--duration", "3"], nil),
        (["--duration", "3", "--watermark"], nil),
        (["--watermark="], nil),
    ])
    func watermark(arguments: [String], text: String?) throws {
        let (flags, rest) = try Self.flags(arguments)
        #expect(flags.settings.watermark == WatermarkSettings(text: text))
        var left = rest
        #expect(try left.option("duration") == (arguments.contains("--duration") ? "3" : nil), "other flags are left to their readers")
        try left.finish()
    }

    @Test("no filter flags: no chain")
    func none() throws {
        let (flags, rest) = try Self.flags([])
        #expect(flags.settings == FilterSettings())
        #expect(try flags.chain() == nil)
        try rest.finish()
    }

    @Test("--beauty outside 0…1 or not a number is a usage error naming the value", arguments: ["2", "-0.5", "soft", "nan"])
    func beautyOutOfRange(value: String) {
        #expect(throws: CLIError.usage("--beauty '\(value)' is not a strength from 0 (off) to 1 (strongest) — see 'camerasun help record'")) {
            try Self.flags(["--beauty", value])
        }
    }

    @Test("a missing .cube is a usage error when the chain is built, naming the path")
    func missingCube() throws {
        let (flags, _) = try Self.flags(["--lut", "/nonexistent/grade.cube"])
        #expect(throws: CLIError.usage("cannot read the LUT /nonexistent/grade.cube: no such file — give the path of a readable .cube file")) {
            try flags.chain()
        }
    }

    @Test("the flags build beauty, LUT and watermark into one chain, in that order")
    func chain() throws {
        let cube = FileManager.default.temporaryDirectory.appendingPathComponent("filter-flags-\(UUID().uuidString).cube")
        try ("LUT_3D_SIZE 2\n" + CubeLUT.lattice(size: 2) { $0 }.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n"))
            .write(to: cube, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: cube) }
        let (flags, _) = try Self.flags(["--lut", cube.path, "--beauty", "0.3", "--watermark"])
        let chain = try #require(try flags.chain())
        #expect(chain.filters.count == 3)
        #expect((chain.filters[0] as? BeautyFilter)?.strength == 0.3)
        #expect(chain.filters[1] is LUTFilter && chain.filters[2] is Watermark)
    }
}
