import CameraCodecs
import CameraCore
import Foundation
import Testing

/// The decoder's limit on decoded size, and its decoding straight into the image's samples.
@Suite struct RadianceHDRMemoryLimitTests {
    /// A header claiming `width`×`height` followed by one RLE scanline of `width` black pixels
    /// (four channels of runs of at most 127): a file of a few hundred bytes.
    static func claiming(width: Int, height: Int) -> [UInt8] {
        var scanline: [UInt8] = [2, 2, UInt8(width >> 8), UInt8(width & 0xFF)]
        for _ in 0..<4 {
            var left = width
            while left > 0 {
                let run = min(left, 127)
                scanline += [UInt8(128 + run), 0]
                left -= run
            }
        }
        return HDRBytes.header(resolution: "-Y \(height) +X \(width)") + scanline
    }

    @Test("an RLE file claiming 10000×10000 fails at once with its decoded size and the limit, allocating nothing")
    func hugeClaimFailsFast() throws {
        let decoder = RadianceHDRDecoder(pixelLimit: 40_000_000)
        let error = #expect(throws: CodecError.self) { try decoder.decode(Data(Self.claiming(width: 10000, height: 10000))) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.description == "too large: HDR data is 10000×10000 (100 Mpixel, 1.2 GB decoded); the limit is "
            + "40 Mpixel — downscale it (oiiotool in.hdr --resize 50% -o out.hdr)")
    }

    @Test("within the limit, a file claiming more scanlines than it holds is truncated, found before anything is allocated")
    func hugeClaimWithinTheLimitIsTruncated() throws {
        let error = #expect(throws: CodecError.self) {
            try RadianceHDRDecoder(pixelLimit: 100_000_000).decode(Data(Self.claiming(width: 10000, height: 10000)))
        }
        #expect(error?.kind == .truncated)
        #expect(error?.description.contains("10000 RLE scanlines of 10000 pixels (it ends inside scanline 2)") == true)
    }

    @Test("the default limit is a quarter of the machine's memory in decoded pixels, at most 100 Mpixel",
          arguments: [(UInt64(2) << 30, 44_739_242), (UInt64(4) << 30, 89_478_485), (UInt64(8) << 30, 100_000_000),
                      (UInt64(512) << 30, 100_000_000)])
    func defaultLimit(memory: UInt64, pixels: Int) {
        #expect(RadianceHDRDecoder.pixelLimit(physicalMemory: memory) == pixels)
    }

    @Test("this machine's decoder uses the limit for its memory")
    func machineLimit() {
        #expect(RadianceHDRDecoder().pixelLimit == RadianceHDRDecoder.pixelLimit(physicalMemory: ProcessInfo.processInfo.physicalMemory))
    }

    @Test("RGBE becomes mantissa × 2^(E − 136), flat and run-length encoded alike; E = 0 is black")
    func exactConversion() throws {
        let flat = HDRBytes.flat(width: 2, height: 1, pixels: [[128, 64, 32, 129], [255, 1, 0, 0]])
        #expect(try RadianceHDRDecoder().decode(Data(flat)).samples == [1, 0.5, 0.25, 0, 0, 0])
        // 8 pixels: red as a copy of 8 values, green, blue and exponent as runs.
        let rle = HDRBytes.header(resolution: "-Y 1 +X 8") + [2, 2, 0, 8, 8, 0, 16, 32, 64, 128, 192, 255, 2]
            + [128 + 8, 64, 128 + 8, 32, 128 + 8, 130]
        let image = try RadianceHDRDecoder().decode(Data(rle))
        let red: [Float] = [0, 16, 32, 64, 128, 192, 255, 2].map { Float($0) / 64 }
        #expect(image.samples == red.flatMap { [$0, 1, 0.5] })
    }
}

