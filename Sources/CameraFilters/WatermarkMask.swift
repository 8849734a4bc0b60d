import CameraCore

/// A watermark's outline and ink over its region, gathered from the glyphs (the strongest where
/// glyphs overlap), then blended into a frame in one pass: every outline lies under every glyph's
/// ink, so a neighbour's outline never darkens a letter.
struct WatermarkMask {
    /// How opaque the outline is, of 255: dark enough to read on the sun, not a solid box.
    static let outlineOpacity = 210

    let region: PixelRegion
    /// 0…255 darkening per region pixel, row by row (the outline times its opacity).
    private var shade: [UInt8]
    /// 0…255 white ink per region pixel.
    private var ink: [UInt8]

    init(region: PixelRegion) {
        self.region = region
        shade = [UInt8](repeating: 0, count: region.width * region.height)
        ink = shade
    }

    /// Adds `sprite` with its top-left pixel at frame position (`left`, `top`), clipped to the region.
    mutating func add(_ sprite: GlyphSprite, at left: Int, _ top: Int) {
        let firstColumn = max(left, region.x), endColumn = min(left + sprite.width, region.x + region.width)
        let firstRow = max(top, region.y), endRow = min(top + sprite.height, region.y + region.height)
        guard firstColumn < endColumn, firstRow < endRow else { return }
        for y in firstRow..<endRow {
            let source = (y - top) * sprite.width - left, target = (y - region.y) * region.width - region.x
            for x in firstColumn..<endColumn {
                let outline = UInt8((Int(sprite.halo[source + x]) * Self.outlineOpacity + 127) / 255)
                shade[target + x] = max(shade[target + x], outline)
                ink[target + x] = max(ink[target + x], sprite.coverage[source + x])
            }
        }
    }

    /// Darkens each colour channel towards black by the shade, then lightens it towards white by the ink.
    func blend(intoBGRA buffer: PixelBuffer) {
        let plane = buffer.planes[0]
        let pixels = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        for y in 0..<region.height {
            let row = pixels + (region.y + y) * plane.bytesPerRow + 4 * region.x
            for x in 0..<region.width {
                let index = y * region.width + x, darkening = Int(shade[index]), whitening = Int(ink[index])
                guard darkening > 0 || whitening > 0 else { continue }
                for channel in 0..<3 {
                    row[4 * x + channel] = Self.blend(row[4 * x + channel], black: 0, white: 255, darkening, whitening)
                }
            }
        }
    }

    /// The same on nv12's luma, between the range's black and white; the chroma of each 2×2 block
    /// is drawn towards neutral by the block's strongest shade or ink, so the text is white on any colour.
    func blend(intoNV12 buffer: PixelBuffer, range: YCbCrRange) {
        let (black, white) = range == .video ? (16, 235) : (0, 255)
        let luma = buffer.planes[0], chroma = buffer.planes[1]
        let lumaPixels = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        let chromaPixels = buffer.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self)
        for y in 0..<region.height {
            let row = lumaPixels + (region.y + y) * luma.bytesPerRow + region.x
            for x in 0..<region.width {
                let index = y * region.width + x, darkening = Int(shade[index]), whitening = Int(ink[index])
                guard darkening > 0 || whitening > 0 else { continue }
                row[x] = Self.blend(row[x], black: black, white: white, darkening, whitening)
            }
        }
        for y in stride(from: 0, to: region.height - 1, by: 2) {
            let row = chromaPixels + (region.y + y) / 2 * chroma.bytesPerRow + region.x
            for x in stride(from: 0, to: region.width - 1, by: 2) {
                let first = y * region.width + x, second = first + region.width
                let strength = Int(max(max(shade[first], shade[first + 1], shade[second], shade[second + 1]),
                                       max(ink[first], ink[first + 1], ink[second], ink[second + 1])))
                guard strength > 0 else { continue }
                for sample in x..<(x + 2) {
                    row[sample] = UInt8(128 + (Int(row[sample]) - 128) * (255 - strength) / 255)
                }
            }
        }
    }

    /// `value` darkened towards `black` by `darkening`/255, then lightened towards `white` by
    /// `whitening`/255, rounded; 0 and 0 give `value` back.
    @inline(__always)
    private static func blend(_ value: UInt8, black: Int, white: Int, _ darkening: Int, _ whitening: Int) -> UInt8 {
        let above = Int(value) - black
        let darkened = black + (above * (255 - darkening) + (above >= 0 ? 127 : -127)) / 255
        let lightened = darkened + ((white - darkened) * whitening + (white >= darkened ? 127 : -127)) / 255
        return UInt8(min(max(lightened, 0), 255))
    }
}
