import CameraAudio
import Testing

/// `--audio` values into choices, and back.
@Suite("--audio choice")
struct AudioSourceSpecTests {
    @Test("sim, none and alsa:DEVICE parse, and read back as written",
          arguments: [("sim", AudioSourceSpec.simulated), ("none", .none), ("alsa:default", .alsa(device: "default")),
                      ("alsa:hw:1,0", .alsa(device: "hw:1,0")), ("alsa:plughw:CARD=Mic,DEV=0", .alsa(device: "plughw:CARD=Mic,DEV=0"))])
    func parses(text: String, expected: AudioSourceSpec) throws {
        let spec = try AudioSourceSpec(parsing: text)
        #expect(spec == expected)
        #expect(spec.description == text)
    }

    @Test("Anything else is refused, naming the value and the forms that work",
          arguments: ["", "mic", "SIM", "alsa", "pulse:default", "hw:1,0"])
    func refuses(text: String) {
        let shown = text.isEmpty ? "\"\"" : text
        #expect(throws: AudioError("--audio \(shown) is not an audio source — use \(AudioSourceSpec.usage)")) {
            _ = try AudioSourceSpec(parsing: text)
        }
    }

    @Test("alsa: without a device is refused, pointing to arecord -L", arguments: ["alsa:", "alsa:hw 1"])
    func refusesAnEmptyDevice(text: String) {
        let error = #expect(throws: AudioError.self) { _ = try AudioSourceSpec(parsing: text) }
        #expect(error?.message == "--audio \(text) names no ALSA device — give one, as in alsa:default or alsa:hw:1,0 (list them with `arecord -L`)")
    }

    @Test("Each choice makes its source: the simulated microphone, an ALSA one on the device, none")
    func makesSources() throws {
        #expect(AudioSourceSpec.simulated.makeSource()?.name == "simulated microphone")
        let alsa = try #require(AudioSourceSpec.alsa(device: "hw:1,0").makeSource(channelCount: 2))
        #expect(alsa.name == "ALSA hw:1,0" && alsa.channelCount == 2 && alsa.sampleRate == 48_000)
        #expect(AudioSourceSpec.none.makeSource() == nil)
    }
}