/// Decoding into RGBE words, 4 bytes a pixel, for the simulated camera.
@Suite struct RadianceHDRPackedTests {
    @Test("packed words are the file's RGBE bytes, flat and run-length encoded alike, and decode to the floats `decode` gives")
    func packedWords() throws {
        let flat = HDRBytes.flat(width: 2, height: 1, pixels: [[128, 64, 32, 129], [255, 1, 0, 0]])
        let packedFlat = try RadianceHDRDecoder().decodePacked(Data(flat))
        #expect(packedFlat.width == 2 && packedFlat.height == 1)
        let first: UInt32 = 128 | 64 << 8 | 32 << 16 | 129 << 24, second: UInt32 = 255 | 1 << 8
        #expect(packedFlat.pixels == [first, second])
        let rle = HDRBytes.header(resolution: "-Y 1 +X 8") + [2, 2, 0, 8, 8, 0, 16, 32, 64, 128, 192, 255, 2]
            + [128 + 8, 64, 128 + 8, 32, 128 + 8, 130]
        let packed = try RadianceHDRDecoder().decodePacked(Data(rle))
        let reds: [UInt32] = [0, 16, 32, 64, 128, 192, 255, 2]
        let shared: UInt32 = 64 << 8 | 32 << 16 | 130 << 24
        #expect(packed.pixels == reds.map { $0 | shared })
        let floats = try RadianceHDRDecoder().decode(Data(rle)).samples
        #expect(floats[3] == 16 * 0.015625 && floats[4] == 64 * 0.015625 && floats[5] == 32 * 0.015625)
    }

    @Test("packed decoding checks the file as float decoding does: too large and truncated alike")
    func packedChecks() throws {
        let huge = Data(RadianceHDRMemoryLimitTests.claiming(width: 10000, height: 10000))
        let tooLarge = #expect(throws: CodecError.self) { try RadianceHDRDecoder(pixelLimit: 40_000_000).decodePacked(huge) }
        #expect(tooLarge?.kind == .tooLarge)
        #expect(tooLarge?.description.contains("(100 Mpixel, 0.4 GB decoded); the limit is 40 Mpixel") == true)
        let truncated = #expect(throws: CodecError.self) { try RadianceHDRDecoder(pixelLimit: 100_000_000).decodePacked(huge) }
        #expect(truncated?.kind == .truncated)
    }

    @Test("a file is decoded into the same words whether its pixels are read into them directly (flat), or whole (RLE, small)")
    func fromFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hdr-packed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 200×100 flat pixels: 80 KB, more than the header read, so they are read straight into the words.
        let pixels: [[UInt8]] = (0..<20_000).map { (index: Int) -> [UInt8] in
            [UInt8(index & 255), UInt8((index >> 8) & 255), 7, UInt8(120 + index % 20)]
        }
        let flat = HDRBytes.flat(width: 200, height: 100, pixels: pixels)
        let rle = RadianceHDRMemoryLimitTests.claiming(width: 8, height: 1)
        for (name, bytes) in [("flat.hdr", flat), ("rle.hdr", rle)] {
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            let fromFile = try RadianceHDRDecoder().decodePacked(contentsOf: url)
            let fromData = try RadianceHDRDecoder().decodePacked(Data(bytes))
            #expect(fromFile.width == fromData.width)
            #expect(fromFile.height == fromData.height)
            #expect(fromFile.pixels == fromData.pixels)
        }
        let cut = directory.appendingPathComponent("cut.hdr")
        try Data(flat.dropLast(10)).write(to: cut)
        let error = #expect(throws: CodecError.self) { try RadianceHDRDecoder().decodePacked(contentsOf: cut) }
        #expect(error?.kind == .truncated)
        #expect(error?.description == "truncated: \(cut.path) has 79990 bytes of pixel data, expected at least 80000 for"
            + " 200×100 flat RGBE pixels — the file is incomplete; download or export it again")
        let missing = #expect(throws: CodecError.self) { try RadianceHDRDecoder().decodePacked(contentsOf: directory.appendingPathComponent("none.hdr")) }
        #expect(missing?.kind == .unreadable)
    }
}
