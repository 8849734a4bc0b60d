import CameraCore
import Foundation

/// Grades bgra8 frames through a 3D LUT with tetrahedral interpolation on the 8-bit encoded values,
/// as DaVinci Resolve and OpenColorIO do, in integer arithmetic.
///
/// Everything that depends only on the LUT is computed once: each entry as one 32-bit word whose
/// three 10-bit lanes hold blue, green and red in quarters of an 8-bit step (a 256³ table is
/// 67 MB), and for each 8-bit input value of each channel its lattice cell (as an offset into the
/// table) and its place in that cell in 1/512ths. A pixel is then three lookups, the choice of one
/// of the cell's six tetrahedra by comparing the three places, and a weighted sum of four corners,
/// each spread to three 21-bit lanes of a 64-bit word and weighed by one 64-bit multiplication for
/// all three channels (no lane can carry into the next: 1020 × 512 plus a half is below 2²¹) —
/// no float conversion, no vector multiply of 4 lanes to use 3. The rounding of entries and places
/// moves a result by at most 0.38 of a step (an eighth, plus 255/1024 in a LUT of size 2), so an
/// identity LUT gives every value back exactly; other LUTs land within one step of exact
/// arithmetic. Alpha is left as it is.
public struct LUTFilter: FrameFilter {
    /// The LUT's title, if its file gives one.
    public let title: String?
    /// Lattice points along each axis.
    public let size: Int
    /// The entries, blue in bits 0…9, green in 10…19, red in 20…29, each 0…1020.
    private let table: [UInt32]
    /// For red, green then blue, 256 values each: the offset of the value's cell's first corner,
    /// shifted left by `placeBits`, plus the value's place within its cell, 0…`unit`. The three
    /// channels' words of a pixel sum to its cell's corner and its places' sum in one addition.
    private let cells: [Int]
    /// For each order of the three places (`Self.order`), the offsets from a cell's first corner
    /// of its tetrahedron's second and third corners.
    private let tetrahedra: [SIMD2<Int>]

    /// Quarters of a step: the finest whose three lanes fit a 32-bit word.
    private static let entryScale: Float = 255 * 4
    /// A place's full weight, 2⁹.
    private static let unit = 512
    /// Bits below a cell word's offset: room for the sum of three places.
    private static let placeBits = 11
    /// Bits per channel lane of a table word, and of the 64-bit word it is spread to for weighing.
    private static let entryBits: UInt32 = 10
    private static let laneBits: UInt64 = 21

    public init(_ lut: CubeLUT) {
        self.init(title: lut.title, size: lut.size, domainMin: lut.domainMin, domainMax: lut.domainMax,
                  table: lut.entries.map(Self.word))
    }

    /// The LUT in the `.cube` file at `path`, ready to apply: its entries are read a chunk at a
    /// time straight into the packed table, the only copy (67 MB for the largest, 256³).
    public init(contentsOfFile path: String) throws(FilterError) {
        let parser = try CubeParser<PackedEntries>.parse(file: path)
        let (size, entries) = try parser.finish()
        self.init(title: parser.title, size: size, domainMin: parser.domainMin, domainMax: parser.domainMax, table: entries.words)
    }

    /// A table's entries as `LUTFilter` keeps them, appended as the parser reads them.
    struct PackedEntries: CubeEntries {
        var words: [UInt32]

        init(capacity: Int) {
            words = []
            words.reserveCapacity(capacity)
        }

        var count: Int { words.count }

        mutating func append(_ entry: SIMD3<Float>) {
            words.append(LUTFilter.word(entry))
        }
    }

    /// An entry as a table word: blue, green and red in quarters of an 8-bit step.
    static func word(_ entry: SIMD3<Float>) -> UInt32 {
        let scaled = (entry.clamped(lowerBound: .zero, upperBound: .one) * Self.entryScale).rounded(.toNearestOrEven)
        return UInt32(scaled.z) | UInt32(scaled.y) << Self.entryBits | UInt32(scaled.x) << (2 * Self.entryBits)
    }

    /// A table word's three lanes spread 21 bits apart, so that one multiplication weighs them all.
    @inline(__always)
    private static func spread(_ word: UInt32) -> UInt64 {
        let word = UInt64(word), lane: UInt64 = 0x3FF
        return (word & lane) | (word & lane << 10) << 11 | (word & lane << 20) << 22
    }

