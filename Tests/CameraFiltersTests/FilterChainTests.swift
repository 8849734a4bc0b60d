import CameraCore
@testable import CameraFilters
import Foundation
import Testing

@Suite("Chains of filters")
struct FilterChainTests {
    @Test("settings build beauty, then the LUT, then the watermark; no settings build an empty chain")
    func order() throws {
        #expect(try FilterChain(FilterSettings()).isEmpty)
        let lut = try TestFrames.file("swap.cube", CubeLUTTests.swapping)
        let chain = try FilterChain(FilterSettings(beauty: 0.4, lutPath: lut, watermark: WatermarkSettings()))
        #expect(chain.filters.count == 3)
        #expect((chain.filters[0] as? BeautyFilter)?.strength == 0.4)
        #expect((chain.filters[1] as? LUTFilter)?.lut.title == "Swap red and blue")
        #expect(chain.filters[2] is Watermark)
    }

    @Test("the watermark comes after the grade, so the LUT never tints the text")
    func watermarkAfterGrade() throws {
        let settings = WatermarkSettings(corner: .topLeft, timeZone: TimeZone(identifier: "UTC")!)
        let date = Date(timeIntervalSince1970: 1_796_152_854)
        let invert = try TestFrames.file("invert.cube", "LUT_3D_SIZE 2\n" + CubeLUT.lattice(size: 2) { 1 - $0 }
            .map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n"))
        let chained = try TestFrames.bgra(width: 320, height: 180) { _, _ in SIMD4(0, 40, 255, 255) }
        try FilterChain(FilterSettings(lutPath: invert, watermark: settings)).apply(to: chained, at: date)
        let byHand = try TestFrames.bgra(width: 320, height: 180) { _, _ in SIMD4(255, 215, 0, 255) }
        try Watermark(settings).apply(to: byHand, at: date)
        #expect(chained.bytes(plane: 0) == byHand.bytes(plane: 0))
    }

    @Test("bad settings fail when the chain is built, naming what is wrong", arguments: [
        (FilterSettings(beauty: 1.5), "a beauty strength of 1.5 is outside 0…1"),
        (FilterSettings(lutPath: "/nonexistent/grade.cube"), "cannot read the LUT /nonexistent/grade.cube: no such file"),
        (FilterSettings(watermark: WatermarkSettings(fontPath: "/nonexistent.ttf")), "the watermark's font /nonexistent.ttf is missing"),
    ])
    func badSettings(settings: FilterSettings, expected: String) {
        #expect { try FilterChain(settings) } throws: { error in
            (error as? FilterError)?.message.hasPrefix(expected) == true
        }
    }

    @Test("a malformed .cube named in the settings fails with its line")
    func malformedCube() throws {
        let path = try TestFrames.file("broken.cube", "LUT_3D_SIZE 2\n0 0 0\n0 0 x\n")
        #expect(throws: FilterError("\(path), line 3: \"x\" is not a number — write the value as a decimal number such as 0.5")) {
            try FilterChain(FilterSettings(lutPath: path))
        }
    }
}
