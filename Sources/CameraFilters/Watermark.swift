import CameraCore
import Foundation

/// Burns the frame's time (`yyyy-MM-dd HH:mm:ss`) and optional text into bgra8 or nv12 frames,
/// rendered by FreeType: white anti-aliased glyphs over a dark outline, in a corner.
///
/// The size follows the frame height, so a 720p preview and a 4K recording look alike. Glyphs are
/// rendered once per size and kept (the timestamp's digits are the same every frame), so a frame
/// costs only the blend of its few thousand text pixels. Nothing outside `region(…)` is touched.
public final class Watermark: FrameFilter {
    public let settings: WatermarkSettings
    /// The font and the glyphs rendered so far, behind one lock: FreeType is not thread-safe.
    private let glyphs: Locked<GlyphCache>

    /// A watermark in `settings`' font; throws when the font is missing or the text height is
    /// outside 0.01…0.25 of the frame.
    public init(_ settings: WatermarkSettings) throws(FilterError) {
        guard WatermarkSettings.textHeights.contains(settings.textHeight) else {
            throw FilterError("a watermark text height of \(settings.textHeight) of the frame is outside 0.01…0.25 — choose a height in that range")
        }
        self.settings = settings
        glyphs = Locked(GlyphCache(font: try FontFace(path: settings.fontPath)))
    }

    /// bgra8 and nv12 (either range).
    public func check(_ format: PixelFormat) throws(FilterError) {
        try FilterError.checkBGRAOrNV12(format, filter: "the watermark")
    }

    public func apply(to buffer: PixelBuffer, at date: Date) throws(FilterError) {
        try check(buffer.format)
        let range: YCbCrRange? = if case .nv12(let range) = buffer.format { range } else { nil }
        let mask = try mask(width: buffer.width, height: buffer.height, at: date)
        if let range {
            mask.blend(intoNV12: buffer, range: range)
        } else {
            mask.blend(intoBGRA: buffer)
        }
    }

    /// The part of a `width`×`height` frame the watermark for `date` may change, its corners on
    /// even coordinates (so nv12's chroma blocks lie inside it); pixels outside it are left
    /// exactly as they are.
    public func region(width: Int, height: Int, at date: Date) throws(FilterError) -> PixelRegion {
        Self.region(of: try layout(width: width, height: height, at: date), width: width, height: height)
    }

    /// The outline and ink of every glyph for `date`, gathered over the watermark's region.
    private func mask(width: Int, height: Int, at date: Date) throws(FilterError) -> WatermarkMask {
        let placed = try layout(width: width, height: height, at: date)
        var mask = WatermarkMask(region: Self.region(of: placed, width: width, height: height))
        for (sprite, x, y) in placed {
            mask.add(sprite, at: x, y)
        }
        return mask
    }

    private static func region(of placed: [(sprite: GlyphSprite, x: Int, y: Int)], width: Int, height: Int) -> PixelRegion {
        let left = max(placed.map { $0.x }.min() ?? 0, 0) & ~1, top = max(placed.map { $0.y }.min() ?? 0, 0) & ~1
        let right = min(((placed.map { $0.x + $0.sprite.width }.max() ?? 0) + 1) & ~1, width)
        let bottom = min(((placed.map { $0.y + $0.sprite.height }.max() ?? 0) + 1) & ~1, height)
        return PixelRegion(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
    }

    /// The lines of text for `date`, top first: the settings' text (split at its line breaks),
    /// then the time.
    func lines(at date: Date) -> [String] {
        let text = (settings.text ?? "").split(whereSeparator: \.isNewline).map(String.init)
        return text + [TimestampText.string(for: date, in: settings.timeZone)]
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