    private init(title: String?, size: Int, domainMin: SIMD3<Float>, domainMax: SIMD3<Float>, table: [UInt32]) {
        self.title = title
        self.size = size
        self.table = table
        let strides = [1, size, size * size]
        var cells = [Int]()
        for channel in 0..<3 {
            let low = domainMin[channel], span = domainMax[channel] - domainMin[channel]
            for value in 0..<256 {
                let normalized = min(max((Float(value) / 255 - low) / span, 0), 1)
                let position = normalized * Float(size - 1)
                let cell = min(Int(position), size - 2)
                let place = Int(((position - Float(cell)) * Float(Self.unit)).rounded())
                cells.append(cell * strides[channel] << Self.placeBits | place)
            }
        }
        self.cells = cells
        tetrahedra = (0..<8).map { order in
            let redOverGreen = order & 4 != 0, greenOverBlue = order & 2 != 0, redOverBlue = order & 1 != 0
            let largest = redOverGreen && redOverBlue ? strides[0] : (!redOverGreen && greenOverBlue ? strides[1] : strides[2])
            let smallest = !redOverGreen && !redOverBlue ? strides[0] : (redOverGreen && !greenOverBlue ? strides[1] : strides[2])
            return SIMD2(largest, strides.reduce(0, +) - smallest)
        }
    }

    /// bgra8 only: a LUT maps R'G'B' colours, which nv12 holds only after a conversion.
    public func check(_ format: PixelFormat) throws(FilterError) {
        guard format == .bgra8 else {
            throw .unsupportedFormat(format, filter: "the LUT filter", supported: "bgra8")
        }
    }

    public func apply(to buffer: PixelBuffer, at _: Date) throws(FilterError) {
        try check(buffer.format)
        let plane = buffer.planes[0], width = buffer.width
        let diagonal = 1 + size + size * size
        table.withUnsafeBufferPointer { table in
            cells.withUnsafeBufferPointer { cells in
                tetrahedra.withUnsafeBufferPointer { tetrahedra in
                    let pixels = buffer.baseAddress(plane: 0)
                    for y in 0..<plane.height {
                        let row = (pixels + y * plane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                        for x in 0..<width {
                            let pixel = row[x]
                            let red = cells[Int((pixel >> 16) & 255)], green = cells[256 + Int((pixel >> 8) & 255)]
                            let blue = cells[512 + Int(pixel & 255)]
                            let colour = Self.tetrahedral(table, tetrahedra, cells: (red, green, blue), diagonal: diagonal)
                            row[x] = (pixel & 0xFF00_0000) | colour
                        }
                    }
                }
            }
        }
    }

    /// The index of the order of three places in `tetrahedra`: bit 2 set when red's is above
    /// green's, bit 1 when green's is above blue's, bit 0 when red's is above blue's.
    @inline(__always)
    private static func order(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r > g ? 4 : 0) | (g > b ? 2 : 0) | (r > b ? 1 : 0)
    }

    /// The colour at a pixel whose channels' cell words are `cells`, packed as a bgra8 pixel
    /// with alpha 0: the order of the places picks the tetrahedron, whose four corners are reached
    /// by stepping along the largest place's axis, then the middle one's, then the smallest's; the
    /// weights are the differences of consecutive places and sum to `unit`. The tetrahedron is
    /// looked up, not branched to, as noisy pixels would mispredict. Where places tie, the corners
    /// whose weights are zero may be either.
    @inline(__always)
    private static func tetrahedral(_ table: UnsafeBufferPointer<UInt32>, _ tetrahedra: UnsafeBufferPointer<SIMD2<Int>>,
                                    cells: (Int, Int, Int), diagonal: Int) -> UInt32 {
        let mask = (1 << placeBits) - 1
        let total = cells.0 &+ cells.1 &+ cells.2, corner = total >> placeBits
        let r = cells.0 & mask, g = cells.1 & mask, b = cells.2 & mask
        let largest = max(max(r, g), b), smallest = min(min(r, g), b), middle = (total & mask) &- largest &- smallest
        let steps = tetrahedra[order(r, g, b)]
        var sum = spread(table[corner]) &* UInt64(truncatingIfNeeded: unit &- largest)
        sum &+= spread(table[corner &+ steps.x]) &* UInt64(truncatingIfNeeded: largest &- middle)
        sum &+= spread(table[corner &+ steps.y]) &* UInt64(truncatingIfNeeded: middle &- smallest)
        sum &+= spread(table[corner &+ diagonal]) &* UInt64(truncatingIfNeeded: smallest)
        // Each lane holds 2048ths of a step (quarters × 512ths): add a half to each, keep bits 11…18.
        let half: UInt64 = 1024
        sum &+= half | half << laneBits | half << (2 * laneBits)
        let blue = (sum >> 11) & 255, green = (sum >> (laneBits + 11)) & 255, red = (sum >> (2 * laneBits + 11)) & 255
        return UInt32(truncatingIfNeeded: blue | green << 8 | red << 16)
    }
}
