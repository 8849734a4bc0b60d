import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

@Suite struct RadianceHDRRoundTripTests {
    let encoder = RadianceHDREncoder()
    let decoder = RadianceHDRDecoder()

    @Test("encoding then decoding keeps every sample within RGBE precision",
          arguments: [(37, 5), (5, 3), (8, 1), (300, 2)])
    func roundTripKeepsValues(width: Int, height: Int) throws {
        let original = sampleImage(width: width, height: height)
        let decoded = try decoder.decode(encoder.encode(original))
        #expect(decoded.width == width && decoded.height == height)
        for y in 0..<height {
            for x in 0..<width {
                // RGBE shares one exponent per pixel: the error is relative to the largest channel.
                let tolerance = 0.01 * original[x, y].max()
                let difference = decoded[x, y] - original[x, y]
                let error = max(abs(difference.x), abs(difference.y), abs(difference.z))
                #expect(error <= tolerance, "pixel (\(x), \(y)): \(decoded[x, y]) vs \(original[x, y])")
            }
        }
    }

    @Test("values RGBE cannot hold are written as 0 or clamped, then sanitised on reading")
    func unrepresentableValuesAreSanitized() throws {
        let samples: [Float] = [.nan, -5, 1, .infinity, 2, 3, 1e20, 1e20, 1e20, 0.5, -.infinity, 0.25]
        let decoded = try decoder.decode(encoder.encode(RadianceImage(width: 2, height: 2, samples: samples)))
        #expect(decoded.samples.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1e9 })
        #expect(decoded[0, 1] == SIMD3(1e9, 1e9, 1e9), "huge values are clamped to the sanitize ceiling")
        #expect(decoded[1, 0].x == 1e9, "infinity is clamped to the sanitize ceiling")
        #expect(decoded[0, 0] == SIMD3(0, 0, 1), "NaN and negative samples become 0")
        #expect(decoded[1, 1] == SIMD3(0.5, 0, 0.25))
    }

    @Test("hand-written flat pixels decode to their RGBE values, the largest one clamped")
    func flatPixelsDecode() throws {
        let bytes = HDRBytes.flat(width: 2, height: 2, pixels: [
            [128, 64, 0, 129], [0, 0, 0, 0],
            [128, 128, 128, 128], [255, 255, 255, 255],
        ])
        let image = try decoder.decode(Data(bytes))
        #expect(image[0, 0] == SIMD3(1, 0.5, 0))
        #expect(image[1, 0] == SIMD3(0, 0, 0))
        #expect(image[0, 1] == SIMD3(0.5, 0.5, 0.5))
        #expect(image[1, 1] == SIMD3(1e9, 1e9, 1e9), "255·2¹¹⁹ ≈ 1.7e38 is clamped by sanitize()")
    }

    @Test("flat pixels in an image wide enough for RLE decode as flat")
    func wideFlatPixelsDecode() throws {
        let pixels: [[UInt8]] = (0..<16).map { index in [128 + UInt8(index), 128, 128, 128] }
        let image = try decoder.decode(Data(HDRBytes.flat(width: 8, height: 2, pixels: pixels)))
        for index in 0..<16 {
            #expect(image[index % 8, index / 8].x == Float(128 + index) / 256)
        }
    }

    @Test("a hand-written RLE scanline with runs and copies decodes")
    func handWrittenRLEDecodes() throws {
        let scanline: [UInt8] = [
            2, 2, 0, 8,                         // RLE marker, width 8
            136, 128,                           // R: a run of 8 × 128
            136, 64,                            // G: a run of 8 × 64
            3, 0, 1, 2, 133, 7,                 // B: a copy of 0, 1, 2, then a run of 5 × 7
            136, 129,                           // E: a run of 8 × 129
        ]
        let image = try decoder.decode(Data(HDRBytes.header(resolution: "-Y 1 +X 8") + scanline))
        let blue: [Float] = [0, 1, 2, 7, 7, 7, 7, 7].map { $0 / 128 }
        for x in 0..<8 {
            #expect(image[x, 0] == SIMD3(1, 0.5, blue[x]))
        }
    }

    @Test("the #?RGBE magic, a missing FORMAT line and CRLF line ends are accepted")
    func headerVariantsAreAccepted() throws {
        var bytes = HDRBytes.header(magic: "#?RGBE", format: nil, resolution: "-Y 1 +X 1") + [128, 0, 0, 129]
        #expect(try decoder.decode(Data(bytes))[0, 0] == SIMD3(1, 0, 0))
        bytes = Array("#?RADIANCE\r\nFORMAT=32-bit_rle_rgbe\r\n\r\n-Y 1 +X 1\r\n".utf8) + [0, 128, 0, 129]
        #expect(try decoder.decode(Data(bytes))[0, 0] == SIMD3(0, 1, 0))
    }

    @Test("write(to:) then decode(contentsOf:) round-trips through a file")
    func fileRoundTrip() throws {
        try withScratchDirectory { directory in
            let url = directory.appendingPathComponent("scene.hdr")
            let original = sampleImage(width: 16, height: 4)
            try encoder.write(original, to: url)
            let decoded = try decoder.decode(contentsOf: url)
            #expect(decoded.size == original.size)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["scene.hdr"])
        }
    }

    @Test("an image larger than the decoder accepts is refused by the encoder")
    func encoderRefusesHugeImages() {
        #expect(throws: CodecError.self) { try encoder.encode(RadianceImage(width: 32769, height: 1)) }
    }
}
