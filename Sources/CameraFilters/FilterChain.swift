import CameraCore
import Foundation

/// Which filters a recording or the preview runs, as a value the CLI and the HTTP API can build
/// and pass across tasks: beauty 0 and no LUT or watermark is no filtering at all.
public struct FilterSettings: Sendable, Equatable {
    /// The beauty filter's strength, 0 (off) to 1.
    public var beauty: Double
    /// The `.cube` file to grade with, or nil.
    public var lutPath: String?
    /// The burned-in timestamp and text, or nil.
    public var watermark: WatermarkSettings?

    public init(beauty: Double = 0, lutPath: String? = nil, watermark: WatermarkSettings? = nil) {
        self.beauty = beauty
        self.lutPath = lutPath
        self.watermark = watermark
    }
}

/// Filters applied to a frame one after the other, in place.
///
/// Built from `FilterSettings`, the order is the one a camera needs: beauty on the picture as
/// shot, then the LUT's grade, then the watermark, so the grade never tints the text. Everything
/// that can fail for bad settings (a missing or malformed `.cube`, a missing font, a strength
/// out of range) fails here, before the first frame.
public struct FilterChain: FrameFilter {
    public let filters: [any FrameFilter]

    /// The chain of `filters`, applied first to last.
    public init(_ filters: [any FrameFilter]) {
        self.filters = filters
    }

    /// The chain `settings` ask for: beauty (when above 0), LUT, watermark.
    public init(_ settings: FilterSettings) throws(FilterError) {
        var filters = [any FrameFilter]()
        let beauty = try BeautyFilter(strength: settings.beauty)
        if beauty.strength > 0 { filters.append(beauty) }
        if let path = settings.lutPath { filters.append(try LUTFilter(contentsOfFile: path)) }
        if let watermark = settings.watermark { filters.append(try Watermark(watermark)) }
        self.init(filters)
    }

    /// True when the chain leaves frames as they are.
    public var isEmpty: Bool { filters.isEmpty }

    /// Throws when any filter of the chain cannot transform `format`.
    public func check(_ format: PixelFormat) throws(FilterError) {
        for filter in filters {
            try filter.check(format)
        }
    }

    /// Applies every filter in turn, after checking that all of them accept the frame's format,
    /// so a frame that one filter refuses is left untouched by the others.
    public func apply(to buffer: PixelBuffer, at date: Date) throws(FilterError) {
        try check(buffer.format)
        for filter in filters {
            try filter.apply(to: buffer, at: date)
        }
    }
}
