/// Which microphone a recording takes its sound from, as the CLI's `--audio` gives it:
/// `sim` (the simulated microphone), `alsa:DEVICE` (an ALSA capture device such as `alsa:default`
/// or `alsa:hw:1,0`) or `none` (a silent recording, video only).
public enum AudioSourceSpec: Equatable, Sendable, CustomStringConvertible {
    case simulated
    case alsa(device: String)
    case none

    /// The forms `--audio` takes, for help texts and errors.
    public static let usage = "sim, alsa:DEVICE (for example alsa:default or alsa:hw:1,0) or none"

    /// Parses an `--audio` value; anything else is refused, naming it and the forms that work.
    public init(parsing text: String) throws(AudioError) {
        switch text {
        case "sim": self = .simulated
        case "none": self = .none
        case _ where text.hasPrefix("alsa:"):
            let device = String(text.dropFirst("alsa:".count))
            guard !device.isEmpty, !device.contains(where: \.isWhitespace) else {
                throw AudioError("--audio \(text) names no ALSA device — give one, as in alsa:default or alsa:hw:1,0 (list them with `arecord -L`)")
            }
            self = .alsa(device: device)
        default:
            throw AudioError("--audio \(text.isEmpty ? "\"\"" : text) is not an audio source — use \(Self.usage)")
        }
    }

    /// The text `init(parsing:)` reads back to this choice.
    public var description: String {
        switch self {
        case .simulated: "sim"
        case .alsa(let device): "alsa:\(device)"
        case .none: "none"
        }
    }

    /// A microphone for this choice, not yet started (nil for `none`); `channelCount` is for ALSA,
    /// the simulated microphone being mono.
    public func makeSource(channelCount: Int = 1) -> (any AudioSource)? {
        switch self {
        case .simulated: SimulatedMicrophone()
        case .alsa(let device): ALSAMicrophone(device: device, channelCount: channelCount)
        case .none: nil
        }
    }
}
