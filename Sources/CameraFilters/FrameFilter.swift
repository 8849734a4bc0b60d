import CameraCore
import Foundation

/// A transformation of a frame's pixels in place, applied frame by frame in the recording path
/// and the preview.
///
/// `date` is the moment the frame shows, given by the caller (a filter never reads the clock), so
/// a recording and its replay burn in the same time.
public protocol FrameFilter: Sendable {
    /// Throws when the filter cannot transform frames in `format`, so a chain can refuse a frame
    /// before any filter has changed it.
    func check(_ format: PixelFormat) throws(FilterError)

    /// Transforms `buffer`'s pixels; throws, leaving the buffer untouched, when its format is one
    /// the filter cannot transform.
    func apply(to buffer: PixelBuffer, at date: Date) throws(FilterError)
}
