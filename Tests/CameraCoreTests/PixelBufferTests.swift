import CameraCore
import Testing

/// One plane's expected shape: meaningful bytes per row, allocated bytes per row, rows.
struct PlaneShape: Equatable, CustomStringConvertible {
    let rowLength: Int
    let bytesPerRow: Int
    let height: Int

    init(_ rowLength: Int, _ bytesPerRow: Int, _ height: Int) {
        self.rowLength = rowLength
        self.bytesPerRow = bytesPerRow
        self.height = height
    }

    init(_ plane: PixelBuffer.Plane) {
        self.init(plane.rowLength, plane.bytesPerRow, plane.height)
    }

    var description: String { "\(rowLength)/\(bytesPerRow)×\(height)" }
}

@Suite("PixelFormat names")
struct PixelFormatTests {
    @Test("Every format's name parses back to the same format", arguments: PixelFormat.all)
    func nameRoundTrips(format: PixelFormat) {
        #expect(PixelFormat(name: format.name) == format)
        #expect(format.description == format.name)
    }

    @Test("Names are the documented stable strings")
    func documentedNames() {
        #expect(PixelFormat.all.map(\.name) == ["bgra8", "nv12", "nv12-full", "yuyv422", "gray8", "bayer16-rggb12"])
        #expect(PixelFormat(name: "bayer16-rggb10") == .bayer16(.rggb, significantBits: 10))
        #expect(PixelFormat(name: "bayer16-rggb11") == .bayer16(.rggb, significantBits: 11))
    }

    @Test("Unknown names parse to nil", arguments: ["", "rgb", "NV12", "bayer16-rggb9", "bayer16-rggb13", "nv12-video"])
    func unknownNames(name: String) {
        #expect(PixelFormat(name: name) == nil)
    }
}

@Suite("PixelBuffer layout")
struct PixelBufferLayoutTests {
    @Test("Plane layout of a 100×50 image in each format", arguments: [
        (PixelFormat.bgra8, [PlaneShape(400, 448, 50)]),
        (.nv12(.video), [PlaneShape(100, 128, 50), PlaneShape(100, 128, 25)]),
        (.nv12(.full), [PlaneShape(100, 128, 50), PlaneShape(100, 128, 25)]),
        (.yuyv422, [PlaneShape(200, 256, 50)]),
        (.gray8, [PlaneShape(100, 128, 50)]),
        (.bayer16(.rggb, significantBits: 10), [PlaneShape(200, 256, 50)]),
        (.bayer16(.rggb, significantBits: 12), [PlaneShape(200, 256, 50)]),
    ])
    func layoutOf100x50(format: PixelFormat, expected: [PlaneShape]) throws {
        let buffer = try PixelBuffer(format: format, width: 100, height: 50)
        #expect(buffer.planes.map(PlaneShape.init) == expected)
        #expect(buffer.format == format)
        #expect(buffer.width == 100 && buffer.height == 50)
        #expect(buffer.planes.first?.offset == 0)
        if expected.count == 2 {
            #expect(buffer.planes[1].offset == 128 * 50)
        }
    }

