/// Which H.264 encoder a recording uses: the first hardware encoder that opens on this machine,
/// else FFmpeg's libx264, with the reason each hardware one was passed over, so that the user is
/// told which encoder runs and why.
public struct H264EncoderChoice: Equatable, Sendable {
    /// Hardware encoders tried in order: VA-API (Intel, AMD), then V4L2 memory-to-memory (Raspberry Pi).
    public static let hardwareCandidates = ["h264_vaapi", "h264_v4l2m2m"]
    /// The software encoder every Debian FFmpeg has.
    public static let software = "libx264"
    /// libx264's speed/size trade-off and constant rate factor (23 is its default), as `bench record`
    /// measures them at 1080p30 beside the preview and 3A.
    public static let softwarePreset = "superfast"
    public static let softwareRateFactor = 23

    /// The encoder's FFmpeg name.
    public let name: String
    /// Each hardware encoder not used, with why ("h264_vaapi: …"), in the order tried.
    public let passedOver: [String]

    public init(name: String, passedOver: [String]) {
        self.name = name
        self.passedOver = passedOver
    }

    /// Tries each hardware candidate with `probe`, which opens an encoder by name and returns nil
    /// when it opens or the reason it does not; libx264 when none opens.
    public static func choose(probe: (String) -> String?) -> H264EncoderChoice {
        var passedOver: [String] = []
        for name in hardwareCandidates {
            guard let reason = probe(name) else { return H264EncoderChoice(name: name, passedOver: passedOver) }
            passedOver.append("\(name): \(reason)")
        }
        return H264EncoderChoice(name: software, passedOver: passedOver)
    }

    /// One line for the terminal and `/state`: "libx264 (h264_vaapi: …; h264_v4l2m2m: …)".
    public var summary: String {
        passedOver.isEmpty ? name : "\(name) (\(passedOver.joined(separator: "; ")))"
    }
}
