import CameraCore

/// The luminance a bracket frame's alignment compares: one value per 2×2 Bayer cell, the mean of its
/// four samples in reference units, each sample capped at `ceiling`.
///
/// The ceiling is the lower of the two compared frames' clip levels, so a highlight that clips in
/// one frame reads the same capped value in both rather than a lower bound in one and the truth in
/// the other.
enum CellLuminance {
    static func plane(_ frame: BracketFrame, scale: FrameScale, ceiling: Float) -> FloatPlane {
        let (cellsWide, cellsHigh) = (frame.buffer.width / 2, frame.buffer.height / 2)
        var values = [Float](repeating: 0, count: cellsWide * cellsHigh)
        let source = PlaneBytes(frame.buffer, plane: 0)
        let (black, gain) = (scale.black, scale.gain * 0.25)
        let cap = ceiling / scale.gain + black
        values.withUnsafeMutableBufferPointer { values in
            for cy in 0..<cellsHigh {
                let top = UnsafeRawPointer(source.row(2 * cy)).assumingMemoryBound(to: UInt16.self)
                let bottom = UnsafeRawPointer(source.row(2 * cy + 1)).assumingMemoryBound(to: UInt16.self)
                let row = values.baseAddress! + cy * cellsWide
                for cx in 0..<cellsWide {
                    let sum = min(Float(top[2 * cx]), cap) + min(Float(top[2 * cx + 1]), cap)
                        + min(Float(bottom[2 * cx]), cap) + min(Float(bottom[2 * cx + 1]), cap)
                    row[cx] = (sum - 4 * black) * gain
                }
            }
        }
        return FloatPlane(width: cellsWide, height: cellsHigh, values: values)
    }
}
