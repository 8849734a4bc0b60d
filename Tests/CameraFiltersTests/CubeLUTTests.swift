import CameraCore
@testable import CameraFilters
import Testing

@Suite("Reading .cube files")
struct CubeLUTTests {
    /// A size-2 LUT that swaps red and blue, with a title, comments, blank lines and CRLF endings.
    static let swapping = """
        # Made by hand\r
        TITLE "Swap red and blue"\r
        \r
        LUT_3D_SIZE 2\r
        DOMAIN_MIN 0 0 0\r
        DOMAIN_MAX 1 1 1\r
        0 0 0\r
        0 0 1   # red in, blue out\r
        0 1 0\r
        0 1 1\r
        1 0 0\r
        1 0 1\r
        1 1 0\r
        1 1 1\r
        """

    @Test("a file's title, size, domain and entries are read, red varying fastest")
    func readsAFile() throws {
        let lut = try CubeLUT(contentsOfFile: TestFrames.file("swap.cube", Self.swapping))
        #expect(lut.title == "Swap red and blue")
        #expect(lut.size == 2)
        #expect(lut.domainMin == .zero && lut.domainMax == .one)
        #expect(lut.entries.count == 8)
        #expect(lut.entries[1] == SIMD3(0, 0, 1))
        #expect(lut.entries[4] == SIMD3(1, 0, 0))
    }

    @Test("a title may hold a #, which elsewhere starts a comment")
    func hashInTitle() throws {
        let lut = try CubeLUT(parsing: "TITLE \"Look #2\"\nLUT_3D_SIZE 2 # per axis\n" + Self.entries8, source: "look.cube")
        #expect(lut.title == "Look #2" && lut.size == 2)
    }

    @Test("a UTF-8 byte-order mark before the first keyword is skipped")
    func byteOrderMark() throws {
        let lut = try CubeLUT(contentsOfFile: TestFrames.file("bom.cube", "\u{FEFF}" + Self.swapping))
        #expect(lut.title == "Swap red and blue" && lut.entries.count == 8)
    }

    @Test("Resolve's LUT_3D_INPUT_RANGE sets the domain of all three channels")
    func inputRange() throws {
        let text = "LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0.1 0.9\n" + String(repeating: "0.5 0.5 0.5\n", count: 8)
        let lut = try CubeLUT(parsing: text, source: "range.cube")
        #expect(lut.domainMin == SIMD3(repeating: 0.1) && lut.domainMax == SIMD3(repeating: 0.9))
    }

    static let entries8 = String(repeating: "0 0 0\n", count: 8)

    @Test("a malformed file is an error naming the file, the line and what is wrong", arguments: [
        ("TITLE \"x\"\n# nothing else\n", "bad.cube: no LUT_3D_SIZE line"),
        ("TITLE \"x\"\n" + entries8, "bad.cube, line 2: an entry before LUT_3D_SIZE"),
        ("0 0 0\nLUT_3D_SIZE 2\n", "bad.cube, line 1: an entry before LUT_3D_SIZE"),
        ("LUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 5), "bad.cube, line 6: the file ends after 5 of the 8 entries (2³)"),
        ("LUT_3D_SIZE 2\n" + entries8 + "1 1 1\n", "bad.cube, line 10: more than the 8 entries (2³)"),
        ("# grade\nLUT_3D_SIZE 2\n0 0 0\n0 zero 0\n", "bad.cube, line 4: \"zero\" is not a number"),
        ("LUT_3D_SIZE 2\n\n0 0\n", "bad.cube, line 3: 2 values where 3 are needed"),
        ("TITLE \"curve\"\nLUT_1D_SIZE 1024\n", "bad.cube, line 2: this is a 1D LUT (LUT_1D_SIZE) where a 3D LUT is needed"),
        ("LUT_3D_SIZE 257\n", "bad.cube, line 1: LUT_3D_SIZE 257 is outside 2…256"),
        ("LUT_3D_SIZE 1\n", "bad.cube, line 1: LUT_3D_SIZE 1 is outside 2…256"),
        ("LUT_3D_SIZE 2.5\n", "bad.cube, line 1: LUT_3D_SIZE 2.5 is outside 2…256"),
        ("LUT_3D_SIZE 2\nDOMAIN_MAX 1 1\n", "bad.cube, line 2: 2 values where 3 are needed"),
        ("LUT_3D_SIZE 2\nDOMAIN_MIN 1 0 0\n" + entries8, "bad.cube: the domain"),
        ("LUT_3D_SIZ 2\n", "bad.cube, line 1: unknown keyword LUT_3D_SIZ"),
        ("LUT_3D_SIZE 2\n0 0 0\nTITLE \"late\"\n", "bad.cube, line 3: the keyword TITLE comes after the table's first entry"),
        ("LUT_3D_SIZE 2\n0 0 nan\n", "bad.cube, line 2: \"nan\" is not a number"),
    ])
    func malformed(text: String, expected: String) {
        #expect {
            try CubeLUT(parsing: text, source: "bad.cube")
        } throws: { error in
            let message = (error as? FilterError)?.message ?? ""
            return message.hasPrefix(expected) && message.contains(" — ")
        }
    }

    @Test("a file that cannot be read is an error naming the path and why")
    func unreadable() throws {
        let directory = try TestFrames.directory()
        let missing = directory.appendingPathComponent("missing.cube").path
        #expect(throws: FilterError("cannot read the LUT \(missing): no such file — give the path of a readable .cube file")) {
            try CubeLUT(contentsOfFile: missing)
        }
        #expect(throws: FilterError("cannot read the LUT \(directory.path): it is a directory — give the path of a readable .cube file")) {
            try CubeLUT(contentsOfFile: directory.path)
        }
    }

    @Test("a table built in code checks its size and entry count")
    func builtInCode() throws {
        #expect(throws: FilterError.self) { try CubeLUT(size: 3, entries: CubeLUT.lattice(size: 2) { $0 }) }
        #expect(throws: FilterError.self) { try CubeLUT.identity(size: 300) }
        let identity = try CubeLUT.identity(size: 3)
        #expect(identity.entries[1 + 2 * 3 + 0 * 9] == SIMD3(0.5, 1, 0))
    }
}
