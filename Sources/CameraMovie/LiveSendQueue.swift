/// The packets of a live stream waiting for the connection, bounded by the media time they span
/// and by their bytes. When the link is slower than the bitrate the queue fills; then the oldest
/// packets go up to the next queued keyframe — a whole group of pictures, so no frame left
/// refers to a dropped one — or, with no keyframe queued, everything until the next one comes.
/// Each dropped video frame is counted; the high-water marks show the bound held.
public struct LiveSendQueue: Sendable {
    /// The most media time queued, seconds (the latency the queue can add), and the most bytes.
    public let durationLimit: Double
    public let byteLimit: Int

    private var packets: [EncodedPacket] = []
    private var head = 0
    private(set) public var bytes = 0
    /// Whether packets are refused until the next keyframe (after a drop with none queued, or a new connection).
    private var waitingForKeyframe = false
    /// Video frames dropped, and the drops (each a group of pictures or the rest of one).
    private(set) public var droppedFrames = 0
    private(set) public var droppedGroups = 0
    private(set) public var highWaterBytes = 0
    private(set) public var highWaterDuration = 0.0

    public init(durationLimit: Double, byteLimit: Int) {
        (self.durationLimit, self.byteLimit) = (durationLimit, byteLimit)
    }

    public var count: Int { packets.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Media time from the oldest queued packet to the newest.
    public var duration: Double {
        guard let first = packets[head...].first, let last = packets.last else { return 0 }
        return max(last.time - first.time, 0)
    }

    /// Queues `packet`, then drops the oldest groups of pictures while a limit is passed.
    public mutating func push(_ packet: EncodedPacket) {
        if waitingForKeyframe {
            guard packet.isKeyframe else {
                if packet.track == .video { droppedFrames += 1 }
                return
            }
            waitingForKeyframe = false
        }
        packets.append(packet)
        bytes += packet.bytes.count
        while duration > durationLimit || bytes > byteLimit { dropOldestGroup() }
        (highWaterBytes, highWaterDuration) = (max(highWaterBytes, bytes), max(highWaterDuration, duration))
    }

    /// The oldest packet, taken off the queue.
    public mutating func pop() -> EncodedPacket? {
        guard head < packets.count else { return nil }
        let packet = packets[head]
        head += 1
        bytes -= packet.bytes.count
        releaseTaken()
        return packet
    }

    /// Drops everything queued and what comes until the next keyframe: a new connection starts on one.
    public mutating func restartAtKeyframe() {
        let frames = packets[head...].filter { $0.track == .video }.count
        droppedFrames += frames
        if frames > 0 { droppedGroups += 1 }
        (packets, head, bytes, waitingForKeyframe) = ([], 0, 0, true)
    }

    /// Drops from the oldest packet up to the first keyframe after it, or all when none is queued.
    private mutating func dropOldestGroup() {
        let next = packets[(head + 1)...].firstIndex { $0.isKeyframe }
        guard let next else {
            restartAtKeyframe()
            return
        }
        let dropped = packets[head..<next]
        droppedFrames += dropped.filter { $0.track == .video }.count
        droppedGroups += 1
        bytes -= dropped.reduce(0) { $0 + $1.bytes.count }
        head = next
        releaseTaken()
    }

    /// Frees the packets before `head` (sent or dropped) once they are most of the array, so the
    /// memory held stays within the bounds however long the link is stalled.
    private mutating func releaseTaken() {
        guard head > 256, head * 2 > packets.count else { return }
        packets.removeFirst(head)
        head = 0
    }
}
