import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// A malformed input and what its error must say.
struct MalformedHDR: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let kind: CodecError.Kind
    /// Text the error's description must contain.
    let says: [String]

    var testDescription: String { name }

    static let all: [MalformedHDR] = [
        MalformedHDR(name: "empty data", bytes: [], kind: .wrongFormat, says: ["empty", "give a .hdr"]),
        MalformedHDR(name: "a ZIP file", bytes: Array("PK\u{3}\u{4}\u{14}\0\0\0".utf8), kind: .wrongFormat,
                     says: ["not a Radiance HDR file", "starts with 'PK\\x03\\x04", "give a .hdr (RGBE) file"]),
        MalformedHDR(name: "a PNG file", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], kind: .wrongFormat,
                     says: ["starts with '\\x89PNG'"]),
        MalformedHDR(name: "only the magic line, cut", bytes: Array("#?RADIANCE".utf8), kind: .truncated,
                     says: ["truncated"]),
        MalformedHDR(name: "header without its blank line", bytes: Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n".utf8),
                     kind: .truncated, says: ["truncated", "inside its header"]),
        MalformedHDR(name: "XYZE pixels", bytes: HDRBytes.header(format: "32-bit_rle_xyze", resolution: "-Y 1 +X 1") + [0, 0, 0, 0],
                     kind: .unsupported, says: ["FORMAT=32-bit_rle_xyze", "oiiotool"]),
        MalformedHDR(name: "nothing after the header", bytes: Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n".utf8),
                     kind: .truncated, says: ["missing resolution line"]),
        MalformedHDR(name: "pixels instead of a resolution line",
                     bytes: Array("#?RADIANCE\n\n".utf8) + [128, 0, 0, 129, 10, 1, 2],
                     kind: .malformed, says: ["missing resolution line", "'-Y <height> +X <width>'", "\\x80"]),
        MalformedHDR(name: "resolution line inside the header",
                     bytes: Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n-Y 1 +X 1\n\n".utf8) + [0, 0, 0, 0],
                     kind: .malformed, says: ["no blank line before", "-Y 1 +X 1"]),
        MalformedHDR(name: "absurd dimensions", bytes: HDRBytes.header(resolution: "-Y 999999 +X 999999"),
                     kind: .tooLarge, says: ["999999×999999", "1…32768"]),
        MalformedHDR(name: "dimensions overflowing Int", bytes: HDRBytes.header(resolution: "-Y 99999999999999999999999 +X 2"),
                     kind: .tooLarge, says: ["1…32768"]),
        MalformedHDR(name: "zero height", bytes: HDRBytes.header(resolution: "-Y 0 +X 4"), kind: .malformed,
                     says: ["4×0", "1…32768"]),
        MalformedHDR(name: "negative width", bytes: HDRBytes.header(resolution: "-Y 4 +X -4"), kind: .malformed,
                     says: ["-4×4"]),
        MalformedHDR(name: "non-numeric height", bytes: HDRBytes.header(resolution: "-Y tall +X 4"), kind: .malformed,
                     says: ["4×tall"]),
        MalformedHDR(name: "too many pixels in all", bytes: HDRBytes.header(resolution: "-Y 20000 +X 20000"),
                     kind: .tooLarge, says: ["400000000 pixels", "100000000"]),
        MalformedHDR(name: "bottom-up pixel order", bytes: HDRBytes.header(resolution: "+Y 1 +X 1") + [0, 0, 0, 0],
                     kind: .unsupported, says: ["'+Y 1 +X 1'", "oiiotool"]),
        MalformedHDR(name: "flat pixels cut short", bytes: HDRBytes.header(resolution: "-Y 2 +X 2") + [128, 0, 0, 129],
                     kind: .truncated, says: ["truncated", "expected at least 16", "has 4 bytes"]),
        MalformedHDR(name: "RLE scanline of the wrong length",
                     bytes: HDRBytes.header(resolution: "-Y 1 +X 8") + [2, 2, 0, 9] + [UInt8](repeating: 0, count: 40),
                     kind: .malformed, says: ["declares 9 pixels", "8 wide"]),
        MalformedHDR(name: "RLE run longer than the scanline",
                     bytes: HDRBytes.header(resolution: "-Y 1 +X 8") + [2, 2, 0, 8, 128 + 9, 1] + [UInt8](repeating: 0, count: 40),
                     kind: .malformed, says: ["run of 9 pixels", "8 remain"]),
        MalformedHDR(name: "RLE copy of zero pixels",
                     bytes: HDRBytes.header(resolution: "-Y 1 +X 8") + [2, 2, 0, 8, 0] + [UInt8](repeating: 0, count: 40),
                     kind: .malformed, says: ["copy of 0 pixels"]),
        MalformedHDR(name: "flat scanline after an RLE one",
                     bytes: HDRBytes.header(resolution: "-Y 2 +X 8") + [2, 2, 0, 8] + [UInt8](repeating: 128 + 8, count: 8)
                        + [UInt8](repeating: 128, count: 32),
                     kind: .unsupported, says: ["scanline 2 of 2", "flat"]),
    ]
}

