import CameraCore
import CameraSystem

/// One take, kept safe: frames go into `<path>.partial` until a limit or the user stops it; then
/// the file is flushed to the disk, read back (`MovieValidation`) and only then given its name. A
/// take stopped by a limit is a successful recording with its reason, as in AVFoundation.
public final class MovieRecording {
    /// Where a take must stop (AVCaptureFileOutput's maxRecordedDuration, maxRecordedFileSize and
    /// minFreeDiskSpaceLimit); nil for no limit.
    public struct Limits: Sendable, Equatable {
        public var maximumDuration: Double?
        public var maximumBytes: Int64?
        public var minimumFreeBytes: Int64?

        /// The longest maximum duration, seconds: eleven and a half days, well inside what a
        /// `Duration` and a movie's timestamps hold.
        public static let longestDuration = 1_000_000.0

        /// The maximum durations a take at `frameRate` may have: at least one frame, at most `longestDuration`.
        public static func durations(frameRate: Double) -> ClosedRange<Double> {
            (1 / frameRate)...longestDuration
        }

        /// Limits as given; a duration outside `durations(frameRate:)`, a size that is not positive,
        /// or a negative free space, is refused by name.
        public init(maximumDuration: Double? = nil, maximumBytes: Int64? = nil, minimumFreeBytes: Int64? = nil,
                    frameRate: Double = 30) throws(MovieError) {
            let durations = Self.durations(frameRate: frameRate)
            if let maximumDuration, !durations.contains(maximumDuration) {
                let rate = frameRate.rounded() == frameRate ? "\(Int(frameRate))" : "\(frameRate)"
                throw MovieError("maximum duration \(maximumDuration) s — give one frame's time (1/\(rate) s) to \(Int(durations.upperBound)) seconds")
            }
            if let maximumBytes, maximumBytes <= 0 { throw MovieError("maximum size \(maximumBytes) bytes — give a positive size") }
            if let minimumFreeBytes, minimumFreeBytes < 0 {
                throw MovieError("minimum free space \(minimumFreeBytes) bytes — give zero or more")
            }
            (self.maximumDuration, self.maximumBytes, self.minimumFreeBytes) = (maximumDuration, maximumBytes, minimumFreeBytes)
        }
    }

    /// Why a take ended: its identifier (the raw value) in JSON, the catalogue and `/library`, its
    /// `sentence` wherever a person reads it.
    public enum StopReason: String, Sendable, Equatable, CaseIterable {
        case stopped
        case maximumDuration
        case maximumSize
        case minimumFreeSpace
        /// A write failed for want of space: the take is kept up to its last complete fragment.
        case diskFull
        case interrupted
        case signal
        /// The camera or file the frames came from failed: the take is kept up to its last frame.
        case sourceFailed

        public var sentence: String {
            switch self {
            case .stopped: "stopped"
            case .maximumDuration: "maximum duration reached"
            case .maximumSize: "maximum file size reached"
            case .minimumFreeSpace: "minimum free disk space reached"
            case .diskFull: "the disk filled up"
            case .interrupted: "stopped by Ctrl-C"
            case .signal: "stopped by a termination signal"
            case .sourceFailed: "stopped because the source failed"
            }
        }
    }

    /// A take that counts as saved: validated, under its final name.
    public struct Saved: Sendable, Equatable {
        public let path: String
        public let reason: StopReason
        public let validation: MovieValidation
        public let encoder: String
    }

    /// The suffix of a take being written.
    public static let partialSuffix = ".partial"

    public let path: String
    private let partialPath: String
    private let limits: Limits
    private let writer: MovieFileWriter
    private let recordsAudio: Bool
    private var lastSize: Int64 = 0, largestGrowth: Int64 = 0
    /// Set when a write failed for want of space: nothing more can be written.
    private var diskIsFull = false

    /// Starts a take for `path` (written as `path.partial` until it is saved), with sound when
    /// `audio` is given; refuses to start when the volume already has less free space than
    /// `limits.minimumFreeBytes`.
    public convenience init(path: String, size: PixelSize, frameRate: Int, limits: Limits, encoder: String = H264EncoderChoice.software,
                            audio: MovieFileWriter.AudioFormat? = nil) throws(MovieError) {
        try self.init(path: path, limits: limits, recordsAudio: audio != nil) { (partial) throws(MovieError) in
            try MovieFileWriter(path: partial, size: size, frameRate: frameRate, encoder: encoder, audio: audio)
        }
    }

    /// Starts a take for `path` that records a live stream's packets (`append(_ packets:)`), its
    /// encode shared with the stream: `parameters` and `encoder` are the stream's.
    public convenience init(path: String, limits: Limits, sharing parameters: LiveStreamParameters, encoder: String) throws(MovieError) {
        try self.init(path: path, limits: limits, recordsAudio: parameters.audio != nil) { (partial) throws(MovieError) in
            try MovieFileWriter(path: partial, sharing: parameters, encoder: encoder)
        }
    }

    private init(path: String, limits: Limits, recordsAudio: Bool, writer: (String) throws(MovieError) -> MovieFileWriter) throws(MovieError) {
        (self.path, partialPath, self.limits) = (path, path + Self.partialSuffix, limits)
        if let minimum = limits.minimumFreeBytes, case let free = try Self.freeBytes(at: FileSystem.parent(of: path)), free < minimum {
            throw MovieError("only \(free >> 20) MB free where \(path) would go, under the minimum of \(minimum >> 20) MB — "
                + "free some space or lower --min-free")
        }
        self.writer = try writer(partialPath)
        self.recordsAudio = recordsAudio
    }

