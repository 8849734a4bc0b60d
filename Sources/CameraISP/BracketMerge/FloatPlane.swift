/// A single-channel float image, row-major with no padding.
struct FloatPlane {
    var width: Int
    var height: Int
    var values: [Float]

    /// Half the size, each value the mean of a 2×2 block (an odd last row or column dropped).
    func halved() -> FloatPlane {
        let (halfWidth, halfHeight) = (width / 2, height / 2)
        var result = [Float](repeating: 0, count: halfWidth * halfHeight)
        values.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<halfHeight {
                    let top = source.baseAddress! + 2 * y * width, bottom = top + width
                    let row = target.baseAddress! + y * halfWidth
                    for x in 0..<halfWidth {
                        row[x] = (top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1]) * 0.25
                    }
                }
            }
        }
        return FloatPlane(width: halfWidth, height: halfHeight, values: result)
    }
}
