import CameraCore
import Foundation

/// Burns the frame's time (`yyyy-MM-dd HH:mm:ss`) and an optional line of text into bgra8 frames,
/// rendered by FreeType: white anti-aliased glyphs over a dark outline, in a corner.
///
/// The size follows the frame height, so a 720p preview and a 4K recording look alike. Glyphs are
/// rendered once per size and kept (the timestamp's digits are the same every frame), so a frame
/// costs only the blend of its few thousand text pixels. Nothing outside `region(…)` is touched.
public final class Watermark: FrameFilter {
    public let settings: WatermarkSettings
    /// The font and the glyphs rendered so far, behind one lock: FreeType is not thread-safe.
    private let glyphs: Locked<GlyphCache>
    /// How opaque the outline is, of 255.
    private static let outlineOpacity = 210

    /// A watermark in `settings`' font; throws when the font is missing or the text height is
    /// outside 0.01…0.25 of the frame.
    public init(_ settings: WatermarkSettings) throws(FilterError) {
        guard WatermarkSettings.textHeights.contains(settings.textHeight) else {
            throw FilterError("a watermark text height of \(settings.textHeight) of the frame is outside 0.01…0.25 — choose a height in that range")
        }
        self.settings = settings
        glyphs = Locked(GlyphCache(font: try FontFace(path: settings.fontPath)))
    }

    public func apply(to buffer: PixelBuffer, at date: Date) throws(FilterError) {
        guard buffer.format == .bgra8 else {
            throw .unsupportedFormat(buffer.format, filter: "the watermark", supported: "bgra8")
        }
        let placed = try layout(width: buffer.width, height: buffer.height, at: date)
        let plane = buffer.planes[0]
        let pixels = buffer.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        // Every outline before any ink, so a neighbour's outline never darkens a glyph.
        for pass in [\GlyphSprite.halo, \GlyphSprite.coverage] {
            for (sprite, x, y) in placed {
                blend(sprite[keyPath: pass], of: sprite, at: x, y, into: pixels, bytesPerRow: plane.bytesPerRow,
                      width: buffer.width, height: buffer.height, whitening: pass == \GlyphSprite.coverage)
            }
        }
    }

    /// The part of a `width`×`height` frame the watermark for `date` changes; pixels outside it
    /// are left exactly as they are.
    public func region(width: Int, height: Int, at date: Date) throws(FilterError) -> PixelRegion {
        let placed = try layout(width: width, height: height, at: date)
        let left = max(placed.map { $0.x }.min() ?? 0, 0), top = max(placed.map { $0.y }.min() ?? 0, 0)
        let right = min(placed.map { $0.x + $0.sprite.width }.max() ?? 0, width)
        let bottom = min(placed.map { $0.y + $0.sprite.height }.max() ?? 0, height)
        return PixelRegion(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
    }

    /// The lines of text for `date`, top first.
    func lines(at date: Date) -> [String] {
        let time = TimestampText.string(for: date, in: settings.timeZone)
        guard let text = settings.text, !text.isEmpty else { return [time] }
        return [text, time]
    }

    /// Each glyph's sprite and the frame position of its top-left pixel (which may lie outside
    /// a frame too small for the text: the blend clips).
    private func layout(width: Int, height: Int, at date: Date) throws(FilterError) -> [(sprite: GlyphSprite, x: Int, y: Int)] {
        let size = max(Int((Double(height) * settings.textHeight).rounded()), 6)
        let lines = lines(at: date)
        let rendered = try glyphs.withLock { cache throws(FilterError) in try cache.lines(lines, size: size) }
        let margin = (size * 3 + 2) / 4
        let blockHeight = rendered.metrics.lineHeight * lines.count
        let top = settings.corner == .topLeft || settings.corner == .topRight ? margin : height - margin - blockHeight
        let rightAligned = settings.corner == .topRight || settings.corner == .bottomRight
        var placed = [(sprite: GlyphSprite, x: Int, y: Int)]()
        for (index, sprites) in rendered.lines.enumerated() {
            let lineWidth = sprites.reduce(0) { $0 + $1.advance } + 2 * rendered.haloRadius
            var pen = (rightAligned ? width - margin - lineWidth : margin) + rendered.haloRadius
            let baseline = top + index * rendered.metrics.lineHeight + rendered.metrics.ascender
            for sprite in sprites {
                placed.append((sprite, pen + sprite.left, baseline - sprite.top))
                pen += sprite.advance
            }
        }
        return placed
    }

    /// Blends one sprite bitmap into the frame at (`left`, `top`), clipped to the frame: the
    /// outline darkens towards black, the ink lightens towards white; a 0 leaves a pixel as it is.
    private func blend(_ alpha: [UInt8], of sprite: GlyphSprite, at left: Int, _ top: Int,
                       into pixels: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int, whitening: Bool) {
        let firstColumn = max(left, 0), endColumn = min(left + sprite.width, width)
        let firstRow = max(top, 0), endRow = min(top + sprite.height, height)
        guard firstColumn < endColumn, firstRow < endRow else { return }
        let columns = firstColumn..<endColumn
        for y in firstRow..<endRow {
            let row = pixels + y * bytesPerRow, source = (y - top) * sprite.width - left
            for x in columns {
                let a = Int(alpha[source + x])
                guard a > 0 else { continue }
                let pixel = row + 4 * x
                for channel in 0..<3 {
                    let value = Int(pixel[channel])
                    pixel[channel] = whitening
                        ? UInt8(value + ((255 - value) * a + 127) / 255)
                        : UInt8((value * (255 * 255 - a * Watermark.outlineOpacity) + 255 * 127) / (255 * 255))
                }
            }
        }
    }
}

/// The font and its glyphs rendered so far, per pixel size and character.
private struct GlyphCache {
    let font: FontFace
    var sprites = [Int: [Unicode.Scalar: GlyphSprite]]()
    var metrics = [Int: LineMetrics]()

    /// Each line's sprites at `size`, rendering those not yet cached, with the line metrics and
    /// the outline's radius (a fourteenth of the size, at least one pixel).
    mutating func lines(_ lines: [String], size: Int) throws(FilterError)
        -> (lines: [[GlyphSprite]], metrics: LineMetrics, haloRadius: Int) {
        let haloRadius = max(size / 14, 1)
        var cached = sprites[size, default: [:]]
        defer { sprites[size] = cached }
        var result = [[GlyphSprite]]()
        for line in lines {
            var row = [GlyphSprite]()
            for scalar in line.unicodeScalars {
                if let sprite = cached[scalar] {
                    row.append(sprite)
                } else {
                    let sprite = try font.sprite(for: scalar, size: size, haloRadius: haloRadius)
                    cached[scalar] = sprite
                    row.append(sprite)
                }
            }
            result.append(row)
        }
        let lineMetrics: LineMetrics
        if let known = metrics[size] {
            lineMetrics = known
        } else {
            lineMetrics = try font.metrics(size: size)
            metrics[size] = lineMetrics
        }
        return (result, lineMetrics, haloRadius)
    }
}