    /// Frames recorded so far, and the file's size (its completed fragments).
    public var frames: Int { writer.frames }
    public var bytesWritten: Int64 { writer.bytesWritten }

    /// Records `frame`, or returns the limit that ends the take (the frame then is not recorded).
    public func append(_ frame: Frame) throws(MovieError) -> StopReason? {
        if diskIsFull { return .diskFull }
        let elapsed = frame.presentationTime.seconds - (writer.firstTime ?? frame.presentationTime).seconds
        if let maximum = limits.maximumDuration, elapsed >= maximum - 1e-9 { return .maximumDuration }
        if let reason = try sizeLimitReached() { return reason }
        try whileSpaceLasts { () throws(MovieError) in try writer.append(frame) }
        return diskIsFull ? .diskFull : nil
    }

    /// Records a live stream's `packets` (a take sharing its encode), or returns the limit that
    /// ends the take (that packet and those after it then are not recorded).
    public func append(_ packets: [EncodedPacket]) throws(MovieError) -> StopReason? {
        for packet in packets {
            if diskIsFull { return .diskFull }
            if packet.track == .video {
                if let maximum = limits.maximumDuration, writer.elapsed(at: packet) >= maximum - 1e-9 { return .maximumDuration }
                if let reason = try sizeLimitReached() { return reason }
            }
            try whileSpaceLasts { () throws(MovieError) in try writer.append(packet) }
        }
        return diskIsFull ? .diskFull : nil
    }

    /// Records a microphone's `chunk`: placed by its time beside the frames, ending with the last of them.
    public func append(_ chunk: AudioChunk) throws(MovieError) {
        guard !diskIsFull else { return }
        try whileSpaceLasts { () throws(MovieError) in try writer.append(chunk) }
    }

    /// Runs `write`; a failure for want of space marks the disk full instead of failing the take.
    private func whileSpaceLasts(_ write: () throws(MovieError) -> Void) throws(MovieError) {
        do {
            try write()
        } catch where error.isDiskFull {
            diskIsFull = true
        }
    }

    /// Ends the take: the file is completed, flushed, validated and renamed to `path`. When the
    /// disk filled up, the file is closed as it is and cut back to its last complete fragment.
    public func finish(reason: StopReason = .stopped) throws(MovieError) -> Saved {
        let recorded: ClosedRange<Int>
        if diskIsFull {
            writer.abandon()
            guard try CompleteFragments.trim(partialPath).kept > 0 else {
                try? FileSystem.remove(partialPath)
                throw MovieError("the disk filled up before the first second of \(path) was written — nothing could be kept; free some space")
            }
            recorded = 1...writer.frames
        } else {
            let frames = try writer.finish().frames
            recorded = frames...frames
        }
        do {
            try FileDescriptor.open(partialPath, .readOnly, operation: "open the recording").sync(operation: "flush the recording")
        } catch {
            throw MovieError("cannot flush \(partialPath) to the disk: \(error) — check the disk")
        }
        let validation = try MovieValidation.check(partialPath)
        guard recorded.contains(validation.frames), validation.lastGroupFrames > 0 || validation.frames == 0 else {
            throw MovieError("\(partialPath) holds \(validation.frames) of the \(writer.frames) frames recorded — "
                + "it is kept under that name; run camerasun library repair")
        }
        guard validation.hasAudio == recordsAudio || validation.frames == 0 else {
            throw MovieError("\(partialPath) has \(validation.hasAudio ? "an" : "no") audio stream in a take recorded "
                + "\(recordsAudio ? "with" : "without") sound — it is kept under that name; run camerasun library repair")
        }
        do {
            try FileSystem.rename(partialPath, to: path)
            try FileSystem.syncDirectory(FileSystem.parent(of: path))
        } catch {
            throw MovieError("cannot name the recording \(path): \(error) — it is kept as \(partialPath)")
        }
        return Saved(path: path, reason: diskIsFull ? .diskFull : reason, validation: validation, encoder: writer.encoderName)
    }

    /// The size limit when the file is within two of its largest fragments of it (the one being
    /// written in memory and the one after), the free-space limit likewise; checked on each frame
    /// (the writer's byte count, a `statvfs` of the volume every 30 frames).
    private func sizeLimitReached() throws(MovieError) -> StopReason? {
        guard limits.maximumBytes != nil || limits.minimumFreeBytes != nil else { return nil }
        let size = writer.bytesWritten
        largestGrowth = max(largestGrowth, size - lastSize)
        lastSize = size
        if let maximum = limits.maximumBytes, size + 2 * largestGrowth > maximum { return .maximumSize }
        if let minimum = limits.minimumFreeBytes, writer.frames % 30 == 0,
           try Self.freeBytes(at: FileSystem.parent(of: partialPath)) - 2 * largestGrowth < minimum {
            return .minimumFreeSpace
        }
        return nil
    }

    private static func freeBytes(at folder: String) throws(MovieError) -> Int64 {
        do {
            return try FileSystem.volumeStatus(folder).availableBytes
        } catch {
            throw MovieError("cannot measure the free space of \(folder): \(error) — check that the folder exists")
        }
    }
}
