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
        #expect((chain.filters[1] as? LUTFilter)?.title == "Swap red and blue")
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

    @Test("a frame one filter refuses is left untouched by the filters before it")
    func refusedFrameUntouched() throws {
        let skin = BT709.encode(red: 224, green: 172, blue: 140, range: .video)
        let frame = try PixelBuffer(format: .nv12(.video), width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                frame[plane: 0, x: x, y: y] = skin.y &+ UInt8((x * 7 + y * 13) % 17)
                if y < 32 { frame[plane: 1, x: x, y: y] = x.isMultiple(of: 2) ? skin.cb : skin.cr }
            }
        }
        let original = frame.copy()
        let chain = FilterChain([try BeautyFilter(strength: 1), LUTFilter(try CubeLUT.identity(size: 2))])
        #expect(throws: FilterError("the LUT filter cannot filter a nv12 frame — render the picture as bgra8 before filtering it")) {
            try chain.apply(to: frame, at: Date())
        }
        #expect(frame.bytes(plane: 0) == original.bytes(plane: 0) && frame.bytes(plane: 1) == original.bytes(plane: 1))
        try chain.filters[0].apply(to: frame, at: Date())
        #expect(frame.bytes(plane: 0) != original.bytes(plane: 0), "the beauty filter alone changes this frame")
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

@Suite("Filtering a copy of a frame")
struct FilteredCopyTests {
    @Test("the copy is filtered and the frame left as it was; one buffer serves frame after frame")
    func copyIsFiltered() throws {
        let invert = try CubeLUT(size: 2, entries: CubeLUT.lattice(size: 2) { 1 - $0 })
        let copy = FilteredCopy(FilterChain([LUTFilter(invert)]))
        let frame = try TestFrames.everyValue()
        let original = frame.bytes(plane: 0)
        let first = try copy.filter(frame, at: Date())
        #expect(frame.bytes(plane: 0) == original)
        #expect(first.rgba(200, 10) == SIMD4(55, 245, 255 - UInt8((200 + 70) & 255), frame.rgba(200, 10).w))
        let second = try copy.filter(frame, at: Date())
        #expect(second === first)
    }

    @Test("an identity LUT's copy is the frame, bit for bit")
    func identityCopy() throws {
        let frame = try TestFrames.everyValue()
        let copy = try FilteredCopy(FilterChain([LUTFilter(CubeLUT.identity(size: 33))])).filter(frame, at: Date())
        #expect(copy.bytes(plane: 0) == frame.bytes(plane: 0))
    }

    @Test("a frame the chain refuses is an error, the frame untouched")
    func refused() throws {
        let frame = try PixelBuffer(format: .gray8, width: 8, height: 8)
        #expect(throws: FilterError("the LUT filter cannot filter a gray8 frame — render the picture as bgra8 before filtering it")) {
            try FilteredCopy(FilterChain([LUTFilter(CubeLUT.identity(size: 2))])).filter(frame, at: Date())
        }
    }
}
