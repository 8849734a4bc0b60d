import CameraCore
import CameraExposure
import CameraMetering
import Foundation
import HTTPServer
import Testing
@testable import Viewfinder

/// The camera-setting bodies decode straight into the library's modes; bad ones are 400s that
/// name the value and what is valid.
@Suite struct SettingCommandTests {
    func decode<T: Decodable>(_ json: String, as type: T.Type = T.self) throws(HTTPError) -> T {
        try HTTPRequest(method: .post, path: "/api/x", headers: ["Content-Type": "application/json"], body: Data(json.utf8)).decodeJSON()
    }

    func message<T: Decodable>(_ json: String, as type: T.Type) -> String? {
        do {
            _ = try decode(json, as: type)
            return nil
        } catch {
            #expect(error.status == .badRequest)
            return error.message
        }
    }

    @Test(arguments: FlickerMode.allCases)
    func everyFlickerModeByItsRawValue(_ mode: FlickerMode) throws {
        #expect(try decode(#"{"mode":"\#(mode.rawValue)"}"#) == FlickerCommand(mode: mode))
    }

    @Test func whiteBalanceForms() throws {
        #expect(try decode(#"{"mode":"auto"}"#) == WhiteBalanceCommand(mode: .auto))
        #expect(try decode(#"{"mode":"locked"}"#) == WhiteBalanceCommand(mode: .locked))
        #expect(try decode(#"{"temperature":5500}"#) == WhiteBalanceCommand(mode: .manualTemperature(ColorTemperature(5500))))
        #expect(try decode(#"{"temperature":3200,"tint":-4}"#) == WhiteBalanceCommand(mode: .manualTemperature(ColorTemperature(3200, tint: -4))))
        #expect(try decode(#"{"gains":{"red":1.5,"blue":2}}"#)
            == WhiteBalanceCommand(mode: .manualGains(WhiteBalanceGains(red: 1.5, green: 1, blue: 2))))
    }

    @Test func focusForms() throws {
        #expect(try decode(#"{"mode":"auto"}"#) == FocusCommand(mode: .autoOnce))
        #expect(try decode(#"{"mode":"continuous"}"#) == FocusCommand(mode: .continuous))
        #expect(try decode(#"{"mode":"locked"}"#) == FocusCommand(mode: .locked))
        #expect(try decode(#"{"lensPosition":0.25}"#) == FocusCommand(mode: .manual(lensPosition: 0.25)))
    }

    @Test func torchForms() throws {
        #expect(try decode(#"{"on":true}"#) == TorchCommand(level: 1))
        #expect(try decode(#"{"on":true,"level":0.4}"#) == TorchCommand(level: 0.4))
        #expect(try decode(#"{"on":false}"#) == TorchCommand(level: 0))
    }

    @Test func badBodiesNameTheValueAndTheChoices() {
        #expect(message(#"{"mode":"100"}"#, as: FlickerCommand.self) == #"mode: "100" is not off, 50, 60 or auto"#)
        #expect(message(#"{"mode":50}"#, as: FlickerCommand.self) == "mode: expected a string")
        #expect(message(#"{"mode":"daylight"}"#, as: WhiteBalanceCommand.self) == #"mode: "daylight" is not auto or locked"#)
        #expect(message(#"{"mode":"auto","temperature":5000}"#, as: WhiteBalanceCommand.self)
            == #"the request body: give exactly one of "mode", "temperature" or "gains" (found 2)"#)
        #expect(message(#"{"temperature":"warm"}"#, as: WhiteBalanceCommand.self) == "temperature: expected a number")
        #expect(message(#"{"gains":{"red":1.5}}"#, as: WhiteBalanceCommand.self) == "gains.blue: missing — add it to the JSON object")
        #expect(message(#"{"mode":"macro"}"#, as: FocusCommand.self) == #"mode: "macro" is not auto, continuous or locked"#)
        #expect(message("{}", as: FocusCommand.self) == #"the request body: give exactly one of "mode" or "lensPosition""#)
        #expect(message(#"{"level":0.5}"#, as: TorchCommand.self) == "on: missing — add it to the JSON object")
        #expect(message(#"{"on":false,"level":0.5}"#, as: TorchCommand.self) == #"level: a level goes with "on":true only"#)
        #expect(message(#"{"on":"yes"}"#, as: TorchCommand.self) == "on: expected true or false")
    }

    /// `/state` names each mode as the routes take it.
    @Test func modeNamesRoundTrip() {
        for (name, mode) in FocusMode.named { #expect(mode.name == name) }
        #expect(FocusMode.manual(lensPosition: 0.5).name == "manual")
        for (name, mode) in WhiteBalanceMode.named { #expect(mode.name == name) }
        #expect(WhiteBalanceMode.manualTemperature(ColorTemperature(4000)).name == "temperature")
        #expect(WhiteBalanceMode.manualGains(.unity).name == "gains")
        #expect(MeteringMode.named.map(\.name) == ["average", "centre", "spot", "matrix", "sun"])
    }
}