@Suite struct RadianceHDRMalformedInputTests {
    let decoder = RadianceHDRDecoder()

    @Test("malformed input is a CodecError that says what is wrong", arguments: MalformedHDR.all)
    func malformedInputThrows(_ input: MalformedHDR) {
        do {
            let image = try decoder.decode(Data(input.bytes))
            Issue.record("decoded a \(image.width)×\(image.height) image from \(input.name)")
        } catch {
            #expect(error.kind == input.kind, "\(error)")
            for text in input.says {
                #expect(error.description.contains(text), "“\(error)” should mention \(text)")
            }
        }
    }

    @Test("a valid file cut in half is reported as truncated", arguments: [(64, 32), (4, 64)])
    func halfAFileIsTruncated(width: Int, height: Int) throws {
        let bytes = try RadianceHDREncoder().encode(sampleImage(width: width, height: height))
        let error = #expect(throws: CodecError.self) { try decoder.decode(bytes.prefix(bytes.count / 2)) }
        #expect(error?.kind == .truncated)
        #expect(error?.description.contains("truncated") == true)
        #expect(error?.description.contains("expected at least") == true, "\(String(describing: error))")
    }

    @Test("every proper prefix of a valid file is an error, never zero-padded pixels",
          arguments: [(16, 3), (3, 2)])
    func everyPrefixThrows(width: Int, height: Int) throws {
        let bytes = try RadianceHDREncoder().encode(sampleImage(width: width, height: height))
        #expect(try decoder.decode(bytes).size == PixelSize(width: width, height: height))
        for length in 0..<bytes.count {
            #expect(throws: CodecError.self, "prefix of \(length) bytes") { try decoder.decode(bytes.prefix(length)) }
        }
    }

    @Test("corrupted bytes give an image or a CodecError, never a crash or a hang")
    func corruptionNeverCrashes() throws {
        let valid = try RadianceHDREncoder().encode(sampleImage(width: 24, height: 6))
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            var bytes = [UInt8](valid)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let cut = Int.random(in: bytes.count / 2...bytes.count, using: &generator)
            if let image = try? decoder.decode(Data(bytes.prefix(cut))) {
                #expect(image.samples.allSatisfy { $0.isFinite && $0 >= 0 })
            }
        }
    }

    @Test("a file that is not HDR is named by its path in the error")
    func wrongFileNamesItsPath() throws {
        try withScratchDirectory { directory in
            let url = directory.appendingPathComponent("archive.hdr")
            try Data("PK\u{3}\u{4}rest of a zip".utf8).write(to: url)
            let error = #expect(throws: CodecError.self) { try decoder.decode(contentsOf: url) }
            #expect(error?.description == "not a Radiance HDR file: \(url.path) starts with 'PK\\x03\\x04rest of a zi'"
                + " — give a .hdr (RGBE) file, whose first line is #?RADIANCE or #?RGBE")
        }
    }

    @Test("a missing file or a directory is an unreadable error naming the path and the reason")
    func unreadablePaths() throws {
        try withScratchDirectory { directory in
            let missing = directory.appendingPathComponent("nope.hdr")
            let error = #expect(throws: CodecError.self) { try decoder.decode(contentsOf: missing) }
            #expect(error?.kind == .unreadable)
            #expect(error?.description.contains("cannot read \(missing.path): No such file or directory") == true,
                    "\(String(describing: error))")
            let directoryError = #expect(throws: CodecError.self) { try decoder.decode(contentsOf: directory) }
            #expect(directoryError?.kind == .unreadable)
            #expect(directoryError?.description.contains("Is a directory") == true, "\(String(describing: directoryError))")
        }
    }
}
