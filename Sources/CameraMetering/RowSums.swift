/// The full-resolution pass: per-row sums of the encoded values, sixteen pixels (64 bytes) per
/// step in SIMD registers. Byte lanes are summed in 16-bit halves of 32-bit lanes and flushed
/// before they can overflow.
///
/// Sums and indices use wrapping arithmetic (`&+`, `&*`): a row's byte sums cannot overflow an
/// `Int`, and overflow checks would cost this loop more than the additions.
enum RowSums {
    /// Sums of blue, green and red over `count` bgra8 pixels.
    @inline(never)
    static func bgra(_ row: UnsafeRawPointer, count: Int) -> (blue: Int, green: Int, red: Int) {
        var blue = 0, green = 0, red = 0
        var x = 0
        while x + 16 <= count {
            // Each 16-bit half gains at most 255 per step: flush after 256 steps.
            let steps = min((count &- x) / 16, 256)
            var blueRed = SIMD16<UInt32>(), greenLanes = SIMD16<UInt32>()
            for step in 0..<steps {
                let pixels = row.loadUnaligned(fromByteOffset: (x &+ step &* 16) &* 4, as: SIMD16<UInt32>.self)
                blueRed &+= pixels & 0x00FF_00FF
                greenLanes &+= (pixels &>> 8) & 0xFF
            }
            blue &+= Int((blueRed & 0xFFFF).wrappedSum())
            red &+= Int((blueRed &>> 16).wrappedSum())
            green &+= Int(greenLanes.wrappedSum())
            x &+= steps &* 16
        }
        while x < count {
            blue += Int(row.load(fromByteOffset: x * 4, as: UInt8.self))
            green += Int(row.load(fromByteOffset: x * 4 + 1, as: UInt8.self))
            red += Int(row.load(fromByteOffset: x * 4 + 2, as: UInt8.self))
            x += 1
        }
        return (blue, green, red)
    }

    /// Sum of `count` luma bytes spaced `stride` bytes apart (1 for a Y plane or gray8, 2 for
    /// yuyv422, where luma sits at even bytes).
    @inline(never)
    static func luma(_ row: UnsafeRawPointer, count: Int, stride: Int) -> Int {
        precondition(stride == 1 || stride == 2, "luma bytes are packed (1) or interleaved with chroma (2)")
        let pixelsPerStep = 64 / stride
        var sum = 0
        var x = 0
        while x + pixelsPerStep <= count {
            // Each 16-bit half gains at most 2·255 per step: flush after 128 steps.
            let steps = min((count &- x) / pixelsPerStep, 128)
            var lanes = SIMD16<UInt32>()
            for step in 0..<steps {
                let bytes = row.loadUnaligned(fromByteOffset: (x &+ step &* pixelsPerStep) &* stride, as: SIMD16<UInt32>.self)
                lanes &+= bytes & 0x00FF_00FF
                if stride == 1 { lanes &+= (bytes &>> 8) & 0x00FF_00FF }
            }
            sum &+= Int((lanes & 0xFFFF).wrappedSum()) &+ Int((lanes &>> 16).wrappedSum())
            x &+= steps &* pixelsPerStep
        }
        while x < count {
            sum += Int(row.load(fromByteOffset: x * stride, as: UInt8.self))
            x += 1
        }
        return sum
    }
}
