import CameraCore
import Foundation

/// Grades bgra8 frames through a 3D LUT with tetrahedral interpolation on the 8-bit encoded values,
/// as DaVinci Resolve and OpenColorIO do.
///
/// Everything that depends only on the LUT is computed once: the entries scaled to 0…255, and
/// for each 8-bit input value of each channel its lattice cell (as an offset into the table) and
/// its place in that cell. A pixel is then three lookups, the choice of one of the cell's six
/// tetrahedra by comparing the three places, and a weighted sum of four corners. An identity LUT
/// gives every value back exactly; alpha is left as it is.
public struct LUTFilter: FrameFilter {
    public let lut: CubeLUT
    /// The entries as 0…255 values, alpha lane unused.
    private let table: [SIMD4<Float>]
    /// For red, green then blue, 256 values each: the offset of the value's cell's first corner.
    private let cellOffsets: [Int32]
    /// For red, green then blue, 256 values each: the value's place within its cell, 0…1.
    private let places: [Float]

    public init(_ lut: CubeLUT) {
        self.lut = lut
        table = lut.entries.map { SIMD4($0 * 255, 0) }
        let strides = [1, lut.size, lut.size * lut.size]
        var cellOffsets = [Int32](), places = [Float]()
        for channel in 0..<3 {
            let low = lut.domainMin[channel], span = lut.domainMax[channel] - lut.domainMin[channel]
            for value in 0..<256 {
                let normalized = min(max((Float(value) / 255 - low) / span, 0), 1)
                let position = normalized * Float(lut.size - 1)
                let cell = min(Int(position), lut.size - 2)
                cellOffsets.append(Int32(cell * strides[channel]))
                places.append(position - Float(cell))
            }
        }
        self.cellOffsets = cellOffsets
        self.places = places
    }

    /// The LUT in the `.cube` file at `path`, ready to apply.
    public init(contentsOfFile path: String) throws(FilterError) {
        self.init(try CubeLUT(contentsOfFile: path))
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
        let greenStride = lut.size, blueStride = lut.size * lut.size
        table.withUnsafeBufferPointer { table in
            cellOffsets.withUnsafeBufferPointer { cells in
                places.withUnsafeBufferPointer { places in
                    let pixels = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
                    for y in 0..<plane.height {
                        let row = pixels + y * plane.bytesPerRow
                        for x in 0..<width {
                            let pixel = row + 4 * x
                            let red = Int(pixel[2]), green = 256 + Int(pixel[1]), blue = 512 + Int(pixel[0])
                            let colour = Self.tetrahedral(
                                table, corner: Int(cells[red] &+ cells[green] &+ cells[blue]),
                                places: (places[red], places[green], places[blue]), strides: (1, greenStride, blueStride))
                            pixel[0] = Self.byte(colour.z)
                            pixel[1] = Self.byte(colour.y)
                            pixel[2] = Self.byte(colour.x)
                        }
                    }
                }
            }
        }
    }

    /// The colour at `places` in the cell whose first corner is `corner`: the places sorted
    /// (largest first) pick the tetrahedron, whose four corners are reached by stepping along the
    /// largest place's axis, then the middle one's, then the smallest's; the weights are the
    /// differences of consecutive places. Selects by conditional moves, not branches, which
    /// noisy pixels would mispredict. Where places tie, the corners whose weights are zero may
    /// be either.
    @inline(__always)
    private static func tetrahedral(_ table: UnsafeBufferPointer<SIMD4<Float>>, corner: Int,
                                    places: (Float, Float, Float), strides: (Int, Int, Int)) -> SIMD4<Float> {
        let (r, g, b) = places
        let largest = max(max(r, g), b), smallest = min(min(r, g), b), middle = r + g + b - largest - smallest
        let redOverGreen = r > g, greenOverBlue = g > b, redOverBlue = r > b
        let largestStride = redOverGreen && redOverBlue ? strides.0 : (!redOverGreen && greenOverBlue ? strides.1 : strides.2)
        let smallestStride = !redOverGreen && !redOverBlue ? strides.0 : (redOverGreen && !greenOverBlue ? strides.1 : strides.2)
        let all = strides.0 &+ strides.1 &+ strides.2
        let c0 = table[corner]
        let c1 = table[corner &+ largestStride]
        let c2 = table[corner &+ all &- smallestStride]
        let c3 = table[corner &+ all]
        // Products and sums, not `addProduct`: without FMA in the target, that is a libm call per lane.
        return c0 * (1 - largest) + c1 * (largest - middle) + c2 * (middle - smallest) + c3 * smallest
    }

    /// The nearest byte to `value`, clamped to 0…255: adding 2²³ rounds it into the float's low
    /// mantissa bits, with no conversion instruction and no overflow trap.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(max(value, 0), 255) + 8_388_608).bitPattern)
    }
}
