/// One encoded packet of a live stream, owned (copied out of the encoder), so it can wait in the
/// send queue and cross to the send thread. Timestamps are in the track's time base
/// (`LiveEncoder.timeBase(of:)`); `time` is its decoding time in seconds.
public struct EncodedPacket: Sendable, Equatable {
    public enum Track: Sendable, Equatable { case video, audio }

    public let track: Track
    public let bytes: [UInt8]
    public let pts: Int64
    public let dts: Int64
    public let duration: Int64
    /// A video keyframe (an IDR): decoding can start here.
    public let isKeyframe: Bool
    public let time: Double

    public init(track: Track, bytes: [UInt8], pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool, time: Double) {
        (self.track, self.bytes, self.pts, self.dts, self.duration, self.isKeyframe, self.time) = (track, bytes, pts, dts, duration, isKeyframe, time)
    }
}
