/// Planes of one value per `side`×`side` block of an image, for the denoiser's statistics and
/// models: small enough to filter whole at every frame. Each row has eight values of margin on
/// both sides so the loops load eight at a time at any column, and its length is a multiple of
/// eight. Keeps its storage while the size stays the same.
struct BlockGrid {
    private(set) var width = 0
    private(set) var height = 0
    private(set) var planeCount = 0
    /// Values from one row to the next, margins included.
    private(set) var pitch = 0
    var values: [Float] = []
    /// Values before each row's first block.
    static let margin = 8

    /// Makes `planes` planes of `width`×`height` blocks.
    mutating func resize(width: Int, height: Int, planes: Int) {
        guard width != self.width || height != self.height || planes != planeCount else { return }
        (self.width, self.height, planeCount) = (width, height, planes)
        pitch = (width + 7) / 8 * 8 + 2 * Self.margin
        values = [Float](repeating: 0, count: planes * height * pitch)
    }

    /// The index of block (0, `y`) of `plane`.
    @inline(__always)
    func row(_ plane: Int, _ y: Int) -> Int {
        layout.row(plane, y)
    }

    /// Where the blocks lie, apart from the values: a loop that writes `values` holds this, not a
    /// copy of the grid, which would copy the values on write.
    var layout: Layout { Layout(width: width, height: height, pitch: pitch) }

    struct Layout {
        let width, height, pitch: Int

        @inline(__always)
        func row(_ plane: Int, _ y: Int) -> Int {
            (plane * height + y) * pitch + BlockGrid.margin
        }
    }
}

/// The mean over each block's 3×3 neighbourhood of a `BlockGrid` plane, the grid's edges
/// repeated: a box of three blocks' reach, in one vertical and one horizontal pass of sums.
struct BlockBox {
    private var sums: [Float] = []

    /// Plane `plane` of `source` averaged into plane `plane` of `result` (the same size).
    mutating func apply(_ source: BlockGrid, plane: Int, into result: inout BlockGrid) {
        let (width, height, layout) = (source.width, source.height, source.layout)
        if sums.count != source.pitch { sums = [Float](repeating: 0, count: source.pitch) }
        source.values.withUnsafeBufferPointer { source_ in
            result.values.withUnsafeMutableBufferPointer { result_ in
                sums.withUnsafeMutableBufferPointer { sums_ in
                    let input = source_.baseAddress!, output = result_.baseAddress!
                    let sums = sums_.baseAddress! + BlockGrid.margin
                    let ninth = SIMD8<Float>(repeating: 1.0 / 9)
                    for y in 0..<height {
                        let above = input + layout.row(plane, max(y - 1, 0)), centre = input + layout.row(plane, y)
                        let below = input + layout.row(plane, min(y + 1, height - 1))
                        for x in Swift.stride(from: 0, to: width, by: 8) {
                            Lanes.store(Lanes.load(above + x) + Lanes.load(centre + x) + Lanes.load(below + x), sums + x)
                        }
                        (sums[-1], sums[width]) = (sums[0], sums[width - 1])
                        let out = output + layout.row(plane, y)
                        for x in Swift.stride(from: 0, to: width, by: 8) {
                            Lanes.store((Lanes.load(sums + x - 1) + Lanes.load(sums + x) + Lanes.load(sums + x + 1)) * ninth, out + x)
                        }
                    }
                }
            }
        }
    }
}

/// Eight floats loaded from or stored at any address, for the denoiser's loops.
enum Lanes {
    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
    }
}
