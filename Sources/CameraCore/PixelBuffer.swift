/// An image in memory: one or more planes of rows, each row `bytesPerRow` bytes apart (rows are
/// padded to 64 bytes so SIMD loads stay aligned).
///
/// A buffer is a reference type so that a pool can take its memory back when the last reference
/// goes. Its producer writes it before publishing it in a `Frame`; after that it is only read.
/// Safe accessors check bounds; `withUnsafe…` and `baseAddress(plane:)` are the fast paths for
/// kernels that walk whole rows.
public final class PixelBuffer: @unchecked Sendable {
    // @unchecked: the memory is written only by the producer before the buffer is shared, then read.

    /// Where one plane lies in the buffer's memory.
    public struct Plane: Sendable, Hashable {
        public let offset: Int
        public let bytesPerRow: Int
        /// Meaningful bytes in each row (the rest of `bytesPerRow` is padding).
        public let rowLength: Int
        public let height: Int
    }

    public let format: PixelFormat
    public let width: Int
    public let height: Int
    public let planes: [Plane]
    let storage: PixelStorage
    private let recycle: (@Sendable (PixelStorage) -> Void)?

    /// A zero-filled buffer with its own memory.
    public convenience init(format: PixelFormat, width: Int, height: Int) throws(PixelBufferError) {
        let planes = try PixelBuffer.layout(format: format, width: width, height: height)
        self.init(format: format, width: width, height: height, planes: planes,
                  storage: PixelStorage(byteCount: PixelBuffer.byteCount(planes)), recycle: nil)
    }

    init(format: PixelFormat, width: Int, height: Int, planes: [Plane], storage: PixelStorage,
         recycle: (@Sendable (PixelStorage) -> Void)?) {
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
        self.storage = storage
        self.recycle = recycle
    }

    deinit {
        recycle?(storage)
    }

    /// The plane layout of a `width`×`height` image in `format`.
    static func layout(format: PixelFormat, width: Int, height: Int) throws(PixelBufferError) -> [Plane] {
        try format.validate(width: width, height: height)
        var offset = 0
        return format.planeBytesPerPixel.enumerated().map { index, bytesPerPixel in
            let rowLength = width * bytesPerPixel
            let bytesPerRow = (rowLength + 63) & ~63
            let rows = format.planeHeight(index, imageHeight: height)
            defer { offset += bytesPerRow * rows }
            return Plane(offset: offset, bytesPerRow: bytesPerRow, rowLength: rowLength, height: rows)
        }
    }

    static func byteCount(_ planes: [Plane]) -> Int {
        planes.last.map { $0.offset + $0.bytesPerRow * $0.height } ?? 0
    }

    // MARK: Fast paths

    /// The first byte of plane `index`. Unsafe: the caller stays within `planes[index]`.
    public func baseAddress(plane index: Int) -> UnsafeMutableRawPointer {
        storage.pointer + planes[index].offset
    }

    /// Calls `body` with the bytes of plane `index`, padding included.
    public func withUnsafeBytes<R, E>(plane index: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let plane = planes[index]
        return try body(UnsafeRawBufferPointer(start: baseAddress(plane: index), count: plane.bytesPerRow * plane.height))
    }

    /// Calls `body` with the writable bytes of plane `index`, padding included.
    public func withUnsafeMutableBytes<R, E>(
        plane index: Int, _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let plane = planes[index]
        return try body(UnsafeMutableRawBufferPointer(start: baseAddress(plane: index),
                                                      count: plane.bytesPerRow * plane.height))
    }

    // MARK: Safe accessors

    /// The byte at column `x` (in bytes) of row `y` of plane `index`; traps when out of bounds.
    public subscript(plane index: Int, x x: Int, y y: Int) -> UInt8 {
        get { baseAddress(plane: index).load(fromByteOffset: checkedOffset(index, x, y, 1), as: UInt8.self) }
        set { baseAddress(plane: index).storeBytes(of: newValue, toByteOffset: checkedOffset(index, x, y, 1), as: UInt8.self) }
    }

    /// The 16-bit sample at pixel (`x`, `y`) of a one-plane 16-bit format (bayer16).
    public subscript(sample16 x: Int, y y: Int) -> UInt16 {
        get {
            UInt16(littleEndian: baseAddress(plane: 0).loadUnaligned(fromByteOffset: checkedOffset(0, x * 2, y, 2), as: UInt16.self))
        }
        set {
            baseAddress(plane: 0).storeBytes(of: newValue.littleEndian, toByteOffset: checkedOffset(0, x * 2, y, 2), as: UInt16.self)
        }
    }

    /// The meaningful bytes of plane `index`, rows packed without padding.
    public func bytes(plane index: Int) -> [UInt8] {
        let plane = planes[index]
        var result = [UInt8]()
        result.reserveCapacity(plane.rowLength * plane.height)
        withUnsafeBytes(plane: index) { raw in
            for y in 0..<plane.height {
                result.append(contentsOf: raw[(y * plane.bytesPerRow)..<(y * plane.bytesPerRow + plane.rowLength)])
            }
        }
        return result
    }

    /// A deep copy with its own memory (not from any pool).
    public func copy() -> PixelBuffer {
        let copy = PixelBuffer(format: format, width: width, height: height, planes: planes,
                               storage: PixelStorage(byteCount: storage.byteCount), recycle: nil)
        copy.storage.pointer.copyMemory(from: storage.pointer, byteCount: storage.byteCount)
        return copy
    }

    /// Traps on an access outside the image, naming it: `fatalError`, unlike `precondition`, keeps
    /// its message in optimized builds, where the tests and users run.
    private func checkedOffset(_ index: Int, _ x: Int, _ y: Int, _ size: Int) -> Int {
        let plane = planes[index]
        guard x >= 0 && x + size <= plane.rowLength && y >= 0 && y < plane.height else {
            fatalError("pixel access (\(x), \(y)) outside plane \(index) of a \(width)x\(height) \(format) buffer")
        }
        return y * plane.bytesPerRow + x
    }
}

/// Zero-filled, 64-byte-aligned memory that a `PixelBuffer` or a `BufferPool` owns.
final class PixelStorage: @unchecked Sendable {
    // @unchecked: the pointer is immutable; access to the bytes follows PixelBuffer's rule.
    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        pointer = .allocate(byteCount: max(byteCount, 1), alignment: 64)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, 1))
    }

    deinit {
        pointer.deallocate()
    }
}
