import CameraCore

/// How source pixels land on the display: rotated clockwise by `rotation`, then mirrored.
struct DisplayOrientation {
    let source: PixelSize
    let rotation: Rotation
    let mirrored: Bool
    let displayed: PixelSize

    init(source: PixelSize, rotation: Rotation, mirrored: Bool) {
        self.source = source
        self.rotation = rotation
        self.mirrored = mirrored
        displayed = rotation.apply(to: source)
    }

    /// The displayed pixel that shows source pixel (`x`, `y`).
    func displayedPixel(x: Int, y: Int) -> (x: Int, y: Int) {
        let rotated: (x: Int, y: Int)
        switch rotation {
        case .degrees0: rotated = (x, y)
        case .degrees90: rotated = (source.height - 1 - y, x)
        case .degrees180: rotated = (source.width - 1 - x, source.height - 1 - y)
        case .degrees270: rotated = (y, source.width - 1 - x)
        }
        return mirrored ? (displayed.width - 1 - rotated.x, rotated.y) : rotated
    }

    /// The displayed rectangle showing the source rectangle `rect` (rotation and mirroring keep
    /// rectangles axis-aligned).
    func displayedRect(of rect: (x: Range<Int>, y: Range<Int>)) -> (x: Range<Int>, y: Range<Int>) {
        guard !rect.x.isEmpty, !rect.y.isEmpty else { return (0..<0, 0..<0) }
        let first = displayedPixel(x: rect.x.lowerBound, y: rect.y.lowerBound)
        let last = displayedPixel(x: rect.x.upperBound - 1, y: rect.y.upperBound - 1)
        return (min(first.x, last.x)..<(max(first.x, last.x) + 1), min(first.y, last.y)..<(max(first.y, last.y) + 1))
    }

    /// The source pixel of displayed pixel (0, `y`).
    func sourceOfRowStart(_ y: Int) -> (x: Int, y: Int) {
        let rotatedX = mirrored ? displayed.width - 1 : 0
        switch rotation {
        case .degrees0: return (rotatedX, y)
        case .degrees90: return (y, source.height - 1 - rotatedX)
        case .degrees180: return (source.width - 1 - rotatedX, source.height - 1 - y)
        case .degrees270: return (source.width - 1 - y, rotatedX)
        }
    }

    /// The step in the source from one displayed pixel to the next along a row.
    var sourceStep: (x: Int, y: Int) {
        let direction = mirrored ? -1 : 1
        switch rotation {
        case .degrees0: return (direction, 0)
        case .degrees90: return (0, -direction)
        case .degrees180: return (-direction, 0)
        case .degrees270: return (0, direction)
        }
    }
}
