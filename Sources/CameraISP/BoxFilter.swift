/// The mean over a (2r + 1)² window around each value of a small image, windows cut at the
/// image's edges (the mean of the values inside): separable running sums, O(1) per value
/// whatever the radius.
enum BoxFilter {
    static func apply(_ source: [Float], into result: inout [Float], scratch: inout [Float], width: Int, height: Int, radius: Int) {
        precondition(source.count == width * height && result.count == source.count && scratch.count == source.count,
                     "box filter planes must all hold \(width)x\(height) values")
        source.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for y in 0..<height {
                    runningMean(source.baseAddress! + y * width, step: 1, count: width, radius: radius,
                                into: scratch.baseAddress! + y * width)
                }
            }
        }
        scratch.withUnsafeBufferPointer { scratch in
            result.withUnsafeMutableBufferPointer { result in
                for x in 0..<width {
                    runningMean(scratch.baseAddress! + x, step: width, count: height, radius: radius, into: result.baseAddress! + x)
                }
            }
        }
    }

    /// The windowed mean along one line of `count` values `step` apart.
    private static func runningMean(_ line: UnsafePointer<Float>, step: Int, count: Int, radius: Int,
                                    into result: UnsafeMutablePointer<Float>) {
        var sum: Float = 0
        for i in 0..<min(radius, count) { sum += line[i * step] }
        for i in 0..<count {
            if i + radius < count { sum += line[(i + radius) * step] }
            if i - radius - 1 >= 0 { sum -= line[(i - radius - 1) * step] }
            let window = min(i + radius, count - 1) - max(i - radius, 0) + 1
            result[i * step] = sum / Float(window)
        }
    }
}
