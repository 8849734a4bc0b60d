extension Asset {
    /// What a movie asset holds and how its take ended, beside the fields every asset has. Encodes
    /// with the names `camerasun record --json` uses (`duration`, `frames`, `video`, `audio`,
    /// `stopReason`, `recovered`) and `thumbnailPath`, every field present (null when absent).
    public struct Movie: Sendable, Hashable, Codable {
        /// Seconds, from the first frame's start to the last frame's end.
        public let duration: Double
        /// Video frames in the file.
        public let frameCount: Int
        /// The video codec's name, e.g. `h264`.
        public let videoCodec: String
        /// The audio codec's name, e.g. `aac`; nil for a take without sound.
        public let audioCodec: String?
        /// Why the take ended, the recorder's identifier for it (e.g. "maximumDuration", whose
        /// sentence is `MovieRecording.StopReason`'s), or `Asset.Movie.recoveredStopReason` for a
        /// take `repair` saved.
        public let stopReason: String
        /// Whether `repair` saved the take from a recording that never finished (a crash, a
        /// `kill -9`, a power cut) rather than the recorder adding it.
        public let recovered: Bool
        /// The thumbnail's path relative to the library directory, `YYYY/MM/DD/ID.thumb.jpg`; nil
        /// when the movie has none.
        public let thumbnailPath: String?

        /// The stop reason of a take that `repair` recovered.
        public static let recoveredStopReason = "recovered"

        private enum CodingKeys: String, CodingKey {
            case duration, frameCount = "frames", videoCodec = "video", audioCodec = "audio", stopReason, recovered,
                 thumbnailPath
        }

        init(duration: Double, frameCount: Int, videoCodec: String, audioCodec: String?, stopReason: String,
             recovered: Bool, thumbnailPath: String?) {
            self.duration = duration
            self.frameCount = frameCount
            self.videoCodec = videoCodec
            self.audioCodec = audioCodec
            self.stopReason = stopReason
            self.recovered = recovered
            self.thumbnailPath = thumbnailPath
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            duration = try container.decode(Double.self, forKey: .duration)
            frameCount = try container.decode(Int.self, forKey: .frameCount)
            videoCodec = try container.decode(String.self, forKey: .videoCodec)
            audioCodec = try container.decodeIfPresent(String.self, forKey: .audioCodec)
            stopReason = try container.decode(String.self, forKey: .stopReason)
            recovered = try container.decode(Bool.self, forKey: .recovered)
            thumbnailPath = try container.decodeIfPresent(String.self, forKey: .thumbnailPath)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(duration, forKey: .duration)
            try container.encode(frameCount, forKey: .frameCount)
            try container.encode(videoCodec, forKey: .videoCodec)
            try container.encode(audioCodec, forKey: .audioCodec)
            try container.encode(stopReason, forKey: .stopReason)
            try container.encode(recovered, forKey: .recovered)
            try container.encode(thumbnailPath, forKey: .thumbnailPath)
        }
    }
}
