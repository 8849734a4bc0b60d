import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

@Suite struct PNGEncoderTests {
    let encoder = PNGEncoder()

    /// A 4×2 buffer whose every byte differs, in `format`.
    static func patterned(_ format: PixelFormat) throws -> PixelBuffer {
        let buffer = try PixelBuffer(format: format, width: 4, height: 2)
        if case .bayer16(_, let bits) = format {
            let maximum = 1 << bits
            for y in 0..<2 {
                for x in 0..<4 {
                    let sample: Int = (x * 300 + y * 1000) % maximum
                    buffer[sample16: x, y: y] = UInt16(sample)
                }
            }
            return buffer
        }
        for (index, plane) in buffer.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.rowLength { buffer[plane: index, x: x, y: y] = UInt8((x * 37 + y * 91 + index * 13) % 256) }
            }
        }
        return buffer
    }

    @Test("a bgra8 buffer becomes a PNG with the right signature and an 8-bit RGB header")
    func signatureAndHeader() throws {
        let png = [UInt8](try encoder.encode(Self.patterned(.bgra8)))
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png[12..<16] == Array("IHDR".utf8)[...])
        #expect(png[16..<20] == [0, 0, 0, 4], "width")
        #expect(png[20..<24] == [0, 0, 0, 2], "height")
        #expect(png[24] == 8 && png[25] == 2, "bit depth 8, colour type 2 (RGB)")
    }

    @Test("a bgra8 buffer's PNG holds its pixels as RGB, as an independent decoder reads them")
    func bgraPixelsSurvive() throws {
        let buffer = try PixelBuffer(format: .bgra8, width: 4, height: 2)
        for pixel in 0..<8 {
            for (channel, value) in [10, 20, 30, 0].enumerated() {
                buffer[plane: 0, x: (pixel % 4) * 4 + channel, y: pixel / 4] = UInt8(value + pixel)
            }
        }
        let decoded = try PythonPNG.decode(encoder.encode(buffer))
        #expect(decoded.width == 4 && decoded.height == 2)
        let expected: [UInt8] = (0..<8).flatMap { (pixel: Int) -> [UInt8] in [30, 20, 10].map { UInt8($0 + pixel) } }
        #expect(decoded.rgb == expected)
    }

    @Test("a buffer of any format encodes to the PNG of its rgb8() pixels", arguments: PixelFormat.all)
    func everyFormatEncodes(_ format: PixelFormat) throws {
        let buffer = try Self.patterned(format)
        let decoded = try PythonPNG.decode(encoder.encode(buffer))
        #expect(decoded.width == 4 && decoded.height == 2)
        #expect(decoded.rgb == buffer.rgb8())
    }

    @Test("write(to:) replaces an existing file and leaves no temporary file behind")
    func writeReplacesAtomically() throws {
        try withScratchDirectory { directory in
            let url = directory.appendingPathComponent("frame.png")
            try Data("old".utf8).write(to: url)
            let buffer = try Self.patterned(.gray8)
            try encoder.write(buffer, to: url)
            #expect(try Data(contentsOf: url) == encoder.encode(buffer))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["frame.png"])
        }
    }

    @Test("writing into a missing directory is an unwritable error naming the path")
    func writeIntoMissingDirectoryThrows() throws {
        let url = URL(fileURLWithPath: "/nonexistent-camerasun-dir/frame.png")
        let error = #expect(throws: CodecError.self) { try encoder.write(Self.patterned(.gray8), to: url) }
        #expect(error?.kind == .unwritable)
        #expect(error?.description.hasPrefix("cannot write /nonexistent-camerasun-dir/frame.png:") == true)
        #expect(error?.description.contains("No such file or directory") == true, "\(String(describing: error))")
    }
}

/// Decodes a PNG with Python's zlib, a decoder independent of the stb encoder under test.
enum PythonPNG {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Checks every chunk's CRC, requires 8-bit RGB, undoes the row filters, returns the pixels.
    static let script = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'signature'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])[0], kind
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                assert (depth, colour) == (8, 2), (depth, colour)
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        raw, stride = zlib.decompress(idat), width * 3
        previous, pixels = bytearray(stride), bytearray()
        for y in range(height):
            kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a, b, c = (line[i - 3] if i >= 3 else 0), previous[i], (previous[i - 3] if i >= 3 else 0)
                p = a + b - c
                predictor = [0, a, b, (a + b) // 2,
                             a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][kind]
                line[i] = (line[i] + predictor) & 255
            pixels += line
            previous = line
        print(width, height, pixels.hex())
        """

    static func decode(_ png: Data) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        try withScratchDirectory { directory in
            let url = directory.appendingPathComponent("image.png")
            try png.write(to: url)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, url.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard process.terminationStatus == 0, fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]) else {
                throw Failure(description: "python3 could not decode the PNG (status \(process.terminationStatus))"
                    + " — python3 is the independent PNG checker; run make deps if it is missing")
            }
            let hex = Array(fields[2].utf8)
            let rgb = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            return (width, height, rgb)
        }
    }
}
