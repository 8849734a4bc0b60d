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
        try chain.check(source.format)
        let target: PixelBuffer
        if let buffer, buffer.format == source.format, buffer.width == source.width, buffer.height == source.height {
            target = buffer
        } else {
            do {
                target = try PixelBuffer(format: source.format, width: source.width, height: source.height)
            } catch {
                throw FilterError("cannot make a \(source.width)x\(source.height) \(source.format) buffer to filter in: \(error) — free some memory")
            }
            buffer = target
        }
        for plane in source.planes.indices {
            source.withUnsafeBytes(plane: plane) { from in
                target.withUnsafeMutableBytes(plane: plane) { to in to.copyMemory(from: from) }
            }
        }
        try chain.apply(to: target, at: date)
        return target
    }
}
