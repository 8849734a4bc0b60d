import CameraCodecs
import CameraCore
import CameraTestSupport
import Foundation
import Testing

/// DNGs from `DNGWriter` read back and developed by rawpy (LibRaw 0.22 in its PyPI wheel), through
/// Tests/Python/dng_peer.py.
@Suite struct DNGRawPyTests {
    @Test("rawpy reads back every sample of the mosaic bit-exact, with its pattern, levels and white balance")
    func mosaic() async throws {
        let raw = try DNGSamples.allValues()
        let dng = try DNGWriter.data(raw: raw, metadata: DNGSamples.metadata(),
                                     preview: Frames.gradient(.bgra8, width: 128, height: 96))
        let (read, samples) = try await withScratchDirectory { folder in
            let output = folder.appendingPathComponent("mosaic.u16")
            let read = try await RawPy.run("mosaic", [DNGSamples.file(dng, in: folder).path, output.path])
            let bytes = try Data(contentsOf: output)
            return (read, stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 })
        }
        #expect(read["width"] as? Int == 256)
        #expect(read["height"] as? Int == 192)
        #expect(samples == DNGSamples.samples(raw))
        #expect(read["pattern"] as? [[Int]] == [[0, 1], [3, 2]])
        #expect(read["colors"] as? String == "RGBG")
        #expect(read["black"] as? [Int] == [256, 256, 256, 256])
        #expect(read["white"] as? Int == 4095)
        let balance = (read["cameraWhiteBalance"] as? [Double] ?? []).prefix(3)
        #expect(zip(balance, [1.9, 1, 1.6]).allSatisfy { abs($0 - $1) < 1e-4 }, "\(balance)")
    }

    @Test("rawpy's default postprocess() develops a grey card under the shot's gains to a neutral grey",
          arguments: [WhiteBalanceGains(red: 1.9, green: 1, blue: 1.6), WhiteBalanceGains(red: 1.25, green: 1, blue: 2.6)])
    func neutral(gains: WhiteBalanceGains) async throws {
        let dng = try DNGWriter.data(raw: DNGSamples.greyCard(gains: gains), metadata: DNGSamples.metadata(gains: gains))
        let developed = try await withScratchDirectory { folder in try await RawPy.run("develop", [DNGSamples.file(dng, in: folder).path]) }
        let centre = developed["centre"] as? [Double] ?? []
        try #require(centre.count == 3, "\(developed)")
        let (red, green, blue) = (centre[0], centre[1], centre[2])
        #expect(green > 50 && green < 250, "centre \(centre)")
        #expect((0.97...1.03).contains(red / green), "R/G \(red / green), centre \(centre)")
        #expect((0.97...1.03).contains(blue / green), "B/G \(blue / green), centre \(centre)")
    }
}
