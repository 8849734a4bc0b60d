import CameraCore
import Foundation

/// A transformation of a frame's pixels in place, applied frame by frame in the recording path
/// and the preview.
///
/// `date` is the moment the frame shows, given by the caller (a filter never reads the clock), so
/// a recording and its replay burn in the same time.
public protocol FrameFilter: Sendable {
    /// Transforms `buffer`'s pixels; throws, leaving the buffer untouched, when its format is one
    /// the filter cannot transform.
    func apply(to buffer: PixelBuffer, at date: Date) throws(FilterError)
}
