import CameraCore

/// Two rows of 8-bit R'G'B' in planes (red, green, blue per row): where `OutputEncoder` keeps
/// looked-up rows for the Y'CbCr and gray formats, to write them two at a time so that 4:2:0
/// chroma can average a 2×2 block.
struct EncodedRows {
    private(set) var stride = 0
    private var bytes: [UInt8] = []

    /// Makes room for rows of `stride` pixels, keeping the storage when it is unchanged.
    mutating func resize(stride: Int) {
        guard stride != self.stride else { return }
        self.stride = stride
        bytes = [UInt8](repeating: 0, count: 6 * stride)
    }

    /// Calls `body` with the rows' storage.
    mutating func withRows<R>(_ body: (Rows) throws -> R) rethrows -> R {
        let stride = stride
        return try bytes.withUnsafeMutableBufferPointer { try body(Rows(base: $0.baseAddress!, stride: stride)) }
    }

    /// The storage of the two rows.
    struct Rows {
        let base: UnsafeMutablePointer<UInt8>
        let stride: Int

        /// The plane of `channel` (0 red, 1 green, 2 blue) in row `row` (0 or 1).
        @inline(__always)
        func plane(_ row: Int, _ channel: Int) -> UnsafeMutablePointer<UInt8> {
            base + (row &* 3 &+ channel) &* stride
        }

        @inline(__always)
        func ycbcr(_ row: Int, _ x: Int, range: YCbCrRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
            BT709.encode(red: plane(row, 0)[x], green: plane(row, 1)[x], blue: plane(row, 2)[x], range: range)
        }
    }
}
