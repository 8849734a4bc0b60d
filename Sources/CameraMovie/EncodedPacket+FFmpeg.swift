internal import CFFmpeg

extension EncodedPacket {
    /// Runs `body` with an FFmpeg packet holding a copy of this one, its timestamps in the track's
    /// encoder time base; the packet is freed afterwards. `what` names the write for errors.
    func withAVPacket<T>(_ what: String, _ body: (UnsafeMutablePointer<AVPacket>) throws(MovieError) -> T) throws(MovieError) -> T {
        guard let packet = av_packet_alloc() else { throw MovieError("cannot make a packet for \(what) — the machine is out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        let allocated = av_new_packet(packet, Int32(bytes.count))
        guard allocated >= 0 else { throw .ffmpeg(what, allocated, advice: "the machine is out of memory") }
        bytes.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { packet.pointee.data.update(from: base, count: bytes.count) }
        }
        (packet.pointee.pts, packet.pointee.dts, packet.pointee.duration) = (pts, dts, duration)
        if isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        return try body(packet)
    }
}
