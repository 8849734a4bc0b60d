import CameraCore

/// Draws a preview image as the viewer sees it — rotated clockwise by `rotation`, then mirrored,
/// as `PreviewGeometry` maps points — with the exposure overlays on top, into a bgra8 buffer of
/// its own (a preview image is shared by every viewer and never written).
///
/// - Zebra: pixels whose Rec. 709 luma is at least 0.95 of full scale become diagonal stripes,
///   four pixels white then four black along each row (45°, an 8-pixel period on screen).
/// - Sun: the pixels of the sun mask's cells are blended 55% towards orange (255, 120, 0).
///
/// Both are decided on the source image, so they follow it through rotation and mirroring; the
/// stripes run on the displayed image.
struct PreviewPainter {
    /// The zebra threshold on `BT709.weightedLuma8`: 0.95 × 255 × 256.
    static let zebraThreshold: UInt32 = 62_016
    /// Orange in bgra8 channel order and its weight ×256 (0.55).
    private static let tint: (blue: UInt32, green: UInt32, red: UInt32) = (0, 120, 255)
    private static let tintWeight: UInt32 = 141
    private static let white: UInt32 = 0xFFFF_FFFF
    private static let black: UInt32 = 0xFF00_0000

    private var pool: BufferPool?

    /// Whether `paint` would change anything: overlays asked for, or a rotated or mirrored image.
    static func isNeeded(overlays: PreviewOverlays, rotation: Rotation, mirrored: Bool) -> Bool {
        !overlays.isEmpty || rotation != .degrees0 || mirrored
    }

    /// `image` (bgra8) displayed upright with `overlays`, in a buffer from a pool of two: release
    /// it before painting twice more.
    mutating func paint(_ image: PixelBuffer, rotation: Rotation, mirrored: Bool, overlays: PreviewOverlays,
                        sunMask: SunMask) throws -> PixelBuffer {
        precondition(image.format == .bgra8, "the preview painter reads bgra8 previews, not \(image.format)")
        let orientation = DisplayOrientation(source: PixelSize(width: image.width, height: image.height), rotation: rotation, mirrored: mirrored)
        let size = orientation.displayed
        if pool?.width != size.width || pool?.height != size.height {
            pool = try BufferPool(format: .bgra8, width: size.width, height: size.height, capacity: 2)
        }
        // The pool was just made for this size.
        let output = try pool!.makeBuffer()
        copy(image, into: output, orientation: orientation, zebra: overlays.contains(.zebra))
        if overlays.contains(.sun) {
            for cell in sunMask.cells.indices where sunMask.cells[cell] {
                tint(orientation.displayedRect(of: sunMask.sourceRect(ofCell: cell, in: orientation.source)), in: output)
            }
        }
        return output
    }

    /// Copies every displayed pixel from its source pixel, striping the near-white ones for zebra.
    private func copy(_ image: PixelBuffer, into output: PixelBuffer, orientation: DisplayOrientation, zebra: Bool) {
        let sourceStride = image.planes[0].bytesPerRow, outputStride = output.planes[0].bytesPerRow
        let source = image.baseAddress(plane: 0), destination = output.baseAddress(plane: 0)
        let step = orientation.sourceStep
        for y in 0..<orientation.displayed.height {
            let row = (destination + y * outputStride).assumingMemoryBound(to: UInt32.self)
            var (sourceX, sourceY) = orientation.sourceOfRowStart(y)
            for x in 0..<orientation.displayed.width {
                var pixel = (source + sourceY * sourceStride + sourceX * 4).load(as: UInt32.self)
                if zebra, Self.luma(pixel) >= Self.zebraThreshold {
                    pixel = (x + y) & 4 == 0 ? Self.white : Self.black
                }
                row[x] = pixel
                sourceX += step.x
                sourceY += step.y
            }
        }
    }

    /// Blends the displayed pixels of `rect` towards orange.
    private func tint(_ rect: (x: Range<Int>, y: Range<Int>), in output: PixelBuffer) {
        let stride = output.planes[0].bytesPerRow, base = output.baseAddress(plane: 0)
        for y in rect.y {
            let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in rect.x { row[x] = Self.tinted(row[x]) }
        }
    }

    /// Luma × 256 (0…65 280) of a bgra8 pixel.
    private static func luma(_ pixel: UInt32) -> UInt32 {
        BT709.weightedLuma8(red: pixel >> 16 & 0xFF, green: pixel >> 8 & 0xFF, blue: pixel & 0xFF)
    }

    private static func tinted(_ pixel: UInt32) -> UInt32 {
        func blend(_ value: UInt32, _ toward: UInt32) -> UInt32 {
            (value * (256 - tintWeight) + toward * tintWeight) >> 8
        }
        return pixel & 0xFF00_0000 | blend(pixel >> 16 & 0xFF, tint.red) << 16
            | blend(pixel >> 8 & 0xFF, tint.green) << 8 | blend(pixel & 0xFF, tint.blue)
    }
}