    @Test("A row that is already a multiple of 64 bytes gets no padding")
    func exactRowNeedsNoPadding() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 64, height: 2)
        #expect(buffer.planes.map(PlaneShape.init) == [PlaneShape(64, 64, 2)])
        let bgra = try PixelBuffer(format: .bgra8, width: 17, height: 1)
        #expect(bgra.planes.map(PlaneShape.init) == [PlaneShape(68, 128, 1)])
    }

    @Test("Rows are padded to 64 bytes, planes are aligned, contiguous and non-overlapping",
          arguments: PixelFormat.all, [(2, 2), (64, 2), (66, 4), (130, 6), (1920, 1080), (3840, 2160)])
    func layoutInvariants(format: PixelFormat, size: (width: Int, height: Int)) throws {
        let buffer = try PixelBuffer(format: format, width: size.width, height: size.height)
        var expectedOffset = 0
        for (index, plane) in buffer.planes.enumerated() {
            #expect(plane.bytesPerRow % 64 == 0)
            #expect(plane.bytesPerRow >= plane.rowLength)
            #expect(plane.bytesPerRow < plane.rowLength + 64)
            #expect(plane.offset == expectedOffset)
            #expect(Int(bitPattern: buffer.baseAddress(plane: index)) % 64 == 0)
            expectedOffset += plane.bytesPerRow * plane.height
        }
        let bytesPerPixel = switch format {
        case .bgra8: 4
        case .yuyv422, .bayer16: 2
        case .nv12, .gray8: 1
        }
        #expect(buffer.planes[0].rowLength == size.width * bytesPerPixel)
        #expect(buffer.planes[0].height == size.height)
        if case .nv12 = format {
            #expect(buffer.planes.count == 2)
            #expect(buffer.planes[1].height == size.height / 2)
            #expect(buffer.planes[1].rowLength == size.width)
        } else {
            #expect(buffer.planes.count == 1)
        }
    }

    @Test("Sizes every format allows, including odd ones where the format permits", arguments: [
        (PixelFormat.gray8, 1, 1), (.bgra8, 3, 5), (.yuyv422, 2, 3), (.gray8, 16384, 1), (.nv12(.video), 2, 16384),
    ])
    func permittedSizes(format: PixelFormat, width: Int, height: Int) throws {
        let buffer = try PixelBuffer(format: format, width: width, height: height)
        #expect(buffer.width == width && buffer.height == height)
    }

    @Test("Impossible sizes and formats throw, naming the size, format and reason", arguments: [
        (PixelFormat.nv12(.video), 101, 100, "even width and height"),
        (.nv12(.full), 100, 51, "even width and height"),
        (.yuyv422, 3, 2, "even width"),
        (.bayer16(.rggb, significantBits: 9), 100, 100, "not 9"),
        (.bayer16(.rggb, significantBits: 13), 100, 100, "not 13"),
        (.bayer16(.rggb, significantBits: 12), 101, 100, "even width and height"),
        (.gray8, 0, 100, "1…16384"),
        (.bgra8, 100, 0, "1…16384"),
        (.bgra8, 0, 0, "1…16384"),
        (.gray8, -4, 10, "1…16384"),
        (.gray8, 16385, 1, "1…16384"),
    ])
    func invalidDimensionsThrow(format: PixelFormat, width: Int, height: Int, reasonFragment: String) throws {
        let error = try #require(throws: PixelBufferError.self) {
            try PixelBuffer(format: format, width: width, height: height)
        }
        switch error {
        case .invalidDimensions(let errorWidth, let errorHeight, let errorFormat, let reason):
            #expect(errorWidth == width && errorHeight == height && errorFormat == format)
            #expect(reason.contains(reasonFragment))
        }
        let message = error.description
        #expect(message.contains("\(width)x\(height)"))
        #expect(message.contains(format.name))
        #expect(message.contains(reasonFragment))
    }

    @Test("A bad bayer bit depth is reported before an odd size")
    func bitDepthCheckedFirst() {
        #expect(throws: PixelBufferError.invalidDimensions(
            width: 3, height: 3, format: .bayer16(.rggb, significantBits: 14),
            reason: "bayer16 holds 8, 10, 11, 12 or 16 significant bits (16: a merged bracket or a 16-bit sensor), not 14")) {
            try PixelBuffer(format: .bayer16(.rggb, significantBits: 14), width: 3, height: 3)
        }
    }

    @Test("The error message reads as a complete sentence")
    func errorMessageText() {
        let error = PixelBufferError.invalidDimensions(width: 101, height: 100, format: .nv12(.video),
                                                       reason: "nv12 needs an even width and height")
        #expect(error.description
            == "cannot lay out a 101x100 nv12 image: nv12 needs an even width and height — choose a size the format allows")
    }
}

