/// The mean over a (2r + 1)² window around each value of a small image, windows cut at the
/// image's edges (the mean of the values inside): separable running sums, O(1) per value
/// whatever the radius. The vertical pass keeps a running sum of whole rows, so both passes read
/// memory in order. Keeps its scratch planes between calls.
struct BoxFilter {
    private var horizontal: [Float] = []
    private var rowSums: [Float] = []

    mutating func apply(_ source: [Float], into result: inout [Float], width: Int, height: Int, radius: Int) {
        precondition(source.count == width * height && result.count == source.count,
                     "box filter planes must both hold \(width)x\(height) values")
        if horizontal.count != source.count { horizontal = [Float](repeating: 0, count: source.count) }
        if rowSums.count != width { rowSums = [Float](repeating: 0, count: width) }
        source.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { horizontal in
                for y in 0..<height {
                    BoxFilter.horizontalMean(source.baseAddress! + y * width, count: width, radius: radius,
                                             into: horizontal.baseAddress! + y * width)
                }
            }
        }
        horizontal.withUnsafeBufferPointer { horizontal in
            rowSums.withUnsafeMutableBufferPointer { sums in
                result.withUnsafeMutableBufferPointer { result in
                    BoxFilter.verticalMean(horizontal.baseAddress!, width: width, height: height, radius: radius,
                                           sums: sums, into: result.baseAddress!)
                }
            }
        }
    }

    /// The windowed mean along one row of `count` values.
    private static func horizontalMean(_ line: UnsafePointer<Float>, count: Int, radius: Int, into result: UnsafeMutablePointer<Float>) {
        var sum: Float = 0
        for i in 0..<min(radius, count) { sum += line[i] }
        for i in 0..<count {
            if i + radius < count { sum += line[i + radius] }
            if i - radius - 1 >= 0 { sum -= line[i - radius - 1] }
            result[i] = sum / Float(min(i + radius, count - 1) - max(i - radius, 0) + 1)
        }
    }

    /// The windowed mean down each column: `sums` holds the sum of the rows in the window.
    private static func verticalMean(_ source: UnsafePointer<Float>, width: Int, height: Int, radius: Int,
                                     sums: UnsafeMutableBufferPointer<Float>, into result: UnsafeMutablePointer<Float>) {
        for x in 0..<width { sums[x] = 0 }
        for y in 0..<min(radius, height) { add(source + y * width, to: sums, sign: 1) }
        for y in 0..<height {
            if y + radius < height { add(source + (y + radius) * width, to: sums, sign: 1) }
            if y - radius - 1 >= 0 { add(source + (y - radius - 1) * width, to: sums, sign: -1) }
            let scale = 1 / Float(min(y + radius, height - 1) - max(y - radius, 0) + 1)
            let row = result + y * width
            for x in 0..<width { row[x] = sums[x] * scale }
        }
    }

    @inline(__always)
    private static func add(_ row: UnsafePointer<Float>, to sums: UnsafeMutableBufferPointer<Float>, sign: Float) {
        for x in 0..<sums.count { sums[x] += sign * row[x] }
    }
}
