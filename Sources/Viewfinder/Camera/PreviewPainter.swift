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
/// stripes run on the displayed image. With two cameras the other one's picture is drawn over the
/// top-right corner (picture-in-picture), displayed as its own connection shows it, without overlays.
struct PreviewPainter {
    /// The other camera's preview image (bgra8, already at inset size) and how its connection shows it.
    struct Inset {
        let image: PixelBuffer
        let rotation: Rotation
        let mirrored: Bool
    }

    /// The zebra threshold on `BT709.weightedLuma8`: 0.95 × 255 × 256.
    static let zebraThreshold: UInt32 = 62_016
    /// Orange in bgra8 channel order and its weight ×256 (0.55).
    private static let tint: (blue: UInt32, green: UInt32, red: UInt32) = (0, 120, 255)
    private static let tintWeight: UInt32 = 141
    private static let white: UInt32 = 0xFFFF_FFFF
    private static let black: UInt32 = 0xFF00_0000

    private var pool: BufferPool?

    /// Whether `paint` would change anything: overlays asked for, a rotated or mirrored image, or an inset.
    static func isNeeded(overlays: PreviewOverlays, rotation: Rotation, mirrored: Bool, inset: Inset? = nil) -> Bool {
        !overlays.isEmpty || rotation != .degrees0 || mirrored || inset != nil
    }

    /// `image` (bgra8) displayed upright with `overlays` and `inset`, in a buffer from a pool of
    /// two: release it before painting twice more.
    mutating func paint(_ image: PixelBuffer, rotation: Rotation, mirrored: Bool, overlays: PreviewOverlays,
                        sunMask: SunMask, inset: Inset? = nil) throws -> PixelBuffer {
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
        if let inset { draw(inset, over: output) }
        return output
    }

    /// Where the inset's top-left corner lands: one margin (1/32 of the width) in from the top
    /// right; nil when the inset does not fit.
    static func insetOrigin(displayed: PixelSize, in output: PixelSize) -> (x: Int, y: Int)? {
        let margin = output.width / 32
        let x = output.width - margin - displayed.width
        guard x >= 0, margin + displayed.height <= output.height else { return nil }
        return (x, margin)
    }

    /// Copies the inset, displayed as its connection shows it, into the top-right corner.
    private func draw(_ inset: Inset, over output: PixelBuffer) {
        precondition(inset.image.format == .bgra8, "the preview painter reads bgra8 insets, not \(inset.image.format)")
        let orientation = DisplayOrientation(source: PixelSize(width: inset.image.width, height: inset.image.height),
                                             rotation: inset.rotation, mirrored: inset.mirrored)
        guard let origin = Self.insetOrigin(displayed: orientation.displayed,
                                            in: PixelSize(width: output.width, height: output.height)) else { return }
        copy(inset.image, into: output, orientation: orientation, zebra: false, at: origin)
    }

    /// Copies every displayed pixel from its source pixel into `output` from `origin` on,
    /// striping the near-white ones for zebra.
    private func copy(_ image: PixelBuffer, into output: PixelBuffer, orientation: DisplayOrientation, zebra: Bool,
                      at origin: (x: Int, y: Int) = (0, 0)) {
        let sourceStride = image.planes[0].bytesPerRow, outputStride = output.planes[0].bytesPerRow
        let source = image.baseAddress(plane: 0), destination = output.baseAddress(plane: 0)
        let step = orientation.sourceStep
        for y in 0..<orientation.displayed.height {
            let row = (destination + (origin.y + y) * outputStride + origin.x * 4).assumingMemoryBound(to: UInt32.self)
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
