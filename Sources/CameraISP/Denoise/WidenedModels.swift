/// The denoiser's block models at full resolution, one row at a time: each block row's models
/// widened to one value per column by bilinear interpolation between block centres, the two
/// block rows around an image row kept, and blended for that row.
struct WidenedModels {
    /// Interpolation between block rows and columns needs the block side the spatial denoiser uses.
    private static let side = SpatialDenoiser.side
    private static let coefficients = LocalLinearModels.Coefficient.allCases.count
    private var stride = 0
    /// Two slots of widened block rows, each `coefficients` planes of `stride` values.
    private var slots: [Float] = []
    /// The block row each slot holds, −1 for none.
    private var slotRows = (-1, -1)
    /// One block row of one coefficient, each value repeated `side` times, with a block of margin.
    private var repeated: [Float] = []

    /// Readies the rows for an image of row length `stride` and forgets the last frame's models.
    mutating func prepare(stride: Int) {
        if stride != self.stride {
            self.stride = stride
            slots = [Float](repeating: 0, count: 2 * Self.coefficients * stride)
            repeated = [Float](repeating: 0, count: stride + 4 * Self.side)
        }
        slotRows = (-1, -1)
    }

    /// The models of image row `y` for `body`, from `models` (the block grid).
    mutating func withRows<R>(for y: Int, of models: BlockGrid, _ body: (Rows) -> R) -> R {
        // Block j's centre is at row side·j + (side − 1)/2.
        let position = (Float(y) + 0.5) / Float(Self.side) - 0.5
        var upper = Int(position.rounded(.down)), weight = position - Float(upper)
        if upper < 0 { (upper, weight) = (0, 0) }
        if upper >= models.height - 1 { (upper, weight) = (models.height - 1, 0) }
        let lower = min(upper + 1, models.height - 1)
        let upperSlot = slot(for: upper, of: models), lowerSlot = slot(for: lower, of: models)
        let stride = stride
        return slots.withUnsafeBufferPointer { slots in
            body(Rows(upper: slots.baseAddress! + upperSlot * Self.coefficients * stride,
                      lower: slots.baseAddress! + lowerSlot * Self.coefficients * stride,
                      stride: stride, weight: SIMD8(repeating: weight)))
        }
    }

    /// The slot holding block row `row` widened, widening it into the other slot when neither has it.
    private mutating func slot(for row: Int, of models: BlockGrid) -> Int {
        if slotRows.0 == row { return 0 }
        if slotRows.1 == row { return 1 }
        // Rows come in order, so the slot of the lower-numbered row is the one to reuse.
        let target = slotRows.0 < slotRows.1 ? 0 : 1
        widen(row, of: models, into: target)
        if target == 0 { slotRows.0 = row } else { slotRows.1 = row }
        return target
    }

    /// Widens block row `row` of every coefficient plane into slot `target`.
    private mutating func widen(_ row: Int, of models: BlockGrid, into target: Int) {
        let (stride, side, width) = (stride, Self.side, models.width)
        // Column x lies between block centres: (0.375, 0.625) of the way from the left block's for
        // the first in a block, 0.125, 0.875 and so on; as weights of the blocks left, own and right.
        let left = SIMD8<Float>(0.375, 0.125, 0, 0, 0.375, 0.125, 0, 0)
        let own = SIMD8<Float>(0.625, 0.875, 0.875, 0.625, 0.625, 0.875, 0.875, 0.625)
        let right = SIMD8<Float>(0, 0, 0.125, 0.375, 0, 0, 0.125, 0.375)
        models.values.withUnsafeBufferPointer { grid in
            repeated.withUnsafeMutableBufferPointer { repeated in
                slots.withUnsafeMutableBufferPointer { slots in
                    let values = repeated.baseAddress! + side
                    for plane in 0..<Self.coefficients {
                        let source = grid.baseAddress! + models.row(plane, row)
                        func put(_ value: Float, at block: Int) {
                            UnsafeMutableRawPointer(values + block * side).storeBytes(of: SIMD4(repeating: value), as: SIMD4<Float>.self)
                        }
                        put(source[0], at: -1)
                        for block in 0..<width { put(source[block], at: block) }
                        put(source[width - 1], at: width)
                        let output = slots.baseAddress! + (target * Self.coefficients + plane) * stride
                        for x in Swift.stride(from: 0, to: stride, by: 8) {
                            let value = Lanes.load(values + x - side) * left + Lanes.load(values + x) * own
                                + Lanes.load(values + x + side) * right
                            Lanes.store(value, output + x)
                        }
                    }
                }
            }
        }
    }

    /// One image row's models: the two block rows around it, and how far it lies towards the lower.
    struct Rows {
        let upper: UnsafePointer<Float>
        let lower: UnsafePointer<Float>
        let stride: Int
        let weight: SIMD8<Float>

        /// Coefficient `coefficient` of the eight pixels from column `x`.
        @inline(__always)
        func value(_ coefficient: LocalLinearModels.Coefficient, _ x: Int) -> SIMD8<Float> {
            let offset = coefficient.rawValue &* stride &+ x
            let top = Lanes.load(upper + offset)
            return top + (Lanes.load(lower + offset) - top) * weight
        }
    }
}
