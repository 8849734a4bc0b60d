import CameraCore
@testable import CameraFilters
import Foundation
import Testing

@Suite("Reading .cube files a chunk at a time")
struct CubeStreamingTests {
    /// Parses `text` fed in chunks of `chunk` bytes, as a file is read.
    static func parse(_ text: String, chunk: Int) throws -> CubeLUT {
        var parser = CubeParser<[SIMD3<Float>]>(source: "chunked.cube")
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { try parser.feed($0) }
        }
        try parser.finishLines()
        let (size, entries) = try parser.finish()
        return try CubeLUT(size: size, entries: entries, title: parser.title, domainMin: parser.domainMin, domainMax: parser.domainMax)
    }

    @Test("lines split across chunks anywhere, CRLF split between its two bytes, read as whole lines",
          arguments: [1, 2, 3, 5, 7, 64])
    func chunkBoundaries(chunk: Int) throws {
        let whole = try CubeLUT(parsing: CubeLUTTests.swapping, source: "swap.cube")
        let chunked = try Self.parse(CubeLUTTests.swapping, chunk: chunk)
        #expect(chunked == whole)
        #expect(chunked.title == "Swap red and blue" && chunked.entries[1] == SIMD3(0, 0, 1))
        // Old Mac line ends (CR alone) are lines too, and a missing final line break loses nothing.
        let classic = try Self.parse("LUT_3D_SIZE 2\r" + String(repeating: "0.25 0.5 1\r", count: 7) + "1 1 1", chunk: chunk)
        #expect(classic.entries.count == 8 && classic.entries[7] == .one && classic.entries[0] == SIMD3(0.25, 0.5, 1))
    }

    @Test("an error's line number counts CRLF, CR and LF line ends alike")
    func lineNumbers() {
        #expect(throws: FilterError("bad.cube, line 4: \"x\" is not a number — write the value as a decimal number such as 0.5")) {
            try CubeLUT(parsing: "LUT_3D_SIZE 2\r\n0 0 0\r1 1 1\n0 x 0\n", source: "bad.cube")
        }
    }

    @Test("entries are read exactly as Float(String) reads them, by the fast path or past it", arguments: [
        "0", "-0", "1", "+1", "0.5", ".5", "5.", "0.000001", "0.123456", "0.9999999", "0.12345678", "1.000000",
        "0.1234567891234", "2.5e-3", "1E2", "1e-12", "123456789", "0x1p-2", "0.33333333333333333333333",
    ])
    func numbers(text: String) throws {
        let lut = try CubeLUT(parsing: "LUT_3D_SIZE 2\n" + String(repeating: "\(text) \(text) \(text)\n", count: 8), source: "n.cube")
        let expected = try #require(Float(text))
        #expect(lut.entries[5].x.bitPattern == expected.bitPattern)
    }

    @Test("every 6-decimal value in 0…1 is read exactly as Float(String) reads it")
    func sixDecimals() throws {
        let values = stride(from: 0, through: 1_000_000, by: 7).map { String(format: "%.6f", Double($0) / 1e6) }
        for group in stride(from: 0, to: values.count - 24, by: 24) {
            let lines = (0..<8).map { values[group + 3 * $0] + " " + values[group + 3 * $0 + 1] + " " + values[group + 3 * $0 + 2] }
            let lut = try CubeLUT(parsing: "LUT_3D_SIZE 2\n" + lines.joined(separator: "\n"), source: "d.cube")
            let read = lut.entries.flatMap { [$0.x, $0.y, $0.z] }.map(\.bitPattern)
            let expected = values[group..<(group + 24)].map { Float($0)!.bitPattern }
            #expect(read == expected)
        }
    }

    @Test("a line longer than a .cube line can be is refused by its number, even without a line break")
    func longLine() throws {
        let long = String(repeating: "0", count: 5000)
        let expected = FilterError("bad.cube, line 2: a line longer than 4096 bytes — a .cube line holds a keyword or three numbers; give a .cube file")
        #expect(throws: expected) { try CubeLUT(parsing: "LUT_3D_SIZE 2\n" + long + "\n", source: "bad.cube") }
        #expect(throws: expected) { try CubeLUT(parsing: "LUT_3D_SIZE 2\n" + long, source: "bad.cube") }
        let binary = try TestFrames.file("binary.cube", "LUT_3D_SIZE 2\n" + String(repeating: "\u{1}", count: 3 << 20))
        #expect(throws: FilterError("\(binary), line 2: a line longer than 4096 bytes — a .cube line holds a keyword or three numbers; give a .cube file")) {
            try LUTFilter(contentsOfFile: binary)
        }
    }

    @Test("a filter read from a file grades as one built from the same table, and keeps its title and size")
    func fileAndTableAgree() throws {
        let entries = CubeLUT.lattice(size: 5) { c in SIMD3(c.y * c.y, c.z.squareRoot(), 0.2 + 0.6 * c.x) }
        let text = "TITLE \"curve\"\nLUT_3D_SIZE 5\nDOMAIN_MAX 0.9 1 1\n"
            + entries.map { String(format: "%.6f %.6f %.6f", $0.x, $0.y, $0.z) }.joined(separator: "\n")
        let fromFile = try LUTFilter(contentsOfFile: TestFrames.file("curve.cube", text))
        let fromTable = LUTFilter(try CubeLUT(parsing: text, source: "curve.cube"))
        #expect(fromFile.title == "curve" && fromFile.size == 5)
        let first = try TestFrames.everyValue(), second = try TestFrames.everyValue()
        try fromFile.apply(to: first, at: Date())
        try fromTable.apply(to: second, at: Date())
        #expect(first.bytes(plane: 0) == second.bytes(plane: 0))
    }
}