@Suite("PixelBuffer contents")
struct PixelBufferContentTests {
    @Test("A new buffer is zero-filled, padding included", arguments: PixelFormat.all)
    func newBufferIsZero(format: PixelFormat) throws {
        let buffer = try PixelBuffer(format: format, width: 10, height: 6)
        for index in buffer.planes.indices {
            buffer.withUnsafeBytes(plane: index) { bytes in
                #expect(bytes.count == buffer.planes[index].bytesPerRow * buffer.planes[index].height)
                #expect(bytes.allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("The byte subscript reads back what was written, in every plane")
    func byteSubscriptRoundTrips() throws {
        let buffer = try PixelBuffer(format: .nv12(.full), width: 6, height: 4)
        for index in buffer.planes.indices {
            let plane = buffer.planes[index]
            for y in 0..<plane.height {
                for x in 0..<plane.rowLength {
                    buffer[plane: index, x: x, y: y] = UInt8(truncatingIfNeeded: index * 100 + y * 10 + x)
                }
            }
        }
        #expect(buffer[plane: 0, x: 0, y: 0] == 0)
        #expect(buffer[plane: 0, x: 5, y: 3] == 35)
        #expect(buffer[plane: 1, x: 5, y: 1] == 115)
        #expect(buffer[plane: 1, x: 0, y: 0] == 100)
        // The chroma plane is separate memory: writing it did not disturb the luma plane.
        #expect(buffer.bytes(plane: 0) == (0..<4).flatMap { y in (0..<6).map { UInt8(y * 10 + $0) } })
    }

    @Test("The byte subscript addresses row y at y × bytesPerRow")
    func byteSubscriptUsesStride() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 3, height: 2)
        buffer[plane: 0, x: 2, y: 1] = 0xAB
        let raw = buffer.withUnsafeBytes(plane: 0) { Array($0) }
        #expect(raw[buffer.planes[0].bytesPerRow + 2] == 0xAB)
        #expect(raw.filter { $0 != 0 }.count == 1)
    }

    @Test("16-bit samples read back what was written and are stored little-endian")
    func sample16RoundTrips() throws {
        let buffer = try PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 4, height: 2)
        buffer[sample16: 3, y: 1] = 0x0FFF
        buffer[sample16: 0, y: 0] = 0x0123
        buffer[sample16: 1, y: 0] = 0x0A00
        #expect(buffer[sample16: 3, y: 1] == 0x0FFF)
        #expect(buffer[sample16: 0, y: 0] == 0x0123)
        #expect(buffer[sample16: 1, y: 0] == 0x0A00)
        #expect(buffer[sample16: 2, y: 1] == 0)
        #expect(buffer[plane: 0, x: 6, y: 1] == 0xFF)
        #expect(buffer[plane: 0, x: 7, y: 1] == 0x0F)
        #expect(buffer[plane: 0, x: 0, y: 0] == 0x23)
        #expect(buffer[plane: 0, x: 1, y: 0] == 0x01)
    }

    @Test("bytes(plane:) returns the rows packed, without the padding")
    func bytesStripPadding() throws {
        let buffer = try PixelBuffer(format: .bgra8, width: 3, height: 2)   // 12 of 64 bytes per row used
        buffer.withUnsafeMutableBytes(plane: 0) { bytes in
            for i in bytes.indices { bytes[i] = 0xEE }                     // poison the padding too
        }
        for y in 0..<2 {
            for x in 0..<12 {
                buffer[plane: 0, x: x, y: y] = UInt8(y * 12 + x)
            }
        }
        let packed = buffer.bytes(plane: 0)
        #expect(packed.count == 24)
        #expect(packed == (0..<24).map(UInt8.init))
    }

    @Test("bytes(plane:) of the nv12 chroma plane has width × height/2 bytes")
    func chromaBytes() throws {
        let buffer = try PixelBuffer(format: .nv12(.video), width: 10, height: 6)
        buffer[plane: 1, x: 9, y: 2] = 7
        let chroma = buffer.bytes(plane: 1)
        #expect(chroma.count == 30)
        #expect(chroma.last == 7)
        #expect(chroma.dropLast().allSatisfy { $0 == 0 })
        #expect(buffer.bytes(plane: 0).count == 60)
    }

