import CameraCore
import Foundation

/// A chain applied to a copy of each frame, in a buffer of its own: how a recording filters
/// frames that it shares with the preview and photo outputs (pooled, read-only) without
/// changing theirs. The buffer is reused while frames keep their format and size. Not
/// thread-safe: its owner uses it from one queue.
public final class FilteredCopy {
    public let chain: FilterChain
    private var buffer: PixelBuffer?

    public init(_ chain: FilterChain) {
        self.chain = chain
    }

    /// `source`'s pixels copied into the reused buffer and filtered there for `date`; valid
    /// until the next call. Throws, leaving `source` as it is, when the chain refuses its format.
    public func filter(_ source: PixelBuffer, at date: Date) throws(FilterError) -> PixelBuffer {
        let format = try copyFormat(for: source.format)
        let target: PixelBuffer
        if let buffer, buffer.format == format, buffer.width == source.width, buffer.height == source.height {
            target = buffer
        } else {
            do {
                target = try PixelBuffer(format: format, width: source.width, height: source.height)
            } catch {
                throw FilterError("cannot make a \(source.width)x\(source.height) \(format) buffer to filter in: \(error) — free some memory")
            }
            buffer = target
        }
        if format == source.format {
            for plane in source.planes.indices {
                source.withUnsafeBytes(plane: plane) { from in
                    target.withUnsafeMutableBytes(plane: plane) { to in to.copyMemory(from: from) }
                }
            }
        } else {
            PreviewScaler.scale(source, into: target)
        }
        try chain.apply(to: target, at: date)
        return target
    }

    /// The format a `format` frame's copy is filtered in: its own, or bgra8 for an nv12 picture
    /// when the chain needs R'G'B' (a LUT grades colours, which nv12 holds only after a
    /// conversion). Throws the chain's refusal when neither will do.
    public func copyFormat(for format: PixelFormat) throws(FilterError) -> PixelFormat {
        do {
            try chain.check(format)
            return format
        } catch {
            guard case .nv12 = format, (try? chain.check(.bgra8)) != nil else { throw error }
            return .bgra8
        }
    }
}
