internal import CFFmpeg

/// The end of a libavformat output, a file's or a stream's: the packets still held for
/// interleaving and the trailer are written, then the connection or file is closed.
enum OutputTrailer {
    /// Writes `format`'s trailer and closes its I/O; the first failure's code, or 0.
    static func write(_ format: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let trailer = av_write_trailer(format)
        let closed = avio_closep(&format.pointee.pb)
        return trailer < 0 ? trailer : closed
    }
}
