/// A developed frame: linear Rec. 709 RGB in three `Float` planes, 1 = the sensor's white level.
///
/// Planar so that the per-pixel loops read eight pixels of one channel with one load. Each row is
/// `stride` values (a multiple of 8) and the columns past `width` repeat the last pixel, so the
/// loops run over whole vectors without a scalar tail. The storage is kept between frames and
/// reallocated only when the size changes.
public struct LinearImage: Sendable {
    public private(set) var width = 0
    public private(set) var height = 0
    /// Values from one row to the next in each plane (`width` rounded up to a multiple of 8).
    public private(set) var stride = 0
    /// The level every channel of a clipped pixel holds: the sensor's white level after white
    /// balance and digital gain (1 for processed frames). Clipped highlights are this grey in all
    /// three channels, so they render white, and the tone curve places its white here.
    public internal(set) var clipLevel: Float = 1
    /// How far above the sensor's white the image holds light (a merged bracket's `RawCalibration.headroom`;
    /// 1 for a single frame): the tone curve brings `clipLevel` down to the white of a single frame.
    public internal(set) var headroom: Float = 1
    var red: [Float] = []
    var green: [Float] = []
    var blue: [Float] = []

    public init() {}

    /// A `width`×`height` image, black.
    public init(width: Int, height: Int) {
        resize(width: width, height: height)
    }

    /// Makes the planes `width`×`height`, keeping the storage when the size is unchanged.
    mutating func resize(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a linear image needs a positive size, not \(width)x\(height)")
        guard width != self.width || height != self.height else { return }
        self.width = width
        self.height = height
        stride = (width + 7) / 8 * 8
        red = [Float](repeating: 0, count: stride * height)
        green = red
        blue = red
    }

    /// The linear RGB of pixel (`x`, `y`).
    public subscript(x: Int, y: Int) -> SIMD3<Float> {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside a \(width)x\(height) image")
            let i = y * stride + x
            return SIMD3(red[i], green[i], blue[i])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside a \(width)x\(height) image")
            let i = y * stride + x
            (red[i], green[i], blue[i]) = (newValue.x, newValue.y, newValue.z)
        }
    }

    /// Copies each row's last pixel into its padding columns.
    mutating func fillPadding() {
        guard stride > width else { return }
        for y in 0..<height {
            let last = y * stride + width - 1
            for x in (last + 1)..<((y + 1) * stride) {
                (red[x], green[x], blue[x]) = (red[last], green[last], blue[last])
            }
        }
    }

    /// Calls `body` with the three planes' base addresses, for the per-pixel loops.
    func withPlanes<R>(_ body: (Planes) throws -> R) rethrows -> R {
        try red.withUnsafeBufferPointer { red in
            try green.withUnsafeBufferPointer { green in
                try blue.withUnsafeBufferPointer { blue in
                    try body(Planes(red: red.baseAddress!, green: green.baseAddress!, blue: blue.baseAddress!, stride: stride))
                }
            }
        }
    }

    /// Calls `body` with the three planes' writable base addresses.
    mutating func withMutablePlanes<R>(_ body: (MutablePlanes) throws -> R) rethrows -> R {
        let stride = stride
        return try red.withUnsafeMutableBufferPointer { red in
            try green.withUnsafeMutableBufferPointer { green in
                try blue.withUnsafeMutableBufferPointer { blue in
                    try body(MutablePlanes(red: red.baseAddress!, green: green.baseAddress!, blue: blue.baseAddress!, stride: stride))
                }
            }
        }
    }

    /// The planes of a `LinearImage` for reading eight pixels at a time.
    struct Planes {
        let red, green, blue: UnsafePointer<Float>
        let stride: Int

        /// Red, green and blue of the eight pixels from `index` (`y × stride + x`).
        @inline(__always)
        func load(_ index: Int) -> (red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>) {
            (UnsafeRawPointer(red + index).loadUnaligned(as: SIMD8<Float>.self),
             UnsafeRawPointer(green + index).loadUnaligned(as: SIMD8<Float>.self),
             UnsafeRawPointer(blue + index).loadUnaligned(as: SIMD8<Float>.self))
        }
    }

    /// The writable planes of a `LinearImage`.
    struct MutablePlanes {
        let red, green, blue: UnsafeMutablePointer<Float>
        let stride: Int

        /// Stores eight pixels from `index` (`y × stride + x`).
        @inline(__always)
        func store(_ index: Int, red r: SIMD8<Float>, green g: SIMD8<Float>, blue b: SIMD8<Float>) {
            UnsafeMutableRawPointer(red + index).storeBytes(of: r, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(green + index).storeBytes(of: g, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(blue + index).storeBytes(of: b, as: SIMD8<Float>.self)
        }
    }
}
