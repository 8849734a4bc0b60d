internal import CFreeType
import Foundation

/// One character's anti-aliased coverage at one pixel size with the dark halo around it, ready to
/// blend: both bitmaps are `width`×`height`, padded by the halo's radius on every side.
struct GlyphSprite: Sendable {
    let width: Int
    let height: Int
    /// From the pen position to the sprite's left column.
    let left: Int
    /// From the baseline up to the sprite's top row.
    let top: Int
    /// How far the pen moves after this character.
    let advance: Int
    /// 0…255 ink per pixel, row by row.
    let coverage: [UInt8]
    /// 0…255 of the outline: the coverage spread by the halo's radius.
    let halo: [UInt8]
}

/// The vertical metrics of a line at one pixel size, in pixels.
struct LineMetrics: Sendable {
    let ascender: Int
    let lineHeight: Int
}

/// A FreeType library and one face loaded from a font file; renders glyphs on demand. Not
/// thread-safe, as FreeType's objects are not: its owner keeps it behind a lock.
final class FontFace {
    private let library: FT_Library
    private let face: FT_Face
    private var pixelSize = 0

    /// The face in the font file at `path`.
    init(path: String) throws(FilterError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw FilterError("the watermark's font \(path) is missing — install the Debian package fonts-dejavu-core or give the path of a TrueType font")
        }
        var library: FT_Library?
        let initCode = FT_Init_FreeType(&library)
        guard initCode == 0, let library else {
            throw FilterError("FreeType could not start: \(FontFace.text(initCode)) — check the libfreetype6 installation")
        }
        var face: FT_Face?
        let openCode = FT_New_Face(library, path, 0, &face)
        guard openCode == 0, let face else {
            FT_Done_FreeType(library)
            throw FilterError("cannot load the font \(path): \(FontFace.text(openCode)) — give the path of a TrueType or OpenType font")
        }
        self.library = library
        self.face = face
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The line metrics at `size` pixels per em.
    func metrics(size: Int) throws(FilterError) -> LineMetrics {
        try select(size: size)
        let metrics = face.pointee.size.pointee.metrics
        return LineMetrics(ascender: Int(metrics.ascender + 63) >> 6, lineHeight: Int(metrics.height + 63) >> 6)
    }

    /// `scalar` rendered at `size` pixels per em with a halo `haloRadius` pixels wide.
    func sprite(for scalar: Unicode.Scalar, size: Int, haloRadius: Int) throws(FilterError) -> GlyphSprite {
        try select(size: size)
        let code = FT_Load_Char(face, FT_ULong(scalar.value), cft_load_render_antialiased())
        guard code == 0, let glyph = face.pointee.glyph else {
            throw FilterError("cannot render the character U+\(String(scalar.value, radix: 16, uppercase: true)): \(FontFace.text(code)) — leave it out of the watermark")
        }
        let bitmap = glyph.pointee.bitmap
        let glyphWidth = Int(bitmap.width), glyphHeight = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        let width = glyphWidth + 2 * haloRadius, height = glyphHeight + 2 * haloRadius
        var coverage = [UInt8](repeating: 0, count: width * height)
        if let source = bitmap.buffer, glyphWidth > 0 {
            for y in 0..<glyphHeight {
                for x in 0..<glyphWidth {
                    coverage[(y + haloRadius) * width + x + haloRadius] = source[y * pitch + x]
                }
            }
        }
        return GlyphSprite(width: width, height: height,
                           left: Int(glyph.pointee.bitmap_left) - haloRadius, top: Int(glyph.pointee.bitmap_top) + haloRadius,
                           advance: Int(glyph.pointee.advance.x + 32) >> 6, coverage: coverage,
                           halo: FontFace.dilate(coverage, width: width, height: height, radius: haloRadius))
    }

    private func select(size: Int) throws(FilterError) {
        guard size != pixelSize else { return }
        let code = FT_Set_Pixel_Sizes(face, 0, FT_UInt(size))
        guard code == 0 else {
            throw FilterError("cannot size the font to \(size) pixels: \(FontFace.text(code)) — choose a scalable font")
        }
        pixelSize = size
    }

    /// The largest coverage within `radius` of each pixel: the outline that keeps white text
    /// readable on a bright sky.
    private static func dilate(_ coverage: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        var offsets = [(dx: Int, dy: Int)]()
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius + radius {
                offsets.append((dx, dy))
            }
        }
        var halo = [UInt8](repeating: 0, count: coverage.count)
        for y in 0..<height {
            for x in 0..<width {
                var strongest: UInt8 = 0
                for (dx, dy) in offsets {
                    let sx = x + dx, sy = y + dy
                    guard sx >= 0, sx < width, sy >= 0, sy < height else { continue }
                    strongest = max(strongest, coverage[sy * width + sx])
                }
                halo[y * width + x] = strongest
            }
        }
        return halo
    }

    private static func text(_ code: FT_Error) -> String {
        FT_Error_String(code).map { String(cString: $0) } ?? "FreeType error \(code)"
    }
}
