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
