import CameraAudio
import CameraCapture

/// `--audio sim|alsa:DEVICE|none` (`record`, `stream`): the sound beside the pictures, the
/// simulated microphone by default.
struct AudioFlag {
    let spec: AudioSourceSpec

    init(_ arguments: inout ArgumentList) throws(CLIError) {
        spec = try arguments.option("audio").map { (text: String) throws(CLIError) in
            do { return try AudioSourceSpec(parsing: text) } catch { throw CLIError.usage("--audio: \(error)") }
        } ?? .simulated
    }

    /// Whether the simulated camera should mark each second for the simulated microphone's click.
    var wantsSyncMarks: Bool { spec == .simulated }

    /// The sound source, seeded as the simulated camera is; nil for `none`.
    func sound(seed: UInt64) -> MovieSound? {
        switch spec {
        case .simulated: .simulated(SimulatedMicrophone(seed: seed))
        case .alsa(let device): .live(ALSAMicrophone(device: device))
        case .none: nil
        }
    }
}
