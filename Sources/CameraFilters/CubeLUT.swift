import Foundation

/// A 3D colour lookup table in the Adobe/Resolve `.cube` format: `size`³ output colours on a lattice
/// over the input domain, red varying fastest.
///
/// The parser reads `TITLE`, `LUT_3D_SIZE` (2…256, the limit on a table's size: 256³ entries are
/// 268 MB here and 67 MB in a `LUTFilter`), `DOMAIN_MIN`/`DOMAIN_MAX` (and Resolve's
/// `LUT_3D_INPUT_RANGE`), `#` comments and blank lines. Every error names the file, the line and
/// what is wrong, so a user can fix the file rather than guess.
public struct CubeLUT: Sendable, Equatable {
    /// The lattice sizes the format allows.
    public static let sizes = 2...256

    public let title: String?
    /// Lattice points along each axis.
    public let size: Int
    /// The input colour mapped to the lattice's first point, per channel.
    public let domainMin: SIMD3<Float>
    /// The input colour mapped to the lattice's last point, per channel.
    public let domainMax: SIMD3<Float>
    /// The output colours: the entry for lattice point (r, g, b) is at `r + g·size + b·size²`.
    public let entries: [SIMD3<Float>]

    /// A table from its parts; throws when `size` is outside 2…256, the entry count is not `size`³
    /// or the domain is empty in a channel.
    public init(size: Int, entries: [SIMD3<Float>], title: String? = nil,
                domainMin: SIMD3<Float> = .zero, domainMax: SIMD3<Float> = .one) throws(FilterError) {
        guard CubeLUT.sizes.contains(size) else {
            throw FilterError("a 3D LUT of size \(size) is outside 2…256 — use a lattice of 2 to 256 points per axis")
        }
        guard entries.count == size * size * size else {
            throw FilterError("a 3D LUT of size \(size) needs \(size * size * size) entries, not \(entries.count) — give one colour per lattice point")
        }
        guard all(domainMin .< domainMax) else {
            throw FilterError("the LUT's domain \(domainMin)…\(domainMax) is empty in a channel — give each channel a minimum below its maximum")
        }
        self.size = size
        self.entries = entries
        self.title = title
        self.domainMin = domainMin
        self.domainMax = domainMax
    }

    /// The table that maps every colour to itself.
    public static func identity(size: Int) throws(FilterError) -> CubeLUT {
        try CubeLUT(size: size, entries: lattice(size: size) { $0 })
    }

    /// A table whose entry at each lattice point is `colour(point)`, the point's input colour in 0…1.
    public static func lattice(size: Int, _ colour: (SIMD3<Float>) -> SIMD3<Float>) -> [SIMD3<Float>] {
        let step = 1 / Float(max(size - 1, 1))
        var entries = [SIMD3<Float>]()
        entries.reserveCapacity(size * size * size)
        for blue in 0..<size {
            for green in 0..<size {
                for red in 0..<size {
                    entries.append(colour(SIMD3(Float(red), Float(green), Float(blue)) * step))
                }
            }
        }
        return entries
    }

    /// The table in the `.cube` file at `path`, read a chunk at a time.
    public init(contentsOfFile path: String) throws(FilterError) {
        try self.init(parsed: CubeParser.parse(file: path))
    }

    /// The table in `text`, a `.cube` file's contents; `source` names it in errors.
    public init(parsing text: String, source: String) throws(FilterError) {
        try self.init(parsed: CubeParser.parse(text: text, source: source))
    }

    private init(parsed parser: CubeParser<[SIMD3<Float>]>) throws(FilterError) {
        let (size, entries) = try parser.finish()
        try self.init(size: size, entries: entries, title: parser.title, domainMin: parser.domainMin, domainMax: parser.domainMax)
    }
}
