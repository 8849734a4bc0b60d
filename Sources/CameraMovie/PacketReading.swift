internal import CFFmpeg

/// Reads the next packet of the file `input` (at `path`) into `packet`: true when one was read,
/// false at the end of the file; a read error throws naming the file. The one read loop step of
/// `VideoFileReader` and `SoundTrackDecoder`.
func readPacket(from input: UnsafeMutablePointer<AVFormatContext>?, into packet: UnsafeMutablePointer<AVPacket>,
                path: String) throws(MovieError) -> Bool {
    let read = av_read_frame(input, packet)
    if read == cff_error_eof() { return false }
    guard read >= 0 else { throw .ffmpeg("reading \(path)", read, advice: "the file is damaged") }
    return true
}
