import CameraAudio
import CameraCapture
import CameraRecording

/// `--audio sim|alsa:DEVICE|none` (`record`, `stream`): the sound beside the pictures. Without it,
/// a `file:` source's own track (`FileSound`), else the simulated microphone; the simulated
/// microphone clicks only with the source's sync marks (`sim:SCENE,syncmarks`).
struct AudioFlag {
    /// `--audio` as given; nil when absent.
    let spec: AudioSourceSpec?
    /// Whether the simulated microphone clicks at each whole second, meeting the camera's marks.
    let clicks: Bool
    /// The file source's own sound when `--audio` is absent.
    private let fileSound: FileSound?

    /// Takes `--audio` out of `arguments`; without it, decodes a `file:` `source`'s whole sound
    /// (a sound that does not decode is an error naming the file).
    init(_ arguments: inout ArgumentList, source: SourceSpec) throws {
        spec = try arguments.option("audio").map { (text: String) throws(CLIError) in
            do { return try AudioSourceSpec(parsing: text) } catch { throw CLIError.usage("--audio: \(error)") }
        }
        clicks = source.syncMarks
        fileSound = spec == nil ? try source.fileSound() : nil
    }

    /// The sound source, seeded as the simulated camera is; nil for `none`.
    func sound(seed: UInt64) -> MovieSound? {
        if let fileSound { return .simulated(fileSound) }
        return switch spec ?? .simulated {
        case .simulated: .simulated(SimulatedMicrophone(seed: seed, clicks: clicks))
        case .alsa(let device): .live(ALSAMicrophone(device: device))
        case .none: nil
        }
    }
}
