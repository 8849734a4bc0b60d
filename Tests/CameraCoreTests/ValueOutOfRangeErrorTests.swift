import CameraCore
import Testing

@Suite("ValueOutOfRangeError")
struct ValueOutOfRangeErrorTests {
    @Test("check returns values inside the range, bounds included", arguments: [-8.0, -7.5, 0, 0.25, 8])
    func inRangeValuesPass(value: Double) throws {
        #expect(try ValueOutOfRangeError.check(value, in: -8...8, setting: "exposure bias", unit: "EV") == value)
    }

    @Test("check throws for values outside the range and for non-finite values",
          arguments: [9.0, -8.0001, 8.000001, 1e300, .infinity, -.infinity])
    func outOfRangeValuesThrow(value: Double) {
        #expect(throws: ValueOutOfRangeError(setting: "exposure bias", value: value, range: -8...8, unit: "EV")) {
            try ValueOutOfRangeError.check(value, in: -8...8, setting: "exposure bias", unit: "EV")
        }
    }

    @Test("check rejects infinities even when the range is unbounded")
    func infinityRejectedByUnboundedRange() throws {
        #expect(try ValueOutOfRangeError.check(1e300, in: 0...Double.infinity, setting: "zoom factor") == 1e300)
        #expect(throws: ValueOutOfRangeError.self) {
            try ValueOutOfRangeError.check(.infinity, in: 0...Double.infinity, setting: "zoom factor")
        }
        #expect(throws: ValueOutOfRangeError.self) {
            try ValueOutOfRangeError.check(-.infinity, in: -Double.infinity...0, setting: "exposure bias")
        }
    }

    @Test("check throws for NaN, naming the setting")
    func nanThrows() throws {
        let error = try #require(throws: ValueOutOfRangeError.self) {
            try ValueOutOfRangeError.check(.nan, in: 0...1, setting: "lens position")
        }
        #expect(error.setting == "lens position")
        #expect(error.value.isNaN)
        #expect(error.range == 0...1)
        #expect(error.description == "lens position nan is outside the supported range 0…1 — choose a value in that range")
    }

    @Test("The description names the setting, the value and the range", arguments: [
        ("exposure bias", 9.0, -8.0...8.0, "EV",
         "exposure bias 9 EV is outside the supported range -8…8 EV — choose a value in that range"),
        ("zoom factor", 0.5, 1...16, "",
         "zoom factor 0.5 is outside the supported range 1…16 — choose a value in that range"),
        ("lens position", 1.25, 0...1, "",
         "lens position 1.25 is outside the supported range 0…1 — choose a value in that range"),
        ("exposure duration", 0.00001, 0.0001...0.5, "s",
         "exposure duration 1e-05 s is outside the supported range 0.0001…0.5 s — choose a value in that range"),
        ("ISO", 3200, 50...1600, "",
         "ISO 3200 is outside the supported range 50…1600 — choose a value in that range"),
        ("white balance gain", 1.0 / 3.0, 1...4, "",
         "white balance gain 0.3333 is outside the supported range 1…4 — choose a value in that range"),
        ("frame rate", -Double.infinity, 1...60, "fps",
         "frame rate -inf fps is outside the supported range 1…60 fps — choose a value in that range"),
    ])
    func description(setting: String, value: Double, range: ClosedRange<Double>, unit: String, expected: String) {
        let error = ValueOutOfRangeError(setting: setting, value: value, range: range, unit: unit)
        #expect(error.description == expected)
    }
}
