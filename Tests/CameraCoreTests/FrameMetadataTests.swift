import CameraCore
import Testing

@Suite("FrameMetadata and Frame")
struct FrameMetadataTests {
    @Test("Defaults describe an unmodified capture")
    func defaults() {
        let metadata = FrameMetadata(exposureDuration: MediaTime(value: 1, timescale: 60), analogueGain: 1, baseISO: 50)
        #expect(metadata.digitalGain == 1)
        #expect(metadata.exposureBias == 0)
        #expect(metadata.lensPosition == 1)
        #expect(metadata.whiteBalanceGains == .unity)
        #expect(metadata.zoomFactor == 1)
        #expect(metadata.flicker == .off)
        #expect(metadata.rowReadoutTime == 0)
    }

    @Test("iso is analogue gain times base ISO", arguments: [(1.0, 50.0, 50.0), (4, 50, 200), (2.5, 100, 250)])
    func iso(gain: Double, baseISO: Double, expected: Double) {
        let metadata = FrameMetadata(exposureDuration: .zero, analogueGain: gain, baseISO: baseISO)
        #expect(metadata.iso == expected)
    }

    @Test("totalExposure multiplies duration, analogue gain and digital gain")
    func totalExposure() {
        let metadata = FrameMetadata(exposureDuration: MediaTime(value: 1, timescale: 100), analogueGain: 2,
                                     baseISO: 50, digitalGain: 1.5)
        #expect(abs(metadata.totalExposure - 0.03) < 1e-12)
        let long = FrameMetadata(exposureDuration: MediaTime(value: 1001, timescale: 30000), analogueGain: 1, baseISO: 50)
        #expect(long.totalExposure == 1001.0 / 30000.0)
    }

    @Test("Flicker periods are half the mains period", arguments: [
        (FlickerMode.hz50, Double?.some(0.01)), (.hz60, 1.0 / 120), (.off, nil), (.auto, nil),
    ])
    func flickerPeriod(mode: FlickerMode, period: Double?) {
        #expect(mode.period == period)
    }

    @Test("Flicker modes have stable raw values")
    func flickerRawValues() {
        #expect(FlickerMode.allCases.map(\.rawValue) == ["off", "50", "60", "auto"])
        #expect(FlickerMode(rawValue: "60") == .hz60)
    }

    @Test("A frame carries its buffer, time, sequence number and metadata unchanged")
    func frameFields() throws {
        let buffer = try PixelBuffer(format: .gray8, width: 2, height: 2)
        let metadata = FrameMetadata(exposureDuration: MediaTime(value: 1, timescale: 250), analogueGain: 3, baseISO: 50,
                                     exposureBias: -1, flicker: .hz50)
        let frame = Frame(buffer: buffer, presentationTime: MediaTime(value: 1001, timescale: 30000),
                          sequenceNumber: 7, metadata: metadata)
        #expect(frame.buffer === buffer)
        #expect(frame.presentationTime == MediaTime(value: 2002, timescale: 60000))
        #expect(frame.sequenceNumber == 7)
        #expect(frame.metadata == metadata)
        #expect(frame.metadata.iso == 150)
    }
}
