import CameraCore
@testable import CameraFilters
import Foundation
import Testing

@Suite("Grading frames through a 3D LUT")
struct LUTFilterTests {
    @Test("an identity LUT leaves every 8-bit value of every channel exactly as it was", arguments: [2, 17, 33, 65])
    func identityIsBitExact(size: Int) throws {
        let frame = try TestFrames.everyValue()
        let original = frame.bytes(plane: 0)
        try LUTFilter(CubeLUT.identity(size: size)).apply(to: frame, at: Date())
        #expect(frame.bytes(plane: 0) == original)
    }

    @Test("an identity LUT read from a .cube file with 6-decimal entries is bit-exact too")
    func identityFromAFile() throws {
        let size = 33
        var text = "TITLE \"identity\"\nLUT_3D_SIZE \(size)\n"
        for entry in CubeLUT.lattice(size: size, { $0 }) {
            text += String(format: "%.6f %.6f %.6f\n", entry.x, entry.y, entry.z)
        }
        let frame = try TestFrames.everyValue()
        let original = frame.bytes(plane: 0)
        try LUTFilter(contentsOfFile: TestFrames.file("identity.cube", text)).apply(to: frame, at: Date())
        #expect(frame.bytes(plane: 0) == original)
    }

    @Test("known LUTs map known colours to known colours", arguments: [
        ("swap red and blue", SIMD4<UInt8>(200, 50, 10, 255), SIMD4<UInt8>(10, 50, 200, 255)),
        ("swap red and blue", SIMD4<UInt8>(255, 0, 128, 7), SIMD4<UInt8>(128, 0, 255, 7)),
        ("invert", SIMD4<UInt8>(200, 50, 10, 255), SIMD4<UInt8>(55, 205, 245, 255)),
        ("invert", SIMD4<UInt8>(0, 255, 128, 0), SIMD4<UInt8>(255, 0, 127, 0)),
    ])
    func knownColours(lut name: String, input: SIMD4<UInt8>, expected: SIMD4<UInt8>) throws {
        let entries = CubeLUT.lattice(size: 9) { colour in
            name == "invert" ? 1 - colour : SIMD3(colour.z, colour.y, colour.x)
        }
        let frame = try TestFrames.bgra(width: 4, height: 2) { _, _ in input }
        try LUTFilter(CubeLUT(size: 9, entries: entries)).apply(to: frame, at: Date())
        #expect(frame.rgba(3, 1) == expected)
    }

    @Test("a curved LUT gives its own entries at the lattice points and interpolates between them along grey, within one step")
    func curvedLUT() throws {
        // With 18 points the lattice lies on multiples of 15 in 8-bit values.
        let lut = try CubeLUT(size: 18, entries: CubeLUT.lattice(size: 18) { $0 * $0 })
        let frame = try TestFrames.bgra(width: 256, height: 1) { x, _ in SIMD4(UInt8(x), UInt8(x), UInt8(x), 255) }
        try LUTFilter(lut).apply(to: frame, at: Date())
        for value in 0..<256 {
            let cell = min(value / 15, 16), place = Double(value - 15 * cell) / 15
            let low = Double(15 * cell) / 255, high = Double(15 * (cell + 1)) / 255
            let expected = UInt8((((1 - place) * low * low + place * high * high) * 255).rounded())
            let pixel = frame.rgba(value, 0)
            // Within one step: the filter's fixed point rounds a value near a half either way.
            #expect(abs(Int(pixel.x) - Int(expected)) <= 1 && pixel.x == pixel.y && pixel.y == pixel.z && pixel.w == 255, "grey \(value)")
        }
    }

    @Test("a LUT's domain maps its ends to the first and last lattice points")
    func domain() throws {
        let lut = try CubeLUT(size: 2, entries: CubeLUT.lattice(size: 2) { $0 },
                              domainMin: SIMD3(repeating: 0.2), domainMax: SIMD3(repeating: 0.6))
        let frame = try TestFrames.bgra(width: 3, height: 1) { x, _ in
            [SIMD4<UInt8>(51, 51, 51, 255), SIMD4(127, 0, 255, 255), SIMD4(153, 153, 153, 255)][x]
        }
        try LUTFilter(lut).apply(to: frame, at: Date())
        #expect(frame.rgba(0, 0) == SIMD4(0, 0, 0, 255))
        #expect(frame.rgba(1, 0) == SIMD4(190, 0, 255, 255))
        #expect(frame.rgba(2, 0) == SIMD4(255, 255, 255, 255))
    }

    @Test("the grade agrees with FFmpeg's lut3d filter (tetrahedral) within one step")
    func agreesWithFFmpeg() throws {
        let size = 17
        var text = "LUT_3D_SIZE \(size)\n"
        for entry in CubeLUT.lattice(size: size, { c in SIMD3(c.y * c.y, c.z.squareRoot(), 0.2 + 0.6 * c.x) }) {
            text += String(format: "%.6f %.6f %.6f\n", entry.x, entry.y, entry.z)
        }
        let path = try TestFrames.file("curve.cube", text)
        let frame = try TestFrames.everyValue()
        let input = frame.bytes(plane: 0)
        try LUTFilter(contentsOfFile: path).apply(to: frame, at: Date())
        let peer = try FFmpegPeer.filter(input, width: 256, height: 256, graph: "lut3d=file=\(path):interp=tetrahedral")
        let differences = zip(frame.bytes(plane: 0), peer).enumerated().filter { $0.offset % 4 != 3 }
            .map { abs(Int($0.element.0) - Int($0.element.1)) }
        let largest = differences.max() ?? 0
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        print("LUT vs ffmpeg lut3d: largest difference \(largest), mean \(mean) over \(differences.count) samples")
        #expect(largest <= 1)
    }

    @Test("a frame in another format is refused, untouched")
    func otherFormats() throws {
        let frame = try PixelBuffer(format: .nv12(.video), width: 8, height: 8)
        #expect(throws: FilterError("the LUT filter cannot filter a nv12 frame — render the picture as bgra8 before filtering it")) {
            try LUTFilter(CubeLUT.identity(size: 2)).apply(to: frame, at: Date())
        }
    }
}
