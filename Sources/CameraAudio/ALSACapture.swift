internal import CALSA
import Foundation

/// One open ALSA capture stream (`snd_pcm_t`): opened and configured as a straight run of steps
/// (open → access → format → channels → rate → period and buffer → apply → start), read one
/// period at a time, closed by `deinit`. Not thread-safe: `ALSAMicrophone` uses it on one queue.
final class ALSACapture {
    /// Interleaved 48 kHz samples, a period of about 10 ms and a buffer of about 100 ms.
    static let rate: UInt32 = 48_000
    static let periodMicroseconds: UInt32 = 10_000
    static let bufferMicroseconds: UInt32 = 100_000

    let device: String
    let channelCount: Int
    let format: ALSAMicrophone.SampleFormat
    /// Sample frames a `read()` asks for: one period.
    let periodFrames: Int
    private let pcm: OpaquePointer

    /// Opens `device` for capture of `channelCount` channels in `format` (FLOAT_LE when it takes it,
    /// else S16_LE, when nil) and starts it.
    init(device: String, channelCount: Int, format requested: ALSAMicrophone.SampleFormat?) throws(AudioError) {
        calsa_silence_library_messages()
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0)
        guard opened >= 0, let handle else { throw Self.openError(device, opened) }
        do {
            (format, periodFrames) = try Self.configure(handle, device: device, channelCount: channelCount, format: requested)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        (pcm, self.device, self.channelCount) = (handle, device, channelCount)
        // From here on a throw runs deinit, which closes the device.
        try Self.check(snd_pcm_start(pcm), "starting capture on \(device)", advice: "check that the microphone is plugged in")
    }

    deinit {
        snd_pcm_close(pcm)
    }

    /// Blocks until a period has been captured; returns its samples as Float32 in −1…1, or nil after
    /// an overrun (samples lost because they were not read in time), from which it has recovered.
    func read() throws(AudioError) -> [Float]? {
        let count = periodFrames * channelCount
        let (got, samples): (Int, [Float])
        switch format {
        case .float32:
            var buffer = [Float](repeating: 0, count: count)
            got = buffer.withUnsafeMutableBytes { Int(snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(periodFrames))) }
            samples = buffer
        case .int16:
            var buffer = [Int16](repeating: 0, count: count)
            got = buffer.withUnsafeMutableBytes { Int(snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(periodFrames))) }
            samples = buffer.map { Float($0) / 32_768 }
        }
        if got >= 0 { return Array(samples.prefix(got * channelCount)) }
        let recovered = snd_pcm_recover(pcm, Int32(got), 1)
        guard recovered >= 0 else {
            throw AudioError("reading \(device) failed: \(Self.text(Int32(got))) — check that the microphone is still plugged in")
        }
        return nil
    }

    /// Sets `pcm`'s hardware parameters; returns the sample format chosen and the period in frames.
    private static func configure(_ pcm: OpaquePointer, device: String, channelCount: Int, format requested: ALSAMicrophone.SampleFormat?)
        throws(AudioError) -> (ALSAMicrophone.SampleFormat, Int) {
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) >= 0, let parameters = allocated else {
            throw AudioError("cannot configure \(device): out of memory — close other programs")
        }
        defer { snd_pcm_hw_params_free(parameters) }
        try check(snd_pcm_hw_params_any(pcm, parameters), "reading what \(device) can capture", advice: "try another device (arecord -L)")
        try check(snd_pcm_hw_params_set_access(pcm, parameters, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "asking \(device) for interleaved samples", advice: "use its plughw: name, through which ALSA converts")
        let format = try chooseFormat(requested, pcm, parameters, device: device)
        try check(snd_pcm_hw_params_set_channels(pcm, parameters, UInt32(channelCount)),
                  "asking \(device) for \(channelCount) channels", advice: "ask for 1 or 2 channels, or use its plughw: name")
        try check(snd_pcm_hw_params_set_rate_resample(pcm, parameters, 1), "allowing \(device) to resample", advice: "use its plughw: name")
        try check(snd_pcm_hw_params_set_rate(pcm, parameters, rate, 0), "asking \(device) for \(rate) Hz",
                  advice: "use its plughw: name, through which ALSA resamples")
        var period = periodMicroseconds, buffer = bufferMicroseconds, direction: Int32 = 0
        try check(snd_pcm_hw_params_set_period_time_near(pcm, parameters, &period, &direction),
                  "asking \(device) for a period of \(period) µs", advice: "use its plughw: name")
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, parameters, &buffer, &direction),
                  "asking \(device) for a buffer of \(buffer) µs", advice: "use its plughw: name")
        try check(snd_pcm_hw_params(pcm, parameters), "configuring \(device)", advice: "use its plughw: name")
        var frames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_period_size(parameters, &frames, &direction), "reading the period of \(device)",
                  advice: "try another device (arecord -L)")
        return (format, max(Int(frames), 1))
    }

    private static func chooseFormat(_ requested: ALSAMicrophone.SampleFormat?, _ pcm: OpaquePointer, _ parameters: OpaquePointer,
                                     device: String) throws(AudioError) -> ALSAMicrophone.SampleFormat {
        let candidates = requested.map { [$0] } ?? [.float32, .int16]
        for candidate in candidates where snd_pcm_hw_params_test_format(pcm, parameters, candidate.alsaFormat) == 0 {
            try check(snd_pcm_hw_params_set_format(pcm, parameters, candidate.alsaFormat), "asking \(device) for \(candidate.rawValue)",
                      advice: "use its plughw: name")
            return candidate
        }
        throw AudioError("\(device) captures neither of \(candidates.map(\.rawValue).joined(separator: ", ")) — "
            + "use its plughw: name, through which ALSA converts")
    }

    private static func check(_ code: Int32, _ operation: String, advice: String) throws(AudioError) {
        guard code < 0 else { return }
        throw AudioError("\(operation) failed: \(text(code)) — \(advice)")
    }

    /// The error for a failed `snd_pcm_open`, with the remedy for the usual causes.
    private static func openError(_ device: String, _ code: Int32) -> AudioError {
        let advice = switch -code {
        case ENOENT, ENODEV, ENXIO: "there is no such device; list devices with `arecord -L`"
        case EBUSY: "another program holds it; close that program, or capture through `default` or a dsnoop device"
        case EACCES, EPERM: "add your user to the audio group (sudo usermod -aG audio $USER) and log in again"
        default: "list devices with `arecord -L`"
        }
        return AudioError("cannot open the ALSA capture device \(device): \(text(code)) — \(advice)")
    }

    private static func text(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}

extension ALSAMicrophone.SampleFormat {
    fileprivate var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        case .int16: SND_PCM_FORMAT_S16_LE
        }
    }
}
