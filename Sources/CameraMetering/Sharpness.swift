import CameraCore

/// How much fine detail a region holds, for contrast autofocus: the mean squared difference
/// between neighbouring luma values (horizontal and vertical) — larger when in focus.
public enum Sharpness {
    public static func measure(_ buffer: PixelBuffer, region: NormalizedRect = .full) throws(MeteringError) -> Double {
        guard let reader = buffer.pixelReader() else { throw .unsupportedFormat(buffer.format) }
        let bounds = region.pixelBounds(in: PixelSize(width: buffer.width, height: buffer.height))
        guard bounds.columns.count > 1, bounds.rows.count > 1 else { return 0 }
        var previousRow = bounds.columns.map { Double(reader.pixel(x: $0, y: bounds.rows.lowerBound).luma) }
        var sum = 0.0, count = 0
        for y in bounds.rows.dropFirst() {
            let row = bounds.columns.map { Double(reader.pixel(x: $0, y: y).luma) }
            for i in 1..<row.count {
                let dx = row[i] - row[i - 1], dy = row[i] - previousRow[i]
                sum += dx * dx + dy * dy
                count += 1
            }
            previousRow = row
        }
        return sum / Double(count)
    }
}