    @Test("copy() is deep: new memory, same contents, independent afterwards")
    func copyIsDeep() throws {
        let original = try PixelBuffer(format: .nv12(.video), width: 4, height: 2)
        original[plane: 0, x: 1, y: 1] = 42
        original[plane: 1, x: 3, y: 0] = 99
        let copy = original.copy()
        #expect(copy.format == original.format)
        #expect(copy.width == 4 && copy.height == 2)
        #expect(copy.planes == original.planes)
        #expect(copy.baseAddress(plane: 0) != original.baseAddress(plane: 0))
        #expect(copy.bytes(plane: 0) == original.bytes(plane: 0))
        #expect(copy.bytes(plane: 1) == original.bytes(plane: 1))
        #expect(copy[plane: 1, x: 3, y: 0] == 99)

        original[plane: 0, x: 1, y: 1] = 1
        copy[plane: 1, x: 3, y: 0] = 2
        #expect(copy[plane: 0, x: 1, y: 1] == 42)
        #expect(original[plane: 1, x: 3, y: 0] == 99)
    }

    @Test("withUnsafeBytes passes through the closure's result and errors")
    func unsafeAccessorsForwardResultsAndErrors() throws {
        struct Stop: Error, Equatable {}
        let buffer = try PixelBuffer(format: .gray8, width: 2, height: 2)
        buffer.withUnsafeMutableBytes(plane: 0) { $0[0] = 5 }
        #expect(buffer.withUnsafeBytes(plane: 0) { $0[0] } == 5)
        #expect(throws: Stop()) {
            try buffer.withUnsafeBytes(plane: 0) { (_) throws(Stop) -> Int in throw Stop() }
        }
    }
}

@Suite("PixelBuffer bounds checks")
struct PixelBufferBoundsTests {
    @Test("Reading past the meaningful bytes of a row traps, naming the pixel and buffer")
    func readingIntoPaddingTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let buffer = try? PixelBuffer(format: .gray8, width: 3, height: 2)
            _ = buffer?[plane: 0, x: 3, y: 0]   // inside the row's padding, outside the image
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("pixel access (3, 0) outside plane 0 of a 3x2 gray8 buffer"))
    }

    @Test("Writing below the last row traps")
    func writingPastLastRowTraps() async {
        await #expect(processExitsWith: .failure) {
            let buffer = try? PixelBuffer(format: .gray8, width: 3, height: 2)
            buffer?[plane: 0, x: 0, y: 2] = 1
        }
    }

    @Test("A 16-bit sample past the row end traps")
    func sample16PastRowTraps() async {
        await #expect(processExitsWith: .failure) {
            let buffer = try? PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 4, height: 2)
            _ = buffer?[sample16: 4, y: 0]
        }
    }

    @Test("An in-bounds access in the same setting exits cleanly")
    func inBoundsAccessDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let buffer = try? PixelBuffer(format: .bayer16(.rggb, significantBits: 12), width: 4, height: 2)
            buffer?[sample16: 3, y: 1] = 1
            precondition(buffer?[sample16: 3, y: 1] == 1)
        }
    }
}

@Suite("PixelBuffer from packed bytes")
struct PackedPixelsTests {
    @Test("bgra8(packed:) is the inverse of rgb8(), in RGB and in BGR order, alpha 255", arguments: [PackedChannelOrder.rgb, .bgr])
    func roundTrip(order: PackedChannelOrder) throws {
        let (width, height) = (5, 3)
        let rgb = (0..<(width * height * 3)).map { UInt8(($0 * 37) % 256) }
        let packed = order == .rgb ? rgb : stride(from: 0, to: rgb.count, by: 3).flatMap { [rgb[$0 + 2], rgb[$0 + 1], rgb[$0]] }
        let buffer = try packed.withUnsafeBytes { try PixelBuffer.bgra8(packed: $0, width: width, height: height, order: order) }
        #expect(buffer.format == .bgra8 && buffer.width == width && buffer.height == height)
        #expect(buffer.rgb8() == rgb)
        #expect((0..<height).allSatisfy { y in (0..<width).allSatisfy { x in buffer[plane: 0, x: 4 * x + 3, y: y] == 255 } })
    }
}
