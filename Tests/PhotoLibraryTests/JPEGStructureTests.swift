@testable import PhotoLibrary
import Testing

@Suite struct JPEGStructureTests {
    @Test("the dimensions come from a baseline or progressive frame header", arguments: [false, true])
    func dimensions(progressive: Bool) {
        let jpeg = JPEGStructure(JPEGBytes.make(width: 4032, height: 3024, progressive: progressive))
        #expect(jpeg.map { [$0.width, $0.height] } == [4032, 3024])
    }

    @Test("a frame header inside an APP1 segment (an EXIF thumbnail) is skipped with its segment")
    func skipsSegmentContents() {
        let thumbnail = JPEGBytes.make(width: 160, height: 120, scanLength: 10)
        let jpeg = JPEGStructure(JPEGBytes.make(width: 1920, height: 1080, app1: Array("Exif".utf8) + [0, 0] + thumbnail))
        #expect(jpeg.map { [$0.width, $0.height] } == [1920, 1080])
    }

    @Test("bytes that are not a complete JPEG with a frame header are refused")
    func refusesIncompleteFiles() {
        let whole = JPEGBytes.make(width: 64, height: 48)
        #expect(JPEGStructure(Array(whole.dropLast(2))) == nil, "no EOI: cut off mid-write")
        #expect(JPEGStructure(Array(whole.dropFirst(2))) == nil, "no SOI")
        #expect(JPEGStructure([0xFF, 0xD8, 0xFF, 0xD9]) == nil, "no frame header")
        #expect(JPEGStructure(Array("plain text, not an image".utf8)) == nil)
        let scanFirst = [0xFF, 0xD8] + JPEGBytes.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0xFF, 0xD9]
        #expect(JPEGStructure(scanFirst) == nil, "a scan before any frame header")
    }
}
